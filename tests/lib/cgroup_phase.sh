#!/bin/sh
# The cgroups view in a qemu guest, as a phase of a guest boot
# (tests/qemu/phases): cgroups are made and changed only there, never on
# this machine. The guest side is tests/guest/cgroup_guest.sh,
# tests/lib/cgroup_check.py checks what comes back. Each case is a boot
# (tests/lib/boots.sh), its cases the kernel's:
#   trixie (boot trixie-amd64)
#             Debian trixie's kernel (6.12, no cgroup v1 memory controller):
#             no cgroup mount at all, then cgroup v2;
#   bookworm (bookworm-amd64)
#             Debian bookworm's (6.1): no mount, then the hybrid (a v1
#             memory hierarchy and an empty v2 tree), then v1 alone.
# All in one guest, one after the other, each mounting what it needs and
# unmounting it. In each case with a mount, charge against share (a tmpfs
# file of CG_KIB KiB written first by a process in one group, mapped by two
# in another: memory.stat's shmem is the file in the first and 0 in the
# second; each group's eff_resident is its processes' Pss, every steady
# process's eff_resident its Pss; the charges are memory.stat's), the dump
# loaded here, and the faults: a process killed, and a cgroup removed, at a
# known point of a scan (tests/work/stopat.c), each one line, nothing made
# up; on v2 and v1, a watch while a heap grows CG_RATE KiB/s in one group:
# trend's row for that cgroup grows at the rate (and the Pss's), the steady
# group's not. Then the guest is as the phase found it: its processes
# ended, its mounts gone, the memory controller back where it was with as
# many cgroups as before, /mnt and /tmp as they were.
# usage: tests/lib/cgroup_phase.sh prefix|prepare|check ENV PHASE [DIR]
# (tests/qemu/phases says what each does).
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib/lib.sh
cmd=$1 env=$2 phase=$3 pdir=${4:-}
. "$env"
CG_KIB=8192 CG_RATE=64 CG_COUNT=40
EXMAP=build/exmap-mini	# this machine's: it loads the guest's dumps and watch logs

# cg_case BOOT: the case a boot is, and its cases (empty: none)
cg_case() {
	case $1 in
	trixie-amd64) echo "trixie nomount v2" ;;
	bookworm-amd64) echo "bookworm nomount hybrid v1" ;;
	esac
}
set -- $(cg_case "$boot")
c=${1:-}
[ $# -eq 0 ] || shift
cases="$*"
TEST_PREFIX="${c:-$boot}: "

# The case's files: exmap-mini, the workloads, the guest script, params.
prepare() {
	dir=$1
	[ -n "$c" ] || { no "$boot: not a boot of the cgroup cases (trixie-amd64, bookworm-amd64)"; return 1; }
	[ -z "$kernel_error" ] || { no "${kernel_error%%:*}" "${kernel_error#*: }"; return 1; }
	for f in "$bin/exmap-mini" "$tools/cgwork" "$tools/stopat" "$tools/leakwork"; do
		[ -x "$f" ] || { no "$f is not built (make test builds it)"; return 1; }
		cp "$f" "$dir/" || return 1
	done
	cp tests/guest/cgroup_guest.sh "$dir/guest.sh" || return 1
	printf 'CG_CASES="%s" CG_KIB=%s CG_RATE=%s CG_COUNT=%s\n' "$cases" $CG_KIB $CG_RATE $CG_COUNT \
		>"$dir/params"
	echo 300 >"$w/$phase.budget"
}

# none of the processes the phase started still ran at its end (else them)
none_left() {
	[ "$(cat "$o/cg.left.procs.rc" 2>/dev/null)" = 0 ] && [ ! -s "$o/cg.left.procs" ] && return 0
	echo "rc $(cat "$o/cg.left.procs.rc" 2>/dev/null):" $(cat "$o/cg.left.procs" 2>/dev/null)
	return 1
}
# the guest as the phase found it: the same state before and after
same_state() {
	cmp -s "$o/cg.left.state0" "$o/cg.left.state1" && [ -s "$o/cg.left.state0" ] && return 0
	diff "$o/cg.left.state0" "$o/cg.left.state1" 2>&1 | grep '^[<>]' | head -n 6 | tr '\n' ';'
	return 1
}

# The boot and what came back: checked.
check() {
	phase_back uname || return
	for k in $cases; do
		echo "--- $c, $k: exmap-mini cgroups"
		cat "$o/cg.$k.text"
		run_checks "$k: the checks ran" env TEST_PREFIX="$TEST_PREFIX" \
			python3 tests/lib/cgroup_check.py guest "$o" "$k" $CG_KIB "$EXMAP"
		[ -s "$o/cg.$k.watch" ] || continue
		"$EXMAP" -l "$o/cg.$k.watch" -c trend >"$o/cg.$k.trend" 2>"$o/cg.$k.trend.err"
		echo "--- $c, $k: exmap-mini trend's cgroups"
		"$EXMAP" -l "$o/cg.$k.watch" trend 2>/dev/null | sed -n '/^cgroups/,/^$/p'
		run_checks "$k: the trend checks ran" env TEST_PREFIX="$TEST_PREFIX" \
			python3 tests/lib/cgroup_check.py trend "$o" "$k" $CG_RATE "$CG_COUNT"
	done
	# for the phases after this one
	check_cmd "left as found: every process it started ended" none_left
	check_cmd "left as found: mounts, the memory controller and its cgroups, /mnt and /tmp as before" \
		same_state
}

case $cmd in
prefix) printf '%s' "$TEST_PREFIX" ;;
prepare) prepare "$pdir" ;;
check) check; [ "$fail" -eq 0 ] ;;
*) echo "usage: tests/lib/cgroup_phase.sh prefix|prepare|check ENV PHASE [DIR]" >&2; exit 2 ;;
esac
