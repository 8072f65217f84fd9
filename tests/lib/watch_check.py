#!/usr/bin/env python3
"""Checks of watch logs (tests/suites/watch_test.sh): what exmap-mini's reader
gives (tests/unit/wlogdump.c, DUMP below) against the log's own captures,
against the log read whole when it is damaged, and against this file's own
reading of the watch lines (an independent one: the format as
/work/notes/watch-format.md and the manual give it).

usage: watch_check.py truth EXMAP DUMP LOG       the first and last samples are
                                                 the captures' figures; parts add
                                                 up; lines, keyframes, changes
       watch_check.py same DUMP CLEAN NOISY      the reader gives the same
       watch_check.py cut DUMP LOG TMP STEP      cut after every STEPth line
       watch_check.py drop DUMP LOG TMP          a line of each class lost
       watch_check.py midway DUMP LOG TMP        a log that starts mid-way
       watch_check.py rotated DUMP FILE          FILE.1 and FILE, together, alone

One "ok"/"FAIL" line per check (tests/lib/checks.py).
"""
import csv
import os
import subprocess
import sys
import zlib

from checks import check

CLASSES = "hRFPGpqfrxte"


class Read:
    """What the reader gave: values by (sample, kind, entity, field), the
    samples in order with their keyframe flag, the events, the stats, stderr."""

    def __init__(self, dump, log):
        p = subprocess.run([dump, log], capture_output=True, timeout=120)
        self.rc = p.returncode
        self.err = p.stderr.decode(errors="replace")
        self.vals, self.samples, self.key, self.events, self.stats = {}, [], {}, [], {}
        for line in p.stdout.decode(errors="replace").splitlines():
            if line.startswith("stats,"):
                self.stats = dict(f.split("=") for f in line.split(",")[1:])
                continue
            if line.startswith(("started,", "exited,")):
                self.events.append(line.split(",", 6))
                continue
            head = line.split(",", 5)
            tail = head[5].rsplit(",", 4)
            n = int(head[0])
            if not self.samples or self.samples[-1] != n:
                self.samples.append(n)
                self.key[n] = head[3] == "1"
            self.vals[(n, head[4], tail[0], tail[1])] = (int(tail[2]), tail[3] == "1",
                                                         tail[4] == "1")

    def at(self, n):
        return {k[1:]: v for k, v in self.vals.items() if k[0] == n}


def watch_lines(path):
    """The log's whole watch lines: (index in the file's lines, seq, class,
    items), a class "+" for a continuation; and all of the file's lines."""
    with open(path, "rb") as f:
        lines = f.read().split(b"\n")
    out = []
    for i, l in enumerate(lines):
        if not l.startswith(b"XM w "):
            continue
        body, _, crc = l[5:].rpartition(b" ")
        if len(crc) != 8 or zlib.crc32(body) != int(crc, 16):
            continue
        f = body.decode().split(" ")
        out.append((i, int(f[0], 16), f[1], f[2:]))
    return out, lines


def samples_of(wl):
    """The watch lines grouped into samples: (n, keyframe, [line indexes])."""
    out, cur = [], []
    for w in wl:
        cur.append(w)
        if w[2] == "t":
            f = w[3][0].split(",")
            out.append((int(f[0], 16), len(f) == 5, cur))
            cur = []
    return out


def unescape(s):
    if s == "%":
        return ""
    out, i = bytearray(), 0
    while i < len(s):
        if s[i] == "%":
            out.append(int(s[i + 1:i + 3], 16))
            i += 3
        else:
            out += s[i].encode()
            i += 1
    return out.decode(errors="replace")


def write(path, lines):
    with open(path, "wb") as f:
        f.write(b"\n".join(lines))


def item_key(cls, item):
    """The (class, sub, id) a line's item is ordered by."""
    if cls == "x":
        return (CLASSES.index("x"), 0 if item[0] == "p" else 1, int(item[1:], 16))
    if cls in "hte":
        return (CLASSES.index(cls), 0, 0)
    return (CLASSES.index(cls), 0, int(item.split(",")[0], 16))


# ---- the checks ----

