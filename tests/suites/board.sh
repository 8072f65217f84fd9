#!/bin/sh
# The board demo (make board ARCH=arm|arm64|mipsel|riscv64): what a user does
# with a real board, with qemu for the board. Fetch Debian's kernel for it
# (armmp for arm, 4kc-malta for mipsel), build exmap_mini.ko against it, boot
# it (-M virt; mipsel: -M malta, 256 MiB, console ttyS0; riscv64: -M virt
# with OpenSBI, console ttyS0) with a busybox initramfs
# holding the module, exmap-mini and a small workload, load the module and
# run exmap-mini; its report comes out on the serial console, shown here as
# it arrives. Then capture on the board, analyse on the host: the board
# dumps twice, before and after a second workload starts (its capture
# lines, not shown, are in the console log), and the host loads them from
# the log, as README says: BUILDDIR/board.log (the console) and
# BUILDDIR/board-root (the board's root: its initramfs, for -S). Checked:
# both captures are whole, the first loads, and diff of the two shows the
# second workload as it was built (its file, its processes).
# usage: tests/suites/board.sh DEBARCH BUILDDIR [MAKEARCH]
# env: BOARD_DIST (bookworm; trixie for riscv64, Debian's first with it),
# HOST_EXMAP (build/exmap-mini: this machine's build, which loads captures)
# Last line: N passed, N failed.
set -u
[ $# -ge 2 ] || { echo "usage: tests/suites/board.sh debarch builddir [makearch]" >&2; exit 2; }
debarch=$1 build=$2 makearch=${3:-}
dist=bookworm
[ "$debarch" != riscv64 ] || dist=trixie
dist=${BOARD_DIST:-$dist}
cd "$(dirname "$0")/../.." || exit 2
. tests/lib/lib.sh
X=${HOST_EXMAP:-build/exmap-mini}
w=build/qemu/board/$dist-$debarch
log=$build/board.log root=$build/board-root
die() { echo "board: $*" >&2; exit 1; }

[ -x "$X" ] || die "$X: not built (make all: this machine's exmap-mini loads the captures)"
rm -rf "$w" && mkdir -p "$w/test" || die "$w: cannot create"
echo "board: $dist $debarch kernel (toolchain/kernel fetch)"
toolchain/kernel fetch "$dist" "$debarch" >"$w/fetch.log" 2>&1 || { cat "$w/fetch.log"; die "kernel fetch failed"; }
eval "$(toolchain/kernel path "$dist" "$debarch")"
echo "board: building exmap_mini.ko against $(basename "$kdir")"
make -s kmod ${makearch:+ARCH=$makearch} KDIR="$kdir" >"$w/kmod.log" 2>&1 ||
	{ tail -20 "$w/kmod.log"; die "module build failed"; }
cp "$build"/kmod/"$(basename "$kdir")"/exmap_mini.ko "$build/exmap-mini" "$build/tools/workload" \
	"$w/test/" || die "missing binaries in $build"
# The second workload: a parent mapping a 512 KiB file and 2 children that
# read all of it (its pages theirs alone) and write 384 KiB each of their own.
cat >"$w/test/run.sh" <<'EOF'
cd /test
. /test/lib.sh
echo "== board: $(uname -m), Linux $(uname -r), $(grep MemTotal /proc/meminfo)"
echo "== insmod exmap_mini.ko"
insmod ./exmap_mini.ko && ls -l /proc/exmap-mini
mkdir -p /tmp/a /tmp/b
# start NAME ARGS...: a workload in /tmp/NAME, until it is ready
start() {
	n=$1
	shift
	./workload "$@" -d /tmp/$n >/tmp/$n.out 2>&1 &
	await_ready /tmp/$n.out 60
}
start a -n 3 -f 256 -c 256 -p 128
echo "== exmap-mini (a parent and 3 children sharing a file and copy-on-write pages)"
./exmap-mini
echo "== exmap-mini files -n 8"
./exmap-mini -n 8 files
echo "== exmap-mini -c -n 4 (CSV, as captured over a serial console)"
./exmap-mini -c -n 4
echo "== exmap-mini -n 6 sections /test/workload"
./exmap-mini -n 6 sections /test/workload
echo "== exmap-mini dump: capture 1 (its lines are in the console log, for the host)"
./exmap-mini dump
start b -n 2 -f 512 -c 0 -p 384
echo "== a second workload: $(sed -n 's/^file /its file /p' /tmp/b.out)"
echo "== exmap-mini dump: capture 2"
./exmap-mini dump
kill $(sed -n 's/^ready \([0-9]*\).*/\1/p' /tmp/a.out /tmp/b.out) 2>/dev/null
sleep 1
echo "== rmmod exmap_mini"
rmmod exmap_mini && echo unloaded
EOF
tests/qemu/initramfs "$debarch" "$w/initramfs.cpio.gz" "$w"/test/* >"$w/initramfs.log" 2>&1 ||
	{ cat "$w/initramfs.log"; die "initramfs failed"; }
echo "board: booting (qemu, TCG); the serial console follows (capture lines not shown)"
: >"$w/console.log"
tests/qemu/boot "$debarch" "$image" "$w/initramfs.cpio.gz" "$w/console.log" 300 &
boot=$!
tail -n +1 -f "$w/console.log" | grep --line-buffered -v '^XM ' &
tail=$!
wait $boot
rc=$?
sleep 1
kill $tail 2>/dev/null
[ $rc -eq 0 ] || die "the guest did not power off cleanly (boot exit $rc; $w/console.log)"
grep -q '^check: .*: ok' "$w/console.log" || die "no report with a passing self-check on the console"

# --- on the host: the captures in the console log -------------------------
cp "$w/console.log" "$log" || die "$log: cannot write"
rm -rf "$root" && mkdir -p "$root" &&
	gunzip -c "$w/initramfs.cpio.gz" | (cd "$root" && cpio -id --quiet --nonmatching 'dev/*') ||
	die "$root: cannot unpack the initramfs"
T=$w/host
mkdir -p "$T"
"$X" -l "$log" -c captures >"$T/captures" 2>"$T/err"
check_eq "the console log holds two captures, both whole" \
	"$? $(cut -d, -f1,10 "$T/captures" | tr '\n' ' ')" \
	"0 place,state 1,whole 2,whole " "$(cat "$T/err")"
"$X" -l "$log@1" >"$T/procs1" 2>"$T/err"
check_eq "$log@1 loads: exit 0, its self-check ok, the first workload's 4 processes" \
	"$? $(grep -c '^check: .*: ok$' "$T/procs1") $(grep -c '^ *[0-9]* workload ' "$T/procs1")" \
	"0 1 4" "$(cat "$T/err")"
"$X" -a -c diff "$log@1" "$log@2" >"$T/diff" 2>"$T/err"
check_eq "diff $log@1 $log@2: exit 0" "$?" 0 "$(cat "$T/err")"
bfile=$(sed -n 's/^== a second workload: its file \([^[:cntrl:]]*\).*/\1/p' "$log")
# file,PATH,,N_A,N_B,vm,mapped,resident,eff_mapped,eff_resident,...
# (mapped by the parent too, which never touches it; read whole by the 2
# children, who alone share its pages)
check_eq "diff: the second workload's file ($bfile): 0>3 processes, 3 x 512 KiB of vm, 2 x 512 KiB resident, 512 KiB effective" \
	"$(awk -F, -v p="$bfile" '$1 == "file" && $2 == p { print $4, $5, $6, $8, $10 }' "$T/diff")" \
	"0 3 1572864 1048576 524288" "$(grep '^file,/tmp/b/' "$T/diff")"
brow=$(awk -F, '$1 == "proc" && index($3, "./workload -n 2 -f 512 ") == 1' "$T/diff")
check_eq "diff: the second workload's processes, 0>3" "$(echo "$brow" | cut -d, -f4,5)" "0,3" "$brow"
check_cmd "diff: their sole pages, the 2 x 384 KiB the children wrote at least" \
	within $((2 * 384 * 1024)) "$(echo "$brow" | cut -d, -f11)" ""
"$X" -l "$log" -S "$root" -n 4 sections /test/workload >"$T/sections" 2>"$T/err"
check_eq "-S $root: the workload's sections, from the board's root (exit 0)" \
	"$? $(grep -c '^\.text ' "$T/sections")" "0 1" "$(cat "$T/err")"
"$X" -l "$log" sections /test/workload >"$T/sections" 2>"$T/err"
check_eq "without -S: the workload is not on this machine, said once (exit 2)" \
	"$? $(grep -vc 'holds 2 captures' "$T/err") $(grep -c '^exmap-mini: /test/workload: not on this machine (a capture.s files are its board.s: -S names the board.s root)$' "$T/err")" \
	"2 1 1" "$(cat "$T/err")"
# the board's /bin/busybox, whatever this machine's /bin is (a link to
# usr/bin on Debian since bookworm)
"$X" -l "$log" -F /bin/busybox -c files >"$T/files" 2>"$T/err"
check_eq "-F /bin/busybox: the board's, as the capture names it" \
	"$? $(sed 1d "$T/files" | cut -d, -f1)" "0 /bin/busybox" "$(cat "$T/err")"
"$X" -l "$log" -S "$root" sections /bin/busybox >"$T/sections" 2>"$T/err"
check_eq "-S $root sections /bin/busybox: the board's, by its build-id" \
	"$? $(grep -c "^exmap-mini: /bin/busybox: from $root/bin/busybox, whose build-id matches\$" "$T/err")" \
	"0 1" "$(cat "$T/err")"

echo "board: the console log and its two captures: $log; the board's root: $root"
echo "board: on this machine, for instance:"
echo "  $X -l $log captures"
echo "  $X -l $log@1"
echo "  $X diff $log@1 $log@2"
echo "  $X -l $log -S $root sections /test/workload"
finish
