#!/bin/sh
# dma-bufs, DRM clients and CMA in qemu guests: tests/guest/dmabuf_guest.sh
# runs there (sourced by the guest's run.sh), tests/lib/dmabuf_check.py
# checks here what came back. Cases (each one boot, qemu -m 512 MiB):
#   heap  Debian trixie's amd64 kernel (6.12): the DMA-BUF system heap and
#         udmabuf built in; vgem, a module of the kernel's package, loaded,
#         so the workload is a DRM client too (6.12 names its clients in
#         fdinfo; vgem gives no memory figure);
#   vgem  Debian bookworm's amd64 kernel (6.1): vgem's dumb buffers
#         exported by PRIME (DRM_IOCTL_MODE_CREATE_DUMB, then
#         DRM_IOCTL_PRIME_HANDLE_TO_FD); no drm-client-id before 5.19's
#         fdinfo, so no DRM client is named;
#   cma   Debian trixie's arm64 kernel on -M virt: CMA of 64 MiB (its
#         CONFIG_CMA_SIZE_MBYTES); it has no DMA-BUF heaps at all
#         (CONFIG_DMABUF_HEAPS unset), so no cma heap to allocate from:
#         udmabuf's buffers, and the ram view's CMA held to meminfo.
# usage: tests/suites/dmabuf_qemu.sh [CASE...]   (default: heap vgem cma).
# Needs make all build/host/dmabufwork, make ARCH=arm64
# build/arm64/tools/dmabufwork and, since arm64's board build leaves
# dma-bufs out (toolchain/arm64.mk), make ARCH=arm64 BUILD=build/arm64-dmabuf
# DMABUF=1 build/arm64-dmabuf/exmap-mini. Work dir build/qemu/dmabuf/CASE;
# DMABUF_JOBS guests at once (2). Last line: N passed, N failed.
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib/lib.sh
cases=${*:-heap vgem cma}
EXMAP=${EXMAP:-build/exmap-mini}

# A case's kernel, modules, binaries and initramfs.
prepare() {
	w=build/qemu/dmabuf/$c
	rm -rf "$w" && mkdir -p "$w/test" || { no "$w: cannot create"; return 1; }
	mods=
	case $c in
	heap)	dist=trixie arch=amd64 bin=build tools=build/host src=heap:system extra=udmabuf mods=vgem ;;
	vgem)	dist=bookworm arch=amd64 bin=build tools=build/host src=vgem extra= mods=vgem ;;
	cma)	dist=trixie arch=arm64 bin=build/arm64-dmabuf tools=build/arm64/tools src=udmabuf extra= ;;
	*)	no "$c: not a case (heap vgem cma)"; return 1 ;;
	esac
	for f in "$bin/exmap-mini" "$tools/dmabufwork"; do
		[ -x "$f" ] || { no "$f is not built (the suite's usage says how)"; return 1; }
	done
	toolchain/kernel fetch $dist $arch >"$w/fetch.log" 2>&1 ||
		{ cat "$w/fetch.log"; no "kernel fetch"; return 1; }
	eval "$(toolchain/kernel path $dist $arch)"
	if [ -n "$mods" ]; then
		m=build/qemu/modules/dmabuf-$dist-$arch
		tests/qemu/modules "$(ls "${kdir%%/root/*}"/debs/linux-image-*.deb | head -n 1)" "$m" $mods ||
			{ no "$mods: the modules for the guest"; return 1; }
		cp "$m"/*.ko "$m/modules.load" "$w/test/" || return 1
	fi
	cp "$bin/exmap-mini" "$tools/dmabufwork" tests/guest/dmabuf_guest.sh "$w/test/" || return 1
	cat >"$w/test/run.sh" <<EOF
cd /test || exit 1
. /test/frame.sh
. /test/dmabuf_guest.sh
frame_begin dmabuf-$c
dmabuf_guest $src $extra
frame_end
EOF
	tests/qemu/initramfs $arch "$w/initramfs.cpio.gz" "$w"/test/* >"$w/initramfs.log" 2>&1 ||
		{ cat "$w/initramfs.log"; no "initramfs"; return 1; }
}

# One case: booted, what came back checked.
run_case() {
	t0=$(date +%s)
	QEMU_MEM=512M tests/qemu/boot $arch "$image" "$w/initramfs.cpio.gz" "$w/console.log" 900 \
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
	echo "--- $c: exmap-mini dmabuf"
	cat "$w/out/dmabuf_t"
	echo "---"
	TEST_PREFIX=$TEST_PREFIX run_checks "the checker ran" \
		env TEST_PREFIX="$TEST_PREFIX" python3 tests/lib/dmabuf_check.py "$w/out" "$c" "$EXMAP"
}

running=
mkdir -p build/qemu/dmabuf
for c in $cases; do
	TEST_PREFIX="$c: "
	log=build/qemu/dmabuf/$c.log
	if prepare >"$log" 2>&1; then
		run_case >>"$log" 2>&1 &
		running="$running $!"
	fi
	set -- $running
	if [ $# -ge "${DMABUF_JOBS:-2}" ]; then
		wait "$1"
		shift
		running="$*"
	fi
done
wait
pass=0 fail=0	# counted from the logs
for c in $cases; do
	TEST_PREFIX="$c: "
	tally "build/qemu/dmabuf/$c.log"
done
finish
