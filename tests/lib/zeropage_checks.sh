# The zero page, host side: sourced by tests/suites/kmod_test.sh, which provides
# tests/lib/lib.sh, field, rollup, $target and $o (what the guest sent).
#   zp_learn       what a read fault gives on the guest's kernel, as its own
#                  figures say (tests/work/readfault.c: its Rss before and after,
#                  kpageflags' ZERO_PAGE bit): the zero page (and the huge
#                  zero page), or pages of its own; the no_zero_page kernel
#                  (target nozeropage-amd64) must allocate;
#   zp_checks      readfault's ranges and whole process as exmap-mini sees
#                  them, against what was learned and the kernel's Rss and Pss;
#   zp_ro_region   a workload child's read-only range it only read (64 KiB);
#   zp_statm       a process's resident count from statm, where no smaps
#                  (its block statm_PID, or PREFIX PID);
#   zp_afterprobe  a process that allocated right after exmap-mini's probe
#                  keeps all its pages: resident = Rss (tests/work/afterprobe.c).
# On a zero-page kernel a range only read is vm only; on one without, the
# pages are resident, its own, and writable where the mapping is (the kernel
# maps a read fault's page writable and dirty then: the PTE's bit, which the
# module reads).

# zp_expect TARGET: what TARGET's kernel was built to do on a read fault
# (alloc), or nothing where it is only learned
zp_expect() { case $1 in nozeropage-*) echo alloc ;; esac; }

# zp_line KIND: readfault's line for small or huge, as "ADDR BYTES RSS+ Z T"
zp_line() { awk -v k="$1" '$1 == k { $1 = ""; print }' "$o/readfault" 2>/dev/null; }

zp_name() { case $1 in huge) echo "the huge zero page" ;; *) echo "the zero page" ;; esac; }

# zp_mode KIND: zero, alloc or none (no THP), from how much Rss rose; bad else
zp_mode() {
	set -- $(zp_line "$1")
	case ${1:-}:${3:-} in
	none:) echo none ;;
	*:rss+0) echo zero ;;
	*:rss+"${2:-x}") echo alloc ;;
	*) echo bad ;;
	esac
}

# zp_agrees MODE KPAGEFLAGS: kpageflags, where readable, says what Rss
# said (MODE zero or alloc)
zp_agrees() {
	case $1:${2:-} in
	zero:zero=no | zero:zero=mixed | alloc:zero=yes | alloc:zero=mixed) return 1 ;;
	zero:* | alloc:*) return 0 ;;
	esac
	return 1
}

# zp_no_zero_page: read faults allocate, a page and a huge page (THP on,
# use_zero_page 1, enabled madvise): only no_zero_page keeps them off
zp_no_zero_page() {
	[ "$zsmall" = alloc ] && [ "$zhuge" = alloc ] && zp_line huge | grep -q 'thp=yes$' &&
		grep -qx 'use_zero_page:1' "$o/zp_thp" && grep -q '^enabled:.*\[madvise\]' "$o/zp_thp" &&
		return 0
	cat "$o/readfault" "$o/zp_thp"
	return 1
}

zp_learn() {
	rfpid=$(sed -n 's/^ready //p' "$o/readfault" 2>/dev/null)
	if [ -n "$rfpid" ]; then
		ok "readfault ready"
	else
		no "readfault ready" "$(cat "$o/readfault_err" 2>/dev/null)"
	fi
	zsmall=$(zp_mode small) zhuge=$(zp_mode huge)
	for kind in small huge; do
		set -- $(zp_line $kind)
		[ "${1:-}" = none ] && continue
		mode=$(zp_mode $kind)
		case $mode in
		zero) what="maps $(zp_name $kind): Rss +0, kpageflags ${4:-}" ;;
		alloc) what="allocates: Rss +$((${2:-0} / 1024)) KiB, kpageflags ${4:-}" ;;
		*) what="gives what? '$*'" ;;
		esac
		check_cmd "a read fault ($kind, $((${2:-0} / 1024)) KiB) $what" zp_agrees "$mode" "${4:-}"
	done
	if [ "$(zp_expect "$target")" = alloc ]; then
		check_cmd "no_zero_page: read faults allocate, a page and a huge page (THP), use_zero_page 1" \
			zp_no_zero_page
	fi
}

