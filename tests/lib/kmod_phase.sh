#!/bin/sh
# The kernel module's system test, as a phase of a guest boot
# (tests/qemu/phases; tests/suites/kmod_test.sh runs it on each of its
# targets, and so does tests/run, with the phases other suites attach to the
# same boot): build exmap_mini.ko against the boot's kernel, put it, exmap-mini
# and the workloads in the guest's /test/PHASE (tests/guest/kmod_guest.sh runs
# there), and check on the host what comes back framed over the serial console:
#   - the module builds with no warning and no unexported symbol, loads,
#     and its entry is root's, mode 0600;
#   - on the quiescent workload, kmod and pagemap agree on every figure but
#     writable; eff_resident is the kernel's Pss within 8 KiB;
#   - writable (the PTE's bit, from the module) is exactly what was written;
#   - resident = Rss with each source, and so for each mapping the kernel
#     named ([vvar], [vdso]...): what is RAM there is the kernel's choice;
#   - a non-root user is refused, with a clear message;
#   - what a read fault gives is learned from the guest's kernel
#     (tests/work/readfault.c: its Rss, kpageflags), and then expected: on a kernel
#     with a zero page a range only read is vm only, on one without it is
#     resident, sole and writable (tests/lib/zeropage_checks.sh);
#   - a process that allocates right after exmap-mini's probe keeps all its
#     pages, resident = Rss, with each source (tests/work/afterprobe.c);
#   - scans during fork/exit/mmap/munmap churn (30 s on the RT kernels, our
#     lockdep kernel and trixie-amd64; 10 s on the others) all end and leave
#     no report of a kernel bug in dmesg (tests/lib/dmesg_check.sh: oops, BUG,
#     WARNING, lockdep's reports, hung task...; not a checker's banner);
#   - a sparse address space (a reservation that never holds a page, islands
#     of pages in a large mapping) costs what its pages cost and gives the
#     kernel's figures, with each source and with pagemap without
#     PAGEMAP_SCAN (tests/lib/sparse_checks.sh);
#   - the census of RAM frames from the module adds up to iomem's System
#     RAM, agrees with kpageflags where the kernel has it, and matches
#     meminfo's MemFree, Slab, PageTables and hugetlb pool
#     (tests/lib/census_checks.sh, tests/unit/censusdump.c);
#   - auto picks the module; rmmod succeeds.
# The boots (tests/lib/boots.sh): Debian's kernels (kmod/README.md has the
# matrix) and our own. Targets nopagemap-amd64 and nopagemap-mipsel are our own
# kernels without CONFIG_PROC_PAGE_MONITOR (toolchain/tinykernel; mipsel an
# OpenWrt-like Malta board): there, with no smaps either, resident is checked
# against /proc/PID/statm and sharing against what the workload built.
# Target nozeropage-amd64 is our own lockdep kernel booted with no_zero_page
# (toolchain/tinykernel nozeropage): read faults allocate, pages and huge
# pages, as on hosts with pvm_no_zero_page=1; pagemap, kpageflags and THP on.
# Target trixie-arm64-16k is Debian's kernel of 16 KiB pages (qemu -cpu max,
# build/arm64's binaries). It, trixie-amd64 and trixie-arm64 also run a
# phase of large folios mapped in part (tests/guest/thp_guest.sh, checked by
# tests/lib/thp_checks.sh): PMD huge pages at 16 KiB, multi-size THP at 4 KiB;
# before it a file in PMD-size folios (a tmpfs mounted huge=always) split in
# children by copy-on-write; and on trixie-amd64 after it, 64 KiB folios
# partly paged out to a zram swap device (its modules unpacked from the
# kernel's package: tests/qemu/modules).
# Targets DIST-riscv64 boot on a CPU with Svnapot (trixie's 6.12 at Sv57,
# checked in /proc/cpuinfo; sid's takes the device tree's depth) and run the
# mTHP phase and one of hugetlb pages of 64 KiB (16 PTEs of one value) and
# 2 MiB shared by two processes (tests/guest/napot_guest.sh,
# tests/lib/napot_checks.sh). DIST-riscv64-sv39 and -sv48 boot the same kernel
# at 3 and 4 levels of page tables (no4lvl, no5lvl) on qemu's default CPU.
# Targets DIST-rt-amd64 and DIST-rt-arm64 are Debian's
# PREEMPT_RT kernels (spinlock_t sleeps there), booted as amd64 and arm64 are,
# with the whole churn; /proc/version must say PREEMPT_RT, and dmesg is checked
# as on any other kernel ("BUG: sleeping function called from invalid context",
# "BUG: scheduling while atomic" and RCU's "Voluntary context switch"
# WARNING among the reports).
# Environment: KMOD_STRESS (seconds of the whole churn, 30); KMOD_KO, a module built
# elsewhere (DKMS: tests/lib/dkms_phase.sh) to load instead of building one
# (its vermagic is checked against the kernel's); AFTERPROBE_EXMAP, another
# exmap-mini for the guest to run in the probe-reuse phase (an older build, to
# see the phase catch its bug).
# usage: tests/lib/kmod_phase.sh prefix|prepare|check ENV PHASE [DIR]
# (tests/qemu/phases says what each does).
set -u
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo" || exit 2
. tests/lib/lib.sh	# each name is the target's: TEST_PREFIX is "TARGET: "
cmd=$1 env=$2 phase=$3
. "$env"
target=$boot	# the *_checks.sh name it so
TEST_PREFIX="$target: "
N=4 FILE_KIB=512 COW_KIB=384 PRIV_KIB=128
STRESS=${KMOD_STRESS:-30}

