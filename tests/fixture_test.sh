#!/bin/sh
# The sections and symbols views against a fixture whose pages we know.
# NPROC processes, each started on its own (none forked from another), load
# build/fixture/libfixture.so and touch its ten page-aligned arrays in known
# ways, then wait. For each of them alone (-p PID) and for all together:
#  - every symbol's eight figures (also as symbols FILE .data and .bss) and
#    every section's (.data and .bss among them) against
#    tests/fixture_truth.py, which works them out itself from
#    /proc/PID/pagemap and the library's headers; the arrays' writable
#    against the bytes the driver wrote;
#  - the sections plus [holes] against the library's figures in the maps
#    view: its mappings and the anonymous mapping that holds the rest of .bss.
# Run as root after `make all fixture`. Environment: EXMAP (default
# build/exmap-mini), FIXTURE (build/fixture). Last line: N passed, N failed.
set -u
cd "$(dirname "$0")/.." || exit 2
EXMAP=${EXMAP:-build/exmap-mini}
FIXTURE=${FIXTURE:-build/fixture}
NPROC=3
pass=0
fail=0
started=
T=

ok() { pass=$((pass + 1)); echo "ok   $1"; }
no() { fail=$((fail + 1)); echo "FAIL $1${2:+: $2}"; }

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

# The one closing line, after the processes are gone.
finish() {
	cleanup
	trap - EXIT
	echo "$pass passed, $fail failed"
	[ "$fail" -eq 0 ] && exit 0
	exit 1
}
trap cleanup EXIT
trap 'no "interrupted"; finish' INT TERM HUP

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

# truth MODE ARGS...: fixture_truth.py prints one ok or FAIL line per check
truth() {
	python3 tests/fixture_truth.py "$@" >"$T/truth" 2>&1
	rc=$?
	cat "$T/truth"
	n=$(grep -c '^ok ' "$T/truth")
	pass=$((pass + n))
	n=$(grep -c '^FAIL ' "$T/truth")
	fail=$((fail + n))
	[ $rc -ne 0 ] && [ "$n" -eq 0 ] && no "fixture_truth.py $1" "exit $rc"
}

# check TOKEN...: every view for this set of processes (TOKEN is PID:PROBE)
check() {
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
	finish
fi
for f in "$EXMAP" "$FIXTURE/fixture_main" "$FIXTURE/libfixture.so"; do
	if [ ! -f "$f" ]; then
		no "fixture test" "no $f: run make all fixture first"
		finish
	fi
done
if ! T=$(mktemp -d /tmp/exmap-fixture.XXXXXX); then
	T=
	no "fixture test" "mktemp failed"
	finish
fi
# The path as the kernel shows it in maps: no symbolic links.
LIB=$(cd "$FIXTURE" && pwd -P)/libfixture.so

truth layout "$LIB"

i=1
while [ $i -le $NPROC ]; do
	"$FIXTURE/fixture_main" >"$T/ready.$i" 2>"$T/err.$i" &
	started="$started $!"
	i=$((i + 1))
done
# Each says "ready PID PROBE" once it has touched its arrays.
tokens=
i=1
for p in $started; do
	tries=0
	until grep -q '^ready ' "$T/ready.$i"; do
		tries=$((tries + 1))
		if [ $tries -gt 200 ] || ! kill -0 "$p" 2>/dev/null; then
			no "fixture_main $i started" "no ready line: $(cat "$T/err.$i")"
			finish
		fi
		sleep 0.05
	done
	# shellcheck disable=SC2046 # split into its words
	set -- $(cat "$T/ready.$i")
	if [ "$2" != "$p" ]; then
		no "fixture_main $i started" "says it is pid $2, was started as $p"
		finish
	fi
	tokens="$tokens $2:$3"
	i=$((i + 1))
done
ok "$NPROC fixture processes ready:$tokens"

for t in $tokens; do
	check "$t"
done
# shellcheck disable=SC2086 # one argument per process
check $tokens

finish
