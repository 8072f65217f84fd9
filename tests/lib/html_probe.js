/* The html view's page, measured from inside a real browser (tests/lib/html_check.py
 * appends this to a copy of the page, runs chromium --dump-dom and reads the
 * JSON it leaves in a pre element, id xm-result): every shape the map draws, with
 * its area from the browser's own layout, before and after a synthetic click
 * into each box, in every perspective; the tooltip; a table sorted by a
 * click; the ram bar; diff's bars; and what the page loaded from outside.
 * At the load event, so that what the page asked for has been seen. */
addEventListener("load", function () {
	var R = { errors: window.__xm_errors || [], csp: window.__xm_csp || [] };
	function box(e) {
		var r = e.getBoundingClientRect();
		return { x: r.left, y: r.top, w: r.width, h: r.height, area: r.width * r.height };
	}
	function tiles() {
		return Array.prototype.map.call(document.querySelectorAll("#map > .t1"), function (d) {
			var b = box(d);
			b.name = d.dataset.name;
			b.kind = d.dataset.kind;
			b.v = Number(d.dataset.v);
			b.kids = Array.prototype.map.call(d.querySelectorAll(":scope > .t2"), function (c) {
				var k = box(c);
				k.name = c.dataset.name;
				k.v = Number(c.dataset.v);
				return k;
			});
			return b;
		});
	}
	function crumbs() { return document.getElementById("crumbs").textContent; }
	function click(e) {
		var b = e.getBoundingClientRect();
		e.dispatchEvent(new MouseEvent("click", { bubbles: true, clientX: b.left + 2, clientY: b.top + 2 }));
	}
	function tile(name) {
		return Array.prototype.filter.call(document.querySelectorAll("#map > .t1"), function (d) {
			return d.dataset.name === name;
		})[0];
	}
	/* the map at its root, then zoomed into each box and back out by the breadcrumb */
	function walk() {
		var out = { crumbs: crumbs(), tiles: tiles(), zoom: {} };
		out.tiles.forEach(function (t) {
			var d = tile(t.name);
			if (!d) return;
			click(d);
			out.zoom[t.name] = { crumbs: crumbs(), tiles: tiles() };
			var up = document.querySelector("#crumbs a");
			if (up) up.click();
		});
		out.back = crumbs();
		return out;
	}
	var map = document.getElementById("map");
	if (map) {
		R.map = box(map);
		R.procs = walk();
		var first = map.querySelector(".t1");
		if (first) {
			var b = first.getBoundingClientRect();
			first.dispatchEvent(new MouseEvent("mousemove", { bubbles: true, clientX: b.left + 3, clientY: b.top + 3 }));
			var tip = document.getElementById("tip");
			R.tip = { shown: getComputedStyle(tip).display !== "none", text: tip.innerText, name: first.dataset.name };
		}
		document.querySelector('#tabs button[data-p="files"]').click();
		R.files = walk();
		var cg = document.querySelector('#tabs button[data-p="cgroups"]');
		if (cg) {
			cg.click();
			R.cgroups = walk();
		}
		document.querySelector('#tabs button[data-p="procs"]').click();
		/* a table sorted by a click on RESID: its column, top to bottom, in bytes */
		var t = document.getElementById("procs");
		if (t) {
			var heads = Array.prototype.map.call(t.querySelectorAll("th"), function (h) { return h.textContent; });
			var col = heads.indexOf("RESID");
			t.querySelectorAll("th")[col].click();
			R.sorted = Array.prototype.map.call(t.querySelectorAll("tbody tr"), function (tr) {
				return Number(tr.children[col].title.replace(/[^0-9]/g, ""));
			});
			R.sorted_head = t.querySelector("th.sorted").textContent;
		}
		var bar = document.getElementById("rambar");
		if (bar) {
			R.ram = { bar: box(bar), segs: Array.prototype.map.call(bar.children, function (s) {
				var k = box(s);
				k.name = s.dataset.name;
				k.v = Number(s.dataset.v);
				return k;
			}) };
		}
	}
	["dprocs", "dfiles"].forEach(function (id) {
		var c = document.getElementById(id);
		if (!c) return;
		R[id] = Array.prototype.map.call(c.querySelectorAll(".track"), function (tr) {
			var bar = tr.children[0], axis = tr.querySelector(".axis");
			var k = box(bar);
			k.name = bar.dataset.name;
			k.v = Number(bar.dataset.v);
			k.track = box(tr);
			k.axis = box(axis).x;
			return k;
		});
	});
	/* a watch log's page: each chart's scale and what it drew, in its own px */
	function scale(s) {
		var m = {};
		["x0", "x1", "y0", "y1", "t0", "t1", "v0", "v1"].forEach(function (k) { m[k] = Number(s.dataset[k]); });
		m.box = box(s);
		return m;
	}
	function points(e) {
		return e.getAttribute("points").trim().split(/\s+/).map(function (p) { return p.split(",").map(Number); });
	}
	var charts = document.querySelectorAll("svg.series");
	if (charts.length) {
		R.growers = Array.prototype.filter.call(charts, function (s) { return s.dataset.name != null; })
			.map(function (s) {
				return { name: s.dataset.name, kind: s.dataset.kind, scale: scale(s),
					 floor: points(s.querySelector(".floor")), band: points(s.querySelector(".band")) };
			});
		var st = document.getElementById("ramstack");
		if (st)
			R.ramstack = { scale: scale(st), parts: Array.prototype.map.call(st.querySelectorAll(".part"), function (p) {
				return { name: p.dataset.name, v: JSON.parse(p.dataset.v), points: points(p) };
			}) };
		var tr = document.getElementById("trows");
		if (tr) R.trows = tr.querySelectorAll("tbody tr").length;
		R.brief = Array.prototype.map.call(document.querySelectorAll("p.brief"), function (p) {
			return { kind: p.dataset.kind, count: p.dataset.count, text: p.textContent };
		});
	}
	R.resources = performance.getEntriesByType("resource").map(function (e) { return e.name; });
	R.title = document.title;
	var pre = document.createElement("pre");
	pre.id = "xm-result";
	pre.textContent = JSON.stringify(R);
	document.body.appendChild(pre);
});
