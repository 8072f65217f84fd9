#!/usr/bin/env python3
"""Serial-console damage for exmap-mini captures (tests/suites/capture_test.sh).

usage: tests/lib/noise.py [--seed N] [--chunk N] [--past-marker] MODE IN OUT

IN is a raw console log holding one capture (its lines begin "XM "; kernel
messages may already cut them). OUT is IN with, deterministically for a seed:

  a      CRLF line ends; printk-style lines "[   12.345678] ..." inserted
         between capture lines and cut into the middle of some (the line's
         rest continues on the next line, as when printk interrupts user
         output on a serial console; one cut falls inside the "XM <chunk> "
         head, one right after it, the others anywhere); a partial line and
         a shell prompt before the capture, a prompt and a partial line (no
         newline at the end of the file) after it
  b      a, plus one character changed in one chunk's payload line (a
         digit into another digit, if it has any: it still parses)
  c      a, plus one capture payload line dropped
  clean  the capture lines alone, with every kernel message taken out of
         them (a message ends its console line: "[ ts] text" up to CRLF),
         LF line ends: what the dump wrote, to measure its size

b and c print "chunk N" (the chunk whose line was damaged) and "line L" (that
line's number in OUT; for a dropped line, the number of the line after it)
on stdout, then "# ..." lines saying what was done; a says "# ..." only.

--chunk N     damage a line of chunk N (else a payload line picked by the
              seed); --chunk begin: the begin line (b only)
--past-marker keep the cuts out of the "XM " marker (from its fourth byte on)

Payload lines are "XM <chunk> <payload>"; "XM <chunk> . <nlines> <crc>"
closes a chunk and is not damaged, nor is "XM end".
"""
import random
import re
import sys

from capwire import PRINTK, TS, Printk, info

USAGE = "usage: noise.py [--seed N] [--chunk N] [--past-marker] a|b|c|clean IN OUT"


def die(msg):
    print("noise.py: " + msg, file=sys.stderr)
    sys.exit(2)


def lines_of(data):
    """Lines without their terminator (CR LF or LF; stray CRs at the end)."""
    data = data.replace(b"\r\n", b"\n")
    out = data.split(b"\n")
    if out and out[-1] == b"":
        out.pop()
    return [l.rstrip(b"\r") for l in out]


def head_len(line):
    """Length of "XM <chunk> " for a payload or close line, else 0."""
    return info(line)[2]


def is_payload(line):
    return info(line)[0] == "chunk"


def intact(line):
    return line.startswith(b"XM ") and not TS.search(line)


def last_timestamp(lines):
    t = 100.0
    for l in lines:
        m = re.search(rb"\[\s*(\d+\.\d{6})\]", l)
        if m:
            t = float(m.group(1))
    return t


