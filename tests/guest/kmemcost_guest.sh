# The cost of the kernel's owners, guest side (make bench: tests/bench/
# kmem_bench.sh boots our 6.12 with allocinfo and reads what comes back):
# /test holds exmap-mini, watchcost, runstat and xmkmem.ko (params: ROUNDS).
# Framed back: allocinfo, its lines and bytes; runstat's wall times of 200
# reads of allocinfo, of vmallocinfo and of meminfo (the loop's own cost),
# and of the ram view with profiling on and off (vm.mem_profiling: off,
# exmap-mini reads no allocinfo), 7 runs each; watchcost's pairs with
# profiling on and off.
ROUNDS=201
cd /test || exit 1
. /test/params
. /test/frame.sh
insmod /test/xmkmem.ko
reads() {	# FILE: 200 reads of it
	./runstat "/tmp/read-$(basename "$1")" sh -c "i=0; while [ \$i -lt 200 ]; do cat $1; i=\$((i + 1)); done"
}
frame_begin kmemcost
frame_cmd lines sh -c 'wc -l </proc/allocinfo; awk "\$1 > 0" /proc/allocinfo | wc -l; wc -c </proc/allocinfo'
frame_file allocinfo /proc/allocinfo
for on in 1 0; do
	echo $on >/proc/sys/vm/mem_profiling
	for i in 1 2 3 4 5 6 7; do
		[ $on = 1 ] && for f in /proc/allocinfo /proc/vmallocinfo /proc/meminfo; do reads $f; done
		./runstat /tmp/ram$on ./exmap-mini -c ram
	done
	./watchcost "$ROUNDS" >/tmp/cost$on 2>&1
done
echo 1 >/proc/sys/vm/mem_profiling
for f in read-allocinfo read-vmallocinfo read-meminfo ram1 ram0 cost1 cost0; do
	frame_file $f /tmp/$f
done
frame_end
