#!/bin/sh
# The GPU guest check's modules: tests/kmod/xmkgem.c built against DIST
# ARCH's Debian kernel in KDIR (the build's log KDIR/kmod.log), and it with
# the kernel's modules it needs (drm_shmem_helper, drm and theirs, from the
# kernel's package, unpacked once per machine beside it in the cache) put
# into TESTDIR, with TESTDIR/modules.load naming them in load order (lines
# already there kept first: a boot that loads other modules too).
#
#   tests/lib/gpu_prepare.sh DIST ARCH KDIR TESTDIR
#
# For tests/lib/gpu_phase.sh (phase gpu), or any boot of a kernel that runs
# tests/guest/gpu_guest.sh. Exit 1 with a line saying what failed.
set -u
cd "$(dirname "$0")/../.." || exit 1
[ $# -eq 4 ] || { echo "usage: tests/lib/gpu_prepare.sh DIST ARCH KDIR TESTDIR" >&2; exit 2; }
dist=$1 arch=$2 k=$3 t=$4
case $k in /*) ;; *) k=$PWD/$k ;; esac
mkdir -p "$k" "$t" || { echo "gpu_prepare: $k, $t: cannot create" >&2; exit 1; }
cp tests/kmod/xmkgem.c "$k/" && echo 'obj-m := xmkgem.o' >"$k/Kbuild" || exit 1
toolchain/kernel make "$dist" "$arch" M="$k" modules >"$k/kmod.log" 2>&1
[ -f "$k/xmkgem.ko" ] || { tail -20 "$k/kmod.log"; echo "gpu_prepare: xmkgem.ko not built" >&2; exit 1; }
deb=$(toolchain/kernel deb "$dist" "$arch" image) || exit 1
m=${deb%/debs/*}/modules/$(basename "$deb" .deb)+drm_shmem_helper
mkdir -p "${m%/*}" || exit 1
flock "$m.lock" tests/qemu/modules "$deb" "$m" drm_shmem_helper ||
	{ echo "gpu_prepare: drm_shmem_helper: the kernel's modules for the guest" >&2; exit 1; }
cp "$m"/*.ko "$k/xmkgem.ko" "$t/" || exit 1
touch "$t/modules.load"
for x in $(cat "$m/modules.load") xmkgem; do
	grep -qx "$x" "$t/modules.load" || echo "$x" >>"$t/modules.load"
done
