#!/usr/bin/env python3
"""The damaged-capture test's driver: thousands of damaged captures loaded, each judged.

usage: tests/lib/capture_corrupt.py SAN EXMAP OUTDIR TMPDIR SEED JOBS CHILD
Run by tests/suites/capture_corrupt.sh (see it for what is checked), which made
OUTDIR/work.cap (the workload, CHILD one of its processes) and OUTDIR/all.cap
(every process) with EXMAP. Each damaged variant is loaded by SAN (the
sanitizer build) for the views in VIEWS, JOBS at a time, with SEED's choice
of variants. One line a group of damage: "ok   N what" or "FAIL N what: how
many failed; the first: why", then how to reproduce it; the group's first
failing input is kept in OUTDIR/fail-K (its clean capture in fail-K.clean).
Exit 0 when it ran to its end, whatever it found. The loading and the
verdicts are tests/lib/capture_verdict.py's.
"""
import gzip
import os
import random
import re
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

from capwire import Printk, console_log, crc, header, info, read, reclose
from capture_verdict import ENVTEXT, judge, lost_at, named_out, run

SAN, EXMAP, OUT, TMP, SEED, JOBS, CHILD = sys.argv[1:8]
rng = random.Random(int(SEED))
# Text procs for its totals and self-check, CSV for figures to the byte; the
# ram view from its chunk.
VIEWS = [["procs"], ["-c", "procs"], ["-c", "files"], ["maps", CHILD], ["-c", "ram"]]
# The pictures (each view costs a sanitizer run): folded's lines on every
# fourth variant, the html page on every sixteenth.
PICTURES = [["folded"], ["html"]]

def views_for(n):
    return VIEWS + [v for v, every in zip(PICTURES, (4, 16)) if n % every == 0]
nfail = 0

# The same capture with every pid moved by delta, each chunk re-closed and
# another capture id: a second capture of the same shape, as a board gives
# after a reboot.
def renamed(lines, delta):
    out = []
    for l in lines:
        kind, k, tag, _ = info(l)
        if kind in ("begin", "end"):
            text = l.rstrip(b"\r\n").split(b" ", 2)[2].rsplit(b" crc=", 1)[0]
            text = re.sub(rb" id=[0-9a-f]{16} ", b" id=%016x " % delta, text)
            l = b"XM %s %s\n" % (kind.encode(), header(text))
        elif kind in ("chunk", "close"):
            f = l[tag:-1].split(b" ")
            if kind == "chunk" and f[0] == b"p":
                f[1] = b"%d" % (int(f[1]) + delta)
            elif kind == "close" and f[3].startswith(b"pid="):
                f[3] = b"pid=%d" % (int(f[3][4:]) + delta)
            l = l[:tag] + b" ".join(f) + b"\n"
        out.append(l)
    return reclose(out)

CAP = {}
for name in ("work", "all"):
    CAP[name] = read(os.path.join(OUT, name + ".cap"))
CAP["work2"] = renamed(CAP["work"], 100000)
# Two captures of another machine with mappers outside the view (chunk 1's
# x line: an unreadable pid 1, its counts read; -p), whose damage once made
# figures up (the regressions at the end).
XDATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "capture-outside")
for name in ("all", "work"):
    with gzip.open(os.path.join(XDATA, name + ".cap.gz")) as f:
        CAP["x" + name] = [l + b"\n" for l in f.read().split(b"\n")[:-1]]
CLEAN = {}

# One case: (what, input, refs, expect, lost). input: lines, bytes or a path.
def check(case, n):
    what, data, refs, expect, lost = case[:5]
    views = case[5] if len(case) > 5 else views_for(n)
    path = data if isinstance(data, str) else os.path.join(TMP, "in.%d" % n)
    if not isinstance(data, str):
        with open(path, "wb") as f:
            f.write(b"".join(data) if isinstance(data, list) else data)
    try:
        for view in views:
            why = judge(view, run(SAN, path, view), [CLEAN[r][tuple(view)] for r in refs],
                        expect, lost)
            if why:
                return "%s: %s: %s" % (what, " ".join(view), why), view
    finally:
        if not isinstance(data, str):
            os.unlink(path)
    return None, None

POOL = ThreadPoolExecutor(int(JOBS))

