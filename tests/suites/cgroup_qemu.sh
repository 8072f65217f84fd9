#!/bin/sh
# The cgroups view in qemu guests (cgroups are made and changed only there,
# never on this machine), each booted from a busybox initramfs whose run.sh
# sources tests/guest/cgroup_guest.sh; tests/lib/cgroup_check.py checks what
# comes back. Targets (each one boot):
#   trixie    Debian trixie's kernel (6.12, no cgroup v1 memory controller):
#             no cgroup mount at all, then cgroup v2;
#   bookworm  Debian bookworm's (6.1): no mount, then the hybrid (a v1
#             memory hierarchy and an empty v2 tree), then v1 alone.
# In each case with a mount, charge against share (a tmpfs file of CG_KIB
# KiB written first by a process in one group, mapped by two in another:
# memory.stat's shmem is the file in the first and 0 in the second; each
# group's eff_resident is its processes' Pss, every steady process's
# eff_resident its Pss; the charges are memory.stat's), the dump loaded here,
# and the faults: a process killed, and a cgroup removed, at a known point
# of a scan (tests/work/stopat.c), each one line, nothing made up; on v2 and
# v1, a watch while a heap grows CG_RATE KiB/s in one group: trend's row for
# that cgroup grows at the rate (and the Pss's), the steady group's not.
# usage: tests/suites/cgroup_qemu.sh [TARGET...]   (default: trixie bookworm)
# Needs make all build/host/cgwork build/host/stopat build/host/leakwork. Work dir
# build/qemu/cgroup/TARGET; CG_JOBS guests at once (2).
# Last line: N passed, N failed.
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib/lib.sh
targets=${*:-trixie bookworm}
CG_KIB=8192 CG_RATE=64 CG_COUNT=40 MEM_MIB=512
EXMAP=build/exmap-mini

prepare() {
	w=build/qemu/cgroup/$t
	rm -rf "$w" && mkdir -p "$w/test" || { no "$w: cannot create"; return 1; }
	case $t in
	trixie) cases="nomount v2" ;;
	bookworm) cases="nomount hybrid v1" ;;
	*) no "$t: not a target (trixie bookworm)"; return 1 ;;
	esac
	for f in $EXMAP build/host/cgwork build/host/stopat build/host/leakwork; do
		[ -x "$f" ] || { no "$f is not built (make all build/host/cgwork build/host/stopat build/host/leakwork)"; return 1; }
		cp "$f" "$w/test/" || return 1
	done
	toolchain/kernel fetch $t amd64 >"$w/fetch.log" 2>&1 ||
		{ cat "$w/fetch.log"; no "kernel fetch"; return 1; }
	eval "$(toolchain/kernel path $t amd64)"
	cp tests/guest/cgroup_guest.sh "$w/test/" || return 1
	printf 'CG_CASES="%s" CG_KIB=%s CG_RATE=%s CG_COUNT=%s\n' "$cases" $CG_KIB $CG_RATE $CG_COUNT \
		>"$w/test/params"
	cat >"$w/test/run.sh" <<'EOF'
. /test/frame.sh
. /test/params
frame_begin cgroup
frame_cmd uname uname -r
. /test/cgroup_guest.sh
frame_end
EOF
	tests/qemu/initramfs amd64 "$w/initramfs.cpio.gz" "$w"/test/* >"$w/initramfs.log" 2>&1 ||
		{ cat "$w/initramfs.log"; no "initramfs"; return 1; }
}

run_target() {
	t0=$(date +%s)
	QEMU_MEM=${MEM_MIB}M tests/qemu/boot amd64 "$image" "$w/initramfs.cpio.gz" "$w/console.log" 600 \
		2>"$w/boot.log"
	rc=$?
	check_eq "booted, ran and powered off ($(($(date +%s) - t0)) s)" "$rc" 0 \
		"boot exit $rc: $(cat "$w/boot.log")"
	[ $rc -eq 0 ] || return
	if ! tests/qemu/unframe "$w/console.log" "$w/out" >"$w/unframe.log" 2>&1; then
		no "the results came back whole over the serial console" "$(cat "$w/unframe.log")"
		return
	fi
	ok "the results came back whole over the serial console ($(cat "$w/out/uname"))"
	for c in $cases; do
		echo "--- $t, $c: exmap-mini cgroups"
		cat "$w/out/cg.$c.text"
		run_checks "$c: the checks ran" env TEST_PREFIX="$TEST_PREFIX" \
			python3 tests/lib/cgroup_check.py guest "$w/out" "$c" $CG_KIB \
			"$EXMAP"
		[ -s "$w/out/cg.$c.watch" ] || continue
		"$EXMAP" -l "$w/out/cg.$c.watch" -c trend >"$w/out/cg.$c.trend" 2>"$w/out/cg.$c.trend.err"
		echo "--- $t, $c: exmap-mini trend's cgroups"
		"$EXMAP" -l "$w/out/cg.$c.watch" trend 2>/dev/null | sed -n '/^cgroups/,/^$/p'
		run_checks "$c: the trend checks ran" env TEST_PREFIX="$TEST_PREFIX" \
			python3 tests/lib/cgroup_check.py trend "$w/out" "$c" $CG_RATE "$CG_COUNT"
	done
}

running=
mkdir -p build/qemu/cgroup
for t in $targets; do
	TEST_PREFIX="$t: "
	log=build/qemu/cgroup/$t.log
	if prepare >"$log" 2>&1; then
		run_target >>"$log" 2>&1 &
		running="$running $!"
	fi
	set -- $running
	if [ $# -ge "${CG_JOBS:-2}" ]; then
		wait "$1"
		shift
		running="$*"
	fi
done
wait
for t in $targets; do
	TEST_PREFIX="$t: "
	tally "build/qemu/cgroup/$t.log"
done
finish
