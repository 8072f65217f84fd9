"""The trend of a watch log against the workloads tests/suites/trend_test.sh
built: each slope within 10% of the rate built and of the rate the kernel's
Pss showed, growers flagged and steady ones not, a restart one row, a reused
pid two rows that never mix, -P's parts, -w, the text's width. One
"ok/FAIL" line a check.

usage: trend_check.py DIR SAMPLES
       trend_check.py --board CSV OUTDIR RATE COUNT INTERVAL
TREND_CGROUP (env) names the test's own cgroup: its row grows at least as
the leaks built, summed.
DIR holds trend.csv, trend.txt, trend-w.csv, parts-heap.csv, parts-fam.csv
and, for heap, file and fam, NAME.pss0 and NAME.pss1 ("bytes seconds").
--board: the emulated board's trend (CSV) of its console log, against its
leakwork (-r RATE heap) and the Pss it framed back (OUTDIR/pss0, pss1: KiB
and the uptime): the leaker first, within 10%, and nothing else growing
but the [heap] its leak is.
"""
import csv
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import check  # noqa: E402

KIB_H = 1024 * 3600          # a KiB a second, in bytes an hour
BUILT = {"heap": 64 * KIB_H, "file": 48 * KIB_H, "fam": 3 * 16 * KIB_H}
SAW_TOOTH = 1024 * KIB_H     # how fast each tooth rises


def rows(path):
    # other processes' names and command lines are bytes as they are
    # (any, not UTF-8 alone): read them as text that stands in for them
    with open(path, encoding="utf-8", errors="replace", newline="") as f:
        return list(csv.DictReader(f))


def one(rs, what, pred):
    """The one row pred picks; a FAIL (and None) unless there is exactly one."""
    got = [r for r in rs if pred(r)]
    check(f"{what}: one row", len(got) == 1, f"{len(got)} rows: {got[:3]}")
    return got[0] if len(got) == 1 else None


def proc(cmd_end, name="leakwork"):
    return lambda r: r["kind"] == "process" and r["name"] == name and r["cmdline"].endswith(cmd_end)


def near(what, got, want, tol=0.10):
    check(f"{what}: {got} within {tol:.0%} of {want}",
          got is not None and abs(got - want) <= tol * abs(want), f"got {got}, want {want}")


def slope(r):
    return int(r["slope"]) if r and r["slope"] != "" else None


def pss_rate(d, name):
    b0, t0 = map(float, open(os.path.join(d, name + ".pss0")).read().split())
    b1, t1 = map(float, open(os.path.join(d, name + ".pss1")).read().split())
    return (b1 - b0) / (t1 - t0) * 3600


