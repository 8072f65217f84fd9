# Large folios, host side: sourced by tests/suites/kmod_test.sh, which provides
# tests/lib/lib.sh, field, rollup, figures, agree, loads_here and $target.
# thp_mode names the phase a target's guest runs (tests/guest/thp_guest.sh),
# thp_checks checks what it sent.
#   pmd   (the 16 KiB kernel) PMD huge pages of 32 MiB, split in the children
#         by copy-on-write and drops;
#   mthp  (6.12 and 7.x kernels of 4 KiB pages) folios of 16, 32 and 64 KiB, PMD
#         THP off, mapped in part in the children.
#   file  (every one of them, first) a file in PMD-size folios on a tmpfs
#         mounted huge=always, two PMDs of it mapped private by the parent,
#         split in 4 children by their copies and drops;
#   swap  (thp_swap_mode) after mthp, 1920 KiB of 64 KiB folios, 448 KiB of
#         it paged out to zram before 2 children fork and copy from it.
# The truth: the kernel's Rss, Pss, Swap and SwapPss (smaps_rollup, and
# smaps for the region), its counters of huge pages made and split (vmstat,
# the mTHP stats), and what thpwork built (the region, each child's drop and
# copies).

thp_mode() {
	case $1 in
	*-arm64-16k) echo pmd ;;
	trixie-amd64|trixie-arm64|trixie-backports-amd64|trixie-backports-arm64|sid-amd64|\
	trixie-riscv64|sid-riscv64) echo mthp ;;
	esac
}

# thp_swap_mode TARGET: whether its guest pages 64 KiB folios out to zram
# (the kernel's package holds zram: 7.x's linux-binary holds no modules)
thp_swap_mode() {
	case $1 in
	trixie-amd64) echo 1 ;;
	esac
}

# thp_region FILE PID FIELD: FIELD (in bytes) of PID's rw-p mapping of
# $tsize bytes, from its smaps in FILE
thp_region() {
	awk -v kib=$((tsize / 1024)) -v f="$3:" '
		/^[0-9a-f]+-[0-9a-f]+ / { perms = $2; next }
		$1 == "Size:" { inr = perms == "rw-p" && $2 == kib; next }
		inr && $1 == f { print $2 * 1024; exit }' "$1"
}
# thp_counter FILE NAME: a /proc/vmstat counter; thp_stat FILE SIZE: the
# anon_fault_alloc of the hugepages-SIZE directory
thp_counter() { awk -v k="$2" '$1 == k { print $2 }' "$1" 2>/dev/null; }
thp_stat() { sed -n "s|^hugepages-$2/stats/anon_fault_alloc:||p" "$1" 2>/dev/null; }
# Arithmetic only on numbers (sh exits on a bad $((...))): else "none".
thp_sub() { if is_int "$1" && is_int "$2"; then echo $(($1 - $2)); else echo none; fi; }
# thp_rise GETTER OUTDIR BLOCK KEY: how much KEY rose from BLOCK0 to BLOCK1
thp_rise() { thp_sub "$($1 "$2/${3}1" "$4")" "$($1 "$2/${3}0" "$4")"; }

# thp_ready: thpwork said where its region is, and its children
thp_ready() {
	[ -n "$tkids" ] && is_int "$tsize" && return 0
	cat "$o/thp_work_err" "$o/thp_work" 2>/dev/null | head -n 3
	return 1
}
# thp_mthp_settings HPKIB: PMD THP off (enabled, and hugepages-HPKIBkB),
# 16, 32 and 64 KiB always
thp_mthp_settings() {
	grep -q '^enabled:.*\[never\]' "$o/thp_settings" &&
		grep -q "^hugepages-$1kB/enabled:.*\\[never\\]" "$o/thp_settings" &&
		[ "$(grep -c '^hugepages-\(16\|32\|64\)kB/enabled:\[always\]' "$o/thp_settings")" = 3 ] && return 0
	cat "$o/thp_settings"
	return 1
}
# thp_mthp_folios FOLIOS KIB: the folios (KIB:COUNT by size) are of 16, 32
# and 64 KiB, some of each and no other, KIB in all
thp_mthp_folios() {
	echo "$1" | awk -v kib="$2" '
		{ for (i = 1; i <= NF; i++) { split($i, f, ":"); n[f[1]] = f[2]; t += f[1] * f[2] } }
		END { exit !(n[16] > 0 && n[32] > 0 && n[64] > 0 && NF == 3 && t == kib) }' && return 0
	echo "folios by KiB:count: '$1'"
	return 1
}

