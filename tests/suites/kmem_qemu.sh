#!/bin/sh
# The kernel's memory by owner in qemu guests: a test module of ours
# (tests/kmod/xmkmem.c, loaded only there) holds known amounts by kmalloc,
# alloc_pages and vmalloc, frees them, then leaks at a known rate while
# watch samples (tests/guest/kmem_guest.sh runs there); tests/lib/kmem_check.py
# judges what came back against the module's own count, the kernel's files
# (vmallocinfo, allocinfo) read independently, and the rate built.
# Cases (each one boot, qemu -m 512):
#   debian     Debian trixie's amd64 kernel (6.12, no allocinfo): vmalloc by
#              owner alone, the note on what CONFIG_MEM_ALLOC_PROFILING
#              would add; the leak by vmalloc;
#   allocinfo  our 6.12 with MEM_ALLOC_PROFILING on from boot
#              (toolchain/tinykernel allocinfo): allocations by owner and call
#              site too; the leak by kmalloc, which vmallocinfo cannot see.
# usage: tests/suites/kmem_qemu.sh [CASE...]   (default: debian allocinfo)
# Needs make all (build/exmap-mini, this machine's: the guests are amd64).
# Work dir build/qemu/kmem/CASE; KMEM_JOBS guests at once (2).
# Last line: N passed, N failed.
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib/lib.sh
cases=${*:-debian allocinfo}
LEAK_KIB=64 WATCH_N=40

# A case's kernel, the module built for it, the initramfs.
prepare() {
	w=build/qemu/kmem/$c
	rm -rf "$w" && mkdir -p "$w/test" "$w/kmod" || { no "$w: cannot create"; return 1; }
	[ -x build/exmap-mini ] || { no "build/exmap-mini is not built (make all)"; return 1; }
	cp tests/kmod/xmkmem.c tests/kmod/Kbuild "$w/kmod/" || return 1
	case $c in
	debian)
		leak=vmalloc
		toolchain/kernel fetch trixie amd64 >"$w/fetch.log" 2>&1 ||
			{ cat "$w/fetch.log"; no "kernel fetch"; return 1; }
		eval "$(toolchain/kernel path trixie amd64)"
		toolchain/kernel make trixie amd64 M="$PWD/$w/kmod" modules >"$w/kmod.log" 2>&1 ;;
	allocinfo)
		leak=kmalloc
		toolchain/tinykernel allocinfo amd64 >"$w/kernel.out" 2>"$w/kernel.log" ||
			{ cat "$w/kernel.log"; no "kernel build"; return 1; }
		eval "$(cat "$w/kernel.out")"
		make -C "$kdir" ARCH=x86 M="$PWD/$w/kmod" modules >"$w/kmod.log" 2>&1 ;;
	*)	no "$c: not a case (debian allocinfo)"; return 1 ;;
	esac
	[ -f "$w/kmod/xmkmem.ko" ] || { tail -20 "$w/kmod.log"; no "xmkmem.ko built"; return 1; }
	check_cmd "xmkmem builds without a warning" not grep -i warning "$w/kmod.log"
	cp build/exmap-mini "$w/kmod/xmkmem.ko" "$w/test/" &&
		cp tests/guest/kmem_guest.sh "$w/test/run.sh" || return 1
	printf 'CASE=%s LEAK_KIND=%s LEAK_KIB=%s WATCH_N=%s\n' $c $leak $LEAK_KIB $WATCH_N \
		>"$w/test/params"
	tests/qemu/initramfs amd64 "$w/initramfs.cpio.gz" "$w"/test/* >"$w/initramfs.log" 2>&1 ||
		{ cat "$w/initramfs.log"; no "initramfs"; return 1; }
}

# One case: booted, what came back judged.
run_case() {
	t0=$(date +%s)
	QEMU_MEM=512M tests/qemu/boot amd64 "$image" "$w/initramfs.cpio.gz" "$w/console.log" 900 \
		2>"$w/boot.log"
	rc=$?
	check_eq "booted, ran and powered off ($(($(date +%s) - t0)) s)" "$rc" 0 \
		"boot exit $rc: $(cat "$w/boot.log")"
	[ $rc -eq 0 ] || return
	if ! tests/qemu/unframe "$w/console.log" "$w/out" >"$w/unframe.log" 2>&1; then
		no "the results came back whole over the serial console" "$(cat "$w/unframe.log")"
		return
	fi
	ok "the results came back whole over the serial console"
	echo "--- $c: exmap-mini ram, the kernel's owners"
	sed -n '/^vmalloc by owner/,/^census/p; /^note: .*allocinfo/p' "$w/out/ram"
	echo "--- $c: trend"
	cat "$w/out/trend_text"
	echo "---"
	run_checks "kmem_check.py" python3 tests/lib/kmem_check.py "$c" "$w/out" build/exmap-mini \
		"$leak" $LEAK_KIB
}

running=
mkdir -p build/qemu/kmem
for c in $cases; do
	TEST_PREFIX="$c: "
	log=build/qemu/kmem/$c.log
	if prepare >"$log" 2>&1; then
		run_case >>"$log" 2>&1 &
		running="$running $!"
	fi
	set -- $running
	if [ $# -ge "${KMEM_JOBS:-2}" ]; then
		wait "$1"
		shift
		running="$*"
	fi
done
wait
pass=0 fail=0	# counted from the logs
for c in $cases; do
	TEST_PREFIX="$c: "
	tally "build/qemu/kmem/$c.log"
done
finish
