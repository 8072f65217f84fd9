#!/bin/sh
# The binaries a board gets, and this machine's own (build/exmap-mini),
# stripped: each at most 128 KiB, riscv64's at most 96 KiB (its budget in
# issue 21). Prints `size` (text, data, bss: bss and data are RAM on a
# board) for each.
# usage: tests/sizes.sh   Last line: N passed, N failed.
set -u
cd "$(dirname "$0")/.." || exit 2
. tests/lib.sh
t=$(mktemp -d /tmp/exmap-sizes.XXXXXX)
trap 'rm -rf "$t"' EXIT
for spec in arm:arm-linux-gnueabihf-strip arm64:aarch64-linux-gnu-strip mips:mips-linux-gnu-strip \
	mipsel:mipsel-linux-gnu-strip riscv64:riscv64-linux-gnu-strip:98304 "$(uname -m):strip"; do
	arch=${spec%%:*} strip=${spec#*:} limit=131072
	case $strip in *:*) limit=${strip#*:} strip=${strip%%:*} ;; esac
	bin=build/$arch/exmap-mini
	[ "$strip" = strip ] && bin=build/exmap-mini
	if ! "$strip" -o "$t/$arch" "$bin"; then
		no "$arch: cannot strip $bin"
		continue
	fi
	size "$bin" | tail -1
	n=$(wc -c <"$t/$arch")
	if [ "$n" -le $limit ]; then
		ok "$arch: stripped $n bytes (limit $limit)"
	else
		no "$arch: stripped $n bytes, over $limit"
	fi
done
finish
