#!/usr/bin/python3
"""The figures of a CI run (.ci/run: make test, then make test-tinykernel),
from its log: each suite's checks and seconds, the time in all, the check
counts against a run before. tests/README.md, "Times", says how the logs
are made.

  times.py report LOG                 each suite's seconds and checks, the
                                      slowest first; the totals
  times.py compare BEFORE AFTER       each suite's checks before and after;
                                      the check names (digits as N) only one
                                      side prints; exit 1 when a suite has
                                      fewer checks after
  times.py write COLD WARM [BEFORE]   the figures into README.md and
                                      tests/README.md (between their
                                      <!--times:...--> and <!--/times-->)

A log is tests/run's output, each line possibly headed by a time stamp
"HH:MM:SS " (as a CI log or `ts '%H:%M:%S'` gives). A suite starts at a
top-level "== NAME" line (the first, or one after the suite before printed
its result line "N passed, N failed"); a suite's last result line is its count; its seconds are the
result line's "(S s)" or "(S s in N boots)", else (a log of the old
tests/run, one suite after another) the time stamps'. The time in all is
the sum of the "S s for make test in all" lines (make test's and make
test-tinykernel's, each from make's start, its setup and builds too), else
the time stamps' first to last."""
import collections, os, re, sys

RES = re.compile(r'^(\d+) passed, (\d+) failed(?: \((\d+) s(?: in \d+ boots)?\))?')
TS = re.compile(r'^(\d\d):(\d\d):(\d\d) ')
SHARED = re.compile(r'^== .* \(\d+ s, a boot shared\)$')
BOOT = re.compile(r'^== \S+ \(\d+ s; phases[ \w]*\)$')
ENDED = re.compile(r'^FAIL .*: (no result line \(exit \d+\)|stopped after \d+ s, its time limit)$')
ALL = re.compile(r'^== time: .*, (\d+) s for make test in all')
# Suites renamed since the baseline run of issue 43 (the old name's checks
# are the new name's).
RENAME = {
    "kernel fetch: the lock when an index does not verify, the mirror from apt sources":
    "kernel fetch: the lock when an index does not verify, the mirror from apt sources, the cache",
    "kernel module in qemu on our 6.1 without pagemap: x86_64 and an OpenWrt-like MIPS Malta board; resident against statm, sharing as built":
    "make test-tinykernel: the module on our kernels without pagemap",
    "the ram view in qemu on our 6.1 without pagemap: the counters alone, then the module's census":
    "make test-tinykernel: the ram view on our kernel without pagemap",
}
# The old make test-tinykernel printed its two suites as one: told apart by
# their checks' prefixes.
TINY = {'nopagemap-': 'make test-tinykernel: the module on our kernels without pagemap',
        'nopagemap: ': 'make test-tinykernel: the ram view on our kernel without pagemap'}


class Run:
    def __init__(self):
        self.counts = collections.OrderedDict()   # suite -> [passed, failed]
        self.secs = {}                            # suite -> seconds
        self.names = collections.OrderedDict()    # suite -> check names
        self.all_secs = []                        # "in all" figures
        self.first = self.last = None             # time stamps, seconds
        self.info = []                            # "commit", "cache" lines


def stamp(m, prev):
    s = int(m.group(1)) * 3600 + int(m.group(2)) * 60 + int(m.group(3))
    while prev is not None and s < prev - 43200:
        s += 86400
    return s


def parse(path):
    r = Run()
    cur = None
    seen_res = False
    started = tiny_new = False
    setups = 0
    t = t0 = None
    for raw in open(path, errors='replace'):
        raw = raw.rstrip('\n')
        m = TS.match(raw)
        if m:
            t = stamp(m, t)
            r.first = t if r.first is None else r.first
            r.last = t
        line = TS.sub('', raw)
        if line.startswith(('commit ', 'cache ')) and not started:
            r.info.append(line)
        if line == 'toolchain/setup':
            setups += 1
        a = ALL.match(line)
        if a:
            r.all_secs.append(int(a.group(1)))
        res = RES.match(line)
        if line.startswith('== ') and not SHARED.match(line) and not BOOT.match(line) and \
                (not started or seen_res):
            name = line[3:]
            if name == 'what failed' or name.startswith('time:'):
                cur = None
            else:
                cur = RENAME.get(name, name)
                r.names.setdefault(cur, [])
                started = True
                seen_res = False
                t0 = t
                tiny_new = tiny_new or cur.startswith('make test-tinykernel')
        elif setups >= 2 and not tiny_new:
            # the old make test-tinykernel: no "== NAME" of ours
            for p, n in TINY.items():
                if line[5:].startswith(p) and line.startswith(('ok   ', 'FAIL ')):
                    r.names.setdefault(n, []).append(line[5:])
                    c = r.counts.setdefault(n, [0, 0])
                    c[0 if line.startswith('ok') else 1] += 1
        elif cur is not None:
            if ENDED.match(line):
                # tests/run's word on a suite with no result line, or
                # stopped: it ends there, a failure
                r.counts.setdefault(cur, [0, 0])[1] += 1
                seen_res = True
            elif line.startswith(('ok   ', 'FAIL ')):
                r.names[cur].append(line[5:])
            elif res:
                seen_res = True
                # the last result line is the suite's total (a phase's
                # guest lines: "N passed, N failed with the guest's")
                r.counts[cur] = [int(res.group(1)), int(res.group(2))]
                if res.group(3) is not None:
                    r.secs[cur] = int(res.group(3))
                elif t is not None and t0 is not None and cur not in r.secs:
                    r.secs[cur] = t - t0
    return r


