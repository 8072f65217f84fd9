#!/usr/bin/env python3
"""Checks of the pictures: the html view's page in a real browser (Debian's
chromium, headless) and the folded view's lines. Prints one line per check,
"ok   WHAT" or "FAIL WHAT: why", and nothing else on stdout.

usage:
  html_check.py page EXMAP OUTDIR SCAN... -- PID...
      The page of SCAN (-l CAPTURE, with -S if wanted) for the PIDs (-P), in
      chromium: every process and file has a box whose area is its
      eff_resident's share of the map within 1% (the CLI's CSV of the same
      scan is the reference), the boxes inside each box add up to it, a
      synthetic click zooms into a process and shows its files (and in the
      Files perspective, into a file and shows its processes), the breadcrumb
      leads back, the tooltip holds all eight figures, a click on a column's
      head sorts the table, the ram bar's parts add up to installed RAM. It
      loads nothing from outside: no resource, no blocked request, no
      external reference in the page; a planted image is caught both ways
      (the check can fail). A screenshot, not blank: OUTDIR/report.png.
  html_check.py folded EXMAP SCAN... -- PID...
      Every line parses as flame-graph tools read it (the last space before
      the count); the lines add up to the procs view's total eff_resident,
      for the whole scan and for -P PIDS; -F FILE gives that file's lines,
      adding up to its files row.
  html_check.py diff EXMAP OUTDIR A B
      diff A B html: a bar for each of the largest changes of eff_resident,
      to the right for growth and the left for shrinkage, its length in
      proportion to the change diff -c gives, the largest first.
  html_check.py trend EXMAP OUTDIR LOG CSV PAGE
      A watch log's page (PAGE, from -l LOG html) against its -c trend (CSV):
      the growers' charts are the largest slopes, in order; each floor drawn
      to its chart's scale, which runs from the row's min to its max; the ram
      view's parts of MemTotal stacked to scale, their top at the last sample
      the log's last capture's MemTotal; every row in the table; nothing
      loaded from outside. A screenshot, not blank: OUTDIR/trend.png.
"""
import csv
import html
import io
import json
import os
import re
import struct
import subprocess
import sys
import tempfile
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import check, fail, ok  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
EFF = 4
FIGS = ["vm", "mapped", "resident", "eff_mapped", "eff_resident", "sole", "writable", "swap"]
# The flags a root, sandboxed, offline machine needs (Chromium tries Google's
# hosts at start without them), and a profile of its own each run.
CHROME = ["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
          "--no-first-run", "--disable-background-networking", "--disable-component-update",
          "--disable-sync", "--hide-scrollbars"]
WINDOW = "--window-size=1200,900"


def run(args, **kw):
    return subprocess.run(args, capture_output=True, text=True, **kw)


def csv_rows(text):
    return list(csv.DictReader(io.StringIO(text)))


def chrome_dom(page, tmp, name):
    """The page (text) in chromium, the probe appended: its result, or None."""
    probe = open(os.path.join(HERE, "html_probe.js")).read()
    early = ("<script>window.__xm_errors=[];window.__xm_csp=[];"
             "addEventListener('error',function(e){__xm_errors.push(String(e.message))});"
             "document.addEventListener('securitypolicyviolation',function(e)"
             "{__xm_csp.push(e.blockedURI)});</script>")
    page = page.replace("<head>", "<head>" + early, 1)
    page = page.replace("</body>", "<script>" + probe + "</script></body>", 1)
    path = os.path.join(tmp, name)
    with open(path, "w") as f:
        f.write(page)
    r = run(CHROME + [WINDOW, "--user-data-dir=" + os.path.join(tmp, "profile-" + name),
                      "--dump-dom", "file://" + path], timeout=120)
    m = None
    for m in re.finditer(r'<pre id="xm-result">(.*?)</pre>', r.stdout, re.S):
        pass
    if not m:
        fail(f"chromium ran the page ({name})", f"exit {r.returncode}, no result: "
             f"{r.stderr.strip().splitlines()[-3:]}")
        return None
    return json.loads(html.unescape(m.group(1)))


