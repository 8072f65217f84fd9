#!/usr/bin/env python3
"""browse driven as a user would, in tmux and on a bare pty. Prints one line
per check, "ok   WHAT" or "FAIL WHAT: why", and nothing else on stdout.

usage: browse_check.py EXMAP CAPTURE PID LIB DATAPID DATAFILE WORKDIR [PIDS]
  CAPTURE  a capture of a few processes (-p): every screen is compared with
           the text view that exmap-mini prints for the same capture
  PID      a process of the capture that maps LIB, an ELF library with .data
  DATAFILE a file that process DATAPID of the capture maps, not ELF
  PIDS     the processes of the capture, still running (a,b,c): browse
           live (-p PIDS), r scanning again where the cursor is

In tmux (a private server): both tabs walked down to the symbols, each list's
figures against the CLI's (-P, -F, sections, symbols), finding by name,
sorting, going out, a file with no deeper level, the terminal's modes back
after q, Ctrl-C and SIGTERM, 40x12, 200x50 and a resize. On a pty that says
0x0 (a serial console): the size asked of the terminal, 80x24 when it does
not answer; the bytes one key press sends.
"""
import os
import pty
import re
import select
import signal
import subprocess
import sys
import time

from checks import check, fail, ok

EXMAP, CAP, PID, LIB, DATAPID, DATAFILE, WORK = sys.argv[1:8]
LIVE = sys.argv[8] if len(sys.argv) > 8 else None
SOCK = f"exmap-browse-{os.getpid()}"
HEADS = ["VM", "MAPPD", "RESID", "EFMAP", "EFRES", "SOLE", "WRITE", "SWAP"]


def tmux(*args):
    r = subprocess.run(["tmux", "-L", SOCK, "-f", "/dev/null"] + list(args),
                       capture_output=True, text=True)
    return r.stdout


def screen():
    return tmux("capture-pane", "-p", "-t", "b").rstrip("\n").split("\n")


def cursor(kind):
    """The key of the row in reverse video (the cursor's), or None."""
    lines = tmux("capture-pane", "-p", "-e", "-t", "b").rstrip("\n").split("\n")
    for i, ln in enumerate(lines[2:-1]):
        if ln.startswith("\033[7m"):
            plain = [re.sub(r"\033\[[0-9;]*m", "", x) for x in lines]
            rows = parse_screen(plain, kind)
            return rows[i][0] if i < len(rows) else None
    return None


def wait_for(pred, timeout=10):
    end = time.time() + timeout
    s = screen()
    while time.time() < end:
        s = screen()
        if pred(s):
            return s
        time.sleep(0.1)
    return s


def keys(*k):
    tmux("send-keys", "-t", "b", *k)


def settle(before=None):
    """The screen once it stops changing (and differs from before, if given)."""
    time.sleep(0.15)
    last = screen()
    end = time.time() + 5
    while time.time() < end:
        time.sleep(0.15)
        s = screen()
        if s == last and (before is None or s != before):
            return s
        last = s
    return last


def start(cols, rows, cmd):
    """A new tmux server with one pane of cols x rows running cmd; the screen
    once browse has drawn its first list."""
    tmux("kill-server")
    for _ in range(50):     # the last server may still be going away
        tmux("new-session", "-d", "-s", "b", "-x", str(cols), "-y", str(rows),
             f"sh -c '{cmd}; echo EXIT $?; sleep 600'")
        if subprocess.run(["tmux", "-L", SOCK, "has-session", "-t", "b"],
                          capture_output=True).returncode == 0:
            break
        time.sleep(0.1)
    tmux("set-option", "-g", "status", "off")
    tmux("resize-window", "-t", "b", "-x", str(cols), "-y", str(rows))
    return wait_for(lambda s: s[0].startswith(" Processes"))


def cli(*args, live=False):
    src = ["-p", LIVE] if live else ["-l", CAP]
    r = subprocess.run([EXMAP] + src + list(args), capture_output=True, text=True)
    return r.stdout.split("\n")