def truth(exmap, dump, log):
    r = Read(dump, log)
    check("the reader reads the log whole", r.rc in (0, 1) and r.stats.get("lost") == "0"
          and r.stats.get("bad") == "0", "exit %d, %s %s" % (r.rc, r.stats, r.err[-300:]))
    # the first sample is capture @1's scan, the last capture @2's
    for place, n in (("@1", r.samples[0]), ("@2", r.samples[-1])):
        got = r.at(n)
        bad = []
        p = subprocess.run([exmap, "-l", log + place, "-c", "procs"], capture_output=True,
                           text=True, timeout=120)
        rows = list(csv.DictReader(p.stdout.splitlines()))
        for row in rows:
            ent = list({k[1] for k in got if k[0] == "proc" and k[1].split(":")[0] == row["pid"]})
            if len(ent) != 1:
                bad.append("pid %s: %d entities" % (row["pid"], len(ent)))
                continue
            for f in ("eff_resident", "sole", "resident", "swap", "writable"):
                if got[("proc", ent[0], f)][0] != int(row[f]):
                    bad.append("pid %s %s: %d, capture %s" % (row["pid"], f,
                                                              got[("proc", ent[0], f)][0], row[f]))
        nproc = len({k[1] for k in got if k[0] == "proc"})
        check("sample %d: every process's five figures are capture %s's, exactly" % (n, place),
              rows and not bad and nproc == len(rows), "; ".join(bad[:5]) or
              "%d processes in the sample, %d in the capture" % (nproc, len(rows)))
        p = subprocess.run([exmap, "-l", log + place, "-c", "files"], capture_output=True,
                           text=True, timeout=120)
        rows = list(csv.DictReader(p.stdout.splitlines()))
        bad = [row["path"] for row in rows
               if got.get(("file", row["path"], "eff_resident"), (None,))[0] != int(row["eff_resident"])]
        check("sample %d: every file's eff_resident is capture %s's, exactly" % (n, place),
              rows and not bad, "%d of %d differ: %s" % (len(bad), len(rows), bad[:3]))
    # parts add up to their process, to a byte a part
    bad, nparts = [], 0
    for n in r.samples:
        tot, cnt = {}, {}
        for (m, kind, ent, f), (v, known, _) in r.vals.items():
            if m != n or kind != "part":
                continue
            key = ":".join(ent.split(":")[:2])
            tot[key] = tot.get(key, 0) + v
            cnt[key] = cnt.get(key, 0) + 1
            nparts += 1
        for (m, kind, ent, f), (v, known, _) in r.vals.items():
            key = ":".join(ent.split(":")[:2])
            if m == n and kind == "proc" and f == "eff_resident" and \
               abs(tot.get(key, 0) - v) > cnt.get(key, 0):
                bad.append("sample %d %s: parts %d, eff_resident %d" % (n, ent, tot.get(key, 0), v))
    check("a process's parts add up to its eff_resident (a byte a part) at every sample",
          nparts and not bad, "; ".join(bad[:3]) or "no part")
    # written only when changed: an unchanged value is not rewritten but at keyframes
    bad = []
    prev = {}
    for n in r.samples:
        cur = r.at(n)
        for k, (v, known, changed) in cur.items():
            if k in prev and not r.key[n] and (prev[k][0] != v) != changed:
                bad.append("sample %d %s: %d after %d, changed %d" % (n, k, v, prev[k][0], changed))
        prev = cur
    check("a value is written when it changed, and only then (keyframes aside)", not bad,
          "; ".join(bad[:3]))
    wl, lines = watch_lines(log)
    longest = max(len(lines[i]) + 1 for i, *_ in wl)
    tline = max(len(lines[i]) + 1 for i, _, c, _ in wl if c == "t")
    check("watch lines are at most 256 bytes, newline in", longest <= 256, "longest %d" % longest)
    check("a sample's t line (all a sample in which nothing changed writes) is at most 64 bytes",
          tline <= 64, "longest %d" % tline)
    print("# longest watch line %d bytes, longest t line %d bytes" % (longest, tline))
    keys = [n for n in r.samples if r.key[n]]
    check("a keyframe every 60 samples", keys == list(range(0, r.samples[-1] + 1, 60)),
          "keyframes at %s" % keys[:6])


def same(dump, clean, noisy):
    a, b = Read(dump, clean), Read(dump, noisy)
    check("through the console's noise (CRLF, kernel messages between and inside lines) "
          "the reader gives what it gives of the clean log", a.vals == b.vals and a.events ==
          b.events and b.stats.get("lost") == "0", "%d values, %d noisy; %s; %s" %
          (len(a.vals), len(b.vals), b.stats, b.err[-200:]))


