# hugetlb pages of 64 KiB and 2 MiB, host side: sourced by
# tests/suites/kmod_test.sh, which provides tests/lib/lib.sh, field, rollup,
# figures, agree and $target. napot_mode says whether a target's guest runs the
# phase (tests/guest/napot_guest.sh: riscv64 on a CPU with Svnapot, where a 64
# KiB page is 16 PTEs holding the same value and pte_pfn() gives its first frame
# for all 16); napot_checks checks what it sent. The truth: the kernel's smaps
# for each mapping (KernelPageSize, Shared_Hugetlb, Private_Hugetlb) and
# smaps_rollup for the process (Rss and Pss leave hugetlb pages out), and
# pagemap, which gives each 4 KiB page of a huge page its own frame; hugework's
# parent and child are the only processes that map the pages.

napot_mode() {
	case $1 in
	trixie-riscv64|sid-riscv64) echo yes ;;
	esac
}

# napot_smaps FILE ADDRESS FIELD: FIELD (kB in smaps, here bytes) of the
# mapping that starts at ADDRESS (0x..., as hugework prints it)
napot_smaps() {
	awk -v a="${2#0x}" -v f="$3:" '
		function trim(s) { sub(/^0+/, "", s); return s }
		/^[0-9a-f]+-[0-9a-f]+ / { split($1, r, "-"); inr = trim(r[1]) == trim(a); next }
		inr && $1 == f { print $2 * 1024; exit }' "$1"
}
# napot_row FILE ADDRESS COLUMN: a column of exmap-mini's maps CSV row at ADDRESS
napot_row() { awk -F, -v a="$2" -v c="$3" '$2 == a { print $c; exit }' "$1"; }
# napot_ready: hugework gave its pids and its two mappings
napot_ready() {
	[ -n "$hpids" ] && [ "$(grep -c '^region ' "$o/napot_work" 2>/dev/null)" = 2 ] && return 0
	cat "$o/napot_work_err" "$o/napot_work" 2>/dev/null | head -n 3
	return 1
}
# napot_add A B...: their sum, or "none" if one is not a number
napot_add() {
	_s=0
	for _v; do is_int "$_v" || { echo none; return; }; _s=$((_s + _v)); done
	echo $_s
}

napot_checks() {
	o=$1
	l=hugetlb
	check_cmd "$l: the kernel has 64 KiB hugetlb pages (Svnapot)" has '^hugepages-64kB$' "$o/napot_pools"
	check_cmd "$l: the kernel has 2 MiB hugetlb pages" has '^hugepages-2048kB$' "$o/napot_pools"
	check_cmd "$l: pools of 4 pages of 64 KiB and 2 of 2 MiB filled" \
		napot_pools_filled
	hpids=$(sed -n 's/^ready //p' "$o/napot_work" 2>/dev/null)
	check_cmd "$l: hugework ready (a parent and a child, two mappings)" napot_ready
	napot_ready >/dev/null || return 0
	set -- $hpids
	np=$#
	# Each mapping: in pages of its size, every page shared, and each
	# source gives the kernel's figures for it.
	while read -r _ kib addr len; do
		for pid in $hpids; do
			s=$o/napot_smaps_$pid
			check_eq "$l $kib KiB: pid $pid: the kernel maps it in $kib KiB pages (KernelPageSize)" \
				"$(napot_smaps "$s" "$addr" KernelPageSize)" $((kib * 1024))
			sh=$(napot_smaps "$s" "$addr" Shared_Hugetlb) pr=$(napot_smaps "$s" "$addr" Private_Hugetlb)
			check_eq "$l $kib KiB: pid $pid: all $len bytes shared (Shared_Hugetlb, Private_Hugetlb)" \
				"$sh $pr" "$len 0"
			is_int "$sh" && is_int "$pr" || continue
			for b in kmod pagemap; do
				m=$o/napot_${b}_maps_$pid
				check_eq "$l $kib KiB: pid $pid: resident = Shared_Hugetlb + Private_Hugetlb ($b)" \
					"$(napot_row "$m" "$addr" 11)" $((sh + pr))
				check_eq "$l $kib KiB: pid $pid: eff_resident = Shared_Hugetlb / $np + Private_Hugetlb ($b)" \
					"$(napot_row "$m" "$addr" 13)" $((sh / np + pr))
				check_eq "$l $kib KiB: pid $pid: sole = Private_Hugetlb ($b)" \
					"$(napot_row "$m" "$addr" 14)" "$pr"
			done
		done
	done <<END
$(grep '^region ' "$o/napot_work")
END
	# Each process: Rss and Pss leave hugetlb out; the sources count it.
	for pid in $hpids; do
		r=$o/napot_rollup_$pid
		sh=$(rollup "$r" Shared_Hugetlb) pr=$(rollup "$r" Private_Hugetlb)
		for b in kmod pagemap; do
			f=$o/napot_$b
			check_eq "$l: pid $pid: resident = Rss + Shared_Hugetlb + Private_Hugetlb ($b)" \
				"$(field "$f" pid "$pid" resident)" "$(napot_add "$(rollup "$r" Rss)" "$sh" "$pr")"
			is_int "$sh" && is_int "$pr" || continue
			check_num "$l: pid $pid: eff_resident = Pss + Shared_Hugetlb / $np + Private_Hugetlb ($b)" \
				"$(field "$f" pid "$pid" eff_resident)" "$(napot_add "$(rollup "$r" Pss)" $((sh / np)) "$pr")" 8192
		done
	done
	figures "$o/napot_kmod" "$hpids" >"$o/napot_fig.kmod"
	figures "$o/napot_pagemap" "$hpids" >"$o/napot_fig.pagemap"
	check_cmd "$l: kmod and pagemap agree on all figures but writable" \
		agree "$o/napot_fig.kmod" "$o/napot_fig.pagemap"
}

# napot_pools_filled: the pools hold what the guest asked
napot_pools_filled() {
	grep -qx 'hugepages-64kB/nr_hugepages:4' "$o/napot_nr" &&
		grep -qx 'hugepages-2048kB/nr_hugepages:2' "$o/napot_nr" && return 0
	cat "$o/napot_nr" 2>/dev/null
	return 1
}
