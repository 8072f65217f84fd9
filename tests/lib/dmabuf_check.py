#!/usr/bin/python3
"""The dma-buf test's host side: what a guest's tests/guest/dmabuf_guest.sh
sent back, held to what dmabufwork built (its buffers' sizes, from the kernel,
and the processes it gave each one to) and to the kernel's own bufinfo and
meminfo, read in the guest beside the views.

usage: dmabuf_check.py OUTDIR CASE EXMAP    (CASE heap, vgem or cma; EXMAP this
machine's exmap-mini, to load the guest's capture and its watch log)
"""
import csv
import io
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import checks  # noqa: E402

PREFIX = os.environ.get("TEST_PREFIX", "")	# the suite's case, as lib.sh's tally counts


def check(what, cond, why=""):
    checks.check(PREFIX + what, cond, why)


out, case, exmap = sys.argv[1], sys.argv[2], sys.argv[3]
EXPORTER = {"heap": "system", "vgem": "drm", "cma": "udmabuf"}[case]
KIB = 1024


def text(name):
    with open(os.path.join(out, name), errors="replace") as f:
        return f.read()


def rows(data):
    return list(csv.DictReader(io.StringIO(data)))


# ---- what dmabufwork built: buffers, who holds them, its processes ----
bufs, holds, procs, drm = {}, {}, {}, set()
for line in text("work").splitlines():
    w = line.split()
    if w[:1] == ["buf"]:
        bufs[w[1]] = {"ino": int(w[2]), "size": int(w[3])}
    elif w[:1] == ["hold"]:
        holds.setdefault(w[1], set()).add(int(w[2]))
    elif w[:1] == ["proc"]:
        procs[w[1]] = int(w[2])
    elif w[:1] == ["drm"]:
        drm.add(int(w[1]))
check("dmabufwork made its buffers and processes", len(bufs) >= 5 and len(procs) == 5,
      text("work")[-300:] + text("work.err")[-300:])
P, H = procs.get("P"), procs.get("H")
by_ino = {b["ino"]: n for n, b in bufs.items()}

# ---- the kernel's list: bufinfo, parsed here ----
listed, total = {}, None
for line in text("bufinfo").splitlines():
    m = re.match(r"Total (\d+) objects, (\d+) bytes", line)
    if m:
        total = (int(m.group(1)), int(m.group(2)))
        continue
    f = line.split("\t")
    if line[:1].isdigit() and len(f) >= 7:
        listed[int(f[5])] = {"size": int(f[0]), "exp": f[4], "name": f[6]}
check("bufinfo lists every buffer dmabufwork made, at the size it said",
      all(listed.get(b["ino"], {}).get("size") == b["size"] for b in bufs.values()),
      "%s vs %s" % (bufs, listed))
check("bufinfo has its total line", total is not None, text("bufinfo")[-200:])
total = total or (0, 0)


def shares(scanned):
    """Each scanned process's held bytes and share, from the holder sets built."""
    held, share = {}, {}
    for name, b in bufs.items():
        hs = holds.get(name, set()) & scanned
        for p in hs:
            held[p] = held.get(p, 0) + b["size"]
            share[p] = share.get(p, 0) + b["size"] / len(hs)
    return held, share


# ---- procs: dmabuf and eff_dmabuf ----
def procs_check(name, scanned, what):
    r = rows(text(name))
    by_pid = {int(x["pid"]): x for x in r}
    held, share = shares(scanned)
    bad = []
    for p in sorted(scanned):
        x = by_pid.get(p)
        if not x:
            bad.append("pid %d: no row" % p)
            continue
        if int(x["dmabuf"]) != held.get(p, 0) or abs(int(x["eff_dmabuf"]) - share.get(p, 0)) > 1:
            bad.append("pid %d: dmabuf %s eff_dmabuf %s, want %d and %.1f" %
                       (p, x["dmabuf"], x["eff_dmabuf"], held.get(p, 0), share.get(p, 0)))
    check("procs %s: each process's dmabuf and eff_dmabuf are what its holds give" % what,
          not bad, "; ".join(bad))
    others = [x for x in r if int(x["pid"]) not in scanned and x["dmabuf"] not in ("0", "")]
    check("procs %s: no other process holds a dma-buf" % what, not others, str(others[:3]))
    return r