def clean(data):
    text = PRINTK.sub(b"", data.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n"))
    return b"".join(l + b"\n" for l in lines_of(text) if l.startswith(b"XM "))


def main():
    args = sys.argv[1:]
    seed, want, past = 1, None, False
    while args and args[0].startswith("--"):
        if args[0] == "--past-marker":
            past = True
            args = args[1:]
            continue
        if args[0] == "--seed" and len(args) > 1:
            seed = int(args[1])
        elif args[0] == "--chunk" and len(args) > 1:
            want = args[1].encode()
        else:
            die(USAGE)
        args = args[2:]
    if len(args) != 3 or args[0] not in ("a", "b", "c", "clean"):
        die(USAGE)
    mode, src, dst = args
    with open(src, "rb") as f:
        data = f.read()
    if mode == "clean":
        with open(dst, "wb") as f:
            f.write(clean(data))
        return
    rng = random.Random("%d/a" % seed)
    lines = lines_of(data)
    cap = [i for i, l in enumerate(lines) if l.startswith(b"XM ")]
    if not cap:
        die(src + ": no capture line (XM ...)")
    first, last = cap[0], cap[-1]
    # the last capture line, if a kernel message cut it, ends on a later line
    if TS.search(lines[last]):
        for j in range(last + 1, len(lines)):
            if not TS.match(lines[j]):
                last = j
                break
    report = []

    # b, c: the damage, to a line that came through whole, before the noise
    # (whose cuts may then fall in the damaged line too).
    chunk = None
    damaged = -1
    if mode in ("b", "c"):
        drng = random.Random("%d/%s" % (seed, mode))
        if want == b"begin":  # whole or cut by a kernel message (then before it)
            cand = [i for i in cap if lines[i].startswith(b"XM begin ")]
        else:
            cand = [i for i in cap if intact(lines[i]) and is_payload(lines[i])
                    and (want is None or lines[i].split(b" ")[1] == want)]
        # the loader must name the chunk: a line in the middle of the capture
        if not cand:
            die(src + ": no whole payload line" + (" of chunk " + want.decode() if want else ""))
        i = damaged = drng.choice(cand)
        chunk = lines[i].split(b" ")[1].decode()
        if mode == "b":
            l = lines[i]
            h = head_len(l) or len(b"XM begin ")
            m = TS.search(l)
            e = m.start() if m else len(l)
            if e <= h:
                die("chunk %s: empty payload line" % chunk)
            # a digit changed into another: the line still parses, so only
            # the chunk's checksum can tell (else any character)
            digits = [k for k in range(h, e) if chr(l[k]).isdigit()]
            col = drng.choice(digits) if digits else drng.randrange(h, e)
            if digits:
                alphabet = list(b"0123456789")
            else:
                alphabet = sorted(set(b"".join(lines[j][head_len(lines[j]):] for j in cand)) - {0x20})
            new = drng.choice([c for c in alphabet if c != l[col]] or [0x21 if l[col] != 0x21 else 0x22])
            lines[i] = l[:col] + bytes([new]) + l[col + 1:]
            report.append("# chunk %s: log line %d, column %d changed from %r to %r"
                          % (chunk, i + 1, col + 1, chr(l[col]), chr(new)))
        else:
            report.append("# chunk %s: log line %d dropped: %s"
                          % (chunk, i + 1, lines[i][:60].decode("latin-1")))
            lines[i] = None

    # a: the noise, drawn from its own generator so that b and c carry the
    # very noise a does.
    pk = Printk(rng, last_timestamp(lines[:first]))
    whole = [i for i in cap if lines[i] is not None and intact(lines[i])]
    ncut = max(3, len(whole) // 8)
    cuts = {}
    picks = rng.sample(whole, min(ncut, len(whole)))
    for n, i in enumerate(picks):
        l = lines[i]
        h = head_len(l) or 3
        lo = 3 if past else 1
        if len(l) <= lo + 1:
            continue
        if n == 0 and not past:
            col = rng.randrange(1, 3)  # inside "XM "
        elif n == 1:
            col = min(h, len(l) - 1)  # right after the head
        else:
            col = rng.randrange(lo, len(l))
        cuts[i] = col
    out = []
    ninsert = 0
    at = None  # OUT's line number of the damaged line (dropped: the next one)
    for i, l in enumerate(lines):
        if i == first:
            out.append(b"\xff\xfeline from before the capture started, cut at its st")
            out.append(b"~ # ./exmap-mini dump")
        if first < i <= last and rng.random() < 0.12:
            out.append(pk.line())
            ninsert += 1
        if i == damaged:
            at = len(out) + 1
        if l is None:
            continue
        if i in cuts:
            out.append(l[:cuts[i]] + pk.line())
            out.append(l[cuts[i]:])
        else:
            out.append(l)
        if i == last:
            out.append(b"~ # ")
    body = b"".join(l + b"\r\n" for l in out) + b"~ # echo unfinish"
    with open(dst, "wb") as f:
        f.write(body)
    report.append("# %d printk lines between capture lines, %d cut into them (columns %s)"
                  % (ninsert, len(cuts), ",".join(str(cuts[i] + 1) for i in sorted(cuts))))
    if chunk is not None:
        print("chunk " + chunk)
        print("line %d" % at)
    for r in report:
        print(r)


if __name__ == "__main__":
    try:
        main()
    except BrokenPipeError:
        sys.exit(1)
