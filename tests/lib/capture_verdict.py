"""A damaged capture loaded and judged, for tests/lib/capture_corrupt.py.

run loads a capture with the sanitizer build for one view; judge says what
is wrong with what it gave (None: nothing), against what the clean capture
gave and what the damage was expected to do (lost_at: a changed byte's).
"""
import atexit
import csv
import io
import os
import re
import shutil
import subprocess
import tempfile
import threading

from capwire import info

SAN_OPTS = {
    # No allocator in exmap-mini: the leak check would only cost time. An RSS
    # cap turns "zeroes 16 GiB" into a report; 99 marks a sanitizer exit.
    "ASAN_OPTIONS": "detect_leaks=0:hard_rss_limit_mb=512:exitcode=99",
    "UBSAN_OPTIONS": "print_stacktrace=1:exitcode=99",
}
ENV = dict(os.environ, **SAN_OPTS)
ENVTEXT = " ".join("%s=%s" % kv for kv in SAN_OPTS.items())

# CAPFUZZ_SERVE: sanserve (tests/unit/sanserve.c), the same build forked for
# each run instead of exec'd, one per thread. ASan's RSS cap is a thread,
# which a fork does not have: sanserve holds the same 512 MiB itself.
SERVE = os.environ.get("CAPFUZZ_SERVE")
SERVE_ENV = dict(ENV, ASAN_OPTIONS="detect_leaks=0:exitcode=99")
SERVERS = []
LOCAL = threading.local()

def stop_servers():
    for p, d in SERVERS:
        p.stdin.close()
        p.wait()
        shutil.rmtree(d, ignore_errors=True)
atexit.register(stop_servers)

def served(argv):
    s = getattr(LOCAL, "s", None)
    if s is None:
        d = tempfile.mkdtemp(prefix="sanserve.")
        p = subprocess.Popen([SERVE], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             env=SERVE_ENV)
        s = LOCAL.s = (p, os.path.join(d, "out"), os.path.join(d, "err"))
        SERVERS.append((p, d))
    p, out, err = s
    req = [out, err] + argv
    if any("\t" in a or "\n" in a for a in req):
        raise ValueError("a tab or newline in %r: sanserve splits on them" % req)
    p.stdin.write(("\t".join(req) + "\n").encode())
    p.stdin.flush()
    a = p.stdout.readline().split()
    if not a:
        raise RuntimeError("sanserve ended (exit %s) before answering %r" % (p.poll(), argv))
    with open(out, "rb") as f, open(err, "rb") as g:
        o, e = f.read(), g.read()
    rc = {b"exit": lambda n: n, b"signal": lambda n: -n}.get(a[0])
    return (rc(int(a[1])) if rc else a[0].decode(), o, e)

def run(san, path, view):
    if SERVE:
        rc, out, err = served([san, "-l", path] + view)
        return (rc, named_out(view, out, path), err)
    try:
        p = subprocess.run([san, "-l", path] + view, stdin=subprocess.DEVNULL,
                           capture_output=True, env=ENV, timeout=60)
    except subprocess.TimeoutExpired:
        return ("timeout", b"", b"")
    return (p.returncode, named_out(view, p.stdout, path), p.stderr)

# The page names the capture's file and holds what loading it said (its
# notes): not differences between two loads of one scan.
def named_out(view, out, path):
    if view != ["html"]:
        return out
    return re.sub(rb"\nD\.notes = [^\n]*", b"\nD.notes = [];", out.replace(path.encode(), b"CAPTURE"))

# Chunk k named on stderr: alone ("chunk K of"), or in a run of missing
# chunks of one kind ("chunks A-B of").
def named(k, err):
    if re.search(rb"chunk %d of " % k, err):
        return True
    return any(int(a) <= k <= int(b) for a, b in re.findall(rb"chunks (\d+)-(\d+) of ", err))

