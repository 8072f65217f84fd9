#!/bin/sh
# Captures on this machine, run as root: a capture of a workload loads to the
# very report the live scan gave, view by view; a noisy console log loads the
# same; a damaged one names what it lost and exits 4; diff against the live
# figures of two known workloads; budgets; a stripped binary's symbols through
# a sysroot holding its unstripped twin.
# Environment: EXMAP, WORKLOAD_SRC (tests/work/workload.c, built with the
# workload library beside it, wl.c), MUSLCC (musl-gcc).
# Last line: N passed, N failed.
set -u
: "${EXMAP:?}" "${WORKLOAD_SRC:?}"
WL_C=${WORKLOAD_SRC%/*}/wl.c
TESTS=$(cd "$(dirname "$0")/.." && pwd)
. "$TESTS/lib/lib.sh"
MUSLCC=${MUSLCC:-musl-gcc}
T=$(mktemp -d /tmp/exmap-cap.XXXXXX)
chmod 755 "$T"
PIDS_TO_KILL=

cleanup() {
	for p in $PIDS_TO_KILL; do kill -TERM "$p" 2>/dev/null; done
	wait 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 2' INT TERM

# Two builds of the workload, both with a build-id: the unstripped one and
# its stripped copy (same id), plus a rebuild with another id.
mkdir -p "$T/bin" "$T/sysroot$T/bin" "$T/other$T/bin"
$MUSLCC -static -O2 -Wl,--build-id=sha1 -o "$T/bin/wl" "$WORKLOAD_SRC" "$WL_C" || { echo "cannot build"; exit 2; }
cp "$T/bin/wl" "$T/bin/wl2"
strip -o "$T/bin/wls" "$T/bin/wl"
cp "$T/bin/wl" "$T/sysroot$T/bin/wls"
$MUSLCC -static -O2 -Wl,--build-id=0x0123456789abcdef -o "$T/other$T/bin/wls" "$WORKLOAD_SRC" "$WL_C"

# start NAME BINARY ARGS...: run a workload in $T/NAME; its pids in PIDS (a comma list)
start() {
	name=$1
	shift
	mkdir -p "$T/$name"
	start_workload "$T/$name.out" "$@" -d "$T/$name"
	_rc=$?
	PIDS_TO_KILL="$PIDS_TO_KILL $WL_PID"	# ended by cleanup, started or not
	[ $_rc -eq 0 ] || { echo "workload $name did not start: $(cat "$T/$name.out.err")"; exit 2; }
	PIDS=$(echo "$READY" | tr ' ' ',')
}

# live and loaded: VIEW ARGS the same, stdout byte for byte, exit alike
same_view() {	# NAME CAPTURE PIDS VIEW...
	name=$1 cap=$2 pids=$3
	shift 3
	"$EXMAP" -p "$pids" "$@" >"$T/live" 2>"$T/live.err"; rl=$?
	"$EXMAP" -l "$cap" "$@" >"$T/load" 2>"$T/load.err"; rc=$?
	if [ $rl -eq $rc ] && [ -s "$T/live" ] && cmp -s "$T/live" "$T/load"; then
		ok "$name: $* as live (exit $rc)"
	else
		no "$name: $* as live" "exit $rl live, $rc loaded; $(diff "$T/live" "$T/load" | head -4 | tr '\n' ' ') $(head -2 "$T/load.err")"
	fi
}

start a "$T/bin/wl" -n 3 -f 256 -c 256 -p 128 -z 64
PIDS_a=$PIDS
"$EXMAP" -p "$PIDS_a" dump >"$T/a.cap" 2>"$T/err"; rc=$?
check_eq "dump exits 0" "$rc" 0
head -1 "$T/a.cap" | grep -q '^XM begin v2 ps=[0-9]* chunks=8 ids=[0-9]* procs=4 ' &&
	ok "begin line: version 2, page size, 4 processes, 8 chunks" || no "begin line" "$(head -1 "$T/a.cap")"
tail -1 "$T/a.cap" | grep -q '^XM end v2 ' && ok "end line" || no "end line" "$(tail -1 "$T/a.cap")"
bad=$(grep -cv '^XM [0-9a-z]' "$T/a.cap")
check_eq "every line is a capture line" "$bad" 0
long=$(awk 'length($0) > 200' "$T/a.cap" | wc -l)
check_eq "no capture line is over 200 characters (the workload's)" "$long" 0
# The checksums are plain CRC-32 (zlib's), so any tool can verify a capture.
check_eq "every chunk's line count and CRC-32, and the begin and end lines', check out with zlib" \
	"$(python3 "$TESTS/lib/capwire.py" verify "$T/a.cap")" "10 0"
# From a pipe (ssh board exmap-mini dump | exmap-mini -l -): the same report
# as from the file; one capture at most on standard input.
"$EXMAP" -l "$T/a.cap" -c files >"$T/fromfile" 2>&1
cat "$T/a.cap" | "$EXMAP" -l - -c files >"$T/frompipe" 2>&1
check_cmd "-l - (a pipe): the report the file gives" same_file "$T/fromfile" "$T/frompipe"
cat "$T/a.cap" | "$EXMAP" -l /dev/stdin -c files >"$T/frompipe" 2>&1
check_cmd "-l /dev/stdin (a pipe): the same" same_file "$T/fromfile" "$T/frompipe"
"$EXMAP" -l - -c files <"$T/a.cap" >"$T/frompipe" 2>&1
check_cmd "-l - (a file on standard input, read twice from its start): the same" \
	same_file "$T/fromfile" "$T/frompipe"
cat "$T/a.cap" | "$EXMAP" diff - - >/dev/null 2>"$T/err"
check_eq "diff - -: exit 2, one capture at most from standard input" "$? $(cat "$T/err")" \
	"2 exmap-mini: -: only one capture can come from standard input (-@N picks one of its captures)"
"$EXMAP" -l - </dev/null >/dev/null 2>"$T/err"
check_eq "-l - with nothing on it: exit 2, no capture in it" "$? $(cut -c1-39 "$T/err")" \
	"2 exmap-mini: -: no capture in it (no \"XM"
set -- $(echo "$PIDS_a" | tr ',' ' ')
A1=$1 A2=$2
for v in "procs" "-c procs" "-k -s name procs" "files" "-c files" "-n 3 -s writable files" \
	 "maps $A1" "-c maps $A2" "sections $T/bin/wl" "-c sections $T/bin/wl" \
	 "symbols $T/bin/wl" "-c -n 8 symbols $T/bin/wl .bss"; do
	# shellcheck disable=SC2086
	same_view "workload" "$T/a.cap" "$PIDS_a" $v
done
"$EXMAP" -p "$PIDS_a" procs >"$T/a.procs"
"$EXMAP" -p "$PIDS_a" -c procs >"$T/a.csv"

# --- a raw console log ---------------------------------------------------
# printk lines between capture lines and cutting into them, CRLF, a prompt
# (tests/lib/capwire.py's console_log)
python3 "$TESTS/lib/capwire.py" console --seed 7 "$T/a.cap" "$T/noisy.log"
"$EXMAP" -l "$T/noisy.log" procs >"$T/out" 2>"$T/err"; rc=$?
if [ $rc -eq 0 ] && cmp -s "$T/out" "$T/a.procs" && [ ! -s "$T/err" ]; then
	ok "console log (printk in and between lines, CRLF, prompt): procs as live, exit 0"
else
	no "console log loads as live" "exit $rc: $(head -3 "$T/err")"
fi
"$EXMAP" -l "$T/noisy.log" -c procs >"$T/out" 2>/dev/null
cmp -s "$T/out" "$T/a.csv" && ok "console log: -c procs as live" || no "console log: -c procs as live"

# damage LABEL AWKPROG: the capture through AWKPROG, then as a console shows
# it (the noise as in noisy.log), loaded
damage() {
	awk "$2" "$T/a.cap" >"$T/$1.cap"
	python3 "$TESTS/lib/capwire.py" console --seed 7 "$T/$1.cap" "$T/$1.log"
	"$EXMAP" -l "$T/$1.log" procs >"$T/out" 2>"$T/err"
}
# rows_kept: every process row loaded is a row of the live report
rows_kept() {
	grep -E '^ +[0-9]+ ' "$T/out" | grep -v ' process' | while IFS= read -r row; do
		grep -qxF "$row" "$T/a.procs" || echo "made up: $row"
	done
}

damage changed '!done && /^XM 5 m / { sub(/ r/, " R"); done = 1 } { print }'
rc=$?
if [ $rc -eq 4 ] && grep -q "chunk 5 of 8 (pid $A2).*checksum mismatch" "$T/err"; then
	ok "one changed character: exit 4, chunk 5 (pid $A2) named"
else
	no "one changed character" "exit $rc: $(cat "$T/err")"
fi
check_eq "changed: pid $A2 left out, the rest as live" "$(rows_kept)$(grep -c "^ *$A2 " "$T/out")" 0
grep -q '^check: not made: 1 process of the capture did not load' "$T/out" &&
	ok "changed: the self-check says why it is not made" || no "changed: check line" "$(grep check "$T/out")"

damage dropped '!done && /^XM 6 r / { done = 1; next } { print }'
rc=$?
if [ $rc -eq 4 ] && grep -q "chunk 6 of 8 (pid [0-9]*), log lines [0-9]*-[0-9]*: lines are missing" "$T/err"; then
	ok "one dropped line: exit 4, chunk 6 named, lines missing"
else
	no "one dropped line" "exit $rc: $(cat "$T/err")"
fi
check_eq "dropped: no row made up" "$(rows_kept)" ""

damage counts '/^XM 3 n / && !done { done = 1; next } { print }'
rc=$?
if [ $rc -eq 4 ] && grep -q "chunk 3 of 8 (share counts of pages .*recomputed" "$T/err" &&
   cmp -s "$T/out" "$T/a.procs"; then
	ok "share counts lost, every process intact: recomputed, report as live, exit 4"
else
	no "share counts lost" "exit $rc: $(cat "$T/err")"
fi
damage countsproc '/^XM 3 n / && !d1 { d1 = 1; next } /^XM 4 m / && !d2 { d2 = 1; next } { print }'
rc=$?
if [ $rc -eq 4 ] && grep -q "uses pages whose share counts are lost: left out" "$T/err"; then
	ok "share counts and a process lost: processes using them left out, exit 4"
else
	no "share counts and a process lost" "exit $rc: $(cat "$T/err")"
fi
check_eq "counts and a process lost: no row made up" "$(rows_kept)" ""

damage bids '/^XM 8 b / && !done { sub(/b /, "b  "); done = 1 } { print }'
rc=$?
if [ $rc -eq 4 ] && cmp -s "$T/out" "$T/a.procs"; then
	ok "build-ids lost: procs as live, exit 4"
else
	no "build-ids lost" "exit $rc: $(cat "$T/err")"
fi
"$EXMAP" -l "$T/bids.log" sections "$T/bin/wl" >"$T/out" 2>"$T/err"; rc=$?
if [ $rc -eq 4 ] && grep -q "build-ids were lost" "$T/err" && [ ! -s "$T/out" ]; then
	ok "build-ids lost: sections not shown unchecked, exit 4"
else
	no "build-ids lost: sections" "exit $rc: $(cat "$T/err")"
fi

damage begin '/^XM begin/ { sub(/ps=/, "pz=") } { print }'
rc=$?
if [ $rc -eq 0 ] && cmp -s "$T/out" "$T/a.procs" && grep -q "begin line is damaged: its end line stands in" "$T/err"; then
	ok "begin line damaged: the end line stands in, as live"
else
	no "begin line damaged" "exit $rc: $(cat "$T/err")"
fi
damage both '/^XM (begin|end)/ { sub(/ps=/, "pz=") } { print }'
rc=$?
if [ $rc -eq 4 ] && grep -q "begin and end lines are both damaged" "$T/err" && [ ! -s "$T/out" ]; then
	ok "begin and end lines damaged: exit 4, nothing shown"
else
	no "begin and end damaged" "exit $rc: $(cat "$T/err")"
fi
awk '/^XM 6 \. / { exit } { print }' "$T/a.cap" >"$T/cut.log"
"$EXMAP" -l "$T/cut.log" procs >"$T/out" 2>"$T/err"; rc=$?
if [ $rc -eq 4 ] && grep -q "ends before the capture's end line" "$T/err" &&
   grep -q "chunk 6 of 8 (pid [0-9]*), log lines [0-9]*-[0-9]*: cut short: its end line is missing" "$T/err" &&
   grep -q "chunk 7 of 8 (a process): missing from the log" "$T/err" &&
   grep -q "chunk 8 of 8 (build-ids): missing from the log" "$T/err"; then
	ok "log cut short: chunks 6 (cut), 7 and 8 (missing) named, exit 4"
else
	no "log cut short" "exit $rc: $(cat "$T/err")"
fi
check_eq "cut short: no row made up" "$(rows_kept)" ""
# v2 puts the share counts first: the processes whose chunks came before
# the cut (chunks 4 and 5) load, with the figures they have live.
check_eq "cut short: the 2 processes whose chunks came before the cut are there" \
	"$(grep -E '^ +[0-9]+ ' "$T/out" | grep -cv ' process')" 2

# --- format v2: lines of 256 characters at most; a cut after every line ----
# A command line and a mapped file's path of about 3 KB each (a console or
# logger may cut lines of more than 256): "+ " lines carry the rest.
long=$T
for i in 1 2 3 4 5 6 7 8 9 10 11; do
	long=$long/$(printf '%0250d' "$i" | tr 0 "$(echo abcdefghijk | cut -c"$i")")
done
mkdir -p "$long"
start_workload "$T/long.out" "$T/bin/wl" -n 1 -f 64 -d "$long" ||
	{ echo "workload long did not start: $(cat "$T/long.out.err")"; exit 2; }
PIDS_TO_KILL="$PIDS_TO_KILL $WL_PID"
PIDS_long=$(echo "$READY" | tr ' ' ',')
args=$(printf 'arg%%20with%%2Cspace %.0s' $(seq 1 150))
sh -c 'sleep 300; :' "$args" "second arg" >/dev/null 2>&1 &
SH=$!
PIDS_TO_KILL="$PIDS_TO_KILL $SH"
# until it runs sh -c (its sleep started): before, it is a copy of this shell
i=0
until [ -n "$(pgrep -P "$SH" sleep)" ] || [ $i -ge 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
"$EXMAP" -p "$PIDS_long,$SH" dump >"$T/long.cap" 2>"$T/err"
check_eq "dump of the long names exits 0" "$?" 0 "$(cat "$T/err")"
check_eq "no capture line is over 256 characters" \
	"$(awk 'length($0) > 256' "$T/long.cap" | wc -l)" 0
check_cmd "the long names go on in continued (\"+ \") lines: 20 at least" \
	within 20 "$(grep -c '^XM [0-9]* + ' "$T/long.cap")" ""
check_eq "continued lines: every chunk's line count and CRC-32 check out" \
	"$(python3 "$TESTS/lib/capwire.py" verify "$T/long.cap")" "$(($(grep -c '^XM [0-9]* \. ' "$T/long.cap") + 2)) 0"
set -- $(echo "$PIDS_long" | tr ',' ' ')
for v in "-c maps $2" "-c files" "-c procs"; do
	# shellcheck disable=SC2086
	same_view "long names" "$T/long.cap" "$PIDS_long,$SH" $v
done
"$EXMAP" -l "$T/long.cap" -c files | grep -qF "$long/workload." &&
	ok "the 3 KB path comes back whole (files)" || no "the 3 KB path comes back whole (files)"
want="sh,sh -c sleep 300; : $args second arg"
"$EXMAP" -a -c diff "$T/long.cap" "$T/long.cap" >"$T/out" 2>"$T/err"
check_cmd "the 3 KB command line comes back whole (diff's cmdline field)" has "proc,$want," "$T/out"
python3 "$TESTS/lib/capwire.py" console --seed 11 "$T/long.cap" "$T/long.log"
"$EXMAP" -l "$T/long.log" -c maps "$2" >"$T/out" 2>"$T/err"
"$EXMAP" -l "$T/long.cap" -c maps "$2" >"$T/want" 2>/dev/null
check_cmd "continued lines through a noisy console: maps as from the clean capture" \
	same_file "$T/want" "$T/out"

# Every cut, after each line: tests/lib/capture_cut.py
for c in a long; do
	run_checks "capture_cut.py $c" python3 "$TESTS/lib/capture_cut.py" "$EXMAP" "$T/$c.cap" "$T"
done

# --- the ram view from a capture ----------------------------------------------
# dump records the ram view's figures (chunk 2): loaded, the view has the
# same lines as live; those that do not move (installed, reserved, the kernel
# image, MemTotal) are exact, the rest within 1% of RAM of a live view taken
# just after.
"$EXMAP" dump >"$T/ram.cap" 2>/dev/null
"$EXMAP" -c ram >"$T/ram.live" 2>/dev/null
"$EXMAP" -l "$T/ram.cap" -c ram >"$T/ram.load" 2>"$T/err"; rc=$?
check_cmd "-l CAPTURE -c ram: exit 0 or 1 (a process unreadable here)" within 0 "$rc" 1
check_eq "-l CAPTURE -c ram: the live view's lines, in its order" \
	"$(cut -d, -f1-3 "$T/ram.load" | md5sum)" "$(cut -d, -f1-3 "$T/ram.live" | md5sum)"
check_eq "-l CAPTURE -c ram: installed, reserved and MemTotal exactly as live" \
	"$(grep -E '^(installed|reserved|memtotal),' "$T/ram.load")" \
	"$(grep -E '^(installed|reserved|memtotal),' "$T/ram.live")"
ramb=$(awk -F, '$1 == "installed" { print $4 }' "$T/ram.live")
far=$(paste -d, "$T/ram.load" "$T/ram.live" | awk -F, -v tol="$ramb" 'NR > 1 {
	d = $4 - $9; if (d < 0) d = -d; if (d * 100 > tol) print $1 "," $2 "," $3 ": " $4 " against " $9 }')
check_eq "-l CAPTURE -c ram: every figure within 1% of RAM of live" "$far" ""
"$EXMAP" -l "$T/ram.cap" ram >"$T/out" 2>/dev/null
check_eq "-l CAPTURE ram: text, 80 columns" "$(awk 'length($0) > 80' "$T/out" | wc -l)" 0
# (its first digit another: a MemFree that began with 9 left it whole)
awk '/^XM 2 i MemFree / && !done { if (!sub(/MemFree [0-8]/, "MemFree 9")) sub(/MemFree 9/, "MemFree 1")
	done = 1 } { print }' \
	"$T/ram.cap" >"$T/ramdmg.log"
"$EXMAP" -l "$T/ramdmg.log" ram >"$T/out" 2>"$T/err"; rc=$?
check_eq "ram chunk damaged: exit 4, chunk 2 named, the view not shown" \
	"$rc $(grep -c 'chunk 2 of [0-9]* (the ram view).*checksum mismatch' "$T/err") $(wc -c <"$T/out")" "4 1 0"
"$EXMAP" -l "$T/ramdmg.log" -c procs >"$T/out" 2>/dev/null; rc=$?
"$EXMAP" -l "$T/ram.cap" -c procs >"$T/want" 2>/dev/null
check_eq "ram chunk damaged: procs as from the whole capture, exit 4" \
	"$rc $(cmp -s "$T/out" "$T/want" && echo same)" "4 same"

# --- format v1 (before the share counts came first) still loads -----------
# tests/data/capture-v1.log: a workload of three processes (workload -n 2
# -f 64 -c 64 -p 32 -z 16), stopped, dumped by exmap-mini at a0c20e4 (v1);
# the .csv files are that binary's live views of the same moment, the
# .smaps file the kernel's Rss and Pss (KiB) for each pid.
D=$TESTS/data
v1pid=$(ls "$D"/capture-v1.maps-*.csv | sed 's/.*maps-\([0-9]*\)\.csv/\1/')
for v in procs files "maps $v1pid"; do
	# shellcheck disable=SC2086
	"$EXMAP" -l "$D/capture-v1.log" -c $v >"$T/out" 2>"$T/err"
	rc=$?
	f=$D/capture-v1.$(echo "$v" | tr ' ' '-').csv
	check_eq "v1 capture: -c $v exits 0, quiet" "$rc $(cat "$T/err")" "0 "
	if [ "$v" = procs ]; then	# its dma-buf columns, newer: empty (not known)
		check_eq "v1 capture: -c procs: dmabuf and eff_dmabuf empty in every row" \
			"$(sed 1d "$T/out" | grep -cv ',,$')" 0
		sed -i -e '1s/,dmabuf,eff_dmabuf$//' -e '2,$s/,,$//' "$T/out"
	fi
	check_cmd "v1 capture: -c $v as the live view it was taken with" same_file "$f" "$T/out"
done
"$EXMAP" -l "$D/capture-v1.log" ram >/dev/null 2>"$T/err"
check_eq "v1 capture: ram refused in one line, exit 2" "$? $(cat "$T/err")" \
	"2 exmap-mini: $D/capture-v1.log: a v1 capture does not hold the ram view"
"$EXMAP" -l "$D/capture-v1.log" -c procs >"$T/v1.procs" 2>/dev/null
while read -r pid _ rss _ pss; do
	check_eq "v1 capture: pid $pid resident = the kernel's Rss then" \
		"$(awk -F, -v p="$pid" '$1 == p { print $5 }' "$T/v1.procs")" $((rss * 1024))
	check_num "v1 capture: pid $pid eff_resident = the kernel's Pss then" \
		"$(awk -F, -v p="$pid" '$1 == p { print $7 }' "$T/v1.procs")" $((pss * 1024)) 8192
done <"$D/capture-v1.smaps"

# --- the processes the board could not read are named, with the reason ------
# A v2 capture carries each unreadable pid and its strerror() in chunk 1: made
# here by editing a.cap's (the CRCs redone), then loaded by -l and by diff.
python3 "$TESTS/lib/capwire.py" unreadable 2 "$T/a.cap" "$T/unread.cap" 4242 "Permission denied" \
	4343 "No such device"
for how in "-l $T/unread.cap procs" "diff $T/a.cap $T/unread.cap"; do
	# shellcheck disable=SC2086
	"$EXMAP" $how >/dev/null 2>"$T/err"; rc=$?
	check_eq "$(echo "$how" | cut -d' ' -f1) of a capture that names 2 unreadable processes: exit 1, each named with its reason" \
		"$rc $(grep -c 'pid 4242 could not be read when the capture was taken: Permission denied' "$T/err") $(grep -c 'pid 4343 could not be read when the capture was taken: No such device' "$T/err")" "1 1 1"
done
# the v1 capture with its count of unreadable processes raised: said, unnamed
python3 "$TESTS/lib/capwire.py" unreadable 3 "$D/capture-v1.log" "$T/v1u.log"
"$EXMAP" -l "$T/v1u.log" procs >/dev/null 2>"$T/err"
check_eq "a v1 capture with 3 unreadable processes: exit 1, said that v1 does not name them" \
	"$? $(head -1 "$T/err")" "1 exmap-mini: $T/v1u.log: 3 processes could not be read when the capture was taken (a v1 capture does not name them)"
# Live, where some process is unreadable even to root (pid 1 in a container
# that hides it): the dump names it with the kernel's reason, and so does -l.
unr=
for p in $(ls /proc | grep '^[0-9]*$'); do
	err=$(cat /proc/$p/maps 2>&1 >/dev/null) || { case $err in *"Permission denied"*) unr=$p; break ;; esac; }
done
if [ -n "$unr" ]; then
	"$EXMAP" -p "$unr,$PIDS_a" dump >"$T/u.cap" 2>/dev/null
	grep -q "^XM 1 u $unr Permission%20denied\$" "$T/u.cap" &&
		ok "dump names pid $unr, unreadable here, and why" || no "dump names pid $unr" "$(grep '^XM 1 ' "$T/u.cap")"
	"$EXMAP" -l "$T/u.cap" >/dev/null 2>"$T/err"
	check_eq "-l names pid $unr with its reason, exit 1" "$? $(head -1 "$T/err")" \
		"1 exmap-mini: $T/u.cap: pid $unr could not be read when the capture was taken: Permission denied"
else
	echo "(no process here is unreadable to root: the live unreadable check is not made)"
fi

cat "$T/a.cap" "$T/a.cap" >"$T/twice.log"
"$EXMAP" -l "$T/twice.log" procs >"$T/out" 2>"$T/err"; rc=$?
if [ $rc -eq 0 ] && cmp -s "$T/out" "$T/a.procs" && grep -q "holds 2 captures: the last" "$T/err"; then
	ok "two captures in one log: the last is loaded, and said"
else
	no "two captures" "exit $rc: $(cat "$T/err")"
fi
sed 's/^XM begin v2 /XM begin v3 /; s/^XM end v2 /XM end v3 /' "$T/a.cap" >"$T/v3.log"
"$EXMAP" -l "$T/v3.log" >/dev/null 2>"$T/err"; rc=$?
if [ $rc -eq 2 ] && grep -q "format v3: this exmap-mini reads v1 to v2" "$T/err"; then
	ok "a capture of a newer format: exit 2, versions named"
else
	no "newer format" "exit $rc: $(cat "$T/err")"
fi
for f in /dev/null /etc/hostname "$T"; do
	"$EXMAP" -l "$f" >/dev/null 2>"$T/err"; rc=$?
	if [ $rc -eq 2 ] && grep -q "exmap-mini: $f" "$T/err"; then ok "-l $f: exit 2, said"
	else no "-l $f" "exit $rc: $(cat "$T/err")"; fi
done
for args in "-l $T/a.cap -p 1" "-l $T/a.cap -b pagemap" "-l $T/a.cap dump" \
	    "-l $T/a.cap diff a b" "-S / procs" "--budget x procs" "--budget =1M procs" \
	    "diff $T/a.cap" "-s writable dump"; do
	# shellcheck disable=SC2086
	"$EXMAP" $args >/dev/null 2>"$T/err"; rc=$?
	if [ $rc -eq 2 ] && [ -s "$T/err" ]; then ok "misuse '$args' exits 2 with a message"
	else no "misuse '$args'" "exit $rc"; fi
done

# --- everything: a process unreadable at capture is carried ----------------
"$EXMAP" dump >"$T/all.cap" 2>"$T/err"; rd=$?
"$EXMAP" -l "$T/all.cap" >"$T/out" 2>"$T/err2"; rl=$?
procs=$(sed -n 's/^XM begin .* procs=\([0-9]*\) .*/\1/p' "$T/all.cap")
unread=$(sed -n 's/^XM begin .* unreadable=\([0-9]*\) .*/\1/p' "$T/all.cap")
if [ "$rd" -eq "$rl" ] && { [ "$unread" -eq 0 ] || grep -q "could not be read: figures are partial" "$T/err2"; } &&
   grep -q "^ *$procs processes" "$T/out" && grep -q '^check: .*: ok' "$T/out"; then
	ok "whole machine: $procs processes, $unread unreadable, exit $rl as the dump's, check ok"
else
	no "whole machine capture" "dump $rd, load $rl: $(cat "$T/err2")"
fi

. "$TESTS/lib/capture_host_diff.sh"	# diff and budgets
. "$TESTS/lib/capture_host_logs.sh"	# several captures in a log, no capture

# --- a capture's paths are its board's -----------------------------------------
# The board's /bin is a directory, this machine's a link to usr/bin: the
# capture names $T/lnk/real/wl, which here is a link to real2/wl. -F, the
# sections view and a budget take the path as the capture names it. With
# the file gone from this machine too, sections says so once.
mkdir -p "$T/lnk/real"
cp "$T/bin/wl" "$T/lnk/real/wl"
$MUSLCC -static -O2 -Wl,--build-id=none -o "$T/lnk/real/wlnoid" "$WORKLOAD_SRC" "$WL_C" ||
	{ echo "cannot build"; exit 2; }
start l1 "$T/lnk/real/wl" -n 1 -f 64 -c 64 -p 64
PIDS_l=$PIDS
start l2 "$T/lnk/real/wlnoid" -n 1 -f 64 -c 64 -p 64
PIDS_l="$PIDS_l,$PIDS"
"$EXMAP" -p "$PIDS_l" dump >"$T/lnk.cap" 2>/dev/null
mv "$T/lnk/real" "$T/lnk/real2" && ln -s real2 "$T/lnk/real"
for f in wl wlnoid; do
	"$EXMAP" -l "$T/lnk.cap" -F "$T/lnk/real/$f" -c files >"$T/out" 2>"$T/err"
	check_eq "-F $T/lnk/real/$f, a link here: the capture's file, as it names it" \
		"$? $(cut -d, -f1 "$T/out" | sed 1d)" "0 $T/lnk/real/$f" "$(cat "$T/err")"
	"$EXMAP" -l "$T/lnk.cap" sections "$T/lnk/real/$f" >"$T/out" 2>"$T/err"
	check_eq "sections $T/lnk/real/$f: exit 0, its sections" "$? $(grep -c '^\.text ' "$T/out")" \
		"0 1" "$(cat "$T/err")"
done
"$EXMAP" -l "$T/lnk.cap" --budget "$T/lnk/real/wl=1G" >"$T/out" 2>"$T/err"
check_eq "--budget $T/lnk/real/wl=1G: the capture's file, ok" \
	"$? $(grep -c "^budget $T/lnk/real/wl: eff_resident .*: ok$" "$T/out")" "0 1" "$(cat "$T/err")"
"$EXMAP" -l "$T/lnk.cap" -F "$T/lnk/real2/wl" >"$T/out" 2>"$T/err"
check_eq "-F $T/lnk/real2/wl (where the link leads here): no such file in the capture, exit 2" \
	"$? $(cat "$T/err")" \
	"2 exmap-mini: $T/lnk/real2/wl: no process of the capture maps such a file (the files view lists the paths it has)"
rm -rf "$T/lnk/real2"
for f in wl wlnoid; do
	"$EXMAP" -l "$T/lnk.cap" sections "$T/lnk/real/$f" >"$T/out" 2>"$T/err"
	check_eq "sections $T/lnk/real/$f, gone from this machine: exit 2, one line, the path once" \
		"$? $(cat "$T/err") $(wc -c <"$T/out")" \
		"2 exmap-mini: $T/lnk/real/$f: not on this machine (a capture's files are its board's: -S names the board's root) 0"
done

# --- symbols of a stripped binary through a sysroot ----------------------
"$EXMAP" -l "$T/b.cap" symbols "$T/bin/wls" >"$T/out" 2>"$T/err"; rc=$?
# no symbol's row but [no symbol] (all of its sections) and the total
if grep -q "no symbol table (stripped)" "$T/err" &&
	[ "$(grep -cv '^SYMBOL \|^\[no symbol\] \|^(total) ' "$T/out")" -eq 0 ]; then
	ok "stripped binary without a sysroot: no symbols, said (exit $rc)"
else no "stripped without sysroot" "exit $rc: $(cat "$T/err")"; fi
"$EXMAP" -l "$T/b.cap" -S "$T/sysroot" -c symbols "$T/bin/wls" >"$T/syms" 2>"$T/err"; rc=$?
if [ $rc -eq 0 ] && grep -q "from $T/sysroot$T/bin/wls, whose build-id matches" "$T/err"; then
	ok "stripped binary with -S: its twin is used, by build-id"
else no "stripped binary with -S" "exit $rc: $(cat "$T/err")"; fi
# Every symbol of the twin with a size in an allocated section is listed.
readelf -sW "$T/sysroot$T/bin/wls" | awk '$3 > 0 && $4 != "SECTION" && $4 != "FILE" && $4 != "TLS" && $7 ~ /^[0-9]+$/ { print $8 }' |
	sort -u >"$T/want.names"
# (each name, aliases too: the CSV's first and last columns)
sed 1d "$T/syms" | awk -F, '$1 != "[no symbol]" { print $1; n = split($NF, a, " "); for (i = 1; i <= n; i++) print a[i] }' |
	sort -u >"$T/got.names"
if [ -s "$T/want.names" ] && cmp -s "$T/want.names" "$T/got.names"; then
	ok "-S: the symbols are the twin's ($(wc -l <"$T/want.names"), readelf)"
else no "-S symbols are the twin's" "$(diff "$T/want.names" "$T/got.names" | head -5 | tr '\n' ' ')"; fi
# The same program unstripped, on its own file, live, did the same work: the
# twin's symbols from the capture carry the figures the live scan gives it
# (name and the eight figures: the path column names each its own file).
"$EXMAP" -p "$PIDS_c" -c symbols "$T/bin/wl2" >"$T/live.syms" 2>/dev/null
cut -d, -f1,5-12 "$T/syms" | sort >"$T/s1"
cut -d, -f1,5-12 "$T/live.syms" | sort >"$T/s2"
if [ "$(wc -l <"$T/s1")" -gt 100 ] && cmp -s "$T/s1" "$T/s2"; then
	ok "-S: every symbol's eight figures are those of the same program scanned live"
else
	no "-S: figures as live" "$(diff "$T/s1" "$T/s2" | head -4 | tr '\n' ' ')"
fi
"$EXMAP" -l "$T/b.cap" -S "$T/other" symbols "$T/bin/wls" >"$T/out" 2>"$T/err"; rc=$?
if [ $rc -eq 2 ] && grep -q "has build-id 0123456789abcdef, the capture has [0-9a-f]*: not used" "$T/err" &&
   [ ! -s "$T/out" ]; then
	ok "-S with a twin of another build-id: reported, not used, exit 2"
else no "-S mismatched build-id" "exit $rc: $(cat "$T/err")"; fi

finish
