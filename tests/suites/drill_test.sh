#!/bin/sh
# The drill-down: -P and -F report a part of the scan and keep its sharing,
# and browse shows the same figures full screen.
#  - A workload family (tests/work/workload.c: a file that three children read
#    and the parent maps untouched) and a fixture process that loads its
#    library through a link named like a soname (libfixture.so ->
#    libfixture.so.1.0).
#  - -F FILE procs: each child pays a third of the file, the parent nothing;
#    -F by the link's name, by a link's path and by a pseudo-file's name.
#  - Over a whole scan, live (-p) and from a capture: every process's -P rows
#    add up to its procs row, every file's -F rows to its files row, -F -P
#    maps to the -P files row, text and CSV alike
#    (tests/lib/drill_check.py); the -P files rows against pagemap
#    (tests/lib/truth.py).
#  - A library's .bss is its own in files as in sections: its -P files row
#    is its sections plus [holes].
#  - browse in tmux and on a bare pty (tests/lib/browse_check.py).
# Run as root after make all fixture build/host/workload. Environment: EXMAP,
# WORKLOAD, FIXTURE. Last line: N passed, N failed.
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib/lib.sh
EXMAP=$(realpath "${EXMAP:-build/exmap-mini}")
WORKLOAD=${WORKLOAD:-build/host/workload}
FIXTURE=${FIXTURE:-build/fixture}
T=
FX_PID=

cleanup() {
	stop_workload
	[ -n "$FX_PID" ] && kill -TERM "$FX_PID" 2>/dev/null && wait "$FX_PID" 2>/dev/null
	FX_PID=
	[ -n "$T" ] && rm -rf "$T"
	T=
}
trap cleanup EXIT
trap 'no "interrupted"; cleanup; finish' INT TERM HUP

# csv_field FILE KEYCOL KEY COLUMN: COLUMN of the CSV row whose KEYCOL is KEY
csv_field() {
	awk -F, -v kc="$2" -v k="$3" -v c="$4" '
		NR == 1 { for (i = 1; i <= NF; i++) { if ($i == kc) ki = i; if ($i == c) ci = i } next }
		ki && ci && $ki == k { print $ci; exit }' "$1"
}

for f in "$EXMAP" "$WORKLOAD" "$FIXTURE/fixture_main" "$FIXTURE/libfixture.so"; do
	if [ ! -f "$f" ]; then
		no "drill-down test" "no $f: run make all fixture build/host/workload first"
		finish
	fi
done
if ! T=$(mktemp -d /tmp/exmap-drill.XXXXXX); then
	T=
	no "drill-down test" "mktemp failed"
	finish
fi
T=$(cd "$T" && pwd -P)

# The fixture library under its versioned name, reached through a link named
# like its soname: the maps show libfixture.so.1.0, ld.so opened libfixture.so.
mkdir "$T/lib"
cp "$FIXTURE/libfixture.so" "$T/lib/libfixture.so.1.0"
ln -s libfixture.so.1.0 "$T/lib/libfixture.so"
ln -s lib "$T/links"
cp "$FIXTURE/fixture_main" "$T/lib/fixture_main"
LIB=$T/lib/libfixture.so.1.0
"$T/lib/fixture_main" >"$T/fx.ready" 2>"$T/fx.err" &
FX_PID=$!
if ! wait_ready "$T/fx.ready" "$FX_PID"; then
	no "fixture process ready" "$(cat "$T/fx.err")"
	finish
fi
KIB=384
if ! start_workload "$T/wl" "$WORKLOAD" -n 3 -f $KIB -c 128 -p 64 -d "$T"; then
	no "workload ready" "$(cat "$T/wl.err")"
	finish
fi
# shellcheck disable=SC2086 # the pids, one word each
set -- $READY
WL_PARENT=$1 WL_CHILD=$2
FILE=$(sed -n 's/^file //p' "$T/wl")
PIDS="$* $FX_PID"
PLIST=$(echo "$PIDS" | tr ' ' ,)
ok "workload ($*) and fixture process ($FX_PID) ready"

# -F FILE procs on the workload's file: the three children read it all and
# share it, the parent maps it and has touched none of it
"$EXMAP" -c -p "$PLIST" -F "$FILE" procs >"$T/fprocs.csv" 2>"$T/err"
third=$((KIB * 1024 / 3))
for p in $READY; do
	eff=$(csv_field "$T/fprocs.csv" pid "$p" eff_resident)
	res=$(csv_field "$T/fprocs.csv" pid "$p" resident)
	if [ "$p" = "$WL_PARENT" ]; then
		check_eq "-F FILE procs: the parent maps the file and pays nothing of it" "$res/$eff" "0/0"
	else
		check_num "-F FILE procs: child $p pays a third of the $KIB KiB file" "$eff" "$third" 1
	fi
done
check_num "-F FILE procs: a row for each of the 4 processes that map it" \
	"$(grep -c '^[0-9]' "$T/fprocs.csv")" 4

# -F by the names a user has for a library: the link ld.so opened (the soname),
# the link's path, a path through a linked directory, the file's own path
"$EXMAP" -c -p "$PLIST" -F "$LIB" procs >"$T/byfile.csv" 2>&1
for name in libfixture.so "$T/lib/libfixture.so" "$T/links/libfixture.so.1.0" libfixture.so.1.0; do
	"$EXMAP" -c -p "$PLIST" -F "$name" procs >"$T/byname.csv" 2>&1
	check_cmd "-F $name finds $LIB" same_file "$T/byname.csv" "$T/byfile.csv"
