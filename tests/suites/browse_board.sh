#!/bin/sh
# browse over an emulated board's serial console: Debian bookworm's armmp
# kernel in qemu-system-arm -M virt (TCG), a busybox initramfs, a workload,
# and exmap-mini browse on the console, driven by tests/lib/browse_serial.py as
# a serial terminal program would (it answers the size query with 80x24). The
# bytes each key press sends are what a 115200-baud line carries.
# Run after make ARCH=arm all build/arm/tools/workload. Last line: N passed,
# N failed.
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib/lib.sh
w=build/qemu/browse
rm -rf "$w" && mkdir -p "$w/test" || { no "$w: cannot create"; finish; }
for f in build/arm/exmap-mini build/arm/tools/workload; do
	[ -x "$f" ] || { no "$f is not built (make test builds it)"; finish; }
done
toolchain/kernel fetch bookworm armhf >"$w/fetch.log" 2>&1 || { cat "$w/fetch.log"; no "kernel fetch"; finish; }
eval "$(toolchain/kernel path bookworm armhf)"
cp build/arm/exmap-mini build/arm/tools/workload "$w/test/" || { no "staging $w/test"; finish; }
cat >"$w/test/run.sh" <<'GUEST'
. /test/lib.sh
/test/workload -n 3 -f 256 -c 128 -p 64 >/tmp/wl 2>&1 &
await_ready /tmp/wl 60
echo browse-start
/test/exmap-mini browse
echo "browse-rc $?"
GUEST
tests/qemu/initramfs armhf "$w/initramfs.cpio.gz" "$w"/test/* >"$w/initramfs.log" 2>&1 ||
	{ cat "$w/initramfs.log"; no "initramfs"; finish; }
python3 tests/lib/browse_serial.py tests/qemu/boot armhf "$image" "$w/initramfs.cpio.gz" - \
	>"$w/serial.out" 2>"$w/serial.err"
rc=$?
tally "$w/serial.out"	# the figures line is shown too
[ $rc -eq 0 ] || no "browse_serial.py" "exit $rc: $(tail -n 3 "$w/serial.err" | tr '\n' ' ')"
check_cmd "the figures line" has '^browse over serial:' "$w/serial.out"
finish
