#!/bin/sh
# Time exmap-mini against the pagemap floor and smem on a large sharing
# workload (200 children, about 4.4 M mapped pages).
# usage: tests/bench.sh BUILDDIR      env: BENCH_ROUNDS (5), EXMAP, FLOOR,
#                                          RUNSTAT, WORKLOAD
set -u

prog=bench
[ $# -eq 1 ] || { echo "usage: $0 builddir" >&2; exit 2; }
EXMAP=${EXMAP:-$1/exmap-mini}
FLOOR=${FLOOR:-$1/floor}
RUNSTAT=${RUNSTAT:-$1/host/runstat}
WORKLOAD=${WORKLOAD:-$1/host/workload}
ROUNDS=${BENCH_ROUNDS:-5}
WAIT=120

die() {
	echo "$prog: $*" >&2
	exit 1
}

case $ROUNDS in
''|*[!0-9]*|0) die "BENCH_ROUNDS: want a positive integer, not '$ROUNDS'" ;;
esac
for f in "$EXMAP" "$FLOOR" "$RUNSTAT" "$WORKLOAD"; do
	[ -x "$f" ] || die "$f: not an executable"
done
command -v smem >/dev/null || die "smem: not installed"

wpid=
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench.XXXXXX") || die "mktemp failed"

# The workload removes its file and its children on SIGTERM; wait for that.
cleanup() {
	if [ -n "$wpid" ]; then
		kill -TERM "$wpid" 2>/dev/null
		wait "$wpid" 2>/dev/null
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

# Start the workload and poll its output for the ready line.
start_workload() {
	"$WORKLOAD" -n 200 -f 65536 -c 16384 -p 4096 >"$tmp/workload.out" &
	wpid=$!
	t=0
	until grep -q '^ready ' "$tmp/workload.out"; do
		kill -0 "$wpid" 2>/dev/null || {
			wait "$wpid"
			rc=$?
			wpid=
			die "workload exited ($rc) before it was ready"
		}
		[ "$t" -ge "$WAIT" ] && die "workload not ready after ${WAIT}s"
		sleep 1
		t=$((t + 1))
	done
}

# Pages mapped by all processes, counting a shared page once per mapper.
mapped_pages() {
	pgsz=$(getconf PAGESIZE) || die "getconf PAGESIZE failed"
	cat /proc/[0-9]*/smaps_rollup 2>/dev/null |
	    awk -v ps="$pgsz" '$1 == "Rss:" { kb += $2 }
		END { printf "%.0f\n", kb * 1024 / ps }'
}

# run NAME MAXRC CMD...: one timed run, its line appended to $tmp/NAME; an
# exit status above MAXRC fails the bench. exmap-mini may exit 1 (partial)
# where a process is unreadable even to root, as pid 1 is in some sandboxes.
run() {
	name=$1
	maxrc=$2
	shift 2
	"$RUNSTAT" "$tmp/$name" "$@"
	rc=$?
	[ "$rc" -le "$maxrc" ] || die "$name: '$*' exited $rc"
}

# median_max: the median and the largest of the numbers on stdin.
median_max() {
	sort -n | awk '{ v[NR] = $1 }
		END {
			m = v[int((NR + 1) / 2)]
			if (NR % 2 == 0)
				m = (m + v[NR / 2 + 1]) / 2
			print m, v[NR]
		}'
}

# stats FILE: median wall, median RSS and max RSS of runstat lines.
stats() {
	set -- "$(awk '{ print $2 }' "$1" | median_max)" \
	    "$(awk '{ print $3 }' "$1" | median_max)"
	echo "${1% *} $2"
}

ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN {
		if (b > 0) printf "%.2f\n", a / b; else print "inf" }'
}

start_workload
pages=$(mapped_pages)
echo "$prog: workload ready, $pages pages mapped, $ROUNDS rounds"

i=0
while [ "$i" -lt "$ROUNDS" ]; do
	run exmap 1 "$EXMAP" -c procs
	run floor 0 "$FLOOR"
	run smem 0 smem -t
	i=$((i + 1))
done
# A capture of the same machine: taken (its size), then loaded, timed alike.
"$EXMAP" dump >"$tmp/cap" 2>/dev/null
[ $? -le 1 ] || die "dump failed"
capsize=$(wc -c <"$tmp/cap")
i=0
while [ "$i" -lt "$ROUNDS" ]; do
	run dump 1 "$EXMAP" dump
	run load 1 "$EXMAP" -l "$tmp/cap" -c procs
	i=$((i + 1))
done
# A workload killed midway (say by the OOM killer) would void the figures.
kill -0 "$wpid" 2>/dev/null || die "workload died during the rounds"

printf '%-8s %12s %16s %16s\n' tool "wall s (med)" "RSS KiB (med)" \
    "RSS KiB (max)"
for t in exmap floor smem dump load; do
	set -- $(stats "$tmp/$t")
	printf '%-8s %12.3f %16.0f %16.0f\n' "$([ $t = load ] && echo -l || echo $t)" "$@"
	case $t in
	exmap) ew=$1 emax=$3 ;;
	floor) fw=$1 ;;
	smem) sw=$1 ;;
	esac
done
echo "capture of this machine: $capsize bytes"
echo "mapped pages: $pages"
ef=$(ratio "$ew" "$fw")
es=$(ratio "$ew" "$sw")
echo "bench: exmap/floor $ef  exmap/smem $es  exmap peak RSS $emax KiB"
