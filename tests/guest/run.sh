# The guest's /test/run.sh for a boot that serves phases (tests/qemu/phases):
# each phase /test/phases lists, in order, in a subshell of its own (what
# it sets stays there; an exit ends only it) with /test/PHASE as its
# directory and D, sources its guest.sh between frame_begin PHASE and
# frame_end: a session of its own, which the host reads apart (unframe -s
# PHASE). A phase leaves the guest as it found it (its processes ended, its
# module unloaded, its mounts gone), for the next; and it finds /tmp empty
# (what an earlier phase left there removed: a phase that runs a script
# another phase ran, as dkms runs kmod's, must not read that one's files as
# its own: an "await_ready /tmp/rf.out" done at once on the old file, while
# the new writer had not yet opened it). Marks on the console say
# where each phase began and ended, with the guest's uptime. The phases'
# sessions draw their tags apart (FRAME_USED, outside /tmp): two sessions
# under one tag would read as one.
FRAME_USED=/test/.frame-tags
. /test/frame.sh
. /test/lib.sh
for p in $(cat /test/phases); do
	rm -rf /tmp/* /tmp/.[!.]* 2>/dev/null
	echo "phase-mark $p begin $(cut -d' ' -f1 /proc/uptime)"
	(
		D=/test/$p
		cd "$D" || exit 1
		frame_begin "$p"
		. ./guest.sh
		frame_end
	)
	echo "phase-mark $p end $? $(cut -d' ' -f1 /proc/uptime)"
done
