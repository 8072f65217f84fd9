#!/usr/bin/env python3
"""The capture's lines and a serial console's noise, shared by the capture tests.

Imported by tests/lib/capture_corrupt.py, tests/lib/noise.py and tests/suites/integration.sh;
run by tests/suites/capture_host.sh:

usage: tests/lib/capwire.py verify CAPTURE       prints "GOOD BAD": the chunks and
                                             the begin and end lines whose
                                             line count and CRC-32 check out
       tests/lib/capwire.py console [--seed N] CAPTURE OUT
                                             CAPTURE as a console shows it
                                             (console_log)
       tests/lib/capwire.py unreadable N CAPTURE OUT [PID REASON]...
                                             CAPTURE with its header counting
                                             N unreadable processes and, in a
                                             v2 capture, these named in chunk
                                             1 (the checksums redone)

A capture line is "XM begin TEXT crc=C" or "XM end TEXT crc=C" (C the CRC-32
of TEXT), a payload line "XM K PAYLOAD" of chunk K, or a chunk's close line
"XM K . N C FREE" (N payload lines, C the CRC-32 of each payload and its
newline). Lines are bytes; those read from a capture keep their newline.
"""
import random
import re
import sys
import zlib

CLOSE_OR_PAYLOAD = re.compile(rb"XM (\d+) (\. )?")
# A kernel message on a console line: its timestamp, and the whole of it up
# to the line's end
TS = re.compile(rb"\[\s*\d+\.\d{6}\]")
PRINTK = re.compile(rb"\[\s*\d+\.\d{6}\] [^\r\n]*\r?\n")
MESSAGES = [
    b"random: crng init done",
    b"usb 1-1: new high-speed USB device number 2 using ehci-platform",
    b"eth0: Link is Up - 100Mbps/Full - flow control off",
    b"mmc0: new high speed SDHC card at address aaaa",
    b"EXT4-fs (mmcblk0p2): re-mounted. Quota mode: none.",
    b"watchdog: watchdog0: nowayout prevents watchdog being stopped!",
    b"audit: type=1400 audit(1700000000.123:42): apparmor=\"STATUS\"",
    b"systemd-journald[97]: Time spent on flushing to /var is 1.234ms",
]


def read(path):
    """A capture file's lines, each with its newline."""
    with open(path, "rb") as f:
        data = f.read()
    return [l + b"\n" for l in data.split(b"\n")[:-1]]


def info(line):
    """What a line is: ("begin" | "end", 0, 0, 0); ("chunk", K, the length of
    its "XM K " tag, 0); ("close", K, the tag's length, where its last field
    starts); ("other", None, 0, 0) for anything else."""
    if line.startswith(b"XM begin "):
        return ("begin", 0, 0, 0)
    if line.startswith(b"XM end "):
        return ("end", 0, 0, 0)
    m = CLOSE_OR_PAYLOAD.match(line)
    if not m:
        return ("other", None, 0, 0)
    if m.group(2):
        return ("close", int(m.group(1)), m.end(1) + 1, line.rstrip(b"\r\n").rindex(b" ") + 1)
    return ("chunk", int(m.group(1)), m.end(1) + 1, 0)


def crc(payloads):
    """The CRC-32 a close line gives for these payloads (without newlines)."""
    return zlib.crc32(b"".join(p + b"\n" for p in payloads))


def header(text):
    """A begin or end line's TEXT with its checksum."""
    return b"%s crc=%08x" % (text, zlib.crc32(text))


def reclose(lines):
    """lines with every close line's count and CRC redone from the payload
    lines of its chunk before it: a capture that verifies, whatever was done
    to its payload."""
    out, body = [], {}
    for l in lines:
        kind, k, tag, _ = info(l)
        if kind == "chunk":
            body.setdefault(k, []).append(l[tag:].rstrip(b"\n"))
        elif kind == "close":
            f = l[tag:].rstrip(b"\n").split(b" ")
            got = body.pop(k, [])
            if len(f) >= 3:
                f[1], f[2] = b"%d" % len(got), b"%08x" % crc(got)
            l = l[:tag] + b" ".join(f) + b"\n"
        out.append(l)
    return out


