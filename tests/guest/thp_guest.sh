# Large folios, guest side: sourced by tests/guest/kmod_guest.sh
# (D/thp_guest.sh) when D/params sets THP, with thpwork in D:
#   THP=pmd   PMD huge pages on (enabled = always): thpwork's region is three
#             of them (3 x 32 MiB at 16 KiB pages), aligned to one;
#   THP=mthp  multi-size THP of 16, 32 and 64 KiB on (always), PMD THP off
#             (enabled and hugepages-<PMD size> never): an 8 MiB region that
#             starts 16 KiB past a 64 KiB boundary, so its faults make
#             folios of all three sizes;
# then thpwork's parent writes its region and forks 4 children that each map
# those folios in part (copy-on-write of one page in 16, a drop); both
# sources scan, a capture is taken with a report of the same moment, and
# the kernel's figures and counters go back to the host
# (tests/lib/thp_checks.sh checks them). The settings stay on for the stress
# that follows, so the scans under churn meet large folios too.
# Before it, on every such target: a file in PMD-size folios (a tmpfs mounted
# huge=always, PMD THP for MADV_HUGEPAGE ranges), two PMDs of it mapped
# private and read by thpwork's parent, copied from and dropped in part by 4
# children (thp_file). After it, where D/params sets THPSWAP: a swap
# device (zram, its modules in D as D/modules.load lists them), and
# 1920 KiB of the phase's folios, 448 KiB of it paged out before 2 children
# fork and copy one page in 16 (thp_swap); then swap off, the device reset
# and its modules unloaded, for a phase after this one.
T=/sys/kernel/mm/transparent_hugepage

# thp_frames P OUT PID...: what thpwork said (OUT), a scan with each source,
# and each pid's smaps_rollup, smaps and maps with each source, as P_*
thp_frames() {
	p=$1
	frame_file "${p}_work" "$2"
	frame_file "${p}_work_err" "$2.err"
	shift 2
	frame_cmd "${p}_kmod" $X -b kmod -c
	frame_cmd "${p}_pagemap" $X -b pagemap -c
	for pid; do
		frame_file "${p}_rollup_$pid" "/proc/$pid/smaps_rollup"
		frame_file "${p}_smaps_$pid" "/proc/$pid/smaps"
		frame_cmd "${p}_maps_$pid" $X -b kmod -c maps "$pid"
		frame_cmd "${p}_pmaps_$pid" $X -b pagemap -c maps "$pid"
	done
}

# thp_work OUT ARG...: thpwork started, its pids in $tpids once ready
thp_work() {
	out=$1
	shift
	$D/thpwork "$@" >"$out" 2>"$out.err" &
	tw=$!
	await_ready "$out" 120 $tw
	tpids=$(sed -n 's/^ready //p' "$out")
}

thp_file() {
	hp=$(($(cat $T/hpage_pmd_size) / 1024))
	echo madvise >$T/enabled
	mkdir -p /tmp/huge
	frame_cmd tf_mount mount -t tmpfs -o huge=always,size=$((3 * hp))k none /tmp/huge
	thp_work /tmp/tf.out -H -n 4 -r 16 -s $((2 * hp)) -a "$hp" -D $((hp / 4)) -F /tmp/huge
	thp_frames tf /tmp/tf.out $tpids
	kill $tw 2>/dev/null
	wait $tw
	umount /tmp/huge
}

thp_swap() {
	frame_cmd ts_zram sh -c 'for m in $(cat modules.load); do insmod ./$m.ko || exit; done
		echo 64M >/sys/block/zram0/disksize && mkswap /dev/zram0 && swapon /dev/zram0 && cat /proc/swaps'
	thp_work /tmp/ts.out -H -n 2 -r 16 -s 1920 -a 64 -O 448
	thp_frames ts /tmp/ts.out $tpids
	kill $tw 2>/dev/null
	wait $tw
	# the guest as it was, for a phase after this one: no swap, no zram
	swapoff /dev/zram0
	echo 1 >/sys/block/zram0/reset
	for m in $(sed '1!G;h;$!d' modules.load); do rmmod "$m"; done
}

thp_run() {
	case $THP in
	pmd)
		hp=$(($(cat $T/hpage_pmd_size) / 1024))
		echo always >$T/enabled
		set -- -H -s $((3 * hp)) -a "$hp" -D $((hp / 4)) ;;
	mthp)
		echo never >$T/enabled
		for d in $T/hugepages-*kB; do echo never >"$d/enabled"; done
		for k in 16 32 64; do echo always >$T/hugepages-${k}kB/enabled; done
		set -- -s 8192 -a 64 -o 16 -D 200 ;;
	esac
	frame_cmd thp_settings sh -c "cd $T && grep . enabled hugepages-*kB/enabled"
	frame_file thp_vmstat0 /proc/vmstat
	frame_cmd thp_stats0 sh -c "cd $T && grep . hugepages-*kB/stats/anon_fault_alloc"
	$D/thpwork -n 4 -r 16 "$@" >/tmp/thp.out 2>/tmp/thp.err &
	tw=$!
	await_ready /tmp/thp.out 120 $tw
	frame_file thp_work /tmp/thp.out
	frame_file thp_work_err /tmp/thp.err
	frame_cmd thp_kmod $X -b kmod -c
	frame_cmd thp_pagemap $X -b pagemap -c
	# a capture and a report of the same moment (see kmod_guest.sh)
	$D/twice /tmp/thpcap.live /dev/null /tmp/thpcap.dump /tmp/thpcap.err \
		$X -b kmod -k procs -- -b kmod dump
	frame_file thp_cap_live /tmp/thpcap.live
	frame_file thp_cap_dump /tmp/thpcap.dump
	frame_file thp_cap_err /tmp/thpcap.err
	for pid in $(sed -n 's/^ready //p' /tmp/thp.out); do
		frame_cmd "thp_maps_$pid" $X -b kmod -c maps "$pid"
		frame_file "thp_rollup_$pid" "/proc/$pid/smaps_rollup"
		frame_file "thp_smaps_$pid" "/proc/$pid/smaps"
	done
	frame_file thp_vmstat1 /proc/vmstat
	frame_cmd thp_stats1 sh -c "cd $T && grep . hugepages-*kB/stats/anon_fault_alloc"
	kill $tw 2>/dev/null
	wait $tw
}
thp_file
thp_run
[ -z "${THPSWAP:-}" ] || thp_swap