def group(title, cases):
    global nfail
    t0 = time.time()
    res = list(POOL.map(check, cases, range(len(cases))))
    if os.environ.get("CAPFUZZ_VERBOSE"):
        print("    %.1f s" % (time.time() - t0))
    bad = [(c, r) for c, r in zip(cases, res) if r[0]]
    if not bad:
        print("ok   %d %s" % (len(cases), title))
        return
    nfail += 1
    (what, data, refs, expect, lost), (why, view) = bad[0][0][:5], bad[0][1]
    name = os.path.join(OUT, "fail-%d" % nfail)
    if isinstance(data, str):
        name = data
    else:
        with open(name, "wb") as f:
            f.write(b"".join(data) if isinstance(data, list) else data)
        with open(name + ".clean", "wb") as f:
            f.write(b"".join(CAP[refs[0]]))
    print("FAIL %d %s: %d failed; the first: %s" % (len(cases), title, len(bad), why))
    print("    reproduce: %s %s -l %s %s  (clean: -l %s.clean)" %
          (ENVTEXT, SAN, name, " ".join(view), name))
    if os.environ.get("CAPFUZZ_VERBOSE"):
        for c, r in bad[1:]:
            print("    also: %s" % r[0])

def pick(seq, n):
    seq = list(seq)
    return seq if len(seq) <= n else rng.sample(seq, n)

def payload_lines(lines):
    return [i for i, l in enumerate(lines) if info(l)[0] == "chunk"]

def chunk_span(lines, k):
    idx = [i for i, l in enumerate(lines) if info(l)[0] in ("chunk", "close") and info(l)[1] == k]
    return idx[0], idx[-1] + 1

PK = Printk(rng)

def printk():
    return PK.line() + b"\n"

def junk(n, avoid=b"\n"):
    ok = [c for c in range(1, 256) if bytes([c]) not in avoid]
    while True:
        b = bytes(rng.choice(ok) for _ in range(n))
        if b"XM " not in b:
            return b

def edit_at(lines, i, off, new, drop=1):
    l = lines[i]
    return lines[:i] + [l[:off] + new + l[off + drop:]] + lines[i + 1:]


for name in CAP:
    CLEAN[name] = {}
    with open(os.path.join(TMP, "clean.cap"), "wb") as f:
        f.write(b"".join(CAP[name]))
    for view in VIEWS + PICTURES:
        CLEAN[name][tuple(view)] = run(SAN, os.path.join(TMP, "clean.cap"), view)

# --- the clean captures -------------------------------------------------------
bad = []
for name, want in (("work", (0,)), ("all", (0, 1))):
    for view in VIEWS + PICTURES:
        rc, out, err = CLEAN[name][tuple(view)]
        if rc not in want or not out or b"Sanitizer" in err or b"runtime error" in err:
            bad.append("%s %s: exit %s: %s" % (name, " ".join(view), rc, err[:200]))
        path = os.path.join(OUT, name + ".cap")
        p = subprocess.run([EXMAP, "-l", path] + view, capture_output=True)
        if (p.returncode, named_out(view, p.stdout, path)) != (rc, out):
            bad.append("%s %s: the release build says otherwise (exit %d)" %
                       (name, " ".join(view), p.returncode))
if b"FAILED" in CLEAN["work"][("procs",)][1] + CLEAN["all"][("procs",)][1]:
    bad.append("a clean capture fails its self-check")
if bad:
    print("FAIL the clean captures load: %s" % "; ".join(bad))
    sys.exit(0)
print("ok   the clean captures load (workload: exit 0; every process: exit %d), "
      "as the release build loads them" % CLEAN["all"][("procs",)][0])

W, A, W2 = CAP["work"], CAP["all"], CAP["work2"]

# --- lines lost, repeated, swapped --------------------------------------------
cases = []
for name, n in (("work", 10**6), ("all", 700)):
    L = CAP[name]
    for i in sorted(pick(range(len(L)), n)):
        kind, k = info(L[i])[:2]
        cases.append(("%s capture, line %d deleted" % (name, i + 1), L[:i] + L[i + 1:], [name],
                      "same" if kind in ("begin", "end") else "damaged",
                      k if kind in ("chunk", "close") else None))