def parse_cli(lines, kind):
    """The CLI's text rows: {key: {HEAD: text}}; key is the pid (procs) or
    the name (files, sections, symbols)."""
    head = lines[0].split()
    figs = [h for h in head if h in HEADS]
    out = {}
    for ln in lines[1:]:
        t = ln.split()
        if kind == "procs":
            if len(t) < 10 or not t[0].isdigit() or t[1].startswith("process"):
                continue
            out[t[0]] = dict(zip(figs, t[-8:]))
        elif kind == "files":
            t = ln.split(None, 9)
            if len(t) < 10:
                continue
            out[t[9]] = dict(zip(figs, t[:8]))
        else:
            if len(t) < 9 or ln.startswith(" ") or ln.startswith("("):
                continue
            out[" ".join(t[:-8])] = dict(zip(figs, t[-8:]))
    return out


def parse_screen(s, kind):
    """browse's rows, in order: [(key, {HEAD: text}, SHARE)]."""
    heads = [h.rstrip("v^") for h in s[1].split()]
    figs = [h for h in heads if h in HEADS]
    rows = []
    for ln in s[2:-1]:
        if not ln.strip():
            break
        ln = re.sub(r" \[[# ]*\]$", "", ln.rstrip())
        t = ln.split()
        share = t[-1]
        vals = t[-1 - len(figs):-1]
        left = t[:-1 - len(figs)]
        key = left[0] if kind == "procs" else " ".join(left)
        rows.append((key, dict(zip(figs, vals)), share))
    return rows


def match_key(key, want):
    """A screen name against the CLI's: a long path is cut from the left,
    on the screen or in the CLI's column."""
    if key in want:
        return key
    hits = [k for k in want if (key.startswith("...") and k.endswith(key[3:])) or
            (k.startswith("...") and key.endswith(k[3:]))]
    return hits[0] if len(hits) == 1 else None


def compare(what, s, kind, cli_lines):
    want = parse_cli(cli_lines, kind)
    got = parse_screen(s, kind)
    bad = []
    seen = set()
    for key, figs, _ in got:
        k = match_key(key, want)
        if k is None:
            bad.append(f"{key}: not in the CLI's view")
            continue
        seen.add(k)
        for h, v in figs.items():
            if want[k].get(h) != v:
                bad.append(f"{key} {h}: screen {v}, CLI {want[k].get(h)}")
    missing = [k for k in want if k not in seen]
    if missing and len(got) < len(s) - 3:
        bad.append(f"not on screen: {missing[:4]}")
    check(f"{what}: {len(got)} rows, each figure on screen as the CLI prints it",
          got and not bad, "; ".join(bad[:4]) or "no rows")
    return got


def go_to(s, kind, name, what):
    """The cursor to the row named name (Home, then down), and in."""
    rows = parse_screen(s, kind)
    idx = [i for i, r in enumerate(rows) if r[0] == name or
           (r[0].startswith("...") and name.endswith(r[0][3:]))]
    if not idx:
        fail(what, f"no row {name} on screen")
        return s
    keys("Home")
    for _ in range(idx[0]):
        keys("j")
    keys("Enter")
    return settle(s)


def crumb(s):
    return s[0].split("   ")[0].strip()


