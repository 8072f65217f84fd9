# The dma-buf test, guest side: a phase of a guest boot (tests/guest/run.sh
# sources it as guest.sh in its directory D), checked on the host by
# tests/lib/dmabuf_phase.sh and tests/lib/dmabuf_check.py. D holds
# exmap-mini, dmabufwork, params (SRC, the buffers' source; EXTRA, another
# source's buffer or empty) and, where the kernel has them as modules,
# NAME.ko with modules.load (vgem and what it needs).
#
# debugfs mounted (the kernel's bufinfo, the truth of what exists);
# dmabufwork's cases from SRC (and EXTRA's buffer), then, with them
# held: the procs and dmabuf views (all processes, and -p without the
# workload's H, whose buffer then is held by no scanned process), a
# capture, the ram view between two readings of meminfo, metrics, the
# procs view with the fds left unread (EXMAP_DMABUF=0), bufinfo, the
# dmabuf view with debugfs unmounted (no list). Then a
# pool that grows (dmabufwork grow: 256 KiB a second) under watch 1 for
# DMABUF_WATCH samples (40), its log and the pool's own account. It leaves
# the guest as it found it: its processes ended, the modules unloaded,
# debugfs as it was.
DMABUF_WATCH=${DMABUF_WATCH:-40}
SRC= EXTRA=
. ./params

_dmabuf_start() {
	_o=$1
	shift
	"$@" >"$_o" 2>"$_o.err" &
	await_ready "$_o" 60 $!
}

dmabuf_guest() {
	X=./exmap-mini
	mkdir -p /sys/kernel/debug
	_debugfs=$(awk '$3 == "debugfs" { print "y"; exit }' /proc/mounts)
	[ -n "$_debugfs" ] || mount -t debugfs debugfs /sys/kernel/debug
	if [ -f modules.load ]; then
		for m in $(cat modules.load); do
			frame_cmd "insmod-$m" insmod "./$m.ko"
		done
	fi
	frame_cmd devices cat /proc/devices /proc/misc
	_dmabuf_start /tmp/work.out ./dmabufwork ${2:+-x "$2"} cases "$1"
	work=$!
	frame_file work /tmp/work.out
	frame_file work.err /tmp/work.out.err
	P=$(awk '$1 == "proc" && $2 == "P" { print $3 }' /tmp/work.out)
	scanned=$(awk '$1 == "proc" && $2 != "H" { printf "%s%s", s, $3; s = "," }' /tmp/work.out)
	frame_cmd procs "$X" -c procs
	frame_cmd procs_p "$X" -p "$scanned" -c procs
	frame_cmd dmabuf "$X" -c dmabuf
	frame_cmd dmabuf_p "$X" -p "$scanned" -c dmabuf
	frame_cmd dmabuf_t "$X" dmabuf
	frame_cmd dmabuf_pt "$X" -p "$scanned" -P "$P" dmabuf
	frame_cmd procs_t "$X" procs
	frame_cmd dump "$X" dump
	frame_file meminfo0 /proc/meminfo
	frame_cmd ram "$X" -c ram
	frame_file meminfo1 /proc/meminfo
	frame_cmd ram_t "$X" ram
	frame_cmd metrics "$X" metrics
	frame_cmd procs_nowalk env EXMAP_DMABUF=0 "$X" -c procs
	frame_file bufinfo /sys/kernel/debug/dma_buf/bufinfo
	# no list: whether to read fds is the exporters' to say (/proc/devices,
	# /proc/misc), and what no process holds is unknown
	umount /sys/kernel/debug
	frame_cmd dmabuf_nolist "$X" -c dmabuf
	frame_cmd dmabuf_nolist_t "$X" dmabuf
	mount -t debugfs debugfs /sys/kernel/debug
	for p in $(awk '$1 == "proc" { print $3 }' /tmp/work.out); do
		frame_cmd "fd-$p" ls -l "/proc/$p/fd"
		# a DRM device's fds: what their fdinfo says of the client
		for fd in $(ls -l "/proc/$p/fd" | awk '$NF ~ /^\/dev\/dri\// { print $(NF - 2) }'); do
			frame_file "drminfo-$p-$fd" "/proc/$p/fdinfo/$fd"
		done
	done
	kill "$work"
	wait "$work"
	frame_text work.rc "$?"

	_dmabuf_start /tmp/grow.out ./dmabufwork grow "$1" 256 1000
	grow=$!
	frame_cmd watch "$X" -o /tmp/watch.log watch 1 "$DMABUF_WATCH"
	kill "$grow"
	wait "$grow"
	frame_file grow /tmp/grow.out
	frame_file wlog /tmp/watch.log
	rm -f /tmp/work.out /tmp/work.out.err /tmp/grow.out /tmp/grow.out.err /tmp/watch.log
	[ -n "$_debugfs" ] || umount /sys/kernel/debug
	# the modules in the reverse of their loading order, each after those needing it
	[ ! -f modules.load ] ||
		frame_cmd rmmod sh -c 'for m in $(sed "1!G;h;\$!d" modules.load); do rmmod "$m" || exit; done'
}

dmabuf_guest "$SRC" $EXTRA
