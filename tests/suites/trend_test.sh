#!/bin/sh
# The trend of a watch log, against workloads whose growth the test built
# (tests/work/leakwork.c, leakfam.c), all running while one watch samples
# them every second, niced, for TREND_SAMPLES (90) samples, in a PID
# namespace of their own (unshare: another run of this suite on the machine,
# from another checkout, stays out of the log):
#   heap    the heap grows 64 KiB/s
#   file    a tmpfs file (mapped shared) grows 48 KiB/s
#   fam     three forked children dirty libxmleak.so's .bss 16 KiB/s each
#   saw     1 MiB/s, given back every 2.5 s: a sawtooth with a flat floor
#   steady  8 MiB written once
#   again   steady (2 MiB), stopped half way and started again: a new pid
#   reused  steady (1 MiB), stopped a third of the way; then another program
#           (xmreuse: 6 MiB) started with its pid (ns_last_pid)
# Checked (tests/lib/trend_check.py): each slope within 10% of the rate
# built, and of the rate the kernel's Pss (smaps_rollup, read at the ends)
# shows; the growers flagged, no steady one; a restart one row, a reused pid
# two rows that never mix; -P's parts ([heap] against the library's .bss);
# -w; --budget NAME=SIZE/h under and over (exit 0, 3); the text in 80
# columns; the page (html) of the log in chromium: each series drawn to
# scale, the ram view's parts stacked.
# Meanwhile, in the background, the emulated armhf board (Debian bookworm's
# armmp kernel, qemu TCG, as capture_test.sh boots it) runs
# tests/guest/trend_guest.sh: its leakwork's heap grows 16 KiB/s while
# "watch 2 60" writes to the serial console, kernel messages cut in; the
# host's trend of that console log names it (its slope within 10% of the
# rate built and of its Pss's), and nothing else grows.
# Run as root. Environment: EXMAP, LEAKWORK, LEAKFAM, TREND_SAMPLES, HTML_OUT.
# Needs: make all trend-deps, make ARCH=arm all build/arm/tools/leakwork.
# Last line: N passed, N failed.
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib/lib.sh
X=$(realpath "${EXMAP:-build/exmap-mini}")
LW=$(realpath "${LEAKWORK:-build/host/leakwork}")
LF=$(realpath "${LEAKFAM:-build/trend/leakfam}")
N=${TREND_SAMPLES:-90}
OUT=${HTML_OUT:-build/html}
# In the namespace: the workloads, their Pss at the ends, the watch.
if [ "${1:-}" = --inner ]; then
	T=$2
	PIDS=

	# start NAME CMD...: a workload in the background, its pids in $T/NAME.pids
	start() {
		_n=$1
		shift
		start_workload "$T/$_n" "$@" || { no "$_n ready" "$(cat "$T/$_n.err")"; return 1; }
		PIDS="$PIDS $WL_PID"
		echo "$READY" >"$T/$_n.pids"
		eval "PID_$_n=$WL_PID"
	}
	# stop NAME: that workload ended
	stop() {
		eval "_p=\$PID_$1"
		kill -TERM "$_p" 2>/dev/null && wait "$_p" 2>/dev/null
		PIDS=$(echo "$PIDS" | tr ' ' '\n' | grep -vx "$_p" | tr '\n' ' ')
	}
	# pss NAME: the workload's processes' Pss, summed, in bytes; and the time
	pss() {
		_s=0
		for _p in $(cat "$T/$1.pids"); do
			_k=$(awk '$1 == "Pss:" { print $2 }' "/proc/$_p/smaps_rollup" 2>/dev/null)
			_s=$((_s + ${_k:-0} * 1024))
		done
		echo "$_s $(date +%s.%N)"
	}

	start heap "$LW" -r 64 heap &&
		start file "$LW" -r 48 -d /dev/shm file &&
		start fam "$LF" -n 3 -r 16 &&
		start saw "$LW" -r 1024 -t 2500 -s 4096 saw &&
		start steady "$LW" -s 8192 steady &&
		start again "$LW" -s 2048 steady &&
		start reused "$LW" -s 1024 steady || finish
	ok "workloads ready: $(cat "$T"/*.pids | tr '\n' ' ')"
	for w in heap file fam; do pss $w >"$T/$w.pss0"; done

	nice -n 5 "$X" watch 1 "$N" >"$T/watch.log" 2>"$T/watch.err" &
	WATCH=$!
	PIDS="$PIDS $WATCH"
	# The outer shell keeps the time: a sleep here would be a process of
	# the namespace, mapping libc, there for part of the log and then not,
	# so leakfam's share of libc would rise when it ended. read is built in.
	exec 3<"$T/steer"
	: >"$T/watching"
	read -r step <&3
	# the reused pid: the second program takes the first one's pid
	RP=$PID_reused
	stop reused
	tries=0
	while [ $tries -lt 50 ]; do
		echo $((RP - 1)) >/proc/sys/kernel/ns_last_pid
		start reuser "$T/xmreuse" -s 6144 steady || break
		[ "$PID_reuser" = "$RP" ] && break
		stop reuser
		tries=$((tries + 1))
	done
	check_eq "another program started with the stopped one's pid ($RP)" "${PID_reuser:-}" "$RP"
	read -r step <&3
	stop again
	start again "$LW" -s 2048 steady
	wait "$WATCH"
	rc=$?
	PIDS=$(echo "$PIDS" | tr ' ' '\n' | grep -vx "$WATCH" | tr '\n' ' ')
	check_cmd "watch 1 $N ran to its count (exit 0, or 1 for an unreadable process)" within 0 $rc 1
	for w in heap file fam; do pss $w >"$T/$w.pss1"; done
	exit 0
