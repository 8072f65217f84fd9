#!/bin/sh
# What the scan cannot see, on this machine (tests/guest/pidns_guest.sh, as
# the module's guests run it, judged by tests/lib/pidns_checks.sh): an 8 MiB
# tmpfs file mapped by a process outside and one inside `unshare -p -f
# --mount-proc`, where exmap-mini's eff_resident of every process is its Pss
# within 1 KiB and the outside's share is shown; -p shares among those named
# and says so; the capture taken inside loads here to the same report; in
# `unshare -U -r` (pfns hidden) smaps_rollup's figures and the line that says
# what is lost; a process that cannot be read gives the one sharing its pages
# its Pss. Needs root, util-linux's unshare, and build/host/mapfile and
# noptrace. Where shmem has THP the tmpfs is mounted huge=always: the file in
# PMD-size folios, mapped by PMDs inside and by PTEs outside. Environment:
# EXMAP (build/exmap-mini), MAPFILE, NOPTRACE, UNSHARE, NSENTER.
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
SRCS=pagemap
UNSHARE=${UNSHARE:-unshare}
NSENTER=${NSENTER:-nsenter}
for f in "$X" "$MAPFILE" "$NOPTRACE"; do
	[ -x "$f" ] || { no "$f is not built (make all build/host/mapfile build/host/noptrace)"; finish; }
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
. tests/guest/pidns_guest.sh
echo "the file's pages: $(grep -E '^(ShmemHugePages|ShmemPmdMapped)' /proc/meminfo | tr -s ' \n' ' ')"
pidns_checks "$o" $SRCS
finish