# field CSV KEYCOL KEY FIELD (no quoted commas in the rows looked at)
field() {
	awk -F, -v kc="$2" -v k="$3" -v f="$4" '
		NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
		$h[kc] == k { print $h[f]; exit }' "$1"
}
# rollup FILE FIELD: a field of a guest's smaps_rollup, copied out (lib.sh's
# rollup reads /proc/PID; the *_checks.sh this sources use this one)
rollup() { awk -v f="$2:" '$1 == f { print $2 * 1024 }' "$1"; }
# the guest's command NAME: its exit status, its stderr
rc_of() { cat "$o/$1.rc" 2>/dev/null; }
err_of() { cat "$o/$1.stderr" 2>/dev/null; }
# agree A B: two sources' figures (from figures), not empty and the same
agree() {
	[ -s "$1" ] && cmp -s "$1" "$2" && return 0
	diff "$1" "$2" 2>&1 | head -n 4
	return 1
}
# loads_here LIVE LOADED ERR...: the guest's capture, loaded by this
# machine's exmap-mini, is the report the guest gave (source kmod)
loads_here() {
	_live=$1 _loaded=$2
	shift 2
	grep -q '^source: kmod$' "$_loaded" && cmp -s "$_live" "$_loaded" && return 0
	cat "$@" 2>/dev/null
	diff "$_live" "$_loaded" 2>&1 | head -n 4
	return 1
}
. tests/lib/thp_checks.sh	# thp_mode, thp_checks: large folios
. tests/lib/zeropage_checks.sh	# zp_*: read faults, the probe's pages
. tests/lib/dmesg_check.sh	# dmesg_clean: no report of a kernel bug
. tests/lib/sparse_checks.sh	# sparse_sizes, sparse_checks: a sparse address space
. tests/lib/pidns_checks.sh	# pidns_checks: what the scan cannot see
. tests/lib/census_checks.sh	# census_checks: the census of RAM frames
. tests/lib/napot_checks.sh	# napot_mode, napot_checks: hugetlb of 64 KiB (Svnapot) and 2 MiB