# thp_figs L P PIDS: each pid's figures from each source against its
# smaps_rollup (resident = Rss, eff_resident = Pss within 2 KiB, swap = Swap,
# eff_mapped - eff_resident = SwapPss within 2 KiB), its region of $tsize
# bytes against that mapping's Pss (0 to 1 KiB over: smaps cuts to whole
# KiB), and the two sources alike on every figure but writable
thp_figs() {
	l=$1 p=$2
	for pid in $3; do
		r=$o/${p}_rollup_$pid
		for b in kmod pagemap; do
			f=$o/${p}_$b m=$o/${p}_maps_$pid
			[ $b = pagemap ] && m=$o/${p}_pmaps_$pid
			check_eq "$l: pid $pid: resident = Rss ($b)" "$(field "$f" pid "$pid" resident)" \
				"$(rollup "$r" Rss)"
			check_num "$l: pid $pid: eff_resident = Pss ($b)" "$(field "$f" pid "$pid" eff_resident)" \
				"$(rollup "$r" Pss)" 2047
			check_eq "$l: pid $pid: swap = Swap ($b)" "$(field "$f" pid "$pid" swap)" "$(rollup "$r" Swap)"
			check_num "$l: pid $pid: eff_mapped - eff_resident = SwapPss ($b)" \
				"$(thp_sub "$(field "$f" pid "$pid" eff_mapped)" "$(field "$f" pid "$pid" eff_resident)")" \
				"$(rollup "$r" SwapPss)" 2047
			eff=$(awk -F, -v v="$tsize" '$4 == "rw-p" && $9 == v { print $13 }' "$m")
			d=$(thp_sub "$eff" "$(thp_region "$o/${p}_smaps_$pid" "$pid" Pss)")
			if within 0 "$d" 1024 >/dev/null; then
				ok "$l: pid $pid: the region's eff_resident = its Pss ($b)"
			else
				no "$l: pid $pid: the region's eff_resident = its Pss ($b)" \
					"eff_resident '$eff', Pss '$(thp_region "$o/${p}_smaps_$pid" "$pid" Pss)'"
			fi
		done
	done
	figures "$o/${p}_kmod" "$3" >"$o/${p}_fig.kmod"
	figures "$o/${p}_pagemap" "$3" >"$o/${p}_fig.pagemap"
	check_cmd "$l: kmod and pagemap agree on all figures but writable" \
		agree "$o/${p}_fig.kmod" "$o/${p}_fig.pagemap"
}

# thp_file_checks: the file phase (its files tf_*)
thp_file_checks() {
	l="file folios"
	tpids=$(sed -n 's/^ready //p' "$o/tf_work" 2>/dev/null)
	tsize=$(sed -n 's/^region //p' "$o/tf_work" 2>/dev/null)
	check_eq "$l: the tmpfs mounted huge=always" "$(cat "$o/tf_mount.rc" 2>/dev/null)" 0 \
		"$(cat "$o/tf_mount.stderr" 2>/dev/null)"
	if [ -z "$tpids" ] || ! is_int "$tsize"; then
		no "$l: thpwork ready" "$(head -n 3 "$o/tf_work_err" "$o/tf_work" 2>/dev/null)"
		return
	fi
	ok "$l: thpwork ready"
	set -- $tpids
	got=$(rollup "$o/tf_rollup_$1" ShmemPmdMapped)
	check_eq "$l: the parent maps the file's $((tsize >> 20)) MiB by PMDs (ShmemPmdMapped)" "$got" "$tsize"
	thp_figs "$l" tf "$tpids"
}

