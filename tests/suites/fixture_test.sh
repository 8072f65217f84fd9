#!/bin/sh
# The sections and symbols views against a fixture whose pages we know.
# NPROC processes, each started on its own (none forked from another), load
# build/fixture/libfixture.so and touch its ten page-aligned arrays in known
# ways, then wait. For each of them alone (-p PID) and for all together:
#  - every symbol's eight figures (also as symbols FILE .data and .bss) and
#    every section's (.data and .bss among them) against
#    tests/lib/fixture_truth.py, which works them out itself from
#    /proc/PID/pagemap and the library's headers; the arrays' writable
#    against the bytes the driver wrote;
#  - the sections plus [holes] against the library's figures in the maps
#    view: its mappings and the anonymous mapping that holds the rest of .bss;
#  - with -P PID, one process's part of the sections and of .data's symbols,
#    the pages shared among all of them, live and from a capture.
# Run as root after `make all fixture`. Environment: EXMAP (default
# build/exmap-mini), FIXTURE (build/fixture). Last line: N passed, N failed.
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib/lib.sh
EXMAP=${EXMAP:-build/exmap-mini}
FIXTURE=${FIXTURE:-build/fixture}
NPROC=3
started=
T=

cleanup() {
	for p in $started; do
		kill -KILL "$p" 2>/dev/null
	done
	for p in $started; do
		wait "$p" 2>/dev/null
	done
	started=
	[ -n "$T" ] && rm -rf "$T"
	T=
}

# wrap_up: the one closing line, after the processes are gone
wrap_up() {
	cleanup
	finish
}
trap cleanup EXIT
trap 'no "interrupted"; wrap_up' INT TERM HUP

# run OUT ARGS...: exmap-mini ARGS into OUT; it must succeed (exit 0)
run() {
	out=$1
	shift
	"$EXMAP" "$@" >"$out" 2>"$T/stderr"
	rc=$?
	if [ $rc -eq 0 ]; then
		ok "exmap-mini $*"
	else
		no "exmap-mini $*" "exit $rc: $(head -c 500 "$T/stderr")"
	fi
}

# truth MODE ARGS...: fixture_truth.py's checks, one ok or FAIL line each
truth() {
	run_checks "fixture_truth.py $1" python3 tests/lib/fixture_truth.py "$@"
}

# views TOKEN...: every view for this set of processes (TOKEN is PID:PROBE)
views() {
	pids=
	for t in "$@"; do
		pids=${pids:+$pids,}${t%%:*}
	done
	run "$T/symbols.csv" -c -p "$pids" symbols "$LIB"
	truth symbols "$LIB" "$T/symbols.csv" "$@"
	# symbols FILE SECTION: that section's rows alone, the same figures
	for sec in .data .bss; do
		run "$T/symbols$sec.csv" -c -p "$pids" symbols "$LIB" $sec
		truth symbols=$sec "$LIB" "$T/symbols$sec.csv" "$@"
	done
	run "$T/sections.csv" -c -p "$pids" sections "$LIB"
	truth sections "$LIB" "$T/sections.csv" "$@"
	for t in "$@"; do
		run "$T/maps.${t%%:*}.csv" -c -p "$pids" maps "${t%%:*}"
	done
	truth sum "$LIB" "$T/sections.csv" "$T" "$@"
}

if [ "$(id -u)" -ne 0 ]; then
	no "fixture test" "needs root (pagemap hides page frames from others)"
	wrap_up
fi
for f in "$EXMAP" "$FIXTURE/fixture_main" "$FIXTURE/libfixture.so"; do
	if [ ! -f "$f" ]; then
		no "fixture test" "no $f: run make all fixture first"
		wrap_up
	fi
done
if ! T=$(mktemp -d /tmp/exmap-fixture.XXXXXX); then
	T=
	no "fixture test" "mktemp failed"
	wrap_up
fi
# The path as the kernel shows it in maps: no symbolic links.
LIB=$(cd "$FIXTURE" && pwd -P)/libfixture.so

truth layout "$LIB"

i=1
while [ $i -le $NPROC ]; do
	"$FIXTURE/fixture_main" >"$T/ready.$i" 2>"$T/ready.$i.err" &
	started="$started $!"
	i=$((i + 1))
done
# Each says "ready PID PROBE" once it has touched its arrays.
tokens=
i=1
for p in $started; do
	if ! wait_ready "$T/ready.$i" "$p"; then
		no "fixture_main $i started" "no ready line: $(cat "$T/ready.$i.err")"
		wrap_up
	fi
	# shellcheck disable=SC2086 # split into its words
	set -- $READY
	if [ "$1" != "$p" ]; then
		no "fixture_main $i started" "says it is pid $1, was started as $p"
		wrap_up
	fi
	tokens="$tokens $1:$2"
	i=$((i + 1))
done
ok "$NPROC fixture processes ready:$tokens"

for t in $tokens; do
	views "$t"
done
# shellcheck disable=SC2086 # one argument per process
views $tokens

# -P PID: one process's part, the pages still shared among all of them
# (gexmap's third and fourth lists), live and from a capture of the same
# processes alike
pids=
for t in $tokens; do
	pids=${pids:+$pids,}${t%%:*}
done
run "$T/all.cap" -p "$pids" dump
for t in $tokens; do
	p=${t%%:*}
	for src in live capture; do
		if [ $src = live ]; then
			set -- -p "$pids"
		else
			set -- -l "$T/all.cap"
		fi
		run "$T/part.sections.csv" -c "$@" -P "$p" sections "$LIB"
		# shellcheck disable=SC2086 # one argument per process
		truth "sections@$p" "$LIB" "$T/part.sections.csv" $tokens
		run "$T/part.symbols.csv" -c "$@" -P "$p" symbols "$LIB" .data
		# shellcheck disable=SC2086
		truth "symbols=.data@$p" "$LIB" "$T/part.symbols.csv" $tokens
	done
done

wrap_up
