# A sparse address space, guest side: sourced by tests/guest/kmod_guest.sh
# (D/sparse_guest.sh) when D/params sets SPARSE_R and SPARSE_I.
# tests/work/workload.c's -R (a reservation that never holds a page) and -I
# (islands of shared, and each child's own, pages spread through a large
# mapping), scanned by each source, and by pagemap without PAGEMAP_SCAN
# (EXMAP_PAGEMAP_SCAN=0); the kernel's figures go back with them
# (tests/lib/sparse_checks.sh checks them on the host).
: >/tmp/sp.out
$D/workload -n 2 -f 64 -c 128 -p 32 -z 0 -R "$SPARSE_R" -I "$SPARSE_I" -d /tmp \
	>/tmp/sp.out 2>/tmp/sp.err &
await_ready /tmp/sp.out 60
frame_file sparse_workload /tmp/sp.out
frame_file sparse_workload_err /tmp/sp.err
spids=$(sed -n 's/^ready //p' /tmp/sp.out | tr ' ' ',')
frame_cmd sparse_kmod $X -b kmod -c
if [ -e /proc/self/pagemap ]; then
	frame_cmd sparse_pagemap $X -b pagemap -c
	frame_cmd sparse_noscan env EXMAP_PAGEMAP_SCAN=0 $X -b pagemap -c
fi
for pid in $(echo "$spids" | tr ',' ' '); do
	[ -e "/proc/$pid/smaps_rollup" ] && frame_file "sparse_rollup_$pid" "/proc/$pid/smaps_rollup"
	frame_file "sparse_statm_$pid" "/proc/$pid/statm"
done
kill $(sed -n 's/^ready \([0-9]*\).*/\1/p' /tmp/sp.out) 2>/dev/null
