#!/bin/sh
# The capture test: exmap-mini dump on an emulated board, loaded on the host.
# One boot of Debian bookworm's armmp kernel in qemu-system-arm -M virt (TCG)
# with a busybox initramfs: tests/guest/capture_guest.sh runs there (see it for
# what it does). The board's serial console is logged raw, kernel messages
# and all (test.loglevel=7, printk noise written all through the captures),
# and its capture is loaded from that log by the host's build/exmap-mini:
#   - every view (procs, files, maps, sections, symbols, with -c -k -q -s -n)
#     renders from the capture exactly as it rendered live, with its exit
#     status; the live process set did not change meanwhile; capture B too;
#     the whole log (A then B) loads the last, B; its @1 is A, its captures
#     listed whole, and diff of its @1 and @2 is diff of A and B cut apart;
#   - tests/lib/noise.py's variants of the log: CRLF, more printk lines,
#     some cut into capture lines, a prompt and partial lines around (a): the same
#     views, exit 0; one digit changed (b) or one line dropped (c) in a
#     process's chunk: exit 4, the chunk and its log lines named on stderr,
#     every other process still shown; the begin line damaged: survived;
#     the build-id or share-count chunk damaged: exit 4, processes all there;
#   - -S SYSROOT: the stripped board program's symbols through its
#     unstripped twin, found by build-id; none without -S or with a twin
#     whose build-id differs, and stderr says why;
#   - diff of two captures (workload -p PRIV_A, then -p PRIV_B) against the
#     live figures and the workload's parameters; --budget under and over,
#     for a process name and a file, from a capture and live;
#   - metrics on the board (-o, before capture B): promtool check metrics,
#     its processes and files as capture B's metrics on the host; the series
#     count of capture A's (tests/lib/metrics_check.py count);
#   - the capture's size, and its time at 115200 baud ("capture size:"), its
#     metrics' series and bytes ("metrics of the emulated board:").
# usage: tests/suites/capture_test.sh    env: EXMAP (build/exmap-mini), CAPTURE_SEED (1)
# Needs: make ARCH=arm all build/arm/tools/workload build/arm/capture/prog
# build/arm/capture/prog.stripped, and make all. Work dir build/qemu/capture.
# Last line: N passed, N failed.
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib/lib.sh
X=${EXMAP:-build/exmap-mini}
SEED=${CAPTURE_SEED:-1}
N=3 FILE_KIB=256 COW_KIB=256 PRIV_A=128 PRIV_B=256
w=build/qemu/capture

first() { head -c 300 "$1" | tr '\n' ' '; }

# The views compared, NAME|ARGS (the guest puts W1's pids for @PARENT@ and
# @CHILD@). sections and symbols load with -S (the ELF files are the host's).
views='procs|procs
procs.c|-c procs
procs.k|-k -q -s vm procs
procs.n|-n 5 -s name procs
files|files
files.c|-c files
files.k|-k -s nproc -n 12 files
maps|maps @CHILD@
maps.c|-c maps @PARENT@
maps.s|-s address -n 8 maps @CHILD@
sections|sections /test/workload
sections.c|-c sections /test/workload
symbols|-n 15 symbols /test/workload
symbols.c|-c symbols /test/workload
symbols.bss|-s name symbols /test/workload .bss
psections|sections /test/sbin/prog
psymbols|-c symbols /test/sbin/prog
usymbols|-c symbols /test/ubin/prog'

rm -rf "$w" && mkdir -p "$w/test/sbin" "$w/test/ubin" "$w/host" || { no "$w: cannot create"; finish; }
for f in "$X" build/arm/exmap-mini build/arm/tools/workload build/arm/capture/prog \
	build/arm/capture/prog.stripped; do
	[ -x "$f" ] || { no "$f is not built (make test builds it)"; finish; }
