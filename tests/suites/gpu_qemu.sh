#!/bin/sh
# GPU memory per DRM client in a qemu guest: exmap-mini's figures held to
# the DRM core's fdinfo keys and to the sizes built. No driver that a qemu
# machine runs prints those keys in Debian's kernels (virtio-gpu, bochs,
# qxl, cirrus-qemu, vmwgfx, vgem: none; vkms unbuilt), so a test DRM
# device stands in: tests/kmod/xmkgem.c, built against Debian trixie's
# amd64 kernel (6.12) and loaded only in the guest, whose show_fdinfo is
# the core's drm_show_memory_stats(). tests/guest/gpu_guest.sh runs there,
# tests/lib/gpu_check.py checks here. One boot, qemu -m 512 MiB.
# usage: tests/suites/gpu_qemu.sh    Needs make all build/host/gpuwork.
# Work dir build/qemu/gpu. Last line: N passed, N failed.
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib/lib.sh
EXMAP=${EXMAP:-build/exmap-mini}
w=build/qemu/gpu

prepare() {
	rm -rf "$w" && mkdir -p "$w/test" "$w/kmod" || { no "$w: cannot create"; return 1; }
	for f in "$EXMAP" build/host/gpuwork; do
		[ -x "$f" ] || { no "$f is not built (make all build/host/gpuwork)"; return 1; }
	done
	toolchain/kernel fetch trixie amd64 >"$w/fetch.log" 2>&1 ||
		{ cat "$w/fetch.log"; no "kernel fetch"; return 1; }
	eval "$(toolchain/kernel path trixie amd64)"
	tests/lib/gpu_prepare.sh trixie amd64 "$w/kmod" "$w/test" >"$w/prepare.log" 2>&1 ||
		{ cat "$w/prepare.log"; no "xmkgem.ko and the modules it needs"; return 1; }
	check_cmd "xmkgem builds without a warning" not grep -i warning "$w/kmod/kmod.log"
	cp "$EXMAP" build/host/gpuwork tests/guest/gpu_guest.sh "$w/test/" || return 1
	cat >"$w/test/run.sh" <<EOT
cd /test || exit 1
. /test/frame.sh
. /test/gpu_guest.sh
frame_begin gpu
gpu_guest
frame_end
EOT
	tests/qemu/initramfs amd64 "$w/initramfs.cpio.gz" "$w"/test/* >"$w/initramfs.log" 2>&1 ||
		{ cat "$w/initramfs.log"; no "initramfs"; return 1; }
}

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
	echo "--- exmap-mini dmabuf (its DRM rows)"
	cat "$w/out/dmabuf_t"
	echo "---"
	run_checks "the checker ran" python3 tests/lib/gpu_check.py "$w/out" "$EXMAP"
}

prepare && run_case
finish
