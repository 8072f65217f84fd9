#!/bin/sh
# The pictures: the folded view's lines and the html view's page, from a
# capture of workloads whose sharing the test built (tests/work/workload.c):
#  - W1, the workload as built (a static binary with its symbols): three
#    children each read a 512 KiB file that the parent maps untouched;
#  - W2, a stripped copy run from a directory whose name holds ';' and a
#    space, its file there too.
# Checked: the capture's figures against the kernel's (eff_resident = Pss
# within 8 KiB a process, each child's part of the file a third of it);
# folded's lines parse as flame-graph tools read them, add up to the procs
# view's total, stop where a file has no deeper level (the data file at the
# file, the stripped copy at its sections, the workload at its symbols) and
# escape ';' and spaces (tests/lib/html_check.py folded); the html page in
# chromium (tests/lib/html_check.py page: areas, clicks, tooltip, tables, ram
# bar, nothing loaded from outside, a screenshot), also live; a process that
# exits before its files are read said in one line; diff's page, with W2
# gone and a W3 of four children started (tests/lib/html_check.py diff).
# Pages and the screenshot are kept in HTML_OUT (build/html).
# Run as root. Environment: EXMAP, WORKLOAD, HTML_OUT. Last line: N passed, N failed.
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib/lib.sh
EXMAP=$(realpath "${EXMAP:-build/exmap-mini}")
WORKLOAD=$(realpath "${WORKLOAD:-build/host/workload}")
OUT=${HTML_OUT:-build/html}
T=$(mktemp -d /tmp/xm-pictures.XXXXXX)
W2_PID=

cleanup() {
	[ -n "$W2_PID" ] && kill -TERM "$W2_PID" 2>/dev/null && wait "$W2_PID" 2>/dev/null
	W2_PID=
	stop_workload
	rm -rf "$T"
}
trap cleanup EXIT
trap 'no "interrupted"; cleanup; finish' INT TERM HUP

command -v chromium >/dev/null 2>&1 || { no "chromium is not installed (toolchain/setup test)"; finish; }
mkdir -p "$OUT" || { no "$OUT: cannot create"; finish; }
ODD="$T/odd dir;x"
mkdir -p "$ODD" && strip -o "$ODD/work load" "$WORKLOAD" || { no "the stripped copy"; finish; }

start_workload "$T/w1" "$WORKLOAD" -n 3 -f 512 -c 384 -p 128 -d "$T" ||
	{ no "W1 ready" "$(cat "$T/w1.err")"; finish; }
W1=$READY
F1=$(sed -n 's/^file //p' "$T/w1")
"$ODD/work load" -n 2 -f 256 -c 128 -p 64 -d "$ODD" >"$T/w2" 2>"$T/w2.err" &
W2_PID=$!
wait_ready "$T/w2" "$W2_PID" || { no "W2 ready" "$(cat "$T/w2.err")"; finish; }
W2=$READY
ok "workloads ready (W1: $W1; W2, stripped, in '$ODD': $W2)"

"$EXMAP" dump >"$T/a.log" 2>"$T/a.err"
check_cmd "dump of the machine (exit 0, or 1 for an unreadable process)" \
	within 0 $? 1
for p in $W1 $W2; do
	awk '$1 == "Pss:" { print $2 * 1024 }' "/proc/$p/smaps_rollup" >"$T/pss.$p"
done
"$EXMAP" -l "$T/a.log" -c procs >"$T/a.procs" 2>/dev/null
for p in $W1 $W2; do
	eff=$(awk -F, -v p="$p" '$1 == p { print $7 }' "$T/a.procs")
	check_num "the capture: pid $p's eff_resident is its Pss" "$eff" "$(cat "$T/pss.$p")" 8192
done
set -- $W1
for c in $2 $3 $4; do
	part=$("$EXMAP" -l "$T/a.log" -P "$c" -c files 2>/dev/null |
		awk -F, -v f="$F1" '$1 == f { print $6 }')
	check_num "the capture: child $c's part of the file is a third of it" "$part" $((512 * 1024 / 3)) 1
done

