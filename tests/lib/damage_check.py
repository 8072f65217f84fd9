#!/usr/bin/env python3
"""A real watch log damaged line by line (tests/suites/fuzz_logs.sh), read
through exmap-mini's sanitizer build and its reader (tests/unit/wlogdump.c),
each variant against the log read whole.

usage: damage_check.py char EXMAP DUMP LOG TMP   one character changed in each
                                                 watch line, one line at a time
       damage_check.py order EXMAP DUMP LOG TMP  each watch line twice; each
                                                 two neighbours swapped; kernel
                                                 messages and CRLFs put in
       damage_check.py cut EXMAP DUMP LOG TMP    the log cut after each line

What must hold for every variant: no signal and no sanitizer report; an exit
status the manual gives (4, a damaged log, when a line was lost; 0 when
nothing was; 2 when no sample is left); a loss said on standard error with the line it was found at;
no value made up (every value the reader says it knows is the whole log's,
at the same sample); and in trend -c, every row is the whole log's: one
with as many samples as there has every figure and slope the same (the
damage did not touch it), one the damage touched has fewer samples, none
has more and none is new. A line repeated changes nothing.

One "ok"/"FAIL" line per check (tests/lib/checks.py); "# ..." lines say
how many rows the damage touched.
"""
import csv
import io
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

from checks import check
from watch_check import Read

SANITIZER = ("ERROR: AddressSanitizer", "runtime error:", "ERROR: LeakSanitizer", "SUMMARY: ")
ENV = dict(os.environ, ASAN_OPTIONS="detect_leaks=0:abort_on_error=1",
           UBSAN_OPTIONS="halt_on_error=1:abort_on_error=1")
JOBS = int(os.environ.get("DAMAGE_JOBS", "2"))


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, timeout=300, env=ENV)
    return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")


def rows(text):
    """trend -c's rows by (kind, name, command line)."""
    out = {}
    for r in csv.DictReader(io.StringIO(text)):
        out[(r["kind"], r["name"], r["cmdline"])] = r
    return out


class Whole:
    def __init__(self, exmap, dump, log):
        self.exmap, self.dump = exmap, dump
        rc, out, err = run([exmap, "-l", log, "-c", "trend"])
        check("the whole log: trend exit 0, no loss said", rc == 0 and "lost" not in err,
              "exit %d: %s" % (rc, err[-300:]))
        self.rows = rows(out)
        self.read = Read(dump, log)
        with open(log, "rb") as f:
            self.lines = f.read().split(b"\n")
        if self.lines and self.lines[-1] == b"":
            self.lines.pop()
        self.watch = [i for i, l in enumerate(self.lines) if l.startswith(b"XM w ")]


def judge(whole, path, want_rc, page):
    """What went wrong with one variant: a list of reasons (empty: none), and
    how many rows it left untouched and touched."""
    bad = []
    rc, out, err = run([whole.exmap, "-l", path, "-c", "trend"])
    if rc < 0 or any(s in err for s in SANITIZER):
        return ["trend: signal %d or a sanitizer's report: %s" % (-rc, err[-400:])], 0, 0
    if rc not in want_rc:
        bad.append("trend: exit %d, want %s: %s" % (rc, want_rc, err[-200:]))
    if rc in (2, 4) and "line " not in err:
        bad.append("a loss, not said with its line: %s" % err[-200:])
    same = touched = 0
    got = rows(out) if rc in (0, 4) else {}
    for k, r in got.items():
        w = whole.rows.get(k)
        if w is None:
            bad.append("a row made up: %s" % (k,))
        elif int(r["samples"]) > int(w["samples"]):
            bad.append("%s: %s samples, the whole log %s" % (k, r["samples"], w["samples"]))
        elif r["samples"] == w["samples"]:
            if r != w:
                bad.append("%s untouched, yet changed: %s, whole %s" % (k, r, w))
            same += 1
        else:
            touched += 1
    touched += sum(1 for k in whole.rows if k not in got)
    part = Read(whole.dump, path)
    made = [k for k, v in part.vals.items() if v[1] and whole.read.vals.get(k, (None,))[0] != v[0]]
    if made:
        bad.append("%d values made up: %s" % (len(made), made[:2]))
    if page:
        rc2, _, err2 = run([whole.exmap, "-l", path, "html"])
        if rc2 < 0 or any(s in err2 for s in SANITIZER) or rc2 != rc:
            bad.append("html: exit %d (trend's %d): %s" % (rc2, rc, err2[-300:]))
    return bad, same, touched


