#!/usr/bin/env python3
"""Checks of the reporting filters -P and -F, which report a part of the scan
and keep its sharing. Prints one line per check, "ok   WHAT" or "FAIL WHAT:
why", and nothing else on stdout; the caller counts them.

usage:
  drill_check.py sums EXMAP SCAN... -- PID...
      SCAN is how exmap-mini gets its scan (-l CAPTURE, or -p PIDS), the same
      for every run. Over the whole scan: each process's -P rows add up to its
      procs row, and -P PID procs is that row; each file's -F rows add up to
      its files row. For the PIDs given: -F FILE -P PID maps PID adds up to
      the file's -P PID files row; text and CSV list the same rows; -P with
      all of them gives each file their parts added.
  drill_check.py symbols EXMAP SCAN... FILE
      A file's symbols: aliases one row (against readelf), each range once,
      the rows and [no symbol] adding up to the sections, each alone too.
  drill_check.py oracle EXMAP FILE PID...
      Live, with -p PIDS: the -P PID files rows and the -F FILE procs rows
      against tests/lib/truth.py's figures from /proc/PID/pagemap.
"""
import csv
import io
import os
import struct
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import truth  # noqa: E402
from checks import fail, ok  # noqa: E402

FIGS = ["vm", "mapped", "resident", "eff_mapped", "eff_resident", "sole", "writable", "swap"]
EFF = ("eff_mapped", "eff_resident")


class Failed(Exception):
    pass


def run(exmap, args):
    """exmap-mini's output for args; a partial scan (exit 1) is still a report."""
    r = subprocess.run([exmap] + args, capture_output=True, text=True)
    if r.returncode not in (0, 1):
        raise Failed(f"exmap-mini {' '.join(args)}: exit {r.returncode}: {r.stderr.strip()[:300]}")
    return r.stdout


def rows(exmap, args):
    return list(csv.DictReader(io.StringIO(run(exmap, ["-c"] + args))))


def add(rs):
    return {f: sum(int(r[f]) for r in rs) for f in FIGS}


def differ(got, want, nrows):
    """The figures that differ; an effective size may be off by the rounding
    of each row summed (half a byte each)."""
    tol = nrows // 2 + 1
    bad = []
    for f in FIGS:
        d = int(got[f]) - int(want[f])
        if abs(d) > (tol if f in EFF else 0):
            bad.append(f"{f} {got[f]} against {want[f]}")
    return bad


def sums(exmap, scan, pids):
    procs = rows(exmap, scan + ["procs"])
    procs = [r for r in procs if r["pid"]]
    files = rows(exmap, scan + ["files"])
    if len(procs) < 2 or len(files) < 2:
        raise Failed(f"a scan of {len(procs)} processes and {len(files)} files is too small a test")
    src = "capture" if scan[0] == "-l" else "live"

    bad = []
    for p in procs:
        part = rows(exmap, scan + ["-P", p["pid"], "files"])
        d = differ(add(part), p, len(part))
        if d:
            bad.append(f"pid {p['pid']}: {', '.join(d)}")
        own = rows(exmap, scan + ["-P", p["pid"], "procs"])
        own = [r for r in own if r["pid"]]
        if len(own) != 1 or differ(own[0], p, 0):
            bad.append(f"pid {p['pid']}: -P procs gives {own}")
    what = f"{src}: for each of {len(procs)} processes, -P PID files adds up to its procs row, " \
           f"and -P PID procs is that row"
    fail(what, "; ".join(bad[:4])) if bad else ok(what)

    bad = []
    for f in files:
        name = f["path"] + (" (deleted)" if f["deleted"] == "1" else "")
        part = rows(exmap, scan + ["-F", name, "procs"])
        part = [r for r in part if r["pid"]]
        d = differ(add(part), f, len(part))
        if len(part) != int(f["nproc"]):
            d.append(f"{len(part)} processes, nproc {f['nproc']}")
        if d:
            bad.append(f"{f['path']}: {', '.join(d)}")
    what = f"{src}: for each of {len(files)} files, the -F FILE procs rows add up to its files row"
    fail(what, "; ".join(bad[:4])) if bad else ok(what)

    if len(pids) > 1:
        both = ",".join(pids)
        bad = []
        got = {r["pid"]: r for r in rows(exmap, scan + ["-P", both, "procs"]) if r["pid"]}
        whole = {p["pid"]: p for p in procs}
        if sorted(got) != sorted(pids):
            bad.append(f"-P {both} procs lists {sorted(got)}")
        bad += [f"pid {p}: {d}" for p in pids if p in got for d in differ(got[p], whole[p], 0)]
        want = {}
        for pid in pids:
            for f in rows(exmap, scan + ["-P", pid, "files"]):
                w = want.setdefault(f["path"], dict.fromkeys(FIGS, 0))
                for k in FIGS:
                    w[k] += int(f[k])
        got = rows(exmap, scan + ["-P", both, "files"])
        if sorted(f["path"] for f in got) != sorted(want):
            bad.append(f"-P {both} files lists {len(got)} files, the two alone {len(want)}")
        bad += [f"{f['path']}: {d}" for f in got if f["path"] in want
                for d in differ(f, want[f["path"]], 2)]
        what = f"{src}: -P {both}: the two processes' rows, and each file their two parts added"
        fail(what, "; ".join(bad[:4])) if bad else ok(what)

    for pid in pids:
        mine = rows(exmap, scan + ["-P", pid, "files"])
        bad = []
        for f in mine:
            name = f["path"] + (" (deleted)" if f["deleted"] == "1" else "")
            maps = rows(exmap, scan + ["-F", name, "-P", pid, "maps", pid])
            d = differ(add(maps), f, len(maps))
            if d:
                bad.append(f"{f['path']}: {', '.join(d)}")
        what = f"{src}: pid {pid}: for each of its {len(mine)} files, -F FILE -P {pid} maps {pid} " \
               f"adds up to the file's -P {pid} files row"
        fail(what, "; ".join(bad[:4])) if bad else ok(what)

        # The text view lists what the CSV does: the same paths, in order.
        text = run(exmap, scan + ["-q", "-P", pid, "files"]).splitlines()
        tpaths = [t.split(None, 9)[9] if len(t.split(None, 9)) == 10 else t for t in text]
        cpaths = [f["path"] for f in mine]
        same = len(tpaths) == len(cpaths) and all(
            t == c or (t.startswith("...") and c.endswith(t[3:])) for t, c in zip(tpaths, cpaths))
        what = f"{src}: pid {pid}: -P {pid} files lists the same {len(cpaths)} files as text and as CSV"
        fail(what, f"text {tpaths[:5]}, CSV {cpaths[:5]}") if not same else ok(what)


