#!/bin/sh
# The kernel module's system test on each target kernel: the module built
# against it, loaded in a qemu (TCG) guest booted from a busybox initramfs,
# the module and pagemap checked against the kernel's own figures, under
# churn, and dmesg read for reports of kernel bugs. What is checked, and the
# targets: tests/lib/kmod_phase.sh (the phase "kmod" of a boot,
# tests/qemu/phases; tests/run attaches other suites' phases to the same
# boots). Each target is one boot (tests/lib/boots.sh); up to KMOD_JOBS (2:
# each takes a core) at once; each target's lines are shown in order at
# the end, after "== TARGET".
# usage: tests/suites/kmod_test.sh [TARGET...]
#   (default: the three amd64 kernels)
# A TARGET is DIST-ARCH (DIST is any toolchain/kernel takes: bullseye,
# bookworm, trixie, trixie-backports, sid: the suite's newest kernel when
# first fetched; ARCH amd64, armhf, arm64, arm64-16k, rt-amd64, rt-arm64,
# mipsel, riscv64, riscv64-sv39, riscv64-sv48), or one of ours:
# nopagemap-amd64, nopagemap-mipsel, nozeropage-amd64. The guest's binaries
# are the target's own: build/exmap-mini and build/host/* for amd64,
# build/arm/exmap-mini and build/arm/tools/* for armhf, and so on.
# Environment: KMOD_JOBS, and what tests/lib/kmod_phase.sh reads (KMOD_STRESS,
# KMOD_KO, AFTERPROBE_EXMAP). Last line: N passed, N failed.
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib/lib.sh
targets=${*:-bullseye-amd64 bookworm-amd64 trixie-amd64}
JOBS=${KMOD_JOBS:-2}

running=
for target in $targets; do
	tests/qemu/phases "$target" kmod &
	running="$running $!"
	set -- $running
	if [ $# -ge "$JOBS" ]; then
		wait "$1"
		shift
		running="$*"
	fi
done
wait
for target in $targets; do
	echo "== $target"
	TEST_PREFIX="$target: "
	if [ -f "build/qemu/boots/$target/kmod.log" ]; then
		tally "build/qemu/boots/$target/kmod.log"
	else
		no "a boot" "tests/qemu/phases $target kmod: no log (see its messages above)"
	fi
done
finish
