#!/bin/sh
# The ram view on this machine, as root, against workloads whose size the
# test builds, each measured as a change of the view's own lines:
#   - a 64 MiB file in a tmpfs (mounted here) grows "shmem, no scanned
#     process" by 64 MiB, and the file is named with its size;
#   - a 32 MiB SysV segment, touched, then detached, grows it by 32 MiB and
#     is named with its key;
#   - reading a 256 MiB file that no process maps (its cache dropped first
#     with posix_fadvise) grows "unmapped page cache" by 256 MiB;
#   - 200,000 empty files in a tmpfs grow slab, and name the dentry and the
#     tmpfs inode caches;
# and on every run: the parts add up to MemTotal exactly; the text fits 80
# columns; the census of frames (kpageflags) adds up to iomem's System RAM
# and agrees with meminfo within 1% of RAM on slab, page tables and shmem,
# and on free: its free lines (the buddy allocator's, and what MemFree
# counts outside it on kernels that hand memory to it lazily, as this
# machine's does) are MemFree within 1% of RAM, and other kernel is no more
# than MemTotal less MemFree; where a census line disagrees with meminfo,
# the next line says which to trust. A capture keeps the census's lines
# (-l ram gives them back), and one as exmap-mini wrote it before the
# census was settled with the kernel's counts still loads, its census as
# it was: where that was apart from MemFree, the view says to trust meminfo.
# Environment: EXMAP. Last line: N passed, N failed.
set -u
: "${EXMAP:?}"
LIB=$(cd "$(dirname "$0")/../lib" && pwd)
. "$LIB/lib.sh"
T=$(mktemp -d /tmp/exmap-ram.XXXXXX)
MNT=

