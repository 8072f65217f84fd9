#!/bin/sh
# The module's speed against pagemap's, in one guest boot: Debian's kernel
# (trixie amd64 unless told) in qemu (TCG) with the module loaded, a workload
# of sharing children, and exmap-mini -c timed with -b kmod and -b pagemap in
# turn, ROUNDS times after a warm-up of each (tests/bench/runstat.c, in the
# guest); then the same with large folios mapped by PMDs instead: 64 MiB of
# THP a parent wrote, shared by 8 children that each copy 4 pages of it
# (tests/work/thpwork.c), and 16 MiB of a file in PMD-size folios (a tmpfs
# mounted huge=always) each child maps and reads. Prints the medians and
# the median of the paired ratios kmod/pagemap with their spread, case by
# case. Emulated, the absolute times are not a board's; the ratio is what it
# is for: the module should be no slower.
# usage: tests/bench/kmod_bench.sh [DIST-ARCH]   env: KBENCH_ROUNDS (9)
set -u
target=${1:-trixie-amd64}
rounds=${KBENCH_ROUNDS:-9}
cd "$(dirname "$0")/../.." || exit 2
die() { echo "kmod bench: $*" >&2; exit 1; }
case $rounds in ''|*[!0-9]*|0) die "KBENCH_ROUNDS: want a positive integer, not '$rounds'" ;; esac
dist=${target%%-*} arch=${target#*-}
case $arch in
amd64) bin=build tools=build/host karch= ;;
*) die "$target: only amd64 targets are benched (the guest runs build/host/runstat)" ;;
esac
for f in "$bin/exmap-mini" "$tools/workload" "$tools/runstat" "$tools/thpwork"; do
	[ -x "$f" ] || die "$f is not built (make bench builds it)"
done
w=build/qemu/kbench/$target
rm -rf "$w" && mkdir -p "$w/test" || die "$w: cannot create"
toolchain/kernel fetch "$dist" "$arch" >"$w/fetch.log" 2>&1 || { cat "$w/fetch.log"; die "kernel fetch failed"; }
eval "$(toolchain/kernel path "$dist" "$arch")"
make -s kmod KDIR="$kdir" >"$w/kmod.log" 2>&1 || { tail -20 "$w/kmod.log"; die "module build failed"; }
cp build/kmod/"$(basename "$kdir")"/exmap_mini.ko "$bin/exmap-mini" "$tools/workload" "$tools/runstat" \
	"$tools/thpwork" tests/qemu/frame.sh "$w/test/" || die "cannot copy the guest's files"
