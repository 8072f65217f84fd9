# The census of RAM frames, host side: sourced by tests/suites/kmod_test.sh
# (with tests/lib/lib.sh); checks what tests/unit/censusdump.c printed in the
# guest (block "census": both sources one right after the other, on the
# quiescent guest, with CENSUS_HUGE pages in the hugetlb pool where there is
# one; "census_meminfo" just after):
#   - the module's census adds up to iomem's System RAM, kind by kind;
#   - where /proc/kpageflags exists, every kind, and mapped and thp, agree
#     with it within 1% of RAM (the one frame kind they can differ on: 5.10
#     and 6.1 call the huge zero page zero, which the module cannot tell, the
#     kernel exporting nothing for it; its 2 MiB is within the 1%);
#   - free is MemFree, slab Slab, page tables PageTables, within 1% of RAM;
#   - the hugetlb pool is hugetlb, exactly (HugePages_Total);
#   - exmap-mini's ram view shows the census of kpageflags, or the module's
#     where there is no kpageflags, all of System RAM;
#   - with KSM not running, no frame is KSM's, by either source (6.12's
#     kpageflags marks every anonymous page KSM; census.c undoes that);
#   - how the census settled with the kernel's counts, as CENSUS_KERNEL says
#     the kernel is: "" (Debian's, mainline: kpageflags marks every frame of
#     a free block, MemTotal is what the zones manage: nothing inferred,
#     nothing outside the buddy allocator); "headonly" (booted with
#     kpageflags_buddy_head_only: kpageflags' free blocks told from
#     buddyinfo and inferred, within 1% of RAM of the module's, which reads
#     each block's order, and of buddyinfo's free frames); "outside"
#     (booted with free_outside_buddy=CENSUS_OUTSIDE_MIB MiB: that much
#     counted free outside the buddy allocator, by both sources); in each,
#     free (with outside) is MemFree and other kernel is no more than
#     MemTotal less MemFree, within 1% of RAM.
# On a kernel without kpageflags the module's census is the only one; it
# must still add up and match meminfo.

CENSUS_HUGE=4	# huge pages reserved in the guest for the census

# cfig SOURCE KIND: a figure of the census, in frames
cfig() { awk -F, -v s="$1" -v k="$2" '$1 == "census" && $4 == s && $2 == k { print $3 }' "$o/census"; }
# sfig SOURCE WHAT: what settled SOURCE's census (censusdump's settle lines)
sfig() { awk -F, -v s="$1" -v k="$2" '$1 == "settle" && $4 == s && $2 == k { print $3 }' "$o/census"; }
# cf, sf: the same, 0 when there is none (for arithmetic)
cf() { v=$(cfig "$@"); echo "${v:-0}"; }
sf() { v=$(sfig "$@"); echo "${v:-0}"; }
# meminfo_frames FIELD: a meminfo figure (kB) in frames of PSIZE bytes
meminfo_frames() { awk -v f="$1:" -v p="$psize" '$1 == f { print int($2 * 1024 / p) }' "$o/census_meminfo"; }
# the sum of the kinds of SOURCE's census
census_sum() {
	awk -F, -v s="$1" '$1 == "census" && $4 == s && $2 != "frames" && $2 != "mapped" &&
		$2 != "thp" { t += $3 } END { print t + 0 }' "$o/census"
}