done
for b in "$X" build/arm/exmap-mini; do
	case $b in build/arm/*) h=$(qemu-arm-static "$b" -h 2>&1) ;; *) h=$("$b" -h 2>&1) ;; esac
	# both dump and watch; a board build's -h has no -l (LOAD=0), the host's has
	printf '%s\n' "$h" | grep -q 'dump' && printf '%s\n' "$h" | grep -q 'watch interval' &&
		case $b in build/arm/*) ! printf '%s\n' "$h" | grep -q -- '-l capture' ;;
		*) printf '%s\n' "$h" | grep -q -- '-l capture' ;; esac ||
		{ no "$b -h: not this tree's build (dump, watch; -l on the host alone)?"; finish; }
done

# The board: kernel, initramfs, boot.
toolchain/kernel fetch bookworm armhf >"$w/fetch.log" 2>&1 || { cat "$w/fetch.log"; no "kernel fetch"; finish; }
eval "$(toolchain/kernel path bookworm armhf)"
cp build/arm/exmap-mini build/arm/tools/workload "$w/test/" &&
	cp build/arm/capture/prog.stripped "$w/test/sbin/prog" &&
	cp build/arm/capture/prog "$w/test/ubin/prog" &&
	cp tests/guest/capture_guest.sh "$w/test/run.sh" || { no "staging $w/test"; finish; }
printf '%s\n' "$views" >"$w/test/views"
printf 'N=%s FILE_KIB=%s COW_KIB=%s PRIV_A=%s PRIV_B=%s\n' $N $FILE_KIB $COW_KIB $PRIV_A $PRIV_B \
	>"$w/test/params"
# The host's sysroot: the board's ELF files unstripped, at their paths.
S=$w/sysroot
mkdir -p "$S/test/sbin" "$S/test/ubin" && cp build/arm/tools/workload "$S/test/" &&
	cp build/arm/capture/prog "$S/test/sbin/prog" && cp build/arm/capture/prog "$S/test/ubin/prog" ||
	{ no "sysroot"; finish; }
tests/qemu/initramfs armhf "$w/initramfs.cpio.gz" "$w"/test/* >"$w/initramfs.log" 2>&1 ||
	{ cat "$w/initramfs.log"; no "initramfs"; finish; }
t0=$(date +%s)
QEMU_APPEND="test.loglevel=7 printk.devkmsg=on" \
	tests/qemu/boot armhf "$image" "$w/initramfs.cpio.gz" "$w/console.log" 300 2>"$w/boot.log"
rc=$?
check_eq "board booted, ran and powered off ($(($(date +%s) - t0)) s)" "$rc" 0 \
	"boot exit $rc: $(cat "$w/boot.log"), see $w/console.log"
[ $rc -eq 0 ] || finish
o=$w/out
if ! tests/qemu/unframe "$w/console.log" "$o" >"$w/unframe.log" 2>&1; then
	no "the live results came back whole over the serial console" "$(cat "$w/unframe.log")"
	finish
fi
ok "the live results came back whole over the serial console"

# The raw log cut in two at the guest's marks: capture A with the boot log
# before it, capture B with what came between.
LC_ALL=C awk -v a="$w/capA.log" -v b="$w/capB.log" '
	{ print > (part ? b : a) }
	index($0, "capture-mark A end") { part = 1 }
	index($0, "capture-mark B end") { exit }' "$w/console.log"
if grep -q '^XM ' "$w/capA.log" && grep -q '^XM ' "$w/capB.log"; then
	ok "both captures are in the console log"
else
	no "both captures are in the console log" "see $w/console.log"
fi
check_eq "dump exited 0 on the board (A and B)" "$(cat "$o/dumpA.rc") $(cat "$o/dumpB.rc")" "0 0" \
	"A $(cat "$o/dumpA.rc"), B $(cat "$o/dumpB.rc")"
set -- $(sed -n 's/^ready //p' "$o/w1")
w1="$*"
set -- $(sed -n 's/^ready //p' "$o/w2")
w2="$*"
if [ -n "$w1" ] && [ -n "$w2" ]; then
	ok "workloads ready (W1: $w1; W2: $w2)"
else
	no "workloads ready (W1: $w1; W2: $w2)"
fi
check_cmd "the system was quiescent: -c procs the same before and after the dump" \
	same_file "$o/procs.c" "$o/quiet.after"

# The capture's size: its own lines, kernel messages taken out.
python3 tests/lib/noise.py clean "$w/capA.log" "$w/capA.clean"
bytes=$(wc -c <"$w/capA.clean") lines=$(wc -l <"$w/capA.clean")
secs=$(awk -v b="$bytes" -v l="$lines" 'BEGIN { printf "%.1f", (b + l) * 10 / 115200 }')
echo "capture size: $bytes bytes in $lines lines ($(( (bytes + 1023) / 1024 )) KiB), $secs s at 115200 baud (10 bits a byte, CRLF)"
check_cmd "the capture is at most 64 KiB ($bytes bytes)" within 1 "$bytes" 65536

# load LOG NAME OUTPREFIX [OPTION...]: the view NAME (args from the guest's
# views file) loaded from LOG, into OUTPREFIX{,.err,.rc}.
viewargs() { sed -n "s/^$1 //p" "$o/views"; }
load() {
	_log=$1 _name=$2 _out=$3
	shift 3
	_args=$(viewargs "$_name")
	case $_args in *sections*|*symbols*) set -- "$@" -S "$S" ;; esac
	"$X" -l "$_log" "$@" $_args >"$_out" 2>"$_out.err"
	echo $? >"$_out.rc"
}
names=$(printf '%s\n' "$views" | sed 's/|.*//' | grep -vx psymbols)
# as_live NAME OUTPREFIX: the view NAME loaded into OUTPREFIX is the board's
# live one, exit status too
as_live() {
	cmp -s "$o/$1" "$2" && [ "$(cat "$o/$1.rc")" = "$(cat "$2.rc")" ] && return 0
	echo "exit live $(cat "$o/$1.rc") loaded $(cat "$2.rc"); $(diff "$o/$1" "$2" | head -6 | tr '\n' ' ') $(first "$2.err")"
	return 1
}
# loaded RC LIVE OUT: the loading exited 0, and OUT is LIVE
loaded() {
	[ "$1" = 0 ] && cmp -s "$2" "$3" && return 0
	echo "exit $1; $(diff "$2" "$3" | head -4 | tr '\n' ' ') $(first "$3.err")"
	return 1
}
# names_chunk K ERRFILE: the loader's stderr names chunk K
names_chunk() {
	grep -i chunk "$2" | grep -qw "$1" && return 0
	first "$2"
	return 1
}
# no_symbols OUT [ERE]: OUT lists no symbol (its header at most), and OUT.err
# says why (a line matching ERE; without ERE, anything)
no_symbols() {
	if [ "$(grep -cv '^\[no symbol\],' "$1")" -le 1 ]; then	# the header and [no symbol]
		if [ -n "${2:-}" ]; then grep -qiE "$2" "$1.err"; else [ -s "$1.err" ]; fi && return 0
	fi
	echo "$(head -3 "$1" | tr '\n' ' ') / $(first "$1.err")"
	return 1
}