def png_pixels(path):
    """A PNG's width, height and pixel rows (8-bit RGB or RGBA, as chromium writes)."""
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    at, idat, w = 8, b"", 0
    while at < len(data):
        n, kind = struct.unpack(">I4s", data[at:at + 8])
        body = data[at + 8:at + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
            if depth != 8 or ctype not in (2, 6):
                raise ValueError(f"PNG depth {depth} colour type {ctype}")
            bpp = 4 if ctype == 6 else 3
        elif kind == b"IDAT":
            idat += body
        at += 12 + n
    raw, stride, rows, prev = zlib.decompress(idat), w * bpp, [], bytearray(w * bpp)
    for y in range(h):
        ft, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if ft == 1:
                line[i] = (line[i] + a) & 255
            elif ft == 2:
                line[i] = (line[i] + b) & 255
            elif ft == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif ft == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, bpp, rows


def shares(what, tiles, total_area, want):
    """Each box's area, as a share of total_area, against want[name] as a
    share of want's sum: within 1% (of the share). Boxes too small for the
    layout's precision (under 200 px^2) are counted, not compared."""
    vsum = sum(v for v in want.values() if v > 0)
    named = {t["name"]: t for t in tiles}
    shown = {k for k, v in want.items() if v > 0}
    check(f"{what}: a box for each with eff_resident ({len(shown)})", set(named) == shown,
          f"boxes {sorted(set(named) - shown)} extra, {sorted(shown - set(named))} missing")
    worst, small = 0.0, 0
    for name in shown & set(named):
        exp = want[name] / vsum
        if exp * total_area < 200:
            small += 1
            continue
        worst = max(worst, abs(named[name]["area"] / total_area / exp - 1))
    check(f"{what}: areas in proportion to eff_resident within 1% (worst {worst:.4%}"
          f"{f', {small} boxes too small to measure' if small else ''})", worst <= 0.01,
          f"worst {worst:.4%}")


def add_up(what, tiles):
    """The boxes inside each box fill it: their areas add up to its area."""
    worst = 0.0
    for t in tiles:
        if t["kids"]:
            worst = max(worst, abs(sum(k["area"] for k in t["kids"]) / t["area"] - 1))
    check(f"{what}: the boxes inside each box add up to it (worst {worst:.4%})", worst <= 0.001,
          f"worst {worst:.4%}")


def page(exmap, outdir, scan, pids):
    tmp = tempfile.mkdtemp(prefix="xm-html.")
    P = ["-P", ",".join(pids)]
    r = run([exmap] + scan + P + ["html"])
    check("html: the page is made (exit 0, or 1 for a process the capture could not read)",
          r.returncode in (0, 1) and r.stdout.endswith("</html>\n"), f"exit {r.returncode}: {r.stderr}")
    text = r.stdout
    with open(os.path.join(outdir, "report.html"), "w") as f:
        f.write(text)
    procs = {f"{x['name']} {x['pid']}": int(x["eff_resident"])
             for x in csv_rows(run([exmap] + scan + P + ["-c", "procs"]).stdout)}
    pfiles = {}
    for pid in pids:
        rows = csv_rows(run([exmap] + scan + ["-P", pid, "-c", "files"]).stdout)
        pfiles[pid] = {x["path"]: int(x["eff_resident"]) for x in rows}
    files = {x["path"]: int(x["eff_resident"])
             for x in csv_rows(run([exmap] + scan + P + ["-c", "files"]).stdout)}
    fprocs = {}
    for path in files:
        rows = csv_rows(run([exmap] + scan + P + ["-F", path, "-c", "procs"]).stdout)
        fprocs[path] = {f"{x['name']} {x['pid']}": int(x["eff_resident"]) for x in rows}

    R = chrome_dom(text, tmp, "page.html")
    if R is None:
        return
    check("no script error in the page", not R["errors"], str(R["errors"]))
    area = R["map"]["area"]
    # Processes > files
    shares("processes at the root", R["procs"]["tiles"], area, procs)
    add_up("processes at the root", R["procs"]["tiles"])
    for t in R["procs"]["tiles"]:
        pid = t["name"].rsplit(" ", 1)[1]
        z = R["procs"]["zoom"].get(t["name"])
        if not z:
            fail(f"a click into {t['name']}", "no zoom recorded")
            continue
        check(f"a click into {t['name']}: the breadcrumb says where",
              z["crumbs"].startswith("All processes") and t["name"] in z["crumbs"], z["crumbs"])
        shares(f"{t['name']}'s files", z["tiles"], area, pfiles[pid])
        add_up(f"{t['name']}'s files", z["tiles"])
    check("the breadcrumb leads back to all processes", R["procs"]["back"].startswith("All processes")
          and "\u203a" not in R["procs"]["back"], R["procs"]["back"])
    # Files > processes
    shares("files at the root (the Files perspective)", R["files"]["tiles"], area, files)
    for t in R["files"]["tiles"]:
        z = R["files"]["zoom"].get(t["name"])
        if z is None:
            continue
        shares(f"{os.path.basename(t['name'])}'s processes", z["tiles"], area, fprocs[t["name"]])
    # Cgroups > processes: each cgroup's box its eff_resident (the cgroups
    # view's, of the processes -P names), and inside it its processes, adding
    # up to it
    cgroups = {x["cgroup"]: int(x["eff_resident"])
               for x in csv_rows(run([exmap] + scan + P + ["-c", "cgroups"]).stdout)}
    if "cgroups" in R:
        shares("cgroups at the root (the Cgroups perspective)", R["cgroups"]["tiles"], area, cgroups)
        bad = []
        for t in R["cgroups"]["tiles"]:
            z = R["cgroups"]["zoom"].get(t["name"], {}).get("tiles", [])
            if abs(sum(k["v"] for k in z) - cgroups.get(t["name"], -1)) > len(z) or \
                    not all(k["kind"] == "process" and k["name"] in procs for k in z):
                bad.append((t["name"], [(k["name"], k["v"]) for k in z]))
        check("a click into each cgroup: its processes, their eff_resident adding up to it", not bad,
              repr(bad[:2]))
    else:
        check("no Cgroups perspective: the capture holds no cgroups", not cgroups, repr(cgroups))
    # the tooltip: all eight figures, in bytes, as the CSV has them
    tip = R.get("tip", {})
    want = [x for x in csv_rows(run([exmap] + scan + P + ["-c", "procs"]).stdout)
            if f"{x['name']} {x['pid']}" == tip.get("name")]
    if want:
        missing = [f for f in FIGS if f"{int(want[0][f]):,} B" not in tip.get("text", "")
                   or f not in tip.get("text", "")]
        check(f"the tooltip of {tip['name']} shows all eight figures, to the byte",
              tip["shown"] and not missing, f"missing {missing}: {tip.get('text')!r}")
    else:
        fail("the tooltip", f"no tooltip recorded for a process: {tip}")
    # a table sorted by a click on RESID
    s = R.get("sorted", [])
    check("a click on the processes table's RESID sorts it, largest first",
          R.get("sorted_head") == "RESID" and s == sorted(s, reverse=True) and len(s) == len(procs),
          f"{R.get('sorted_head')}: {s}")
    # the ram bar: its parts are installed RAM
    ram = R.get("ram")
    if ram:
        inst = [int(x["bytes"]) for x in csv_rows(run([exmap] + scan + ["-c", "ram"]).stdout)
                if x["category"] == "installed"]
        vsum = sum(sg["v"] for sg in ram["segs"])
        wsum = sum(sg["w"] for sg in ram["segs"])
        check("the ram bar's parts add up to installed RAM (the ram view's CSV)",
              inst and abs(vsum - inst[0]) <= max(inst[0] // 100, 1) and
              abs(wsum / (ram["bar"]["w"] - 2) - vsum / inst[0]) < 0.01,
              f"parts {vsum}, installed {inst}, widths {wsum} of {ram['bar']['w']}")
    elif "-l" in scan:
        ok("the capture holds no ram view, and the page has no ram bar")
    # offline: nothing loaded, nothing blocked, nothing named outside the page
    check("the page loaded nothing (no resource entry)", not R["resources"], str(R["resources"]))
    check("the page asked for nothing its policy blocked", not R["csp"], str(R["csp"]))
    # the page but its data (names from the scan, in string literals)
    code = "\n".join(ln for ln in text.split("\n") if not re.match(r'(D\.[a-z]+ = |\[|var D = )', ln))
    refs = re.findall(r'(?i)(?:src|href|action|srcset|poster|data)\s*=|url\(|@import|https?:|wss?:|ftp:|'
                      r'fetch\(|XMLHttpRequest|WebSocket|EventSource|sendBeacon|importScripts|'
                      r'<link|<iframe|<img|<object|<embed|<video|<audio|<source|<base', code)
    check(f"the page but its data names nothing outside it ({len(code)} bytes looked at)",
          not refs and len(code) > 10000, str(refs))
    planted = text.replace("</body>", '<img src="https://example.invalid/x.png"></body>', 1)
    P1 = chrome_dom(planted, tmp, "planted.html")
    check("control: a planted image is blocked by the page's policy, and seen",
          P1 is not None and any("example.invalid" in u for u in P1["csp"]), str(P1 and P1["csp"]))
    open_page = re.sub(r'<meta http-equiv="Content-Security-Policy"[^>]*>', "", planted)
    P2 = chrome_dom(open_page, tmp, "open.html")
    check("control: without the policy the planted image is a resource entry",
          P2 is not None and any("example.invalid" in u for u in P2["resources"]),
          str(P2 and P2["resources"]))
    P3 = chrome_dom(re.sub(r'<meta http-equiv="Content-Security-Policy"[^>]*>', "", text),
                    tmp, "nopolicy.html")
    check("without its policy the page still loads nothing", P3 is not None and
          not P3["resources"], str(P3 and P3["resources"]))
    # a screenshot, not blank
    shot = os.path.abspath(os.path.join(outdir, "report.png"))
    r = run(CHROME + [WINDOW, "--user-data-dir=" + os.path.join(tmp, "profile-shot"),
                      "--screenshot=" + shot, "file://" + os.path.abspath(os.path.join(outdir, "report.html"))],
            timeout=120)
    try:
        w, h, bpp, rows = png_pixels(shot)
        colours, inked = set(), 0
        for y in range(0, h, 4):
            row = rows[y]
            for x in range(0, w * bpp, 4 * bpp):
                px = row[x:x + 3]
                colours.add(px)
                inked += px != b"\xfa\xfa\xfa" and px != b"\xff\xff\xff"
        n = ((h + 3) // 4) * ((w + 3) // 4)
        check(f"the screenshot ({w}x{h}) is not blank: {len(colours)} colours, "
              f"{100 * inked // n}% drawn", len(colours) >= 16 and inked * 5 >= n,
              f"{len(colours)} colours, {inked} of {n} samples drawn")
    except (OSError, ValueError) as e:
        fail("the screenshot", f"{e}: {r.stderr.strip()[-200:]}")


def folded(exmap, scan, pids):
    def lines(args):
        r = run([exmap] + scan + args + ["folded"])
        return r, [ln for ln in r.stdout.split("\n") if ln]

    def total(args, view="procs", key=None):
        rows = csv_rows(run([exmap] + scan + args + ["-c", view]).stdout)
        return sum(int(x["eff_resident"]) for x in rows if key is None or x["path"] == key)

    def rows(args):
        return len(csv_rows(run([exmap] + scan + args + ["-c", "procs"]).stdout))

    def parse(ls):
        bad, sums, depth = [], 0, {}
        for ln in ls:
            m = re.fullmatch(r"(\S+) (\d+)", ln)
            frames = m.group(1).split(";") if m else []
            if not m or not 2 <= len(frames) <= 4 or any(
                    f == "" or re.search(r"%(?![0-9A-F]{2})", f) for f in frames):
                bad.append(ln)
                continue
            sums += int(m.group(2))
            depth[len(frames)] = depth.get(len(frames), 0) + 1
        return bad, sums, depth

    r, ls = lines([])
    bad, s, depth = parse(ls)
    check(f"folded: {len(ls)} lines, each 'frame;frame... count' with the count after the last "
          f"space, 2 to 4 frames (by depth: {dict(sorted(depth.items()))})",
          ls and not bad and r.returncode in (0, 1), f"exit {r.returncode}; {bad[:3]}")
    # the CSV's rows are each rounded to a byte: their sum may be off by half
    # a byte a row; the lines are rounded to add up to the exact total
    t, n = total([]), rows([])
    check(f"folded: the lines add up to the procs view's total eff_resident ({s} = {t}, "
          f"within half a byte for each of its {n} rows)", abs(s - t) <= n // 2 + 1, f"{s} against {t}")
    P = ["-P", ",".join(pids)]
    r, ls = lines(P)
    bad, s, _ = parse(ls)
    t = total(P)
    check(f"folded -P: the workload's lines add up to its processes' eff_resident ({s} = {t})",
          not bad and abs(s - t) <= len(pids) // 2 + 1 and all(ln.split(";")[0].rsplit("-", 1)[1] in pids for ln in ls),
          f"{s} against {t}; {bad[:3]}")
    files = {ln.rsplit(" ", 1)[0].split(";")[1] for ln in ls}
    for path in sorted(files)[:6]:
        if path.startswith("["):
            continue
        real = re.sub(r"%([0-9A-F]{2})", lambda m: chr(int(m.group(1), 16)), path)
        r, fl = lines(P + ["-F", real])
        bad, s, _ = parse(fl)
        t = total(P, "files", real)
        check(f"folded -F {os.path.basename(real)}: its lines only, adding up to its files row "
              f"({s} = {t})", not bad and all(ln.rsplit(" ", 1)[0].split(";")[1] == path for ln in fl)
              and abs(s - t) <= 1,
              f"{s} against {t}")
    ra, la = lines(P + ["-a"])
    check(f"folded -a: every leaf, zero ones too ({len(la)} lines, {len(ls)} without -a)",
          len(la) >= len(ls) and parse(la)[1] == parse(ls)[1], "")


def diff(exmap, outdir, a, b):
    tmp = tempfile.mkdtemp(prefix="xm-diff.")
    r = run([exmap, "diff", a, b, "html"])
    check("diff a b html: the page is made (exit 0, or 1 for a process a capture could not read)",
          r.returncode in (0, 1) and r.stdout.endswith("</html>\n"), f"exit {r.returncode}: {r.stderr}")
    with open(os.path.join(outdir, "diff.html"), "w") as f:
        f.write(r.stdout)
    rows = csv_rows(run([exmap, "-a", "-c", "diff", a, b]).stdout)
    R = chrome_dom(r.stdout, tmp, "diff.html")
    if R is None:
        return
    check("no script error in diff's page", not R["errors"], str(R["errors"]))
    check("diff's page: its title names both captures, a then b",
          R.get("title", "").find(a) >= 0 and R["title"].find(b) > R["title"].find(a),
          repr(R.get("title")))
    for kind, key in (("proc", "dprocs"), ("file", "dfiles")):
        changes = [(int(x["eff_resident"]), x["name"]) for x in rows
                   if x["kind"] == kind and int(x["eff_resident"])]
        bars = R.get(key, [])
        got = [(int(x["v"]), x["name"]) for x in bars]
        shown = sorted(abs(v) for v, _ in got)
        rest = list(changes)
        for g in got:
            if g in rest:
                rest.remove(g)
        check(f"diff: a bar for each of the {len(got)} largest changes of the {kind}s "
              f"(of {len(changes)}), largest first, each as diff -c gives it",
              len(got) == min(15, len(changes)) and len(rest) == len(changes) - len(got) and
              [abs(v) for v, _ in got] == sorted(shown, reverse=True) and
              (not rest or not shown or max(abs(v) for v, _ in rest) <= shown[0]),
              f"{got[:4]} against {sorted(changes, key=lambda d: -abs(d[0]))[:4]}")
        if not bars:
            continue
        big = max(abs(x["v"]) for x in bars)
        worst, side = 0.0, []
        for x in bars:
            worst = max(worst, abs(x["w"] / (x["track"]["w"] / 2) - abs(x["v"]) / big))
            grow = x["x"] >= x["axis"] - 1
            shrink = x["x"] + x["w"] <= x["axis"] + 1
            side.append(grow if x["v"] > 0 else shrink)
        check(f"diff: the {kind}s' bars in proportion to the change (worst {worst:.4f} of the half "
              f"track), growth right of the axis, shrinkage left", worst < 0.01 and all(side),
              f"worst {worst}, sides {side}")


def js_data(text, key):
    """D.key's value in a page, as JSON (the page writes it so)."""
    m = re.search(r"^D\." + key + r" = (.*?);$", text, re.S | re.M)
    return json.loads(m.group(1)) if m else None


def trend(exmap, outdir, log, csvfile, pagefile):
    """A watch log's page: the growers drawn to scale, MemTotal's parts stacked."""
    tmp = tempfile.mkdtemp(prefix="xm-trend.")
    text = open(pagefile).read()
    check("the trend's page is made", text.endswith("</html>\n"), text[-200:])
    # the CSV has other processes' command lines as they are: any bytes
    rows = csv_rows(open(csvfile, encoding="utf-8", errors="replace").read())
    series, ram, ramt = js_data(text, "series"), js_data(text, "ram"), js_data(text, "ramt")
    R = chrome_dom(text, tmp, "trend.html")
    if R is None or series is None:
        fail("the trend's page and its data", "no result or no D.series")
        return
    check("no script error in the trend's page", not R["errors"], str(R["errors"]))
    check("the trend's page loads nothing and breaks no policy",
          not R["resources"] and not R["csp"], f"{R['resources']} {R['csp']}")
    for kind in ("process", "file"):
        want = [(x["name"], x["cmdline"]) for x in rows if x["kind"] == kind and x["brief"] == "0"][:8]
        got = [(g["name"], g.get("cmd")) for g in R["growers"] if g["kind"] == kind]
        check(f"the page's {kind} charts are the {len(want)} largest slopes of -c trend, in order",
              [n for n, _ in got] == [n for n, _ in want], f"{got[:3]} against {want[:3]}")
        brief = sum(1 for x in rows if x["kind"] == kind and x["brief"] == "1")
        said = [b for b in R.get("brief", []) if b["kind"] == kind]
        check(f"the page says the {brief} brief {kind} rows of -c trend apart",
              (said and int(said[0]["count"]) == brief) if brief else not said, str(said))
    by = {(x["kind"], x["name"], x["cmdline"]): x for x in rows}
    worst, bad = 0.0, []
    for g, z in zip(R["growers"], series):
        m, t, lo, hi = g["scale"], z[4], z[5], z[6]
        row = by.get((g["kind"], g["name"], z[2] or ""))
        if not row or z[1] != g["name"] or int(row["min"]) != min(lo) or int(row["max"]) != max(hi) \
                or m["v0"] != min(lo) or m["v1"] != max(hi) and max(hi) > min(lo):
            bad.append((g["name"], row and (row["min"], row["max"]), min(lo), max(hi), m["v0"], m["v1"]))
        for (px, py), tt, v in zip(g["floor"], t, lo):
            x = m["x0"] + (m["x1"] - m["x0"]) * (tt - m["t0"]) / (m["t1"] - m["t0"])
            y = m["y0"] + (m["y1"] - m["y0"]) * (v - m["v0"]) / (m["v1"] - m["v0"])
            worst = max(worst, abs(px - x), abs(py - y))
        if len(g["floor"]) != len(lo) or len(g["band"]) != 2 * len(lo):
            bad.append((g["name"], "points", len(g["floor"]), len(g["band"]), len(lo)))
    check(f"each grower's floor drawn to its scale (worst {worst:.3f} px), its scale from -c trend's "
          f"min to max", worst < 0.02 and not bad and R["growers"], str(bad[:3]))
    st = R.get("ramstack")
    if not st or not ram:
        fail("MemTotal's parts stacked", f"no stack drawn: {st and len(st['parts'])} parts, D.ram {ram and len(ram)}")
        return
    m, worst, total = st["scale"], 0.0, [0] * len(ramt)
    for p in st["parts"]:
        upper = [total[i] + v for i, v in enumerate(p["v"])]
        for (px, py), tt, v in zip(p["points"], ramt, upper):
            y = m["y0"] + (m["y1"] - m["y0"]) * (v - m["v0"]) / (m["v1"] - m["v0"])
            worst = max(worst, abs(py - y))
        total = upper
    memtotal = [int(x["bytes"]) for x in csv_rows(run([exmap, "-l", log, "-c", "ram"]).stdout)
                if x["category"] == "memtotal"]
    check(f"MemTotal's {len(st['parts'])} parts stacked to scale (worst {worst:.3f} px)",
          worst < 0.02 and len(st["parts"]) >= 4, str([p["name"] for p in st["parts"]]))
    check(f"the stack's top at the last sample ({total[-1]}) is MemTotal in the log's last capture "
          f"({memtotal})", memtotal and abs(total[-1] - memtotal[0]) <= 0.001 * memtotal[0],
          f"{total[-1]} against {memtotal}")
    check(f"every row in the page's table ({R.get('trows')} of {len(rows)})", R.get("trows") == len(rows))
    shot = os.path.abspath(os.path.join(outdir, "trend.png"))
    r = run(CHROME + ["--window-size=1200,1600", "--user-data-dir=" + os.path.join(tmp, "profile-shot"),
                      "--screenshot=" + shot, "file://" + os.path.abspath(pagefile)], timeout=120)
    try:
        w, h, bpp, px = png_pixels(shot)
        colours = {px[y][x:x + 3] for y in range(0, h, 4) for x in range(0, w * bpp, 4 * bpp)}
        check(f"the trend's screenshot ({w}x{h}) is not blank: {len(colours)} colours", len(colours) >= 16)
    except (OSError, ValueError) as e:
        fail("the trend's screenshot", f"{e}: {r.stderr.strip()[-200:]}")


def main(argv):
    if len(argv) >= 4 and argv[1] == "page" and "--" in argv:
        k = argv.index("--")
        page(argv[2], argv[3], argv[4:k], argv[k + 1:])
    elif len(argv) >= 3 and argv[1] == "folded" and "--" in argv:
        k = argv.index("--")
        folded(argv[2], argv[3:k], argv[k + 1:])
    elif len(argv) == 7 and argv[1] == "trend":
        trend(argv[2], argv[3], argv[4], argv[5], argv[6])
    elif len(argv) == 6 and argv[1] == "diff":
        diff(argv[2], argv[3], argv[4], argv[5])
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