fi

T=$(mktemp -d /tmp/xm-trend.XXXXXX)
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

for f in "$X" "$LW" "$LF" build/arm/exmap-mini build/arm/tools/leakwork; do
	[ -x "$f" ] || { no "$f is not built (make all trend-deps; make ARCH=arm all build/arm/tools/leakwork)"; finish; }
done

# The board, booted in the background while the host's watch runs.
BW=build/qemu/trend BRATE=16 BIVL=2 BCOUNT=60
board() {
	rm -rf "$BW" && mkdir -p "$BW/test" || return 1
	toolchain/kernel fetch bookworm armhf >"$BW/fetch.log" 2>&1 || return 1
	eval "$(toolchain/kernel path bookworm armhf)"
	cp build/arm/exmap-mini build/arm/tools/leakwork "$BW/test/" &&
		cp tests/guest/trend_guest.sh "$BW/test/run.sh" || return 1
	printf 'RATE=%s INTERVAL=%s COUNT=%s\n' $BRATE $BIVL $BCOUNT >"$BW/test/params"
	tests/qemu/initramfs armhf "$BW/initramfs.cpio.gz" "$BW"/test/* >"$BW/initramfs.log" 2>&1 ||
		return 1
	QEMU_APPEND="test.loglevel=7 printk.devkmsg=on" \
		tests/qemu/boot armhf "$image" "$BW/initramfs.cpio.gz" "$BW/console.log" 600
}
mkdir -p build/qemu
board >build/qemu/trend-board.log 2>&1 &
BOARD=$!
PIDS="$PIDS $BOARD"
cp "$LW" "$T/xmreuse" || { no "the second program"; finish; }
# The workloads and the watch in a PID namespace of their own, so that
# another run of this suite on the machine (another checkout's) is not in
# the log: its checks' lines come back in inner.out.
mkfifo "$T/steer" || { no "a fifo to steer the namespace's shell"; finish; }
EXMAP=$X LEAKWORK=$LW LEAKFAM=$LF TREND_SAMPLES=$N \
	unshare --pid --fork --mount-proc sh "$0" --inner "$T" >"$T/inner.out" 2>"$T/inner.err" &
INNER=$!
PIDS="$PIDS $INNER"
exec 4<>"$T/steer"	# read and write: never blocks, should the namespace's shell have failed
n=0
until [ -e "$T/watching" ] || [ $n -ge 1200 ] || ! kill -0 $INNER 2>/dev/null; do
	sleep 0.1
	n=$((n + 1))
done
sleep $((N / 3))
echo reuse >&4
sleep $((N / 2 - N / 3))
echo again >&4
exec 4>&-
wait $INNER
PIDS=$(echo "$PIDS" | tr ' ' '\n' | grep -vx "$INNER" | tr '\n' ' ')
tally "$T/inner.out"
[ -s "$T/watch.log" ] || { no "the namespace's watch log" "$(tail -n 3 "$T/inner.err")"; finish; }
PID_heap=$(cut -d' ' -f1 "$T/heap.pids")

"$X" -l "$T/watch.log" -c trend >"$T/trend.csv" 2>"$T/trend.err"
check_cmd "-l LOG -c trend: exit 0 or 1" within 0 $? 1
"$X" -l "$T/watch.log" trend >"$T/trend.txt" 2>/dev/null
"$X" -l "$T/watch.log" -w 30s -c trend >"$T/trend-w.csv" 2>/dev/null
"$X" -l "$T/watch.log" -P "$PID_heap" -c trend >"$T/parts-heap.csv" 2>/dev/null
"$X" -l "$T/watch.log" -P leakfam -c trend >"$T/parts-fam.csv" 2>/dev/null
# this test's cgroup (its workloads'): the memory controller's line, else 0::
cg=$(awk -F: '("," $2 ",") ~ /,memory,/ { m = $3 } $1 == "0" { z = $3 } END { print m != "" ? m : z }' \
	/proc/self/cgroup)
run_checks "trend checks" env TREND_CGROUP="$cg" python3 tests/lib/trend_check.py "$T" "$N"

# budgets on the slope: libxmleak.so grows 48 KiB/s, 169 MiB an hour
for b in "libxmleak.so=150M/h 3" "libxmleak.so=190M/h 0" "proc:leakfam=150M/h 3" \
	"proc:leakfam=190M/h 0"; do
	set -- $b
	"$X" -l "$T/watch.log" --budget "$1" trend >"$T/budget.out" 2>"$T/budget.err"
	check_eq "--budget $1: exit $2" "$?" "$2" "exit $?: $(tail -n 3 "$T/budget.out" "$T/budget.err" | tr '\n' ' ')"
done
"$X" -l "$T/watch.log" --budget libxmleak.so=190M/h procs >/dev/null 2>"$T/budget.err"
check_eq "--budget NAME=SIZE/h on a capture's view: exit 2, one line" "$? $(wc -l <"$T/budget.err")" "2 1" \
	"$(cat "$T/budget.err")"

# the page
mkdir -p "$OUT"
"$X" -l "$T/watch.log" html >"$OUT/trend.html" 2>"$T/html.err"
check_cmd "-l LOG html on a watch log: exit 0 or 1" within 0 $? 1
run_checks "trend page" python3 tests/lib/html_check.py trend "$X" "$OUT" "$T/watch.log" \
	"$T/trend.csv" "$OUT/trend.html"

# The board's log, over its serial console.
t0=$(date +%s)
wait "$BOARD"
rc=$?
PIDS=$(echo "$PIDS" | tr ' ' '\n' | grep -vx "$BOARD" | tr '\n' ' ')
check_eq "the board booted, watched and powered off (waited $(($(date +%s) - t0)) s more)" "$rc" 0 \
	"exit $rc: $(tail -n 3 build/qemu/trend-board.log | tr '\n' ' ') see $BW/console.log"
[ $rc -eq 0 ] || finish
if ! tests/qemu/unframe "$BW/console.log" "$BW/out" >"$BW/unframe.log" 2>&1; then
	no "the board's results came back whole over the serial console" "$(cat "$BW/unframe.log")"
	finish
fi
check_eq "watch $BIVL $BCOUNT exited 0 on the board" "$(cat "$BW/out/watch.rc")" 0
check_cmd "kernel messages are in the board's log, among watch's lines" has '^<4>noise\|noise [0-9]*: printk' \
	"$BW/console.log"
"$X" -l "$BW/console.log" -c trend >"$T/board.csv" 2>"$T/board.err"
check_cmd "-l CONSOLE_LOG -c trend: exit 0" within 0 $? 0
run_checks "board trend" python3 tests/lib/trend_check.py --board "$T/board.csv" "$BW/out" \
	"$BRATE" "$BCOUNT" "$BIVL"
finish
