# The cgroups view's test, guest side: a phase of a guest boot
# (tests/guest/run.sh sources it as guest.sh in its directory D, a frame
# session open), checked by tests/lib/cgroup_phase.sh. D holds exmap-mini,
# cgwork, stopat, leakwork and params: CG_CASES, the cases this kernel can
# make, in this order:
#   nomount  no cgroup file system mounted (a busybox board's);
#   v2       cgroup2 at /sys/fs/cgroup, memory enabled in the root;
#   hybrid   a v1 memory hierarchy at /mnt/memcg and an empty cgroup2 at
#            /mnt/unified (a v1 controller can be bound only while no v2
#            cgroup uses it: hybrid comes before any v2 case on a kernel);
#   v1       the same memory hierarchy, now at /sys/fs/cgroup/memory, the
#            cgroup2 mount gone.
# Blocks are named cg.CASE.*. The groups are named as systemd and podman
# name theirs: a service's /system.slice/NAME-CASE.service, a container's
# /machine.slice/libpod-ID.scope (ID 64 hex digits). In each case with a
# mount, charge against share: a process in writer-CASE.service writes a
# tmpfs file of CG_KIB KiB first (its pages are charged there), two in the
# container map it and read it all; exmap-mini's cgroups view (CSV, text, a
# dump), each group's memory.stat and charge, every process's smaps_rollup
# before and after. Then the faults, each made at a known point of a scan
# by stopat: a process (alone in victim-CASE.service) killed as its cgroup
# is being read, and gone-CASE.service removed (its process killed) as its
# charge is about to be read. Then (v2, v1) growth per cgroup: a watch
# while a heap grows in one group (tests/work/leakwork.c) and a steady
# process sits in another; its log goes back, trend reads it on the host.
# It leaves the guest as it found it, for the phases after it: every
# process it started ended, every cgroup it made removed, every mount gone
# (the memory controller free again), its files removed; cg.left.* say so.
CG_CASES= CG_KIB=8192 CG_RATE=64 CG_COUNT=40
. ./params
CG_X=$D/exmap-mini
# every process started (cg_run), for cg.left.procs
CG_ALL=

# cg_ready FILE: "ready PID" in FILE within 60 s; the pid
cg_ready() {
	await_ready "$1" 60
	sed -n 's/^ready \([0-9]*\).*/\1/p' "$1"
}

# cg_run DIR OUT CMD...: CMD in the cgroup at DIR (a child of this shell,
# which reaps it), its stdout in OUT; the pid it says ready in CG_PID.
# OUT's page is written here first: its charge is not the cgroup's (OUT is
# in a tmpfs)
cg_run() {
	_d=$1 _o=$2
	shift 2
	echo start >"$_o"
	sh -c 'echo $$ >"$0/cgroup.procs" && exec "$@"' "$_d" "$@" >>"$_o" 2>&1 &
	CG_ALL="$CG_ALL $!"
	CG_PID=$(cg_ready "$_o")
}
# cg_start DIR OUT ARGS...: cgwork ARGS so
cg_start() {
	_d=$1 _o=$2
	shift 2
	cg_run "$_d" "$_o" "$D/cgwork" "$@"
}

