# The GPU test, guest side: sourced by a guest's /test/run.sh (busybox sh,
# /test/frame.sh sourced, a frame session begun); checked on the host by
# tests/lib/gpu_check.py. /test holds exmap-mini, gpuwork, xmkgem.ko
# (tests/kmod/xmkgem.c) and the kernel's modules it needs, named in load
# order by modules.load.
#
#   gpu_guest
#
# The modules loaded, then gpuwork's clients (tests/work/gpuwork.c) and,
# with them held: each of its processes' DRM fds' fdinfo (the DRM core's
# keys: the truth), the dmabuf view (CSV and text; its drm rows are the GPU
# figures), -P of P alone, and a capture; then the fdinfo read again, to
# show nothing moved while the views ran, and debugfs's bufinfo (the shared
# buffer's PRIME export, which the GEM object keeps while it has handles,
# though no process holds an fd to it).
. /test/lib.sh

gpu_guest() {
	X=./exmap-mini
	mkdir -p /sys/kernel/debug
	grep -q " /sys/kernel/debug " /proc/mounts || mount -t debugfs debugfs /sys/kernel/debug
	# a boot that ran the dma-buf check first has loaded drm already
	for m in $(cat modules.load); do
		[ -d "/sys/module/$m" ] || frame_cmd "insmod-$m" insmod "./$m.ko"
	done
	frame_cmd dri ls -l /dev/dri
	./gpuwork xmkgem >/tmp/gpu.out 2>/tmp/gpu.err &
	work=$!
	await_ready /tmp/gpu.out 60 $work || frame_text work.notready "gpuwork never said ready"
	frame_file work /tmp/gpu.out
	frame_file work.err /tmp/gpu.err
	_gpu_fdinfo 0
	P=$(awk '$1 == "proc" && $2 == "P" { print $3 }' /tmp/gpu.out)
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
}

# _gpu_fdinfo N: each of gpuwork's DRM fds' fdinfo, as drminfo-N-PID-FD
# (no pipe into the loop: the frame's count of blocks is this shell's)
_gpu_fdinfo() {
	for _g in $(awk '$1 == "fd" { print $3 "-" $4 }' /tmp/gpu.out); do
		frame_file "drminfo-$1-$_g" "/proc/${_g%-*}/fdinfo/${_g#*-}"
	done
}