group("line deletions: a chunk's line lost is exit 4 naming the chunk; "
      "the begin or end line lost changes nothing", cases)

cases = []
for name, n in (("work", 10**6), ("all", 250)):
    L = CAP[name]
    for i in pick(range(len(L)), n):
        kind, k = info(L[i])[:2]
        cases.append(("%s capture, line %d repeated" % (name, i + 1), L[:i + 1] + L[i:], [name],
                      "damaged" if kind == "chunk" else "same", k if kind == "chunk" else None))
group("repeated lines: a payload line twice is exit 4 naming the chunk; "
      "a begin, end or chunk-end line twice changes nothing", cases)

cases = []
for name, n in (("work", 10**6), ("all", 250)):
    L = CAP[name]
    for i in pick([i for i in range(len(L) - 1) if L[i] != L[i + 1]], n):
        a, b = info(L[i]), info(L[i + 1])
        k = a[1] if a[0] == b[0] == "chunk" and a[1] == b[1] else None
        cases.append(("%s capture, lines %d and %d swapped" % (name, i + 1, i + 2),
                      L[:i] + [L[i + 1], L[i]] + L[i + 2:], [name], "damaged", k))
group("swapped neighbour lines: identical, or exit 4 with nothing made up", cases)

# --- one character changed ------------------------------------------------------
def one_char(name, spots, n):
    L = CAP[name]
    out = []
    for i, off in pick(spots, n):
        c = L[i][off]
        new = c
        while new == c or new == 10:
            new = rng.randrange(32, 127) if rng.random() < 0.5 else c ^ (1 << rng.randrange(8))
        expect, k = lost_at(L, i, off)
        out.append(("%s capture, line %d byte %d %r -> %r" % (name, i + 1, off + 1, chr(c), chr(new)),
                    edit_at(L, i, off, bytes([new])), [name], expect, k))
    return out

def spots(name, test):
    return [(i, off) for i, l in enumerate(CAP[name]) for off in range(len(l) - 1)
            if test(l, info(l), off)]

in_tag = lambda l, f, o: f[0] in ("chunk", "close") and o < f[2]
group("changed characters in chunk numbers (the \"XM k \" tags): exit 4 naming the chunk",
      one_char("work", spots("work", in_tag), 250) + one_char("all", spots("all", in_tag), 60))
# A chunk's tag damaged into a watch line's ("XM 7 " -> "XM w ", seen once):
# the file is still a capture (no watch line in it checks out), each view
# html's too, exit 4 naming the chunk.
def tag_to_w(name):
    L = CAP[name]
    out, seen = [], set()
    for i, l in enumerate(L):
        kind, k, tag, _ = info(l)
        if kind != "chunk" or k in seen:
            continue
        seen.add(k)
        expect, lk = lost_at(L, i, 3)
        out.append(("%s capture, line %d: chunk %s's tag made 'w'" % (name, i + 1, k),
                    L[:i] + [b"XM w" + l[tag - 1:]] + L[i + 1:], [name], expect, lk,
                    VIEWS + PICTURES))
    return out
group("chunk tags made a watch line's (\"XM w \"): still a capture, html's too; exit 4 "
      "naming the chunk", tag_to_w("work") + tag_to_w("all")[:20])
group("changed characters in chunk-end lines: in the count or checksum, exit 4 naming "
      "the chunk; in the last field, identical or exit 4",
      one_char("work", spots("work", lambda l, f, o: f[0] == "close" and o >= f[2]), 200) +
      one_char("all", spots("all", lambda l, f, o: f[0] == "close" and o >= f[2]), 60))
group("changed characters in payload (processes, mappings, runs, share counts, build-ids): "
      "exit 4 naming the chunk",
      one_char("work", spots("work", lambda l, f, o: f[0] == "chunk" and o >= f[2]), 400) +
      one_char("all", spots("all", lambda l, f, o: f[0] == "chunk" and o >= f[2]), 150))
group("changed characters in the begin or the end line: the other line stands in, "
      "nothing changes",
      one_char("work", spots("work", lambda l, f, o: f[0] in ("begin", "end") and o < 12),
               24) +
      one_char("work", spots("work", lambda l, f, o: f[0] in ("begin", "end")), 200))