# zp_range KIND: ADDR BYTES MAPPED RESIDENT SOLE WRITABLE of readfault's range
zp_range() {
	set -- $(zp_line "$1")
	[ $# -ge 2 ] && [ "$1" != none ] || return 0
	awk -F, -v a="$1" '$2 == a { print $2, $9, $10, $11, $14, $15 }' "$o/kmod_maps_$rfpid"
}

zp_checks() {
	[ -n "$rfpid" ] || return 0
	for kind in small huge; do
		[ "$(zp_mode $kind)" = none ] && continue
		set -- $(zp_line $kind)
		addr=$1 len=$2
		got=$(zp_range $kind)
		case $(zp_mode $kind) in
		zero)
			check_eq "readfault: the $((len / 1024)) KiB it read ($kind) is vm only: $(zp_name $kind) is no RAM" \
				"$got" "$addr $len 0 0 0 0" "addr vm mapped resident sole writable: '$got'" ;;
		alloc)
			check_eq "readfault: the $((len / 1024)) KiB it read ($kind) is resident, its own and writable (no zero page)" \
				"$got" "$addr $len $len $len $len $len" "addr vm mapped resident sole writable: '$got'" ;;
		*)	no "readfault: a read fault ($kind) the kernel's figures explain" "$(cat "$o/readfault")" ;;
		esac
	done
	kfile=$o/kmod_all
	res=$(field "$kfile" pid "$rfpid" resident)
	if [ -f "$o/rollup_$rfpid" ]; then
		r=$(rollup "$o/rollup_$rfpid" Rss) p=$(rollup "$o/rollup_$rfpid" Pss)
		eff=$(field "$kfile" pid "$rfpid" eff_resident)
		check_eq "readfault: resident = Rss (kmod)" "$res" "$r" "resident '$res', Rss '$r'"
		check_num "readfault: eff_resident = Pss (kmod, within 8 KiB)" "$eff" "$p" 8192 \
			"eff_resident '$eff', Pss '$p'"
	else
		r=$(zp_statm "$rfpid")
		check_eq "readfault: resident = statm's resident (kmod)" "$res" "$r" "resident '$res', statm '$r'"
	fi
}

# zp_statm PID: its resident count in bytes, from statm (in pages; exact on
# kernels without smaps here, which are not SMP: no SPLIT_RSS_COUNTING)
zp_statm() {	# PID [BLOCK_PREFIX]
	awk -v ps="$(sed -n 's/^page //p' "$o/readfault")" '{ print $2 * ps }' "$o/${2:-statm_}$1" 2>/dev/null
}

# zp_ro_region PID RESIDENT SOLE WRITABLE: a workload child's read-only
# 64 KiB that it only read
zp_ro_region() {
	case $zsmall in
	zero)
		check_eq "pid $1: the 64 KiB it only read is the zero page: no RAM" "$2" 0 "resident '$2'" ;;
	alloc)
		check_eq "pid $1: the 64 KiB it only read is its own (no zero page): resident, sole; not writable (r--p)" \
			"$2 $3 $4" "65536 65536 0" "resident sole writable: '$2 $3 $4'" ;;
	*)	no "pid $1: the 64 KiB it only read: what a read fault gives is known" ;;
	esac
}

# zp_stopped B: exmap-mini (source B) stopped on the allocator's /proc
# files, right after its probe, and then ended 0
zp_stopped() {
	case $stop in
	"/proc/$apid" | "/proc/$apid/"*) [ -n "$apid" ] && grep -qx 'exit 0' "$o/ap_$1_out" && return 0 ;;
	esac
	cat "$o/ap_$1_out" "$o/ap_$1_stderr" "$o/ap_$1_err" 2>/dev/null | head -n 6
	return 1
}

zp_afterprobe() {
	for b in kmod pagemap; do
		[ $b = pagemap ] && [ "$(cat "$o/pagemap")" != yes ] && continue
		a=$o/ap_${b}_out
		apid=$(sed -n 's/^allocator //p' "$a" 2>/dev/null)
		stop=$(sed -n 's/^stopped //p' "$a" 2>/dev/null)
		set -- $(sed -n 's/^rss //p' "$a" 2>/dev/null) x x
		r1=$1 r2=$2
		check_cmd "probe reuse ($b): exmap-mini stopped right after its probe (at '$stop'), then ended 0" \
			zp_stopped $b
		if [ "$r1" = "$r2" ] && within $((64 << 20)) "$r1" "" >/dev/null; then
			ok "probe reuse ($b): the allocator holds 64 MiB or more, its Rss still while exmap-mini ran"
		else
			no "probe reuse ($b): the allocator holds 64 MiB or more, its Rss still while exmap-mini ran" \
				"Rss '$r1' then '$r2'"
		fi
		res=$(field "$o/ap_${b}_csv" pid "${apid:-none}" resident)
		if [ "$res" = "$r2" ]; then
			ok "probe reuse ($b): a process that allocated right after the probe: resident = Rss"
		else
			no "probe reuse ($b): a process that allocated right after the probe: resident = Rss" \
				"resident '$res', Rss '$r2'$(is_int "$r2" && is_int "${res:-0}" && echo " ($((r2 - ${res:-0})) B missing)")"
		fi
	done
}