def oracle(exmap, path, pids):
    scan = ["-p", ",".join(pids)]
    per, count = truth.pages_of([int(p) for p in pids])
    want = {}
    for pid in pids:
        for k, present, name in per[int(pid)]:
            if present:
                w = want.setdefault((pid, name), [0, 0])
                w[0] += truth.PAGE
                w[1] += truth.PAGE / count[k]

    for pid in pids:
        got = rows(exmap, scan + ["-P", pid, "files"])
        bad = []
        seen = set()
        for r in got:
            key = (pid, r["path"])
            seen.add(key)
            w = want.get(key, [0, 0])
            if int(r["resident"]) != w[0] or abs(int(r["eff_resident"]) - w[1]) > 1:
                bad.append(f"{key[1]}: resident {r['resident']} eff {r['eff_resident']}, "
                           f"pagemap {w[0]} {round(w[1])}")
        for key, w in want.items():
            if key[0] == pid and key not in seen and w[0]:
                bad.append(f"{key[1]}: no row, pagemap has {w[0]} resident")
        what = f"live -p: pid {pid}: -P {pid} files: each file's resident and eff_resident " \
               f"as pagemap's, shared among the {len(pids)} processes"
        fail(what, "; ".join(bad[:4])) if bad else ok(what)

    got = [r for r in rows(exmap, scan + ["-F", path, "procs"]) if r["pid"]]
    bad = []
    for r in got:
        w = want.get((r["pid"], path), [0, 0])
        if int(r["resident"]) != w[0] or abs(int(r["eff_resident"]) - w[1]) > 1:
            bad.append(f"pid {r['pid']}: resident {r['resident']} eff {r['eff_resident']}, "
                       f"pagemap {w[0]} {round(w[1])}")
    mapping = sorted(p for p in pids if any(m[2] == path for m in truth.mappings(int(p))))
    if sorted(r["pid"] for r in got) != mapping:
        bad.append(f"rows for {sorted(r['pid'] for r in got)}, pagemap has {mapping}")
    what = f"live -p: -F {os.path.basename(path)} procs: each process's part as pagemap's"
    fail(what, "; ".join(bad[:4])) if bad else ok(what)


