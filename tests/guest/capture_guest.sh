# The capture test, guest side: run as /test/run.sh in a qemu guest (busybox
# sh) with exmap-mini, workload, the stripped program sbin/prog and its
# unstripped twin ubin/prog in /test; tests/suites/capture_test.sh checks on the
# host.
#
#   1. workload W1 (-p PRIV_A) and the two programs, each of whose one child
#      is killed (a zombie: its parent's buffer is its own again);
#   2. the live views listed in /test/views (NAME|ARGS, @PARENT@ and @CHILD@
#      standing for W1's pids) into /tmp/live/NAME (+ NAME.rc, NAME.err),
#      then "exmap-mini dump" straight to the serial console: capture A;
#   3. W1 stopped, W2 (-p PRIV_B) started, its live -c procs and -c files,
#      metrics -o into a directory of its own, then capture B;
#   4. everything else framed (tests/qemu/frame.sh) after the captures.
# A shell started at the beginning writes a printk line to /dev/kmsg every
# NOISE_S seconds (printk.devkmsg=on: no rate limit; test.loglevel=7: on the
# console), so that kernel messages cut into the capture as it goes out; it
# runs builtins only (no fork), so it is the same process with the same
# pages for the live views and the dump. It pauses around the
# "capture-mark" lines by which the host cuts the log in two.
#
# The process set must not change between the first live view and the dump:
# no pipes, no $(...), no external commands there, and no subshell around
# an exmap-mini run (the host checks -c procs before and after).
N=3 FILE_KIB=256 COW_KIB=256 PRIV_A=128 PRIV_B=256 NOISE_S=0.001
[ -f /test/params ] && . /test/params
cd /test || exit 1
X=./exmap-mini
. /test/frame.sh
. /test/lib.sh
mkdir -p /tmp/live /tmp/prom
: >/tmp/noise.flag
mkfifo /tmp/noise.fifo /tmp/sleep.fifo

# nap SECONDS: sleep with a builtin (read times out on a FIFO nobody writes)
nap() { read -t "$1" _nap <>/tmp/sleep.fifo; }

# The noise shell: its own process from the start (exec'd sh, not a fork of
# this one), its loop only builtins; flag 1: write, 0: pause, stop: exit.
cat >/tmp/noise.sh <<EOF
i=0
while :; do
	read f </tmp/noise.flag
	case \$f in
	stop) break ;;
	1) echo "<4>noise \$i: printk on the console while the capture is written" >/dev/kmsg
	   i=\$((i + 1)) ;;
	esac
	read -t $NOISE_S x <>/tmp/noise.fifo
done
EOF
echo 1 >/tmp/noise.flag
/bin/busybox sh /tmp/noise.sh &
noise=$!

# cmdlines OUT: "pid TAB command line" (arguments joined by spaces) of each
# process with one; it forks, so only after a capture
cmdlines() {
	sh -c 'for d in /proc/[0-9]*; do
		c=$(tr "\0" " " <"$d/cmdline" 2>/dev/null)
		[ -n "$c" ] && printf "%s\t%s\n" "${d#/proc/}" "${c% }"
	done' >"$1"
}

# start OUT CMD...: start a process that prints "ready PID..." when set up
start() {
	_o=$1
	shift
	: >"$_o"
	"$@" >"$_o" 2>"$_o.err" &
	await_ready "$_o" 60
}
# zombie PID: kill it and wait until it is a zombie (its parent never reaps)
zombie() {
	kill -9 "$1"
	_i=0
	while ! grep -q '^State:.*Z' "/proc/$1/status" && [ $_i -lt 100 ]; do
		nap 0.1
		_i=$((_i + 1))
	done
}

start /tmp/w1.out ./workload -n "$N" -f "$FILE_KIB" -c "$COW_KIB" -p "$PRIV_A" -d /tmp
start /tmp/sprog.out /test/sbin/prog -n 1 -f 4 -c 0 -p 0 -z 0 -d /tmp
start /tmp/uprog.out /test/ubin/prog -n 1 -f 4 -c 0 -p 0 -z 0 -d /tmp
set -- $(sed -n 's/^ready //p' /tmp/w1.out)
parent=${1:-0} child=${2:-0}
set -- $(sed -n 's/^ready //p' /tmp/sprog.out) $(sed -n 's/^ready //p' /tmp/uprog.out)
zombie "$2"
zombie "$4"
# The views, with the pids in place, one "NAME ARGS" a line.
sed -e "s/@PARENT@/$parent/g" -e "s/@CHILD@/$child/g" -e 's/|/ /' /test/views >/tmp/views
nap 1

# The live views, then the capture; this loop runs builtins only.
while read -r name args; do
	eval "set -- $args"
	$X "$@" >"/tmp/live/$name" 2>"/tmp/live/$name.err"
	echo $? >"/tmp/live/$name.rc"
done </tmp/views
$X dump
echo $? >/tmp/live/dumpA.rc
# the same process set, figure for figure, once more after the dump
$X -c procs >/tmp/live/quiet.after 2>&1
cmdlines /tmp/live/cmdlines.A
echo 0 >/tmp/noise.flag
nap 0.3
echo "capture-mark A end"

# Capture B: W2 in W1's place.
kill "$parent"
nap 0.5
start /tmp/w2.out ./workload -n "$N" -f "$FILE_KIB" -c "$COW_KIB" -p "$PRIV_B" -d /tmp
echo 1 >/tmp/noise.flag
nap 1
$X -c procs >/tmp/live/B.procs.c 2>/tmp/live/B.procs.c.err
echo $? >/tmp/live/B.procs.c.rc
$X -c files >/tmp/live/B.files.c 2>/tmp/live/B.files.c.err
echo $? >/tmp/live/B.files.c.rc
$X -o /tmp/prom/exmap.prom metrics 2>/tmp/live/B.metrics.err
echo $? >/tmp/live/B.metrics.rc
$X dump
echo $? >/tmp/live/dumpB.rc
cmdlines /tmp/live/cmdlines.B
echo 0 >/tmp/noise.flag
nap 0.3
echo "capture-mark B end"

# Budgets live: W2's processes against their own sum, 2 KiB over it and 1 under.
eff=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
	$h["name"] == "workload" { s += $h["eff_resident"] } END { print int(s / 1024) }' /tmp/live/B.procs.c)
$X --budget "proc:workload=$((eff + 2))K" procs >/dev/null 2>/tmp/live/budget.under.err
echo $? >/tmp/live/budget.under.rc
$X --budget "proc:workload=$((eff - 1))K" procs >/dev/null 2>/tmp/live/budget.over.err
echo $? >/tmp/live/budget.over.rc

echo stop >/tmp/noise.flag
wait $noise
frame_begin capture
frame_cmd uname uname -r
frame_file w1 /tmp/w1.out
frame_file w2 /tmp/w2.out
frame_file sprog /tmp/sprog.out
frame_file uprog /tmp/uprog.out
frame_file views /tmp/views
frame_file B.metrics.prom /tmp/prom/exmap.prom
frame_cmd promdir ls -A /tmp/prom
for f in /tmp/live/*; do
	frame_file "${f#/tmp/live/}" "$f"
done
frame_end