# 1. Every view from capture A as it was live.
for v in $names; do
	load "$w/capA.log" "$v" "$w/host/$v"
	check_cmd "$v ($(viewargs "$v")): from the capture as live" as_live "$v" "$w/host/$v"
done

# Capture B as live B; the whole console log, which holds A then B: the
# last capture, B, as the loader says it loads.
for v in procs.c files.c; do
	"$X" -l "$w/capB.log" -c ${v%.c} >"$w/host/B.$v" 2>"$w/host/B.$v.err"
	check_cmd "capture B: -c ${v%.c} as live" loaded $? "$o/B.$v" "$w/host/B.$v"
done
# metrics: the board's own (live, -o), capture B's on the host, capture A's series
promtool_ok() {
	promtool check metrics <"$1" >"$1.lint" 2>&1 && [ ! -s "$1.lint" ] && return 0
	echo "$(head -n 3 "$1.lint" | tr '\n' ' ')"
	return 1
}
check_eq "metrics -o on the board: exit 0, its directory holds the file alone" \
	"$(cat "$o/B.metrics.rc") $(cat "$o/promdir")" "0 exmap.prom" "$(first "$o/B.metrics.err")"
check_cmd "metrics on the board: promtool check metrics" promtool_ok "$o/B.metrics.prom"
"$X" -l "$w/capB.log" metrics >"$w/host/B.metrics.prom" 2>"$w/host/B.metrics.err"
check_cmd "metrics from capture B: promtool check metrics" promtool_ok "$w/host/B.metrics.prom"
grep -E '^exmap_(process|file)' "$o/B.metrics.prom" >"$w/host/B.metrics.live"
# a capture's series carry the board's host name (its uname's), the live ones none
grep -E '^exmap_(process|file)' "$w/host/B.metrics.prom" |
	sed 's/{host="[^"]*",/{/' >"$w/host/B.metrics.cap"
