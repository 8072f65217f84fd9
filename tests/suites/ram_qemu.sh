#!/bin/sh
# The ram view in qemu guests, each from a busybox initramfs: the phase "ram"
# (tests/guest/ram_guest.sh in the guest, checked by tests/lib/ram_phase.sh,
# which says what each case checks) of each case's boot (tests/qemu/phases;
# tests/run attaches other suites' phases to the same boots):
#   amd64      trixie-amd64              installed from SMBIOS
#   armhf      bookworm-armhf-ramfs      from the device tree; a ramfs root
#   armhf-dt   bookworm-armhf-dt         a reserved-memory region added
#   nopagemap  nopagemap-amd64           our 6.1 without pagemap (make
#                                        test-tinykernel)
#   headonly   nozeropage-amd64-headonly our 6.1, kpageflags marking free
#                                        blocks' first frames only
#   outside    nozeropage-amd64-outside  our 6.1, memory outside the buddy
#                                        allocator counted in MemFree
# usage: tests/suites/ram_qemu.sh [CASE...]   (default: amd64 armhf armhf-dt
# headonly outside). Needs make all (and build/tools/censusdump for headonly
# and outside) and make ARCH=arm all; the module is built here for our
# kernels. Up to RAM_JOBS guests at once (2), each case's lines shown in
# order. Last line: N passed, N failed.
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib/lib.sh
cases=${*:-amd64 armhf armhf-dt headonly outside}

# ram_boot CASE: its boot
ram_boot() {
	case $1 in
	amd64) echo trixie-amd64 ;;
	armhf) echo bookworm-armhf-ramfs ;;
	armhf-dt) echo bookworm-armhf-dt ;;
	nopagemap) echo nopagemap-amd64 ;;
	headonly|outside) echo nozeropage-amd64-$1 ;;
	esac
}

running=
for c in $cases; do
	b=$(ram_boot "$c")
	[ -n "$b" ] || continue
	tests/qemu/phases "$b" ram &
	running="$running $!"
	set -- $running
	if [ $# -ge "${RAM_JOBS:-2}" ]; then
		wait "$1"
		shift
		running="$*"
	fi
done
wait
for c in $cases; do
	TEST_PREFIX="$c: "
	b=$(ram_boot "$c")
	if [ -z "$b" ]; then
		no "$c: not a case (amd64 armhf armhf-dt nopagemap headonly outside)"
	elif [ -f "build/qemu/boots/$b/ram.log" ]; then
		tally "build/qemu/boots/$b/ram.log"
	else
		no "a boot" "tests/qemu/phases $b ram: no log (see its messages above)"
	fi
done
finish
