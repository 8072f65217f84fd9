#!/bin/sh
# The trend on a busy machine: a leak among processes that come and go.
# In a PID namespace of its own (unshare: its watch sees its processes
# alone), while one more watch samples the whole machine beside it (other
# sessions' compilers and guests too), TREND_SAMPLES (60) samples a second:
#   leaker    a copy of leakwork, its heap grown 64 KiB/s (225 MiB an hour);
#             its binary has its name, as almost every program's has
#   churn     busywork: a child every 1 to 2 s, each with a command line of
#             its own, writing 32 to 128 MiB over 1 to 4 s and exiting
#   steady    two leakworks of 8 MiB and 2 MiB, written once
# Checked (tests/lib/busy_check.py): the leak is the first process row of
# the namespace's trend, text and CSV, within 10% of the rate built and of
# the rate its Pss (smaps_rollup at the ends) shows; no churn row has a
# slope or a mark, each is counted brief, its peak and life within what
# its command line built; the brief summary is the CSV's; on the whole
# machine the leak has its slope within 10%, no brief row above it, no
# churn row judged. --budget leaker=SIZE/h (the processes, though a mapped
# file has that basename) exits 3 over and 0 under; rounding that makes a
# slope and its budget print alike prints their bytes; a name that matches
# nothing, and MB, exit 2 in one line. The page (html) in chromium: its
# growers are the text's first rows; -P leaker's page has its [heap].
# Run as root. Environment: EXMAP, LEAKWORK, BUSYWORK, TREND_SAMPLES, HTML_OUT.
# Needs: make all trend-deps. Last line: N passed, N failed.
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib/lib.sh
X=$(realpath "${EXMAP:-build/exmap-mini}")
LW=$(realpath "${LEAKWORK:-build/host/leakwork}")
BW=$(realpath "${BUSYWORK:-build/host/busywork}")
N=${TREND_SAMPLES:-60}
OUT=${HTML_OUT:-build/html}/busy

