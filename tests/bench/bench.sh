#!/bin/sh
# Time exmap-mini against two pagemap floors and smem, case by case; in each
# case the four commands run in turn, round after round, on one workload:
#   bench   200 children sharing a 64 MiB file and 16 MiB copy-on-write
#   sparse  8 processes, each a 1 TiB PROT_NONE reservation and 256 MiB of
#           anonymous memory with 1 page in 16 written
#   asan    one ASan process (its shadow reserves some 20 TiB), 4 MiB
#           malloc'd; every command is restricted to it
#   procs   2000 small processes; exmap-mini also with every process's fds
#           read for dma-bufs (EXMAP_DMABUF=1), as where a buffer can exist
#   shared  8 processes sharing a 2 GiB file and 512 MiB of copy-on-write
#           memory: some 640 K distinct shared pages
#   sharedpmd  the same with the file in PMD-size folios (written a PMD at a
#           time, read again through a MADV_HUGEPAGE mapping): on ext4 or
#           xfs the kernel maps it by PMDs, as its FilePmdMapped says
#   thp     1 GiB of transparent huge pages a parent wrote, shared by 8
#           children, each of which then writes one page in 4096 (copies of
#           its own, each splitting one huge page's mapping in that child
#           alone): AnonHugePages says how much stays mapped by PMDs
# The floors are tests/bench/floor.c: reading every pagemap entry of every
# mapping, and with -s only the populated ranges PAGEMAP_SCAN finds (n/a on a
# kernel without it). Each case prints median wall and peak RSS per command, the
# paired ratios (exmap-mini's wall over each other command's, round by
# round) and the targets, met or not. A target not met is reported; a broken
# workload or a command that errors out fails the bench.
# usage: tests/bench/bench.sh BUILDDIR
#   env: BENCH_ROUNDS (7), BENCH_CASES (all: "bench sparse asan procs shared
#        sharedpmd thp"),
#        EXMAP, FLOOR, RUNSTAT, WORKLOAD, BENCHWORK, BENCHWORK_ASAN
set -u

prog=bench
[ $# -eq 1 ] || { echo "usage: $0 builddir" >&2; exit 2; }
EXMAP=${EXMAP:-$1/exmap-mini}
FLOOR=${FLOOR:-$1/floor}
RUNSTAT=${RUNSTAT:-$1/host/runstat}
WORKLOAD=${WORKLOAD:-$1/host/workload}
BENCHWORK=${BENCHWORK:-$1/host/benchwork}
BENCHWORK_ASAN=${BENCHWORK_ASAN:-$1/host/benchwork-asan}
ROUNDS=${BENCH_ROUNDS:-7}		# about 3 minutes in all (sparse: 9 s a round)
ALLCASES="bench sparse asan procs shared sharedpmd thp"
CASES=${BENCH_CASES:-$ALLCASES}
WAIT=300		# seconds a workload may take to be ready
NOSCAN=3		# floor's exit status: no PAGEMAP_SCAN in this kernel

die() {
	echo "$prog: $*" >&2
	exit 1
}

case $ROUNDS in
''|*[!0-9]*|0) die "BENCH_ROUNDS: want a positive integer, not '$ROUNDS'" ;;
esac
for c in $CASES; do
	case " $ALLCASES " in
	*" $c "*) ;;
	*) die "BENCH_CASES: no case '$c' (cases: $ALLCASES)" ;;
	esac
done
for f in "$EXMAP" "$FLOOR" "$RUNSTAT" "$WORKLOAD" "$BENCHWORK" \
    "$BENCHWORK_ASAN"; do
	[ -x "$f" ] || die "$f: not an executable"
done
command -v smem >/dev/null || die "smem: not installed"

wpid=
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench.XXXXXX") || die "mktemp failed"