# --- cut short ------------------------------------------------------------------------
def cut_cases(name, offsets):
    L = CAP[name]
    starts, s = [], 0
    for l in L:
        starts.append(s)
        s += len(l)
    data = b"".join(L)
    out = []
    for o in sorted(set(offsets)):
        i = max(j for j in range(len(L)) if starts[j] <= o)
        kind, k, tag, what = info(L[i])
        off = o - starts[i]
        lost = k if kind == "chunk" or (kind == "close" and off <= what) else None
        expect = "same" if kind == "end" else "cut"
        out.append(("%s capture cut after byte %d (line %d byte %d)" % (name, o, i + 1, off),
                    data[:o], [name], expect, lost))
    return out

ws = []
s = 0
for l in W:
    ws += [s, s + 1, s + len(l) - 1]
    s += len(l)
group("cuts (at every line start, one byte in, before every newline, and at random): "
      "identical, or exit 4 naming where it stopped or refusing the capture whole",
      cut_cases("work", ws + [rng.randrange(s) for _ in range(50)]) +
      cut_cases("all", [sum(map(len, A[:i])) for i in range(1, 20)] +
                [rng.randrange(len(b"".join(A))) for _ in range(150)]))

# --- console noise ----------------------------------------------------------------
cases = []
for name, n in (("work", 10**6), ("all", 150)):
    L = CAP[name]
    for i in pick(range(len(L) + 1), n):
        msgs = b"".join(printk() for _ in range(rng.randrange(1, 4)))
        cases.append(("%s capture, kernel messages before line %d" % (name, i + 1),
                      L[:i] + [msgs] + L[i:], [name], "same", None))
group("kernel messages between lines: nothing changes", cases)

cases = []
for name, n in (("work", 300), ("all", 100)):
    L = CAP[name]
    for i, off in pick([(i, o) for i, l in enumerate(L) for o in range(1, len(l))], n):
        msgs = b"".join(printk() for _ in range(rng.randrange(1, 4)))
        cases.append(("%s capture, kernel messages cutting line %d at byte %d" % (name, i + 1, off),
                      edit_at(L, i, off, msgs, 0), [name], "same", None))
group("kernel messages cutting a line, even its \"XM \" (\"XM 3 r s1[   12.345678] msg\", "
      "the rest on the next line): nothing changes", cases)

cases = []
for i, off in pick([(i, o) for i, l in enumerate(W) for o in range(1, len(l) - 1)], 150):
    cases.append(("work capture, a newline and a kernel message at line %d byte %d" % (i + 1, off),
                  edit_at(W, i, off, b"\n" + printk(), 0), ["work"],
                  "damaged", info(W[i])[1] if info(W[i])[0] == "chunk" else None))
group("kernel messages on a line of their own splitting a capture line in two: "
      "identical, or exit 4 naming the chunk", cases)

def console(L, how):
    out = []
    for l in L:
        if how == "crlf":
            l = l[:-1] + b"\r\n"
        elif how == "crcrlf":
            l = l[:-1] + b"\r\r\n"
        elif how == "some-cr":
            l = l[:-1] + b"\r" * rng.randrange(2) + b"\n"
        elif how.startswith("prefix"):
            l = how[7:].encode() + l
        out.append(l)
    if how == "no-final-newline":
        out[-1] = out[-1][:-1]
    return out

cases = []
for name in ("work", "all"):
    L = CAP[name]
    for how in ("crlf", "crcrlf", "some-cr", "no-final-newline", "prefix <6>",
                "prefix 2024-05-01 12:00:00.123 ", "prefix [    1.000000] ", "prefix # "):
        cases.append(("%s capture, %s" % (name, how), console(L, how), [name], "same", None))
    for j in range(6):
        cases.append(("%s capture in a console log (%d)" % (name, j), console_log(L, rng), [name],
                      "same", None))
group("console forms (CRLF, CRs, no final newline, line prefixes, a boot log with kernel "
      "messages around and inside lines): nothing changes", cases)

# --- bytes ----------------------------------------------------------------------------
cases = []
for i in pick(range(len(W) + 1), 120):
    cases.append(("work capture, a line of random bytes before line %d" % (i + 1),
                  W[:i] + [junk(rng.randrange(1, 200)) + b"\n"] + W[i:], ["work"], "same", None))
