/* ---- a watch log (src/trend.js, put in after the data by trendpage.c) ---- */
/* Each grower in a small chart of its own scale: the floor (each bucket's
 * least eff_resident, what the slope is fitted to) as a line, the band up to
 * the bucket's most; then MemTotal's parts stacked; then every row. The
 * charts are SVG in CSS pixels, and say their scale in data-* attributes. */
var SVGNS = "http://www.w3.org/2000/svg";
function svg(parent, tag, attrs) {
	var e = document.createElementNS(SVGNS, tag);
	for (var k in attrs) e.setAttribute(k, attrs[k]);
	parent.appendChild(e);
	return e;
}
function span(ms) {
	var s = ms / 1000;
	return s < 120 ? Math.round(s) + " s" : s < 7200 ? (s / 60).toFixed(1) + " min" :
		s < 172800 ? (s / 3600).toFixed(1) + " h" : (s / 86400).toFixed(1) + " d";
}
function perHour(v) { return v === null ? "-" : signed(v) + "/h"; }
/* The frame of a chart: x from t0..t1 ms, y from v0..v1 bytes, in px. */
function frame(parent, w, h, t1, v0, v1) {
	var L = 56, R = 8, T = 8, B = 20, s = svg(parent, "svg", { width: w, height: h, "class": "series" });
	if (v1 <= v0) v1 = v0 + 4096;
	if (t1 <= 0) t1 = 1;
	var m = { x0: L, x1: w - R, y0: h - B, y1: T, t0: 0, t1: t1, v0: v0, v1: v1 };
	for (var k in m) s.dataset[k] = m[k];
	m.x = function (t) { return m.x0 + (m.x1 - m.x0) * (t - m.t0) / (m.t1 - m.t0); };
	m.y = function (v) { return m.y0 + (m.y1 - m.y0) * (v - m.v0) / (m.v1 - m.v0); };
	svg(s, "rect", { x: m.x0, y: m.y1, width: m.x1 - m.x0, height: m.y0 - m.y1, fill: "#fff", stroke: "#bbb" });
	[[v0, m.y0 - 2], [v1, m.y1 + 10]].forEach(function (a) {
		svg(s, "text", { x: m.x0 - 4, y: a[1], "text-anchor": "end", "font-size": 11 }).textContent = human(a[0]);
	});
	[[0, "start"], [t1, "end"]].forEach(function (a) {
		svg(s, "text", { x: m.x(a[0]), y: h - 5, "text-anchor": a[1], "font-size": 11 }).textContent =
			a[0] ? span(a[0]) : "0";
	});
	m.svg = s;
	return m;
}
function pts(m, t, v) {
	return t.map(function (x, i) { return m.x(x).toFixed(2) + "," + m.y(v[i]).toFixed(2); }).join(" ");
}
function grower(parent, s) {
	var box = add(parent, el("div", "grower")), t = s[4], lo = s[5], hi = s[6];
	var name = s[0] === "file" ? base(s[1]) : s[1] + (s[2] ? " " + s[2].split(" ").slice(1).join(" ") : "");
	var title = add(box, el("div", "gname", perHour(s[3]) + "  " + name));
	title.title = s[1] + (s[2] ? "\n" + s[2] : "");
	var m = frame(box, 360, 130, D.head.span, Math.min.apply(null, lo), Math.max.apply(null, hi));
	m.svg.dataset.name = s[1];
	m.svg.dataset.kind = s[0];
	svg(m.svg, "polygon", { "class": "band", fill: "#f5c6c0", stroke: "none",
		points: pts(m, t, hi) + " " + pts(m, t.slice().reverse(), lo.slice().reverse()) });
	svg(m.svg, "polyline", { "class": "floor", fill: "none", stroke: "#a02a1e", "stroke-width": 1.5,
		points: pts(m, t, lo) });
}
function growers(parent, kind, title) {
	var list = D.series.filter(function (s) { return s[0] === kind; });
	add(parent, el("h2", null, title + " (" + list.length + ")"));
	if (list.length) {
		var g = add(parent, el("div", "cols"));
		g.id = kind === "file" ? "gfiles" : kind === "part" ? "gparts" : "gprocs";
		list.forEach(function (s) { grower(g, s); });
	} else {
		add(parent, el("p", "meta", "None judged."));
	}
	brief(parent, kind);
}
/* The brief rows of a kind, apart: how many, the largest peak, the longest life. */
function brief(parent, kind) {
	var b = D.brief[kind], h = D.head, name = function (r) {
		return r[0] === "file" ? r[1] : r[1] + (r[2] ? " " + r[2].split(" ").slice(1).join(" ") : "");
	};
	if (!b || !b[0]) return;
	var p = add(parent, el("p", "meta brief", "Brief, no slope: " + b[0] + (kind === "process" ?
		" processes" : kind === "file" ? " files" : " parts") + " (each in under 1/" + h.share +
		" of the samples, or for under " + h.min_ms / 1000 + " s or " + h.min_samples +
		" samples). The largest peak: " + human(b[1][7]) + ", " + name(b[1]) +
		". The longest life: " + span(b[2][11]) + ", " + name(b[2]) + "."));
	p.dataset.kind = kind;
	p.dataset.count = b[0];
}
/* MemTotal's parts, as the ram view's CSV has them (they add up to it), stacked
 * in its order. */