census_checks() {
	o=$1
	check_eq "census: the module's answered (censusdump kmod)" \
		"$(grep -c '^census,.*,kmod$' "$o/census")" 18 "$(cat "$o/census.stderr" 2>/dev/null)"
	ram=$(awk -F, '$1 == "ram" { print $2 }' "$o/census")
	psize=$(awk -F, '$1 == "ram" { print $3 }' "$o/census")
	is_int "$ram" && [ "$ram" -gt 0 ] || { no "census: iomem's System RAM came back" "$(head -n 3 "$o/census")"; return; }
	tol=$((ram / 100))
	check_eq "census (kmod): frames = iomem's System RAM, $ram" "$(cfig kmod frames)" "$ram"
	check_eq "census (kmod): the kinds add up to the frames" "$(census_sum kmod)" "$ram"
	if [ -n "$(cfig kpageflags frames)" ]; then
		check_eq "census (kpageflags): the kinds add up to iomem's System RAM" \
			"$(census_sum kpageflags)" "$ram"
		for k in "no struct page" offline balloon free outside "zero page" reserved hugetlb \
			slab "page tables" ksm anonymous shmem "page cache" "other kernel" mapped thp; do
			check_num "census: $k, kmod = kpageflags within 1% of RAM ($tol frames)" \
				"$(cfig kmod "$k")" "$(cfig kpageflags "$k")" $tol
		done
	elif [ "$(cat "$o/pagemap")" = yes ]; then
		no "census: kpageflags answered where pagemap exists" "$(cat "$o/census.stderr" 2>/dev/null)"
	else
		ok "census: no kpageflags here: the module's census is the only one"
	fi
	check_num "census (kmod): free (with outside) = MemFree within 1% of RAM" \
		$(($(cf kmod free) + $(cf kmod outside))) "$(meminfo_frames MemFree)" $tol
	check_num "census (kmod): slab = Slab within 1% of RAM" \
		"$(cfig kmod slab)" "$(meminfo_frames Slab)" $tol
	check_num "census (kmod): page tables = PageTables within 1% of RAM" \
		"$(cfig kmod "page tables")" "$(meminfo_frames PageTables)" $tol
	src=kmod
	[ -n "$(cfig kpageflags frames)" ] && src=kpageflags
	check_eq "ram view: its census is $src's, all of System RAM" \
		"$(awk -F, '$1 == "census" && $2 == "census" { print $4 "," $5 }' "$o/ram_view")" \
		"$((ram * psize)),$src" "$(head -c 300 "$o/ram_view.stderr" 2>/dev/null)"
	if grep -qx '0\|none' "$o/census_ksm"; then
		for b in kmod kpageflags; do
			[ -n "$(cfig $b frames)" ] &&
				check_eq "census ($b): KSM not running ($(cat "$o/census_ksm")), no ksm frames" \
					"$(cfig $b ksm)" 0
		done
	fi
	pool=$(awk -v p="$psize" '$1 == "HugePages_Total:" { n = $2 } $1 == "Hugepagesize:" { s = $2 }
		END { if (n != "") print int(n * s * 1024 / p) }' "$o/census_meminfo")
	if [ -n "$pool" ]; then
		check_cmd "census: the hugetlb pool was filled ($CENSUS_HUGE huge pages asked)" test "$pool" -gt 0
		check_eq "census (kmod): hugetlb = the pool, HugePages_Total" "$(cfig kmod hugetlb)" "$pool"
	else
		check_eq "census (kmod): no hugetlb pool here, no hugetlb frames" "$(cfig kmod hugetlb)" 0
	fi
	settle_checks
}

# How the census settled with the kernel's counts, as CENSUS_KERNEL says.
settle_checks() {
	used=$(($(meminfo_frames MemTotal) - $(meminfo_frames MemFree)))
	for b in kpageflags kmod; do
		[ -n "$(cfig $b frames)" ] || continue
		check_num "census ($b): free (with outside) = MemFree within 1% of RAM" \
			$(($(cf $b free) + $(cf $b outside))) "$(meminfo_frames MemFree)" $tol
		check_cmd "census ($b): other kernel ($(cfig $b "other kernel")) <= MemTotal - MemFree ($used), within 1% of RAM" \
			within 0 "$(cfig $b "other kernel")" $((used + tol))
	done
	case ${CENSUS_KERNEL:-} in
	'')
		for b in kpageflags kmod; do
			[ -n "$(cfig $b frames)" ] || continue
			check_eq "census ($b): every frame of a free block marked: nothing inferred" \
				"$(sfig $b heads_only) $(sfig $b inferred)" "0 0"
			check_eq "census ($b): MemTotal is what the zones manage: nothing outside the buddy allocator" \
				"$(sfig $b outside_want) $(cfig $b outside)" "0 0"
		done
		# kpageflags marks every frame of every free block: buddyinfo's frames
		[ -n "$(cfig kpageflags frames)" ] &&
			check_num "census (kpageflags): free = buddyinfo's free frames within 1% of RAM" \
				"$(cfig kpageflags free)" "$(sfig kpageflags buddyinfo)" $tol ;;
	headonly)
		check_eq "census (kpageflags): only first frames marked, told from buddyinfo" \
			"$(sfig kpageflags heads_only)" 1
		check_cmd "census (kpageflags): frames inferred free ($(sfig kpageflags inferred))" \
			test "$(sf kpageflags inferred)" -gt 0
		check_num "census (kpageflags): marked frames = buddyinfo's blocks within 1% of RAM" \
			$(($(cf kpageflags free) - $(sf kpageflags inferred))) \
			"$(sfig kpageflags buddy_blocks)" $tol
		check_num "census: inferred free = the module's (each block's order) within 1% of RAM ($(($(cf kpageflags free) - $(cf kmod free))) frames apart)" \
			"$(cfig kpageflags free)" "$(cfig kmod free)" $tol
		check_num "census (kpageflags): inferred free = buddyinfo's free frames within 1% of RAM" \
			"$(cfig kpageflags free)" "$(sfig kpageflags buddyinfo)" $tol
		check_eq "census (kmod): the module reads orders, infers nothing" "$(sfig kmod inferred)" 0 ;;
	outside)
		want=$((CENSUS_OUTSIDE_MIB * 1048576 / psize))
		for b in kpageflags kmod; do
			[ -n "$(cfig $b frames)" ] || continue
			check_num "census ($b): MemFree less the zones' free pages is the $CENSUS_OUTSIDE_MIB MiB taken out, within 1% of RAM" \
				"$(sfig $b outside_want)" $want $tol
			check_eq "census ($b): all of it counted free outside the buddy allocator (flagless frames enough)" \
				"$(cfig $b outside)" "$(sfig $b outside_want)"
		done ;;
	esac
}