def never_made_up(full, part, what):
    """Every value the damaged log's reading says known is the whole log's."""
    bad = [k for k, v in part.vals.items() if v[1] and full.vals.get(k, (None,))[0] != v[0]]
    check(what + ": no value made up (every known value is the whole log's)", not bad,
          "%d differ: %s" % (len(bad), bad[:3]))


def cut(dump, log, tmp, step):
    full = Read(dump, log)
    wl, lines = watch_lines(log)
    tlines = [i for i, _, c, _ in wl if c == "t"]
    bad, made = [], []
    for at in range(1, len(lines), step):
        path = os.path.join(tmp, "cut")
        write(path, lines[:at])
        part = Read(dump, path)
        if part.rc not in (0, 1) and any(i < at for i in tlines):
            bad.append("cut at %d: exit %d" % (at, part.rc))
        want = [full.samples[k] for k, i in enumerate(tlines) if i < at]
        if part.samples != want:
            bad.append("cut at %d: samples %s, want %s" % (at, part.samples[-3:], want[-3:]))
        made += ["cut at %d: %s" % (at, k) for k, v in part.vals.items()
                 if v[1] and full.vals.get(k, (None,))[0] != v[0]]
    check("a log cut after any of its lines (every %d): each sample whose t line arrived is "
          "given, no other" % step, not bad, "; ".join(bad[:3]))
    check("a log cut anywhere: no value made up", not made, "; ".join(made[:3]))


def drop(dump, log, tmp):
    full = Read(dump, log)
    wl, lines = watch_lines(log)
    samples = samples_of(wl)
    done = set()
    for n, key, ws in samples:
        if key or n == samples[0][0]:
            continue
        for j, (i, seq, cls, items) in enumerate(ws):
            if cls in done or cls in "t+" or j == 0:
                continue
            done.add(cls)
            path = os.path.join(tmp, "drop")
            write(path, lines[:i] + lines[i + 1:])
            part = Read(dump, path)
            what = "a lost %s line (sample %d)" % (cls, n)
            check(what + ": the reader says a line was lost, before which",
                  "line %d: 1 watch line lost" % (i + 1) in part.err, part.err[-200:])
            never_made_up(full, part, what)
            lo, hi = item_key(ws[j - 1][2], ws[j - 1][3][-1]), item_key(ws[j + 1][2], ws[j + 1][3][0])
            if cls == "p":
                ids = {int(it.split(",")[0], 16) for it in items}
                gone = {e for (m, kind, e, f), v in part.vals.items()
                        if m == n and kind == "proc" and not v[1]}
                names = procs_by_id(wl, n)
                carried = {names[i] for i in ids}
                inside = {names[i] for i in names if lo <= (CLASSES.index("p"), 0, i) <= hi}
                check(what + ": the processes it carried are unknown", carried <= gone,
                      "carried %s, unknown %s" % (sorted(carried)[:3], sorted(gone)[:3]))
                check(what + ": no process outside the lost range is unknown", gone <= inside,
                      "unknown %s, range %s" % (sorted(gone - inside)[:3], sorted(inside)[:3]))
            nxt = [m for m in full.samples if m > n and full.key[m]]
            if nxt:
                unknown = [k for k, v in part.vals.items() if k[0] == nxt[0] and not v[1]]
                check(what + ": all known again at the next keyframe (%d)" % nxt[0],
                      not unknown, "unknown %s" % unknown[:3])
    # a t line: the sample is not given; if nothing else went, nothing is unknown
    n, key, ws = next(s for s in samples if not s[1] and s[0] > samples[0][0])
    i = ws[-1][0]
    write(os.path.join(tmp, "drop"), lines[:i] + lines[i + 1:])
    part = Read(dump, os.path.join(tmp, "drop"))
    check("a lost t line: its sample (%d) is not given" % n, n not in part.samples,
          "samples %s" % part.samples[:5])
    never_made_up(full, part, "a lost t line")
    after = part.at(n + 1)
    check("a lost t line alone: the next sample knows all (SEQ says only the t went)",
          after and all(v[1] for v in after.values()) and len(after) == len(full.at(n + 1)),
          "%d values, %d unknown" % (len(after), sum(not v[1] for v in after.values())))
    # a t line and the line before it: the next sample knows only what it wrote
    i = ws[-2][0] if len(ws) > 1 else None
    if i is not None:
        write(os.path.join(tmp, "drop"), lines[:i] + lines[i + 2:])
        part = Read(dump, os.path.join(tmp, "drop"))
        never_made_up(full, part, "a lost t line and one more")
        unknown = [k for k, v in part.at(n + 1).items() if not v[1]]
        nxt = [m for m in part.samples if m > n and part.key[m]]
        check("a lost t line and one more: what may have gone is unknown till the keyframe",
              not part.at(n + 1) or unknown or nxt == [n + 1], "all known at %d" % (n + 1))
    # one character changed: the line's check fails, as if lost
    n, key, ws = next(s for s in samples if not s[1] and len(s[2]) > 2)
    i = ws[1][0]
    l = lines[i]
    k = l.index(b",") + 1 if b"," in l else 8
    damaged = lines[:i] + [l[:k] + (b"0" if l[k:k + 1] != b"0" else b"1") + l[k + 1:]] + lines[i + 1:]
    write(os.path.join(tmp, "drop"), damaged)
    part = Read(dump, os.path.join(tmp, "drop"))
    check("a damaged line (one character changed): counted damaged and lost",
          part.stats.get("bad") == "1" and part.stats.get("lost") == "1", str(part.stats))
    never_made_up(full, part, "a damaged line")


