#!/bin/sh
# What watch costs on this machine (make bench; its board: watch_board.sh):
#   - the CPU a sample costs beyond its scan: BUILD/watchcost's pairs (a
#     report's scan, a sample's scan with the ram view's parts, a sample, in turn;
#     tests/bench/watchcost.c), on
#     this machine as it is and with bench.sh's bench workload running (200
#     children, 4.3 M mapped pages), non-keyframes and keyframes apart;
#   - the bytes: this machine watched, 40 samples a second apart: a
#     keyframe, the mean of the others, the longest t line (which is all a
#     sample in which nothing changed writes);
#   - memory: 10000 samples of one workload at interval 0 (-t fixed, so the
#     page table's size is one): VmHWM at sample 1000 and at the end, and
#     what every keyframe's h line records (the tables, the scan arena's
#     high-water mark).
# Lines start "watch cost:", "watch bytes:", "watch memory:".
# usage: tests/bench/watch_bench.sh BUILDDIR
set -u
B=${1:?usage: tests/bench/watch_bench.sh BUILDDIR}
EXMAP=$B/exmap-mini
COST=$B/watchcost
WORKLOAD=build/host/workload
T=$(mktemp -d /tmp/watch-bench.XXXXXX)
W=
trap '[ -n "$W" ] && kill "$W" 2>/dev/null; rm -rf "$T"' EXIT
for f in "$EXMAP" "$COST" "$WORKLOAD"; do
	[ -x "$f" ] || { echo "watch bench: $f is not built (make bench builds it)" >&2; exit 1; }
done

# cost LABEL ARGS: watchcost's figures, prefixed
cost() {
	_l=$1
	shift
	"$COST" "$@" 2>/dev/null | sed -n "s/^/watch cost: $_l: /p" | grep -v ': round ' |
		sed '/sample beyond its scan/s/$/; target 0.05/'
}
cost "this machine" 31
cost "this machine, every sample a keyframe" 11 1

# ready OUT: the workload's pids, once it says so
ready() {
	for _i in $(seq 600); do
		grep -q '^ready ' "$1" && { sed -n 's/^ready //p' "$1"; return 0; }
		sleep 0.5
	done
	return 1
}
"$WORKLOAD" -n 200 -f 65536 -c 16384 -p 4096 -d "$T" >"$T/wl" 2>&1 &
W=$!
ready "$T/wl" >/dev/null || { echo "watch bench: the workload did not start" >&2; exit 1; }
cost "with 200 children (4.3 M pages)" 31
cost "with 200 children, every sample a keyframe" 11 1
kill "$W"
wait "$W"

# The bytes of a watch of this machine, 40 samples a second apart.
"$EXMAP" watch 1 40 >"$T/b.log" 2>/dev/null
awk '/^XM w / { b += length($0) + 1; n++ }
	/^XM w [0-9a-f]+ t / { s++; if ($5 ~ /,k$/) { kb += b; k++ } else { ob += b; o++ }
			       if (length($0) + 1 > tl) tl = length($0) + 1; b = 0 }
	END { printf "watch bytes: this machine, %d samples a second apart: a keyframe %d bytes, " \
		     "the others %d on average; the longest t line (a sample in which nothing " \
		     "changed) %d bytes, target 64\n", s, kb / k, ob / o, tl }' "$T/b.log"
echo "watch bytes: its two captures $(grep -v '^XM w ' "$T/b.log" | wc -c) bytes"

# Memory over 10000 samples of one workload.
"$WORKLOAD" -n 2 -f 256 -c 256 -p 128 -d "$T" >"$T/wl" 2>&1 &
W=$!
pids=$(ready "$T/wl" | tr ' ' ',')
"$EXMAP" -p "$pids" -t 65536 -o "$T/m.log" watch 0 10000 2>/dev/null &
P=$!
while kill -0 "$P" 2>/dev/null; do
	n=$(grep -c '^XM w [0-9a-f]* t ' "$T/m.log" 2>/dev/null)
	awk -v n="$n" '$1 == "VmHWM:" { print n, $2 }' "/proc/$P/status" 2>/dev/null >>"$T/hwm"
	sleep 1
done
wait "$P"
kill "$W"
wait "$W"
W=
at1k=$(awk '$1 >= 1000 { print $2; exit }' "$T/hwm")
end=$(tail -n 1 "$T/hwm" | cut -d' ' -f2)
h=$(grep '^XM w [0-9a-f]* h ' "$T/m.log" | cut -d, -f11,12 | cut -d' ' -f1 | sort -u)
echo "watch memory: 10000 samples of 3 processes at interval 0: VmHWM $at1k KiB at sample" \
	"1000, $end KiB at the last reading; the h lines' MEM,PEAK (hex bytes): $(echo $h)" \
	"($(echo "$h" | wc -l) distinct over $(grep -c '^XM w [0-9a-f]* h ' "$T/m.log") keyframes)"
