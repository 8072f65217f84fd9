# hugetlb pages of 64 KiB (Svnapot: 16 PTEs of one value) and 2 MiB (a PMD),
# guest side: sourced by tests/guest/kmod_guest.sh (D/napot_guest.sh) when
# D/params sets NAPOT, with hugework in D. Pools of 4 pages of
# 64 KiB and 2 of 2 MiB are filled, hugework's parent maps them all shared
# and its child reads every page; both sources scan, and the kernel's
# figures for each process (smaps and smaps_rollup: KernelPageSize,
# Shared_Hugetlb, Private_Hugetlb, Rss, Pss) go back to the host
# (tests/lib/napot_checks.sh checks them). The pools are emptied after.
HP=/sys/kernel/mm/hugepages

napot_run() {
	frame_cmd napot_pools sh -c "cd $HP && ls -d hugepages-*"
	for s in 64:4 2048:2; do
		[ -w "$HP/hugepages-${s%:*}kB/nr_hugepages" ] && echo "${s#*:}" >"$HP/hugepages-${s%:*}kB/nr_hugepages"
	done
	frame_cmd napot_nr sh -c "cd $HP && grep . hugepages-64kB/nr_hugepages hugepages-2048kB/nr_hugepages"
	$D/hugework -n 1 64:4 2048:2 >/tmp/hw.out 2>/tmp/hw.err &
	hw=$!
	await_ready /tmp/hw.out 60 $hw
	frame_file napot_work /tmp/hw.out
	frame_file napot_work_err /tmp/hw.err
	frame_cmd napot_kmod $X -b kmod -c
	frame_cmd napot_pagemap $X -b pagemap -c
	for pid in $(sed -n 's/^ready //p' /tmp/hw.out); do
		frame_cmd "napot_kmod_maps_$pid" $X -b kmod -c maps "$pid"
		frame_cmd "napot_pagemap_maps_$pid" $X -b pagemap -c maps "$pid"
		frame_file "napot_rollup_$pid" "/proc/$pid/smaps_rollup"
		frame_file "napot_smaps_$pid" "/proc/$pid/smaps"
	done
	kill $hw 2>/dev/null
	wait $hw
	for s in 64 2048; do
		[ -w "$HP/hugepages-${s}kB/nr_hugepages" ] && echo 0 >"$HP/hugepages-${s}kB/nr_hugepages"
	done
}
napot_run
