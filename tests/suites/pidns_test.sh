#!/bin/sh
# What the scan cannot see, on this machine (tests/guest/pidns_guest.sh, as
# the module's guests run it, judged by tests/lib/pidns_checks.sh): an 8 MiB
# tmpfs file mapped by a process outside and one inside `unshare -p -f
# --mount-proc`, where exmap-mini's eff_resident of every process is its Pss
# within 1 KiB and the outside's share is shown; -p shares among those named
# and says so; the capture taken inside loads here to the same report; in
# `unshare -U -r` (pfns hidden) smaps_rollup's figures and the line that says
# what is lost; a process that cannot be read gives the one sharing its pages
# its Pss. An OUTSIDE=0 build (build/nooutside, made by make test), which
# has no counts, says in one line in the namespace, and in its capture
# loaded here, that shares are among the namespace's processes alone (and
# they are: pid 1's eff_resident is its Rss, half the file above its Pss),
# and not on this machine's /proc. Needs root, util-linux's unshare, and
# build/host/mapfile and noptrace. Where shmem has THP the tmpfs is mounted huge=always: the file in
# PMD-size folios, mapped by PMDs inside and by PTEs outside. Environment:
# EXMAP (build/exmap-mini), NOOUTSIDE (build/nooutside/exmap-mini),
# MAPFILE, NOPTRACE, UNSHARE, NSENTER.
# Last line: N passed, N failed.
set -u
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo" || exit 2
. tests/lib/lib.sh
. tests/lib/pidns_checks.sh
EXMAP=$(cd "$(dirname "${EXMAP:-build/exmap-mini}")" && pwd)/$(basename "${EXMAP:-build/exmap-mini}")
X=$EXMAP
MAPFILE=$repo/${MAPFILE:-build/host/mapfile}
NOPTRACE=$repo/${NOPTRACE:-build/host/noptrace}
NOOUTSIDE=${NOOUTSIDE:-build/nooutside/exmap-mini}
case $NOOUTSIDE in /*) ;; *) NOOUTSIDE=$repo/$NOOUTSIDE ;; esac
SRCS=pagemap
UNSHARE=${UNSHARE:-unshare}
NSENTER=${NSENTER:-nsenter}
for f in "$X" "$MAPFILE" "$NOPTRACE" "$NOOUTSIDE"; do
	[ -x "$f" ] || { no "$f is not built (make all build/host/mapfile build/host/noptrace; make BUILD=build/nooutside OUTSIDE=0 build/nooutside/exmap-mini)"; finish; }
done
o=$(mktemp -d) || exit 2
PN=$(mktemp -d) || exit 2
trap 'umount "$PN" 2>/dev/null; rm -rf "$o" "$PN"' EXIT
# a tmpfs of its own, in PMD-size folios where shmem has THP
huge=
[ -e /sys/kernel/mm/transparent_hugepage/shmem_enabled ] && huge=,huge=always
mount -t tmpfs -o size=32m$huge exmap-pidns "$PN" || { no "mount a tmpfs"; finish; }
trap 'exit 1' INT TERM
# the guest's frames, kept as files here
frame_file() { cat "$2" >"$o/$1" 2>"$o/$1.stderr"; echo $? >"$o/$1.rc"; }
frame_cmd() { _n=$1; shift; "$@" >"$o/$_n" 2>"$o/$_n.stderr"; echo $? >"$o/$_n.rc"; }
frame_text() { _n=$1; shift; printf '%s\n' "$@" >"$o/$_n"; }
. tests/guest/lib.sh	# await_ready, as the guests have it
. tests/guest/pidns_guest.sh
echo "the file's pages: $(grep -E '^(ShmemHugePages|ShmemPmdMapped)' /proc/meminfo | tr -s ' \n' ' ')"
pidns_checks "$o" $SRCS

# An OUTSIDE=0 build: the same file mapped outside and by the namespace's
# pid 1, which it shares among those it sees, and says so
line="^shares: among this PID namespace's processes alone (OUTSIDE=0: no map counts)\$"
"$MAPFILE" -o "$PN/f" >"$PN/out.ready" 2>&1 &
pidns_out=$!
await_ready "$PN/out.ready" 30 $pidns_out || no "the outside mapper ready"
pidns_start noout
frame_cmd noout_in $NSENTER -t "$pidns_p" -p -m "$NOOUTSIDE" -c
pidns_rollup "$pidns_p" noout_rollup
frame_cmd noout_in.txt $NSENTER -t "$pidns_p" -p -m "$NOOUTSIDE" -k
frame_cmd noout_in.cap $NSENTER -t "$pidns_p" -p -m "$NOOUTSIDE" dump
pidns_stop
frame_cmd noout_host.txt "$NOOUTSIDE" -k
kill $pidns_out 2>/dev/null
wait $pidns_out 2>/dev/null
check_cmd "OUTSIDE=0 in the namespace: one line says shares are among its processes alone" \
	has "$line" "$o/noout_in.txt"
# alone in the namespace, all it maps is its own there; the kernel halves the file
eff=$(col "$o/noout_in" pid 1 eff_resident)
check_num "OUTSIDE=0 in the namespace: pid 1's eff_resident is its Rss (all its own)" \
	"$eff" "$(_pn_rollup "$o/noout_rollup" Rss)" 1024
pss=$(_pn_rollup "$o/noout_rollup" Pss)
diff=none
is_int "$eff" && is_int "$pss" && diff=$((eff - pss))
check_cmd "OUTSIDE=0 in the namespace: the kernel's Pss is half the file lower" \
	within $((4194304 - 65536)) "$diff" ""
"$X" -k -l "$o/noout_in.cap" >"$o/noout_loaded.txt" 2>"$o/noout_loaded.err"
check_cmd "OUTSIDE=0: its capture says it (x 1), loaded here: the line" \
	has "$line" "$o/noout_loaded.txt"
check_cmd "OUTSIDE=0: its capture loaded here gives the report it gave there" \
	same_file "$o/noout_in.txt" "$o/noout_loaded.txt"
check_cmd "OUTSIDE=0 on this machine's /proc: no such line" \
	not has "$line" "$o/noout_host.txt"
check_cmd "OUTSIDE=1 in the namespace: no such line (it counts)" not has "$line" "$o/pidns_in.txt"
finish
