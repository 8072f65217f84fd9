#!/bin/sh
# Smoke test of the qemu kernel-test infrastructure, end to end: for each
# target, fetch the Debian kernel (toolchain/kernel), build a trivial module
# (tests/qemu/hello) against its headers, boot it (tests/qemu/boot) with an
# initramfs (tests/qemu/initramfs) whose run.sh loads the module, prints
# uname -r, the head of /proc/meminfo and the end of dmesg, unloads it, and
# sends all that framed (tests/qemu/frame.sh); unframe it and check it.
#
#   tests/qemu/smoke.sh [DIST-ARCH...]
#
# Default targets: bullseye-amd64 bookworm-amd64 trixie-amd64 bookworm-armhf
# bookworm-arm64; any other DIST-ARCH that toolchain/kernel fetches works too
# (bookworm-mipsel, trixie-backports-amd64). Work files:
# build/qemu/smoke/DIST-ARCH/ (console.log, out/ with the unframed blocks).
# Prints the wall time of each step; ends with "N passed, N failed"; exit
# status 0 when none failed.
set -u

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
. "$repo/tests/lib/lib.sh"
kernel=$repo/toolchain/kernel
targets=${*:-bullseye-amd64 bookworm-amd64 trixie-amd64 bookworm-armhf bookworm-arm64}
timeout=${SMOKE_TIMEOUT:-300}

summary=""
now() { date +%s; }
# failed STEP: the current target failed at STEP.
failed() {
	no "$target" "$1"
	summary="$summary
$target: FAILED at $1"
}

for target in $targets; do
	dist=${target%%-*}
	case $target in trixie-backports-*) dist=trixie-backports ;; esac
	arch=${target#"$dist"-}
	w=$repo/build/qemu/smoke/$target
	rm -rf "$w" && mkdir -p "$w/hello" || { echo "smoke: $w: cannot create" >&2; exit 2; }
	echo "== $target"

	t0=$(now)
	if "$kernel" path "$dist" "$arch" >/dev/null 2>&1; then cached=" (cached)"; else cached=""; fi
	if ! "$kernel" fetch "$dist" "$arch" >"$w/fetch.log" 2>&1; then
		cat "$w/fetch.log"; failed "fetch"; continue
	fi
	tfetch=$(($(now) - t0))
	eval "$("$kernel" path "$dist" "$arch")"
	release=$("$kernel" info "$dist" "$arch" | sed -n 's/^release=//p')
	karch=$("$kernel" info "$dist" "$arch" | sed -n 's/^karch=//p')
	cross=$("$kernel" info "$dist" "$arch" | sed -n 's/^cross_compile=//p')

	# The module, built the plain way (make -C KDIR M=DIR); cross targets
	# name their ARCH and CROSS_COMPILE.
	cp "$here/hello/hello.c" "$here/hello/Kbuild" "$w/hello/"
	t0=$(now)
	if [ "$arch" = amd64 ]; then set -- ; else set -- ARCH="$karch" CROSS_COMPILE="$cross"; fi
	if ! make -C "$kdir" M="$w/hello" "$@" modules >"$w/build.log" 2>&1 || [ ! -f "$w/hello/exmap_hello.ko" ]; then
		tail -n 20 "$w/build.log"; failed "module build (see $w/build.log)"; continue
	fi
	tbuild=$(($(now) - t0))

	cat >"$w/run.sh" <<'EOF'
. /test/frame.sh
frame_begin smoke
frame_cmd insmod insmod /test/exmap_hello.ko
frame_cmd uname uname -r
frame_cmd meminfo sh -c 'cat /proc/meminfo | head -3'
frame_cmd lsmod lsmod
frame_cmd rmmod rmmod exmap_hello
frame_cmd dmesg sh -c 'dmesg | tail'
frame_end
EOF
	if ! "$here/initramfs" "$arch" "$w/initramfs.cpio.gz" "$w/run.sh" "$w/hello/exmap_hello.ko" 2>"$w/initramfs.log"; then
		cat "$w/initramfs.log"; failed "initramfs"; continue
	fi

	t0=$(now)
	"$here/boot" "$arch" "$image" "$w/initramfs.cpio.gz" "$w/console.log" "$timeout"
	brc=$?
	tboot=$(($(now) - t0))
	[ $brc -eq 0 ] || { failed "boot (exit $brc, console in $w/console.log)"; continue; }

	if ! "$here/unframe" "$w/console.log" "$w/out" insmod uname meminfo lsmod rmmod dmesg; then
		failed "unframe"; continue
	fi
	o=$w/out
	bad=""
	[ "$(cat "$o/uname")" = "$release" ] || bad="$bad; uname -r is '$(cat "$o/uname")', not $release"
	[ "$(cat "$o/insmod.rc")" = 0 ] || bad="$bad; insmod exit $(cat "$o/insmod.rc"): $(cat "$o/insmod.stderr" 2>/dev/null)"
	[ "$(cat "$o/rmmod.rc")" = 0 ] || bad="$bad; rmmod exit $(cat "$o/rmmod.rc"): $(cat "$o/rmmod.stderr" 2>/dev/null)"
	grep -q '^exmap_hello ' "$o/lsmod" || bad="$bad; exmap_hello not in lsmod"
	grep -q "exmap_hello: loaded into $release" "$o/dmesg" || bad="$bad; no 'loaded' message in dmesg"
	grep -q 'exmap_hello: unloaded' "$o/dmesg" || bad="$bad; no 'unloaded' message in dmesg"
	[ "$(grep -c '^Mem' "$o/meminfo")" -ge 2 ] || bad="$bad; /proc/meminfo head unexpected"
	if [ -n "$bad" ]; then
		failed "checks${bad}"
		continue
	fi
	ok "$target: $release: insmod, uname, meminfo, lsmod, rmmod, dmesg all back and right"
	summary="$summary
$target: ok, kernel $release: fetch ${tfetch} s$cached, module build ${tbuild} s, boot to power-off ${tboot} s"
done

echo "== timings$summary"
finish