def symbols(exmap, scan, path):
    """Each byte of a file's symbols counted once: aliases (one address range,
    several names, as readelf lists them) in one row; no two rows on the same
    range; the symbols plus [no symbol] add up to the sections (less [holes]),
    section by section too."""
    base = os.path.basename(path)
    syms = rows(exmap, scan + ["symbols", path])
    secs = rows(exmap, scan + ["sections", path])
    ranges = [(r["addr"], r["size"]) for r in syms if r["symbol"] != "[no symbol]"]
    dup = len(ranges) - len(set(ranges))
    what = f"symbols {base}: one row for each address range ({len(ranges)})"
    fail(what, f"{dup} ranges twice") if dup else ok(what)

    # readelf: the names of each (value, size) in allocated sections
    out = subprocess.run(["readelf", "-W", "--dyn-syms", "-s", path], capture_output=True,
                         text=True).stdout
    groups = {}
    for ln in out.splitlines():
        t = ln.split()
        if len(t) < 8 or not t[0].endswith(":") or t[6] in ("UND", "ABS") or t[3] in \
                ("FILE", "SECTION", "TLS") or not t[2].isdigit() or int(t[2]) == 0:
            continue
        groups.setdefault((int(t[1], 16), int(t[2])), set()).add(t[7].split("@")[0])
    aliased = {k: v for k, v in groups.items() if len(v) > 1}
    got = {(int(r["addr"], 16), int(r["size"])): {r["symbol"]} | set(r["aliases"].split())
           for r in syms if r["symbol"] != "[no symbol]"}
    bad = [f"{sorted(v)} at {k[0]:#x}: {sorted(got.get(k, []))}" for k, v in aliased.items()
           if k in got and not v <= got[k]]
    what = f"symbols {base}: each of readelf's {len(aliased)} alias groups is one row naming them all"
    fail(what, "; ".join(bad[:3])) if bad else ok(what)

    total = add(syms)
    want = add([r for r in secs if r["section"] != "[holes]"])
    d = differ(total, want, len(syms) + len(secs))
    what = f"symbols {base}: the rows and [no symbol] add up to the sections, less [holes]"
    fail(what, ", ".join(d)) if d else ok(what)
    bad = []
    for sec in secs:
        if sec["section"] == "[holes]":
            continue
        part = rows(exmap, scan + ["symbols", path, sec["section"]])
        d = differ(add(part), sec, len(part) + 1)
        if d:
            bad.append(f"{sec['section']}: {', '.join(d)}")
    what = f"symbols {base} SECTION: for each of {len(secs) - 1} sections, its rows add up to it"
    fail(what, "; ".join(bad[:3])) if bad else ok(what)


def wide(exmap, scan, path):
    """On a terminal wider than 80 columns, names get the width; piped, 80."""
    import fcntl
    import pty
    import termios
    args = scan + ["symbols", path]
    syms = [r for r in rows(exmap, args) if r["symbol"] != "[no symbol]"]
    names = [r["symbol"] + ("," + r["aliases"].replace(" ", ",") if r["aliases"] else "")
             for r in syms]
    # the longest that a 200-column line has room for (the figures take 56)
    longest = max((n for n in names if len(n) <= 140), key=len)
    pid, fd = pty.fork()
    if pid == 0:
        fcntl.ioctl(1, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 200, 0, 0))
        os.execv(exmap, [exmap] + args)
    out = b""
    while True:
        try:
            b = os.read(fd, 65536)
        except OSError:
            break
        if not b:
            break
        out += b
    os.waitpid(pid, 0)
    text = out.decode(errors="replace").replace("\r", "").split("\n")
    widest = max(len(ln) for ln in text)
    what = f"symbols on a 200-column terminal: lines up to {widest} columns, {len(longest)}-character names whole"
    fail(what, f"widest {widest}; {longest} not whole") if not (80 < widest <= 200 and any(
        longest in ln for ln in text)) or len(longest) <= 24 else ok(what)
    piped = run(exmap, args).split("\n")
    widest = max(len(ln) for ln in piped)
    what = "symbols into a pipe: 80 columns"
    fail(what, f"widest {widest}") if widest > 80 else ok(what)


def main():
    a = sys.argv[1:]
    try:
        if len(a) >= 4 and a[0] == "sums" and "--" in a:
            i = a.index("--")
            sums(a[1], a[2:i], a[i + 1:])
        elif len(a) >= 4 and a[0] == "wide":
            wide(a[1], a[2:-1], a[-1])
        elif len(a) >= 4 and a[0] == "symbols":
            symbols(a[1], a[2:-1], a[-1])
        elif len(a) >= 4 and a[0] == "oracle":
            oracle(a[1], a[2], a[3:])
        else:
            sys.exit(__doc__)
    except Failed as e:
        fail(f"drill_check.py {a[0]}", str(e))
        sys.exit(1)


if __name__ == "__main__":
    main()
