#!/bin/sh
# Integration tests on this machine, run as root: a workload whose sharing we
# constructed, checked against the kernel's own figures (smaps_rollup) and
# against tests/lib/truth.py, which reads pagemap by itself.
# Environment: EXMAP (the binary), WORKLOAD, README. Last line: N passed, N failed.
set -u
: "${EXMAP:?}" "${WORKLOAD:?}" "${README:?}"
LIB=$(cd "$(dirname "$0")/../lib" && pwd)
. "$LIB/lib.sh"
TRUTH="python3 $LIB/truth.py"
T=$(mktemp -d /tmp/exmap-test.XXXXXX)
chmod 755 "$T"
WL_PID=
SWAPFILE=

cleanup() {
	stop_workload
	[ -n "$SWAPFILE" ] && swapoff "$SWAPFILE"
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 2' INT TERM

# sharing CHILDREN FILE_KIB COW_KIB PRIV_KIB [OPTIONS]: the workload started,
# its pids in WL_PARENT and WL_CHILDREN, its file in WL_FILE
sharing() {
	# shellcheck disable=SC2086 # OPTIONS are words
	if ! start_workload "$T/wl.out" "$WORKLOAD" ${5:-} -n "$1" -f "$2" -c "$3" -p "$4" -d "$T"; then
		echo "workload did not start:"; cat "$T/wl.out.err"; exit 2
	fi
	set -- $READY
	WL_PARENT=$1
	shift
	WL_CHILDREN="$*"
	WL_FILE=$(sed -n 's/^file //p' "$T/wl.out")
}

# --- the binary itself ------------------------------------------------------
if nm "$EXMAP" | grep -qwE 'malloc|calloc|realloc|free'; then
	no "links no allocator" "$(nm "$EXMAP" | grep -wE 'malloc|calloc|realloc|free' | tr '\n' ' ')"
else
	ok "links no allocator (malloc, calloc, realloc, free)"
fi
nm "$EXMAP" | grep -qw main && ok "symbol table kept" || no "symbol table kept"
if readelf -lW "$EXMAP" | grep -q INTERP; then no "static binary" "has an INTERP header"; else ok "static binary"; fi

# --- what make run and make test install --------------------------------------
# On a machine with no package installed (dpkg-query knows none) and not as
# root (id -u says 1000), toolchain/setup names what it would install and
# stops: make run asks for the compiler and musl alone, make test for the rest.
mkdir -p "$T/fresh"
printf '#!/bin/sh\nexit 1\n' >"$T/fresh/dpkg-query"
printf '#!/bin/sh\necho 1000\n' >"$T/fresh/id"
chmod 755 "$T/fresh/dpkg-query" "$T/fresh/id"
for t in run test; do
	PATH="$T/fresh:$PATH" make -s -C "$LIB/../.." $t >"$T/make.$t" 2>&1
	sed -n 's/^setup: missing packages: *\(.*\) (run toolchain\/setup as root.*/\1/p' "$T/make.$t" >"$T/pkgs.$t"
done
check_eq "make run on a fresh machine: installs the compiler and musl, nothing else" \
	"$(cat "$T/pkgs.run")" "make gcc libc6-dev musl-tools binutils" "$(head -n 3 "$T/make.run")"
check_eq "make test on a fresh machine: chromium, qemu and linux-source-6.1 among what it installs" \
	"$(tr ' ' '\n' <"$T/pkgs.test" | grep -cxE 'chromium|qemu-system-arm|linux-source-6\.1|musl-tools')" 4 \
	"$(head -n 3 "$T/make.test")"

# --- usage, options, exit codes ---------------------------------------------
awk '/^<!-- usage: end -->/ { p = 0 } p && !/^```/ { print } /^<!-- usage: begin -->/ { p = 1 }' \
	"$README" >"$T/usage.readme"
"$EXMAP" -h >"$T/usage.bin"; rc=$?
if [ $rc -eq 0 ] && [ -s "$T/usage.readme" ] && cmp -s "$T/usage.readme" "$T/usage.bin"; then
	ok "-h prints the usage that README shows"
else
	no "-h prints the usage that README shows" "$(diff "$T/usage.readme" "$T/usage.bin" | head -5)"
fi
"$EXMAP" -V | grep -q '^exmap-mini [0-9]' && ok "-V prints the version" || no "-V prints the version"
for args in "-Z" "maps" "maps 12x" "-n 0" "-n x" "-s bogus" "-s path procs" "-p 1,,2" \
	    "-p 0" "-m 10" "-m 1Q" "-t 0" "procs extra" "nosuchview"; do
	# shellcheck disable=SC2086
	"$EXMAP" $args >/dev/null 2>"$T/err"; rc=$?
	if [ $rc -eq 2 ] && [ -s "$T/err" ]; then ok "misuse '$args' exits 2 with a message"
	else no "misuse '$args' exits 2 with a message" "rc $rc"; fi
done

"$EXMAP" -p $$ >/dev/full 2>"$T/err"; rc=$?
if [ $rc -eq 2 ] && grep -q 'write error' "$T/err"; then ok "a failed write to stdout fails the run"
else no "a failed write to stdout fails the run" "rc $rc: $(cat "$T/err")"; fi

cp "$EXMAP" "$T/exmap-mini" && chmod 755 "$T/exmap-mini"
setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
	"$T/exmap-mini" >/dev/null 2>"$T/err"; rc=$?
if [ $rc -eq 2 ] && grep -q 'run exmap-mini as root' "$T/err"; then
	ok "non-root run gets the clear error"
else
	no "non-root run gets the clear error" "rc $rc: $(cat "$T/err")"
fi

"$EXMAP" -t 1000000 -m 1M >/dev/null 2>"$T/err"; rc=$?
if [ $rc -eq 2 ] && grep -q -- '-m SIZE' "$T/err"; then ok "a full arena names -m"
else no "a full arena names -m" "rc $rc: $(cat "$T/err")"; fi

# --- the sharing workload ---------------------------------------------------
N=10 FILE_KIB=1024 COW_KIB=512 PRIV_KIB=256
sharing $N $FILE_KIB $COW_KIB $PRIV_KIB
set -- $WL_CHILDREN
C1=$1 C2=$2
ALL="$WL_PARENT,$(echo "$WL_CHILDREN" | tr ' ' ',')"

"$EXMAP" -t 16 >/dev/null 2>"$T/err"; rc=$?
if [ $rc -eq 2 ] && grep -q -- '-t PAGES' "$T/err"; then ok "a full page table names -t"
else no "a full page table names -t" "rc $rc: $(cat "$T/err")"; fi

# Every process scanned: the kernel's Pss is each page over all its mappers.
"$EXMAP" -c >"$T/all.csv" 2>"$T/all.err"; rc=$?
if [ $rc -eq 0 ] || { [ $rc -eq 1 ] && grep -q 'could not be read' "$T/all.err"; }; then
	ok "full scan exits 0, or 1 naming unreadable processes (rc $rc)"
else
	no "full scan exits 0, or 1 naming unreadable processes" "rc $rc: $(cat "$T/all.err")"
fi
head -1 "$T/all.csv" | grep -qx 'pid,name,vm,mapped,resident,eff_mapped,eff_resident,sole,writable,swap,dmabuf,eff_dmabuf' &&
	ok "procs CSV header" || no "procs CSV header" "$(head -1 "$T/all.csv")"
for pid in $WL_PARENT $WL_CHILDREN; do
	check_num "pid $pid eff_resident = Pss" "$(col "$T/all.csv" pid "$pid" eff_resident)" \
		"$(rollup "$pid" Pss)" 8192
	check_num "pid $pid resident = Rss" "$(col "$T/all.csv" pid "$pid" resident)" "$(rollup "$pid" Rss)"
	check_num "pid $pid sole = Private_Clean + Private_Dirty" "$(col "$T/all.csv" pid "$pid" sole)" \
		"$(( $(rollup "$pid" Private_Clean) + $(rollup "$pid" Private_Dirty) ))"
	check_num "pid $pid swap = Swap" "$(col "$T/all.csv" pid "$pid" swap)" "$(rollup "$pid" Swap)"
done

# writable: a child wrote half its cow pages and all its private ones, plus
# its own stack and data; a child's written pages are exactly its dirty ones.
for pid in $C1 $C2; do
	w=$(col "$T/all.csv" pid "$pid" writable)
	check_num "pid $pid writable = Private_Dirty" "$w" "$(rollup "$pid" Private_Dirty)" 8192
	least=$(( (COW_KIB / 2 + PRIV_KIB) * 1024 ))
	[ "$w" -ge $least ] && ok "pid $pid writable covers what it wrote" ||
		no "pid $pid writable covers what it wrote" "$w < $least"
done

"$EXMAP" >"$T/all.txt" 2>/dev/null
grep -q '^check: eff_mapped total = [0-9]* distinct pages x [0-9]* B: ok$' "$T/all.txt" &&
	ok "self-check line holds" || no "self-check line holds" "$(grep '^check' "$T/all.txt")"

# The sum of eff_mapped over a set is its distinct pages, counted by truth.py.
"$EXMAP" -c -p "$ALL" >"$T/set.csv"; rc=$?
$TRUTH $(echo "$ALL" | tr ',' ' ') >"$T/truth.csv"
sum=$(awk -F, 'NR > 1 { s += $6 } END { print s }' "$T/set.csv")
distinct=$(awk -F, 'NR == 2 { print $5 }' "$T/truth.csv")
check_num "-p set: exit 0" $rc 0
check_num "-p set: sum of eff_mapped = truth's distinct pages x page size" "$sum" \
	"$((distinct * $(getconf PAGESIZE)))" $((N + 1))
for pid in $WL_PARENT $WL_CHILDREN; do
	check_num "-p set: pid $pid eff_resident = truth" "$(col "$T/set.csv" pid "$pid" eff_resident)" \
		"$(col "$T/truth.csv" pid "$pid" eff_resident)" 2
done

# Two scanned children of ten: what they share counts 1/2 for each.
"$EXMAP" -c -p "$C1,$C2" maps "$C1" >"$T/two.csv"; rc=$?
check_num "-p two: exit 0" $rc 0
file_eff=$(awk -F, -v f="$WL_FILE" 'NR > 1 && $8 == f { print $13 }' "$T/two.csv")
check_num "-p two: the file, read by both, counts half" "$file_eff" $((FILE_KIB * 1024 / 2)) 1
"$EXMAP" -c -p "$C1,$C2" >"$T/two-procs.csv"
$TRUTH "$C1" "$C2" >"$T/truth2.csv"
for pid in $C1 $C2; do
	check_num "-p two: pid $pid eff_resident = truth over the two" \
		"$(col "$T/two-procs.csv" pid "$pid" eff_resident)" "$(col "$T/truth2.csv" pid "$pid" eff_resident)" 2
	check_num "-p two: pid $pid sole = truth over the two" \
		"$(col "$T/two-procs.csv" pid "$pid" sole)" "$(col "$T/truth2.csv" pid "$pid" sole)"
done

# files: the workload's file is mapped by the parent and every child.
"$EXMAP" -c -p "$ALL" files >"$T/files.csv"
check_num "files: nproc of the workload file" "$(col "$T/files.csv" path "$WL_FILE" nproc)" $((N + 1))
check_num "files: resident, summed over the children that read it" \
	"$(col "$T/files.csv" path "$WL_FILE" resident)" $((N * FILE_KIB * 1024))
check_num "files: its eff_resident is the file's size" "$(col "$T/files.csv" path "$WL_FILE" eff_resident)" \
	$((FILE_KIB * 1024)) $N

# The 64 KiB that each child only read. What a read fault gives here is
# learned from its first page (pagemap, kpageflags), not assumed: the shared
# zero page, which is not RAM (vm only); or, on a kernel without one
# (pvm_no_zero_page=1, s390 KVM), pages of the child's own, resident and
# sole, but not writable (the mapping is read-only). Either way resident is
# the kernel's Rss for that mapping.
"$EXMAP" -c -p "$ALL" maps "$C1" >"$T/zmaps.csv"
zrow=$(awk -F, 'NR > 1 && $8 == "[anon]" && $4 == "r--p" && $9 == 65536' "$T/zmaps.csv")
zaddr=$(echo "$zrow" | cut -d, -f2)
set -- $($TRUTH readfault "$C1" "${zaddr:-0}" 2>&1)
case ${1:-} in
zero)	echo "read faults here: map the zero page (pfn $2, kpageflags agrees)"
	zwant="0,0,0,0" ;;