function ramStack(parent) {
	if (!D.ram.length || !D.ramt.length) {
		add(parent, el("p", "meta", "The log holds no ram view's parts."));
		return;
	}
	var parts = D.ram, t = D.ramt, below = [];
	var sum = t.map(function (x, i) {
		return parts.reduce(function (a, r) { return a + Math.max(0, r[2][i] || 0); }, 0);
	});
	var m = frame(parent, 760, 300, t[t.length - 1], 0, Math.max.apply(null, sum));
	m.svg.id = "ramstack";
	var leg = add(parent, el("div", "legend")), base0 = t.map(function () { return 0; });
	parts.forEach(function (r, k) {
		var v = t.map(function (x, i) { return Math.max(0, r[2][i] || 0); });
		var upper = base0.map(function (b, i) { return b + v[i]; });
		var c = RAMCOLORS[k % RAMCOLORS.length];
		var p = svg(m.svg, "polygon", { "class": "part", fill: c, stroke: "none",
			points: pts(m, t, upper) + " " + pts(m, t.slice().reverse(), base0.slice().reverse()) });
		p.dataset.name = r[0];
		p.dataset.v = JSON.stringify(v);
		if (r[2].some(function (x) { return x < 0; })) below.push(r[0]);
		var s = add(leg, el("span"));
		add(s, el("i")).style.background = c;
		add(s, document.createTextNode(r[0] + " " + human(v[v.length - 1])));
		base0 = upper;
	});
	if (below.length)
		add(parent, el("p", "meta", "Drawn at 0 where below zero (the counters disagreed): " + below.join(", ")));
}
function trendPage() {
	var h = D.head, main = $("main"), box = add($("head"), el("div"));
	document.title = "exmap-mini: trend of " + h.log;
	add(box, el("h1", null, "exmap-mini trend: " + h.log));
	var meta = add(box, el("div", "meta"));
	[["samples", h.samples + " over " + span(h.span)], ["from", when(h.time)], ["to", when(h.until)]]
		.concat(h.skipped ? [["warm-up left out", h.skipped + " samples"]] : [])
		.concat(h.runs > 1 ? [["watch runs", h.runs]] : [])
		.concat(h.lost ? [["lines lost", h.lost + " (their values left out, never guessed)"]] : [])
		.forEach(function (k) { add(meta, el("span", null, k[0] + ": " + k[1])); });
	notes(D.notes);
	add(main, el("p", "meta", "Slope: how fast the floor rose (each window's least eff_resident, Theil-Sen's " +
		"median of the slopes between windows), an hour; a row of several processes: the floor of " +
		"their mean, times their count. Growing: it rose " + human(h.grow_min) +
		" or more, steadily. Judged only with evidence: in 1/" + h.share + " of the samples, for " +
		h.min_ms / 1000 + " s and " + h.min_samples + " samples at least. The line is the floor, " +
		"the band up to each moment's most."));
	if (h.pick) {
		growers(main, "part", "The largest growers: the parts of " + h.pick);
	} else {
		growers(main, "process", "The largest growers: processes, by name and command line");
		growers(main, "file", "The largest growers: files");
	}
	add(main, el("h2", null, "All of RAM over time: MemTotal's parts, stacked"));
	ramStack(main);
	add(main, el("h2", null, "Every row, by slope"));
	var rows = D.rows.map(function (r) {
		return { kind: r[0], name: r[1], cmd: r[2] || "", n: r[3], v: r.slice(4, 8), slope: r[8], sole: r[9],
			grows: r[10], life: r[11], brief: r[12] };
	});
	table(main, [
		{ h: "KIND", get: function (r) { return r.brief ? r.kind + ", brief" : r.kind; } },
		{ h: "", get: function (r) { return r.grows ? "*" : ""; }, title: "* grows" },
		{ h: "SLOPE/h", num: 1, get: function (r) { return r.slope === null ? -Infinity : r.slope; },
		  fmt: function (v) { return v === -Infinity ? "-" : signed(v); } },
		{ h: "SOLE/h", num: 1, get: function (r) { return r.sole === null ? -Infinity : r.sole; },
		  fmt: function (v) { return v === -Infinity ? "-" : signed(v); } },
		{ h: "SAMPL", num: 1, get: function (r) { return r.n; } },
		{ h: "LIFE", num: 1, fmt: span, get: function (r) { return r.life; } }
	].concat(["FIRST", "LAST", "MIN", "MAX"].map(function (x, i) {
		return { h: x, num: 1, fmt: human, get: function (r) { return r.v[i]; } };
	}), [
		{ h: "NAME", wrap: 1, get: function (r) { return r.name; } },
		{ h: "COMMAND", wrap: 1, get: function (r) { return r.cmd; } }
	]), rows, 2, null).id = "trows";
}