check_cmd "metrics from capture B: its processes and files as the board's live ones ($(wc -l <"$w/host/B.metrics.cap") series)" \
	same_file "$w/host/B.metrics.live" "$w/host/B.metrics.cap"
"$X" -l "$w/capA.log" metrics >"$w/host/A.metrics.prom" 2>/dev/null
echo "metrics of the emulated board: $(grep -vc '^#' "$w/host/A.metrics.prom") series, $(wc -c <"$w/host/A.metrics.prom") bytes (capture A, -n 20)"
"$X" -l "$w/capA.log" -c ram >"$w/host/A.ram.csv" 2>/dev/null
run_checks "capture A's series" python3 tests/lib/metrics_check.py count "$w/host/A.metrics.prom" 20 \
	"the board's capture A" "$w/capA.log" "$w/host/A.ram.csv"
"$X" -l "$w/console.log" -c procs >"$w/host/both.procs.c" 2>"$w/host/both.procs.c.err"
rc=$?
if [ $rc = 0 ] && cmp -s "$o/B.procs.c" "$w/host/both.procs.c"; then
	ok "the whole console log, captures A and B: the last (B) is loaded"
else
	no "the whole console log, captures A and B: the last (B) is loaded" \
		"exit $rc, $(cmp -s "$o/procs.c" "$w/host/both.procs.c" && echo "A's processes loaded") $(first "$w/host/both.procs.c.err")"
fi

# The console log as it is, not cut at the marks: its captures by place.
"$X" -l "$w/console.log@1" -c procs >"$w/host/at1.procs.c" 2>"$w/host/at1.procs.c.err"
check_cmd "the whole console log @1: capture A, as live" loaded $? "$o/procs.c" "$w/host/at1.procs.c"
"$X" -l "$w/console.log" -c captures >"$w/host/captures.csv" 2>"$w/host/captures.err"
check_eq "the whole console log's captures: two, both whole, in order" \
	"$? $(cut -d, -f1,10 "$w/host/captures.csv" | tr '\n' ' ')" "0 place,state 1,whole 2,whole " \
	"$(first "$w/host/captures.err")"
"$X" -a -c diff "$w/console.log@1" "$w/console.log@2" >"$w/host/diffat.csv" 2>"$w/host/diffat.csv.err"
"$X" -a -c diff "$w/capA.log" "$w/capB.log" >"$w/host/diffab.csv" 2>/dev/null
check_cmd "diff console.log@1 console.log@2: as diff of A and B cut apart" loaded $? \
	"$w/host/diffab.csv" "$w/host/diffat.csv"

# 2. Noise: a loads the same (ap: its cuts all past the "XM " marker, a:
# anywhere). The damaged variants carry ap's noise, so that they test the
# damage alone: b changes a character in the chunk of W1's first child, c
# drops a line of its second child's; begin damages the begin line, bid the
# build-id chunk, cnt the pages' share counts. The chunks are found by their
# "XM <n> p <pid>", "XM <n> b" and "XM <n> c" lines (else noise.py picks a
# payload line by the seed).
chunk_of() { LC_ALL=C awk -v k="$1" -v v="$2" '$1 == "XM" && $3 == k && (v == "" || $4 == v) { print $2; exit }' "$w/capA.log"; }
set -- $w1
cb=$(chunk_of p "${2:-}") cc=$(chunk_of p "${3:-}") cbid=$(chunk_of b "") ccnt=$(chunk_of c "")
python3 tests/lib/noise.py --seed "$SEED" a "$w/capA.log" "$w/capa.log" >"$w/noise.a" || no "noise.py a"
variant() { # NAME MODE [CHUNK]
	python3 tests/lib/noise.py --past-marker --seed "$SEED" ${3:+--chunk "$3"} "$2" "$w/capA.log" \
		"$w/cap$1.log" >"$w/noise.$1" || no "noise.py $2 ${3:+--chunk $3}"
}
variant ap a
variant b b "$cb"
variant c c "$cc"
variant begin b begin
[ -n "$cbid" ] && variant bid b "$cbid"
[ -n "$ccnt" ] && variant cnt b "$ccnt"
for m in ap a; do
	bad=
	for v in $names; do
		load "$w/cap$m.log" "$v" "$w/host/$m.$v"
		as_live "$v" "$w/host/$m.$v" >/dev/null ||
			bad="$bad $v (exit $(cat "$w/host/$m.$v.rc"); $(first "$w/host/$m.$v.err"))"
	done
	case $m in
	ap) what="cut past the XM marker" ;;
	a) what="cut anywhere, inside \"XM \" too" ;;
	esac
	check_eq "noise ($m): CRLF, printk lines between capture lines and $what, prompt and partial lines: every view as live" \
		"$bad" "" "$bad; $(sed -n 's/^# //p' "$w/noise.$m")"