def variants(whole, tmp, made, want_rc, what):
    """Judge each (name, lines) of made; one check for all."""
    def one(job):
        k, (name, lines) = job
        path = os.path.join(tmp, "v%d.log" % k)
        with open(path, "wb") as f:
            f.write(b"\n".join(lines) + b"\n")
        r = judge(whole, path, want_rc, k % 10 == 0)
        os.unlink(path)
        return name, r

    with ThreadPoolExecutor(JOBS) as ex:
        results = list(ex.map(one, enumerate(made)))
    bad = ["%s: %s" % (name, b) for name, (bs, _, _) in results for b in bs]
    same = sum(r[1] for _, r in results)
    touched = sum(r[2] for _, r in results)
    check("%s (%d variants): no crash, the loss said, no value made up, the rows it "
          "did not touch the same" % (what, len(results)), results and not bad,
          "; ".join(bad[:3]))
    print("# %s: %d rows untouched, %d touched, over %d variants of %d rows" %
          (what, same, touched, len(results), len(whole.rows)))
    return same, touched


def changed(line):
    """line with one character changed, in its items (after "XM w SEQ C ")."""
    at = min(len(line) - 10, max(9, len(line) // 2))
    c = line[at:at + 1]
    new = b"1" if c == b"0" else b"0" if c.isdigit() else b"x" if c != b"x" else b"y"
    return line[:at] + new + line[at + 1:]


def char(exmap, dump, log, tmp):
    w = Whole(exmap, dump, log)
    made = [("line %d" % (i + 1), w.lines[:i] + [changed(w.lines[i])] + w.lines[i + 1:])
            for i in w.watch]
    same, touched = variants(w, tmp, made, (4,), "one character changed in each watch line")
    check("a changed character touches rows (its values are lost), and leaves others whole",
          same > 0 and touched > 0, "%d untouched, %d touched" % (same, touched))


def order(exmap, dump, log, tmp):
    w = Whole(exmap, dump, log)
    dup = [("line %d twice" % (i + 1), w.lines[:i + 1] + w.lines[i:]) for i in w.watch]
    same, touched = variants(w, tmp, dup, (4,), "each watch line twice")
    check("a line repeated is ignored: no row touched", touched == 0 and same > 0,
          "%d touched" % touched)
    swap = [("lines %d and %d swapped" % (i + 1, i + 2),
             w.lines[:i] + [w.lines[i + 1], w.lines[i]] + w.lines[i + 2:])
            for i in w.watch if i + 1 in w.watch]
    # in a log of one keyframe, two of its lines swapped leave no sample: exit 2
    variants(w, tmp, swap, (4, 2), "each two neighbouring watch lines swapped")
    noisy, watch = [], set(w.watch)
    for i, l in enumerate(w.lines):
        if i not in watch:
            noisy.append(l)
            continue
        at = 5 + i % max(1, len(l) - 5)
        noisy += [l[:at] + b"[%5d.%06d] eth0: link up\r" % (i, i), l[at:] + b"\r"]
        noisy += [b"[%5d.%06d] random: crng init done" % (i, i)] if i % 3 == 0 else []
    variants(w, tmp, [("noise", noisy)], (0,),
             "kernel messages between and inside every watch line, CRLFs")


def cut(exmap, dump, log, tmp):
    w = Whole(exmap, dump, log)
    made = [("cut after line %d" % n, w.lines[:n]) for n in range(1, len(w.lines))
            if any(i < n for i in w.watch)]
    bad = []

    def one(job):
        k, (name, lines) = job
        path = os.path.join(tmp, "c%d.log" % k)
        with open(path, "wb") as f:
            f.write(b"\n".join(lines) + b"\n")
        rc, out, err = run([exmap, "-l", path, "-c", "trend"])
        part = Read(dump, path)
        os.unlink(path)
        why = []
        if rc < 0 or any(s in err for s in SANITIZER) or rc not in (0, 2):
            why.append("%s: trend exit %d: %s" % (name, rc, err[-200:]))
        made = [x for x, v in part.vals.items() if v[1] and w.read.vals.get(x, (None,))[0] != v[0]]
        if made:
            why.append("%s: %d values made up" % (name, len(made)))
        got = rows(out) if rc == 0 else {}
        why += ["%s: a row made up: %s" % (name, x) for x in got if x not in w.rows]
        return why

    with ThreadPoolExecutor(JOBS) as ex:
        for why in ex.map(one, enumerate(made)):
            bad += why
    check("the log cut after each of its %d lines: no crash, exit 0 or 2 (no sample yet), "
          "no value or row made up" % len(made), made and not bad, "; ".join(bad[:3]))


def main(a):
    if len(a) != 5 or a[0] not in ("char", "order", "cut"):
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        sys.exit(2)
    {"char": char, "order": order, "cut": cut}[a[0]](*a[1:])


if __name__ == "__main__":
    main(sys.argv[1:])