for i in pick(range(len(W) + 1), 20):
    cases.append(("work capture, a line of NULs before line %d" % (i + 1),
                  W[:i] + [b"\0" * rng.randrange(1, 50) + b"\n"] + W[i:], ["work"], "same", None))
for n in (16382, 16383, 16384, 16385, 20000, 70000):
    i = rng.randrange(1, len(W))
    cases.append(("work capture, a %d-byte line before line %d" % (n, i + 1),
                  W[:i] + [junk(n, b"\n\r") + b"\n"] + W[i:], ["work"], "same", None))
    cases.append(("work capture, a %d-byte line ending in a capture line, before line %d" %
                  (n, i + 1), W[:i] + [b"a" * n + W[i]] + W[i:], ["work"], "same", None))
group("junk lines between lines (random bytes, NULs, 16 KiB and longer, a capture line "
      "at the end of a long one): nothing changes", cases)

cases = []
for i, off in pick([(i, o) for i in payload_lines(W) for o in range(1, len(W[i]))], 200):
    b = junk(rng.randrange(1, 9))
    cases.append(("work capture, %d random bytes into line %d at byte %d" % (len(b), i + 1, off),
                  edit_at(W, i, off, b, 0), ["work"], "damaged", info(W[i])[1]))
for i, off in pick([(i, o) for i in payload_lines(W) for o in range(1, len(W[i]))], 80):
    cases.append(("work capture, a NUL into line %d at byte %d" % (i + 1, off),
                  edit_at(W, i, off, b"\0", 0), ["work"], "damaged", info(W[i])[1]))
for n in (16383, 16384, 16385, 40000):
    i = rng.choice(payload_lines(W))
    cases.append(("work capture, line %d made %d bytes long" % (i + 1, n),
                  edit_at(W, i, len(W[i]) - 1, b"a" * (n - len(W[i]) + 1), 0), ["work"],
                  "damaged", info(W[i])[1]))
group("bytes inside payload lines (random bytes, NULs, a line made longer than 16 KiB): "
      "exit 4 naming the chunk", cases)

# --- one chunk twice ------------------------------------------------------------------
def damage(lines, which):
    """lines with a hex digit changed in a payload line, the first or the last: what
    a bad line says, still well formed (a line of one field gets a changed letter)"""
    i = payload_lines(lines)[which]
    l, tag = lines[i], info(lines[i])[2]
    digits = [o for o in range(l.index(b" ", tag) + 1 if b" " in l[tag:-1] else tag, len(l) - 1)
              if l[o:o + 1] in b"0123456789abcdef"]
    off = rng.choice(digits) if digits else tag
    new = b"%x" % ((int(l[off:off + 1], 16) + 1) % 16) if digits else b"Q"
    return edit_at(lines, i, off, new)

cases = []
for name, n in (("work", 10**6), ("all", 8)):
    L = CAP[name]
    nchunk = max(info(l)[1] for l in L if info(l)[0] == "close")
    nproc = int(re.search(rb" procs=(\d+) ", L[0]).group(1))
    end = [i for i, l in enumerate(L) if info(l)[0] == "end"][0]
    # every chunk of share counts and of build-ids, some of processes
    for k in sorted(pick(range(1, nproc + 1), n)) + list(range(nproc + 1, nchunk + 1)):
        a, b = chunk_span(L, k)
        copy = L[a:b]
        d = "%s capture, chunk %d" % (name, k)
        cases.append((d + " twice", L[:b] + copy + L[b:], [name], "same", None))
        cases.append((d + " twice, later", L[:end] + copy + L[end:], [name], "same", None))
        cases.append((d + " twice, its first line lost in the copy", L[:b] + copy[1:] + L[b:],
                      [name], "same", None))
        for which in ((0, -1) if b - a > 2 else (0,) if b - a > 1 else ()):
            w = "first" if which == 0 else "last"
            cases.append((d + " twice, the copy's %s line damaged" % w,
                          L[:b] + damage(copy, which) + L[b:], [name], "same", None))
            cases.append((d + " twice, the first copy's %s line damaged" % w,
                          L[:a] + damage(copy, which) + copy + L[b:], [name], "same", None))
group("a chunk twice (whole, whole later, cut, the copy damaged, the first damaged): "
      "the whole copy is the one loaded, nothing changes", cases)