def judge(view, r, c, expect, lost):
    rc, out, err = r
    if rc == "timeout":
        return "no exit within 60 s"
    if rc == "rss":
        return "its RSS rose past 512 MiB"
    if rc < 0:
        return "killed by signal %d" % -rc
    first = err.decode("latin-1").strip().split("\n")[0][:200]
    if rc == 99 or b"Sanitizer" in err or b"runtime error" in err:
        return "sanitizer report: %s" % first
    if rc not in (0, 1, 2, 4):
        return "exit %d: %s" % (rc, first)
    if rc and not re.search(rb"^exmap-mini: ", err, re.M):
        return "exit %d without an \"exmap-mini: \" message" % rc
    if expect == "robust":
        if rc < 2 and (b"FAILED" in out or b"self-check failed" in err):
            return "exit %d for a capture whose shares do not add up (self-check failed)" % rc
        return None
    if expect == "reject":
        if rc not in (2, 4) or out:
            return "exit %d%s: want 2 or 4 and no report" % (rc, " and a report" if out else "")
        return None
    if expect.startswith("fatal"):
        want = expect.partition(" ")[2].encode()
        if rc == 2 and want in err:
            return None
        if expect.startswith("fatal-or-same") and rc < 2 and (rc, out) == c[0][:2]:
            return None
        return "exit %d, want 2 with a message saying \"%s\": %s" % (rc, want.decode(), first)
    refs = c
    if any((rc, out) == x[:2] for x in refs):
        return None
    if rc < 2:
        if any(out == x[1] for x in refs):
            return "exit %d, the clean capture's is %d" % (rc, refs[0][0])
        return "exit %d and a report that differs from the clean capture's%s" % (
            rc, diffline(out, refs[0][1]))
    if expect == "same":
        return "exit %d where the clean capture exits %d: %s" % (rc, refs[0][0], first)
    # a capture cut short may be refused whole (exit 4, no report)
    if expect == "cut" and rc == 4 and not out:
        return None
    # maps of a process that did not load is exit 2, after the chunk is named
    if lost is not None and (rc != 4 and not (rc == 2 and view[0] == "maps") or
                             not named(lost, err)):
        return "exit %d, want 4 and chunk %d named: %s" % (rc, lost, first)
    if rc == 4:
        whys = [subset(view, out, x[1], named(1, err)) for x in refs]
        if all(whys):
            return "exit 4 but %s" % whys[0]
    return None

def diffline(out, ref):
    a, b = out.split(b"\n"), ref.split(b"\n")
    for i in range(max(len(a), len(b))):
        x = a[i] if i < len(a) else b"(none)"
        y = b[i] if i < len(b) else b"(none)"
        if x != y:
            return ": line %d is %r, clean %r" % (i + 1, x[:90], y[:90])
    return ""

TOTAL = re.compile(rb"^ +\d+ process(es)? ")
# A note saying what a lost chunk took: a loss said, not a figure.
LOSS_NOTE = re.compile(rb"^[a-z-]+: the capture's chunk \d+, [^:]*, was lost: ")

# A damaged capture's CSV row against a clean one: each field the clean
# one's, or empty where the clean one has a figure (empty says "not known":
# a lost chunk's dma-buf columns); a figure where the clean row has none is
# made up.
def row_within(row, clean):
    return len(row) == len(clean) and row[:2] == clean[:2] and \
        all(x == y or (x == "" and y != "") for x, y in zip(row[2:], clean[2:]))

# The procs view's column of the kernel's map counts (mappers outside the
# view; outside in CSV): its figures come from chunk 1's x lines.
OUTSD = b" OUTSD"

