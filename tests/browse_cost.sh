#!/bin/sh
# What browse costs a board binary: each board's exmap-mini stripped, as
# built and with BROWSE=0 (browse.c and term.c left out), and the difference.
# Run by make bench after the board builds. Prints one line per target.
set -u
cd "$(dirname "$0")/.." || exit 2
rc=0
for spec in arm:arm-linux-gnueabihf-strip arm64:aarch64-linux-gnu-strip \
	mips:mips-linux-gnu-strip mipsel:mipsel-linux-gnu-strip; do
	arch=${spec%%:*} strip=${spec#*:}
	nb=build/nobrowse/$arch
	if ! make -s ARCH=$arch all >/dev/null 2>&1 ||
		! make -s ARCH=$arch BROWSE=0 BUILD=$nb all >/dev/null 2>&1; then
		echo "browse cost: $arch: the build failed" >&2
		rc=1
		continue
	fi
	with=$("$strip" -o - build/$arch/exmap-mini | wc -c)
	without=$("$strip" -o - $nb/exmap-mini | wc -c)
	echo "browse cost: $arch: $with bytes stripped, $without without browse: $((with - without)) bytes"
done
exit $rc