cat >"$w/test/run.sh" <<GUEST
. /test/frame.sh
. /test/lib.sh
frame_begin kbench
frame_cmd uname uname -r
frame_cmd insmod insmod /test/exmap_mini.ko
mkdir -p /tmp
# timed CASE: a warm-up of each source, then ROUNDS of each in turn
timed() {
	for b in kmod pagemap; do /test/exmap-mini -b \$b -c >/dev/null 2>&1; done
	: >/tmp/\$1.kmod.t
	: >/tmp/\$1.pagemap.t
	r=0
	while [ \$r -lt $rounds ]; do
		/test/runstat /tmp/\$1.kmod.t /test/exmap-mini -b kmod -c
		/test/runstat /tmp/\$1.pagemap.t /test/exmap-mini -b pagemap -c
		r=\$((r + 1))
	done
	frame_file \$1_kmod_times /tmp/\$1.kmod.t
	frame_file \$1_pagemap_times /tmp/\$1.pagemap.t
	frame_cmd \$1_pages sh -c 'cat /proc/[0-9]*/smaps_rollup 2>/dev/null | awk "\\\$1 == \"Rss:\" { k += \\\$2 } END { print k / 4 }"'
}
: >/tmp/wl.out
/test/workload -n 40 -f 8192 -c 4096 -p 1024 -d /tmp >/tmp/wl.out 2>/tmp/wl.err &
await_ready /tmp/wl.out 120
frame_file workload /tmp/wl.out
timed ptes
kill \$(sed -n 's/^ready \([0-9]*\).*/\1/p' /tmp/wl.out)
# large folios mapped by PMDs: THP (always) and a file on a huge tmpfs
T=/sys/kernel/mm/transparent_hugepage
echo always >\$T/enabled
mkdir -p /tmp/huge
mount -t tmpfs -o huge=always,size=20m none /tmp/huge
/test/thpwork -H -n 8 -r 4096 -s 65536 -a 2048 >/tmp/thp.out 2>/tmp/thp.err &
await_ready /tmp/thp.out 120
/test/workload -n 8 -f 16384 -c 0 -p 0 -d /tmp/huge >/tmp/wf.out 2>/tmp/wf.err &
await_ready /tmp/wf.out 120
frame_file thp_work /tmp/thp.out
frame_cmd pmds sh -c 'grep -h "^AnonHugePages:\|^ShmemPmdMapped:" /proc/[0-9]*/smaps_rollup | awk "{ k[\\\$1] += \\\$2 } END { for (f in k) print f, k[f] }"'
timed pmds
frame_end
GUEST
tests/qemu/initramfs "$arch" "$w/initramfs.cpio.gz" "$w"/test/* >"$w/initramfs.log" 2>&1 ||
	{ cat "$w/initramfs.log"; die "initramfs failed"; }
QEMU_MEM=1024M tests/qemu/boot "$arch" "$image" "$w/initramfs.cpio.gz" "$w/console.log" 600 ||
	die "the guest did not power off cleanly (see $w/console.log)"
tests/qemu/unframe "$w/console.log" "$w/out" >"$w/unframe.log" 2>&1 ||
	die "results did not come back whole: $(cat "$w/unframe.log")"
o=$w/out
[ "$(cat "$o/insmod.rc")" = 0 ] || die "insmod failed: $(cat "$o/insmod.stderr" 2>/dev/null)"
# report CASE WHAT: the rounds of one case
report() {
	[ "$(wc -l <"$o/$1_kmod_times")" -eq "$rounds" ] && [ "$(wc -l <"$o/$1_pagemap_times")" -eq "$rounds" ] ||
		die "$1: not every timed run came back"
	awk '$1 > 1 { bad = 1 } END { exit bad }' "$o/$1_kmod_times" "$o/$1_pagemap_times" ||
		die "$1: a timed run failed: $(cat "$o/$1_kmod_times" "$o/$1_pagemap_times")"
	paste "$o/$1_kmod_times" "$o/$1_pagemap_times" | awk -v k="$(cat "$o/uname")" -v pg="$(cat "$o/$1_pages")" -v what="$2" '
		function med(a, n,   i, j, t) {
			for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
			return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
		}
		{ n++; kt[n] = $2; pt[n] = $5; r[n] = $2 / $5; kr[n] = $3; pr[n] = $6 }
		END {
			printf "kmod bench: Linux %s in qemu (TCG), %s: %d mapped pages, %d rounds alternating\n", k, what, pg, n
			printf "%-8s %12s %16s\n", "source", "wall s (med)", "RSS KiB (med)"
			printf "%-8s %12.3f %16.0f\n", "kmod", med(kt, n), med(kr, n)
			printf "%-8s %12.3f %16.0f\n", "pagemap", med(pt, n), med(pr, n)
			lo = hi = r[1]; for (i = 2; i <= n; i++) { if (r[i] < lo) lo = r[i]; if (r[i] > hi) hi = r[i] }
			m = med(r, n)
			printf "kmod/pagemap %.2f (paired, min %.2f, max %.2f): the module %s\n", m, lo, hi,
			    m <= 1 ? "is no slower" : "is SLOWER"
		}'
}
report ptes "40 children sharing a file and copy-on-write pages"
echo "large folios: $(tr '\n' ' ' <"$o/pmds")(kB, all processes)"
report pmds "64 MiB of THP and a 16 MiB file in PMD-size folios, each shared by 8 children"