# cg_gone PID: until its /proc directory is gone (reaped), 10 s at most
cg_gone() {
	_i=0
	while [ -d "/proc/$1" ] && [ $_i -lt 100 ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
}

# cg_rollups NAME: every process's smaps_rollup Pss, "PID KB" a line
cg_rollups() {
	for _p in /proc/[0-9]*; do
		_v=$(awk '/^Pss:/ { print $2 }' "$_p/smaps_rollup" 2>/dev/null)
		[ -n "$_v" ] && echo "${_p#/proc/} $_v"
	done >"/tmp/cg.$1"
	frame_file "$1" "/tmp/cg.$1"
}

# cg_slices CASE MNT: system.slice and machine.slice (v2: the memory
# controller enabled below them), and the groups' paths: CG_GA (the
# writer), CG_GB (the container)
cg_slices() {
	mkdir -p "$2/system.slice" "$2/machine.slice"
	if [ -f "$2/cgroup.subtree_control" ]; then
		echo +memory >"$2/system.slice/cgroup.subtree_control"
		echo +memory >"$2/machine.slice/cgroup.subtree_control"
	fi
	_id=$(echo "$1" | md5sum | cut -c1-32)$(echo "$1-2" | md5sum | cut -c1-32)
	CG_GA=/system.slice/writer-$1.service CG_GB=/machine.slice/libpod-$_id.scope
}

# cg_share CASE MNT: charge against share
cg_share() {
	_c=$1 _m=$2
	mkdir -p /mnt/shm && mount -t tmpfs -o size=$((CG_KIB * 4))k cgshm /mnt/shm 2>/dev/null
	cg_slices "$_c" "$_m"
	mkdir "$_m$CG_GA" "$_m$CG_GB"
	cg_start "$_m$CG_GA" /tmp/cg.a "/mnt/shm/f.$_c" "$CG_KIB" w
	CG_A=$CG_PID
	cg_start "$_m$CG_GB" /tmp/cg.b "/mnt/shm/f.$_c" "$CG_KIB" r
	CG_B=$CG_PID
	cg_start "$_m$CG_GB" /tmp/cg.b2 "/mnt/shm/f.$_c" "$CG_KIB" r
	CG_B2=$CG_PID
	frame_text "cg.$_c.groups" "$CG_GA" "$CG_GB"
	frame_text "cg.$_c.pids" "$CG_A" "$CG_B $CG_B2"
	frame_file "cg.$_c.mountinfo" /proc/self/mountinfo
	for _p in $CG_A $CG_B $CG_B2; do
		frame_file "cg.$_c.cgroup_$_p" "/proc/$_p/cgroup"
	done
	frame_file "cg.$_c.stat0_a" "$_m$CG_GA/memory.stat"
	frame_file "cg.$_c.stat0_b" "$_m$CG_GB/memory.stat"
	cg_rollups "cg.$_c.pss0"
	frame_cmd "cg.$_c.csv" "$CG_X" -c cgroups
	frame_cmd "cg.$_c.procs" "$CG_X" -c procs
	cg_rollups "cg.$_c.pss1"
	frame_file "cg.$_c.stat_a" "$_m$CG_GA/memory.stat"
	frame_file "cg.$_c.stat_b" "$_m$CG_GB/memory.stat"
	frame_cmd "cg.$_c.charge_a" cat "$_m$CG_GA/memory.current" "$_m$CG_GA/memory.usage_in_bytes"
	frame_cmd "cg.$_c.charge_b" cat "$_m$CG_GB/memory.current" "$_m$CG_GB/memory.usage_in_bytes"
	frame_cmd "cg.$_c.text" "$CG_X" cgroups
	frame_cmd "cg.$_c.dump" "$CG_X" dump
}

# cg_faults CASE MNT: a process killed as its cgroup is read; a cgroup
# removed as its charge is about to be read
cg_faults() {
	_c=$1 _m=$2
	_vg=$_m/system.slice/victim-$_c.service _gg=$_m/system.slice/gone-$_c.service
	mkdir "$_vg" "$_gg"
	cg_start "$_vg" /tmp/cg.v "/mnt/shm/v.$_c" 64 w
	_v=$CG_PID
	frame_cmd "cg.$_c.exits" "$D/stopat" -a "/proc/$_v" cgroup \
		"kill -9 $_v; i=0; while [ -d /proc/$_v ] && [ \$i -lt 100 ]; do sleep 0.1; i=\$((i + 1)); done" \
		"$CG_X" cgroups
	frame_text "cg.$_c.exits_pid" "$_v"
	cg_start "$_gg" /tmp/cg.g "/mnt/shm/g.$_c" 64 w
	_g=$CG_PID
	frame_cmd "cg.$_c.removed" "$D/stopat" "$_gg" \
		"kill -9 $_g; i=0; while [ -d /proc/$_g ] && [ \$i -lt 100 ]; do sleep 0.1; i=\$((i + 1)); done; rmdir $_gg" \
		"$CG_X" cgroups
	frame_cmd "cg.$_c.removed_after" sh -c "test -d $_gg && echo still there || echo removed"
	rmdir "$_vg" 2>/dev/null
}

# cg_growth CASE MNT: growth per cgroup: a heap that grows CG_RATE KiB/s in
# l.CASE, a steady process in s.CASE, while watch samples every second
# CG_COUNT times (leak-CASE.service, steady-CASE.service); the log, and the
# leaker's Pss and the uptime before and after it
cg_growth() {
	_c=$1 _m=$2
	_lg=$_m/system.slice/leak-$_c.service _sg=$_m/system.slice/steady-$_c.service
	mkdir -p "$_lg" "$_sg"
	cg_run "$_lg" /tmp/cg.l "$D/leakwork" -r "$CG_RATE" -s 65536 heap
	_l=$CG_PID
	cg_run "$_sg" /tmp/cg.s "$D/leakwork" -s 2048 steady
	_s=$CG_PID
	frame_text "cg.$_c.growers" "$_l $_s"
	frame_cmd "cg.$_c.pss_l0" sh -c "awk '/^Pss:/ { print \$2 }' /proc/$_l/smaps_rollup; cut -d' ' -f1 /proc/uptime"
	"$CG_X" watch 1 "$CG_COUNT" >/tmp/cg.watch 2>/tmp/cg.watch.err
	frame_text "cg.$_c.watch_rc" $?
	frame_cmd "cg.$_c.pss_l1" sh -c "awk '/^Pss:/ { print \$2 }' /proc/$_l/smaps_rollup; cut -d' ' -f1 /proc/uptime"
	frame_file "cg.$_c.watch" /tmp/cg.watch
	frame_file "cg.$_c.watch_err" /tmp/cg.watch.err
	kill "$_l" "$_s"
	cg_gone "$_l"
	cg_gone "$_s"
	rmdir "$_lg" "$_sg"
}

# cg_end CASE MNT: the case's processes ended, its files and the tmpfs
# gone (their pages no longer charged), its groups removed
cg_end() {
	kill "$CG_A" "$CG_B" "$CG_B2" 2>/dev/null
	cg_gone "$CG_A"
	cg_gone "$CG_B"
	cg_gone "$CG_B2"
	rm -f /mnt/shm/*
	umount /mnt/shm
	rmdir "$2$CG_GA" "$2$CG_GB" 2>/dev/null
}

# cg_unmount MNT: a cgroup file system's groups removed (the deepest
# first), memory no longer enabled in a v2 root, then unmounted. A v1
# hierarchy ends with its last mount only if no cgroup is left in it, a
# removed one not yet freed too (/proc/cgroups counts them): until then
# (10 s at most) it waits, else the memory controller stays bound to it
cg_unmount() {
	find "$1" -mindepth 1 -depth -type d -exec rmdir {} \; 2>/dev/null
	[ ! -f "$1/cgroup.subtree_control" ] || echo -memory >"$1/cgroup.subtree_control"
	_i=0
	while [ $_i -lt 100 ] &&
		awk '$1 == "memory" && $2 != 0 && $3 > 1 { f = 1 } END { exit !f }' /proc/cgroups; do
		sleep 0.1
		_i=$((_i + 1))
	done
	umount "$1"
}

# cg_state: what a phase must leave as it found it: the mounts, the memory
# controller's hierarchy and its number of cgroups (/proc/cgroups: a
# cgroup removed but still held counts until freed), what /mnt and /tmp
# hold
cg_state() {
	cat /proc/mounts
	awk '$1 == "memory" { print "memory: hierarchy", $2, "cgroups", $3 }' /proc/cgroups
	ls -a /mnt /tmp | grep -v '^frame\.'
}

# cg_leave: the guest as the phase found it: whatever a case left (cut
# short) ended, unmounted and removed; then what is left goes back
# (cg.left.*): the processes it started that still run, and cg_state,
# once the memory controller's count of cgroups is as it was (10 s at
# most: a removed cgroup is freed once its last page is)
cg_leave() {
	kill $CG_ALL 2>/dev/null
	for _p in $CG_ALL; do
		cg_gone "$_p"
	done
	for _m in $(awk '$3 == "cgroup" || $3 == "cgroup2" { m[n++] = $2 }
		END { while (n > 0) print m[--n] }' /proc/mounts); do
		cg_unmount "$_m"
	done
	while grep -q '^cgshm ' /proc/mounts && umount /mnt/shm; do :; done
	while grep -q '^cgroot ' /proc/mounts && umount /sys/fs/cgroup; do :; done
	rmdir /mnt/shm /mnt/memcg /mnt/unified 2>/dev/null
	[ -z "$CG_NOMNT" ] || rmdir /mnt
	rm -f /tmp/cg.*
	_i=0
	while [ $_i -lt 100 ] && ! cg_state | cmp -s - "$D/state0"; do
		sleep 0.1
		_i=$((_i + 1))
	done
	cg_state >"$D/state1"
	frame_file cg.left.state0 "$D/state0"
	frame_file cg.left.state1 "$D/state1"
	frame_cmd cg.left.procs sh -c "for p in $CG_ALL; do [ -d /proc/\$p ] && echo \$p \$(cat /proc/\$p/comm); done; true"
	rm -f "$D/state0" "$D/state1"
}

cgroup_guest() {
	cg_state >"$D/state0"
	CG_NOMNT=
	[ -d /mnt ] || CG_NOMNT=y
	frame_cmd uname uname -r
	for _case in $CG_CASES; do
		case $_case in
		nomount)
			frame_cmd cg.nomount.mounts sh -c 'grep cgroup /proc/mounts; true'
			frame_cmd cg.nomount.text "$CG_X" cgroups
			frame_cmd cg.nomount.dump "$CG_X" dump ;;
		v2)
			mount -t cgroup2 none /sys/fs/cgroup &&
				echo +memory >/sys/fs/cgroup/cgroup.subtree_control
			frame_cmd cg.v2.controllers cat /sys/fs/cgroup/cgroup.subtree_control
			cg_share v2 /sys/fs/cgroup
			cg_faults v2 /sys/fs/cgroup
			cg_end v2 /sys/fs/cgroup
			cg_growth v2 /sys/fs/cgroup
			cg_unmount /sys/fs/cgroup ;;
		hybrid)
			mkdir -p /mnt/unified /mnt/memcg
			mount -t cgroup2 none /mnt/unified
			frame_cmd cg.hybrid.mount mount -t cgroup -o memory none /mnt/memcg
			frame_cmd cg.hybrid.controllers cat /mnt/unified/cgroup.controllers
			cg_share hybrid /mnt/memcg
			cg_faults hybrid /mnt/memcg
			cg_end hybrid /mnt/memcg ;;
		v1)
			mkdir -p /sys/fs/cgroup/memory 2>/dev/null ||
				mount -t tmpfs cgroot /sys/fs/cgroup && mkdir -p /sys/fs/cgroup/memory
			frame_cmd cg.v1.mount mount -t cgroup -o memory none /sys/fs/cgroup/memory
			umount /mnt/memcg /mnt/unified 2>/dev/null
			cg_share v1 /sys/fs/cgroup/memory
			cg_faults v1 /sys/fs/cgroup/memory
			cg_end v1 /sys/fs/cgroup/memory
			cg_growth v1 /sys/fs/cgroup/memory
			cg_unmount /sys/fs/cgroup/memory ;;
		esac
	done
	cg_leave
}
cgroup_guest