done
set -- $w1
for m in b c; do
	chunk=$(sed -n 's/^chunk //p' "$w/noise.$m")
	what=$(sed -n 's/^# //p' "$w/noise.$m" | head -1)
	case $m in
	b) want=${2:-} wanted=$cb ;;
	c) want=${3:-} wanted=$cc ;;
	esac
	[ -n "$wanted" ] || want=
	load "$w/cap$m.log" procs.c "$w/host/$m.procs.c"
	check_eq "noise ($m: $what): exit 4" "$(cat "$w/host/$m.procs.c.rc")" 4 \
		"exit $(cat "$w/host/$m.procs.c.rc"): $(first "$w/host/$m.procs.c.err")"
	check_cmd "noise ($m): stderr names chunk $chunk" names_chunk "$chunk" "$w/host/$m.procs.c.err"
	# "chunk N of M (...), log lines X-Y": the line damaged (or dropped) is in there
	at=$(sed -n 's/^line //p' "$w/noise.$m")
	range=$(grep -o "chunk $chunk of [0-9]* ([^)]*), log lines [0-9]*-[0-9]*" "$w/host/$m.procs.c.err" |
		sed 's/.*log lines //' | head -1)
	if [ -n "$range" ] && within "${range%-*}" "$at" "${range#*-}" >/dev/null; then
		ok "noise ($m): the log lines named for chunk $chunk (${range:-none}) hold the one damaged, $at"
	else
		no "noise ($m): the log lines named for chunk $chunk (${range:-none}) hold the one damaged, $at" \
			"$(grep "chunk $chunk " "$w/host/$m.procs.c.err" | head -1)"
	fi
	# every process but the chunk's: the live pids less the one lost
	awk -F, 'NR > 1 { print $1 }' "$o/procs.c" | sort >"$w/host/$m.pids.live"
	awk -F, 'NR > 1 { print $1 }' "$w/host/$m.procs.c" | sort >"$w/host/$m.pids.got"
	lost=$(comm -23 "$w/host/$m.pids.live" "$w/host/$m.pids.got" | tr '\n' ' ')
	extra=$(comm -13 "$w/host/$m.pids.live" "$w/host/$m.pids.got" | tr '\n' ' ')
	named=yes
	for p in $lost; do grep -qw "$p" "$w/host/$m.procs.c.err" || named=no; done
	shown=no
	if [ -n "$want" ]; then
		what="noise ($m): every process shown but the damaged chunk's (pid $want), named on stderr"
		[ -z "$extra" ] && [ "$lost" = "$want " ] && [ $named = yes ] && shown=yes
	else
		what="noise ($m): every process shown but the damaged chunk's (${lost:-none}), named on stderr"
		[ -z "$extra" ] && [ "$(echo $lost | wc -w)" -le 1 ] && [ $named = yes ] && shown=yes
	fi
	check_eq "$what" $shown yes \
		"lost: ${lost:-none}, extra: ${extra:-none}, named: $named; $(first "$w/host/$m.procs.c.err")"
	bad=
	for v in procs files.c sections symbols.c; do
		load "$w/cap$m.log" "$v" "$w/host/$m.$v"
		[ "$(cat "$w/host/$m.$v.rc")" = 4 ] && [ -s "$w/host/$m.$v" ] ||
			bad="$bad $v (exit $(cat "$w/host/$m.$v.rc"), $(wc -l <"$w/host/$m.$v") lines)"
	done
	for p in $w1; do	# the maps of a W1 process that is still there
		case " $lost " in *" $p "*) continue ;; esac
		"$X" -l "$w/cap$m.log" -c maps "$p" >"$w/host/$m.maps" 2>"$w/host/$m.maps.err"
		rc=$?
		[ $rc = 4 ] && [ -s "$w/host/$m.maps" ] || bad="$bad maps $p (exit $rc)"
		break
	done
	check_eq "noise ($m): the other views still render (exit 4)" "$bad" "" "$bad"
	"$X" --budget proc:workload=1K -l "$w/cap$m.log" procs >/dev/null 2>"$w/host/$m.budget.err"
	check_eq "noise ($m): damaged and over budget: exit 4 (the higher)" $? 4