# folded: parsing, sums, -P, -F, -a
run_checks "folded" python3 tests/lib/html_check.py folded "$EXMAP" -l "$T/a.log" -- $W1 $W2
"$EXMAP" -l "$T/a.log" -P "$(echo $W1 $W2 | tr ' ' ,)" folded >"$T/a.folded" 2>"$T/a.folded.err"
# levels: a file that is not ELF stops at the file; the stripped copy (no
# symbol table at all: a static binary) at its sections; the workload at its symbols
frames() { awk -v f="$1" '{ n = split($1, a, ";"); if (a[2] == f) print n }' "$T/a.folded" | sort -u | tr '\n' ' '; }
check_eq "folded: the data file's lines stop at the file (2 frames)" "$(frames "$F1")" "2 "
check_eq "folded: the workload's lines go down to symbols (3 frames for [holes], 4)" \
	"$(frames "$WORKLOAD")" "3 4 "
esc=$(printf '%s' "$ODD/work load" | sed 's/%/%25/g; s/;/%3B/g; s/ /%20/g')
check_eq "folded: the stripped copy's lines stop at its sections, its path escaped ($esc)" \
	"$(frames "$esc")" "3 "
check_cmd "folded: its process frames are name-pid ($W2)" \
	has "^work%20load-$(echo $W2 | cut -d' ' -f1);" "$T/a.folded"
check_cmd "folded: the stripped file is said on stderr (sections are its leaves)" \
	has "without a symbol table" "$T/a.folded.err"

# the page in chromium: of the capture, and live (-p: the workload alone,
# which stands still between the runs the checker compares)
run_checks "html" python3 tests/lib/html_check.py page "$EXMAP" "$OUT" -l "$T/a.log" -- $W1
mkdir -p "$OUT/live"
run_checks "html live" python3 tests/lib/html_check.py page "$EXMAP" "$OUT/live" \
	-p "$(echo $W1 | tr ' ' ,)" -- $W1
cp "$OUT/report.png" "$OUT/report-workload.png" 2>/dev/null
bytes=$(wc -c <"$OUT/report.html")
echo "html page of the workload: $bytes bytes"

# A process that exits after the scan, before its files are read (the
# issue's nm): one line for it, naming it and how many files were left out,
# on stderr and in the page's header. strace holds exmap-mini at its first
# open of /proc/PID after the scan (where a dry run made it) while the
# process is ended and reaped.
sleep 600 &
V=$!
i=0
until [ "$(readlink /proc/$V/exe)" = "$(readlink -f "$(command -v sleep)")" ] || [ $i -ge 50 ]; do
	sleep 0.1
	i=$((i + 1))
done
K=$(awk '$6 ~ /^\// { print $6 }' /proc/$V/maps | sort -u | wc -l)
strace -o "$T/st0" -P /proc/$V -e trace=openat "$EXMAP" -p $V html >/dev/null 2>&1
N=$(grep -n "^openat(AT_FDCWD, \"/proc/$V\"" "$T/st0" | sed -n '2s/:.*//p')
strace -o "$T/st" -P /proc/$V -e trace=openat -e inject=openat:delay_enter=3000000:when=${N:-0} \
	"$EXMAP" -p $V html >"$T/gone.html" 2>"$T/gone.err" &
S=$!
i=0
while [ $i -lt 200 ]; do
	n=$(grep -c "^openat(AT_FDCWD, \"/proc/$V\"" "$T/st" 2>/dev/null)
	[ "${n:-0}" -ge 2 ] && break
	sleep 0.1
	i=$((i + 1))
done
kill $V
wait $V 2>/dev/null
wait $S
rc=$?
line="pid $V (sleep) exited before its files were read: $K files left out"
check_eq "a process gone after the scan: exit 0, one line on stderr for its $K files" \
	"$rc $(grep -c "$V" "$T/gone.err") $(grep -c "^exmap-mini: $line\$" "$T/gone.err")" "0 1 1" \
	"N=$N: $(cat "$T/gone.err")"
check_cmd "a process gone after the scan: the same line in the page's header" \
	has "D.notes = \[.*\"$line\"" "$T/gone.html"

# diff: W2 gone, W3 (four children, a 1 MiB file) started
kill -TERM "$W2_PID" 2>/dev/null && wait "$W2_PID" 2>/dev/null
W2_PID=
"$WORKLOAD" -n 4 -f 1024 -c 128 -p 64 -d "$T" >"$T/w3" 2>"$T/w3.err" &
W2_PID=$!
wait_ready "$T/w3" "$W2_PID" || { no "W3 ready" "$(cat "$T/w3.err")"; finish; }
"$EXMAP" dump >"$T/b.log" 2>/dev/null
run_checks "diff" python3 tests/lib/html_check.py diff "$EXMAP" "$OUT" "$T/a.log" "$T/b.log"
finish