# In the namespace: the workloads, the Pss at the ends, the watch.
if [ "${1:-}" = --inner ]; then
	T=$2
	pss() { echo "$(($(rollup "$1" Pss))) $(date +%s.%N)"; }
	start_workload "$T/heap.out" "$T/leaker" -r 64 heap || exit 1
	HEAP=$WL_PID
	start_workload "$T/steady8.out" "$LW" -s 8192 steady || exit 1
	start_workload "$T/steady2.out" "$LW" -s 2048 steady || exit 1
	start_workload "$T/busy.out" "$BW" || exit 1
	pss $HEAP >"$T/heap.pss0"
	: >"$T/ready"
	nice -n 5 "$X" watch 1 "$N" >"$T/ns.log" 2>"$T/ns.err"
	echo $? >"$T/ns.rc"
	pss $HEAP >"$T/heap.pss1"
	# on, until the whole machine's watch (slower: every process) is done too
	n=6000
	while [ ! -e "$T/outer.done" ] && [ $n -gt 0 ]; do
		sleep 0.1
		n=$((n - 1))
	done
	kill -TERM $(sed 's/^ready //' "$T"/*.out) 2>/dev/null
	wait
	exit 0
fi

T=$(mktemp -d /tmp/xm-busy.XXXXXX)
PIDS=
cleanup() {
	for p in $PIDS; do
		kill -TERM "$p" 2>/dev/null && wait "$p" 2>/dev/null
	done
	PIDS=
	rm -rf "$T"
}
trap cleanup EXIT
trap 'no "interrupted"; cleanup; finish' INT TERM HUP

for f in "$X" "$LW" "$BW"; do
	[ -x "$f" ] || { no "$f is not built (make all trend-deps)"; finish; }
done
cp "$LW" "$T/leaker" || { no "the leaker's copy"; finish; }

EXMAP=$X LEAKWORK=$LW BUSYWORK=$BW TREND_SAMPLES=$N \
	unshare --pid --fork --mount-proc sh "$0" --inner "$T" \
	>"$T/inner.out" 2>&1 &
INNER=$!
PIDS="$PIDS $INNER"
n=600
while [ ! -e "$T/ready" ] && [ $n -gt 0 ] && kill -0 $INNER 2>/dev/null; do
	sleep 0.1
	n=$((n - 1))
done
[ -e "$T/ready" ] || { no "the namespace's workloads ready" "$(cat "$T/inner.out" "$T"/*.err 2>/dev/null)"; finish; }
ok "the namespace's workloads ready: leaker, two steady, the churn"
nice -n 5 "$X" watch 1 "$N" >"$T/host.log" 2>"$T/host.err"
check_cmd "watch 1 $N of the whole machine: exit 0 or 1" within 0 $? 1
: >"$T/outer.done"
wait $INNER
PIDS=
check_cmd "watch 1 $N in the namespace: exit 0 or 1" within 0 "$(cat "$T/ns.rc" 2>/dev/null)" 1

"$X" -l "$T/ns.log" -c trend >"$T/ns.csv" 2>"$T/ns-trend.err"
check_cmd "-l LOG -c trend: exit 0" within 0 $? 0
"$X" -l "$T/ns.log" trend >"$T/ns.txt" 2>/dev/null
"$X" -l "$T/host.log" -c trend >"$T/host.csv" 2>/dev/null
run_checks "busy checks" python3 tests/lib/busy_check.py "$T" "$N"

# Budgets by the process's plain name, though its binary has that basename.
slope=$(awk -F, '$1 == "process" && $2 == "leaker" { print $9; exit }' "$T/ns.csv")
is_int "$slope" || slope=0
for b in "leaker=100M/h 3" "leaker=300M/h 0" "leaker=300MiB/h 0" "proc:leaker=100M/h 3" \
	"file:leaker=1M/h 0" "leaker=1.5M 3" "leaker=$((slope - 1))/h 3" "leaker=$slope/h 0"; do
	set -- $b
	"$X" -l "$T/ns.log" --budget "$1" trend >"$T/budget.out" 2>"$T/budget.err"
	check_eq "--budget $1 trend: exit $2" "$?" "$2" \
		"exit $?: $(grep '^budget' "$T/budget.out") $(cat "$T/budget.err")"
done
"$X" -l "$T/ns.log" --budget "leaker=$((slope - 1))/h" trend 2>/dev/null | grep '^budget' >"$T/budget.line"
check_cmd "a slope and a budget 1 byte apart print in bytes, not alike" \
	has "^budget leaker: slope +${slope}B/h of $((slope - 1))B/h: EXCEEDED$" "$T/budget.line"
for b in "nosuch=1M/h|no process or mapped file of that name" "leaker=1MB/h|a decimal unit: K, M, G are binary"; do
	"$X" -l "$T/ns.log" --budget "${b%%|*}" trend >/dev/null 2>"$T/budget.err"
	check_eq "--budget ${b%%|*}: exit 2, one line saying ${b#*|}" \
		"$? $(wc -l <"$T/budget.err") $(grep -c "${b#*|}" "$T/budget.err")" "2 1 1" "$(cat "$T/budget.err")"
done

# The pages: the growers are the text's first rows; -P's parts.
mkdir -p "$OUT"
"$X" -l "$T/ns.log" html >"$OUT/trend.html" 2>"$T/html.err"
check_cmd "-l LOG html: exit 0" within 0 $? 0
run_checks "the busy log's page" python3 tests/lib/html_check.py trend "$X" "$OUT" "$T/ns.log" \
	"$T/ns.csv" "$OUT/trend.html"
"$X" -l "$T/ns.log" -P leaker html >"$OUT/parts.html" 2>"$T/html.err"
check_cmd "-l LOG -P leaker html: exit 0" within 0 $? 0
check_cmd "-P leaker's page charts its parts, [heap] among them" \
	has '^D.series = \[\["part","\[heap\]"' "$OUT/parts.html"
finish
