#!/bin/sh
# Large folios on this machine, run as root, through pagemap: workloads whose
# memory the kernel keeps in large folios, mapped in part, shared, split by
# copy-on-write and partly swapped, each checked against the kernel's own
# figures: every process's resident = Rss, eff_resident = Pss and swap =
# Swap (smaps_rollup), its large mapping's eff_resident = that mapping's Pss
# (smaps), and the self-check, with PAGEMAP_SCAN (where PMDs are read one
# entry each) and without it (every entry read):
#   - a 64 MiB file on this machine's disk filesystem in PMD-size folios,
#     mapped by PMDs in 3 children (FilePmdMapped says so) and not touched
#     by their parent;
#   - 4 MiB of a file on a tmpfs mounted huge=always, mapped private and
#     read by a parent (ShmemPmdMapped), copied from and dropped in part by
#     4 children;
#   - 8 MiB of anonymous THP a parent wrote, 4 children each copying one
#     page in 16 and dropping 512 KiB (thp_split_pmd rises);
#   - the same with one child, which copies each huge page's first page:
#     the parent's PMDs are then what pagemap calls exclusive (by the first
#     page) though the child maps their other pages;
#   - 1920 KiB in 64 KiB folios (multi-size THP, 64 KiB on for MADV_HUGEPAGE
#     ranges for the while), 448 KiB of it paged out to a swap file
#     (MADV_PAGEOUT) before 2 children fork and copy one page in 16: some
#     folios whole in swap, some cut (Swap and SwapPss).
# Environment: EXMAP, BENCHWORK, THPWORK. Last line: N passed, N failed.
set -u
: "${EXMAP:?}" "${BENCHWORK:?}" "${THPWORK:?}"
LIB=$(cd "$(dirname "$0")/../lib" && pwd)
. "$LIB/lib.sh"
T=$(mktemp -d /tmp/exmap-folio.XXXXXX)
TH=/sys/kernel/mm/transparent_hugepage
SWAPFILE=
MTHP_WAS=
HUGE=