def walk():
    base = os.path.basename(LIB)
    s = start(200, 50, f"{EXMAP} -l {CAP} browse")
    check("200x50: the Processes tab first, all eight figures and a bar",
          s[0].startswith(" Processes") and all(h in s[1] for h in ["EFRES", "VM", "SWAP"])
          and "SHARE" in s[1] and re.search(r"\[#* *\]$", s[2].rstrip()), "\n".join(s[:3]))
    check("200x50: the status line is the last row, with the keys and the source",
          len(s) == 50 and "q quit" in s[-1] and ("pagemap" in s[-1] or "kmod" in s[-1]), s[-1])
    compare("Processes", s, "procs", cli("procs"))

    # find by name
    keys("/")
    for ch in "fixture_main":
        keys(ch)
    keys("Enter")
    keys("Enter")
    s = settle(s)
    check("/ finds a process by name, Enter goes in: the breadcrumb names it",
          crumb(s).startswith("Processes > fixture_main"), crumb(s))
    if not crumb(s).endswith(f" {PID}"):
        # another fixture process came first: go to the one asked for
        keys("Left")
        s = settle(s)
        s = go_to(s, "procs", PID, "Processes: the fixture process")
    compare(f"Processes > {PID}: its files", s, "files", cli("-P", PID, "files"))
    s = go_to(s, "files", LIB, "Processes > pid: the library")
    check("Enter on a library: its sections in that process",
          crumb(s).endswith(f"> {base}") and s[1].split()[0] == "SECTION", crumb(s))
    compare(f"Processes > {PID} > {base}: sections", s, "sections",
            cli("-P", PID, "sections", LIB))
    s = go_to(s, "sections", ".data", "sections: .data")
    check("Enter on .data: its symbols", crumb(s).endswith("> .data"), crumb(s))
    compare(f"Processes > {PID} > {base} > .data: symbols", s, "symbols",
            cli("-P", PID, "symbols", LIB, ".data"))
    keys("Enter")
    t = settle()
    check("symbols are the last level: Enter stays", crumb(t) == crumb(s), crumb(t))
    keys("Left")
    s = settle(s)
    check("Left goes out: back to the sections", crumb(s).endswith(f"> {base}"), crumb(s))
    keys("BSpace")
    s = settle(s)
    check("Backspace goes out: back to the files", crumb(s).endswith(f" {PID}"), crumb(s))
    keys("h")
    s = settle(s)
    s = go_to(s, "procs", DATAPID, "Processes: the process with the data file")
    s = go_to(s, "files", DATAFILE, "the data file")
    check("a file that is not ELF has no deeper level, and the status line says why",
          crumb(s).endswith(f" {DATAPID}") and "ELF" in s[-1] and "q quit" not in s[-1],
          f"{crumb(s)} | {s[-1]}")
    keys("h")
    s = settle(s)
    check("h goes out: back to the processes", crumb(s) == "Processes", crumb(s))

    # moving
    order = [r[0] for r in parse_screen(s, "procs")]
    got = []
    for k in ["End", "Home", "Down", "Down", "Up", "k", "j", "PPage", "NPage", "Home"]:
        keys(k)
        time.sleep(0.2)
        got.append(cursor("procs"))
    want = [order[-1], order[0], order[1], order[2], order[1], order[0], order[1], order[0],
            order[-1], order[0]]
    check("End Home Down Down Up k j PgUp PgDn Home move the cursor", got == want,
          f"cursor {got}, want {want}")
    keys("Right")
    s = settle(s)
    check("Right goes in", crumb(s).startswith("Processes > "), crumb(s))
    keys("h")
    s = settle(s)
    keys("l")
    s = settle(s)
    check("l goes in", crumb(s).startswith("Processes > "), crumb(s))
    keys("h")
    s = settle(s)

    # sorting: s moves the sort to the next figure, S turns it round
    keys("s")
    s = settle(s)
    mark = [h for h in s[1].split() if h.endswith("v")]
    sole = [r[1]["SOLE"] for r in parse_screen(s, "procs")]
    csv = {r.split(",")[0]: int(r.split(",")[7]) for r in
           subprocess.run([EXMAP, "-l", CAP, "-c", "procs"], capture_output=True,
                          text=True).stdout.split("\n")[1:] if r and r.split(",")[0].isdigit()}
    order = [csv.get(r[0], -1) for r in parse_screen(s, "procs")]
    check("s: sorted by the next figure (SOLE), largest first",
          mark == ["SOLEv"] and order == sorted(order, reverse=True), f"{mark} {sole}")
    keys("S")
    s = settle(s)
    order = [csv.get(r[0], -1) for r in parse_screen(s, "procs")]
    check("S: the other way round", "SOLE^" in s[1] and order == sorted(order), s[1])

    # the Files tab
    keys("j")
    s = settle(s)
    left_at = cursor("procs")
    keys("Tab")
    s = settle(s)
    check("Tab: the Files tab", crumb(s) == "Files" and s[1].split()[0] == "FILE", crumb(s))
    compare("Files", s, "files", cli("files"))
    s = go_to(s, "files", LIB, "Files: the library")
    check("Files > library: the processes that map it", crumb(s) == f"Files > {base}", crumb(s))
    compare(f"Files > {base}: processes", s, "procs", cli("-F", LIB, "procs"))
    s = go_to(s, "procs", PID, "Files > library: the fixture process")
    compare(f"Files > {base} > {PID}: sections", s, "sections", cli("-P", PID, "sections", LIB))
    s = go_to(s, "sections", ".data", "Files: .data")
    compare(f"Files > {base} > {PID} > .data: symbols", s, "symbols",
            cli("-P", PID, "symbols", LIB, ".data"))
    keys("Tab")
    s = settle(s)
    check(f"Tab again: the Processes tab where it was left, the cursor on {left_at}",
          crumb(s) == "Processes" and left_at is not None and cursor("procs") == left_at,
          f"{crumb(s)}, cursor {cursor('procs')}")
    keys("r")
    s = settle(s)
    check("r on a capture: the status line says it cannot be scanned again",
          "capture" in s[-1], s[-1])
    keys("?")
    s = settle(s)
    check("?: the help screen", any("Tab" in ln for ln in s) and "exmap-mini browse" in s[0],
          s[0])
    keys("x")
    s = settle(s)
    keys("q")
    s = wait_for(lambda s: any(ln.startswith("EXIT") for ln in s))
    check("q: exit 0, the screen given back", "EXIT 0" in s, [ln for ln in s if ln][-2:])


