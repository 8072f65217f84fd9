# The kernel's memory by owner, guest side: a phase of a guest boot
# (tests/guest/run.sh sources it as guest.sh in its directory D), checked by
# tests/lib/kmem_phase.sh and tests/lib/kmem_check.py. D holds exmap-mini,
# xmkmem.ko (tests/kmod/, built for this kernel) and params (CASE, LEAK_KIND,
# LEAK_KIB, WATCH_N). Everything goes back framed (tests/qemu/frame.sh):
#   - xmkmem loaded (16 kmalloc blocks of 4 KiB, 4 alloc_pages blocks of 16
#     KiB, 256 KiB of vmalloc, each from a call site of its own): what it
#     says it holds, the ram view (CSV and text), metrics and a capture,
#     and the kernel's own files read after them (vmallocinfo, allocinfo
#     where there is one, modules);
#   - after "free": the module's state, the view's CSV, the files again;
#   - a leak of LEAK_KIB KiB a second by LEAK_KIND (vmalloc: 16 KiB areas;
#     kmalloc: 4 KiB objects, which only allocinfo sees) while exmap-mini
#     watches WATCH_N samples a second apart: the watch log, its trend (CSV
#     and text) and the module's count of what it leaked;
#   - rmmod.
# It leaves the guest as it found it: the leak freed, the module unloaded,
# the watch log removed.
CASE=unknown LEAK_KIND=vmalloc LEAK_KIB=64 WATCH_N=40
. ./params
X=./exmap-mini
L=/tmp/kmem-phase.log

# kmem_files SUFFIX: the kernel's own figures, read now
kmem_files() {
	frame_file "vmallocinfo$1" /proc/vmallocinfo
	frame_cmd "allocinfo$1" sh -c 'cat /proc/allocinfo 2>/dev/null || echo none'
}

frame_cmd insmod insmod ./xmkmem.ko
frame_cmd state cat /proc/xmkmem
frame_cmd csv "$X" -c ram
frame_cmd ram "$X" ram
frame_cmd metrics "$X" metrics
frame_cmd cap "$X" dump
kmem_files ""
frame_file modules /proc/modules
frame_cmd profiling sh -c 'cat /proc/sys/vm/mem_profiling 2>/dev/null || echo none'
echo free >/proc/xmkmem
frame_cmd state_free cat /proc/xmkmem
frame_cmd csv_free "$X" -c ram
kmem_files _free
echo "leak $LEAK_KIND $LEAK_KIB" >/proc/xmkmem
frame_cmd watch_run "$X" -o "$L" watch 1 "$WATCH_N"
frame_cmd state_leak cat /proc/xmkmem
echo stop >/proc/xmkmem
frame_file watch "$L"
frame_cmd trend "$X" -c -l "$L" trend
frame_cmd trend_text "$X" -l "$L" trend
echo free >/proc/xmkmem
frame_cmd rmmod rmmod xmkmem
rm -f "$L"
