#!/bin/sh
# GPU memory per DRM client, as a phase of a guest boot (tests/qemu/phases;
# tests/run attaches it to trixie-amd64's boot): exmap-mini's figures held
# to the DRM core's fdinfo keys and to the sizes built. No driver that a
# qemu machine runs prints those keys in Debian's kernels (virtio-gpu,
# bochs, qxl, cirrus-qemu, vmwgfx, vgem: none; vkms unbuilt), so a test DRM
# device stands in: tests/kmod/xmkgem.c, built for the boot's Debian kernel
# and loaded only in the guest, whose show_fdinfo is the core's
# drm_show_memory_stats(). tests/guest/gpu_guest.sh runs there,
# tests/lib/gpu_check.py checks here. Each check is named "BOOT: ...".
# usage: tests/lib/gpu_phase.sh prefix|prepare|check ENV PHASE [DIR]
# (tests/qemu/phases says what each does).
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib/lib.sh
cmd=$1 env=$2 phase=$3
. "$env"
TEST_PREFIX="$boot: "

# xmkgem built for the boot's kernel with the kernel's modules it needs
# (tests/lib/gpu_prepare.sh), exmap-mini, gpuwork and the guest's script
# into DIR.
prepare() {
	dir=$1
	[ "$kind" = debian ] || { no "$boot: not a Debian kernel (xmkgem needs its drm_shmem_helper)"; return 1; }
	[ -z "$kernel_error" ] || { no "${kernel_error%%:*}" "${kernel_error#*: }"; return 1; }
	for f in "$bin/exmap-mini" "$tools/gpuwork"; do
		[ -x "$f" ] || { no "$f is not built (make all $tools/gpuwork)"; return 1; }
	done
	k=$w/$phase.kmod
	rm -rf "$k" || return 1
	tests/lib/gpu_prepare.sh "$kdist" "${karg:-$arch}" "$k" "$dir" >"$w/$phase.prepare.log" 2>&1 ||
		{ cat "$w/$phase.prepare.log"; no "xmkgem.ko and the modules it needs"; return 1; }
	check_cmd "xmkgem builds without a warning" not grep -i warning "$k/kmod.log"
	cp "$bin/exmap-mini" "$tools/gpuwork" "$dir/" && cp tests/guest/gpu_guest.sh "$dir/guest.sh" ||
		return 1
	echo 300 >"$w/$phase.budget"
}

# The boot and what came back: checked.
check() {
	phase_back || return
	echo "--- exmap-mini dmabuf (its DRM rows)"
	cat "$o/dmabuf_t"
	echo "---"
	run_checks "the checker ran" env TEST_PREFIX="$TEST_PREFIX" python3 tests/lib/gpu_check.py "$o" build/exmap-mini
	check_eq "the guest left as found: modules, debugfs" "$(cat "$o/left" 2>/dev/null)" "as found"
}

case $cmd in
prefix) printf '%s' "$TEST_PREFIX" ;;
prepare) prepare "$4" ;;
check) check; [ "$fail" -eq 0 ] ;;
*) echo "usage: tests/lib/gpu_phase.sh prefix|prepare|check ENV PHASE [DIR]" >&2; exit 2 ;;
esac