# special_checks PID: each mapping the kernel named ([vvar], [vvar_vclock],
# [vdso]...) is resident as much as the kernel's Rss of it says, with either
# source: the kernel's own treatment (raw frames of VM_PFNMAP or pte_special,
# or ordinary pages of 7.x's [vvar]) decides, not the name.
special_checks() {
	[ -s "$o/special_$1" ] || { no "pid $1: the kernel's Rss of its named mappings came back"; return; }
	while read -r name rss; do
		for b in kmod pagemap; do
			got=$(awk -F, -v n="$name" '$8 == n { s += $11 } END { print s + 0 }' "$o/${b}_maps_$1")
			check_eq "pid $1: $name resident = its Rss, $rss ($b)" "$got" "$rss"
		done
	done <"$o/special_$1"
}

# Every figure but writable, for the given pids, as "pid figures" lines.
figures() {
	awk -F, -v pids=" $2 " '
		NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
		index(pids, " " $1 " ") {
			print $1, $h["vm"], $h["mapped"], $h["resident"], $h["eff_mapped"],
			      $h["eff_resident"], $h["sole"], $h["swap"]
		}' "$1" | sort
}

# lacks ERE FILE: FILE has no line matching ERE, any case (else the first three that do)
lacks() {
	grep -qiE "$1" "$2" || return 0
	grep -iE "$1" "$2" | head -n 3
	return 1
}