# The workloads remove their files and children on SIGTERM; wait for that.
# Their files are in $tmp, so even a workload killed outright leaves none.
cleanup() {
	if [ -n "$wpid" ]; then
		kill -TERM "$wpid" 2>/dev/null
		wait "$wpid" 2>/dev/null
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP PIPE

# start_workload CMD...: start it and poll its output for the ready line,
# whose process ids are left in $wpids.
start_workload() {
	: >"$tmp/workload.out"
	"$@" >"$tmp/workload.out" &
	wpid=$!
	t=0
	until grep -q '^ready ' "$tmp/workload.out"; do
		kill -0 "$wpid" 2>/dev/null || {
			wait "$wpid"
			rc=$?
			wpid=
			die "$1 exited ($rc) before it was ready"
		}
		[ "$t" -ge "$WAIT" ] && die "$1 not ready after ${WAIT}s"
		sleep 1
		t=$((t + 1))
	done
	wpids=$(sed -n 's/^ready //p' "$tmp/workload.out")
}

# A workload killed midway (say by the OOM killer) would void the figures;
# one that fails to clean up is broken too.
stop_workload() {
	kill -0 "$wpid" 2>/dev/null || die "$case: the workload died during the rounds"
	kill -TERM "$wpid"
	wait "$wpid"
	rc=$?
	wpid=
	[ "$rc" -eq 0 ] || die "$case: the workload exited $rc when stopped"
}

# mapped_pages [PID...]: pages mapped by every process (or by those
# named), counting a shared page once per mapper.
mapped_pages() {
	pgsz=$(getconf PAGESIZE) || die "getconf PAGESIZE failed"
	if [ $# -gt 0 ]; then
		for p; do
			cat "/proc/$p/smaps_rollup" ||
				die "$case: the workload's process $p is gone"
		done
	else
		cat /proc/[0-9]*/smaps_rollup 2>/dev/null
	fi | awk -v ps="$pgsz" '$1 == "Rss:" { kb += $2 }
		END { printf "%.0f\n", kb * 1024 / ps }'
}

# run NAME MAXRC CMD...: one timed run, its line appended to $tmp/NAME and
# its stderr to $tmp/NAME.err; an exit status above MAXRC fails the bench.
# exmap-mini may exit 1 (partial) where a process is unreadable even to
# root, as pid 1 is in some sandboxes: partial says so once a case.
run() {
	name=$1
	maxrc=$2
	shift 2
	"$RUNSTAT" "$tmp/$name" "$@" 2>>"$tmp/$name.err"
	rc=$?
	[ "$rc" -le "$maxrc" ] || {
		tail -5 "$tmp/$name.err" >&2
		die "$name: '$*' exited $rc"
	}
}

# partial NAME: how many of NAME's runs exited 1, with their first message.
partial() {
	n=$(awk '$1 == 1' "$tmp/$1" | wc -l)
	[ "$n" -eq 0 ] ||
		echo "$1: exit 1 (partial) in $n of $(wc -l <"$tmp/$1") runs:" \
		    "$(head -1 "$tmp/$1.err")"
}

# spread: the median, smallest and largest of the numbers on stdin, and
# how many there are.
spread() {
	sort -g | awk '{ v[NR] = $1 }
		END {
			if (NR == 0)
				exit
			m = v[int((NR + 1) / 2)]
			if (NR % 2 == 0)
				m = (m + v[NR / 2 + 1]) / 2
			print m, v[1], v[NR], NR
		}'
}

# row LABEL FILE: median wall, median RSS and max RSS of runstat lines.
row() {
	set -- "$1" $(awk '{ print $2 }' "$2" | spread) \
	    $(awk '{ print $3 }' "$2" | spread)
	printf '%-16s %12.4f %14.0f %14.0f' "$1" "$2" "$6" "$8"
	[ "$5" -lt "$ROUNDS" ] && printf '   (%d of %d rounds)' "$5" "$ROUNDS"
	echo
}

# ratio LABEL A B TARGET: A's wall over B's, paired by round (the rounds
# both ran), with the target (a ratio at most TARGET) met or not. The
# ratio's median is left in $med.
ratio() {
	set -- "$1" "$2" "$3" "${4:-}" $(paste "$tmp/$2" "$tmp/$3" |
	    awk 'NF == 6 { print $2 / ($5 > 0 ? $5 : 1e-6) }' | spread)
	med=$5
	line=$(printf '%-16s %8.3g  (%.3g - %.3g)' "$1" "$5" "$6" "$7")
	[ "$8" -lt "$ROUNDS" ] && line="$line, $8 of $ROUNDS"
	verdict "$1" "$line" "$4" "$5" "<= $4"
}

# verdict LABEL LINE TARGET VALUE TEXT: LINE, then (if there is a target)
# TEXT and met, NOT met or, for a VALUE of n/a, n/a; a target not met is
# listed, by case and LABEL, in $notmet.
verdict() {
	if [ -z "$3" ]; then
		echo "$2"
	elif [ "$4" = n/a ]; then
		printf '%-44s %-14s n/a\n' "$2" "$5"
	elif awk -v v="$4" -v t="$3" 'BEGIN { exit !(v <= t) }'; then
		printf '%-44s %-14s met\n' "$2" "$5"
		nmet=$((nmet + 1))
	else
		printf '%-44s %-14s NOT met\n' "$2" "$5"
		notmet="$notmet${notmet:+,} $case $1"
	fi
}

# Is PAGEMAP_SCAN there? Asked once, of this shell: the answer is the
# kernel's, whichever process is scanned.
"$FLOOR" -s -p $$ >/dev/null 2>"$tmp/probe"
case $? in
0) scan=yes ;;
"$NOSCAN") scan=no; echo "$prog: floor -s: n/a: $(cat "$tmp/probe")" ;;
*) cat "$tmp/probe" >&2; die "floor -s failed" ;;
esac

