#!/bin/sh
# The module's speed against pagemap's, in one guest boot: Debian's kernel
# (trixie amd64 unless told) in qemu (TCG) with the module loaded, a workload
# of sharing children, and exmap-mini -c timed with -b kmod and -b pagemap in
# turn, ROUNDS times after a warm-up of each (tests/bench/runstat.c, in the
# guest). Prints the medians and the median of the paired ratios kmod/pagemap
# with their spread. Emulated, the absolute times are not a board's; the ratio
# is what it is for: the module should be no slower.
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
for f in "$bin/exmap-mini" "$tools/workload" "$tools/runstat"; do
	[ -x "$f" ] || die "$f is not built (make bench builds it)"
done
w=build/qemu/kbench/$target
rm -rf "$w" && mkdir -p "$w/test" || die "$w: cannot create"
toolchain/kernel fetch "$dist" "$arch" >"$w/fetch.log" 2>&1 || { cat "$w/fetch.log"; die "kernel fetch failed"; }
eval "$(toolchain/kernel path "$dist" "$arch")"
make -s kmod KDIR="$kdir" >"$w/kmod.log" 2>&1 || { tail -20 "$w/kmod.log"; die "module build failed"; }
cp build/kmod/"$(basename "$kdir")"/exmap_mini.ko "$bin/exmap-mini" "$tools/workload" "$tools/runstat" \
	tests/qemu/frame.sh "$w/test/" || die "cannot copy the guest's files"
cat >"$w/test/run.sh" <<GUEST
. /test/frame.sh
frame_begin kbench
frame_cmd uname uname -r
frame_cmd insmod insmod /test/exmap_mini.ko
mkdir -p /tmp
: >/tmp/wl.out
/test/workload -n 40 -f 8192 -c 4096 -p 1024 -d /tmp >/tmp/wl.out 2>/tmp/wl.err &
i=0
while ! grep -q '^ready' /tmp/wl.out && [ \$i -lt 120 ]; do sleep 1; i=\$((i + 1)); done
frame_file workload /tmp/wl.out
for b in kmod pagemap; do /test/exmap-mini -b \$b -c >/dev/null 2>&1; done
: >/tmp/kmod.t
: >/tmp/pagemap.t
r=0
while [ \$r -lt $rounds ]; do
	/test/runstat /tmp/kmod.t /test/exmap-mini -b kmod -c
	/test/runstat /tmp/pagemap.t /test/exmap-mini -b pagemap -c
	r=\$((r + 1))
done
frame_file kmod_times /tmp/kmod.t
frame_file pagemap_times /tmp/pagemap.t
frame_cmd pages sh -c 'cat /proc/[0-9]*/smaps_rollup 2>/dev/null | awk "\\\$1 == \"Rss:\" { k += \\\$2 } END { print k / 4 }"'
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
[ "$(wc -l <"$o/kmod_times")" -eq "$rounds" ] && [ "$(wc -l <"$o/pagemap_times")" -eq "$rounds" ] ||
	die "not every timed run came back"
awk '$1 > 1 { bad = 1 } END { exit bad }' "$o/kmod_times" "$o/pagemap_times" ||
	die "a timed run failed: $(cat "$o/kmod_times" "$o/pagemap_times")"
paste "$o/kmod_times" "$o/pagemap_times" | awk -v k="$(cat "$o/uname")" -v pg="$(cat "$o/pages")" '
	function med(a, n,   i, j, t) {
		for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
		return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
	}
	{ n++; kt[n] = $2; pt[n] = $5; r[n] = $2 / $5; kr[n] = $3; pr[n] = $6 }
	END {
		printf "kmod bench: Linux %s in qemu (TCG), %d mapped pages, %d rounds alternating\n", k, pg, n
		printf "%-8s %12s %16s\n", "source", "wall s (med)", "RSS KiB (med)"
		printf "%-8s %12.3f %16.0f\n", "kmod", med(kt, n), med(kr, n)
		printf "%-8s %12.3f %16.0f\n", "pagemap", med(pt, n), med(pr, n)
		lo = hi = r[1]; for (i = 2; i <= n; i++) { if (r[i] < lo) lo = r[i]; if (r[i] > hi) hi = r[i] }
		m = med(r, n)
		printf "kmod/pagemap %.2f (paired, min %.2f, max %.2f): the module %s\n", m, lo, hi,
		    m <= 1 ? "is no slower" : "is SLOWER"
	}'
