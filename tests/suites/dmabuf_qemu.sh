#!/bin/sh
# dma-bufs, DRM clients and CMA in qemu guests, each from a busybox initramfs:
# the phase "dmabuf" (tests/guest/dmabuf_guest.sh in the guest, checked by
# tests/lib/dmabuf_phase.sh and tests/lib/dmabuf_check.py) of each case's boot
# (tests/qemu/phases; tests/run attaches it to the boots the module's matrix
# makes):
#   heap  trixie-amd64    the DMA-BUF system heap and udmabuf, vgem loaded
#   vgem  bookworm-amd64  vgem's dumb buffers exported by PRIME
#   cma   trixie-arm64    CMA of 64 MiB; udmabuf's buffers
# usage: tests/suites/dmabuf_qemu.sh [CASE...]   (default: heap vgem cma).
# Needs make all build/host/dmabufwork, make ARCH=arm64
# build/arm64/tools/dmabufwork and, since arm64's board build leaves
# dma-bufs out (toolchain/arm64.mk), make ARCH=arm64 BUILD=build/arm64-dmabuf
# DMABUF=1 build/arm64-dmabuf/exmap-mini. Up to DMABUF_JOBS guests at once
# (2), each case's lines shown in order. Last line: N passed, N failed.
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib/lib.sh
cases=${*:-heap vgem cma}

# dmabuf_boot CASE: its boot
dmabuf_boot() {
	case $1 in
	heap) echo trixie-amd64 ;;
	vgem) echo bookworm-amd64 ;;
	cma) echo trixie-arm64 ;;
	esac
}

running=
for c in $cases; do
	b=$(dmabuf_boot "$c")
	[ -n "$b" ] || continue
	tests/qemu/phases "$b" dmabuf &
	running="$running $!"
	set -- $running
	if [ $# -ge "${DMABUF_JOBS:-2}" ]; then
		wait "$1"
		shift
		running="$*"
	fi
done
wait
for c in $cases; do
	TEST_PREFIX="$c: "
	b=$(dmabuf_boot "$c")
	if [ -z "$b" ]; then
		no "$c: not a case (heap vgem cma)"
	elif [ -f "build/qemu/boots/$b/dmabuf.log" ]; then
		tally "build/qemu/boots/$b/dmabuf.log"
	else
		no "a boot" "tests/qemu/phases $b dmabuf: no log (see its messages above)"
	fi
done
finish