# --- versions, several captures, not a capture ---------------------------------------------
def reheader(L, begin=None, end=None):
    out = list(L)
    for i, l in enumerate(out):
        kind = info(l)[0]
        if kind not in ("begin", "end"):
            continue
        text = l.rstrip(b"\n").split(b" ", 2)[2].rsplit(b" crc=", 1)[0]
        if kind == "begin" and begin:
            out[i] = b"XM begin " + header(begin(text)) + b"\n"
        if kind == "end" and end:
            out[i] = b"XM end " + header(end(text)) + b"\n"
    return out

v3 = lambda t: b"v3" + t[2:]
v10 = lambda t: b"v10" + t[2:]
damaged_v = [l.replace(b"XM begin v2 ", b"XM begin v3 ") for l in W]
cases = [
    ("v3 begin and end lines", reheader(W, v3, v3), ["work"], "fatal v3", None),
    ("v10 begin and end lines", reheader(W, v10, v10), ["work"], "fatal v10", None),
    ("a v3 capture", reheader([W[0]] + [b"XM 1 q 1 2 3 4\n", b"XM 1 . 1 %08x x\n" %
                                         crc([b"q 1 2 3 4"])] + [W[-1]], v3, v3),
     ["work"], "fatal v3", None),
    ("a v3 begin line, a v2 end line", reheader(W, v3), ["work"], "fatal-or-same v3", None),
    ("the begin line's v2 damaged into v3", damaged_v, ["work"], "same", None),
]
group("format versions: a v3 capture is exit 2 naming its version; a v2 whose begin line "
      "reads v3 by damage loads", cases)

cases = [
    ("work + work", W + W, ["work"], "same", None),
    ("work + all", W + A, ["all"], "same", None),
    ("all + work", A + W, ["work"], "same", None),
    ("work + work of other pids", W + W2, ["work2"], "same", None),
    ("work of other pids + work", W2 + W, ["work"], "same", None),
    ("work + noise + work of other pids", W + [printk(), b"# \n"] + W2, ["work2"], "same", None),
    ("work, then a lone begin line", W + [W[0]], ["work"], "damaged", None),
]
group("several captures in one log: the last one is loaded, as if alone", cases)

cases = []
both = W + W2
for _ in range(150):
    i = rng.randrange(1, len(W))
    j = rng.randrange(len(W) + 1, len(both))
    cases.append(("work + work of other pids, lines %d-%d lost" % (i + 1, j), both[:i] + both[j:],
                  ["work", "work2"], "damaged", None))
group("two captures of the same shape, a span lost across the seam (end and begin lines "
      "with it): one capture or the other, never a mix", cases)

os.mkdir(os.path.join(TMP, "dir"))
with open(os.path.join(TMP, "empty"), "wb"):
    pass
with open(os.path.join(TMP, "text"), "wb") as f:
    f.write(b"".join(printk() for _ in range(50)) + b"login: \n")
cases = [
    ("an empty file", os.path.join(TMP, "empty"), ["work"], "fatal no capture", None),
    ("a log with no capture", os.path.join(TMP, "text"), ["work"], "fatal no capture", None),
    ("a directory", os.path.join(TMP, "dir"), ["work"], "fatal not a capture: a directory", None),
    # not a regular file: read once, kept (as a pipe's capture is), then found empty
    ("/dev/null", "/dev/null", ["work"], "fatal no capture", None),
    ("a missing file", os.path.join(TMP, "missing"), ["work"], "fatal No such file", None),
    ("the exmap-mini binary", SAN, ["work"], "reject", None),
]
group("not a capture (empty, no capture, a directory, /dev/null, missing, a binary): "
      "exit 2 or 4 with a message, no report", cases)

# --- captures that verify but were not written by dump ------------------------------------
EXTREME = [b"0", b"1", b"ffffffff", b"100000000", b"ffffffffffffffff", b"10000000000000000",
           b"7fffffff", b"80000000", b"fffffff", b"10000000", b"%", b"%zz", b"%0", b"", b"-1",
           b"a" * 300, b"%00" * 40, b"s1", b"h1", b"S1:0", b"s1:ffffffff", b"1*0", b"0*ffffffff"]