# startcase NAME: print the case's title, set its targets and start its
# workload. Targets: ratios of exmap-mini's wall to the floor's (t_floor),
# the populated-ranges floor's (t_scan) and smem's (t_smem), and exmap-mini's
# peak RSS in KiB (t_rss).
startcase() {
	t_floor= t_scan= t_smem= t_rss= floorruns=all
	case $1 in
	bench)
		echo "== bench: 200 children sharing a 64 MiB file and 16 MiB" \
		    "copy-on-write"
		t_floor=1.3
		start_workload "$WORKLOAD" -n 200 -f 65536 -c 16384 -p 4096 \
		    -d "$tmp" ;;
	sparse)
		echo "== sparse: 8 processes, each 1 TiB PROT_NONE and 256 MiB" \
		    "anonymous, 1 page in 16 written"
		t_scan=1.5 t_smem=1
		start_workload "$BENCHWORK" -n 8 -r 1048576 -a 262144 -t 64 ;;
	asan)
		echo "== asan: one ASan process, 4 MiB malloc'd, its shadow some" \
		    "20 TiB of address space"
		t_scan=1.5 t_smem=1
		# Every entry of 20 TiB is 5.4 G entries, over 20 s: once.
		floorruns=once
		start_workload "$BENCHWORK_ASAN" -n 0 -m -a 4096 ;;
	procs)
		echo "== procs: 2000 small processes, 16 KiB written each"
		t_floor=1.3
		start_workload "$BENCHWORK" -n 2000 -a 16 ;;
	shared)
		echo "== shared: 8 processes sharing a 2 GiB file and 512 MiB" \
		    "copy-on-write (640 K pages)"
		t_floor=1.5 t_rss=16384
		start_workload "$BENCHWORK" -n 8 -f 2097152 -c 524288 -d "$tmp" ;;
	sharedpmd)
		echo "== sharedpmd: 8 processes sharing a 2 GiB file in PMD-size" \
		    "folios and 512 MiB copy-on-write"
		t_floor=1.3 t_rss=16384
		start_workload "$BENCHWORK" -H -n 8 -f 2097152 -c 524288 -d "$tmp" ;;
	thp)
		echo "== thp: 1 GiB of THP a parent wrote, shared by 8 children," \
		    "each writing one page in 4096"
		t_floor=1.3
		start_workload "$BENCHWORK" -T -n 8 -c 1048576 -w 4096 ;;
	esac
}

# pmd_line FIELD: how many of the workload's processes the kernel says map
# huge pages by PMDs (FIELD of their smaps_rollup: FilePmdMapped,
# AnonHugePages), and how much in all; said plainly when none does.
pmd_line() {
	for p in $wpids; do
		awk -v f="$1:" '$1 == f { print $2 }' "/proc/$p/smaps_rollup" ||
			die "$case: the workload's process $p is gone"
	done | awk -v c="$case" -v f="$1" '
		{ n++; if ($1 > 0) { k++; kb += $1 } }
		END {
			printf "%s: %s: %d of %d processes map by PMDs, %d kB in all", c, f, k, n, kb
			if (k == 0)
				printf " (NOT mapped by PMDs here: the figures are not those of large folios)"
			printf "\n"
		}'
}

