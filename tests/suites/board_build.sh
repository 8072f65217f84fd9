#!/bin/sh
# Builds for boards, checked where they are made rather than on a board:
#   - every LOAD segment of every binary built for an ARCH is aligned for the
#     largest base page its Linux can run (arm64, mips and mipsel: 64 KiB; arm,
#     riscv64 and x86_64: 4 KiB), so the kernel can map it whatever its page
#     size.
#     Debian's 4kc-malta and OpenWrt's MIPS kernels use 4 KiB pages, but
#     Linux offers 16 and 64 KiB pages on MIPS32 cores (the 24Kc's TLB has
#     them), and 64 KiB is binutils' own maximum for MIPS: it costs no file
#     bytes (offsets stay congruent, nothing is padded), only address space;
#   - a make ARCH=X whose cross compiler or musl specs are missing stops
#     before compiling anything, with one line naming what is missing and how
#     to install it.
# usage: tests/suites/board_build.sh   (after make test has built every ARCH)
# Last line: N passed, N failed.
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib/lib.sh

# bad_loads FILE MAXPAGE: the LOAD segments of FILE that a kernel with
# MAXPAGE pages cannot map (alignment below it, or offset and address not
# congruent modulo it), one "offset vaddr align" line each.
bad_loads() {
	readelf -lW "$1" 2>/dev/null | awk '$1 == "LOAD" { print $2, $3, $NF }' |
	while read -r off va al; do
		if [ $((al)) -lt "$2" ] || [ $(((va - off) % $2)) -ne 0 ]; then
			echo "$off $va $al"
		fi
	done
}

for spec in build:4096 build/arm:4096 build/arm64:65536 build/mips:65536 build/mipsel:65536 \
	build/riscv64:4096; do
	dir=${spec%:*} page=${spec#*:}
	n=0
	# what runs on a board or in a guest: the binary, its unit tests, the
	# workloads and tools (host/ holds the x86_64 ones)
	host=
	[ "$dir" = build ] && host=build/host/*
	for f in "$dir/exmap-mini" "$dir/unit" "$dir"/tools/* "$dir"/capture/* $host; do
		[ -f "$f" ] && [ "$(head -c 4 "$f" | od -An -c | tr -d ' ')" = '177ELF' ] || continue
		readelf -lW "$f" 2>/dev/null | grep -q '^ *LOAD' || continue
		n=$((n + 1))
		bad=$(bad_loads "$f" "$page")
		if [ -z "$bad" ]; then
			ok "$f: every LOAD segment aligned for $((page / 1024)) KiB pages"
		else
			no "$f: LOAD segments a $((page / 1024)) KiB page kernel cannot map" "$bad"
		fi
	done
	[ $n -gt 0 ] || no "$dir: no binaries found (make test builds them)"
done

# A cross compiler or musl that is not there: said before anything compiles.
for spec in arm:gcc-arm-linux-gnueabihf arm64:gcc-aarch64-linux-gnu mips:gcc-mips-linux-gnu \
	mipsel:gcc-mipsel-linux-gnu riscv64:gcc-riscv64-linux-gnu; do
	arch=${spec%:*} pkg=${spec#*:}
	out=$(make --no-print-directory ARCH=$arch CROSS_COMPILE=/nonexistent/cc- BUILD=/nonexistent/build 2>&1)
	rc=$?
	if [ $rc -ne 0 ] && [ "$(echo "$out" | wc -l)" -eq 1 ] &&
		echo "$out" | grep -q "no /nonexistent/cc-gcc here: install it with toolchain/setup cross (Debian: $pkg" &&
		[ ! -e /nonexistent/build ]; then
		ok "make ARCH=$arch without its compiler: one line naming it and $pkg, nothing compiled"
	else
		no "make ARCH=$arch without its compiler" "exit $rc: $out"
	fi
done
for arch in arm arm64; do
	out=$(make --no-print-directory ARCH=$arch MUSL_SPECS=/nonexistent/musl-gcc.specs 2>&1)
	rc=$?
	if [ $rc -ne 0 ] && [ "$(echo "$out" | wc -l)" -eq 1 ] &&
		echo "$out" | grep -q 'no /nonexistent/musl-gcc.specs here: install it with toolchain/setup cross'; then
		ok "make ARCH=$arch without musl for it: one line naming the specs and the package"
	else
		no "make ARCH=$arch without musl for it" "exit $rc: $out"
	fi
done

finish
