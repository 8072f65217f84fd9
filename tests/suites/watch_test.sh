#!/bin/sh
# watch: a log of samples between two captures, read back by exmap-mini's
# reader (src/wlog.c, through $WLOGDUMP: tests/unit/wlogdump.c). Its first
# and last samples against its captures, processes against the kernel's
# smaps_rollup, starts and exits, COUNT, SIGINT and SIGTERM; the log through
# a console's noise, cut anywhere, a line lost or damaged, begun mid-way
# (tests/lib/watch_check.py); SIGKILL (no closing capture): its last sample
# a place of the captures view, diff LOG@1 LOG@-1 against the kernel's Pss
# and the first capture, losses counted; -o with --max's rotation, on a full
# disk; memory flat over thousands of samples.
# Environment: EXMAP, WLOGDUMP, WORKLOAD (tests/work/workload.c, built for
# this machine). As root (a tmpfs is mounted). Last line: N passed, N failed.
set -u
: "${EXMAP:?}" "${WLOGDUMP:?}" "${WORKLOAD:?}"
LIB=$(cd "$(dirname "$0")/../lib" && pwd)
. "$LIB/lib.sh"
CHECK="python3 $LIB/watch_check.py"
T=$(mktemp -d /tmp/exmap-watch.XXXXXX)
MNT=
WPID=