# runcase NAME: start the case's workload, time the rounds, report, stop.
runcase() {
	case=$1
	t0=$(date +%s)
	echo
	startcase "$case"
	sel= smemre=
	if [ "$case" = asan ]; then
		# One process: exmap-mini -p and floor -p scan it alone. smem -P
		# is the fair match: it reads the smaps of the processes whose
		# name or command line match, here that one, where plain smem
		# would read every process's. The bracket keeps the pattern
		# from matching the command lines that carry it (smem's own,
		# runstat's).
		sel="-p $wpids"
		smemre='[b]enchwork-asan'
		n=$(smem -H -c pid -P "$smemre" | wc -l)
		[ "$n" -eq 1 ] ||
			die "asan: smem -P '$smemre' matches $n processes, not 1"
		pages=$(mapped_pages $wpids)
		own=$pages
		echo "$case: exmap-mini and floor -p $wpids, smem -P '$smemre';" \
		    "floor (every entry: 5.4 G of them, over 20 s) in round 1 only"
	else
		pages=$(mapped_pages)
		own=$(mapped_pages $wpids)
	fi
	echo "$case: workload ready, $pages pages mapped ($own by the" \
	    "workload), $ROUNDS rounds"
	case $case in
	sharedpmd) pmd_line FilePmdMapped ;;
	thp) pmd_line AnonHugePages ;;
	esac

	i=0
	while [ "$i" -lt "$ROUNDS" ]; do
		run "$case.exmap" 1 "$EXMAP" $sel -c procs
		[ "$case" = procs ] && run "$case.walk" 1 env EXMAP_DMABUF=1 "$EXMAP" -c procs
		# what each process's /proc/PID/cgroup (and each cgroup's charge,
		# once) adds: read only for the views that ask
		[ "$case" = procs ] && run "$case.cgroups" 1 "$EXMAP" -c cgroups
		[ "$floorruns" = all ] || [ "$i" -eq 0 ] &&
			run "$case.floor" 0 "$FLOOR" $sel
		[ "$scan" = yes ] && run "$case.scan" 0 "$FLOOR" -s $sel
		if [ -n "$smemre" ]; then
			run "$case.smem" 0 smem -t -P "$smemre"
		else
			run "$case.smem" 0 smem -t
		fi
		i=$((i + 1))
	done
	if [ "$case" = bench ]; then
		# A capture of the same machine: taken (its size), then
		# loaded, timed alike.
		"$EXMAP" dump >"$tmp/cap" 2>/dev/null
		[ $? -le 1 ] || die "dump failed"
		capsize=$(wc -c <"$tmp/cap")
		i=0
		while [ "$i" -lt "$ROUNDS" ]; do
			run "$case.dump" 1 "$EXMAP" dump
			run "$case.load" 1 "$EXMAP" -l "$tmp/cap" -c procs
			i=$((i + 1))
		done
	fi
	stop_workload

	printf '%-16s %12s %14s %14s\n' tool "wall s (med)" "RSS KiB (med)" \
	    "RSS KiB (max)"
	row exmap "$tmp/$case.exmap"
	[ "$case" = procs ] && row "exmap, fds read" "$tmp/$case.walk"
	row floor "$tmp/$case.floor"
	if [ "$scan" = yes ]; then
		row "floor -s" "$tmp/$case.scan"
	else
		printf '%-16s %12s\n' "floor -s" n/a
	fi
	row smem "$tmp/$case.smem"
	[ "$case" = procs ] && row "exmap cgroups" "$tmp/$case.cgroups"
	if [ "$case" = bench ]; then
		row dump "$tmp/$case.dump"
		row -l "$tmp/$case.load"
		echo "capture of this machine: $capsize bytes"
	fi
	echo "mapped pages: $pages (the workload's: $own)"
	partial "$case.exmap"
	if [ "$case" = bench ]; then
		partial "$case.dump"
		partial "$case.load"
	fi

	printf '%-16s %8s  %s\n' "paired ratio" median "(min - max)"
	ratio exmap/floor "$case.exmap" "$case.floor" "$t_floor"
	ef=$med
	if [ "$scan" = yes ]; then
		ratio "exmap/floor -s" "$case.exmap" "$case.scan" "$t_scan"
		es=$(printf %.3g "$med")
	else
		es=n/a
		verdict "exmap/floor -s" \
		    "$(printf '%-16s %8s' "exmap/floor -s" n/a)" \
		    "$t_scan" n/a "<= $t_scan"
	fi
	ratio exmap/smem "$case.exmap" "$case.smem" "$t_smem"
	em=$med
	if [ "$case" = procs ]; then
		ratio "fds read/floor" "$case.walk" "$case.floor"
		ratio "fds read/exmap" "$case.walk" "$case.exmap"
	fi
	[ "$case" = procs ] && ratio "cgroups/procs" "$case.cgroups" "$case.exmap" ""
	set -- $(awk '{ print $3 }' "$tmp/$case.exmap" | spread)
	emax=$3
	verdict "exmap peak RSS" \
	    "$(printf '%-16s %8s KiB' "exmap peak RSS" "$emax")" \
	    "$t_rss" "$emax" "<= $t_rss KiB"
	printf '%s: exmap/floor %.3g  exmap/floor -s %s  exmap/smem %.3g  ' \
	    "$case" "$ef" "$es" "$em"
	echo "exmap peak RSS $emax KiB ($ROUNDS rounds, $(($(date +%s) - t0)) s)"
}

nmet=0
notmet=
for c in $CASES; do
	runcase "$c"
done
echo
if [ -z "$notmet" ]; then
	echo "$prog: all $nmet targets met"
else
	echo "$prog: $nmet targets met; NOT met:$notmet"
fi
