#!/bin/sh
# The board demo (make board ARCH=arm|arm64|mipsel|riscv64): what a user does
# with a real board, with qemu for the board. Fetch Debian's kernel for it
# (armmp for arm, 4kc-malta for mipsel), build exmap_mini.ko against it, boot
# it (-M virt; mipsel: -M malta, 256 MiB, console ttyS0; riscv64: -M virt
# with OpenSBI, console ttyS0) with a busybox initramfs
# holding the module, exmap-mini and a small workload, load the module and
# run exmap-mini; its report comes out on the serial console, shown here as
# it arrives.
# usage: tests/board.sh DEBARCH BUILDDIR [MAKEARCH]
# env: BOARD_DIST (bookworm; trixie for riscv64, Debian's first with it)
set -u
[ $# -ge 2 ] || { echo "usage: tests/board.sh debarch builddir [makearch]" >&2; exit 2; }
debarch=$1 build=$2 makearch=${3:-}
dist=bookworm
[ "$debarch" != riscv64 ] || dist=trixie
dist=${BOARD_DIST:-$dist}
cd "$(dirname "$0")/.." || exit 2
w=build/qemu/board/$dist-$debarch
die() { echo "board: $*" >&2; exit 1; }

rm -rf "$w" && mkdir -p "$w/test" || die "$w: cannot create"
echo "board: $dist $debarch kernel (toolchain/kernel fetch)"
toolchain/kernel fetch "$dist" "$debarch" >"$w/fetch.log" 2>&1 || { cat "$w/fetch.log"; die "kernel fetch failed"; }
eval "$(toolchain/kernel path "$dist" "$debarch")"
echo "board: building exmap_mini.ko against $(basename "$kdir")"
make -s kmod ${makearch:+ARCH=$makearch} KDIR="$kdir" >"$w/kmod.log" 2>&1 ||
	{ tail -20 "$w/kmod.log"; die "module build failed"; }
cp "$build"/kmod/"$(basename "$kdir")"/exmap_mini.ko "$build/exmap-mini" "$build/tools/workload" \
	"$w/test/" || die "missing binaries in $build"
cat >"$w/test/run.sh" <<'EOF'
cd /test
echo "== board: $(uname -m), Linux $(uname -r), $(grep MemTotal /proc/meminfo)"
echo "== insmod exmap_mini.ko"
insmod ./exmap_mini.ko && ls -l /proc/exmap-mini
mkdir -p /tmp
: >/tmp/wl.out
./workload -n 3 -f 256 -c 256 -p 128 -d /tmp >/tmp/wl.out 2>&1 &
i=0
while ! grep -q '^ready' /tmp/wl.out && [ $i -lt 60 ]; do sleep 1; i=$((i + 1)); done
echo "== exmap-mini (a parent and 3 children sharing a file and copy-on-write pages)"
./exmap-mini
echo "== exmap-mini files -n 8"
./exmap-mini -n 8 files
echo "== exmap-mini -c -n 4 (CSV, as captured over a serial console)"
./exmap-mini -c -n 4
echo "== exmap-mini -n 6 sections /test/workload"
./exmap-mini -n 6 sections /test/workload
kill $(sed -n 's/^ready \([0-9]*\).*/\1/p' /tmp/wl.out) 2>/dev/null
sleep 1
echo "== rmmod exmap_mini"
rmmod exmap_mini && echo unloaded
EOF
tests/qemu/initramfs "$debarch" "$w/initramfs.cpio.gz" "$w"/test/* >"$w/initramfs.log" 2>&1 ||
	{ cat "$w/initramfs.log"; die "initramfs failed"; }
echo "board: booting (qemu, TCG); the serial console follows"
: >"$w/console.log"
tests/qemu/boot "$debarch" "$image" "$w/initramfs.cpio.gz" "$w/console.log" 300 &
boot=$!
tail -n +1 -f "$w/console.log" &
tail=$!
wait $boot
rc=$?
sleep 1
kill $tail 2>/dev/null
[ $rc -eq 0 ] || die "the guest did not power off cleanly (boot exit $rc; $w/console.log)"
grep -q '^check: .*: ok' "$w/console.log" || die "no report with a passing self-check on the console"
echo "board: done; the console is in $w/console.log"
