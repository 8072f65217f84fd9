# What the scan cannot see, run where it is sourced: in a guest by
# tests/guest/kmod_guest.sh ($D/pidns_guest.sh), on this machine by
# tests/suites/pidns_test.sh (with frame_cmd and frame_file that keep files).
# tests/lib/pidns_checks.sh judges what it sends back. Needs await_ready
# (tests/guest/lib.sh), X (exmap-mini),
# MAPFILE and NOPTRACE (tests/work/mapfile.c, noptrace.c), PN (a directory on
# a tmpfs of its own), SRCS (the page sources to try), UNSHARE and NSENTER
# (util-linux's or busybox's). A file of 8 MiB on that tmpfs is mapped by a
# process outside and by pid 1 of a PID namespace (unshare -p -f
# --mount-proc), where exmap-mini runs (nsenter) with each source: with the
# kernel's counts every process's eff_resident is its Pss, and the outside
# share is shown; -p, a capture; then a user namespace mapping root (pfns
# hidden: smaps_rollup's figures), and a process that cannot be read (root's
# capabilities, not dumpable, and exmap-mini without CAP_SYS_PTRACE) sharing
# the file with one that can. Where PN is a tmpfs mounted huge=always, the file is in PMD-size
# folios that the process outside maps by PTEs (mapfile -o) and the one
# inside by PMDs: each page's count is then a large folio's.
dd if=/dev/urandom of="$PN/f" bs=1024 count=8192 2>/dev/null
chmod 755 "$PN"
chmod 644 "$PN/f"

# pidns_rollup PID FRAME: PID's smaps_rollup sent back, read with builtins
# alone: a reader process would map [vdso] too, one more mapper of that
# page than the scan counted (31 bytes of Pss among a guest's 12 processes)
pidns_rollup() {
	while read -r _l; do
		printf '%s\n' "$_l"
	done <"/proc/$1/smaps_rollup" >"$PN/rollup"
	frame_file "$2" "$PN/rollup"
}

# pidns_start NAME [UNSHARE OPTION...]: a mapfile of the file as pid 1 of a
# new PID namespace with its own /proc; pidns_p its pid here (unshare's
# child), pidns_u unshare's. exmap-mini joins it with nsenter: the
# namespace's processes are then that one, quiescent, and exmap-mini.
pidns_start() {
	_n=$1
	shift
	$UNSHARE "$@" -p -f --mount-proc "$MAPFILE" "$PN/f" >"$PN/$_n.ready" 2>&1 &
	pidns_u=$!
	await_ready "$PN/$_n.ready" 30
	pidns_p=$(cat "/proc/$pidns_u/task/$pidns_u/children" 2>/dev/null)
	pidns_p=$(echo $pidns_p)
	frame_file "pidns_${_n}_ready" "$PN/$_n.ready"
	frame_text "pidns_${_n}_pid" "$pidns_p"
}

# pidns_stop: the namespace's pid 1 ends it (SIGKILL: init takes no other
# signal it has no handler for)
pidns_stop() {
	kill -KILL "$pidns_p" 2>/dev/null
	wait "$pidns_u" 2>/dev/null
}

# The process outside, then the namespace: each source's CSV and the
# rollup, the text report, a capture, -p's CSV and report.
"$MAPFILE" -o "$PN/f" >"$PN/out.ready" 2>&1 &
pidns_out=$!
await_ready "$PN/out.ready" 30
frame_file pidns_out_ready "$PN/out.ready"
pidns_rollup "$pidns_out" pidns_out_rollup
pidns_start in
for b in $SRCS; do
	frame_cmd "pidns_in_$b" $NSENTER -t "$pidns_p" -p -m "$X" -b "$b" -c
	pidns_rollup "$pidns_p" "pidns_in_rollup_$b"
done
frame_cmd pidns_in.txt $NSENTER -t "$pidns_p" -p -m "$X" -k
frame_cmd pidns_in.cap $NSENTER -t "$pidns_p" -p -m "$X" dump
frame_cmd pidns_in_only $NSENTER -t "$pidns_p" -p -m "$X" -p 1 -c
frame_cmd pidns_in_only.txt $NSENTER -t "$pidns_p" -p -m "$X" -p 1
pidns_stop

# A user namespace that maps root: no CAP_SYS_ADMIN in the init one
pidns_start user -U -r
for b in $SRCS; do
	frame_cmd "pidns_user_$b" $NSENTER -t "$pidns_p" -U -p -m "$X" -b "$b" -c
	pidns_rollup "$pidns_p" "pidns_user_rollup_$b"
done
frame_cmd pidns_user.txt $NSENTER -t "$pidns_p" -U -p -m "$X"
pidns_stop

# A process that cannot be read (all of root's capabilities and not
# dumpable, read by exmap-mini without CAP_SYS_PTRACE), and one that can (no
# more capabilities than that exmap-mini), sharing the file
"$MAPFILE" -u "$PN/f" >"$PN/hide.ready" 2>&1 &
pidns_hide=$!
"$NOPTRACE" "$MAPFILE" "$PN/f" >"$PN/seen.ready" 2>&1 &
pidns_seen=$!
await_ready "$PN/hide.ready" 30
await_ready "$PN/seen.ready" 30
frame_file pidns_hide_ready "$PN/hide.ready"
frame_file pidns_seen_ready "$PN/seen.ready"
for b in $SRCS; do
	frame_cmd "pidns_hide_$b" "$NOPTRACE" "$X" -b "$b" -c
	pidns_rollup "$pidns_seen" "pidns_hide_rollup_$b"
done
kill $pidns_out $pidns_hide $pidns_seen 2>/dev/null
wait $pidns_out $pidns_hide $pidns_seen 2>/dev/null