# thp_swap_checks: the swap phase (its files ts_*)
thp_swap_checks() {
	l="mTHP in swap"
	tpids=$(sed -n 's/^ready //p' "$o/ts_work" 2>/dev/null)
	tsize=$(sed -n 's/^region //p' "$o/ts_work" 2>/dev/null)
	check_cmd "$l: zram swap on" has '^/dev/zram0' "$o/ts_zram"
	if [ -z "$tpids" ] || ! is_int "$tsize"; then
		no "$l: thpwork ready" "$(head -n 3 "$o/ts_work_err" "$o/ts_work" 2>/dev/null)"
		return
	fi
	ok "$l: thpwork ready"
	set -- $tpids
	check_cmd "$l: the region is in 64 KiB folios (kpageflags: $(sed -n 's/^folios //p' "$o/ts_work"))" \
		has '^folios .*64:[1-9]' "$o/ts_work"
	check_cmd "$l: part of it in swap (the parent's Swap $(rollup "$o/ts_rollup_$1" Swap))" \
		within 65536 "$(rollup "$o/ts_rollup_$1" Swap)" $((448 << 10))
	thp_figs "$l" ts "$tpids"
}

thp_checks() {
	o=$1
	thp_file_checks
	[ -z "$(thp_swap_mode "$target")" ] || thp_swap_checks
	case $thp in
	pmd) l="THP (PMD)" ;;
	*) l="mTHP" ;;
	esac
	set -- $(sed -n 's/^ready //p' "$o/thp_work" 2>/dev/null)
	tparent=${1:-} tkids=
	[ $# -gt 0 ] && shift && tkids="$*"
	tsize=$(sed -n 's/^region //p' "$o/thp_work" 2>/dev/null)
	check_cmd "$l: thpwork ready" thp_ready
	thp_ready >/dev/null || return 0
	case $target in *-16k) ps=16384 ;; *) ps=4096 ;; esac
	hp=$((ps / 8 * ps))	# a page table page's worth of pages: the PMD size
	got=$(thp_region "$o/thp_smaps_$tparent" "$tparent" KernelPageSize)
	check_eq "$l: the kernel's pages are $((ps / 1024)) KiB" "$got" $ps "KernelPageSize '$got'"
	# The folios under the parent's region, KIB:COUNT by size (kpageflags)
	folios=$(sed -n 's/^folios //p' "$o/thp_work")

	case $thp in
	pmd)
		check_cmd "$l: enabled = always" has '^enabled:\[always\]' "$o/thp_settings"
		n=$(thp_rise thp_counter "$o" thp_vmstat thp_fault_alloc)
		check_cmd "$l: the kernel made $((tsize / hp)) huge pages of $((hp >> 20)) MiB or more (thp_fault_alloc +$n)" \
			within $((tsize / hp)) "$n" ""
		check_eq "$l: the region is $((tsize / hp)) folios of $((hp >> 20)) MiB (kpageflags)" \
			"$folios" $((hp >> 10)):$((tsize / hp)) "folios by KiB:count: '$folios'"
		got=$(thp_region "$o/thp_smaps_$tparent" "$tparent" AnonHugePages)
		check_eq "$l: the parent maps all $((tsize >> 20)) MiB as huge pages (AnonHugePages)" "$got" $tsize
		set -- $tkids
		n=$(thp_rise thp_counter "$o" thp_vmstat thp_split_pmd)
		check_cmd "$l: each child's copies and drop split its huge mappings (thp_split_pmd +$n)" \
			within $(($# * tsize / hp)) "$n" ""
		;;
	mthp)
		check_cmd "$l: PMD THP off (enabled and hugepages-$((hp >> 10))kB never); 16, 32, 64 KiB always" \
			thp_mthp_settings $((hp >> 10))
		for k in 16 32 64; do
			n=$(thp_rise thp_stat "$o" thp_stats ${k}kB)
			check_cmd "$l: the kernel made folios of $k KiB (anon_fault_alloc +$n)" within 1 "$n" ""
		done
		check_cmd "$l: the region is folios of 16, 32 and 64 KiB, and only those (kpageflags)" \
			thp_mthp_folios "$folios" $((tsize >> 10))
		n=$(thp_rise thp_counter "$o" thp_vmstat thp_fault_alloc)
		check_eq "$l: and no PMD huge pages (thp_fault_alloc +$n)" "$n" 0
		;;
	esac

	# What thpwork built: each child maps the region but its drop, and
	# owns alone the pages it copied.
	for pid in $tkids; do
		set -- $(awk -v p="$pid" '$1 == "child" && $2 == p { print $3, $4 }' "$o/thp_work")
		m=$o/thp_maps_$pid
		res=$(awk -F, -v v="$tsize" '$8 == "[anon]" && $4 == "rw-p" && $9 == v { print $11 }' "$m")
		sole=$(awk -F, -v v="$tsize" '$8 == "[anon]" && $4 == "rw-p" && $9 == v { print $14 }' "$m")
		check_eq "$l: pid $pid: region resident = all but its drop of $((${1:-0} / 1024)) KiB" \
			"$res" "$(thp_sub "$tsize" "${1:-}")"
		check_eq "$l: pid $pid: region sole = the $((${2:-0} / ps)) pages it copied" "$sole" "${2:-none}"
	done
	# The kernel's figures: Rss exact. Pss: smaps prints it in whole KiB,
	# cut down, so eff_resident is 0 to 1 KiB over it for the region, whose
	# pages thpwork's family alone maps; for the whole process within 2 KiB
	# either way, since its vdso is also mapped by the processes that come
	# and go between the scan and the reading of smaps_rollup.
	for pid in $tparent $tkids; do
		r=$o/thp_rollup_$pid s=$o/thp_smaps_$pid m=$o/thp_maps_$pid
		res=$(field "$o/thp_kmod" pid "$pid" resident)
		eff=$(field "$o/thp_kmod" pid "$pid" eff_resident)
		check_eq "$l: pid $pid: resident = Rss" "$res" "$(rollup "$r" Rss)" \
			"resident '$res', Rss '$(rollup "$r" Rss)'"
		check_num "$l: pid $pid: eff_resident = Pss (within 2 KiB)" "$eff" "$(rollup "$r" Pss)" 2047 \
			"eff_resident '$eff', Pss '$(rollup "$r" Pss)'"
		eff=$(awk -F, -v v="$tsize" '$8 == "[anon]" && $4 == "rw-p" && $9 == v { print $13 }' "$m")
		d=$(thp_sub "$eff" "$(thp_region "$s" "$pid" Pss)")
		if within 0 "$d" 1024 >/dev/null; then
			ok "$l: pid $pid: the region's eff_resident = its Pss (0 to 1 KiB over)"
		else
			no "$l: pid $pid: the region's eff_resident = its Pss (0 to 1 KiB over)" \
				"eff_resident '$eff', Pss '$(thp_region "$s" "$pid" Pss)'"
		fi
	done
	# Loaded here, on this machine's own page size, the guest's capture
	# gives the report the guest gave at that moment.
	got=$(head -n 1 "$o/thp_cap_dump")
	case $got in
	"XM begin "*" ps=$ps "*) ok "$l: the capture records the guest's page size (ps=$ps)" ;;
	*) no "$l: the capture records the guest's page size (ps=$ps)" "$(head -c 120 "$o/thp_cap_dump")" ;;
	esac
	"$repo/build/exmap-mini" -l "$o/thp_cap_dump" -k procs >"$o/thp_cap_load" 2>"$o/thp_cap_load.err"
	check_cmd "$l: the capture loads here to the report it gave" \
		loads_here "$o/thp_cap_live" "$o/thp_cap_load" "$o/thp_cap_err" "$o/thp_cap_load.err"
	figures "$o/thp_kmod" "$tparent $tkids" >"$o/thp_fig.kmod"
	figures "$o/thp_pagemap" "$tparent $tkids" >"$o/thp_fig.pagemap"
	check_cmd "$l: kmod and pagemap agree on all figures but writable" \
		agree "$o/thp_fig.kmod" "$o/thp_fig.pagemap"
}
