# The test library that every shell suite in tests/suites/ sources: checks,
# results, workloads. Sourced as . tests/lib/lib.sh: one meaning for each
# helper, one output format, one way to start a workload.
#   ok NAME                   prints "ok   NAME" and counts a pass
#   no NAME [DETAIL]          prints "FAIL NAME: DETAIL" and counts a failure
#   check_eq NAME GOT WANT [DETAIL]       strings equal
#   check_num NAME GOT WANT [TOLERANCE] [DETAIL]
#                             integers, |GOT - WANT| <= TOLERANCE (0)
#   check_cmd NAME CMD [ARG...]
#                             CMD (a command or a shell function, never a
#                             string to eval) exits 0; else what it printed,
#                             stdout and stderr, is the detail
#   not CMD [ARG...]          CMD fails (what it prints is kept: the detail)
#   is_int X                  X is a decimal integer
#   within LO X HI            LO <= X <= HI, integers (an empty bound: none)
#   has RE FILE               FILE has a line matching the basic RE RE
#   same_file A B             A and B are the same, byte for byte
#   tally FILE                FILE's "ok"/"FAIL" lines (another program's
#                             checks, or a background job's: names that
#                             start with TEST_PREFIX) shown and counted
#   run_checks NAME CMD [ARG...]
#                             a checker's ok/FAIL lines counted, and its own
#                             failure (an exit with no FAIL line)
#   add_results FILE WHAT     a sub-suite's output shown, its closing
#                             "N passed, N failed" added in
#   finish                    prints "N passed, N failed", exits 1 if any
#                             failed, else 0
#   start_workload OUT CMD [ARG...], wait_ready OUT PID, stop_workload
#                             a process that prints "ready ..." when set up
#                             (READY_WAIT seconds at most, 60)
#   rollup PID FIELD          a /proc/PID/smaps_rollup field, in bytes
#   col CSV KEYCOL KEY FIELD  FIELD of the CSV row whose KEYCOL is KEY
#   has_pagemap_scan          1 if pagemap takes PAGEMAP_SCAN here, else 0
#   swap_on DIR               swap is active: already, or a 64 MiB swap file
#                             made in DIR and enabled (SWAPFILE names it,
#                             for the caller's swapoff; else empty)
# TEST_PREFIX goes before every name (kmod_test.sh: "TARGET: ").
# POSIX sh (dash runs the suites). Names starting _lib_ are its own.

# rollup PID FIELD: a /proc/PID/smaps_rollup field, in bytes
rollup() { awk -v f="$2:" '$1 == f { print $2 * 1024 }' "/proc/$1/smaps_rollup"; }

# has_pagemap_scan: 1 if this kernel's pagemap takes PAGEMAP_SCAN (6.7), else 0
has_pagemap_scan() {
	python3 -c '
import fcntl, os, struct
fd = os.open("/proc/self/pagemap", os.O_RDONLY)
arg = bytearray(struct.pack("12Q", 96, 0, 0, 4096, 0, 0, 0, 0, 0, 0, 0, 0))
try:
    fcntl.ioctl(fd, 0xc0606610, arg)
    print(1)
except OSError:
    print(0)
'
}

# swap_on DIR: swap active (one already is, or DIR/swapfile made and
# enabled: SWAPFILE then names it); status 1 if neither
swap_on() {
	[ "$(awk 'NR > 1' /proc/swaps | wc -l)" -gt 0 ] && return 0
	SWAPFILE=$1/swapfile
	{ fallocate -l 64M "$SWAPFILE" || dd if=/dev/zero of="$SWAPFILE" bs=1M count=64; } 2>/dev/null &&
		chmod 600 "$SWAPFILE" && mkswap "$SWAPFILE" >/dev/null 2>&1 && swapon "$SWAPFILE" && return 0
	SWAPFILE=
	return 1
}

# col CSVFILE KEYCOL KEY FIELD: FIELD of the row whose KEYCOL is KEY (no quoted commas)
col() {
	awk -F, -v kc="$2" -v k="$3" -v f="$4" '
		NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
		$h[kc] == k { print $h[f]; exit }' "$1"
}

pass=0
fail=0
TEST_PREFIX=${TEST_PREFIX:-}

ok() {
	pass=$((pass + 1))
	echo "ok   $TEST_PREFIX$1"
}

no() {
	fail=$((fail + 1))
	echo "FAIL $TEST_PREFIX$1${2:+: $2}"
}

check_eq() {
	if [ "$2" = "$3" ]; then
		ok "$1"
	else
		no "$1" "${4:-got '$2', want '$3'}"
	fi
}

# is_int X: X is a decimal integer, so that $((...)) on it cannot stop the
# shell (dash exits on a bad arithmetic expression)
is_int() {
	case $1 in
	'' | - | *[!0-9-]* | ?*-*) return 1 ;;
	esac
}

check_num() {
	if ! is_int "$2" || ! is_int "$3"; then
		no "$1" "${5:-got '$2', want '$3': not a number}"
		return
	fi
	_lib_d=$(($2 - $3))
	[ $_lib_d -lt 0 ] && _lib_d=$((-_lib_d))
	if [ $_lib_d -le "${4:-0}" ]; then
		ok "$1"
	else
		no "$1" "${5:-got $2, want $3 (tolerance ${4:-0})}"
	fi
}