cleanup() {
	[ -n "$WPID" ] && kill "$WPID" 2>/dev/null
	stop_workload
	[ -n "${WL2:-}" ] && kill -TERM "$WL2" 2>/dev/null
	[ -n "$MNT" ] && umount "$MNT" 2>/dev/null
	[ -n "${KEEP:-}" ] || rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 2' INT TERM


# dumpval LOG SAMPLE KIND ENTITY-PREFIX FIELD: the reader's value
dumpval() {
	"$WLOGDUMP" "$1" 2>/dev/null | awk -F, -v n="$2" -v k="$3" -v e="$4" -v f="$5" '
		$1 == n && $5 == k && index($6, e) == 1 && $(NF - 3) == f { print $(NF - 2); exit }'
}

# the last sample's number in LOG, as the reader gives it
last_sample() { "$WLOGDUMP" "$1" 2>/dev/null | awk -F, '$1 ~ /^[0-9]+$/ { n = $1 } END { print n }'; }

# a copy of its own, which no other process maps: Pss is shared among ours alone
cp "$WORKLOAD" "$T/workload"
WORKLOAD=$T/workload
if ! start_workload "$T/wl.out" "$WORKLOAD" -n 2 -f 256 -c 256 -p 128 -d "$T"; then
	echo "workload did not start:"; cat "$T/wl.out.err"; exit 2
fi
FAMILY=$(echo "$READY" | tr ' ' ',')
PARENT=${READY%% *}
"$WORKLOAD" -n 1 -f 64 -c 64 -p 64 -d "$T" >"$T/wl2.out" 2>&1 &
WL2=$!
wait_ready "$T/wl2.out" "$WL2" || { echo "second workload did not start"; exit 2; }
SECOND=$(sed -n 's/^ready //p' "$T/wl2.out" | tr ' ' ',')

# --- a log: 130 samples of two families, the second ended after a second ----
"$EXMAP" -p "$FAMILY,$SECOND" watch 0.02 130 >"$T/a.log" 2>"$T/a.err" &
WPID=$!
sleep 1
kill -TERM "$WL2"
wait "$WL2"
WL2=
wait "$WPID"; rc=$?
WPID=
check_eq "watch 0.02 130: exit 0" "$rc" 0 "exit $rc: $(head -c 300 "$T/a.err")"
check_num "COUNT: 130 samples, a t line each" "$(grep -c '^XM w [0-9a-f]* t ' "$T/a.log")" 130
check_eq "it ends with an e line (count), then the last capture" \
	"$(grep '^XM w [0-9a-f]* e ' "$T/a.log" | cut -d' ' -f5)" count
"$EXMAP" -l "$T/a.log" captures >"$T/caps" 2>&1
check_num "two whole captures: the first sample's scan, the last's" \
	"$(grep -c ' whole$' "$T/caps")" 2 0 "$(cat "$T/caps")"
run_checks "the log against its captures" $CHECK truth "$EXMAP" "$WLOGDUMP" "$T/a.log"
"$WLOGDUMP" "$T/a.log" >"$T/a.csv" 2>/dev/null
for p in $(echo "$SECOND" | tr ',' ' '); do
	check_cmd "the second family's pid $p: its exit is an event" \
		grep -q "^exited,[0-9]*,$p," "$T/a.csv"
done
# Pss, as the kernel gives it now, against the last sample (the family is steady)
for p in $(echo "$FAMILY" | tr ',' ' '); do
	check_num "pid $p: the last sample's eff_resident is the kernel's Pss (4 KiB)" \
		"$(dumpval "$T/a.log" 129 proc "$p:" eff_resident)" "$(rollup "$p" Pss)" 4096
done
heap=$(awk '/^[0-9a-f]+-[0-9a-f]+ / { h = ($6 == "[heap]") } h && $1 == "Pss:" { s += $2 } END { print s * 1024 }' \
	"/proc/$PARENT/smaps")
start=$("$WLOGDUMP" "$T/a.log" 2>/dev/null |
	awk -F, -v p="$PARENT:" '$5 == "proc" && index($6, p) == 1 { split($6, e, ":"); print e[2]; exit }')
check_num "the parent's [heap] part is the kernel's Pss of its [heap] (4 KiB)" \
	"$(dumpval "$T/a.log" 129 part "$PARENT:$start:[heap]" eff_resident)" "$heap" 4096
"$EXMAP" -l "$T/a.log" -c procs >/dev/null 2>"$T/l.err"
check_cmd "-l LOG on a watch log: its last whole capture, and it says which" \
	grep -q 'a watch log: its capture @2 of 2, the last whole one' "$T/l.err"
# the final capture cut: -l takes the first, and says so
n=$(grep -n '^XM begin' "$T/a.log" | tail -n 1 | cut -d: -f1)
head -n $((n + 20)) "$T/a.log" >"$T/cut.log"
"$EXMAP" -l "$T/cut.log" -c procs >/dev/null 2>"$T/l.err"
check_cmd "-l LOG whose last capture was cut: the first, said" \
	grep -q 'a watch log: its capture @1 of 2, the last whole one' "$T/l.err"
"$EXMAP" diff "$T/a.log@1" "$T/a.log@2" >"$T/diff" 2>&1
check_cmd "diff LOG@1 LOG@2: the second family gone" grep -q '^ *3>0\|^ *2>0\|^ *1>0' "$T/diff"

# --- the log damaged --------------------------------------------------------
python3 "$LIB/noise.py" --seed 7 a "$T/a.log" "$T/noisy.log" >/dev/null
run_checks "through a console's noise" $CHECK same "$WLOGDUMP" "$T/a.log" "$T/noisy.log"
run_checks "cut anywhere" $CHECK cut "$WLOGDUMP" "$T/a.log" "$T" 7
run_checks "a line lost or damaged" $CHECK drop "$WLOGDUMP" "$T/a.log" "$T"
run_checks "begun mid-way" $CHECK midway "$WLOGDUMP" "$T/a.log" "$T"

# --- processes that start: the whole machine, a family started mid-way -------
"$EXMAP" watch 0.5 4 >"$T/b.log" 2>/dev/null &
WPID=$!
until [ "$(grep -c '^XM w [0-9a-f]* t ' "$T/b.log")" -ge 1 ]; do
	kill -0 "$WPID" 2>/dev/null || break
	sleep 0.1
done
"$WORKLOAD" -n 1 -f 64 -c 64 -p 64 -d "$T" >"$T/wl3.out" 2>&1 &
WL2=$!
wait_ready "$T/wl3.out" "$WL2"
wait "$WPID"
WPID=
kill -TERM "$WL2"
wait "$WL2"
WL2=
"$WLOGDUMP" "$T/b.log" >"$T/b.csv" 2>/dev/null
for p in $(sed -n 's/^ready //p' "$T/wl3.out"); do
	check_cmd "a process started during the watch (pid $p): its start, born in it" \
		grep -q "^started,[1-9][0-9]*,$p,[0-9]*,workload,1," "$T/b.csv"
done
check_cmd "a process there from the start: not born in the watch" \
	grep -q "^started,0,$PARENT,[0-9]*,workload,0," "$T/b.csv"

# --- SIGINT and SIGTERM end it with the last capture -------------------------
for sig in INT TERM; do
	"$EXMAP" -p "$FAMILY" watch 0.05 >"$T/s.log" 2>"$T/s.err" &
	WPID=$!
	# a few samples in (the first capture's census of RAM takes its time)
	until [ "$(grep -c '^XM w [0-9a-f]* t ' "$T/s.log")" -ge 3 ]; do
		kill -0 "$WPID" 2>/dev/null || break
		sleep 0.1
	done
	kill -$sig "$WPID"
	wait "$WPID"; rc=$?
	WPID=
	"$EXMAP" -l "$T/s.log" captures >"$T/caps" 2>&1
	check_eq "SIG$sig: exit 0, the log ends with its e line and a whole capture" \
		"$rc $(grep '^XM w [0-9a-f]* e ' "$T/s.log" | cut -d' ' -f5) $(grep -c ' whole$' "$T/caps")" \
		"0 sig$(echo $sig | tr 'A-Z' 'a-z') 2" "$(cat "$T/s.err" "$T/caps")"
done

# --- SIGKILL: no closing capture; the last sample is a place diff reads -------
# Three families of copies no other process maps: A there throughout, C there
# at the start and stopped, B started after the first capture. Steady, so
# the kernel's Pss read before the last sample is its figure.
for f in a b c; do cp "$WORKLOAD" "$T/wk_$f"; done
# famstart F: family F started, its pids in $T/F.pids
famstart() {
	"$T/wk_$1" -n 1 -f 64 -c 64 -p 96 -d "$T" >"$T/$1.out" 2>&1 &
	eval "K_$1=\$!"
	eval "wait_ready \"\$T/\$1.out\" \$K_$1" && echo "$READY" >"$T/$1.pids"
}
# pss F FIELD: the family's smaps_rollup FIELD, summed, in bytes
pss() { _s=0; for _p in $(cat "$T/$1.pids"); do _s=$((_s + $(rollup "$_p" "$2"))); done; echo $_s; }
# tlines: the t lines in the killed watch's log
tlines() { grep -c '^XM w [0-9a-f]* t ' "$T/k.log"; }
famstart a && famstart c || { no "families A and C ready" "$(cat "$T/a.out" "$T/c.out")"; finish; }
"$EXMAP" watch 0.5 >"$T/k.log" 2>"$T/k.err" &
WPID=$!
n=0
until [ "$(tlines)" -ge 1 ] || [ $n -ge 600 ]; do sleep 0.1; n=$((n + 1)); done
kill -TERM "$K_c"; wait "$K_c"
famstart b || no "family B ready" "$(cat "$T/b.out")"
t=$(($(tlines) + 2))
until [ "$(tlines)" -ge $t ] || [ $n -ge 1200 ]; do sleep 0.1; n=$((n + 1)); done
for f in a b; do for v in Pss Rss; do eval "${v}_$f=$(pss $f $v)"; done; done
t=$(($(tlines) + 1))
until [ "$(tlines)" -ge $t ] || [ $n -ge 1800 ]; do sleep 0.1; n=$((n + 1)); done
kill -KILL "$WPID"
{ wait "$WPID"; } 2>/dev/null
WPID=
kill -TERM "$K_a" "$K_b"
wait "$K_a" "$K_b"
check_eq "SIGKILL: no e line, no closing capture" \
	"$(grep -c '^XM w [0-9a-f]* e \|^XM begin' "$T/k.log")" 1
"$EXMAP" -l "$T/k.log" captures >"$T/caps" 2>&1
check_cmd "captures: @1 whole, @2 the last sample, said" awk '
	/^ *1 [0-9a-f]+ .* whole$/ { w++ } /^ *2 - .* sample$/ { s++ }
	/^@2: the last sample of a watch whose closing capture never came/ { n++ }
	END { exit !(w == 1 && s == 1 && n == 1) }' "$T/caps"
"$EXMAP" -l "$T/k.log@1" -c procs >"$T/k1.csv" 2>/dev/null
"$EXMAP" -a -c diff "$T/k.log@1" "$T/k.log@-1" >"$T/kd.csv" 2>"$T/kd.err"
check_cmd "diff LOG@1 LOG@-1 (-c): exit 0 or 1" within 0 $? 1
# drow NAME FIELD: the diff's FIELD for the processes named NAME
drow() { awk -F, -v n="$1" -v f="$2" 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
	$1 == "proc" && $2 == n { print $h[f]; exit }' "$T/kd.csv"; }
# at1 NAME: the processes named NAME at the first capture, their eff_resident summed
at1() { awk -F, -v n="$1" 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
	$h["name"] == n { s += $h["eff_resident"] } END { print s + 0 }' "$T/k1.csv"; }
check_eq "diff: B started after the first capture, 0>2" "$(drow wk_b n_a)>$(drow wk_b n_b)" "0>2"
check_num "diff: B's eff_resident is its Pss (smaps_rollup, 8 KiB)" "$(drow wk_b eff_resident)" \
	"$Pss_b" 8192
check_num "diff: B's resident is its Rss (8 KiB)" "$(drow wk_b resident)" "$Rss_b" 8192
check_eq "diff: C stopped, 2>0" "$(drow wk_c n_a)>$(drow wk_c n_b)" "2>0"
check_num "diff: C's change is less its eff_resident at the first capture (a byte a process)" \
	"$(drow wk_c eff_resident)" "-$(at1 wk_c)" 2
check_num "diff: A's eff_resident at the first capture and its change: its Pss now (8 KiB)" \
	"$(($(at1 wk_a) + $(drow wk_a eff_resident)))" "$Pss_a" 8192
check_eq "diff: a sample's figures only (vm, mapped, eff_mapped empty), files' counts empty" \
	"$(python3 -c 'import csv, sys
rs = list(csv.DictReader(open(sys.argv[1], newline="", errors="replace")))
print(len(rs) > 10, sum(1 for r in rs if r["vm"] or r["mapped"] or r["eff_mapped"] or
	r["kind"] == "file" and (r["n_a"] or r["n_b"])))' "$T/kd.csv")" "True 0"
"$EXMAP" diff "$T/k.log@1" "$T/k.log@2" >"$T/kd.txt" 2>/dev/null
check_cmd "diff's text: sections and symbols need a closing capture, said" \
	grep -q 'symbols, and the ram view need a closing capture' "$T/kd.txt"
for c in "-l $T/k.log@2 procs|the other views need a capture" \
	"diff $T/k.log@1 $T/k.log@2 html|its page needs two captures" \
	"diff $T/k.log@1 $T/k.log@3|holds 1 capture and a watch's last sample after them: @1 to @2"; do
	# shellcheck disable=SC2086
	"$EXMAP" ${c%%|*} >/dev/null 2>"$T/err"
	check_eq "${c%%|*}: exit 2, one line: ${c#*|}" \
		"$? $(grep -c . "$T/err") $(grep -c "${c#*|}" "$T/err")" "2 1 1" "$(cat "$T/err")"
done
# losses counted without contradiction: the last line cut (as a kill mid-write
# leaves it), then a sample's t line in the middle dropped too
head -c -8 "$T/k.log" >"$T/kc.log"
"$EXMAP" -l "$T/kc.log" trend >/dev/null 2>"$T/err"
check_cmd "the last line cut: 1 lost, it arrived damaged" \
	grep -q 'kc.log: 1 watch line lost (1 arrived damaged, 0 never arrived)' "$T/err"
n=$(grep -n '^XM w [0-9a-f]* t ' "$T/kc.log" | sed -n '2p' | cut -d: -f1)
sed "${n}d" "$T/kc.log" >"$T/kd.log"
"$EXMAP" -l "$T/kd.log" trend >/dev/null 2>"$T/err"
check_cmd "and a line dropped: 2 lost, 1 arrived damaged, 1 never arrived" \
	grep -q 'kd.log: 2 watch lines lost (1 arrived damaged, 1 never arrived)' "$T/err"

# --- -o FILE --max SIZE: rotation --------------------------------------------
"$EXMAP" -p "$FAMILY" -o "$T/r.log" --max 16K watch 0 300 >"$T/r.out" 2>"$T/r.err"; rc=$?
check_eq "-o FILE --max 16K: exit 0, nothing on stdout" "$rc $(wc -c <"$T/r.out")" "0 0" \
	"$(cat "$T/r.err")"
check_cmd "FILE.1 beside FILE" test -s "$T/r.log.1"
check_cmd "FILE.1 reached 16K before it was renamed" within 16384 "$(wc -c <"$T/r.log.1")" ""
run_checks "rotated" $CHECK rotated "$WLOGDUMP" "$T/r.log"
check_num "the newest sample is in FILE" "$(last_sample "$T/r.log")" 299

# --- a full disk -------------------------------------------------------------
MNT=$T/mnt
mkdir "$MNT"
if mount -t tmpfs -o size=256k tmpfs "$MNT"; then
	# 48K left: less than FILE.1 and FILE at 24K each
	dd if=/dev/zero of="$MNT/filler" bs=1k count=208 2>/dev/null
	"$EXMAP" -p "$FAMILY" -o "$MNT/w.log" --max 24K watch 0 600 2>"$T/d.err"; rc=$?
	check_eq "disk full with FILE.1 there: FILE.1 removed, said once a time, exit 1" \
		"$rc $(grep -c 'No space left on device: .*w.log.1 removed to keep the newest samples' "$T/d.err")" \
		"1 $(grep -c . "$T/d.err")" "$(head -c 400 "$T/d.err")"
	check_num "disk full: the newest sample kept" "$(last_sample "$MNT/w.log")" 599
	"$EXMAP" -l "$MNT/w.log" captures >"$T/caps" 2>&1
	check_cmd "disk full: the last capture whole" grep -q ' whole$' "$T/caps"
	rm -f "$MNT/w.log" "$MNT/w.log.1"
	# 16K left: a capture, and samples until it is full
	dd if=/dev/zero of="$MNT/filler2" bs=1k count=32 2>/dev/null
	"$EXMAP" -p "$FAMILY" -o "$MNT/w.log" watch 0 1000 2>"$T/d.err"; rc=$?
	check_eq "disk full, no FILE.1 to remove: one line, exit 2" "$rc $(grep -c . "$T/d.err")" "2 1" \
		"$(cat "$T/d.err")"
	check_cmd "disk full, no FILE.1: the message names the reason" \
		grep -q 'w.log: No space left on device, and no .*w.log.1 left to remove: the watch stops' "$T/d.err"
	umount "$MNT" && MNT=
else
	no "a tmpfs for the full disk" "mount failed (root?)"
fi

# --- memory: flat over thousands of samples -----------------------------------
# -t: a page table of one size (else sized by meminfo's figures of the moment).
# No COUNT: read every 0.05 s until past sample 2000, however fast the
# machine, then stopped by SIGTERM. The figure is smaps_rollup's Rss: exact
# (the page tables walked). status's VmRSS and VmHWM are not: the kernel
# keeps them in per-CPU counters, read without their CPUs' pending counts,
# and a process that gives back and takes again its arena each sample sees
# its VmHWM wander by tens of KiB as it moves between CPUs.
"$EXMAP" -p "$FAMILY" -t 65536 -o "$T/m.log" watch 0 2>"$T/m.err" &
WPID=$!
rss=
t0=$(date +%s)
while kill -0 "$WPID" 2>/dev/null && [ $(($(date +%s) - t0)) -lt 900 ]; do
	r=$(awk '$1 == "Rss:" { print $2 }' "/proc/$WPID/smaps_rollup" 2>/dev/null)
	n=$(grep -c '^XM w [0-9a-f]* t ' "$T/m.log" 2>/dev/null)
	[ -n "$r" ] && rss="$rss$n $r
"
	[ "${n:-0}" -ge 2000 ] && [ -n "$r" ] && break
	sleep 0.05
done
kill -TERM "$WPID" 2>/dev/null
wait "$WPID"
WPID=
# Memory rises while the samples meet /proc's files at their largest (each
# read into fixed buffers), then stays. Each sample's arena is given back and
# taken again, so a reading falls anywhere in a sample: the most Rss read
# over samples 1000 to 1500 and over 1500 to 2000 differ by less than
# 16 KiB (32 bytes a sample kept), each the most of 5 readings at least.
echo "$rss" | awk 'NF == 2 && $1 >= 1000' >"$T/rss"
check_cmd "samples 1000 to 2000: the most Rss (smaps_rollup) moves by less than 16 KiB" \
	awk '$1 < 1500 { na++; if ($2 > a) a = $2 } $1 >= 1500 { nb++; if ($2 > b) b = $2 }
		END { print "most Rss " a " KiB (" na " readings), then " b " KiB (" nb ")"
		exit !(na >= 5 && nb >= 5 && $1 >= 2000 && b - a < 16 && a - b < 16) }' "$T/rss"
grep '^XM w [0-9a-f]* h ' "$T/m.log" | cut -d, -f11,12 | cut -d' ' -f1 | sort -u >"$T/peaks"
check_eq "every keyframe's h: the writer's tables and the scan arena's high-water mark the same" \
	"$(sed -n '2,$p' "$T/peaks" | wc -l)" 0 "$(head -n 3 "$T/peaks" | tr '\n' ' ')"
echo "# memory: at sample, Rss KiB: $(head -n 1 "$T/rss"); $(tail -n 1 "$T/rss"); h's MEM,PEAK: $(head -n 1 "$T/peaks")"

# --- the reader on what is no watch log (misuse: tests/suites/errors_test.sh) ---
"$WLOGDUMP" "$WORKLOAD" >/dev/null 2>"$T/err"; rc=$?
check_eq "the reader on a file with no watch line: exit 2, says so" \
	"$rc $(grep -c 'no watch samples in it' "$T/err")" "2 1" "$(cat "$T/err")"

finish
