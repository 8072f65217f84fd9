#!/bin/sh
# What watch costs on the emulated armhf board (make bench): Debian bookworm's
# armmp kernel in qemu-system-arm -M virt (TCG), a busybox initramfs, the
# board's processes and a workload of 4, as the capture test has them
# (tests/guest/watch_guest.sh runs there). Its serial console is logged raw
# at 115200 baud, kernel messages and all; from its watch lines:
#   - the bytes of a keyframe and of the other samples, at WATCH_INTERVAL
#     (60) seconds, WATCH_SAMPLES (12) of them, and so a day's bytes: 24
#     keyframes and 1416 other samples a day at 60 s (the two captures a
#     watch begins and ends with apart), and what a day takes of the line;
#   - the CPU a sample costs beyond its scan on the board (watchcost's
#     pairs, WATCH_ROUNDS of them: emulated, the ratio is the point).
# Lines start "watch on the emulated board:".
# Needs: make ARCH=arm all build/arm/tools/workload build/arm/watchcost.
# usage: tests/bench/watch_board.sh    Work dir build/qemu/watch.
set -u
cd "$(dirname "$0")/../.." || exit 2
IVL=${WATCH_INTERVAL:-60} N=${WATCH_SAMPLES:-12} ROUNDS=${WATCH_ROUNDS:-15}
w=build/qemu/watch
die() { echo "watch board: $*" >&2; exit 1; }
rm -rf "$w" && mkdir -p "$w/test" || die "$w: cannot create"
for f in build/arm/exmap-mini build/arm/tools/workload build/arm/watchcost; do
	[ -x "$f" ] || die "$f is not built (make bench builds it)"
done
toolchain/kernel fetch bookworm armhf >"$w/fetch.log" 2>&1 || { cat "$w/fetch.log"; die "kernel fetch"; }
eval "$(toolchain/kernel path bookworm armhf)"
cp build/arm/exmap-mini build/arm/tools/workload build/arm/watchcost "$w/test/" &&
	cp tests/guest/watch_guest.sh "$w/test/run.sh" || die "staging $w/test"
echo "INTERVAL=$IVL SAMPLES=$N ROUNDS=$ROUNDS" >"$w/test/params"
tests/qemu/initramfs armhf "$w/initramfs.cpio.gz" "$w"/test/* >"$w/initramfs.log" 2>&1 ||
	{ cat "$w/initramfs.log"; die "initramfs"; }
QEMU_APPEND="test.loglevel=7" tests/qemu/boot armhf "$image" "$w/initramfs.cpio.gz" \
	"$w/console.log" $((IVL * N + 900)) 2>"$w/boot.log" ||
	die "boot: $(cat "$w/boot.log"), see $w/console.log"
tests/qemu/unframe "$w/console.log" "$w/out" >"$w/unframe.log" 2>&1 ||
	die "the results did not come back: $(cat "$w/unframe.log")"
LC_ALL=C awk 'index($0, "watch-mark end") { exit } p { print } index($0, "watch-mark begin") { p = 1 }' \
	"$w/console.log" >"$w/watch.log"
python3 tests/lib/noise.py clean "$w/watch.log" "$w/watch.clean"
[ "$(grep -c '^XM w [0-9a-f]* t ' "$w/watch.clean")" -eq "$N" ] ||
	die "$N samples wanted, $(grep -c '^XM w [0-9a-f]* t ' "$w/watch.clean") in $w/watch.clean"
awk -v n="$N" -v ivl="$IVL" '/^XM w / { b += length($0) + 1; l++ }
	/^XM w [0-9a-f]+ t / {
		if ($5 ~ /,k$/) { kb += b; kl += l; k++ }
		else { ob += b; ol += l; o++; if (!omin || b < omin) omin = b; if (b > omax) omax = b }
		if (length($0) + 1 > tl) tl = length($0) + 1
		b = l = 0 }
	END { per = 86400 / ivl; keys = per / 60
	      day = keys * kb / k + (per - keys) * ob / o
	      lines = keys * kl / k + (per - keys) * ol / o
	      printf "watch on the emulated board: %d samples %d s apart: a keyframe %d bytes, " \
		     "the others %.0f on average (%d to %d), the longest t line %d bytes " \
		     "(a sample in which nothing changed; target 64)\n",
		     n, ivl, kb / k, ob / o, omin, omax, tl
	      printf "watch on the emulated board: a day at %d s: %.0f bytes (%d keyframes, %d " \
		     "other samples), %.0f s of a 115200-baud line (10 bits a byte, CRLF)\n",
		     ivl, day, keys, per - keys, (day + lines) * 10 / 115200 }' "$w/watch.clean"
echo "watch on the emulated board: its two captures $(grep -v '^XM w ' "$w/watch.clean" | wc -c) bytes"
sed -n 's/^/watch on the emulated board: CPU: /p' "$w/out/cost" | grep -v ': round ' |
	sed '/sample beyond its scan/s/$/; target 0.05/'