def forge(L):
    L = list(L)
    i = rng.choice(payload_lines(L))
    tag = L[i][:info(L[i])[2]]
    f = L[i][len(tag):-1].split(b" ")
    how = rng.randrange(6)
    j = rng.randrange(len(f))
    if how == 0:
        f[j] = rng.choice(EXTREME)
    elif how == 1 and len(f[j]) > 0:
        o = rng.randrange(len(f[j]))
        f[j] = f[j][:o] + bytes([rng.randrange(33, 127)]) + f[j][o + 1:]
    elif how == 2:
        del f[j]
    elif how == 3:
        f.insert(j, rng.choice(f))
    elif how == 4:
        return L[:i] + L[i + 1:], "line %d dropped" % (i + 1)
    else:
        o = L[rng.choice(payload_lines(L))]
        return L[:i + 1] + [tag + o[info(o)[2]:]] + L[i + 1:], \
            "a line of the capture repeated after line %d" % (i + 1)
    return L[:i] + [tag + b" ".join(f) + b"\n"] + L[i + 1:], "line %d field %d" % (i + 1, j + 1)

cases = []
for n in range(500):
    L, what = forge(W)
    if rng.random() < 0.3:
        L, w2 = forge(L)
        what += ", " + w2
    cases.append(("work capture, %s, checksums redone" % what, reclose(L), ["work"],
                  "robust", None))
group("payload changed and its chunk's checksum redone (a capture that verifies but dump "
      "did not write): no crash, exit 0, 1, 2 or 4, and never a failed self-check", cases)

