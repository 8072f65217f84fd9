#!/usr/bin/python3
"""The GPU test's host side: what a guest's tests/guest/gpu_guest.sh sent
back, held to the DRM core's own fdinfo keys (read in the guest beside the
views, twice: nothing moved meanwhile) and to what gpuwork built (its dumb
buffers' sizes, from the kernel, and which client holds which).

usage: gpu_check.py OUTDIR EXMAP   (EXMAP this machine's exmap-mini, to load
the guest's capture)
"""
import csv
import io
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import checks  # noqa: E402

out, exmap = sys.argv[1], sys.argv[2]
PREFIX = os.environ.get("TEST_PREFIX", "")	# the boot's, as tests/run's tally counts


def check(what, cond, why=""):
    checks.check(PREFIX + what, cond, why)



def text(name):
    try:
        with open(os.path.join(out, name), errors="replace") as f:
            return f.read()
    except OSError:
        return ""


def rows(data):
    return list(csv.DictReader(io.StringIO(data)))


# ---- what gpuwork built ----
procs, fds, expect, gems = {}, {}, {}, []
for line in text("work").splitlines():
    w = line.split()
    if w[:1] == ["proc"]:
        procs[w[1]] = int(w[2])
    elif w[:1] == ["fd"]:
        fds[w[1]] = (int(w[2]), int(w[3]))
    elif w[:1] == ["expect"]:
        expect[w[1]] = tuple(int(x) for x in w[2:5])
    elif w[:1] == ["gem"]:
        gems.append((w[1], w[2], int(w[3])))
check("gpuwork made its clients, buffers and processes",
      len(procs) == 3 and len(fds) == 3 and set(expect) == {"p", "q"} and len(gems) == 5,
      text("work")[-300:] + text("work.err")[-300:])
sizes = {n: s for n, c, s in gems}
check("the dumb buffers are the sizes asked (256 KiB, 1 MiB, 512 KiB, 128 KiB)",
      [sizes.get(n) for n in ("priv", "mapped", "shared", "qbuf")] ==
      [256 << 10, 1 << 20, 512 << 10, 128 << 10], str(sizes))
CLIENT = {"P": "p", "C": "p", "Q": "q"}


# ---- the truth: the DRM core's keys in each fd's fdinfo ----
def drm_size(v):
    n, *unit = v.split()
    return int(n) << {"KiB": 10, "MiB": 20}.get(unit[0] if unit else "", 0)


def fdinfo(n, pid, fd):
    kv = {}
    for line in text("drminfo-%d-%d-%d" % (n, pid, fd)).splitlines():
        if ":" in line:
            k, v = line.split(":", 1)
            kv[k.strip()] = v.strip()
    return kv


truth = {}
for role, (pid, fd) in fds.items():
    kv = fdinfo(0, pid, fd)
    check("%s's DRM fd names its client, of driver xmkgem" % role,
          kv.get("drm-driver") == "xmkgem" and "drm-client-id" in kv, str(kv))
    check("%s's DRM fd's fdinfo did not move while the views ran" % role,
          kv == fdinfo(1, pid, fd), "%s then %s" % (kv, fdinfo(1, pid, fd)))
    figs = {}
    for k, v in kv.items():
        m = re.match(r"drm-(total|resident|shared)-(.+)$", k)
        if m:
            figs.setdefault(m.group(2), {})[m.group(1)] = drm_size(v)
    truth[role] = (int(kv.get("drm-client-id", -1)), figs)

# the core's keys as built: one region, "memory"
for role, (cid, figs) in truth.items():
    t, s, r = expect.get(CLIENT[role], (None,) * 3)
    got = figs.get("memory", {})
    check("%s: the kernel's drm-total/-shared/-resident-memory are what was built "
          "(%s, %s, %s)" % (role, t, s, r),
          (got.get("total"), got.get("shared"), got.get("resident")) == (t, s, r),
          "fdinfo %s" % figs)
check("P and C are one client (C inherited P's fd), Q another",
      truth.get("P", (0,))[0] == truth.get("C", (1,))[0] != truth.get("Q", (0,))[0],
      str(truth))

# ---- exmap-mini: the dmabuf view's drm rows, a row a client and region
# (its own figures, its holders), and drm-share rows, a row a process,
# client and region (the client's figures over its holders) ----
num = lambda v: int(v) if v else None  # noqa: E731


def drm_rows(data, kind="drm"):
    return {(frozenset(int(p) for p in x["holders"].split()), int(x["id"]), x["exporter"],
             x["name"], num(x["size"]), num(x["resident"]), num(x["shared"]))
            for x in rows(data) if x["kind"] == kind}