def total(r):
    if r.all_secs:
        return sum(r.all_secs)
    if r.first is not None:
        return r.last - r.first
    return None


def mins(s):
    return '?' if s is None else '%d s (%d min %02d s)' % (s, s // 60, s % 60)


def report(r, out):
    n = sum(p + f for p, f in r.counts.values())
    fails = sum(f for p, f in r.counts.values())
    for i in r.info:
        out.append('    ' + i)
    out.append('    .ci/run in all: %s; %d checks, %d failed' % (mins(total(r)), n, fails))
    if len(r.all_secs) == 1:
        out.append('    (make test only: make test-tinykernel did not run)')
    if len(r.all_secs) == 2:
        out.append('    (make test %s, make test-tinykernel %s)' % (mins(r.all_secs[0]), mins(r.all_secs[1])))
    out.append('')
    out.append('    %6s  %6s  %s' % ('s', 'checks', 'suite (a guests\' suite: its boots\' seconds)'))
    for s in sorted(r.counts, key=lambda s: -r.secs.get(s, -1)):
        p, f = r.counts[s]
        out.append('    %6s  %6d  %s' % (r.secs.get(s, '?'), p + f, s[:60]))


def compare(a, b, out, names=True):
    suites = list(a.counts) + [s for s in b.counts if s not in a.counts]
    ta = tb = fewer = 0
    for s in suites:
        x, y = sum(a.counts.get(s, [0])), sum(b.counts.get(s, [0]))
        ta += x
        tb += y
        mark = 'same' if x == y else ('MORE' if y > x else 'FEWER')
        fewer += mark == 'FEWER'
        out.append('    %-5s %6d -> %6d  %s' % (mark, x, y, s[:60]))
        if not names:
            continue
        xa = collections.Counter(re.sub(r'\d+', 'N', c) for c in a.names.get(s, []))
        xb = collections.Counter(re.sub(r'\d+', 'N', c) for c in b.names.get(s, []))
        for c, k in sorted((xa - xb).items()):
            out.append('          only before (%d): %s' % (k, c[:100]))
        for c, k in sorted((xb - xa).items()):
            out.append('          only after  (%d): %s' % (k, c[:100]))
    out.append('    in all %d -> %d checks; %d suites with fewer' % (ta, tb, fewer))
    return fewer


def replace(path, key, text):
    """The text between <!--times:KEY--> and <!--/times--> in PATH."""
    s = open(path).read()
    m = re.search(r'(<!--times:%s-->)(.*?)(<!--/times-->)' % re.escape(key), s, re.S)
    if not m:
        sys.exit('times.py: %s: no <!--times:%s--> ... <!--/times-->' % (path, key))
    s = s[:m.end(1)] + text + s[m.start(3):]
    open(path, 'w').write(s)


def write(cold, warm, before):
    top = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..')
    tc, tw = total(cold), total(warm)
    replace(os.path.join(top, 'README.md'), 'cold', str(round(tc / 60)) if tc else '?')
    replace(os.path.join(top, 'README.md'), 'warm', str(round(tw / 60)) if tw else '?')
    out = ['', 'With the cache empty (`EXMAP_CACHE` a new directory):', '']
    report(cold, out)
    out += ['', 'With the cache warm (the same directory, another fresh clone):', '']
    report(warm, out)
    if before is not None:
        out += ['', 'Before the cache and the scheduler (one suite after another, each',
                'clone downloading its kernels): %s; each suite\'s checks then and' % mins(total(before)),
                'now (warm run):', '']
        compare(before, warm, out, names=False)
    out.append('')
    replace(os.path.join(top, 'tests', 'README.md'), 'figures', '\n'.join(out) + '\n')


def main():
    a = sys.argv[1:]
    out = []
    if len(a) == 2 and a[0] == 'report':
        report(parse(a[1]), out)
    elif len(a) == 3 and a[0] == 'compare':
        fewer = compare(parse(a[1]), parse(a[2]), out)
        print('\n'.join(out))
        sys.exit(1 if fewer else 0)
    elif len(a) in (3, 4) and a[0] == 'write':
        write(parse(a[1]), parse(a[2]), parse(a[3]) if len(a) == 4 else None)
        return
    else:
        sys.exit('usage: tests/lib/times.py report LOG | compare BEFORE AFTER | write COLD WARM [BEFORE]')
    print('\n'.join(out))


main()
