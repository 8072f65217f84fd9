#!/bin/sh
# dma-bufs, DRM clients and CMA, as a phase of a guest boot (tests/qemu/phases;
# tests/suites/dmabuf_qemu.sh runs it on its boots, and so does tests/run, in
# the boots the module's matrix makes): tests/guest/dmabuf_guest.sh runs in
# the guest, tests/lib/dmabuf_check.py checks here what came back. Cases,
# each a boot of tests/lib/boots.sh (512 MiB, as the boot is for the others):
#   heap  trixie-amd64: Debian's 6.12, the DMA-BUF system heap and udmabuf
#         built in; vgem, a module of the kernel's package, loaded, so the
#         workload is a DRM client too (6.12 names its clients in fdinfo;
#         vgem gives no memory figure);
#   vgem  bookworm-amd64: Debian's 6.1, vgem's dumb buffers exported by PRIME
#         (DRM_IOCTL_MODE_CREATE_DUMB, then DRM_IOCTL_PRIME_HANDLE_TO_FD); no
#         drm-client-id before 5.19's fdinfo, so no DRM client is named;
#   cma   trixie-arm64 on -M virt: CMA of 64 MiB (its CONFIG_CMA_SIZE_MBYTES,
#         no kernel argument); no DMA-BUF heaps at all (CONFIG_DMABUF_HEAPS
#         unset), so no cma heap to allocate from: udmabuf's buffers, and the
#         ram view's CMA held to meminfo. arm64's board build leaves dma-bufs
#         out (toolchain/arm64.mk): the guest runs build/arm64-dmabuf's.
# vgem and the modules it needs are unpacked once per machine beside the
# kernel's package in the cache (toolchain/kernel deb), in a directory and
# under a lock of their own (kmod's phase keeps zram in another). The guest
# unloads them at the end, for the phases after this one.
# usage: tests/lib/dmabuf_phase.sh prefix|prepare|check ENV PHASE [DIR]
# (tests/qemu/phases says what each does).
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib/lib.sh
cmd=$1 env=$2 phase=$3
. "$env"
EXMAP=${EXMAP:-build/exmap-mini}

# dmabuf_case BOOT: the case a boot is (empty: none)
dmabuf_case() {
	case $1 in
	trixie-amd64) echo heap ;;
	bookworm-amd64) echo vgem ;;
	trixie-arm64) echo cma ;;
	esac
}
c=$(dmabuf_case "$boot")
TEST_PREFIX="${c:-$boot}: "

# A case's files: exmap-mini, dmabufwork, the modules, the params.
prepare() {
	dir=$1
	[ -n "$c" ] || { no "$boot: not a boot of the dma-buf cases (trixie-amd64 bookworm-amd64 trixie-arm64)"; return 1; }
	[ -z "$kernel_error" ] || { no "${kernel_error%%:*}" "${kernel_error#*: }"; return 1; }
	prog=$bin/exmap-mini mods=
	case $c in
	heap) src=heap:system extra=udmabuf mods=vgem ;;
	vgem) src=vgem extra= mods=vgem ;;
	cma) src=udmabuf extra= prog=build/arm64-dmabuf/exmap-mini ;;
	esac
	for f in "$prog" "$tools/dmabufwork"; do
		[ -x "$f" ] || { no "$f is not built (make test builds it)"; return 1; }
	done
	if [ -n "$mods" ]; then
		deb=$(toolchain/kernel deb "$kdist" "${karg:-$arch}" image 2>"$w/$phase.deb.log") &&
			m=${deb%/debs/*}/modules/$(basename "$deb" .deb)+$(echo $mods | tr ' ' +) &&
			mkdir -p "${m%/*}" &&
			flock "$m.lock" sh -c 'tests/qemu/modules "$@" && cp "$2"/*.ko "$2/modules.load" "$0/"' \
				"$dir" "$deb" "$m" $mods ||
			{ cat "$w/$phase.deb.log"; no "$mods: the modules for the guest"; return 1; }
	fi
	cp "$prog" "$tools/dmabufwork" "$dir/" && cp tests/guest/dmabuf_guest.sh "$dir/guest.sh" || return 1
	printf 'SRC=%s EXTRA=%s\n' "$src" "$extra" >"$dir/params"
	echo 600 >"$w/$phase.budget"
}

# The boot and what came back: checked.
check() {
	phase_back || return
	echo "--- $c: exmap-mini dmabuf"
	cat "$o/dmabuf_t"
	echo "---"
	run_checks "the checker ran" \
		env TEST_PREFIX="$TEST_PREFIX" python3 tests/lib/dmabuf_check.py "$o" "$c" "$EXMAP"
	# the guest left as found, for the phases after this one
	if [ -f "$w/test/$phase/modules.load" ]; then
		check_eq "the modules unloaded after ($(echo $(cat "$w/test/$phase/modules.load")))" \
			"$(cat "$o/rmmod.rc" 2>/dev/null)" 0 "$(cat "$o/rmmod.stderr" 2>/dev/null)"
	fi
}

case $cmd in
prefix) printf '%s' "$TEST_PREFIX" ;;
prepare) prepare "$4" ;;
check) check; [ "$fail" -eq 0 ] ;;
*) echo "usage: tests/lib/dmabuf_phase.sh prefix|prepare|check ENV PHASE [DIR]" >&2; exit 2 ;;
esac
