# The GPU check, guest side: a phase of a guest boot (tests/guest/run.sh
# sources it as guest.sh in its directory D, a frame session begun),
# checked on the host by tests/lib/gpu_phase.sh and tests/lib/gpu_check.py.
# D holds exmap-mini, gpuwork, xmkgem.ko (tests/kmod/xmkgem.c) and the
# kernel's modules it needs, named in load order by modules.load.
#
# The modules loaded (those not loaded already), then gpuwork's clients
# (tests/work/gpuwork.c) and, with them held: each of its processes' DRM
# fds' fdinfo (the DRM core's keys: the truth), the dmabuf view (CSV and
# text; its drm rows are the GPU figures), -P of P alone, and a capture;
# then the fdinfo read again, to show nothing moved while the views ran,
# and debugfs's bufinfo (the shared buffer's PRIME export, which the GEM
# object keeps while it has handles, though no process holds an fd to it).
# It leaves the guest as it found it: gpuwork ended, the modules it loaded
# unloaded (last first), debugfs unmounted if it mounted it; block "left"
# says "as found" when the modules and mounts are as they were.
X=./exmap-mini
T=/tmp/gpu-phase

# _gpu_fdinfo N: each of gpuwork's DRM fds' fdinfo, as drminfo-N-PID-FD
# (no pipe into the loop: the frame's count of blocks is this shell's)
_gpu_fdinfo() {
	for _g in $(awk '$1 == "fd" { print $3 "-" $4 }' $T.out); do
		frame_file "drminfo-$1-$_g" "/proc/${_g%-*}/fdinfo/${_g#*-}"
	done
}

# _gpu_state: the modules loaded and debugfs's mounts, to compare after
_gpu_state() {
	cut -d' ' -f1 /proc/modules | sort
	grep " /sys/kernel/debug " /proc/mounts
}

_gpu_state >$T.before
mounted=
mkdir -p /sys/kernel/debug
if ! grep -q " /sys/kernel/debug " /proc/mounts; then
	mount -t debugfs debugfs /sys/kernel/debug && mounted=1
fi
loaded=
for m in $(cat modules.load); do
	[ -d "/sys/module/$m" ] || { frame_cmd "insmod-$m" insmod "./$m.ko" && loaded="$m $loaded"; }
done
frame_cmd dri ls -l /dev/dri
./gpuwork xmkgem >$T.out 2>$T.err &
work=$!
await_ready $T.out 60 $work || frame_text work.notready "gpuwork never said ready"
frame_file work $T.out
frame_file work.err $T.err
_gpu_fdinfo 0
P=$(awk '$1 == "proc" && $2 == "P" { print $3 }' $T.out)
frame_cmd dmabuf "$X" -c dmabuf
frame_cmd dmabuf_t "$X" dmabuf
frame_cmd dmabuf_pp "$X" -P "$P" -c dmabuf
frame_cmd procs "$X" -c procs
frame_cmd dump "$X" dump
_gpu_fdinfo 1
frame_file bufinfo /sys/kernel/debug/dma_buf/bufinfo
kill "$work"
wait "$work"
frame_text work.rc "$?"
for m in $loaded; do
	rmmod "$m" || echo "gpu: rmmod $m failed"
done
[ -z "$mounted" ] || umount /sys/kernel/debug
_gpu_state >$T.after
if cmp -s $T.before $T.after; then
	frame_text left "as found"
else
	frame_cmd left diff $T.before $T.after
fi
rm -f $T.before $T.after $T.out $T.err