done
# A damaged begin line: the end line stands in, nothing is lost.
bad=
for v in procs procs.c files.c maps.c symbols.c; do
	load "$w/capbegin.log" "$v" "$w/host/begin.$v"
	as_live "$v" "$w/host/begin.$v" >/dev/null || bad="$bad $v (exit $(cat "$w/host/begin.$v.rc"))"
done
what="noise (begin: $(sed -n 's/^# //p' "$w/noise.begin" | head -1)): survived, views as live, exit as live"
if [ -z "$bad" ] && [ -s "$w/host/begin.procs.err" ]; then
	ok "$what"
else
	no "$what" "$bad; $(first "$w/host/begin.procs.err")"
fi
# The build-id chunk damaged: every process is there; -S cannot check files.
if [ -n "$cbid" ]; then
	load "$w/capbid.log" procs.c "$w/host/bid.procs.c"
	what="noise (bid: $(sed -n 's/^# //p' "$w/noise.bid" | head -1)): exit 4, chunk $cbid named, every process as live"
	if [ "$(cat "$w/host/bid.procs.c.rc")" = 4 ] && names_chunk "$cbid" "$w/host/bid.procs.c.err" >/dev/null &&
		cmp -s "$o/procs.c" "$w/host/bid.procs.c"; then
		ok "$what"
	else
		no "$what" "exit $(cat "$w/host/bid.procs.c.rc"): $(first "$w/host/bid.procs.c.err")"
	fi
	"$X" -l "$w/capbid.log" -S "$S" -c symbols /test/sbin/prog >"$w/host/bid.sym" 2>"$w/host/bid.sym.err"
	check_cmd "noise (bid): -S gives no symbols of a file it cannot check, and says why" \
		no_symbols "$w/host/bid.sym" 'build.id'
else
	no "the build-id chunk (XM <n> b ...) is in capture A"
fi
# The share counts damaged: every process loaded, so they are recomputed.
if [ -n "$ccnt" ]; then
	bad=
	for v in procs.c files.c symbols.c; do
		load "$w/capcnt.log" "$v" "$w/host/cnt.$v"
		cmp -s "$o/$v" "$w/host/cnt.$v" || bad="$bad $v"
	done
	what="noise (cnt: $(sed -n 's/^# //p' "$w/noise.cnt" | head -1)): exit 4, chunk $ccnt named, views as live"
	if [ "$(cat "$w/host/cnt.procs.c.rc")" = 4 ] && names_chunk "$ccnt" "$w/host/cnt.procs.c.err" >/dev/null &&
		[ -z "$bad" ]; then
		ok "$what"
	else
		no "$what" "exit $(cat "$w/host/cnt.procs.c.rc"), differ:${bad:- none}: $(first "$w/host/cnt.procs.c.err")"
	fi
else
	no "the share counts chunk (XM <n> c ...) is in capture A"
fi

# 3. -S: the stripped program's symbols through its unstripped twin.
check_cmd "live on the board, the stripped program has no symbols (what -S is for), and says so" \
	no_symbols "$o/psymbols"
twin=build/arm/capture/prog
mkdir -p "$w/sysroot-byid/opt/debug" "$w/sysroot-other/test/sbin" &&
	cp "$twin" "$w/sysroot-byid/opt/debug/prog.unstripped" &&
	python3 - "$twin" "$w/sysroot-other/test/sbin/prog" <<'EOF'