cleanup() {
	[ -n "$MNT" ] && umount "$MNT" 2>/dev/null
	[ -n "${SHMID:-}" ] && python3 -c "import ctypes,sys; ctypes.CDLL(None).shmctl(int(sys.argv[1]), 0, None)" "$SHMID" 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 2' INT TERM

[ "$(id -u)" -eq 0 ] || { no "runs as root" "iomem, slabinfo and pagemap want root"; finish; }

# after FILE ERE1 ERE2: the line after the first matching ERE1 matches ERE2
after() {
	awk -v a="$2" -v b="$3" 'hit { ok = $0 ~ b; exit } $0 ~ a { hit = 1 } END { exit !ok }' "$1" &&
		return 0
	grep -A1 -E "$2" "$1" | tr '\n' ';'
	return 1
}
# ram NAME: the CSV into $T/NAME.csv
ram() {
	"$EXMAP" -c ram >"$T/$1.csv" 2>"$T/$1.err" || [ $? -eq 1 ] ||
		no "exmap-mini -c ram ($1)" "$(head -3 "$T/$1.err")"
}
# row FILE CATEGORY SUBCATEGORY [NAME]: the bytes of that row (the first)
row() {
	awk -F, -v c="$2" -v s="$3" -v n="${4:-}" '$1 == c && $2 == s && $3 == n { print $4; exit }' "$1"
}
# grew NAME BEFORE AFTER SUB WANT TOL: part SUB grew by WANT within TOL
grew() {
	b=$(row "$T/$2.csv" part "$4") a=$(row "$T/$3.csv" part "$4")
	check_num "$1: \"$4\" grows by $5 bytes" "$((a - b))" "$5" "$6"
}

# --- every run: the parts add up, 80 columns, the census --------------------
ram base
check_cmd "the CSV's head" has '^category,subcategory,name,bytes,source$' "$T/base.csv"
total=$(row "$T/base.csv" memtotal "")
parts=$(awk -F, '$1 == "part" { s += $(NF - 1) } END { printf "%.0f", s }' "$T/base.csv")
check_eq "the parts add up to MemTotal exactly ($total)" "$parts" "$total"
check_eq "MemTotal is /proc/meminfo's" "$total" \
	"$(($(awk '$1 == "MemTotal:" { print $2 }' /proc/meminfo) * 1024))"
sysram=$(python3 -c '
import re
s = 0
for l in open("/proc/iomem"):
    m = re.match(r"([0-9a-f]+)-([0-9a-f]+) : System RAM$", l)
    if m:
        s += int(m.group(2), 16) - int(m.group(1), 16) + 1
print(s)')
"$EXMAP" ram >"$T/base.txt" 2>/dev/null
check_eq "text: no line over 80 columns" "$(awk 'length($0) > 80' "$T/base.txt" | wc -l)" 0
check_cmd "text: unexplained is a line" has '^    unexplained ' "$T/base.txt"
if [ -r /proc/kpageflags ]; then
	ps=$(getconf PAGESIZE)
	census=$(row "$T/base.csv" census census)
	# iomem's ranges rounded in to whole pages
	check_num "census: every frame of System RAM ($sysram bytes)" "$census" "$sysram" $((64 * ps))
	check_eq "census: the kinds add up to it (mapped and THP run across them)" \
		"$(awk -F, '$1 == "census" && $2 != "census" && $2 !~ /across kinds/ { s += $4 }
			END { printf "%.0f", s }' "$T/base.csv")" "$census"
	ramb=$(row "$T/base.csv" installed "")
	tol=$((ramb / 100))
	mi() { echo $(($(awk -v k="$1:" '$1 == k { print $2 }' /proc/meminfo) * 1024)); }
	c() { v=$(row "$T/base.csv" census "$1"); echo "${v:-0}"; }
	check_num "census: slab = SReclaimable + SUnreclaim, within 1% of RAM" "$(c slab)" \
		$(($(mi SReclaimable) + $(mi SUnreclaim))) "$tol"
	check_num "census: page tables = PageTables, within 1% of RAM" "$(c "page tables")" \
		"$(mi PageTables)" "$tol"
	check_num "census: shmem = Shmem, within 1% of RAM" "$(c shmem)" "$(mi Shmem)" "$tol"
	p() { v=$(row "$T/base.csv" part "$1"); echo "${v:-0}"; }
	outside=$(c "free outside the buddy allocator")
	free=$(($(c free) + outside)) memfree=$(p free)
	check_num "census: free (buddy $(c free), outside it $outside) = MemFree within 1% of RAM" \
		"$free" "$memfree" "$tol"
	check_cmd "census: other kernel ($(c "other kernel")) <= MemTotal - MemFree, within 1% of RAM" \
		within 0 "$(c "other kernel")" $((total - memfree + tol))
	# every "apart" line is followed by one that says which figure to trust
	check_eq "text: each census line apart from meminfo says which to trust" \
		"$(awk '/^census: over 1% of RAM apart/ { getline; if ($0 !~ /^census: trust /) bad++ }
			END { print bad + 0 }' "$T/base.txt")" 0
	# a capture: the census's lines come back as they were read
	"$EXMAP" dump >"$T/census.cap" 2>/dev/null
	"$EXMAP" -l "$T/census.cap" -c ram >"$T/census.csv" 2>/dev/null
	cap_outside=$(awk '$1 == "XM" && $2 == 2 && $3 == "v" && $4 == "census_outside" { print $5 }' \
		"$T/census.cap")
	check_eq "capture: the census's outside count is recorded (${cap_outside:-none}), -l ram gives it back" \
		"$(row "$T/census.csv" census "free outside the buddy allocator")" \
		"$(if [ "${cap_outside:-0}" -gt 0 ]; then echo $((cap_outside * ps)); fi)"
	check_eq "capture: the census's kinds add up to its frames" \
		"$(awk -F, '$1 == "census" && $2 != "census" && $2 !~ /across kinds/ { s += $4 }
			END { printf "%.0f", s }' "$T/census.csv")" "$(row "$T/census.csv" census census)"
	# the same capture as exmap-mini wrote it before (old: no census_*
	# counts), or as if the frames with no flag had been fewer than what is
	# outside the buddy allocator (noroom: none left): what is outside left
	# in other kernel
	for how in old noroom; do
		python3 - "$LIB" "$T/census.cap" "$T/$how.cap" $how <<'EOF'
import sys
sys.path.insert(0, sys.argv[1])
import capwire
lines, out, outside = capwire.read(sys.argv[2]), [], 0
for l in lines:
    w = l.split()
    if w[:4] == [b"XM", b"2", b"v", b"census_outside"]:
        outside = int(w[4])
for l in lines:
    w = l.split()
    if w[:3] == [b"XM", b"2", b"v"] and w[3] in (b"census_outside", b"census_bare"):
        l = b"XM 2 v %s 0\n" % w[3]
    if sys.argv[4] == "old" and w[:3] == [b"XM", b"2", b"v"] and w[3].startswith(b"census_") and \
            w[3] not in (b"census_err", b"census_frames", b"census_mapped", b"census_thp"):
        continue
    if w[:4] == [b"XM", b"2", b"k", b"13"]:
        l = b"XM 2 k 13 %d\n" % (int(w[4]) + outside)
    out.append(l)
open(sys.argv[3], "wb").write(b"".join(capwire.reclose(out)))
EOF
		"$EXMAP" -l "$T/$how.cap" ram >"$T/$how.txt" 2>"$T/$how.err"
		# 1: a process could not be read when it was taken, said
		check_cmd "capture ($how): the ram view, exit 0 or 1, not refused" within 0 $? 1
	done
	if [ $((${cap_outside:-0} * ps)) -gt "$tol" ]; then
		check_cmd "an old capture from this machine: its census free apart from MemFree" \
			has '^census: over 1% of RAM apart: free ' "$T/old.txt"
		check_cmd "an old capture: the line after says to trust meminfo's, no figures saying why" \
			has "^census: trust meminfo's free: no buddyinfo or zoneinfo figures say why\$" \
			"$T/old.txt"
		check_cmd "no room for what is outside: the line after says to trust meminfo's, and why" \
			after "$T/noroom.txt" '^census: over 1% of RAM apart: free ' \
			"^census: trust meminfo's free: .* outside the buddy allocator, 0 flagless\$"
	else
		check_cmd "an old capture from this machine: its census as it was, not apart" \
			not has '^census: over 1% of RAM apart' "$T/old.txt"
	fi
else
	echo "(no /proc/kpageflags here: the census checks are not made)"
fi

# --- a 64 MiB file in a tmpfs -------------------------------------------------
MNT=$T/tmpfs
mkdir -p "$MNT" && mount -t tmpfs -o size=256m exmap-ram "$MNT" || { no "mount a tmpfs"; finish; }
ram tmpfs0
"$EXMAP" dump >"$T/a.cap" 2>/dev/null
dd if=/dev/zero of="$MNT/big64" bs=1M count=64 status=none
ram tmpfs1
"$EXMAP" dump >"$T/b.cap" 2>/dev/null
grew "tmpfs" tmpfs0 tmpfs1 "unmapped shmem" $((64 << 20)) $((4 << 20))
check_eq "tmpfs: the file is named, with its 64 MiB" "$(row "$T/tmpfs1.csv" detail tmpfs "$MNT/big64")" \
	$((64 << 20))
# diff of captures taken before and after: the ram lines that changed
"$EXMAP" -c diff "$T/a.cap" "$T/b.cap" >"$T/diff.csv" 2>/dev/null
d=$(awk -F, '$1 == "ram" && $2 == "part:unmapped shmem" { print $5 - $4 }' "$T/diff.csv")
check_num "diff: ram line \"unmapped shmem\" grew by 64 MiB" "${d:-none}" $((64 << 20)) $((4 << 20))
check_eq "diff: the tmpfs file, 0 in A, 64 MiB in B" \
	"$(awk -F, -v k="detail:tmpfs:$MNT/big64" '$1 == "ram" && $2 == k { print $4, $5 }' "$T/diff.csv")" \
	"0 $((64 << 20))"
# the census's line for what MemFree counts outside the buddy allocator, where
# there is one, is a line of diff too
if grep -q '^XM 2 v census_outside [1-9]' "$T/b.cap"; then
	"$EXMAP" -a -c diff "$T/a.cap" "$T/b.cap" >"$T/diff_all.csv" 2>/dev/null
	check_cmd "diff -a: the census line free outside the buddy allocator, in A and B" \
		has '^ram,census:free outside the buddy allocator,,[1-9][0-9]*,[1-9][0-9]*$' \
		"$T/diff_all.csv"
fi
"$EXMAP" diff "$T/a.cap" "$T/b.cap" >"$T/diff.txt" 2>/dev/null
check_cmd "diff text: the RAM section names the file" has "big64 " "$T/diff.txt"
check_eq "diff text: 80 columns" "$(awk 'length($0) > 80' "$T/diff.txt" | wc -l)" 0
# budgets on the ram view's lines, from the capture and live
shm=$(row "$T/tmpfs1.csv" part "unmapped shmem")
"$EXMAP" -l "$T/b.cap" -q --budget "ram:$MNT/big64=64M" procs >/dev/null 2>"$T/err"
check_cmd "budget ram:FILE=64M (a named tmpfs file, exactly its size): holds" within 0 $? 1
"$EXMAP" -l "$T/b.cap" -q --budget "ram:$MNT/big64=65535K" procs >/dev/null 2>"$T/err"
check_eq "budget ram:FILE one KiB under: exit 3, said" "$? $(grep -c "budget ram:$MNT/big64 exceeded: it is 67108864 bytes" "$T/err")" "3 1"
"$EXMAP" -l "$T/b.cap" -q --budget "ram:slab=1" procs >/dev/null 2>"$T/err"
check_eq "budget ram:slab=1 (both slab lines): exit 3" "$?" 3
# a name that matches nothing is a mistake in the command (the manual's
# BUDGETS): exit 2, said
"$EXMAP" -q --budget "ram:nosuch=1M" ram >/dev/null 2>"$T/err"
check_eq "budget ram:nosuch: exit 2, said" \
	"$? $(grep -c '^exmap-mini: --budget ram:nosuch: no line of the ram view of that name$' "$T/err")" "2 1"
rm -f "$MNT/big64"

# --- a 32 MiB SysV segment, touched, detached ---------------------------------
ram sysv0
SHMID=$(python3 -c '
import ctypes, sys
libc = ctypes.CDLL(None, use_errno=True)
libc.shmat.restype = ctypes.c_void_p
i = libc.shmget(0x4558, 32 << 20, 0o1600)
if i < 0:
    sys.exit("shmget: errno %d" % ctypes.get_errno())
p = libc.shmat(i, None, 0)
ctypes.memset(p, 1, 32 << 20)
libc.shmdt(ctypes.c_void_p(p))
print(i)')
ram sysv1
grew "sysv" sysv0 sysv1 "unmapped shmem" $((32 << 20)) $((4 << 20))
check_eq "sysv: the segment is named (key 0x4558 = 17752), with its 32 MiB" \
	"$(row "$T/sysv1.csv" detail sysv "key 17752 id $SHMID")" $((32 << 20))
python3 -c "import ctypes,sys; ctypes.CDLL(None).shmctl(int(sys.argv[1]), 0, None)" "$SHMID"
SHMID=

# --- 256 MiB read into the page cache, mapped by no process -------------------
F=/var/tmp/exmap-ram.$$
dd if=/dev/urandom of="$F" bs=1M count=256 status=none && sync "$F"
# The machine is shared: what else runs may fill or reclaim the page cache
# meanwhile. Up to 3 tries, each from the file's cache dropped again; the
# last is the verdict, and how many it took is said.
try=1
while :; do
	python3 -c 'import os,sys; fd = os.open(sys.argv[1], os.O_RDONLY); os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)' "$F"
	ram cache0
	cat "$F" >/dev/null
	ram cache1
	d=$(($(row "$T/cache1.csv" part "unmapped page cache") - $(row "$T/cache0.csv" part "unmapped page cache")))
	within $((232 << 20)) "$d" $((280 << 20)) >/dev/null || [ $try -ge 3 ] || { try=$((try + 1)); continue; }
	break
done
grew "page cache (try $try of 3)" cache0 cache1 "unmapped page cache" $((256 << 20)) $((24 << 20))
rm -f "$F"

# --- 200,000 empty files -------------------------------------------------------
# slabinfo CACHE: the kernel's "ACTIVE OBJS OBJSIZE" of CACHE, and count
# CACHE: the kernel's own count of what it holds (fs/dentry-state's
# dentries, fs/inode-nr's inodes). slabinfo's active objects are not one:
# SLUB counts a CPU's partial slabs' free objects as active, and a cache
# holding many free objects grows by fewer (183,700 for 200,000 files once).
slabinfo() { awk -v c="$1" '$1 == c { print $2, $3, $4; exit }' /proc/slabinfo; }
counter() { case $1 in dentry) echo dentry-state ;; *) echo inode-nr ;; esac; }
count() { awk '{ print $1 }' "/proc/sys/fs/$(counter "$1")"; }
for cache in dentry shmem_inode_cache; do
	eval "k0_$cache=\"\$(slabinfo $cache) \$(count $cache)\""
done
ram slab0
python3 -c '
import os, sys
d = sys.argv[1]
for i in range(200000):
    os.close(os.open("%s/f%06d" % (d, i), os.O_CREAT | os.O_WRONLY, 0o600))' "$MNT"
ram slab1
sb=$(($(row "$T/slab0.csv" part "slab reclaimable") + $(row "$T/slab0.csv" part "slab unreclaimable")))
sa=$(($(row "$T/slab1.csv" part "slab reclaimable") + $(row "$T/slab1.csv" part "slab unreclaimable")))
# a dentry and a tmpfs inode a file: 100 bytes each at the very least
check_cmd "200,000 files: slab grows by 40 MB at least" within 40000000 $((sa - sb)) ""
# Each cache grows by the files' objects less the free ones it held before
# (a machine that made and dropped many files keeps free dentries in its
# slabs: 108,000 of them here once, and the row grew by 6 MB): by 80% of
# that at least; the kernel counts 190,000 dentries and inodes more at
# least (what else runs may free some meanwhile).
for cache in dentry shmem_inode_cache; do
	eval "set -- \$k0_$cache"
	free0=$((${2:-0} - ${1:-0})) size=${3:-0} n0=${4:-0}
	what=inodes
	[ $cache = dentry ] && what=dentries
	check_cmd "200,000 files: the kernel counts 190,000 $what (fs/$(counter $cache)) more at least" \
		within 190000 "$(($(count $cache) - n0))" ""
	want=$(((200000 - free0) * size * 4 / 5))
	[ "$want" -ge 0 ] || want=0
	b=$(row "$T/slab0.csv" detail slab "$cache") a=$(row "$T/slab1.csv" detail slab "$cache") d=
	[ -z "$a" ] || d=$((a - ${b:-0}))	# no row: not named, a failure
	check_cmd "200,000 files: $cache is named, and grew by its new objects less its $free0 free ones ($want bytes at least)" \
		within "$want" "$d" ""
done
finish