everyone = set(procs.values())
procs_check("procs", everyone, "(every process)")
pr = procs_check("procs_p", everyone - {H}, "(-p without H)")

# ---- the dmabuf view: each buffer, its holders ----
want_how = {n: {p: "f" for p in hs} for n, hs in holds.items()}
want_how["mapped"] = {P: "m"}


def holders(s):
    return {int(h.split(":")[0]): h.split(":")[1] for h in s.split()} if s else {}


def dmabuf_check(name, scanned, what):
    r = rows(text(name))
    bad = []
    for n, b in bufs.items():
        x = [y for y in r if y["kind"] == "dmabuf" and int(y["id"]) == b["ino"]]
        if not x:
            bad.append("%s: no row" % n)
            continue
        x = x[0]
        want = {p: h for p, h in want_how.get(n, {}).items() if p in scanned}
        exp = listed.get(b["ino"], {}).get("exp")
        got = (int(x["size"]), x["exporter"], x["name"], holders(x["holders"]))
        if got != (b["size"], exp, n, want):
            bad.append("%s: %s, want %s" % (n, got, (b["size"], exp, n, want)))
    check("dmabuf %s: each buffer's size, exporter (bufinfo's), name and holders" % what,
          not bad, "; ".join(bad))
    return r


dmabuf_check("dmabuf", everyone, "(every process)")
dp = dmabuf_check("dmabuf_p", everyone - {H}, "(-p without H)")
check("the buffers' exporter is %s" % EXPORTER,
      all(listed.get(b["ino"], {}).get("exp") == EXPORTER for n, b in bufs.items() if n != "extra"),
      str(listed))

# the shares and what no scanned process holds add up to the kernel's total
none = sum(int(x["size"]) for x in dp if x["kind"] == "dmabuf" and not x["holders"])
eff = sum(int(x["eff_dmabuf"]) for x in pr if x["eff_dmabuf"])
check("-p without H: the shares (%d) and what none holds (%d) are bufinfo's total (%d)" %
      (eff, none, total[1]), abs(eff + none - total[1]) <= len(pr), "")
check("-p without H: H's buffer is held by none", any(
    int(x["id"]) == bufs["other"]["ino"] and not x["holders"] for x in dp), "")
t = text("dmabuf_t")
m = re.search(r"^the kernel's total +(\d+) buffers? ", t, re.M)
check("dmabuf text: the kernel's total is bufinfo's count (%d)" % total[0],
      m and int(m.group(1)) == total[0], t[-400:])
t = text("dmabuf_nolist_t")
# the mapped buffer, no fd to it left: its exporter unknown, its size its mapping's
want = [r if not r.startswith("dmabuf,%d," % bufs["mapped"]["ino"]) else
        re.sub(r"^(dmabuf,\d+),[^,]*,", r"\1,,", r)
        for r in text("dmabuf").splitlines() if r.startswith("dmabuf,")]
check("no list (debugfs unmounted): the same buffers and holders (the mapped one's exporter "
      "unknown), fds read by the exporters' say",
      sorted(r for r in text("dmabuf_nolist").splitlines() if r.startswith("dmabuf,")) ==
      sorted(want) and
      re.search(r"^fds read: a (DRM device|device that exports dma-bufs) is registered$", t, re.M),
      t[-400:])
check("no list: what none holds is said unknown, no kernel's total",
      re.search(r"^held by none +unknown", t, re.M) and "the kernel's total" not in t, t[-400:])
check("no list: the mapped buffer is said to be at least its mapping",
      re.search(r"^dma-buf: inode %d: mapped, with no fd and no list to size it: at least 3.0M" %
                bufs["mapped"]["ino"], t, re.M), t[-400:])
pt_inos = set(int(x) for x in re.findall(r"^ *(\d+) ", text("dmabuf_pt"), re.M))
check("-P P: the buffers P holds, and no other",
      pt_inos == {b["ino"] for n, b in bufs.items() if P in holds.get(n, ())}, str(pt_inos))

# DRM clients: those the DRM fds' fdinfo names (drm-client-id, drm-driver),
# with a row a region and figure (drm-total-, -resident-, -memory-, -shared-)
def drm_size(v):
    n, *unit = v.split()
    return int(n) << {"KiB": 10, "MiB": 20}.get(unit[0] if unit else "", 0)