def share(v, n, first):
    return None if v is None else v // n + (v % n if first else 0)


want, want_share, holders = set(), set(), {}
for role, (cid, figs) in truth.items():
    holders.setdefault(cid, set()).add(fds[role][0])
for role, (cid, figs) in truth.items():
    pid, hs = fds[role][0], holders[cid]
    for reg, f in figs.items():
        fig = (f.get("total"), f.get("resident"), f.get("shared"))
        want.add((frozenset(hs), cid, "xmkgem", reg) + fig)
        # the first holder in the scan's order (by pid) takes what rounding leaves
        want_share.add((frozenset([pid]), cid, "xmkgem", reg) +
                       tuple(share(v, len(hs), pid == min(hs)) for v in fig))
got = drm_rows(text("dmabuf"))
mine = {g for g in got if g[0] & set(procs.values())}
check("exmap-mini's GPU rows for gpuwork's processes are the kernel's fdinfo (%d)" % len(want),
      mine == want, "%s, want %s" % (sorted(mine), sorted(want)))
check("no other process has a client of xmkgem",
      not [g for g in got if g[2] == "xmkgem" and g[0] - set(procs.values())], str(got))
check("a client held by two processes (P and C) is one row, its holders both",
      len([g for g in got if g[1] == truth.get("P", (None,))[0]]) == 1 and
      frozenset([procs.get("P"), procs.get("C")]) in {g[0] for g in got}, str(got))
gs = drm_rows(text("dmabuf"), "drm-share")
check("each process's share is its client's fdinfo over the client's holders (%d)" %
      len(want_share), {g for g in gs if g[0] & set(procs.values())} == want_share,
      "%s, want %s" % (sorted(gs), sorted(want_share)))
for i, fig in ((4, "total"), (5, "resident"), (6, "shared")):
    once = sum(f[fig] for cid, f in {t[0]: t[1]["memory"] for t in truth.values()}.items())
    check("the processes' shares of drm-%s add up to each client counted once (%d)" % (fig, once),
          sum(g[i] or 0 for g in gs if g[2] == "xmkgem") == once ==
          sum(g[i] or 0 for g in got if g[2] == "xmkgem"), "%s; %s" % (sorted(gs), sorted(got)))
pp = drm_rows(text("dmabuf_pp"))
pps = drm_rows(text("dmabuf_pp"), "drm-share")
check("-P P: P's client alone, whole, and P's share alone",
      {g[1] for g in pp} == {truth.get("P", (None,))[0]} and
      {g for g in pp} <= want and {g[0] for g in pps} == {frozenset([procs.get("P")])} and
      pps <= want_share, "%s; %s" % (pp, pps))
tt = text("dmabuf_t")
check("the text view has a row per client and one per process holding it",
      len([l for l in tt.splitlines() if "xmkgem" in l.split()]) == 2 + 3, tt[-800:])
check("the text view names both of client 1's holders",
      any(l.split()[:2] == ["xmkgem", str(truth.get("P", (None,))[0])] and
          l.split()[-2:] == [str(procs.get("P")), str(procs.get("C"))] for l in tt.splitlines()),
      tt[-800:])

# ---- the shared buffer's PRIME export: no fd, kept by the GEM object ----
exports = [l.split() for l in text("bufinfo").splitlines()]
exports = [w for w in exports if len(w) >= 6 and w[0].isdigit() and int(w[0]) == sizes.get("shared")]
check("bufinfo lists the shared buffer's export (%s bytes)" % sizes.get("shared"),
      len(exports) == 1, text("bufinfo")[-600:])
none = [x for x in rows(text("dmabuf")) if x["kind"] == "dmabuf" and
        num(x["size"]) == sizes.get("shared")]
check("exmap-mini lists that export as held by no process",
      len(none) == 1 and not none[0]["holders"].strip(), str(none))
check("the text view fits 80 columns", all(len(l) <= 80 for l in tt.splitlines()),
      "\n".join(l for l in tt.splitlines() if len(l) > 80))

# ---- the capture: loaded here, the same rows ----
p = subprocess.run([exmap, "-l", os.path.join(out, "dump"), "-c", "dmabuf"],
                   capture_output=True, text=True)
check("the capture loads here with the same GPU rows",
      p.returncode in (0, 1) and drm_rows(p.stdout) == got and
      drm_rows(p.stdout, "drm-share") == gs, p.stderr[-300:])
check("gpuwork ended as asked", text("work.rc").strip() == "0", text("work.rc"))
