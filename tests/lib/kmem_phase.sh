#!/bin/sh
# The kernel's memory by owner, as a phase of a guest boot (tests/qemu/phases;
# tests/run attaches it to its boots): a test module of ours
# (tests/kmod/xmkmem.c, built for the boot's kernel, loaded only there) holds
# known amounts by kmalloc, alloc_pages and vmalloc, frees them, then leaks at
# a known rate while watch samples (tests/guest/kmem_guest.sh runs there);
# tests/lib/kmem_check.py judges what came back against the module's own
# count, the kernel's files (vmallocinfo, allocinfo) read independently, and
# the rate built. The cases, by boot (tests/lib/boots.sh):
#   trixie-amd64     debian: Debian trixie's kernel (6.12, no allocinfo):
#                    vmalloc by owner alone, the note on what
#                    CONFIG_MEM_ALLOC_PROFILING would add; the leak by vmalloc;
#   allocinfo-amd64  allocinfo: our 6.12 with MEM_ALLOC_PROFILING on from boot
#                    (toolchain/tinykernel allocinfo): allocations by owner
#                    and call site too; the leak by kmalloc, which
#                    vmallocinfo cannot see.
# Each check is named "CASE: ..." (what the boot is to this phase).
# usage: tests/lib/kmem_phase.sh prefix|prepare|check ENV PHASE [DIR]
# (tests/qemu/phases says what each does).
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib/lib.sh
cmd=$1 env=$2 phase=$3
. "$env"
LEAK_KIB=64 WATCH_N=40

# kmem_case BOOT: the case a boot is (empty: none)
kmem_case() {
	case $1 in
	trixie-amd64) echo debian ;;
	allocinfo-amd64) echo allocinfo ;;
	esac
}
c=$(kmem_case "$boot")
TEST_PREFIX="${c:-$boot}: "

# The module built for the boot's kernel, exmap-mini, the guest's script
# and its params into DIR.
prepare() {
	dir=$1
	[ -n "$c" ] || { no "$boot: not a boot of the kernel-memory cases"; return 1; }
	[ -z "$kernel_error" ] || { no "${kernel_error%%:*}" "${kernel_error#*: }"; return 1; }
	[ -x "$bin/exmap-mini" ] || { no "$bin/exmap-mini is not built (make all)"; return 1; }
	k=$w/$phase.kmod
	rm -rf "$k" && mkdir -p "$k" && cp tests/kmod/xmkmem.c tests/kmod/Kbuild "$k/" || return 1
	case $c in
	debian)
		leak=vmalloc
		toolchain/kernel make "$kdist" "${karg:-$arch}" M="$PWD/$k" modules >"$k.log" 2>&1 ;;
	allocinfo)
		leak=kmalloc
		make -C "$kdir" ARCH=x86 M="$PWD/$k" modules >"$k.log" 2>&1 ;;
	esac
	[ -f "$k/xmkmem.ko" ] || { tail -20 "$k.log"; no "xmkmem.ko built"; return 1; }
	check_cmd "xmkmem builds without a warning" not grep -i warning "$k.log"
	cp "$bin/exmap-mini" "$k/xmkmem.ko" "$dir/" && cp tests/guest/kmem_guest.sh "$dir/guest.sh" ||
		return 1
	printf 'CASE=%s LEAK_KIND=%s LEAK_KIB=%s WATCH_N=%s\n' "$c" $leak $LEAK_KIB $WATCH_N >"$dir/params"
	echo 420 >"$w/$phase.budget"
}

# The boot and what came back: checked.
check() {
	phase_back || return
	echo "--- $c: exmap-mini ram, the kernel's owners"
	sed -n '/^vmalloc by owner/,/^census/p; /^note: .*allocinfo/p' "$o/ram"
	echo "--- $c: trend"
	cat "$o/trend_text"
	echo "---"
	case $c in debian) leak=vmalloc ;; *) leak=kmalloc ;; esac
	run_checks "kmem_check.py" python3 tests/lib/kmem_check.py "$c" "$o" build/exmap-mini \
		"$leak" $LEAK_KIB
}

case $cmd in
prefix) printf '%s' "$TEST_PREFIX" ;;
prepare) prepare "$4" ;;
check) check; [ "$fail" -eq 0 ] ;;
*) echo "usage: tests/lib/kmem_phase.sh prefix|prepare|check ENV PHASE [DIR]" >&2; exit 2 ;;
esac
