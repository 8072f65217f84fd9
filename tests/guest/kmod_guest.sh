# The module's system test, guest side: a phase of a guest boot
# (tests/guest/run.sh sources it as guest.sh in its directory D, with
# exmap-mini, exmap_mini.ko, workload, churn, runas, twice, readfault,
# afterprobe and censusdump there). Everything goes back to the host framed
# (tests/qemu/frame.sh) and is checked there (tests/lib/kmod_phase.sh,
# tests/lib/zeropage_checks.sh). D/params may set the knobs below; with
# D/exmap-mini.ap (another build) the probe-reuse phase runs that one. It
# leaves the guest as it found it: workloads ended, the module unloaded.
N=4 FILE_KIB=512 COW_KIB=384 PRIV_KIB=128 STRESS=30 CENSUS_HUGE=4
[ -f "$D/params" ] && . "$D/params"
X=$D/exmap-mini
AP_X=$X
[ -x "$D/exmap-mini.ap" ] && AP_X=$D/exmap-mini.ap

frame_cmd uname uname -r
frame_file version /proc/version
frame_cmd pagemap sh -c 'test -e /proc/self/pagemap && echo yes || echo no'
frame_cmd insmod insmod $D/exmap_mini.ko
frame_file meminfo /proc/meminfo
frame_file cpuinfo /proc/cpuinfo
frame_cmd entry sh -c 'ls -ln /proc/exmap-mini'

# The census of RAM frames (tests/unit/censusdump.c): kpageflags (where the
# kernel has it) and the module one right after the other on the quiescent
# guest, CENSUS_HUGE pages in the hugetlb pool (where there is one), then
# meminfo; the pool is given back after.
H=/proc/sys/vm/nr_hugepages
[ -w $H ] && echo "$CENSUS_HUGE" >$H
frame_cmd census $D/censusdump
frame_file census_meminfo /proc/meminfo
frame_cmd census_ksm sh -c 'cat /sys/kernel/mm/ksm/run 2>/dev/null || echo none'
frame_cmd ram_view $X -c ram
[ -w $H ] && echo 0 >$H

# The quiescent workload: both sources must agree on it.
mkdir -p /tmp
: >/tmp/wl.out
$D/workload -n "$N" -f "$FILE_KIB" -c "$COW_KIB" -p "$PRIV_KIB" -d /tmp >/tmp/wl.out 2>/tmp/wl.err &
await_ready /tmp/wl.out 120
frame_file workload /tmp/wl.out
pids=$(sed -n 's/^ready //p' /tmp/wl.out | tr ' ' ',')
# What a read fault gives on this kernel (tests/work/readfault.c), scanned with
# the workload: the zero page, or a page of its own. THP as a kernel sets it
# up with 512 MiB or more (with less, as here, it starts with THP off): on
# for ranges that ask (madvise), the huge zero page in use; as it was again
# after the probe-reuse phase.
T=/sys/kernel/mm/transparent_hugepage
thp_was=
if [ -d $T ]; then
	thp_was="$(sed 's/.*\[\(.*\)\].*/\1/' $T/enabled $T/defrag) $(cat $T/use_zero_page)"
	echo madvise >$T/enabled && echo madvise >$T/defrag && echo 1 >$T/use_zero_page
fi
frame_cmd zp_thp sh -c "cd $T && grep . enabled defrag use_zero_page"
$D/readfault >/tmp/rf.out 2>/tmp/rf.err &
await_ready /tmp/rf.out 60
frame_file readfault /tmp/rf.out
frame_file readfault_err /tmp/rf.err
rfpid=$(sed -n 's/^ready //p' /tmp/rf.out)
frame_cmd auto $X -n 1
frame_cmd kmod_all $X -b kmod -c
# A capture taken just as a report (the same processes in the same state:
# both run from one waiting process, see tests/work/twice.c): loaded on the
# host, it must give that report.
$D/twice /tmp/cap.live /dev/null /tmp/cap.dump /tmp/cap.err $X -b kmod -k procs -- -b kmod dump
frame_file cap_live /tmp/cap.live
frame_file cap_dump /tmp/cap.dump
frame_file cap_err /tmp/cap.err
if [ -e /proc/self/pagemap ]; then
	frame_cmd pagemap_all $X -b pagemap -c