want, read = set(), set()
for f in os.listdir(out):
    if not f.startswith("drminfo-") or "." in f:
        continue
    pid = int(f.split("-")[1])
    read.add(pid)
    kv = dict(l.split(":", 1) for l in text(f).splitlines() if ":" in l)
    kv = {k.strip(): v.strip() for k, v in kv.items()}
    if "drm-client-id" not in kv or "drm-driver" not in kv:
        continue
    regions = {}
    for k, v in kv.items():
        m = re.match(r"drm-(total|resident|memory|shared)-(.+)$", k)
        if m:
            kind = "resident" if m.group(1) == "memory" else m.group(1)
            regions.setdefault(m.group(2), {})[kind] = drm_size(v)
    for r, figs in (regions or {"": {}}).items():
        want.add((pid, int(kv["drm-client-id"]), kv["drm-driver"], r, figs.get("total"),
                  figs.get("resident"), figs.get("shared")))
# a row a client and region, its holders' pids (one client's fds in several
# processes are one client)
by_client = {}
for w in want:
    by_client.setdefault(w[1:], set()).add(w[0])
want = {(frozenset(pids),) + k for k, pids in by_client.items()}
check("dmabufwork's DRM fds' fdinfo was read (pids %s)" % sorted(drm), drm <= read, str(read))
num = lambda v: int(v) if v else None  # noqa: E731
got = {(frozenset(int(p) for p in x["holders"].split()), int(x["id"]), x["exporter"],
        x["name"], num(x["size"]),
        num(x["resident"]), num(x["shared"])) for x in rows(text("dmabuf")) if x["kind"] == "drm"}
check("the DRM clients and their regions are what the DRM fds' fdinfo names (%d)" % len(want),
      got == want, "%s, want %s" % (got, want))

