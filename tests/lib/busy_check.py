"""The trend of a busy machine's watch logs against what tests/suites/busy_test.sh
built: a leak of 64 KiB/s among short-lived processes of 32 to 128 MiB. One
"ok/FAIL" line a check.

usage: busy_check.py DIR SAMPLES
DIR holds ns.csv and ns.txt (the trend of the namespace's log: the test's
processes alone), host.csv (of the whole machine's), heap.pss0 and
heap.pss1 (the leaker's Pss and the time: "bytes seconds").
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import check  # noqa: E402
from trend_check import KIB_H, near, one, pss_rate, rows, slope  # noqa: E402

BUILT = 64 * KIB_H           # the leak, bytes an hour
CHURN = re.compile(r"^-c (\d+) (\d+) (\d+)$")   # busywork -c SEQ MIB LIFE_MS


def leaker(r):
    return r["kind"] == "process" and r["name"] == "leaker" and r["cmdline"].endswith("-r 64 heap")


def churn(r):
    m = r["kind"] == "process" and r["name"] == "busywork" and CHURN.match(
        r["cmdline"].split(" ", 1)[1] if " " in r["cmdline"] else "")
    return m or None


def main(d, n):
    rs = rows(os.path.join(d, "ns.csv"))
    procs = [r for r in rs if r["kind"] == "process"]
    leak = one(rs, "the leaker", leaker)
    check("the leaker is the first process row of -c trend", procs and procs[0] is leak,
          str(procs[:2]))
    near("the leaker: the slope against the rate built", slope(leak), BUILT)
    near("the leaker: the kernel's Pss (smaps_rollup at the ends) against the rate built",
         int(pss_rate(d, "heap")), BUILT)
    check("the leaker: judged and marked as growing",
          leak is not None and leak["brief"] == "0" and leak["grows"] == "1", str(leak))

    text = open(os.path.join(d, "ns.txt"), encoding="utf-8", errors="replace").read().splitlines()
    head = next((i for i, t in enumerate(text) if t.startswith("processes")), None)
    first = text[head + 2] if head is not None and head + 2 < len(text) else ""
    check("the text's first process row is the leaker's, marked *",
          first.startswith("*") and first.rstrip().endswith("leaker -r 64 heap"), first)
    wide = [t for t in text if len(t) > 80]
    check("the text fits 80 columns", not wide, str(wide[:2]))

    kids = [(r, churn(r)) for r in procs if churn(r)]
    check(f"the churn: {len(kids)} children in {n} s, one every 1 to 2 s",
          n // 3 <= len(kids) <= n + 2, str(len(kids)))
    judged = [r for r, _ in kids if r["brief"] != "1" or r["slope"] != "" or r["grows"] != "0"]
    check("no child of the churn has a slope or a mark: each is brief", not judged, str(judged[:2]))
    over = [(r["cmdline"], r["max"], r["life_ms"]) for r, m in kids
            if int(r["max"]) > (int(m.group(2)) + 2) << 20 or int(r["life_ms"]) > int(m.group(3)) + 1500]
    check("each child's peak is at most the MiB its command line wrote (and 2 MiB of its own), "
          "its life at most the time it was given and a sample", not over, str(over[:3]))
    brief = [r for r in procs if r["brief"] == "1"]
    peak = max(brief, key=lambda r: int(r["max"]), default=None)
    longest = max(brief, key=lambda r: int(r["life_ms"]), default=None)
    said = " ".join(text)
    m = re.search(r"brief: (\d+) process", said)
    check(f"the text counts the {len(brief)} brief process rows apart",
          m is not None and int(m.group(1)) == len(brief), m and m.group(0))
    check("the text names the largest peak among them",
          peak is not None and re.search(r"the largest peak [^:]*: " + re.escape(
              peak["name"] + " " + peak["cmdline"].split(" ", 1)[1]), said) is not None,
          str(peak))
    check("the text names the longest life among them",
          longest is not None and re.search(r"the longest life [^:]*: " + re.escape(longest["name"]),
                                            said) is not None, str(longest))
    for end in ("-s 8192 steady", "-s 2048 steady"):
        r = one(rs, f"steady {end}", lambda r, e=end: r["kind"] == "process" and r["cmdline"].endswith(e))
        check(f"steady {end}: judged, not marked, |slope| under 64K over the log",
              r is not None and r["brief"] == "0" and r["grows"] == "0" and
              abs(slope(r) or 0) < 64 * 1024 * 3600 / (n - 1), str(r))
    parent = one(rs, "the churn's parent", lambda r: r["kind"] == "process" and r["name"] == "busywork"
                 and r["cmdline"].endswith("/busywork"))
    late = [r for r in procs if r["name"] == "busywork" and not churn(r) and r is not parent]
    check("children whose command line came too late (exited as first sampled): each its own "
          "row by pid, brief", all(re.fullmatch(r"\[pid \d+\]", r["cmdline"]) and r["brief"] == "1"
                                   for r in late), str(late[:3]))
    check("the churn's parent: judged, not marked (its children are not its growth)",
          parent is not None and parent["brief"] == "0" and parent["grows"] == "0", str(parent))

    hs = rows(os.path.join(d, "host.csv"))
    hp = [r for r in hs if r["kind"] == "process"]
    hl = one(hs, "the whole machine: the leaker", leaker)
    near("the whole machine: the leaker's slope against the rate built", slope(hl), BUILT)
    at = hp.index(hl) if hl in hp else len(hp)
    check(f"the whole machine: no brief row above the leaker (its place {at + 1} of {len(hp)})",
          hl is not None and all(r["brief"] == "0" for r in hp[:at]), str(hp[:at][:3]))
    print("# the whole machine: above the leaker: " +
          "; ".join(f"{r['name']} {r['cmdline'][:40]} {r['slope']}" for r in hp[:at]))
    hk = [r for r in hp if r["name"] == "busywork" and not r["cmdline"].endswith("/busywork")
          and r["brief"] != "1"]
    check("the whole machine: no child of the churn judged (nor one whose command line came "
          "too late)", not hk, str(hk[:2]))


if __name__ == "__main__":
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    main(sys.argv[1], int(sys.argv[2]))