# CMD runs in a subshell: what it sets stays there.
check_cmd() {
	_lib_name=$1
	shift
	if _lib_out=$("$@" 2>&1); then
		ok "$_lib_name"
	else
		no "$_lib_name" "$_lib_out"
	fi
}

not() {
	! "$@"
}

within() {
	if is_int "$2" && { [ -z "$1" ] || { is_int "$1" && [ "$2" -ge "$1" ]; }; } &&
		{ [ -z "$3" ] || { is_int "$3" && [ "$2" -le "$3" ]; }; }; then
		return 0
	fi
	echo "got '$2', want ${1:-any} to ${3:-any}"
	return 1
}

# has: else FILE's first lines, to say what it holds instead
has() {
	grep -q -- "$1" "$2" 2>/dev/null && return 0
	if [ -s "$2" ]; then
		echo "no line matches '$1' in $2, which begins: $(head -n 8 "$2" | tr '\n' ' ')"
	else
		echo "$2: empty or missing"
	fi
	return 1
}

# same_file: else their first differences, on one line
same_file() {
	cmp -s "$1" "$2" && return 0
	diff "$1" "$2" 2>&1 | head -n 6 | tr '\n' ' '
	return 1
}

tally() {
	cat "$1"
	pass=$((pass + $(awk -v p="ok   $TEST_PREFIX" 'index($0, p) == 1' "$1" | wc -l)))
	fail=$((fail + $(awk -v p="FAIL $TEST_PREFIX" 'index($0, p) == 1' "$1" | wc -l)))
}

# phase_back [FILE]: in a phase's check (tests/qemu/phases), its boot and
# what came back: the guest powered off, the phase's session unframed into
# o=$w/out/$phase; FILE, one of o's, is added to the second check's name.
# 1 when either failed: the checks after them have nothing to read.
phase_back() {
	check_eq "booted, ran and powered off ($boot_secs s)" "$boot_rc" 0 \
		"boot exit $boot_rc: $(cat "$w/boot.log")"
	[ "$boot_rc" -eq 0 ] || return 1
	o=$w/out/$phase
	if ! tests/qemu/unframe -s "$phase" "$console" "$o" >"$w/$phase.unframe.log" 2>&1; then
		no "the results came back whole over the serial console" "$(cat "$w/$phase.unframe.log")"
		return 1
	fi
	ok "the results came back whole over the serial console${1:+ ($(cat "$o/$1"))}"
}

# run_checks NAME CMD [ARG...]: CMD's ok and FAIL lines (a checker such as
# tests/lib/drill_check.py) shown and counted; its own failure (an exit without
# a FAIL line: a traceback, say) is one more, named NAME
run_checks() {
	_lib_name=$1
	shift
	_lib_tmp=$(mktemp /tmp/exmap-checks.XXXXXX) || { no "$_lib_name" "mktemp failed"; return; }
	"$@" >"$_lib_tmp" 2>"$_lib_tmp.err"
	_lib_rc=$?
	_lib_failed=$fail
	tally "$_lib_tmp"
	if [ $_lib_rc -ne 0 ] && [ $fail -eq $_lib_failed ]; then
		no "$_lib_name" "exit $_lib_rc: $(tail -n 3 "$_lib_tmp.err" | tr '\n' ' ')"
	fi
	rm -f "$_lib_tmp" "$_lib_tmp.err"
}

add_results() {
	_lib_line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$1" | tail -n 1)
	grep -v -E '^[0-9]+ passed, [0-9]+ failed$' "$1"
	if [ -z "$_lib_line" ]; then
		no "$2" "no result line"
		return
	fi
	set -- $_lib_line
	pass=$((pass + $1))
	fail=$((fail + $3))
}

finish() {
	echo "$pass passed, $fail failed"
	[ "$fail" -eq 0 ] && exit 0
	exit 1
}

# wait_ready OUT PID: wait until OUT holds a whole "ready ..." line (a read
# can meet a write half done) while PID lives, at most READY_WAIT seconds
# (60); READY is then the line's words after "ready". Status 1 if it never
# came.
wait_ready() {
	READY=
	_lib_n=$((${READY_WAIT:-60} * 10))
	until grep -q '^ready [0-9]' "$1" 2>/dev/null && [ -z "$(tail -c 1 "$1")" ]; do
		if [ $_lib_n -le 0 ] || ! kill -0 "$2" 2>/dev/null; then
			return 1
		fi
		_lib_n=$((_lib_n - 1))
		sleep 0.1
	done
	READY=$(sed -n 's/^ready //p' "$1" | head -n 1)
	[ -n "$READY" ]
}

# start_workload OUT CMD [ARG...]: CMD in the background, stdout to OUT and
# stderr to OUT.err, its pid in WL_PID; then wait_ready OUT WL_PID. OUT is
# emptied first: the background shell opens it when it runs, and a ready
# line an earlier workload left there must not be read before.
start_workload() {
	_lib_out=$1
	shift
	: >"$_lib_out"
	"$@" >"$_lib_out" 2>"$_lib_out.err" &
	WL_PID=$!
	wait_ready "$_lib_out" "$WL_PID"
}

# stop_workload: the last workload started ended (TERM) and reaped.
stop_workload() {
	[ -n "${WL_PID:-}" ] || return 0
	kill -TERM "$WL_PID" 2>/dev/null
	wait "$WL_PID" 2>/dev/null
	WL_PID=
}