# ---- the capture: loaded here, the same figures ----
def run(*args):
    p = subprocess.run([exmap] + list(args), capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


rc, lp, err = run("-l", os.path.join(out, "dump"), "-c", "procs")
live = {x["pid"]: (x["dmabuf"], x["eff_dmabuf"]) for x in rows(text("procs"))}
loaded = {x["pid"]: (x["dmabuf"], x["eff_dmabuf"]) for x in rows(lp)}
check("the capture loads here with each process's dmabuf and eff_dmabuf as live",
      rc in (0, 1) and all(loaded.get(str(p)) == live.get(str(p)) for p in everyone),
      "exit %d %s; %s vs %s" % (rc, err[-200:], loaded, live))
rc, ld, err = run("-l", os.path.join(out, "dump"), "-c", "dmabuf")
check("the capture's dmabuf view is the live one", rc in (0, 1) and
      sorted(r for r in ld.splitlines() if r.startswith("dmabuf,")) ==
      sorted(r for r in text("dmabuf").splitlines() if r.startswith("dmabuf,")), err[-300:])

# ---- the ram view ----
ram = rows(text("ram"))


def row(cat, sub, name=""):
    x = [r for r in ram if r["category"] == cat and r["subcategory"] == sub and r["name"] == name]
    return int(x[0]["bytes"]) if x else None


parts = sum(int(r["bytes"]) for r in ram if r["category"] == "part")
check("ram: the parts add up to MemTotal", parts == row("memtotal", ""), "%d" % parts)
check("ram: dma-buf's total is bufinfo's (%d)" % total[1], row("dmabuf", "dma-buf") == total[1],
      str(row("dmabuf", "dma-buf")))
check("ram: held by processes and by none add up to it",
      (row("dmabuf", "held by processes") or 0) + (row("dmabuf", "held by none") or 0) == total[1],
      "%s %s" % (row("dmabuf", "held by processes"), row("dmabuf", "held by none")))
heap = sum(b["size"] for b in listed.values() if b["exp"] == "system")
check("ram: the part dma-buf heaps is the system heap's buffers in bufinfo (%d)" % heap,
      (row("part", "dma-buf heaps") or 0) == heap, str(row("part", "dma-buf heaps")))


def meminfo(name):
    return {l.split(":")[0]: int(l.split()[1]) * KIB for l in text(name).splitlines() if ":" in l}


m0, m1 = meminfo("meminfo0"), meminfo("meminfo1")
if case == "cma":
    used = [m["CmaTotal"] - m["CmaFree"] for m in (m0, m1)]
    got = row("reserved", "cma used (within MemTotal)")
    check("ram: CMA is meminfo's CmaTotal (64 MiB)",
          row("reserved", "cma (within MemTotal)") == m0["CmaTotal"] == 64 << 20,
          str(row("reserved", "cma (within MemTotal)")))
    check("ram: cma used is CmaTotal - CmaFree, between the readings before and after (%s)" % used,
          got is not None and min(used) <= got <= max(used), str(got))
    check("metrics: exmap_cma_bytes all total is CmaTotal",
          'exmap_cma_bytes{area="all",kind="total"} %d' % m0["CmaTotal"] in text("metrics"), "")
else:
    check("ram: no CMA line (this kernel has none)", row("reserved", "cma (within MemTotal)") is None,
          "")

# ---- metrics, the fds not read, the text's width ----
held, share = shares(everyone)
for fam, v in (("exmap_process_dmabuf_bytes", sum(held.values())),
               ("exmap_process_eff_dmabuf_bytes", sum(share.values()))):
    m = re.search(r'^%s\{name="dmabufwork"\} (\d+)$' % fam, text("metrics"), re.M)
    check("metrics: %s of dmabufwork is its processes' (%d)" % (fam, v),
          m and abs(int(m.group(1)) - v) <= len(everyone), m and m.group(0))
nw = {int(x["pid"]): int(x["dmabuf"] or -1) for x in rows(text("procs_nowalk"))}
check("EXMAP_DMABUF=0: fds unread, P holds its mapped buffer alone, the others none",
      nw.get(P) == bufs["mapped"]["size"] and all(nw.get(p) == 0 for p in everyone - {P}),
      str({p: nw.get(p) for p in everyone}))
for f in ("procs_t", "dmabuf_t", "ram_t"):
    long_ = [l for l in text(f).splitlines() if len(l) > 80 and not l.startswith("note: ")]
    check("text %s: no line over 80 columns" % f, not long_, str(long_[:2]))
check("procs text: the EFDMA column", re.search(r"^ +PID NAME .* EFDMA$", text("procs_t"), re.M),
      text("procs_t")[:200])

# ---- watch: the growing pool, named by trend within 10% of its rate ----
g = [l.split() for l in text("grow").splitlines() if l.startswith("grew ")]
rc = text("watch.rc").strip() if os.path.exists(os.path.join(out, "watch.rc")) else "?"
check("watch ran (exit 0) while the pool grew", rc == "0" and len(g) > 10, "exit %s, %d grown" %
      (rc, len(g)))
if len(g) > 10:
    rate = (int(g[-1][1]) - int(g[0][1])) * 256 * KIB * 3600000 / (int(g[-1][3]) - int(g[0][3]))
    rc, tr, err = run("-l", os.path.join(out, "wlog"), "-c", "trend")
    d = [x for x in rows(tr) if x["kind"] == "dmabuf" and x["name"] == "dmabufwork"]
    slope = int(d[0]["slope"]) if d and d[0]["slope"] else None
    check("trend names dmabufwork's dma-bufs growing %s/h, within 10%% of the pool's %.0f/h" %
          (slope, rate), slope is not None and abs(slope - rate) <= rate / 10 and d[0]["grows"] == "1",
          "exit %d %s %s" % (rc, err[-200:], d))

# ---- the html page of the capture: its dma-buf table's data ----
rc, page, err = run("-l", os.path.join(out, "dump"), "html")
m = re.search(r"^D\.dmabuf = (\[.*?\]);\nD\.dmaprocs = (\[.*?\]);$", page, re.M | re.S)
try:
    import json
    got = {b[0]: (b[1], b[2], b[3], b[5]) for b in json.loads(m.group(1))} if m else None
except ValueError as e:
    got = str(e)
want = {int(x["id"]): (x["exporter"], x["name"], int(x["size"]), x["holders"])
        for x in rows(text("dmabuf")) if x["kind"] == "dmabuf"}
check("html: the page's dma-bufs are the dmabuf view's, holders and all", rc in (0, 1) and
      got == want, "exit %d %s: %s, want %s" % (rc, err[-200:], got, want))