alloc)	echo "read faults here: allocate a page of their own (no zero page)"
	zwant="65536,65536,65536,0" ;;
*)	zwant=unknown ;;
esac
zgot=$(echo "$zrow" | cut -d, -f10,11,14,15)
[ -n "$zrow" ] && [ "$zgot" = "$zwant" ] &&
	ok "read-only mapping a child read: mapped, resident, sole, writable as a read fault gives ($zwant)" ||
	no "read-only mapping a child read: mapped, resident, sole, writable as a read fault gives" \
		"got '$zgot', want '$zwant' (learned: $*)"
zrss=$(awk -v a="${zaddr#0x}" '
	/^[0-9a-f]+-[0-9a-f]+ / { split($1, r, "-"); here = (r[1] == a); next }
	here && $1 == "Rss:" { print $2 * 1024; exit }' "/proc/$C1/smaps")
check_num "read-only mapping a child read: resident is its Rss (smaps)" \
	"$(echo "$zrow" | cut -d, -f11)" "$zrss"

# Text views fit 80 columns.
for v in procs files "maps $C1"; do
	# shellcheck disable=SC2086
	"$EXMAP" -p "$ALL" $v >"$T/view.txt" 2>/dev/null
	w=$(awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }' "$T/view.txt")
	[ "$w" -le 80 ] && [ "$(wc -l <"$T/view.txt")" -gt 1 ] && ok "text $v fits 80 columns" ||
		no "text $v fits 80 columns" "widest line $w"
done
for v in "-p $ALL sections $WORKLOAD" "-p $ALL symbols $WORKLOAD" "elf $WORKLOAD"; do
	# shellcheck disable=SC2086
	"$EXMAP" $v >"$T/view.txt" 2>/dev/null
	w=$(awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }' "$T/view.txt")
	v=${v#-p "$ALL" }
	[ "$w" -le 80 ] && [ "$(wc -l <"$T/view.txt")" -gt 3 ] && ok "text ${v%% *} fits 80 columns" ||
		no "text ${v%% *} fits 80 columns" "widest line $w"
done
# -k, every value fitting: the columns of 7, as ever
check_eq "-k: the procs header, columns of 7 (no value is wider)" \
	"$("$EXMAP" -k -p "$ALL" | head -n 1)" \
	"    PID NAME                 VM  MAPPD  RESID  EFMAP  EFRES   SOLE  WRITE   SWAP"
"$EXMAP" -p "$ALL" maps "$C1" >"$T/maps.txt"
grep -q -- "$(printf %s "$WL_FILE" | tail -c 9)\$" "$T/maps.txt" && ok "maps shows the mapped file" ||
	no "maps shows the mapped file" "$(cat "$T/maps.txt")"
# every row's address as wide as the widest ([vsyscall]'s 16 digits where it
# is mapped): the columns line up
check_eq "maps: the address column one width, every row (the 16-digit [vsyscall] too)" \
	"$(awk 'NR > 1 { print index($0, " ") }' "$T/maps.txt" | sort -u | wc -l)" 1 "$(tail -n 3 "$T/maps.txt")"

# Options that shape the rows.
check_num "-n 3 prints 3 rows" "$("$EXMAP" -c -n 3 -p "$ALL" | wc -l)" 4
check_num "-q drops the header" "$("$EXMAP" -c -q -n 3 -p "$ALL" | wc -l)" 3
# text: the rows alone, no totals line, no check:, source: or other notes
"$EXMAP" -q -n 3 -p "$ALL" >"$T/q.txt" 2>/dev/null
check_eq "-q in text: the 3 rows alone, each a process's" \
	"$(wc -l <"$T/q.txt") $(grep -c '^ *[0-9][0-9]* ' "$T/q.txt")" "3 3" "$(cat "$T/q.txt")"
"$EXMAP" -c -q -s pid -p "$ALL" | cut -d, -f1 >"$T/pids"
sort -n "$T/pids" | cmp -s - "$T/pids" && ok "-s pid sorts by pid" || no "-s pid sorts by pid"
"$EXMAP" -c -q -p "$ALL" | cut -d, -f7 >"$T/eres"
sort -rn "$T/eres" | cmp -s - "$T/eres" && ok "procs sort by eff_resident by default" ||
	no "procs sort by eff_resident by default"

stop_workload

# --- swap: the parent's cow pages go to swap before the fork --------------
# The second half stays swap entries shared by all N + 1; each child's first
# half was swapped in and copied. Checked against Swap and SwapPss.
swap_on() {
	[ "$(awk 'NR > 1' /proc/swaps | wc -l)" -gt 0 ] && return 0
	SWAPFILE=$T/swapfile
	{ fallocate -l 64M "$SWAPFILE" || dd if=/dev/zero of="$SWAPFILE" bs=1M count=64; } 2>/dev/null &&
		chmod 600 "$SWAPFILE" && mkswap "$SWAPFILE" >/dev/null 2>&1 && swapon "$SWAPFILE" && return 0
	SWAPFILE=
	return 1
}
if swap_on; then
	N=4
	sharing $N 256 512 128 -S
	ALL="$WL_PARENT,$(echo "$WL_CHILDREN" | tr ' ' ',')"
	"$EXMAP" -c >"$T/swap.csv" 2>/dev/null
	for pid in $WL_PARENT $WL_CHILDREN; do
		check_num "swap: pid $pid swap = Swap" "$(col "$T/swap.csv" pid "$pid" swap)" "$(rollup "$pid" Swap)"
		check_num "swap: pid $pid eff_resident = Pss" "$(col "$T/swap.csv" pid "$pid" eff_resident)" \
			"$(rollup "$pid" Pss)" 8192
		check_num "swap: pid $pid eff_mapped - eff_resident = SwapPss" \
			"$(( $(col "$T/swap.csv" pid "$pid" eff_mapped) - $(col "$T/swap.csv" pid "$pid" eff_resident) ))" \
			"$(rollup "$pid" SwapPss)" 8192
		check_num "swap: pid $pid mapped = Rss + Swap" "$(col "$T/swap.csv" pid "$pid" mapped)" \
			"$(( $(rollup "$pid" Rss) + $(rollup "$pid" Swap) ))"
	done
	check_num "swap: the parent holds 512 KiB swapped" "$(col "$T/swap.csv" pid "$WL_PARENT" swap)" 524288
	"$EXMAP" -c -p "$ALL" >"$T/swapset.csv"
	$TRUTH $(echo "$ALL" | tr ',' ' ') >"$T/swaptruth.csv"
	for pid in $WL_PARENT $WL_CHILDREN; do
		check_num "swap -p set: pid $pid sole = truth" "$(col "$T/swapset.csv" pid "$pid" sole)" \
			"$(col "$T/swaptruth.csv" pid "$pid" sole)"
	done
	sum=$(awk -F, 'NR > 1 { s += $6 } END { print s }' "$T/swapset.csv")
	distinct=$(awk -F, 'NR == 2 { print $5 }' "$T/swaptruth.csv")
	check_num "swap -p set: sum of eff_mapped = distinct pages and swap entries" "$sum" \
		"$((distinct * $(getconf PAGESIZE)))" $((N + 1))
	stop_workload
else
	echo "skip swap tests: no swap is active and a swapfile cannot be enabled here"
fi

# --- a sparse address space: the cost follows the pages, not the addresses ---
# Every process holds a 1 TiB reservation that never has a page, and 64 GiB
# with 16 islands of pages: the parent's, shared by all (odd ones swapped out
# when swap is on), and each child's own beside them. Read through
# PAGEMAP_SCAN where the kernel has it (6.7), and with it switched off
# (EXMAP_PAGEMAP_SCAN=0: every entry, but a large mapping smaps calls empty
# is skipped), the figures are the kernel's. How many pagemap reads each way
# costs is counted with strace: the reservation's 32768 chunks are never read.
has_scan=$(has_pagemap_scan)
SPARSE_OPT=
[ "$(awk 'NR > 1' /proc/swaps | wc -l)" -gt 0 ] && SPARSE_OPT=-S
N=2
sharing $N 64 256 64 "$SPARSE_OPT -R 1048576 -I 65536"
ALL="$WL_PARENT,$(echo "$WL_CHILDREN" | tr ' ' ',')"
for scan in 1 0; do
	what="sparse, PAGEMAP_SCAN $( [ $scan = 1 ] && echo "where the kernel has it" || echo off)"
	EXMAP_PAGEMAP_SCAN=$scan strace -f -qq -y -o "$T/sparse.strace" -e trace=pread64,ioctl \
		"$EXMAP" -c >"$T/sparse$scan.csv" 2>"$T/sparse.err"; rc=$?
	[ $rc -le 1 ] && ok "$what: full scan exits $rc" || no "$what: full scan" "rc $rc: $(cat "$T/sparse.err")"
	for pid in $WL_PARENT $WL_CHILDREN; do
		check_num "$what: pid $pid resident = Rss" "$(col "$T/sparse$scan.csv" pid "$pid" resident)" \
			"$(rollup "$pid" Rss)"
		check_num "$what: pid $pid eff_resident = Pss" "$(col "$T/sparse$scan.csv" pid "$pid" eff_resident)" \
			"$(rollup "$pid" Pss)" 8192
		check_num "$what: pid $pid swap = Swap" "$(col "$T/sparse$scan.csv" pid "$pid" swap)" \
			"$(rollup "$pid" Swap)"
		check_num "$what: pid $pid vm holds the 1 TiB reservation and 64 GiB" \
			"$(( $(col "$T/sparse$scan.csv" pid "$pid" vm) >= (1024 + 64) << 30 ))" 1
	done
	# pagemap reads of the workload's processes, by their pagemap fds
	reads=$(awk -v pids=" $WL_PARENT $WL_CHILDREN " '
		match($0, /pread64\([0-9]+<\/proc\/[0-9]+\/pagemap>/) {
			p = substr($0, RSTART, RLENGTH); sub(/^.*<\/proc\//, "", p); sub(/\/.*/, "", p)
			if (index(pids, " " p " ")) n++
		} END { print n + 0 }' "$T/sparse.strace")
	grep 'ioctl([0-9]*<[^>]*>, _IOC(_IOC_READ|_IOC_WRITE, 0x66, 0x10' "$T/sparse.strace" >"$T/scans"
	scans=$(grep -vc '= -1 ' "$T/scans")
	if [ $scan = 1 ] && [ "$has_scan" = 1 ]; then
		[ "$scans" -gt 0 ] && ok "$what: the kernel has it, and it is asked ($scans times)" ||
			no "$what: the kernel has it, and it is asked" "no PAGEMAP_SCAN ioctl in the trace"
		# islands: 16 ranges a process, each read once, and its other mappings
		[ "$reads" -lt 1000 ] && ok "$what: $reads pagemap reads of its processes (the islands' 64 GiB are not read through)" ||
			no "$what: the islands' 64 GiB are not read through" "$reads pagemap reads of its processes"
	elif [ $scan = 1 ]; then
		check_num "$what: the kernel has none: asked at most once" "$(( $(wc -l <"$T/scans") <= 1 ))" 1
	else
		check_num "$what: never asked" "$(wc -l <"$T/scans")" 0
	fi
	if [ $scan = 0 ]; then
		# 2048 chunks of islands a process; the reservation's 32768 are skipped
		least=$(( (N + 1) * 2048 ))
		[ "$reads" -ge $least ] && [ "$reads" -lt $((least + 1000)) ] &&
			ok "$what: $reads pagemap reads of its processes: the islands read through, the empty 1 TiB skipped" ||
			no "$what: the islands read through, the empty 1 TiB skipped" \
				"$reads pagemap reads of its processes, want $least and under $((least + 1000))"
	fi
done
EXMAP_PAGEMAP_SCAN=1 "$EXMAP" -c -p "$ALL" maps "$WL_PARENT" >"$T/sparsep1.csv"
EXMAP_PAGEMAP_SCAN=0 "$EXMAP" -c -p "$ALL" maps "$WL_PARENT" >"$T/sparsep0.csv"
cmp -s "$T/sparsep1.csv" "$T/sparsep0.csv" && ok "sparse: the same maps with PAGEMAP_SCAN and without" ||
	no "sparse: the same maps with PAGEMAP_SCAN and without" "$(diff "$T/sparsep1.csv" "$T/sparsep0.csv" | head -4)"
set -- $WL_CHILDREN
C1=$1
"$EXMAP" -c -p "$ALL" maps "$C1" >"$T/sparsemaps.csv"
res=$(awk -F, 'NR > 1 && $9 == 1099511627776 && $4 == "---p" { print $10 "," $11 }' "$T/sparsemaps.csv")
check_eq "sparse: the 1 TiB reservation is vm only" "$res" "0,0"
iaddr=$(awk -F, 'NR > 1 && $9 == 68719476736 { print $2 }' "$T/sparsemaps.csv")
irss=$(awk -v a="${iaddr#0x}" '
	/^[0-9a-f]+-[0-9a-f]+ / { split($1, r, "-"); here = (r[1] == a); next }
	here && $1 == "Rss:" { print $2 * 1024; exit }' "/proc/$C1/smaps")
check_num "sparse: the islands' resident is their Rss (smaps)" \
	"$(awk -F, -v a="$iaddr" 'NR > 1 && $2 == a { print $11 }' "$T/sparsemaps.csv")" "$irss"
# -k with the 1 TiB reservation: its VM in KiB (10 digits and more) widens
# its column, the name gives way, and the rows stay within 80 columns with
# every column's values ending where its head does. The VM each row says
# is its process's /proc/PID/maps summed.
"$EXMAP" -k -p "$ALL" >"$T/k.txt" 2>"$T/k.err"
# ends: where each of a line's last 8 words ends (the figures and their heads)
ends() { awk '{ s = $0; p = 0; e = ""; for (i = 1; i <= NF; i++) { match(s, /[^ ]+/)
	p += RSTART + RLENGTH - 1; s = substr(s, RSTART + RLENGTH); if (i > NF - 8) e = e " " p }
	print e }' "$1" | sort -u | wc -l; }
check_eq "-k with 1 TiB reserved: 80 columns, every column's values ending under its head" \
	"$(awk 'length($0) > 80' "$T/k.txt" | wc -l) $(sed '/^check:/,$d' "$T/k.txt" >"$T/k.rows"; ends "$T/k.rows")" \
	"0 1" "$(cat "$T/k.txt")"
for pid in $WL_PARENT $WL_CHILDREN; do
	check_eq "-k with 1 TiB reserved: pid $pid's VM in KiB whole, as its maps sum" \
		"$(awk -v p="$pid" '$1 == p { print $3 }' "$T/k.txt")" "$(python3 -c '
import sys
print(sum(int(b, 16) - int(a, 16) for a, b in
          (l.split()[0].split("-") for l in open("/proc/%s/maps" % sys.argv[1]))) // 1024)' "$pid")"
done
"$EXMAP" -k -p "$ALL" maps "$WL_PARENT" >"$T/kmaps.txt" 2>"$T/k.err"
# (each line without its path: all as long, the last figure's column the same)
check_eq "-k maps with 1 TiB reserved: 80 columns, the figures' columns aligned" \
	"$(awk 'length($0) > 80' "$T/kmaps.txt" | wc -l) $(sed 's/ [^ ]*$//' "$T/kmaps.txt" |
		awk '{ print length($0) }' | sort -u | wc -l)" "0 1" "$(head -n 4 "$T/kmaps.txt")"
stop_workload

# Progress: on a terminal, after a second, one line, erased when done; never
# when stderr is not a terminal, and never beside CSV. 3 TiB of islands read
# entry by entry (PAGEMAP_SCAN off) take seconds (1 TiB took 0.97 s here:
# too close to the second).
sharing 1 64 0 0 "-I 3145728"
set -- $WL_CHILDREN
PP="$WL_PARENT,$1"
TERM=vt100 EXMAP_PAGEMAP_SCAN=0 script -qec "$EXMAP -p $PP" "$T/tty.out" >/dev/null 2>&1
if grep -aq "processes read; reading pid $WL_PARENT (workload)" "$T/tty.out" &&
	grep -aq "$(printf '\r\033\\[K')  *PID NAME" "$T/tty.out"; then
	ok "progress: shown on a terminal, and erased before the report"
else
	no "progress: shown on a terminal, and erased before the report" "$(cat -v "$T/tty.out" | head -5)"
fi
EXMAP_PAGEMAP_SCAN=0 script -qec "$EXMAP -c -p $PP" "$T/tty.csv" >/dev/null 2>&1
grep -aq 'processes read' "$T/tty.csv" && no "progress: never beside CSV" "$(cat -v "$T/tty.csv" | head -3)" ||
	ok "progress: never beside CSV"
EXMAP_PAGEMAP_SCAN=0 script -qec "$EXMAP -p $PP 2>$T/notty.err" "$T/tty.txt" >/dev/null 2>&1
[ -s "$T/notty.err" ] && no "progress: never when stderr is not a terminal" "$(cat -v "$T/notty.err")" ||
	ok "progress: never when stderr is not a terminal"
stop_workload

# --- sections of a static musl binary: its data segment starts in the last
# file page of its read-only segment, so two segments hold that page.
if [ -x "${MUSL_WORKLOAD:-}" ]; then
	start_workload "$T/mwl.out" "$MUSL_WORKLOAD" -n 2 -d "$T"
	mpids=$(echo "$READY" | tr ' ' ',')
	"$EXMAP" -c -p "$mpids" sections "$MUSL_WORKLOAD" >"$T/msec.csv" 2>"$T/msec.err"; rc=$?
	if [ $rc -eq 0 ] && [ ! -s "$T/msec.err" ]; then ok "musl binary: its sections are placed, no process left out"
	else no "musl binary: its sections are placed, no process left out" "rc $rc: $(cat "$T/msec.err")"; fi
	path=$(awk '/^ready/ { print "/proc/" $2 "/exe" }' "$T/mwl.out")
	path=$(readlink "$path")
	for pid in $(echo "$mpids" | tr ',' ' '); do
		"$EXMAP" -c -p "$mpids" maps "$pid" >"$T/mmaps.csv"
		# the file's mappings, and the anonymous one right after the last
		files=$(awk -F, -v p="$path" 'NR > 1 && $8 == p { s += $11; e = $3 } NR > 1 && $8 == "[anon]" && $2 == e { s += $11 } END { print s }' "$T/mmaps.csv")
		"$EXMAP" -c -p "$pid" sections "$MUSL_WORKLOAD" >"$T/msec1.csv" 2>/dev/null
		secs=$(awk -F, 'NR > 1 { s += $6 } END { print s }' "$T/msec1.csv")
		check_num "musl binary, pid $pid: sections + holes = its mappings (resident)" "$secs" "$files"
	done
	stop_workload
fi

# --- a character device's mapping that holds ordinary pages -----------------
# A private mapping of /dev/zero keeps /dev/zero as its file (maps shows the
# device) but its pages are anonymous memory, which Rss counts: what is RAM
# is the kernel's to say, not the path's. And a capture made before device
# mappings were read page by page (no runs for them) still loads.
start_workload "$T/dz.out" python3 -c '
import mmap, os, sys, time
fd = os.open("/dev/zero", os.O_RDWR)
m = mmap.mmap(fd, 65536, mmap.MAP_PRIVATE, mmap.PROT_READ | mmap.PROT_WRITE)
for i in range(0, 65536, 4096):
    m[i] = 1
print("ready", os.getpid(), flush=True)
time.sleep(300)
'
dz=$WL_PID
"$EXMAP" -c -p $dz maps $dz >"$T/dz.csv" 2>"$T/dz.err"
dzres=$(awk -F, '$8 == "/dev/zero" && $9 == 65536 { print $11 "," $NF }' "$T/dz.csv")
check_eq "a private /dev/zero mapping (device 1): its 64 KiB written are resident" "$dzres" "65536,1"
"$EXMAP" -c -p $dz >"$T/dz.procs"
check_num "a private /dev/zero mapping: the process's resident = Rss" \
	"$(col "$T/dz.procs" pid $dz resident)" "$(rollup $dz Rss)"
"$EXMAP" -p $dz dump >"$T/dz.cap" 2>/dev/null
"$EXMAP" -c -l "$T/dz.cap" maps $dz >"$T/dz.new" 2>&1
# the same capture as an older exmap-mini wrote it: no runs for the device
# (the payload lines after a device's mapping line, till the next process,
# mapping or chunk of counts or build-ids), each chunk closed again
PYTHONPATH=$LIB python3 - "$T/dz.cap" >"$T/dz.old" <<'PY'
import sys
from capwire import info, read, reclose
out, skip = [], False
for l in read(sys.argv[1]):
    kind, k, tag, _ = info(l)
    p = l[tag:]
    if kind == "chunk" and p.startswith(b"m "):
        skip = int(p.split(b" ")[7], 16) & 0x10 != 0
    elif kind == "chunk" and skip and not p.startswith((b"p ", b"c ", b"n ", b"b ")):
        continue
    out.append(l)
sys.stdout.buffer.write(b"".join(reclose(out)))
PY
"$EXMAP" -c -l "$T/dz.old" maps $dz >"$T/dz.oldmaps" 2>"$T/dz.olderr"; rc=$?
check_num "a capture from before (no runs for device mappings): loads, exit 0" "$rc" 0
oldres=$(awk -F, '$8 == "/dev/zero" { print $11 }' "$T/dz.oldmaps")
newres=$(awk -F, '$8 == "/dev/zero" { print $11 }' "$T/dz.new")
check_eq "...its /dev/zero mapping has no pages, as it was written; today's has 64 KiB" "$oldres,$newres" "0,65536"
stop_workload

# --- a process that exits mid-scan ------------------------------------------
# strace holds the victim's first pagemap read while the victim is killed.
sleep 300 &
victim=$!
sleep 300 &
survivor=$!
( sleep 1; kill -KILL $victim ) &
killer=$!
strace -qq -o /dev/null -P "/proc/$victim/pagemap" -e trace=pread64 \
	-e inject=pread64:delay_enter=2000000 "$EXMAP" -p "$victim,$survivor" >"$T/van.txt" 2>"$T/van.err"
rc=$?
wait $killer 2>/dev/null
kill $survivor 2>/dev/null
wait $victim $survivor 2>/dev/null
check_num "vanished mid-scan: exit 0" $rc 0
grep -q '^vanished: 1 process' "$T/van.txt" && ok "vanished mid-scan: noted" ||
	no "vanished mid-scan: noted" "$(cat "$T/van.txt" "$T/van.err")"
grep -q "^ *$survivor " "$T/van.txt" && ! grep -q "^ *$victim " "$T/van.txt" &&
	ok "vanished mid-scan: dropped, the rest reported" || no "vanished mid-scan: dropped, the rest reported"
[ -s "$T/van.err" ] && no "vanished mid-scan: no error message" "$(cat "$T/van.err")" ||
	ok "vanished mid-scan: no error message"
"$EXMAP" -p 2147483647 >"$T/van.txt" 2>&1; rc=$?
check_eq "-p with a pid that is not there: exit 2, no such process" "$rc $(cat "$T/van.txt")" \
	"2 exmap-mini: -p: no such process: pid 2147483647"

# A kernel thread has no user memory: skipped, and said so.
# PF_KTHREAD (0x200000) in the flags, field 9 of /proc/PID/stat (comm has no spaces there)
kthread=$(awk '$9 % 4194304 >= 2097152 { print $1; exit }' /proc/[0-9]*/stat 2>/dev/null)
if [ -n "$kthread" ]; then
	"$EXMAP" -p "$kthread" >"$T/kt.txt" 2>&1; rc=$?
	check_num "kernel thread $kthread: exit 0" $rc 0
	grep -q '^no user memory: 1 process' "$T/kt.txt" && ok "kernel thread: skipped and said so" ||
		no "kernel thread: skipped and said so" "$(cat "$T/kt.txt")"
else
	echo "skip kernel thread test: no kernel thread is visible in /proc"
fi

finish