import re, subprocess, sys
src, dst = sys.argv[1:]
note = subprocess.run(["readelf", "-n", src], capture_output=True, text=True).stdout
bid = bytes.fromhex(re.search(r"Build ID: ([0-9a-f]+)", note).group(1))
data = open(src, "rb").read()
assert data.count(bid) == 1
i = data.index(bid) + len(bid) - 1
open(dst, "wb").write(data[:i] + bytes([data[i] ^ 0xff]) + data[i + 1:])
EOF
[ $? -eq 0 ] || no "the sysroots for -S"
sym() { # OUT OPTIONS...: -l A -c symbols /test/sbin/prog
	_out=$1
	shift
	"$X" -l "$w/capA.log" "$@" -c symbols /test/sbin/prog >"$_out" 2>"$_out.err"
	echo $? >"$_out.rc"
}
sym "$w/host/S.sym" -S "$S"
sym "$w/host/byid.sym" -S "$w/sysroot-byid"
sym "$w/host/noS.sym"
sym "$w/host/other.sym" -S "$w/sysroot-other"
# the same rows but for the last column, the path: the twin is /test/ubin/prog
for f in "$o/usymbols" "$w/host/S.sym" "$w/host/byid.sym"; do
	sed 's/,[^,]*,[^,]*$//' "$f" >"$f.nopath"	# path, aliases
	cp "$f.err" "$f.nopath.err" 2>/dev/null
done
check_cmd "-S: the stripped program's symbols through its twin: as the twin's own live" \
	loaded "$(cat "$w/host/S.sym.rc")" "$o/usymbols.nopath" "$w/host/S.sym.nopath"
if cmp -s "$o/usymbols.nopath" "$w/host/byid.sym.nopath"; then
	ok "-S: the twin found by build-id elsewhere in the sysroot"
else
	no "-S: the twin found by build-id elsewhere in the sysroot" \
		"exit $(cat "$w/host/byid.sym.rc"); $(diff "$o/usymbols" "$w/host/byid.sym" | head -4 | tr '\n' ' ') $(first "$w/host/byid.sym.err")"
fi
check_cmd "no -S: no symbols, and stderr says why" no_symbols "$w/host/noS.sym"
check_cmd "-S with a twin of another build-id: no symbols, stderr says so" \
	no_symbols "$w/host/other.sym" 'build.id'
python3 - "$twin" "$w/host/S.sym" >"$w/host/S.checks" <<'EOF'
import csv, re, subprocess, sys
twin, got = sys.argv[1:]
def out(ok, what, why=""):
    print("ok   " + what if ok else "FAIL " + what + (": " + why if why else ""))
secs = {}
for l in subprocess.run(["readelf", "-W", "-S", twin], capture_output=True, text=True).stdout.splitlines():
    m = re.match(r"\s*\[\s*(\d+)\]\s+(\S+)\s+\S+\s+[0-9a-f]+\s+[0-9a-f]+\s+[0-9a-f]+\s+[0-9a-f]+\s+(\S*)", l)
    if m:
        secs[m.group(1)] = (m.group(2), m.group(3))
want = []
for l in subprocess.run(["readelf", "-W", "-s", twin], capture_output=True, text=True).stdout.splitlines():
    t = l.split()
    if len(t) < 8 or not t[0].endswith(":") or not t[0][:-1].isdigit():
        continue
    size = int(t[2], 0) if t[2].startswith("0x") else int(t[2])
    if size > 0 and t[3] != "TLS" and t[6] in secs and "A" in secs[t[6]][1]:
        want.append((int(t[1], 16), size, t[7]))
# a symbol wholly inside another (libgcc's __adddf3 inside __subdf3) is
# counted with it, not listed: the manual says so, and stderr how many
want.sort(key=lambda x: (x[0], -x[1]))
inside, cover, cover_lo = [], 0, None
for lo, size, name in want:
    hi = lo + size
    if cover_lo is not None and hi <= cover and not (lo == cover_lo and hi == cover):
        inside.append(name)
    elif hi > cover:
        cover, cover_lo = hi, lo
want = [n for lo, size, n in want if n not in inside]
try:
    rows = list(csv.DictReader(open(got)))
