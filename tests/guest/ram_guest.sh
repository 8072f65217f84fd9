# The ram view's test, guest side: a phase of a guest boot, first in it
# (tests/guest/run.sh sources it as guest.sh in its directory D), checked
# by tests/lib/ram_phase.sh. D holds exmap-mini, params (CASE, TMPFS_MIB)
# and, on our own kernels, exmap_mini.ko, loaded first, and censusdump (the
# census from each source, tests/lib/census_checks.sh's input, as in the
# module's test). Everything goes back framed (tests/qemu/frame.sh): the
# view's CSV, what the host checks it against, read in the guest (MemTotal,
# iomem, the root's filesystem type, its largest files' blocks, SMBIOS
# entries, the device tree's reserved-memory), then the CSV and the text
# once a file of TMPFS_MIB MiB is written to a tmpfs mounted at the start.
# It leaves the guest as it found it: the file and the mount gone, its
# processes ended, the module unloaded.
CASE=unknown TMPFS_MIB=16
. ./params
X=./exmap-mini

# no pagemap and no module yet: the view from the counters alone
if [ -f exmap_mini.ko ]; then
	frame_cmd nomod "$X" ram
	frame_cmd nomod_csv "$X" -c ram
	frame_cmd insmod insmod ./exmap_mini.ko
fi
mkdir -p /mnt/ram && mount -t tmpfs -o size=$((TMPFS_MIB * 2))m exmap-ram /mnt/ram
frame_cmd csv "$X" -c ram
frame_cmd memtotal grep '^MemTotal:' /proc/meminfo
frame_file iomem /proc/iomem
frame_cmd rootfs stat -f -c %t /
# the initramfs's three largest files (the view names a kind's 8 largest;
# in a boot shared with other phases theirs are among them), "path size
# blocks"
frame_cmd files sh -c "find / -xdev -type f -exec stat -c '%s %n %b' {} \\; | sort -rn | head -n 3 |
	awk '{ print \$2, \$1, \$3 }'"
frame_cmd dmi ls /sys/firmware/dmi/entries
frame_cmd resmem ls /proc/device-tree/reserved-memory
dd if=/dev/zero of=/mnt/ram/big bs=1M count="$TMPFS_MIB" 2>/dev/null
frame_cmd csv_t "$X" -c ram
frame_cmd ram "$X" ram
# The census from each source (censusdump), once the views above are taken.
# Where kpageflags marks first frames only (headonly), free memory in small
# blocks beside allocated frames with no flag first: 400 processes started
# (each a kernel stack of vmalloc'ed pages, which carry no flag) and every
# other one killed, so the inference meets the case it can get wrong.
if [ "$CASE" = headonly ]; then
	i=0 pids=
	while [ $i -lt 400 ]; do
		sleep 1000 &
		pids="$pids $!"
		i=$((i + 1))
	done
	i=0
	for p in $pids; do
		[ $((i % 2)) -eq 0 ] && kill "$p" && wait "$p"
		i=$((i + 1))
	done
	frame_cmd sleepers sh -c 'ls -d /proc/[0-9]* | wc -l'
	frame_file buddyinfo_before /proc/buddyinfo
fi
if [ -x censusdump ]; then
	frame_cmd pagemap sh -c 'test -e /proc/self/pagemap && echo yes || echo no'
	frame_cmd census ./censusdump
	frame_file census_meminfo /proc/meminfo
	frame_cmd census_ksm sh -c 'cat /sys/kernel/mm/ksm/run 2>/dev/null || echo none'
	frame_cmd ram_view "$X" -c ram
	frame_file buddyinfo /proc/buddyinfo
	frame_file zoneinfo /proc/zoneinfo
fi
# what the view costs here (the census of every frame in it), for make bench
frame_cmd cost sh -c "time $X -c ram >/dev/null"
# the guest as it was, for the phases after this one
if [ "$CASE" = headonly ]; then kill $pids 2>/dev/null; wait; fi
rm -f /mnt/ram/big
umount /mnt/ram
[ -f exmap_mini.ko ] && frame_cmd rmmod rmmod exmap_mini
