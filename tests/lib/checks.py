"""The Python checkers' side of tests/lib/lib.sh: one "ok   WHAT" or "FAIL WHAT:
why" line per check on stdout, which the shell suite counts (tally)."""


def ok(what):
    print(f"ok   {what}", flush=True)


def fail(what, why):
    print(f"FAIL {what}: {why}", flush=True)


def check(what, cond, why=""):
    ok(what) if cond else fail(what, why)
