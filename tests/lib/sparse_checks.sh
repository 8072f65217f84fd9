# A sparse address space, host side: sourced by tests/suites/kmod_test.sh (with
# tests/lib/lib.sh, field, rollup, figures, agree); checks what
# tests/guest/sparse_guest.sh sent back. Each process holds SPARSE_R MiB that
# never has a page and SPARSE_I MiB with islands of pages: every source, and
# pagemap without PAGEMAP_SCAN, gives the kernel's figures (Rss, Pss, Swap
# from smaps_rollup; statm's resident where there is no smaps), and all
# give the same figures but writable.

# sparse_sizes ARCH: the reservation and the islands' mapping, in MiB, for
# the guest's address space (3 GiB or less on 32 bits, 256 GiB at riscv64's
# Sv39)
sparse_sizes() {
	case $1 in
	armhf|mipsel) echo "SPARSE_R=512 SPARSE_I=256" ;;
	riscv64-sv39) echo "SPARSE_R=65536 SPARSE_I=4096" ;;
	*) echo "SPARSE_R=1048576 SPARSE_I=4096" ;;
	esac
}

sparse_checks() {
	o=$1
	set -- $(sed -n 's/^ready //p' "$o/sparse_workload")
	check_eq "sparse: workload ready" $# 3 "$(cat "$o/sparse_workload_err" 2>/dev/null)"
	[ $# -eq 3 ] || return
	spids="$*"
	srcs="kmod"
	[ -s "$o/sparse_pagemap" ] && srcs="kmod pagemap noscan"
	for pid in $spids; do
		for b in $srcs; do
			f=$o/sparse_$b
			if [ -f "$o/sparse_rollup_$pid" ]; then
				r=$o/sparse_rollup_$pid
				check_eq "sparse: pid $pid resident = Rss ($b)" "$(field "$f" pid "$pid" resident)" \
					"$(rollup "$r" Rss)"
				check_num "sparse: pid $pid eff_resident = Pss ($b)" "$(field "$f" pid "$pid" eff_resident)" \
					"$(rollup "$r" Pss)" 8192
				check_eq "sparse: pid $pid swap = Swap ($b)" "$(field "$f" pid "$pid" swap)" \
					"$(rollup "$r" Swap)"
			else
				check_eq "sparse: pid $pid resident = statm's resident ($b)" \
					"$(field "$f" pid "$pid" resident)" "$(zp_statm "$pid" sparse_statm_)"
			fi
			check_cmd "sparse: pid $pid vm holds the reservation and the islands ($b)" \
				within $(( (SPARSE_R + SPARSE_I) * 1048576 )) "$(field "$f" pid "$pid" vm)" ""
		done
	done
	for b in $srcs; do
		figures "$o/sparse_$b" "$spids" >"$o/sparse_fig.$b"
	done
	for b in $srcs; do
		[ $b = kmod ] && continue
		check_cmd "sparse: $b and kmod agree on all figures but writable" \
			agree "$o/sparse_fig.kmod" "$o/sparse_fig.$b"
	done
}