fi
for pid in $(echo "$pids" | tr ',' ' ') $rfpid; do
	# smaps_rollup goes with pagemap (PROC_PAGE_MONITOR); statm is always there
	[ -e "/proc/$pid/smaps_rollup" ] && frame_file "rollup_$pid" "/proc/$pid/smaps_rollup"
	frame_file "statm_$pid" "/proc/$pid/statm"
	frame_cmd "kmod_maps_$pid" $X -b kmod -c maps "$pid"
	# the kernel's Rss of the mappings it named ([vvar], [vdso]...), by
	# name (a name can be on more than one), and what pagemap gives for them
	if [ -e "/proc/$pid/smaps" ]; then
		awk '/^[0-9a-f]+-[0-9a-f]+ / { n = $6 }
			n ~ /^\[/ && $1 == "Rss:" { r[n] += $2 * 1024 }
			END { for (n in r) print n, r[n] }' "/proc/$pid/smaps" >/tmp/special
		frame_file "special_$pid" /tmp/special
		frame_cmd "pagemap_maps_$pid" $X -b pagemap -c maps "$pid"
	fi
done
frame_cmd nonroot $D/runas 65534 $X -b kmod
# A process that allocates right after the probe keeps its pages
# (tests/work/afterprobe.c): each source scans it, stopped just after its probe.
for b in kmod pagemap; do
	[ $b = pagemap ] && [ ! -e /proc/self/pagemap ] && continue
	$D/afterprobe /tmp/ap.csv /tmp/ap.err $AP_X -b $b -c >/tmp/ap.out 2>/tmp/ap.stderr
	frame_file "ap_${b}_out" /tmp/ap.out
	frame_file "ap_${b}_stderr" /tmp/ap.stderr
	frame_file "ap_${b}_csv" /tmp/ap.csv
	frame_file "ap_${b}_err" /tmp/ap.err
done
if [ -n "$thp_was" ]; then
	set -- $thp_was
	echo "$1" >$T/enabled && echo "$2" >$T/defrag && echo "$3" >$T/use_zero_page
fi
# A sparse address space (tests/guest/sparse_guest.sh), where params size it.
[ -n "${SPARSE_R:-}" ] && . $D/sparse_guest.sh
# What the scan cannot see (tests/guest/pidns_guest.sh): a PID namespace, a
# user namespace, a process that cannot be read; where smaps_rollup says Pss
# and the kernel has namespaces (our tinyconfig kernels have none).
if [ -f $D/pidns_guest.sh ] && [ -e /proc/self/smaps_rollup ] && [ -e /proc/self/ns/pid ] &&
	[ -e /proc/self/ns/user ]; then
	PN=/tmp/pidns
	h=
	[ -e /sys/kernel/mm/transparent_hugepage/shmem_enabled ] && h=,huge=always
	# room past the file: at 16 KiB pages its folio is a PMD's 32 MiB, and
	# a full tmpfs splits a folio past its file's end, unmapping its pages
	mkdir -p $PN && mount -t tmpfs -o size=128m$h pidns $PN
	MAPFILE=$D/mapfile NOPTRACE=$D/noptrace UNSHARE="busybox unshare"
	NSENTER="busybox nsenter" SRCS=kmod
	[ -e /proc/self/pagemap ] && SRCS="kmod pagemap"
	. $D/pidns_guest.sh
	umount $PN
fi
# Large folios mapped in part (tests/guest/thp_guest.sh), where params set THP.
[ -n "${THP:-}" ] && . $D/thp_guest.sh
# hugetlb pages of 64 KiB (Svnapot) and 2 MiB shared by two processes
# (tests/guest/napot_guest.sh), where params set NAPOT.
[ -n "${NAPOT:-}" ] && . $D/napot_guest.sh

# Stress: scan with every source while processes and mappings churn.
$D/churn "$STRESS" >/tmp/churn.out 2>&1 &
churn=$!
runs=0 bad=0
: >/tmp/scan.errs
while kill -0 $churn 2>/dev/null; do
	for b in kmod pagemap; do
		[ $b = pagemap ] && [ ! -e /proc/self/pagemap ] && continue
		# a scan that hangs is a failure, not a stuck test
		timeout 60 $X -b $b -c >/dev/null 2>/tmp/scan.err
		rc=$?
		runs=$((runs + 1))
		[ $rc -le 1 ] || { bad=$((bad + 1)); cat /tmp/scan.err >>/tmp/scan.errs; }
	done
done
wait $churn
frame_text stress "runs=$runs bad=$bad"
frame_file stress_errors /tmp/scan.errs
frame_file churn /tmp/churn.out
kill $(sed -n 's/^ready \([0-9]*\).*/\1/p' /tmp/wl.out) $rfpid 2>/dev/null
sleep 1
frame_cmd rmmod rmmod exmap_mini
frame_cmd lsmod sh -c 'lsmod | grep exmap_mini || echo gone'
frame_cmd dmesg dmesg