def subset(view, out, ref, lost1=False):
    if view[0] == "maps":
        return None if out in (b"", ref) else "the mappings differ from the clean ones"
    if view[0] == "folded":
        return folded_subset(out, ref)
    if view[0] == "html":
        return None if not out or out.endswith(b"</html>\n") else "not a whole page"
    ol = out.split(b"\n")
    rl = ref.split(b"\n")
    if out and ol[0] != rl[0]:
        # chunk 1 lost (named on stderr): the map counts are not known, and
        # their column is left out, not filled; each row is then the clean
        # one without it
        col = b",outside" if view[0] == "-c" else OUTSD
        if not (lost1 and rl[0].endswith(col) and ol[0] == rl[0][:-len(col)]):
            return "the header row differs"
        if view[0] == "-c":
            rl = [l.rsplit(b",", 1)[0] for l in rl]
            ref = b"\n".join(rl)
        else:
            rl = rl + [l[:-len(OUTSD)] for l in rl]
    if view[0] == "procs":
        have, seen = set(rl), set()
        for l in ol[1:]:
            if TOTAL.match(l) or l.startswith(b"check: not made: ") or LOSS_NOTE.match(l):
                continue
            if l not in have:
                return "a line that the clean report does not have: %r" % l[:90]
            if re.match(rb"^ *\d+ ", l):
                if l in seen:
                    return "a process row twice: %r" % l[:90]
                seen.add(l)
        return None
    rows = list(csv.reader(io.StringIO(out.decode("latin-1"))))[1:]
    clean = list(csv.reader(io.StringIO(ref.decode("latin-1"))))[1:]
    if view[1] == "ram":
        # the same lines; only those the processes give may change with a
        # process lost: theirs, what no process maps, and unexplained
        if not out:
            return None  # the ram chunk lost: the view refused, nothing shown
        if [r[:3] for r in rows] != [r[:3] for r in clean]:
            return "the ram view's lines differ from the clean ones"
        for row, r in zip(rows, clean):
            if row != r and not re.match(r"process |unmapped |unexplained", row[1]):
                return "a ram line that changed: %s, clean %s" % (",".join(row), r[3])
        return None
    if view[1] == "procs":
        pids = [r[0] for r in rows]
        if len(set(pids)) < len(pids):
            return "a pid twice"
        for row in rows:
            if not any(row_within(row, r) for r in clean):
                return "a process row that the clean report does not have: %s" % ",".join(row)
        return None
    for row in rows:
        if not any(len(r) == len(row) and r[0] == row[0] and r[-1] == row[-1] and
                   all(int(x) <= int(y) for x, y in zip(row[1:-1], r[1:-1])) for r in clean):
            return "a file row not within the clean report's: %s" % ",".join(row)[:120]
    return None

# folded of a capture that lost chunks: each leaf a clean one, its count
# within a byte a line (the rounding carries from line to line; two leaves
# may share their frames: two static symbols "lock"), or, where the
# build-ids were lost, a process's file whole: its clean lines summed.
def folded_lines(text):
    leaves = {}
    for l in text.split(b"\n"):
        if l:
            frames, _, n = l.rpartition(b" ")
            if not n.isdigit():
                return None, l
            s, k = leaves.get(frames, (0, 0))
            leaves[frames] = (s + int(n), k + 1)
    return leaves, None

def folded_subset(out, ref):
    clean, _ = folded_lines(ref)
    got, bad = folded_lines(out)
    if got is None:
        return "a line without its count: %r" % bad[:90]
    whole = {}
    for frames, (n, k) in clean.items():
        key = b";".join(frames.split(b";")[:2])
        s, j = whole.get(key, (0, 0))
        whole[key] = (s + n, j + k)
    for frames, (n, k) in got.items():
        for ref_n, ref_k in (clean.get(frames, (None, 0)), whole.get(frames, (None, 0))):
            if ref_n is not None and abs(ref_n - n) <= max(k, ref_k):
                break
        else:
            return "a line that the clean lines do not make: %r" % frames[:90]
    return None

# Expectation of a change at byte off of line i: lost (its chunk, named), or same.
def lost_at(lines, i, off):
    kind, k, tag, what = info(lines[i])
    if kind == "chunk":
        return "damaged", k
    if kind == "close":  # its last field is free text, but a space in it is damage
        return ("damaged", None) if off >= what else ("damaged", k)
    return "same", None
