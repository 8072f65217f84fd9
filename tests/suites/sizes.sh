#!/bin/sh
# The binaries a board gets, stripped: each at most 128 KiB (a router's
# flash), riscv64's at most 96 KiB (its budget). The board builds leave out
# what a host does with a capture (LOAD=0: -l, diff, -S; PICTURES=0: folded,
# html); x86_64 as a board gets the same (build/x86_64, made by make test),
# and, as arm64 and riscv64, no dma-bufs (DMABUF=0: 15 KB on x86_64).
# This machine's own build has it all, the html page's template among it: at
# most 256 KiB (a workstation's build: trend, html and the page's template,
# not a board's). Prints `size` (text, data, bss: bss and data are RAM on a
# board) for each.
# usage: tests/suites/sizes.sh   Last line: N passed, N failed.
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib/lib.sh
t=$(mktemp -d /tmp/exmap-sizes.XXXXXX)
trap 'rm -rf "$t"' EXIT
for spec in arm:arm-linux-gnueabihf-strip:131072 arm64:aarch64-linux-gnu-strip:131072 \
	mips:mips-linux-gnu-strip:131072 mipsel:mipsel-linux-gnu-strip:131072 \
	riscv64:riscv64-linux-gnu-strip:98304 x86_64:strip:131072 host:strip:262144; do
	arch=${spec%%:*} rest=${spec#*:}
	strip=${rest%%:*} limit=${rest#*:}
	bin=build/$arch/exmap-mini
	[ "$arch" = host ] && bin=build/exmap-mini
	if ! "$strip" -o "$t/$arch" "$bin"; then
		no "$arch: cannot strip $bin"
		continue
	fi
	size "$bin" | tail -1
	n=$(wc -c <"$t/$arch")
	if [ "$n" -le "$limit" ]; then
		ok "$arch: stripped $n bytes (limit $limit)"
	else
		no "$arch: stripped $n bytes, over $limit"
	fi
done
finish