except Exception as e:
    rows = []
namecol = next((c for c in (rows[0].keys() if rows else []) if c in ("name", "symbol")), None)
# each name once: a row's own and its aliases'; [no symbol] is no name
have = sorted(n for r in rows if r[namecol] != "[no symbol]"
              for n in [r[namecol]] + (r.get("aliases") or "").split()) if namecol else []
missing = sorted(set(want) - set(have))
extra = sorted(set(have) - set(want))
out(have == sorted(want), "-S: the symbols listed are readelf's of the twin (size > 0, allocated, not TLS): %d" % len(want),
    "missing %s; extra %s; counts %d/%d" % (missing[:5], extra[:5], len(have), len(want)))
said = re.findall(r"(\d+) symbols? wholly inside another", open(got + ".err").read() if inside else "")
out(said == ([str(len(inside))] if inside else []),
    "-S: the symbols wholly inside another (%d in readelf: %s) are said on stderr, counted with it" %
    (len(inside), " ".join(inside[:4])), "stderr says %s" % said)
buf = [r for r in rows if namecol and r[namecol] == "buf.0"]
exp = {"vm": None, "resident": 65536, "eff_resident": 65536, "sole": 65536, "writable": 65536}
if len(buf) == 1:
    bad = {k: buf[0].get(k) for k, v in exp.items() if v is not None and buf[0].get(k) != str(v)}
    out(not bad, "-S: buf.0, the 64 KiB buffer the program wrote (its child gone): resident, eff_resident, sole, writable all 64 KiB",
        "got %s" % bad)
else:
    out(False, "-S: buf.0, the 64 KiB buffer the program wrote, is listed", "%d rows" % len(buf))
mains = [r for r in rows if namecol and r[namecol] == "main"]
out(len(mains) == 1 and int(mains[0].get("resident", "0") or 0) > 0 and mains[0].get("writable") == "0",
    "-S: main, which ran, is resident and not writable", "%s" % mains[:1])
EOF
[ $? -eq 0 ] || no "the symbol checks ran to their end" "$(tail -n 2 "$w/host/S.checks")"
tally "$w/host/S.checks"

. tests/lib/capture_test_diff.sh	# 4. diff and budgets

# The pictures of the board's capture, drawn on the host: the page under
# 1 MiB and its checks in chromium (tests/lib/html_check.py, as on this
# machine's capture), folded's lines and sums; the stripped program's
# symbols through -S (its unstripped twin), and without -S the program,
# not on this machine, whole at the file and said.
"$X" -l "$w/capA.log" -S "$S" html >"$w/host/board.html" 2>"$w/host/board.html.err"
bytes=$(wc -c <"$w/host/board.html")
echo "html page of the board's capture: $bytes bytes"
check_cmd "the board's html page is under 1 MiB ($bytes bytes)" within 1 "$bytes" 1048575
run_checks "the board's page" python3 tests/lib/html_check.py page "$X" "$w/host" -l "$w/capA.log" -S "$S" -- $w1
cp "$w/host/report.png" build/html/report-board.png 2>/dev/null
run_checks "the board's folded" python3 tests/lib/html_check.py folded "$X" -l "$w/capA.log" -S "$S" -- $w1
sp=$(sed -n 's/^ready //p' "$o/sprog" | cut -d' ' -f1)
"$X" -l "$w/capA.log" -S "$S" -P "$sp" folded >"$w/host/sprog.S" 2>/dev/null
"$X" -l "$w/capA.log" -P "$sp" folded >"$w/host/sprog.noS" 2>"$w/host/sprog.noS.err"
depth() { awk '{ n = split($1, a, ";"); if (a[2] == "/test/sbin/prog") print n }' "$1" | sort -u | tr '\n' ' '; }
check_eq "folded -S: the stripped program's lines reach its symbols (its twin's)" "$(depth "$w/host/sprog.S")" "3 4 "
check_eq "folded without -S: the program (not on this machine) stops at the file" \
	"$(depth "$w/host/sprog.noS")" "2 "
check_cmd "folded without -S: says why the program is shown whole" \
	has "/test/sbin/prog: .*shown whole" "$w/host/sprog.noS.err"
finish
