#!/bin/sh
# Damaged captures. Two real captures of this machine (the test workload by
# -p, and every process but the other suites' under tests/run) are damaged
# in thousands of seeded ways: lines lost, repeated, swapped; characters
# changed in tags, checksums, payload, begin and end lines; cuts; kernel
# messages between and inside lines; CRLF and console prefixes; junk, NULs,
# lines over 16 KiB; a chunk twice; lines of a newer version; several
# captures in one log; payload changed with its checksum redone; made
# headers. Each is loaded by the sanitizer build with -l for procs, -c procs,
# -c files, maps PID and -c ram; every fourth for folded too, every
# sixteenth for html. Every run: no sanitizer report, no signal, exit 0,
# 1, 2 or 4, an "exmap-mini: " line when not 0. Exit 0 or 1: the report is
# byte for byte the clean capture's. Exit 4: nothing made up (each process
# row and mapping is the clean capture's, less the map counts' column where
# chunk 1, which holds them, is named lost; a file's figures at most its clean
# ones, each folded line a clean one or a file's clean lines summed, the
# page whole), and a lost line names its chunk (a chunk's tag damaged into a
# watch line's, "XM w ", too: the file is still a capture, html's too). One
# line per group of damage.
#
# The damage is tests/lib/capture_corrupt.py's, the verdicts
# tests/lib/capture_verdict.py's.
# Run as root. Build first: make capfuzz-deps. Environment: EXMAP (the build
# that makes the captures), CAPFUZZ_BIN (the sanitizer build), CAPFUZZ_SERVE
# (its objects as sanserve, tests/unit/sanserve.c: each run a fork of one
# started build, not an exec; empty: exec CAPFUZZ_BIN each run), WORKLOAD,
# CAPFUZZ_DIR (build/capfuzz: the captures, and each failing group's first
# input as fail-N, next to fail-N.clean, the capture it was made from),
# CAPFUZZ_SEED (1), CAPFUZZ_JOBS (the CPUs), CAPFUZZ_VERBOSE (every failure,
# and each group's time). Last line: N passed, M failed.
set -u
lib=$(cd "$(dirname "$0")/../lib" && pwd)
. "$lib/lib.sh"
EXMAP=${EXMAP:-build/exmap-mini}
CAPFUZZ_BIN=${CAPFUZZ_BIN:-build/capfuzz/exmap-mini-san}
WORKLOAD=${WORKLOAD:-build/tools/workload}
CAPFUZZ_DIR=${CAPFUZZ_DIR:-build/capfuzz}
CAPFUZZ_SERVE=${CAPFUZZ_SERVE-$CAPFUZZ_DIR/sanserve}
export CAPFUZZ_SERVE
CAPFUZZ_SEED=${CAPFUZZ_SEED:-1}
CAPFUZZ_JOBS=${CAPFUZZ_JOBS:-$(nproc)}
LC_ALL=C
export LC_ALL
WL_PID=
T=

