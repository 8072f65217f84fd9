#!/usr/bin/env python3
"""A capture cut after every one of its lines, each cut loaded and judged.

usage: tests/lib/capture_cut.py EXMAP CAPTURE TMPDIR

A console log is most often cut at its end: the console was closed too
early, or its buffer wrapped. From format v2 on, the share counts come
before the processes, so a cut keeps every process whose chunk arrived
whole before it, with the figures it had in the whole capture. For each
cut after line i, `exmap-mini -l CUT -c procs` must:

- show exactly the processes whose chunks closed before the cut (once the
  share-count chunks are all in; before that, a subset of them), each row
  byte for byte the whole capture's row: nothing made up, nothing lost
  that arrived;
- exit 4 while a chunk is missing, and say that the log ends before the
  capture's end line; exit as the whole capture does once every chunk is in.

One "ok"/"FAIL" line per cut (tests/lib/checks.py).
"""
import os
import re
import subprocess
import sys

from capwire import info, read
from checks import check


def procs(exmap, path):
    p = subprocess.run([exmap, "-l", path, "-c", "procs"], capture_output=True,
                       timeout=60)
    rows = p.stdout.decode(errors="replace").splitlines()[1:]
    return p.returncode, {r.split(",", 1)[0]: r for r in rows}, p.stderr.decode(errors="replace")


def main(exmap, capture, tmp):
    lines = read(capture)
    head = lines[0].decode()
    m = re.search(r" ids=(\d+) procs=(\d+) ", head)
    if not head.startswith("XM begin v2 ") or not m:
        sys.exit("capture_cut.py: %s: not a v2 capture" % capture)
    ncount = (int(m.group(1)) + 8191) // 8192
    counts = set(range(3, 3 + ncount))
    rc_whole, whole, _ = procs(exmap, capture)
    name = os.path.basename(capture)
    # which chunks have closed after each line, and the pids of processes'
    closed, pid_of = [], {}
    done = set()
    for l in lines:
        kind, k, tag, _ = info(l)
        if kind == "close":
            done.add(k)
            f = l[tag:].split()
            if len(f) > 3 and f[3].startswith(b"pid="):
                pid_of[k] = f[3][4:].decode()
        closed.append(set(done))
    cut = os.path.join(tmp, "cut.log")
    for i in range(1, len(lines) + 1):
        with open(cut, "wb") as f:
            f.writelines(lines[:i])
        rc, rows, err = procs(exmap, cut)
        arrived = {pid_of[k] for k in closed[i - 1] if k in pid_of}
        whole_chunks = counts <= closed[i - 1]
        what = "%s cut after line %d of %d" % (name, i, len(lines))
        made_up = [r for p, r in rows.items() if whole.get(p) != r or p not in arrived]
        lost = sorted(arrived - set(rows)) if whole_chunks else []
        if i == 1:
            want_rc = 4
        elif len(closed[i - 1]) == len(pid_of) + ncount + 3:
            want_rc = rc_whole  # every chunk in: the end line alone is missing
        else:
            want_rc = 4
        said = i == len(lines) or "ends before the capture's end line" in err
        check("%s: %d of %d processes, each as in the whole capture; exit %d" %
              (what, len(rows), len(arrived), want_rc),
              not made_up and not lost and rc == want_rc and said,
              "exit %d; made up or changed %s; lost %s; the cut %s; stderr %s" %
              (rc, made_up[:2], lost[:4], "said" if said else "not said",
               err.strip().splitlines()[:2]))
    os.unlink(cut)


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit("usage: capture_cut.py EXMAP CAPTURE TMPDIR")
    main(*sys.argv[1:])
