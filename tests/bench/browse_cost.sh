#!/bin/sh
# What browse costs a board binary: each board's exmap-mini stripped, with
# browse (BROWSE=1) and without (BROWSE=0: browse.c and term.c left out, the
# default for mips and mipsel), and the difference.
# Run by make bench after the board builds. Prints one line per target.
set -u
cd "$(dirname "$0")/../.." || exit 2
rc=0
for spec in arm:arm-linux-gnueabihf-strip arm64:aarch64-linux-gnu-strip \
	mips:mips-linux-gnu-strip mipsel:mipsel-linux-gnu-strip riscv64:riscv64-linux-gnu-strip; do
	arch=${spec%%:*} strip=${spec#*:}
	yes=build/browse/$arch no=build/nobrowse/$arch
	if ! make -s ARCH=$arch BROWSE=1 BUILD=$yes $yes/exmap-mini >/dev/null 2>&1 ||
		! make -s ARCH=$arch BROWSE=0 BUILD=$no $no/exmap-mini >/dev/null 2>&1; then
		echo "browse cost: $arch: the build failed" >&2
		rc=1
		continue
	fi
	"$strip" -o $yes/stripped $yes/exmap-mini && "$strip" -o $no/stripped $no/exmap-mini || rc=1
	with=$(wc -c <$yes/stripped) without=$(wc -c <$no/stripped)
	echo "browse cost: $arch: $with bytes stripped, $without without browse: $((with - without)) bytes"
done
exit $rc