def procs_by_id(wl, n):
    """The process each id names at sample n, as the reader names it."""
    names, cur = {}, 0
    for i, seq, cls, items in wl:
        if cls == "P":
            f = items[0].split(",")
            names[int(f[0], 16)] = "%d:%d:%s" % (int(f[1], 16), int(f[2], 16), unescape(f[4]))
        if cls == "t":
            if int(items[0].split(",")[0], 16) == n:
                return names
    return names


def midway(dump, log, tmp):
    full = Read(dump, log)
    wl, lines = watch_lines(log)
    samples = samples_of(wl)
    keys = [s[0] for s in samples if s[1]]
    if len(keys) < 2:
        check("a log that starts mid-way", False, "fewer than two keyframes: %s" % keys)
        return
    # from a line inside a sample before the second keyframe, not its first
    start = next(s[2][1][0] for s in samples[5:] if len(s[2]) > 1 and s[0] < keys[1])
    write(os.path.join(tmp, "mid"), lines[start:])
    part = Read(dump, os.path.join(tmp, "mid"))
    check("a log that starts mid-way: the first sample given is the next keyframe's (%d)" % keys[1],
          part.samples[:1] == [keys[1]], "first %s" % part.samples[:1])
    check("a log that starts mid-way: it says what it skipped",
          "before the first keyframe" in part.err and "skipped" in part.err, part.err[-300:])
    check("a log that starts mid-way: it gives every sample from the keyframe on",
          part.samples == [n for n in full.samples if n >= keys[1]], "%s" % part.samples[:3])
    never_made_up(full, part, "a log that starts mid-way")
    unknown = [k for k, v in part.vals.items() if not v[1]]
    check("a log that starts mid-way: all known from the keyframe on", not unknown,
          "%s" % unknown[:3])


def rotated(dump, path):
    both = Read(dump, path)
    check("FILE.1 and FILE read together: the samples in order, none missing",
          both.samples == list(range(both.samples[0], both.samples[0] + len(both.samples))) and
          both.stats.get("lost") == "0", "%s ... %s, %s" % (both.samples[:3], both.samples[-3:],
                                                            both.stats))
    wl, _ = watch_lines(path)
    check("FILE begins with a keyframe's h line: it stands alone", wl and wl[0][2] == "h",
          "first watch line's class %s" % (wl[0][2] if wl else None))
    os.rename(path + ".1", path + ".away")
    try:
        alone = Read(dump, path)
    finally:
        os.rename(path + ".away", path + ".1")
    check("FILE alone: its samples, from its first, all known",
          alone.samples and alone.samples == [n for n in both.samples if n >= alone.samples[0]]
          and alone.stats.get("skipped") == "0" and all(v[1] for v in alone.vals.values()),
          "%s; %s" % (alone.samples[:3], alone.stats))
    check("FILE alone: the values the pair gives", all(both.vals.get(k) == v for k, v in alone.vals.items()),
          "differ")


def main(a):
    cmds = {"truth": (truth, 3), "same": (same, 3), "cut": (cut, 4), "drop": (drop, 3),
            "midway": (midway, 3), "rotated": (rotated, 2)}
    if not a or a[0] not in cmds or len(a) != cmds[a[0]][1] + 1:
        sys.exit(__doc__)
    args = a[1:]
    if a[0] == "cut":
        args[3] = int(args[3])
    cmds[a[0]][0](*args)


if __name__ == "__main__":
    main(sys.argv[1:])