cleanup() {
	stop_workload
	[ -z "$HUGE" ] || umount "$HUGE"
	[ -z "$MTHP_WAS" ] || echo "$MTHP_WAS" >$TH/hugepages-64kB/enabled
	[ -z "$SWAPFILE" ] || swapoff "$SWAPFILE"
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 2' INT TERM

# vmfield PID START FIELD: FIELD (bytes) of PID's mapping at START (0x...), from smaps
vmfield() {
	awk -v a="${2#0x}" -v f="$3:" '
		/^[0-9a-f]+-[0-9a-f]+ / { split($1, r, "-"); here = (r[1] == a); next }
		here && $1 == f { print $2 * 1024; exit }' "/proc/$1/smaps"
}
# vmstat NAME: a /proc/vmstat counter
vmstat() { awk -v k="$1" '$1 == k { print $2 }' /proc/vmstat; }

# figures WHAT SIZE PIDS...: a scan of every process, with PAGEMAP_SCAN and
# without, against each pid's smaps_rollup, and its mapping of SIZE bytes
# (the workload's large one) against that mapping's smaps.
figures() {
	what=$1 size=$2
	shift 2
	pids="$*"
	for scan in 1 0; do
		how="$what, PAGEMAP_SCAN $([ $scan = 1 ] && echo on || echo off)"
		EXMAP_PAGEMAP_SCAN=$scan "$EXMAP" -c >"$T/all.csv" 2>"$T/all.err"
		rc=$?
		within 0 "$rc" 1 >/dev/null && ok "$how: a scan of every process exits $rc" ||
			no "$how: a scan of every process" "rc $rc: $(head -n 3 "$T/all.err")"
		EXMAP_PAGEMAP_SCAN=$scan "$EXMAP" -n 1 >"$T/all.txt" 2>/dev/null
		check_cmd "$how: the self-check holds" has '^check: .*: ok$' "$T/all.txt"
		for pid in $pids; do
			check_eq "$how: pid $pid: resident = Rss" "$(col "$T/all.csv" pid "$pid" resident)" \
				"$(rollup "$pid" Rss)"
			check_num "$how: pid $pid: eff_resident = Pss" \
				"$(col "$T/all.csv" pid "$pid" eff_resident)" "$(rollup "$pid" Pss)" 4096
			check_eq "$how: pid $pid: swap = Swap" "$(col "$T/all.csv" pid "$pid" swap)" \
				"$(rollup "$pid" Swap)"
			check_num "$how: pid $pid: eff_mapped - eff_resident = SwapPss" \
				"$(($(col "$T/all.csv" pid "$pid" eff_mapped) - $(col "$T/all.csv" pid "$pid" eff_resident)))" \
				"$(rollup "$pid" SwapPss)" 4096
			# the large mapping alone: smaps sums its shares cut to 2^-12 bytes
			# each, then cuts to whole KiB: 0 to 1 KiB under
			EXMAP_PAGEMAP_SCAN=$scan "$EXMAP" -c maps "$pid" >"$T/maps.csv" 2>/dev/null
			set -- $(awk -F, -v v="$size" 'NR > 1 && $9 == v { print $2, $13; exit }' "$T/maps.csv")
			d=$((${2:-0} - $(vmfield "$pid" "${1:-0}" Pss)))
			if [ $# -eq 2 ] && within 0 "$d" 1024 >/dev/null; then
				ok "$how: pid $pid: its mapping of $((size >> 10)) KiB: eff_resident = its Pss"
			else
				no "$how: pid $pid: its mapping of $((size >> 10)) KiB: eff_resident = its Pss" \
					"eff_resident '${2:-}', Pss '$(vmfield "$pid" "${1:-0}" Pss)'"
			fi
		done
	done
}

# pmd_reads PID...: how many 8-byte pagemap reads a scan makes of these
# processes (a PMD read as one entry), with PAGEMAP_SCAN
pmd_reads() {
	strace -f -qq -y -o "$T/strace" -e trace=pread64 "$EXMAP" -c >/dev/null 2>&1
	awk -v pids=" $* " '
		/, 8, [0-9]+\) += 8$/ && match($0, /pread64\([0-9]+<\/proc\/[0-9]+\/pagemap>/) {
			p = substr($0, RSTART, RLENGTH); sub(/^.*<\/proc\//, "", p); sub(/\/.*/, "", p)
			if (index(pids, " " p " ")) n++
		} END { print n + 0 }' "$T/strace"
}

hp=$(cat $TH/hpage_pmd_size 2>/dev/null)
if ! is_int "$hp"; then
	echo "skip large folios: this kernel has no transparent huge pages ($TH)"
	finish
fi
ps=$(getconf PAGESIZE)
has_scan=$(has_pagemap_scan)

# --- a file in PMD-size folios, mapped by PMDs -------------------------------
if start_workload "$T/file.out" "$BENCHWORK" -H -n 3 -f 65536 -d "$T"; then
	set -- $READY
	parent=$1
	shift
	kids="$*"
	for pid in $kids; do
		check_eq "file: pid $pid: the kernel maps the whole 64 MiB by PMDs (FilePmdMapped)" \
			"$(rollup "$pid" FilePmdMapped)" $((64 << 20)) \
			"FilePmdMapped $(rollup "$pid" FilePmdMapped) (a filesystem without large folios at $T?)"
	done
	figures file $((64 << 20)) $parent $kids
	set -- $kids
	if [ "$has_scan" = 1 ]; then
		# all but the first, whose entries showed the PMD
		n=$(pmd_reads $kids)
		check_cmd "file: with PAGEMAP_SCAN each PMD but the first is one entry read ($n 8-byte reads of the children's pagemap)" \
			within $(($# * ((64 << 20) / hp - 1))) "$n" ""
	else
		echo "skip file: one entry a PMD: this kernel has no PAGEMAP_SCAN"
	fi
	stop_workload
else
	no "file: workload ready" "$(cat "$T/file.out.err")"
fi

# --- a file on a huge tmpfs, mapped private, split by copy-on-write --------------
mkdir -p "$T/huge"
if ! mount -t tmpfs -o huge=always,size=$((2 * (hp >> 10) + 4096))k none "$T/huge"; then
	no "tmpfs file: a tmpfs mounted huge=always"
elif HUGE=$T/huge && start_workload "$T/tf.out" "$THPWORK" -H -n 4 -r 16 -s $((2 * (hp >> 10))) \
		-a $((hp >> 10)) -D $((hp >> 12)) -F "$T/huge"; then
	set -- $READY
	check_eq "tmpfs file: the parent maps its $((2 * hp >> 20)) MiB of it by PMDs (ShmemPmdMapped)" \
		"$(rollup "$1" ShmemPmdMapped)" $((2 * hp))
	figures "tmpfs file" $((2 * hp)) "$@"
	stop_workload
else
	no "tmpfs file: workload ready" "$(cat "$T/tf.out.err")"
fi
[ -z "$HUGE" ] || umount "$HUGE"
HUGE=

# --- anonymous THP split by copy-on-write -------------------------------------
split0=$(vmstat thp_split_pmd)
if start_workload "$T/thp.out" "$THPWORK" -H -n 4 -r 16 -s 8192 -a $((hp >> 10)) -D 512; then
	set -- $READY
	parent=$1
	shift
	check_eq "thp: the parent maps its 8 MiB by PMDs (AnonHugePages)" \
		"$(rollup "$parent" AnonHugePages)" $((8 << 20))
	n=$(($(vmstat thp_split_pmd) - split0))
	check_cmd "thp: the children's copies and drops split their PMDs (thp_split_pmd +$n)" \
		within $((4 * (8 << 20) / hp)) "$n" ""
	figures thp $((8 << 20)) $parent "$@"
	stop_workload
else
	no "thp: workload ready" "$(cat "$T/thp.out.err")"
fi

# --- the parent's PMDs exclusive by their first page ---------------------------
if start_workload "$T/head.out" "$THPWORK" -H -n 1 -r $((hp / ps)) -s 8192 -a $((hp >> 10)); then
	set -- $READY
	check_eq "first pages: the parent maps its 8 MiB by PMDs (AnonHugePages)" \
		"$(rollup "$1" AnonHugePages)" $((8 << 20))
	figures "first pages" $((8 << 20)) "$@"
	stop_workload
else
	no "first pages: workload ready" "$(cat "$T/head.out.err")"
fi

# --- 64 KiB folios, partly swapped ---------------------------------------------
if [ ! -w $TH/hugepages-64kB/enabled ]; then
	echo "skip 64 KiB folios: this kernel has no multi-size THP of 64 KiB ($TH/hugepages-64kB)"
elif ! swap_on "$T"; then
	no "mTHP: a swap file is on" "no swap is active and a swap file cannot be enabled in $T"
else
	MTHP_WAS=$(sed 's/.*\[\(.*\)\].*/\1/' $TH/hugepages-64kB/enabled)
	echo madvise >$TH/hugepages-64kB/enabled
	if start_workload "$T/mthp.out" "$THPWORK" -H -n 2 -r 16 -s 1920 -a 64 -O 448; then
		set -- $READY
		folios=$(sed -n 's/^folios //p' "$T/mthp.out")
		swapped=$(sed -n 's/^swapped //p' "$T/mthp.out")
		check_cmd "mTHP: the region is in 64 KiB folios (kpageflags: $folios)" has ' 64:[1-9]' "$T/mthp.out"
		check_cmd "mTHP: some of it in swap ($swapped bytes), the parent's Swap ($(rollup "$1" Swap))" \
			within 65536 "${swapped:-0}" $((448 << 10))
		figures mTHP $((1920 << 10)) "$@"
		stop_workload
	else
		no "mTHP: workload ready" "$(cat "$T/mthp.out.err")"
	fi
	echo "$MTHP_WAS" >$TH/hugepages-64kB/enabled
	MTHP_WAS=
fi

finish
