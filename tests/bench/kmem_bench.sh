#!/bin/sh
# What the kernel's owners cost (make bench): our 6.12 with allocinfo
# (toolchain/tinykernel allocinfo) in qemu (TCG, -m 512), the test module
# xmkmem loaded (tests/guest/kmemcost_guest.sh runs there):
#   - allocinfo's size: its lines (one a call site of the whole kernel),
#     those holding something, its bytes;
#   - reading it: kowncost -r, each round a read (the kernel's printing it)
#     and exmap-mini's parsing, in one process (CPU time), median of 101,
#     beside vmallocinfo's;
#   - the ram view (-c ram, all it reads) with profiling on and off
#     (vm.mem_profiling 0: exmap-mini reads no allocinfo), median of 7;
#   - a watch sample (watchcost's pairs, ROUNDS of them, on and off): what
#     it costs beyond its scan, target 0.05, and what the ram view's parts,
#     allocinfo among them, add to the scan;
#   - on this machine, exmap-mini's own work on an allocinfo of thousands
#     of lines: the guest's grown 24 times over, 23 of the copies as
#     modules' (BUILD/kowncost: the view's, every site kept and merged, and
#     a watch sample's, the owners' figures alone).
# Emulated, so the ratios are the point. Lines start "kernel owners:".
# Needs make all build/watchcost build/kowncost build/host/runstat. usage:
# tests/bench/kmem_bench.sh    Work dir build/qemu/kmemcost. KMEM_ROUNDS (201).
set -u
cd "$(dirname "$0")/../.." || exit 2
w=build/qemu/kmemcost
die() { echo "kmem bench: $*" >&2; exit 1; }
rm -rf "$w" && mkdir -p "$w/test" "$w/kmod" || die "$w: cannot create"
for f in build/exmap-mini build/watchcost build/kowncost build/host/runstat; do
	[ -x "$f" ] || die "$f is not built (make bench builds it)"
done
toolchain/tinykernel allocinfo amd64 >"$w/kernel.out" 2>"$w/kernel.log" ||
	{ cat "$w/kernel.log"; die "kernel build"; }
eval "$(cat "$w/kernel.out")"
cp tests/kmod/xmkmem.c tests/kmod/Kbuild "$w/kmod/" &&
	make -C "$kdir" ARCH=x86 M="$PWD/$w/kmod" modules >"$w/kmod.log" 2>&1 || die "xmkmem build"
cp build/exmap-mini build/watchcost build/kowncost build/host/runstat "$w/kmod/xmkmem.ko" "$w/test/" &&
	cp tests/guest/kmemcost_guest.sh "$w/test/run.sh" || die "staging $w/test"
echo "ROUNDS=${KMEM_ROUNDS:-201}" >"$w/test/params"
tests/qemu/initramfs amd64 "$w/initramfs.cpio.gz" "$w"/test/* >"$w/initramfs.log" 2>&1 ||
	{ cat "$w/initramfs.log"; die "initramfs"; }
QEMU_MEM=512M tests/qemu/boot amd64 "$image" "$w/initramfs.cpio.gz" "$w/console.log" 1800 \
	2>"$w/boot.log" || die "boot: $(cat "$w/boot.log"), see $w/console.log"
tests/qemu/unframe "$w/console.log" "$w/out" >"$w/unframe.log" 2>&1 ||
	die "the results did not come back: $(cat "$w/unframe.log")"
o=$w/out
set -- $(cat "$o/lines")
echo "kernel owners: allocinfo of our 6.12 (tinyconfig and more): $1 lines, $2 holding something, $3 bytes"
sed -n 's/^read and owners alone (a watch sample): /kernel owners: allocinfo read and parsed, owners alone (emulated): /p' \
	"$o/read_allocinfo"
sed -n 's/^read and every call site (the view, dump): /kernel owners: allocinfo read and parsed, every call site (emulated): /p' \
	"$o/read_allocinfo"
sed -n 's/^read and owners alone (a watch sample): /kernel owners: vmallocinfo read and parsed (emulated): /p' \
	"$o/read_vmallocinfo"
# runstat's lines: EXIT WALL_S RSS_KIB
med() { awk '{ print $2 }' "$1" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
echo "kernel owners: the ram view (-c ram) $(med "$o/ram1") s with allocinfo, $(med "$o/ram0") s with profiling off (median of 7, emulated)"
for on in 1 0; do
	sed -n "s/^sample beyond its scan/kernel owners: profiling $([ $on = 1 ] && echo on || echo off): a sample beyond its scan/p
		s/^sample beyond a scan of processes alone/kernel owners: profiling $([ $on = 1 ] && echo on || echo off): a sample beyond a scan of processes alone/p
		s/^a sample's scan and the ram view's parts (R)/kernel owners: profiling $([ $on = 1 ] && echo on || echo off): a sample's scan and the ram view's parts/p" "$o/cost$on" |
		sed '/beyond its scan/s/$/; target 0.05/'
done
# thousands of lines: the guest's allocinfo, 24 times (copies 1-23 as modules m01-m23)
awk 'NR <= 2 { print; next } { body[++n] = $0 }
	END { for (c = 0; c < 24; c++) for (i = 1; i <= n; i++) {
		if (!c) { print body[i]; continue }
		split(body[i], w, " "); rest = ""
		for (j = 4; j <= length(w); j++) if (substr(w[j], 1, 1) != "[") rest = rest " " w[j]
		sub(/^\//, "", w[3])
		printf "%12s %8s drivers/m%02d/%s [m%02d]%s\n", w[1], w[2], c, w[3], c, rest } }' \
	"$o/allocinfo" >"$w/big.allocinfo"
build/kowncost "$w/big.allocinfo" 21 | sed 's/^/kernel owners: this machine, an allocinfo grown 24 times: /'
