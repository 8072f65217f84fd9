# The trend's board test, guest side: run as /test/run.sh in a qemu armhf
# guest (busybox sh) with exmap-mini and leakwork in /test; the host
# (tests/suites/trend_test.sh) reads the serial console's log.
#
#   1. leakwork's heap grows RATE KiB/s (/test/params), a steady one holds
#      its pages, and a shell writes a kernel message every NOISE_S seconds
#      (test.loglevel=7: on the console, between and inside watch's lines);
#   2. "exmap-mini watch INTERVAL COUNT" straight to the serial console: the
#      log the host reads, noise and all;
#   3. framed after it (tests/qemu/frame.sh): the workloads' ready lines,
#      the leaker's Pss (smaps_rollup) and the guest's uptime just before
#      and just after the watch, and watch's exit status.
RATE=16 INTERVAL=2 COUNT=90 NOISE_S=1
[ -f /test/params ] && . /test/params
cd /test || exit 1
. /test/frame.sh
. /test/lib.sh
mkfifo /tmp/sleep.fifo

start() {
	_o=$1
	shift
	"$@" >"$_o" 2>"$_o.err" &
	await_ready "$_o" 60
}
pss() {
	awk '$1 == "Pss:" { print $2 }' "/proc/$1/smaps_rollup"
	cut -d' ' -f1 /proc/uptime
}

cat >/tmp/noise.sh <<EOF
i=0
while [ ! -f /tmp/noise.stop ]; do
	echo "<4>noise \$i: printk on the console while watch writes" >/dev/kmsg
	i=\$((i + 1))
	read -t $NOISE_S x <>/tmp/sleep.fifo
done
EOF
/bin/busybox sh /tmp/noise.sh &
noise=$!
start /tmp/leak.out ./leakwork -r "$RATE" -s 65536 heap
start /tmp/steady.out ./leakwork -s 1024 steady
set -- $(sed -n 's/^ready //p' /tmp/leak.out)
leak=${1:-0}
pss "$leak" >/tmp/pss0
./exmap-mini watch "$INTERVAL" "$COUNT"
echo $? >/tmp/watch.rc
pss "$leak" >/tmp/pss1
: >/tmp/noise.stop
wait $noise
echo "trend-mark watch end"
frame_begin trend
frame_file leak /tmp/leak.out
frame_file steady /tmp/steady.out
frame_file pss0 /tmp/pss0
frame_file pss1 /tmp/pss1
frame_file watch.rc /tmp/watch.rc
frame_end
