# The cost of the kernel's owners, guest side (make bench: tests/bench/
# kmem_bench.sh boots our 6.12 with allocinfo and reads what comes back):
# /test holds exmap-mini, watchcost, kowncost, runstat and xmkmem.ko
# (params: ROUNDS). Framed back: allocinfo, its lines and bytes; kowncost's
# reads of allocinfo and of vmallocinfo, each read and parsed in one
# process, 101 rounds; runstat's wall times of the ram view with profiling
# on and off (vm.mem_profiling: off, exmap-mini reads no allocinfo), 7 runs
# each; watchcost's pairs with profiling on and off.
ROUNDS=201
cd /test || exit 1
. /test/params
. /test/frame.sh
insmod /test/xmkmem.ko
frame_begin kmemcost
frame_cmd lines sh -c 'wc -l </proc/allocinfo; awk "\$1 > 0" /proc/allocinfo | wc -l; wc -c </proc/allocinfo'
frame_file allocinfo /proc/allocinfo
frame_cmd read_allocinfo ./kowncost -r /proc/allocinfo 101
frame_cmd read_vmallocinfo ./kowncost -r /proc/vmallocinfo 101
for on in 1 0; do
	echo $on >/proc/sys/vm/mem_profiling
	for i in 1 2 3 4 5 6 7; do
		./runstat /tmp/ram$on ./exmap-mini -c ram
	done
	./watchcost "$ROUNDS" >/tmp/cost$on 2>&1
done
echo 1 >/proc/sys/vm/mem_profiling
for f in ram1 ram0 cost1 cost0; do
	frame_file $f /tmp/$f
done
frame_end