def verify(lines):
    """(good, bad): the begin and end lines and the chunks, by their CRCs
    and line counts."""
    good = bad = 0
    body = {}
    for l in lines:
        kind, k, tag, _ = info(l)
        l = l.rstrip(b"\n")
        if kind in ("begin", "end"):
            text, _, c = l.split(b" ", 2)[2].rpartition(b" crc=")
            ok = zlib.crc32(text) == int(c, 16)
        elif kind == "close":
            f = l[tag:].split(b" ")
            got = body.pop(k, [])
            ok = len(got) == int(f[1]) and crc(got) == int(f[2], 16)
        elif kind == "chunk":
            body.setdefault(k, []).append(l[tag:])
            continue
        else:
            continue
        good, bad = (good + 1, bad) if ok else (good, bad + 1)
    return good, bad


class Printk:
    """Kernel messages as a console prints them, timestamps rising from start."""

    def __init__(self, rng, start=100.0):
        self.rng = rng
        self.t = start

    def line(self):
        self.t += self.rng.uniform(0.0005, 0.05)
        msg = self.rng.choice(MESSAGES)
        return b"[%5d.%06d] " % (int(self.t), int(self.t * 1e6) % 1000000) + msg


def console_log(lines, rng):
    """A capture's lines as a board's console shows them: a boot log and a
    prompt before, kernel messages between its lines and cutting into some
    (past "XM ", the line's rest on the next line), CRLF, a prompt after."""
    pk = Printk(rng)
    out = [b"U-Boot 2023.01\r\n", b"Starting kernel ...\r\n", pk.line() + b"\r\n",
           b"login: root\r\n", b"# exmap-mini dump\r\n"]
    for l in lines:
        if rng.random() < 0.1:
            out.append(pk.line() + b"\r\n")
        l = l.rstrip(b"\n")
        if rng.random() < 0.05 and len(l) > 5:
            off = rng.randrange(3, len(l))
            l = l[:off] + pk.line() + b"\r\n" + l[off:]
        out.append(l + b"\r\n")
    return out + [b"# \r\n", pk.line() + b"\r\n"]


def unreadable(lines, n, named):
    """lines with the header's unreadable count n, and the (pid, reason)
    pairs of named in chunk 1, every checksum made again."""
    out = []
    for l in lines:
        kind = info(l)[0]
        if kind in ("begin", "end"):
            text = l.rstrip(b"\n").split(b" ", 2)[2].rsplit(b" crc=", 1)[0]
            text = re.sub(rb" unreadable=\d+ ", b" unreadable=%d " % n, text)
            l = b"XM %s %s\n" % (kind.encode(), header(text))
        elif l.startswith(b"XM 1 . "):
            out += [b"XM 1 u %d %s\n" % (pid, why.replace(b" ", b"%20")) for pid, why in named]
        out.append(l)
    return reclose(out)


def main(args):
    usage = ("usage: capwire.py verify CAPTURE | console [--seed N] CAPTURE OUT | "
             "unreadable N CAPTURE OUT [PID REASON]...")
    seed = 1
    if args[:1] == ["console"] and args[1:2] == ["--seed"] and len(args) > 2:
        seed = int(args[2])
        args = args[:1] + args[3:]
    if args[:1] == ["verify"] and len(args) == 2:
        print("%d %d" % verify(read(args[1])))
    elif args[:1] == ["unreadable"] and len(args) >= 4 and len(args) % 2 == 0:
        named = [(int(args[i]), args[i + 1].encode()) for i in range(4, len(args), 2)]
        with open(args[3], "wb") as f:
            f.write(b"".join(unreadable(read(args[2]), int(args[1]), named)))
    elif args[:1] == ["console"] and len(args) == 3:
        with open(args[2], "wb") as f:
            f.write(b"".join(console_log(read(args[1]), random.Random(seed))))
    else:
        sys.exit(usage)


if __name__ == "__main__":
    main(sys.argv[1:])