def craft(version=1, **kw):
    h = dict(ps=4096, ids=0, procs=0, vanished=0, empty=0, unreadable=0)
    h.update(kw)
    h.setdefault("chunks", h["procs"] + (h["ids"] + 8191) // 8192 + 1 + 2 * (version > 1))
    text = b"v%d %s src=pagemap uname=x" % (version, b" ".join(b"%s=%d" % (k.encode(), h[k]) for k in (
        "ps", "chunks", "ids", "procs", "vanished", "empty", "unreadable")))
    return [b"XM begin " + header(text) + b"\n"], [b"XM end " + header(text) + b"\n"]

def chunk(k, body, what=b"x"):
    return [b"XM %d %s\n" % (k, l) for l in body] + [b"XM %d . %d %08x %s\n" % (k, len(body),
                                                                                     crc(body), what)]

big = (1 << 32) - 2
cases = []
for what, kw, body in (
    ("no process, no page", {}, chunk(1, [], b"buildids")),
    ("4294967294 pages, no chunk", dict(ids=big), []),
    ("4294967294 processes, no chunk", dict(procs=big - 1, ids=0), []),
    ("4294967294 chunks of processes and pages", dict(procs=big - 524289, ids=big, chunks=big), []),
    ("unreadable=4294967294", dict(unreadable=big), chunk(1, [], b"buildids")),
    ("1 GiB pages, a mapping of 2^63 bytes",
     dict(ps=1 << 30, procs=1), chunk(1, [b"p 5 0 a %", b"m 0 8000000000000000 r--p 0 0 0 0 %",
                                         b"r h%x" % ((1 << 28) - 1)]) + chunk(2, [], b"buildids")),
    ("8193 pages in two count chunks, a share count one too many",
     dict(ids=8193, procs=1), chunk(1, [b"p 5 0 a %", b"m 0 2001000 rw-p 0 0 0 0 %",
                                        b"r s2001"]) + chunk(2, [b"c 0 2000", b"n 1*2000"]) +
     chunk(3, [b"c 2000 1", b"n 2"]) + chunk(4, [], b"buildids")),
    # v2: the unreadable processes, the ram view, then the share counts, the processes
    ("v2, no process, no page", dict(version=2),
     chunk(1, []) + chunk(2, [], b"ram") + chunk(3, [], b"buildids")),
    ("v2, 4294967294 pages, no chunk", dict(version=2, ids=big), []),
    ("v2, unreadable=4294967294, two named", dict(version=2, unreadable=big),
     chunk(1, [b"u 1 Permission%20denied", b"u 2 %"]) + chunk(2, [], b"ram") + chunk(3, [], b"buildids")),
    ("v2, more unreadable processes named than counted", dict(version=2, unreadable=1),
     chunk(1, [b"u 1 Permission%20denied", b"u 2 No%20such%20device"]) + chunk(2, [], b"ram") +
     chunk(3, [], b"buildids")),
    ("v2, a continued line with nothing before it", dict(version=2, procs=1),
     chunk(1, [b"+ u 1 x"]) + chunk(2, [b"+ i MemTotal 1"], b"ram") + chunk(3, [b"p 5 0 a %", b"+ b"]) +
     chunk(4, [], b"buildids")),
    ("v2, a line continued past 16 KiB", dict(version=2, procs=1),
     chunk(1, []) + chunk(2, [b"o x"] + [b"+ " + b"y" * 198] * 90, b"ram") +
     chunk(3, [b"p 5 0 a x"] + [b"+ " + b"y" * 198] * 90) + chunk(4, [], b"buildids")),
    ("v2, ram lines of every kind, odd values", dict(version=2),
     chunk(1, []) + chunk(2, [b"i MemTotal 18446744073709551615", b"i MemFree 1", b"v census_err -2147483647",
                              b"v nzram 4294967295", b"s installed_src %", b"l slab 18446744073709551615 1",
                              b"t slab " + b"x" * 63 + b" 5", b"g r 1 1 1", b"k 13 9", b"d huge 1",
                              b"o %25"], b"ram") + chunk(3, [], b"buildids")),
    ("v2, ram lines that dump never writes", dict(version=2),
     chunk(1, []) + chunk(2, [b"t slab " + b"x" * 64 + b" 5", b"k 14 1", b"v nosuch 1",
                              b"v installed -1", b"g r 1 2 0"], b"ram") + chunk(3, [], b"buildids")),
    ("v2, 8193 pages in two count chunks, a share count one too many",
     dict(version=2, ids=8193, procs=1), chunk(1, []) + chunk(2, [], b"ram") +
     chunk(3, [b"c 0 2000", b"n 1*2000"]) + chunk(4, [b"c 2000 1", b"n 2"]) +
     chunk(5, [b"p 5 0 a %", b"m 0 2001000 rw-p 0 0 0 0 %", b"r s2001"]) + chunk(6, [], b"buildids")),
):
    begin, end = craft(**kw)
    cases.append(("a made header: " + what, begin + body + end, ["work"], "robust", None))
group("made headers that verify (huge counts of pages, processes and chunks; 1 GiB pages): "
      "exit 2 or 4 with a message, or a report", cases)

# The log is long enough for the chunks the header declares, but holds none.
begin, end = craft(ids=big)
group("made header declaring 4294967294 pages in a 9 MB log of nothing else: "
      "exit 2 or 4 within 512 MiB, not 16 GiB of share counts zeroed",
      [("a made header: 4294967294 pages, no chunk, 9 MB of log",
        begin + [b"#" * 1023 + b"\n"] * 8800 + end, ["work"], "robust", None)])

# --- regressions ------------------------------------------------------------------
# Damage that once made figures up where mappers were outside the view: a
# lost count chunk's OUTSD figures and outside note (0 pages, "0"), and a
# damaged copy of chunk 1 whose x line's flags stayed.
X, XW = CAP["xall"], CAP["xwork"]
x_cut = sum(map(len, X[:16]))
cases = [
    ("outside capture, line 112 deleted", X[:111] + X[112:], ["xall"], "damaged", 3),
    ("outside capture, lines 114 and 115 swapped", X[:113] + [X[114], X[113]] + X[115:],
     ["xall"], "damaged", 3),
    ("outside capture, line 121 byte 9 ' ' -> '|'", edit_at(X, 120, 8, b"|"), ["xall"])
    + lost_at(X, 120, 8),
    ("outside capture, line 115 byte 85 '*' -> '\"'", edit_at(X, 114, 84, b'"'), ["xall"])
    + lost_at(X, 114, 84),
    ("outside capture cut after byte %d (line 17 byte 0)" % x_cut, b"".join(X)[:x_cut],
     ["xall"], "cut", 2),
    ("-p capture, chunk 1 twice, the copy's x line damaged",
     XW[:4] + [XW[1].replace(b" x 2", b" x 3")] + XW[2:], ["xwork"], "same", None),
]
group("regressions: damage with mappers outside the view (tests/data/capture-outside): "
      "nothing made up", cases)