cleanup() {
	stop_workload
	[ -n "$T" ] && rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 2' INT TERM

for f in "$EXMAP" "$CAPFUZZ_BIN" ${CAPFUZZ_SERVE:+"$CAPFUZZ_SERVE"} "$WORKLOAD"; do
	[ -x "$f" ] || { no "$f is built" "make capfuzz-deps"; finish; }
done
[ "$(id -u)" -eq 0 ] || { no "runs as root" "captures read pagemap"; finish; }
command -v python3 >/dev/null || { no "python3 is installed"; finish; }
mkdir -p "$CAPFUZZ_DIR" && rm -f "$CAPFUZZ_DIR"/fail-*
T=$(mktemp -d /tmp/capfuzz.XXXXXX)
chmod 755 "$T"

# --- the captures -------------------------------------------------------------
# Its file in a directory of 1.5 KB, named in its command line too: the
# lines naming them go on in "+ " lines, which every damage then meets.
D=$T
for c in a b c d e f; do
	D=$D/$(printf '%0250d' 0 | tr 0 "$c")
done
mkdir -p "$D"
if ! start_workload "$T/wl.out" "$WORKLOAD" -n 3 -f 256 -c 256 -p 128 -z 64 -d "$D"; then
	no "the workload starts" "$(cat "$T/wl.out.err")"
	finish
fi
# shellcheck disable=SC2086
set -- $READY
PIDS=$(echo "$*" | tr ' ' ,)
CHILD=$2
"$EXMAP" -p "$PIDS" dump >"$CAPFUZZ_DIR/work.cap" 2>"$T/err"; rc=$?
if [ $rc -eq 0 ] && grep -q "^XM end " "$CAPFUZZ_DIR/work.cap"; then
	ok "capture of the workload ($PIDS): $(wc -l <"$CAPFUZZ_DIR/work.cap") lines, exit 0"
	check_cmd "the workload's capture has continued (\"+ \") lines: 20 at least" \
		within 20 "$(grep -c '^XM [0-9]* + ' "$CAPFUZZ_DIR/work.cap")" ""
else
	no "capture of the workload" "exit $rc: $(cat "$T/err")"
	finish
fi
# Every process of the machine, but those of the suites tests/run runs beside
# this one (TEST_RUN_PID: its children's trees, this suite's but): their
# guests' RAM is thousands of lines (a capture of 831 lines alone, 3,343
# beside two guests), which each load below would read, and come and go
# with the schedule. Not under tests/run: every process (no -p). A listed
# process that ends before the scan starts is "no such process": listed again.
all_pids() {
	python3 - "$1" "$$" >"$T/pids" <<'PY'
import os, sys
run, me = int(sys.argv[1]), int(sys.argv[2])
ppid = {}
for d in os.listdir("/proc"):
    if d.isdigit() and int(d) != os.getpid():
        try:
            with open("/proc/%s/stat" % d) as f:
                s = f.read()
        except OSError:
            continue
        ppid[int(d)] = int(s[s.rindex(")") + 2:].split()[1])
def under_run(p):
    """The child of tests/run whose tree holds p; None: not under it."""
    for _ in range(len(ppid) + 1):
        if p not in ppid:
            return None
        if ppid[p] == run:
            return p
        p = ppid[p]
    return None
mine = under_run(me)
print(",".join(str(p) for p in sorted(ppid) if under_run(p) in (None, mine)))
PY
}
tries=0
while :; do
	if [ -n "${TEST_RUN_PID:-}" ] && all_pids "$TEST_RUN_PID"; then
		set -- -p "$(cat "$T/pids")"
		what="every process but the other suites' ($(tr , '\n' <"$T/pids" | wc -l) processes)"
	else
		set --
		what="every process"
	fi
	"$EXMAP" "$@" dump >"$CAPFUZZ_DIR/all.cap" 2>"$T/err"; rc=$?
	tries=$((tries + 1))
	[ $rc -eq 2 ] && [ $# -gt 0 ] && [ $tries -lt 20 ] && grep -q "no such process" "$T/err" || break
done
if { [ $rc -eq 0 ] || [ $rc -eq 1 ]; } && grep -q "^XM end " "$CAPFUZZ_DIR/all.cap"; then
	ok "capture of $what: $(wc -l <"$CAPFUZZ_DIR/all.cap") lines, exit $rc"
else
	no "capture of $what" "exit $rc after $tries tries: $(head -3 "$T/err")"
	finish
fi
stop_workload

# --- damage them, load them -----------------------------------------------------
python3 "$lib/capture_corrupt.py" "$CAPFUZZ_BIN" "$EXMAP" "$CAPFUZZ_DIR" "$T" "$CAPFUZZ_SEED" \
	"$CAPFUZZ_JOBS" "$CHILD" >"$T/py.out" 2>&1
rc=$?
tally "$T/py.out"
[ $rc -eq 0 ] || no "the mutation driver ran to its end" "exit $rc"
finish
