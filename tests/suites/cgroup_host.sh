#!/bin/sh
# The cgroups view on this machine, read only (its memory cgroups are a v1
# hierarchy beside an empty v2 tree, a hybrid; nothing is created or moved
# here: tests/lib/cgroup_phase.sh does that in guests): the hierarchy
# found in mountinfo, each row a directory of it, its charges memory.stat's
# where memory.stat stood still around a run (run again, a bounded number of
# times, until some did) and within their movement where it moved, the text
# within 80 columns,
# -s, and a dump's cgroups, loaded, adding up to its processes.
# Environment: EXMAP (build/exmap-mini). As root. Last line: N passed, N failed.
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib/lib.sh
EXMAP=${EXMAP:-build/exmap-mini}
T=$(mktemp -d /tmp/exmap-cgroup.XXXXXX) || exit 2
trap 'rm -rf "$T"' EXIT

# the memory hierarchy, from mountinfo on its own: a v1 mount naming memory,
# else cgroup2
mnt=$(awk '{ for (i = 1; $i != "-"; i++); }
	$(i + 1) == "cgroup" && ("," $(i + 3) ",") ~ /,memory,/ { print $5; exit }' /proc/self/mountinfo)
hier="v1's memory controller"
if [ -z "$mnt" ]; then
	mnt=$(awk '{ for (i = 1; $i != "-"; i++); } $(i + 1) == "cgroup2" { print $5; exit }' /proc/self/mountinfo)
	hier=v2
fi
if [ -z "$mnt" ]; then
	no "a cgroup mount on this machine" "none in /proc/self/mountinfo"
	finish
fi

# the charges' keys: v1's hierarchical totals (total_*), v2's (hierarchical already)
keys='^total_(rss|cache|shmem)$'
[ "$hier" = v2 ] && keys='^(anon|file|shmem)$'
# memstat FILE: every row's memory.stat figures, "PATH KEY VALUE" a line
memstat() {
	sed 1d "$T/csv" | cut -d, -f1 | while read -r p; do
		d=$mnt$p
		[ "$p" = / ] && d=$mnt
		awk -v p="$p" -v keys="$keys" '$1 ~ keys { print p, $1, $2 }' "$d/memory.stat" 2>/dev/null
	done >"$1"
}

"$EXMAP" -c cgroups >"$T/csv" 2>"$T/csv.err"
rc=$?
check_cmd "-c cgroups: exit 0, or 1 with processes unreadable here (said)" \
	within 0 $((rc + $(grep -c 'could not be read' "$T/csv.err"))) 2
# exmap-mini's own cgroup (this shell's) is charged its memory while it runs
self=$(awk -F: '$1 == 0 || ("," $2 ",") ~ /,memory,/ { p = $3 } ("," $2 ",") ~ /,memory,/ { exit }
	END { print p }' /proc/self/cgroup)
# On a busy machine every cgroup's memory.stat may move during one run: run
# again, up to RUNS times, until some figure (not of exmap-mini's own
# cgroup) stood still across a run; figures that moved are held to the
# span of their own movement (tests/lib/cgroup_check.py's host). Where
# every process is in exmap-mini's own cgroup (a CI runner), nothing else
# is there to stand still: its figures are held to their movement and what
# exmap-mini itself can hold.
RUNS=10
runs=0
while [ $runs -lt $RUNS ]; do
	runs=$((runs + 1))
	memstat "$T/before"
	"$EXMAP" -c cgroups >"$T/csv" 2>"$T/csv.err"
	memstat "$T/after"
	still=$(awk -v me="$self" 'NR == FNR { v[$1 " " $2] = $3; next }
		$1 != me && ($1 " " $2) in v && v[$1 " " $2] == $3 { n++ } END { print n + 0 }' \
		"$T/before" "$T/after")
	[ "$still" -gt 0 ] && break
	others=$(awk -v me="$self" '$1 != me { n++ } END { print n + 0 }' "$T/before")
	[ "$others" -eq 0 ] && break
done
echo "memory.stat: $still figures stood still in run $runs (of at most $RUNS)"
check_eq "-c cgroups: its columns" "$(head -n 1 "$T/csv")" \
	"cgroup,processes,eff_resident,sole,swap,charged,charged_anon,charged_file,charged_shmem,unit"
run_checks "memory.stat" python3 tests/lib/cgroup_check.py host "$T/csv" "$T/before" "$T/after" "$mnt" \
	"$self" "$hier" "$EXMAP"

"$EXMAP" cgroups >"$T/text" 2>"$T/text.err"
check_cmd "text: the charge's hierarchy, found in mountinfo ($hier at $mnt)" \
	has "^charge: the kernel's, cgroup $hier at $mnt\$" "$T/text"
check_eq "text: no line over 80 columns" "$(awk 'length($0) > 80' "$T/text" | wc -l)" 0
check_cmd "text: a totals line" has '^[0-9]* cgroups\{0,1\}  ' "$T/text"

"$EXMAP" -q -s charged -c cgroups >"$T/charged" 2>/dev/null
check_cmd "-s charged: largest first" sh -c "cut -d, -f6 '$T/charged' | grep . | sort -c -n -r"
"$EXMAP" -q -s cgroup -c cgroups >"$T/bypath" 2>/dev/null
check_cmd "-s cgroup: in the paths' order" sh -c "cut -d, -f1 '$T/bypath' | LC_ALL=C sort -c"
"$EXMAP" -s vm cgroups >/dev/null 2>"$T/vm.err"
check_cmd "-s vm: not a field of the view, said" has "^exmap-mini: -s: vm is not a field of this view" \
	"$T/vm.err"

# a dump: a y line a process; loaded, its cgroups add up to its processes
"$EXMAP" dump >"$T/cap" 2>/dev/null
"$EXMAP" -l "$T/cap" -c procs >"$T/cap.procs" 2>/dev/null
"$EXMAP" -l "$T/cap" -c cgroups >"$T/cap.cg" 2>/dev/null
check_eq "dump: a y line a process" "$(grep -c '^XM [0-9]* y ' "$T/cap")" \
	"$(($(wc -l <"$T/cap.procs") - 1))"
check_eq "dump: its cgroups' processes are its processes" \
	"$(awk -F, 'NR > 1 { s += $2 } END { print s }' "$T/cap.cg")" "$(($(wc -l <"$T/cap.procs") - 1))"
n=$(($(wc -l <"$T/cap.procs") - 1))
check_num "dump: its cgroups' eff_resident adds up to its processes' (within a byte a process)" \
	"$(awk -F, 'NR > 1 { s += $3 } END { printf "%.0f", s }' "$T/cap.cg")" \
	"$(awk -F, 'NR > 1 { s += $7 } END { printf "%.0f", s }' "$T/cap.procs")" "$n"
finish