# The module (built against the boot's kernel, or KMOD_KO checked), the
# binaries, the guest's scripts and params into DIR, the guest's /test/PHASE.
prepare() {
	dir=$1
	[ -z "$kernel_error" ] || { no "${kernel_error%%:*}" "${kernel_error#*: }"; return 1; }
	# The whole churn where a race shows last: the PREEMPT_RT kernels (a bug
	# there waits for a contended lock: kmod/README.md), our lockdep kernel
	# (nozeropage) and trixie-amd64; a third of it on the others, which run
	# the same module code under the same configuration's checks.
	case $boot in
	*-rt-*|nozeropage-amd64|trixie-amd64) stress=$STRESS ;;
	*) stress=$(((STRESS + 2) / 3)) ;;
	esac
	# the program: the board's build, with the kernel's counts where that
	# leaves them out for room (OUTSIDE=0: the pidns checks need them)
	prog=$bin/exmap-mini
	[ -x "build/$karch-outside/exmap-mini" ] && prog=build/$karch-outside/exmap-mini
	for f in "$prog" "$tools/workload" "$tools/churn" "$tools/runas" "$tools/twice" \
		"$tools/readfault" "$tools/afterprobe" "$tools/mapfile" "$tools/noptrace" \
		"$bin/tools/censusdump" ${thp:+"$tools/thpwork"} \
		${napot:+"$tools/hugework"} ${AFTERPROBE_EXMAP:+"$AFTERPROBE_EXMAP"}; do
		[ -x "$f" ] || { no "$f is not built (make test builds it)"; return 1; }
	done
	if [ -n "${KMOD_KO:-}" ]; then
		# built elsewhere (DKMS): for this very kernel, as its vermagic says
		ko=$KMOD_KO
		check_eq "the module given (KMOD_KO) is for this kernel (its vermagic)" \
			"$(strings "$ko" 2>/dev/null | sed -n 's/^vermagic=\([^ ]*\) .*/\1/p')" \
			"$(sed -n 's/^#define UTS_RELEASE "\(.*\)"$/\1/p' "$kdir/include/generated/utsrelease.h")"
	else
		# boots of one kernel (riscv64 at three depths, ours with other
		# arguments) build into one directory: one at a time
		klog=$w/$phase.kmod.log
		flock "build/.kmod-$(basename "$kdir").lock" make kmod ${karch:+ARCH=$karch} KDIR="$kdir" >"$klog" 2>&1 ||
			{ tail -20 "$klog"; no "module build"; return 1; }
		ok "module built against $(basename "$kdir")"
		# a symbol the kernel does not export: modpost's warning (older kernels) or error
		check_cmd "module build: no warning, no unexported symbol" lacks 'warning|undefined' "$klog"
		ko=$(ls build/*/kmod/"$(basename "$kdir")"/exmap_mini.ko build/kmod/"$(basename "$kdir")"/exmap_mini.ko 2>/dev/null | head -1)
	fi
	cp "$ko" "$prog" "$tools/workload" "$tools/churn" "$tools/runas" "$tools/twice" \
		"$tools/readfault" "$tools/afterprobe" "$tools/mapfile" "$tools/noptrace" \
		"$bin/tools/censusdump" "$dir/" &&
		cp tests/guest/kmod_guest.sh "$dir/guest.sh" &&
		cp tests/guest/sparse_guest.sh tests/guest/pidns_guest.sh "$dir/" || return 1
	[ -z "${AFTERPROBE_EXMAP:-}" ] || cp "$AFTERPROBE_EXMAP" "$dir/exmap-mini.ap" || return 1
	[ -z "$thp" ] || cp "$tools/thpwork" tests/guest/thp_guest.sh "$dir/" || return 1
	# a swap device for the guest: zram and what it needs, from the kernel's
	# package, unpacked once per machine (the cache, beside the package)
	if [ -n "$thpswap" ]; then
		deb=$(toolchain/kernel deb "$kdist" "${karg:-$arch}" image 2>"$w/$phase.deb.log") &&
			mods=${deb%/debs/*}/modules/$(basename "$deb" .deb) && mkdir -p "${mods%/*}" &&
			flock "$mods.lock" tests/qemu/modules "$deb" "$mods" zram ||
			{ cat "$w/$phase.deb.log"; no "zram's modules for the guest"; return 1; }
		cp "$mods"/*.ko "$mods/modules.load" "$dir/" || return 1
	fi
	[ -z "$napot" ] || cp "$tools/hugework" tests/guest/napot_guest.sh "$dir/" || return 1
	eval "$(sparse_sizes "$arch${mmu:+-$mmu}")"
	printf 'N=%s FILE_KIB=%s COW_KIB=%s PRIV_KIB=%s STRESS=%s THP=%s THPSWAP=%s SPARSE_R=%s SPARSE_I=%s CENSUS_HUGE=%s NAPOT=%s\n' \
		$N $FILE_KIB $COW_KIB $PRIV_KIB "$stress" "$thp" "$thpswap" $SPARSE_R $SPARSE_I $CENSUS_HUGE "$napot" \
		>"$dir/params"
	echo $((stress + 420)) >"$w/$phase.budget"
}

# What the target's guest runs besides (prepare's params; check's checks)
thp=$(thp_mode "$target")
thpswap=$(thp_swap_mode "$target")
napot=$(napot_mode "$target")

# The boot and what came back: checked.
check() {
	check_eq "guest booted and powered off" "$boot_rc" 0 "boot exit $boot_rc, see $console"
	[ "$boot_rc" -eq 0 ] || return 1
	o=$w/out/$phase
	if ! tests/qemu/unframe -s "$phase" "$console" "$o" >"$w/$phase.unframe.log" 2>&1; then
		no "results came back whole" "$(cat "$w/$phase.unframe.log")"
		return 1
	fi
	ok "results came back whole over the serial console"
	checks "$o"
}

# The guest's stress phase: scans ran (4 or more) and all ended
stress_ran() {
	set -- $(cat "$o/stress") x x
	within 4 "${1#runs=}" "" >/dev/null && [ "${2#bad=}" = 0 ] && return 0
	head -n 5 "$o/stress_errors"
	return 1
}
# rmmod succeeded and the module is gone
unloaded() {
	[ "$(rc_of rmmod)" = 0 ] && grep -qx gone "$o/lsmod" && return 0
	echo "rc $(rc_of rmmod): $(err_of rmmod)"
	return 1
}
# a non-root user: the module refuses it; smaps_rollup's figures, and a line says so
refused() {
	rc=$(rc_of nonroot)
	case $target in
	nopagemap-*)	# no smaps_rollup to fall back on: refused, and told why
		[ "$rc" = 2 ] && grep -q 'hidden without CAP_SYS_ADMIN' "$o/nonroot.stderr" && return 0 ;;
	*)	[ "$rc" -le 1 ] 2>/dev/null && grep -q '^source: smaps_rollup$' "$o/nonroot" &&
			grep -q '^pfns hidden (no CAP_SYS_ADMIN' "$o/nonroot" && return 0 ;;
	esac
	echo "rc $rc: $(head -c 300 "$o/nonroot") $(err_of nonroot | tail -n 2)"
	return 1
}
# the guest's HighTotal is above 0
highmem() {
	awk '/^High/ { h = h $0 " " } /^HighTotal:/ { t = $2 } END { if (t > 0) exit 0; print h; exit 1 }' \
		"$o/meminfo"
}

checks() {
	o=$1
	check_eq "insmod" "$(rc_of insmod)" 0 "$(err_of insmod)"
	case $target in
	*-rt-*) check_cmd "the kernel is PREEMPT_RT (/proc/version)" has ' PREEMPT_RT ' "$o/version" ;;
	esac
	if [ "$arch" = armhf ]; then
		check_cmd "HIGHMEM in use (page tables can live there)" highmem
	fi
	[ -z "$mmu" ] || check_cmd "the kernel's page tables are $mmu" has "^mmu[[:space:]]*: $mmu\$" "$o/cpuinfo"
	check_cmd "entry is root's, mode 0600" has '^-rw------- *1 0 *0 ' "$o/entry"
	set -- $(sed -n 's/^ready //p' "$o/workload")
	parent=$1
	shift
	children="$*"
	check_cmd "workload ready" test -n "$children"
	zp_learn
	check_cmd "auto picks the module" has '^source: kmod$' "$o/auto"

	check_cmd "self-check holds (kmod)" has '^check: .*: ok$' "$o/auto"
	# This machine's exmap-mini loads the guest's capture to the guest's report.
	"$repo/build/exmap-mini" -l "$o/cap_dump" -k procs >"$o/cap_load" 2>"$o/cap_load.err"
	check_cmd "a capture from the guest loads here to the report it gave (kmod source)" \
		loads_here "$o/cap_live" "$o/cap_load" "$o/cap_err" "$o/cap_load.err"
	kfile=$o/kmod_all
	for pid in $parent $children; do
		if [ -f "$o/rollup_$pid" ]; then
			check_num "pid $pid: eff_resident = Pss (kmod)" "$(field "$kfile" pid "$pid" eff_resident)" \
				"$(rollup "$o/rollup_$pid" Pss)" 8192
			check_eq "pid $pid: resident = Rss (kmod)" "$(field "$kfile" pid "$pid" resident)" \
				"$(rollup "$o/rollup_$pid" Rss)"
			check_eq "pid $pid: resident = Rss (pagemap)" "$(field "$o/pagemap_all" pid "$pid" resident)" \
				"$(rollup "$o/rollup_$pid" Rss)"
			special_checks "$pid"
		else
			check_eq "pid $pid: resident = statm's resident (kmod)" \
				"$(field "$kfile" pid "$pid" resident)" "$(zp_statm "$pid")"
		fi
	done
	# Sharing as built, on every kernel (smaps or not): the N children read
	# the whole file, which the parent maps and never touches; each child
	# rewrote the first half of the cow pages, whose second half it shares
	# with the parent and the N - 1 others; it wrote all its private pages
	# and only read its zero-page region.
	for pid in $children; do
		m=$o/kmod_maps_$pid
		region() {	# PERMS VM FIELD: a field of the anonymous region of that size
			awk -F, -v p="$1" -v v="$2" -v f="$3" \
				'$8 == "[anon]" && $4 == p && $9 == v { print $f }' "$m"
		}
		fres=$(awk -F, '$8 ~ /^\/tmp\/workload/ { print $11 }' "$m")
		feff=$(awk -F, '$8 ~ /^\/tmp\/workload/ { print $13 }' "$m")
		cow=$((COW_KIB * 1024)) priv=$((PRIV_KIB * 1024))
		check_eq "pid $pid: the file is resident whole" "$fres" $((FILE_KIB * 1024))
		check_num "pid $pid: its share of the file read by $N = file / $N" "$feff" $((FILE_KIB * 1024 / N)) 1
		check_eq "pid $pid: cow pages resident whole" "$(region rw-p $cow 11)" $cow
		check_num "pid $pid: cow share = own half + shared half / $((N + 1))" \
			"$(region rw-p $cow 13)" $((cow / 2 + cow / 2 / (N + 1))) 1
		check_eq "pid $pid: private pages resident whole and its own" \
			"$(region rw-p $priv 11) $(region rw-p $priv 14)" "$priv $priv"
		zp_ro_region "$pid" "$(region r--p 65536 11)" "$(region r--p 65536 14)" \
			"$(region r--p 65536 15)"
	done
	if [ "$(cat "$o/pagemap")" = yes ]; then
		figures "$o/kmod_all" "$parent $children $rfpid" >"$o/fig.kmod"
		figures "$o/pagemap_all" "$parent $children $rfpid" >"$o/fig.pagemap"
		check_cmd "kmod and pagemap agree on all figures but writable" agree "$o/fig.kmod" "$o/fig.pagemap"
	else
		check_cmd "no pagemap here: only the module can see pages" test ! -s "$o/pagemap_all"
	fi

	# The PTE's write bit: each region holds exactly what was written.
	for pid in $children; do
		m=$o/kmod_maps_$pid
		cow=$(awk -F, -v v=$((COW_KIB * 1024)) '$8 == "[anon]" && $4 == "rw-p" && $9 == v { print $15 }' "$m")
		priv=$(awk -F, -v v=$((PRIV_KIB * 1024)) '$8 == "[anon]" && $4 == "rw-p" && $9 == v { print $15 }' "$m")
		wfile=$(awk -F, '$8 ~ /^\/tmp\/workload/ { print $15 }' "$m")
		check_eq "pid $pid: writable = the half of the cow pages it rewrote" "$cow" $((COW_KIB * 1024 / 2))
		check_eq "pid $pid: writable = its private pages" "$priv" $((PRIV_KIB * 1024))
		check_eq "pid $pid: writable = 0 for the file it only read" "$wfile" 0
	done
	# The parent wrote its cow pages before forking, and not since: fork
	# write-protected them all, so the PTE's bit is off even for the half
	# that is the parent's alone again (pagemap's estimate counts that half).
	pcow=$(awk -F, -v v=$((COW_KIB * 1024)) '$8 == "[anon]" && $4 == "rw-p" && $9 == v { print $15 }' \
		"$o/kmod_maps_$parent")
	check_eq "parent: writable = 0 for its cow pages (write-protected since the fork)" "$pcow" 0
	zp_checks
	zp_afterprobe

	sparse_checks "$o"
	case $target in
	nopagemap-*) ;;	# no smaps_rollup there: no Pss to judge by
	nozeropage-*) ;;	# our tinyconfig kernel: no PID or user namespaces
	*) pidns_checks "$o" kmod $(grep -qx yes "$o/pagemap" && echo pagemap) ;;
	esac
	census_checks "$o"
	[ -z "$thp" ] || thp_checks "$o"
	[ -z "$napot" ] || napot_checks "$o"
	check_cmd "non-root: the module refuses it: smaps_rollup's figures, and the line that says so" refused
	check_cmd "stress: scans ran and all ended ($(cat "$o/stress"))" stress_ran
	check_cmd "stress: the churn ran" has '^churn: [1-9][0-9]* processes' "$o/churn"
	check_cmd "dmesg: no report of a kernel bug (oops, BUG, WARNING, lockdep, hung task...)" \
		dmesg_clean "$o/dmesg"
	check_cmd "rmmod" unloaded
}

case $cmd in
prefix) printf '%s' "$TEST_PREFIX" ;;
prepare) prepare "$4" || { no "stopped early"; exit 1; } ;;
check) check; [ "$fail" -eq 0 ] ;;
*) echo "usage: tests/lib/kmod_phase.sh prefix|prepare|check ENV PHASE [DIR]" >&2; exit 2 ;;
esac