def live():
    """Live: the same lists from a scan of the running processes; r scans
    again and keeps the place."""
    base = os.path.basename(LIB)
    s = start(200, 50, f"{EXMAP} -p {LIVE} browse")
    s = go_to(s, "procs", PID, "live: the fixture process")
    s = go_to(s, "files", LIB, "live: the library")
    compare(f"live: Processes > {PID} > {base}: sections", s, "sections",
            cli("-P", PID, "sections", LIB, live=True))
    check("live: the status line offers r", "r rescan" in s[-1], s[-1])
    keys("j")
    keys("j")
    s = settle(s)
    before = [r[0] for r in parse_screen(s, "sections")]
    was = cursor("sections")
    keys("r")
    time.sleep(1)
    s = settle()
    now = cursor("sections")
    check(f"live: r scans again: the same list, the breadcrumb and the cursor ({was}) kept",
          crumb(s).endswith(f"> {base}") and [r[0] for r in parse_screen(s, "sections")] == before
          and "failed" not in s[-1] and was is not None and now == was,
          f"{crumb(s)} | cursor {was} then {now} | {s[-1]}")
    compare(f"live: after r: sections", s, "sections", cli("-P", PID, "sections", LIB, live=True))
    keys("q")


def filters():
    """browse takes the report's options: -P, -F and -s, as the views do."""
    s = start(200, 50, f"{EXMAP} -l {CAP} -P {PID} browse")
    compare(f"-P {PID} browse: Processes", s, "procs", cli("-P", PID, "procs"))
    check(f"-P {PID} browse: its row alone, the status line says -P",
          [r[0] for r in parse_screen(s, "procs")] == [PID] and "-P" in s[-1], s[-1])
    keys("Tab")
    s = settle(s)
    compare(f"-P {PID} browse: Files, its part of each", s, "files", cli("-P", PID, "files"))
    base = os.path.basename(LIB)
    s = start(200, 50, f"{EXMAP} -l {CAP} -F {LIB} browse")
    compare(f"-F {base} browse: Processes, the part of each", s, "procs",
            cli("-F", LIB, "procs"))
    keys("Tab")
    s = settle(s)
    got = [r[0] for r in parse_screen(s, "files")]
    check(f"-F {base} browse: Files, that file alone", len(got) == 1 and
          match_key(got[0], {LIB: 1}) == LIB and f"-F {LIB}" in s[-1], f"{got} | {s[-1]}")
    s = start(200, 50, f"{EXMAP} -l {CAP} -s sole browse")
    check("-s sole browse: sorted by SOLE", "SOLEv" in s[1], s[1])
    keys("q")


def sizes():
    s = start(40, 12, f"{EXMAP} -l {CAP} browse")
    long = [ln for ln in s if len(ln) > 40]
    nfig = len([h for h in s[1].split() if h.rstrip("v^") in HEADS])
    check("40x12: every line within 40 columns, 12 rows, the status line last",
          not long and len(s) == 12 and "q" in s[-1], f"{len(s)} rows, too long: {long[:2]}")
    check("40x12: fewer figure columns (EFRES first), no bar", 1 <= nfig < 8 and
          s[1].split()[2].startswith("EFRES") and "[" not in s[2], s[1])
    tmux("resize-window", "-t", "b", "-x", "120", "-y", "30")
    s = wait_for(lambda s: len(s) == 30 and s[-1].startswith(" q"))
    n2 = len([h for h in s[1].split() if h.rstrip("v^") in HEADS])
    check("resized to 120x30: redrawn to the new size, more figure columns",
          len(s) == 30 and n2 > nfig and s[-1].startswith(" q"), f"{len(s)} rows, {s[1]}")
    keys("q")