done
check_cmd "-F libfixture.so: the fixture process's row" has "^$FX_PID," "$T/byfile.csv"
"$EXMAP" -c -p "$PLIST" -F '[heap]' procs >"$T/heap.csv" 2>"$T/err"
rc=$?
check_eq "-F [heap] procs: a pseudo-file by the name files shows, a row for each process" \
	"$rc $(grep -c '^[0-9]' "$T/heap.csv")" "0 $(echo "$PIDS" | wc -w)" "exit $rc: $(cat "$T/err")"
"$EXMAP" -p "$PLIST" -F nosuch.so procs >/dev/null 2>"$T/err"
rc=$?
check_eq "-F with a name nothing maps: exit 2, one line naming it" \
	"$rc $(wc -l <"$T/err")" "2 1" "exit $rc: $(cat "$T/err")"

# A program deleted and put back while a copy still runs: its path names the
# one on disk, "PATH (deleted)" the other
cp /bin/sleep "$T/snooze"
"$T/snooze" 600 &
OLD_PID=$!
sleep 0.3
rm -f "$T/snooze"
cp /bin/sleep "$T/snooze"
"$T/snooze" 600 &
NEW_PID=$!
sleep 0.3
"$EXMAP" -c -q -p "$OLD_PID,$NEW_PID" -F "$T/snooze" procs >"$T/ondisk" 2>&1
"$EXMAP" -c -q -p "$OLD_PID,$NEW_PID" -F snooze procs >"$T/base" 2>&1
"$EXMAP" -c -q -p "$OLD_PID,$NEW_PID" -F "$T/snooze (deleted)" procs >"$T/gone" 2>&1
check_eq "-F PATH and -F NAME: the file on disk, not the deleted one mapped at that path too" \
	"$(cut -d, -f1 "$T/ondisk") $(cut -d, -f1 "$T/base")" "$NEW_PID $NEW_PID" \
	"$(cat "$T/ondisk" "$T/base")"
check_eq "-F 'PATH (deleted)': the deleted one" "$(cut -d, -f1 "$T/gone")" "$OLD_PID" "$(cat "$T/gone")"
kill "$OLD_PID" "$NEW_PID" 2>/dev/null
wait "$OLD_PID" "$NEW_PID" 2>/dev/null

# .bss: the library's -P files row is what its sections and [holes] add up to
"$EXMAP" -c -p "$PLIST" -P "$FX_PID" files >"$T/pfiles.csv" 2>/dev/null
"$EXMAP" -c -p "$PLIST" -P "$FX_PID" sections "$LIB" >"$T/psec.csv" 2>/dev/null
nsec=$(($(wc -l <"$T/psec.csv") - 1))
for fig in vm mapped resident eff_mapped eff_resident sole writable swap; do
	want=$(csv_field "$T/pfiles.csv" path "$LIB" $fig)
	got=$(awk -F, -v f=$fig 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == f) c = i; next }
		{ s += $c } END { print s + 0 }' "$T/psec.csv")
	# each of the rows summed was rounded: half a byte each
	case $fig in eff_*) tol=$((nsec / 2 + 1)) ;; *) tol=0 ;; esac
	check_num "the library's .bss is its own: its $fig in -P files = its sections plus [holes]" \
		"$got" "$want" $tol
done

# the sums, live and from a capture; pagemap's figures
"$EXMAP" -p "$PLIST" dump >"$T/all.cap" 2>"$T/err" || no "dump" "$(cat "$T/err")"
run_checks "drill_check.py sums (live)" python3 tests/lib/drill_check.py sums "$EXMAP" -p "$PLIST" -- \
	"$WL_CHILD" "$FX_PID"
run_checks "drill_check.py sums (capture)" python3 tests/lib/drill_check.py sums "$EXMAP" -l "$T/all.cap" -- \
	"$WL_CHILD" "$FX_PID"
# a C library's symbols (the fixture process's), each byte once
LIBC=$(awk '$6 ~ /\/libc[.-][^\/]*so/ { print $6; exit }' /proc/$FX_PID/maps)
if [ -n "$LIBC" ]; then
	run_checks "drill_check.py symbols" python3 tests/lib/drill_check.py symbols "$EXMAP" -l "$T/all.cap" "$LIBC"
	run_checks "drill_check.py wide" python3 tests/lib/drill_check.py wide "$EXMAP" -l "$T/all.cap" "$LIBC"
	run_checks "drill_check.py symbols (the fixture library)" python3 tests/lib/drill_check.py symbols "$EXMAP" \
		-l "$T/all.cap" "$LIB"
else
	no "the fixture process maps a C library" "$(cat /proc/$FX_PID/maps)"
fi
# shellcheck disable=SC2086 # one argument per pid
run_checks "drill_check.py oracle" python3 tests/lib/drill_check.py oracle "$EXMAP" "$FILE" $PIDS
# the whole machine, from one capture: every process, every file
"$EXMAP" dump >"$T/machine.cap" 2>"$T/err"
rc=$?
if [ $rc -le 1 ]; then
	run_checks "drill_check.py sums (whole machine)" python3 tests/lib/drill_check.py sums "$EXMAP" \
		-l "$T/machine.cap" -- "$FX_PID"
else
	no "dump of the whole machine" "exit $rc: $(cat "$T/err")"
fi

if command -v tmux >/dev/null; then
	run_checks "browse_check.py" python3 tests/lib/browse_check.py "$EXMAP" "$T/all.cap" "$FX_PID" "$LIB" \
		"$WL_CHILD" "$FILE" "$T" "$PLIST"
else
	no "browse in tmux" "no tmux (toolchain/setup installs it)"
fi
cleanup
finish
