#!/usr/bin/env python3
"""browse on an emulated board's serial console, driven as a terminal would:
the bytes each key press costs. Prints "ok"/"FAIL" lines, and one line
"browse over serial: ..." with the figures (for README and make bench).

usage: browse_serial.py BOOT_COMMAND...
  BOOT_COMMAND boots the board with its console on this process's stdio
  (tests/qemu/boot ARCH IMAGE INITRAMFS -); the guest prints "browse-start",
  runs exmap-mini browse on its console, then "browse-rc N".
The board's console says 0x0 (TIOCGWINSZ), so browse asks the terminal for
its size: this answers 80x24, as a serial terminal program would.
"""
import os
import pty
import re
import select
import sys
import time

from checks import check, fail, ok

BAUD = 115200
ROWS, COLS = 24, 80


class Console:
    def __init__(self, argv):
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            os.execvp(argv[0], argv)
        self.buf = b""

    def read(self, timeout):
        r, _, _ = select.select([self.fd], [], [], timeout)
        if not r:
            return b""
        try:
            return os.read(self.fd, 65536)
        except OSError:
            return b""

    def until(self, pattern, timeout):
        """Everything up to and including pattern, or None after timeout."""
        end = time.time() + timeout
        while pattern not in self.buf and time.time() < end:
            self.buf += self.read(0.5)
        if pattern not in self.buf:
            return None
        i = self.buf.index(pattern) + len(pattern)
        got, self.buf = self.buf[:i], self.buf[i:]
        return got

    def quiet(self, wait=2.0, limit=30):
        """What comes until nothing has come for wait seconds."""
        out, self.buf = self.buf, b""
        end = time.time() + limit
        while time.time() < end:
            b = self.read(wait)
            if not b:
                break
            out += b
        return out

    def key(self, k, wait=2.0):
        os.write(self.fd, k)
        return self.quiet(wait)

    def close(self):
        try:
            os.kill(self.pid, 9)
        except OSError:
            pass
        os.waitpid(self.pid, 0)


def lines_drawn(frame):
    return len(re.findall(rb"\033\[\d+;1H", frame))


def main():
    con = Console(sys.argv[1:])
    try:
        run(con)
    finally:
        con.close()


def run(con):
    if con.until(b"browse-start", 240) is None:
        fail("the board booted and started browse", con.buf[-300:])
        return
    asked = con.until(b"\033[6n", 30)
    check("browse asked the serial terminal its size (0x0 from the kernel)", asked is not None,
          con.buf[-200:])
    if asked is None:
        return
    os.write(con.fd, f"\033[{ROWS};{COLS}R".encode())
    first = con.quiet(3.0)
    text = re.sub(rb"\033\[[0-9;?]*[A-Za-z]", b"", first)
    check(f"the first screen ({len(first)} bytes): the Processes list, the workload in it",
          b" Processes" in text and b"workload" in text, text[:200])
    down = [len(con.key(b"j")) for _ in range(5)]
    check(f"j moves the cursor down: {down} bytes each, well under a screen",
          all(0 < d < len(first) // 4 for d in down), f"first screen {len(first)}")
    into = con.key(b"\r")
    check(f"Enter: the process's files ({len(into)} bytes, {lines_drawn(into)} lines)",
          b"Processes >" in into, into[:200])
    out = con.key(b"h")
    check(f"h: back out ({len(out)} bytes)", b" Processes" in out, out[:200])
    os.write(con.fd, b"q")
    done = con.until(b"browse-rc", 30)
    rc = con.until(b"\n", 10)
    check("q: browse ends, exit 0, the console given back", done is not None and
          rc is not None and rc.strip() == b"0", (done or b"")[-100:] + (rc or b""))
    con.until(b"Power down", 60)
    d = sorted(down)[len(down) // 2]
    ms = lambda n: n * 10 * 1000 / BAUD
    print(f"browse over serial: the first screen {len(first)} bytes ({ms(len(first)):.0f} ms "
          f"at {BAUD} baud), a row down {d} bytes ({ms(d):.0f} ms), into a list "
          f"{len(into)} bytes ({ms(len(into)):.0f} ms), {COLS}x{ROWS}")


if __name__ == "__main__":
    main()