def restore():
    """stty before and after: q, Ctrl-C and SIGTERM all give the modes back."""
    for how in ("q", "C-c", "TERM"):
        before, after = f"{WORK}/stty.before", f"{WORK}/stty.after"
        for f in (before, after):
            if os.path.exists(f):
                os.unlink(f)
        start(80, 24, f"stty -g >{before}; {EXMAP} -l {CAP} browse; rc=$?; "
                      f"stty -g >{after}; (exit $rc)")
        if how == "TERM":
            pids = subprocess.run(["pgrep", "-f", f"^{EXMAP} -l {CAP} browse"],
                                  capture_output=True, text=True).stdout.split()
            for p in pids:
                os.kill(int(p), signal.SIGTERM)
        else:
            keys(how)
        s = wait_for(lambda s: any(ln.startswith("EXIT") for ln in s))
        rc = [ln for ln in s if ln.startswith("EXIT")]
        want = "EXIT 143" if how == "TERM" else "EXIT 0"
        b = open(before).read() if os.path.exists(before) else "none"
        a = open(after).read() if os.path.exists(after) else "none"
        check(f"{how}: the terminal's modes as they were (stty -g), {want}",
              b == a and b != "none" and rc == [want], f"{rc}: before {b.strip()} after {a.strip()}")


def rows_drawn(out):
    """The rows a frame addressed (ESC [ row ; 1 H) and the longest line."""
    rows = [int(r) for r in re.findall(rb"\033\[(\d+);1H", out)]
    text = re.sub(rb"\033\[[0-9;?]*[A-Za-z]|\0337|\0338", b"\n", out)
    return rows, max((len(t) for t in text.split(b"\n")), default=0)


def read_quiet(fd, quiet=0.4, limit=10):
    out = b""
    end = time.time() + limit
    while time.time() < end:
        r, _, _ = select.select([fd], [], [], quiet)
        if not r:
            break
        try:
            out += os.read(fd, 65536)
        except OSError:
            break
    return out


def on_pty(answer):
    """browse on a new pty (0x0, as a serial console): its output."""
    pid, fd = pty.fork()
    if pid == 0:
        os.execv(EXMAP, [EXMAP, "-l", CAP, "browse"])
    out = b""
    end = time.time() + 5
    while b"\033[6n" not in out and time.time() < end:
        r, _, _ = select.select([fd], [], [], 0.2)
        if r:
            out += os.read(fd, 4096)
    asked = b"\033[6n" in out
    if answer:
        os.write(fd, answer)
    first = read_quiet(fd, quiet=0.8)
    os.write(fd, b"j")
    one = read_quiet(fd)
    os.write(fd, b"q")
    read_quiet(fd)
    _, st = os.waitpid(pid, 0)
    os.close(fd)
    return asked, first, one, os.waitstatus_to_exitcode(st)


def serial():
    asked, first, one, rc = on_pty(None)
    rows, width = rows_drawn(first)
    check("a 0x0 pty with no answer: the terminal asked (cursor position), then 80x24",
          asked and rows and max(rows) == 24 and width <= 80 and rc == 0,
          f"asked {asked}, rows up to {max(rows) if rows else None}, width {width}, exit {rc}")
    asked, first, one, rc = on_pty(b"\033[30;100R")
    rows, width = rows_drawn(first)
    check("a 0x0 pty that answers 30;100: 100x30",
          asked and rows and max(rows) == 30 and 80 < width <= 100 and rc == 0,
          f"rows up to {max(rows) if rows else None}, width {width}, exit {rc}")
    moved = rows_drawn(one)[0]
    check(f"one key press (j) redraws two lines and the header: {len(one)} bytes, "
          f"the first screen {len(first)}",
          0 < len(one) < len(first) // 4 and len(moved) <= 4, f"rows {moved}")
    r = subprocess.run([EXMAP, "-l", CAP, "browse"], stdin=subprocess.DEVNULL,
                       capture_output=True, text=True)
    check("not a terminal: exit 2, one line saying so",
          r.returncode == 2 and len(r.stderr.strip().split("\n")) == 1 and
          "terminal" in r.stderr, f"exit {r.returncode}: {r.stderr}")


def main():
    try:
        walk()
        if LIVE:
            live()
        filters()
        sizes()
        restore()
    finally:
        tmux("kill-server")
    serial()


if __name__ == "__main__":
    main()