def main(d, n):
    rs = rows(os.path.join(d, "trend.csv"))
    span = n - 1                       # seconds the log spans, about
    steady_most = 64 * 1024 * 3600 / span
    growers = {
        "heap": one(rs, "heap", proc("-r 64 heap")),
        "file": one(rs, "file", proc("-r 48 -d /dev/shm file")),
        "fam": one(rs, "fam", lambda r: r["kind"] == "process" and r["name"] == "leakfam"),
    }
    for name, r in growers.items():
        near(f"{name}: the slope against the rate built", slope(r), BUILT[name])
        near(f"{name}: the kernel's Pss (smaps_rollup at the ends) against the rate built",
             int(pss_rate(d, name)), BUILT[name])
        check(f"{name}: flagged as growing", r is not None and r["grows"] == "1", str(r))
    f = one(rs, "the tmpfs file", lambda r: r["kind"] == "file" and
            r["name"].startswith("/dev/shm/leakwork."))
    near("the tmpfs file: the slope against the rate built", slope(f), BUILT["file"])
    lib = one(rs, "libxmleak.so", lambda r: r["kind"] == "file" and
              r["name"].endswith("/libxmleak.so"))
    near("libxmleak.so (its .bss, dirtied by the family): the slope against the rate built",
         slope(lib), BUILT["fam"])
    # the cgroups: this test's own (TREND_CGROUP), its workloads' and its
    # shell's, grows at least as their leaks do, summed
    own = os.environ.get("TREND_CGROUP", "")
    cg = one(rs, f"this test's cgroup, {own}", lambda r: r["kind"] == "cgroup" and r["name"] == own)
    check(f"the test's cgroup grows at least at its leaks' rate summed ({sum(BUILT.values())}/h), "
          f"flagged", cg is not None and cg["grows"] == "1" and
          (slope(cg) or 0) >= 0.9 * sum(BUILT.values()), str(cg))
    h = growers["heap"]
    if h:
        check(f"heap: {h['samples']} samples of {n}", int(h["samples"]) >= n - 2, str(h))
        check("heap: the sole slope is the slope (its pages are its own)",
              h["sole_slope"] != "" and abs(int(h["sole_slope"]) - slope(h)) <= 0.02 * slope(h),
              str(h))

    saw = one(rs, "saw", proc("-t 2500 -s 4096 saw"))
    if saw:
        least = min(BUILT.values())
        check(f"saw: the floor's slope {slope(saw)} is under a tenth of the slowest leak built "
              f"({least}), not flagged (each tooth rises {SAW_TOOTH})",
              saw["grows"] == "0" and abs(slope(saw)) <= 0.1 * least, str(saw))
        check(f"saw: its top ({saw['max']}) is teeth above its floor ({saw['min']})",
              int(saw["max"]) - int(saw["min"]) >= 2 << 20, str(saw))
    for name, end in (("steady", "-s 8192 steady"), ("again", "-s 2048 steady"),
                      ("reused", "-s 1024 steady")):
        r = one(rs, name, proc(end))
        if r:
            check(f"{name}: not flagged, |slope| {slope(r)} under {steady_most:.0f} (64K over "
                  f"the log)", r["grows"] == "0" and abs(slope(r) or 0) < steady_most, str(r))
    r = one(rs, "again, restarted with a new pid", proc("-s 2048 steady"))
    if r:
        check(f"again: one row over the restart, {r['samples']} samples of {n}",
              int(r["samples"]) >= n - 3, str(r))
    a = one(rs, "the pid's first program", proc("-s 1024 steady"))
    b = one(rs, "the program that reused its pid", lambda r: r["kind"] == "process" and
            r["name"] == "xmreuse")
    if a and b:
        check(f"a reused pid: the first program's {a['samples']} samples and the second's "
              f"{b['samples']} add up to the log's {n}, a sample or two between",
              min(int(a["samples"]), int(b["samples"])) >= n // 6 and
              n - 3 <= int(a["samples"]) + int(b["samples"]) <= n, f"{a} {b}")
        check("a reused pid: neither row has the other's values (1 MiB and 6 MiB, each steady)",
              int(a["max"]) < 2 << 20 and int(b["min"]) >= 6 << 20 and b["grows"] == "0",
              f"{a} {b}")

    w = rows(os.path.join(d, "trend-w.csv"))
    hw = one(w, "-w 30s: heap", proc("-r 64 heap"))
    if hw:
        check(f"-w 30s: the first 30 s left out, a sample a second or a little less "
              f"({hw['samples']} of {n} left)", n - 31 <= int(hw["samples"]) <= n - 20, str(hw))
        near("-w 30s: heap's slope", slope(hw), BUILT["heap"])

    for name, csvf, want, rate in (("heap", "parts-heap.csv", "[heap]", BUILT["heap"]),
                                   ("fam", "parts-fam.csv", "libxmleak.so .data/.bss", BUILT["fam"])):
        ps = rows(os.path.join(d, csvf))
        grow = one(ps, f"-P {name}: the part {want}",
                   lambda r: r["kind"] == "part" and r["name"].endswith(want))
        near(f"-P {name}: {want}'s slope", slope(grow), rate)
        others = [r for r in ps if r is not grow and r["grows"] == "1"]
        check(f"-P {name}: no other part flagged", not others, str(others))
        if name == "fam":
            hp = [r for r in ps if r["name"] == "[heap]"]
            check("-P leakfam: its [heap] is there, and not growing",
                  len(hp) == 1 and hp[0]["grows"] == "0", str(hp))

    text = open(os.path.join(d, "trend.txt"), encoding="utf-8", errors="replace").read().splitlines()
    wide = [t for t in text if len(t) > 80]
    check(f"text: {len(text)} lines, none wider than 80 columns", text and not wide, str(wide[:2]))
    top = [t for t in text if t.startswith("*")]
    check("text: the heap's row is marked as growing (*)",
          any(t.rstrip().endswith("heap") or "-r 64 heap" in t for t in top), str(top[:6]))


def board(csvfile, out, rate, count, ivl):
    rs = rows(csvfile)
    built = rate * KIB_H
    leak = one(rs, "the board's leaker", proc(f"-r {rate} -s 65536 heap"))
    near("the board's leaker: the slope against the rate built", slope(leak), built)
    k0, u0 = map(float, open(os.path.join(out, "pss0")).read().split())
    k1, u1 = map(float, open(os.path.join(out, "pss1")).read().split())
    near("the board's leaker: its Pss (smaps_rollup, framed back) against the rate built",
         int((k1 - k0) * 1024 / (u1 - u0) * 3600), built)
    if leak:
        check(f"the board's leaker: {leak['samples']} samples of {count}, flagged",
              int(leak["samples"]) >= count - 2 and leak["grows"] == "1", str(leak))
    procs = [r for r in rs if r["kind"] == "process"]
    check("the board's leaker is the first process row (the largest slope)",
          procs and procs[0] is leak, str(procs[:2]))
    heap = one(rs, "the board's [heap] file row", lambda r: r["kind"] == "file" and r["name"] == "[heap]")
    near("the board's [heap] (every heap, the leak's) against the rate built", slope(heap), built)
    # no cgroup mount on the board: every process in /, which grows as the leak
    root = one(rs, "the board's one cgroup, /", lambda r: r["kind"] == "cgroup")
    if root:
        check("the board's one cgroup is /", root["name"] == "/", str(root))
        near("the board's cgroup / (its processes summed) against the rate built", slope(root), built)
    others = [(r["kind"], r["name"], r["slope"]) for r in rs
              if r["grows"] == "1" and r is not leak and r is not heap and r is not root]
    check(f"nothing else on the board grows ({len(rs)} rows)", not others and len(rs) > 5, str(others))


if __name__ == "__main__":
    if len(sys.argv) == 7 and sys.argv[1] == "--board":
        board(sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6]))
    elif len(sys.argv) == 3:
        main(sys.argv[1], int(sys.argv[2]))
    else:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
