#!/bin/sh
# The ram view in a qemu guest, as a phase of a guest boot
# (tests/qemu/phases; tests/suites/ram_qemu.sh runs it alone): the guest
# side is tests/guest/ram_guest.sh, first in the guest, on the quiet guest.
# Each case is a boot (tests/lib/boots.sh), and the case is the boot's:
#   amd64 (boot trixie-amd64)
#             Debian trixie's kernel: installed is qemu's -m exactly, from
#             SMBIOS's memory devices; the census (kpageflags) is iomem's
#             System RAM frame for frame, its free is MemFree (these kernels
#             mark every frame of a free block) and its slab, page tables
#             and shmem are meminfo's within 1% of RAM;
#   armhf (bookworm-armhf-ramfs)
#             Debian bookworm's armmp kernel, qemu-system-arm -M virt:
#             installed is -m, from the device tree's memory node; no
#             reserved-memory region, none shown; the census as on amd64;
#             booted with rootfstype=ramfs, so that its initramfs is a
#             ramfs (as on a kernel without tmpfs), the others' a tmpfs;
#   armhf-dt (bookworm-armhf-dt)
#             the same board with a reserved-memory node added to its device
#             tree (qemu's own, dumped, decompiled, a no-map region of 8 MiB
#             added, compiled, booted with -dtb): the region is shown by its
#             name and size, it is firmware's (outside System RAM), and
#             installed is still -m;
#   nopagemap (nopagemap-amd64)
#             our 6.1 without CONFIG_PROC_PAGE_MONITOR (toolchain/tinykernel),
#             the view from the counters alone before the module is loaded
#             (exit 1, no process scanned, said), then with the module (the
#             page source there, and the census's, held to the same truths
#             as kpageflags' elsewhere); installed is iomem's System RAM (no
#             SMBIOS in sysfs there);
#   headonly (nozeropage-amd64-headonly)
#             our 6.1 with pagemap (toolchain/tinykernel nozeropage) booted
#             with kpageflags_buddy_head_only: kpageflags marks a free
#             block's first frame only, as kernels before 4.6 did; the
#             census infers the rest: its free is MemFree within 1% of RAM,
#             other kernel is not inflated by free memory, and
#             tests/lib/census_checks.sh (censusdump, the module loaded) holds
#             the inference to the module's census, which reads each block's
#             order, and to buddyinfo;
#   outside (nozeropage-amd64-outside)
#             the same kernel booted with free_outside_buddy=OUTSIDE_MIB M:
#             that much taken from the buddy allocator and still counted in
#             MemFree, as on this machine's kernel (deferred_init=lazy): the
#             census counts it free outside the buddy allocator, a line of
#             its own, by kpageflags and by the module.
# In every case: the CSV's parts add up to MemTotal to the byte, MemTotal is
# the guest's /proc/meminfo, reserved at boot is installed less MemTotal and
# its rows add up to that, no part but unexplained is below zero, the kernel
# image's rows are iomem's ranges, the initramfs's files are named under the
# root's filesystem (tmpfs or ramfs, as the guest's statfs says) with their
# blocks, and a file of TMPFS_MIB MiB written to a tmpfs is named with its
# size and grows "unmapped shmem" by as much. Each boot is of MEM_MIB MiB.
# usage: tests/lib/ram_phase.sh prefix|prepare|check ENV PHASE [DIR]
# (tests/qemu/phases says what each does).
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib/lib.sh
. tests/lib/census_checks.sh
cmd=$1 env=$2 phase=$3
. "$env"
MEM_MIB=${mem%M} TMPFS_MIB=16
MIB=1048576

# ram_case BOOT: the case a boot is (empty: none)
ram_case() {
	case $1 in
	trixie-amd64) echo amd64 ;;
	bookworm-armhf-ramfs) echo armhf ;;
	bookworm-armhf-dt) echo armhf-dt ;;
	nopagemap-amd64) echo nopagemap ;;
	nozeropage-amd64-headonly) echo headonly ;;
	nozeropage-amd64-outside) echo outside ;;
	esac
}
c=$(ram_case "$boot")
TEST_PREFIX="${c:-$boot}: "

# row CSV CATEGORY SUBCATEGORY [NAME]: that row's bytes (the first)
row() {
	awk -F, -v c="$2" -v s="$3" -v n="${4:-}" '$1 == c && $2 == s && $3 == n { print $4; exit }' "$1"
}
# rows CSV CATEGORY: how many rows of that category
rows() { awk -F, -v c="$2" '$1 == c' "$1" | wc -l; }
# parts CSV: the parts of MemTotal, summed
parts() { awk -F, '$1 == "part" { s += $4 } END { printf "%.0f", s }' "$1"; }
# reserved CSV: the rows of reserved at boot, summed (not those within MemTotal)
reserved() {
	awk -F, '$1 == "reserved" && $2 !~ /within MemTotal/ { s += $4 } END { printf "%.0f", s }' "$1"
}
# negative CSV: the parts below zero but unexplained, "name bytes" a line
negative() {
	awk -F, '$1 == "part" && $2 != "unexplained" && $4 < 0 { print $2, $4 }' "$1"
}
mi() { echo $(($(awk -v k="$2:" '$1 == k { print $2 }' "$1") * 1024)); }
# iomem FILE WHAT: System RAM's bytes (sysram), its frames' bytes, each
# range rounded in to PAGE (frames), or the bytes of the kernel image's
# ranges within it (code, data: data and rodata, bss)
iomem() {
	python3 - "$1" "$2" "${PAGE:-4096}" <<'EOF'
import re, sys
f, what, page = sys.argv[1], sys.argv[2], int(sys.argv[3])
s = 0
for l in open(f):
    m = re.match(r"( *)([0-9a-f]+)-([0-9a-f]+) : (.*)$", l.rstrip("\n"))
    if not m:
        continue
    a, b, name = int(m.group(2), 16), int(m.group(3), 16) + 1, m.group(4)
    top = m.group(1) == ""
    if what == "sysram" and top and name == "System RAM":
        s += b - a
    elif what == "frames" and top and name == "System RAM":
        s += max(0, (b // page) * page - (a + page - 1) // page * page)
    elif what == "code" and name == "Kernel code":
        s += b - a
    elif what == "data" and name in ("Kernel data", "Kernel rodata"):
        s += b - a
    elif what == "bss" and name == "Kernel bss":
        s += b - a
print(s)
EOF
}
# lacks_rows CSV CATEGORY SUBCATEGORY: no such row (else the rows)
lacks_rows() {
	awk -F, -v c="$2" -v s="$3" '$1 == c && $2 == s { print; bad = 1 } END { exit bad }' "$1"
}
# after FILE ERE1 ERE2: the line after the first matching ERE1 matches ERE2
after() {
	awk -v a="$2" -v b="$3" 'hit { ok = $0 ~ b; exit } $0 ~ a { hit = 1 } END { exit !ok }' "$1" &&
		return 0
	grep -A1 -E "$2" "$1" | tr '\n' ';'
	return 1
}
# none FILE: FILE empty (else what it holds)
none() {
	[ ! -s "$1" ] && return 0
	tr '\n' ';' <"$1"
	return 1
}

# The checks every case makes.
common() {
	csv=$o/csv t1=$o/csv_t
	check_eq "exmap-mini -c ram, then -c ram and ram with a file in tmpfs: exit 0" \
		"$(cat "$o/csv.rc" "$o/csv_t.rc" "$o/ram.rc" | tr '\n' ' ')" "0 0 0 " \
		"$(head -c 300 "$o/csv.stderr" 2>/dev/null)"
	check_cmd "the CSV's head" has '^category,subcategory,name,bytes,source$' "$csv"
	total=$(row "$csv" memtotal "")
	check_eq "MemTotal is the guest's /proc/meminfo ($total)" "$total" "$(mi "$o/memtotal" MemTotal)"
	for f in "$csv" "$t1"; do
		check_eq "the parts add up to MemTotal exactly ($(basename "$f"))" "$(parts "$f")" \
			"$(row "$f" memtotal "")"
		negative "$f" >"$f.neg"
		check_cmd "no part but unexplained below zero ($(basename "$f"))" none "$f.neg"
	done
	installed=$(row "$csv" installed "")
	check_eq "reserved at boot's rows add up to installed less MemTotal" \
		"$(($(reserved "$csv") - firmware_regions))" $((installed - total))
	check_cmd "text: reserved at boot is a line" has '^  reserved at boot ' "$o/ram"
	check_cmd "text: unexplained is a line" has '^    unexplained ' "$o/ram"
	check_eq "text: no line of the report over 80 columns" \
		"$(awk '!/^note: / && length($0) > 80' "$o/ram" | wc -l)" 0
	bss=$(iomem "$o/iomem" bss)
	check_eq "kernel code: iomem's ranges, source iomem" \
		"$(awk -F, '$1 == "reserved" && $2 == "kernel code" { print $4, $5 }' "$csv")" \
		"$(iomem "$o/iomem" code) iomem"
	if [ "${bss:-0}" -gt 0 ]; then
		for k in data bss; do
			check_eq "kernel $k: iomem's ranges, source iomem" \
				"$(awk -F, -v s="kernel $k" '$1 == "reserved" && $2 == s { print $4, $5 }' "$csv")" \
				"$(iomem "$o/iomem" $k) iomem"
		done
	else	# arm: iomem's Kernel data holds bss
		check_eq "kernel data and bss (iomem has no Kernel bss): iomem's data, source iomem" \
			"$(awk -F, '$1 == "reserved" && $2 == "kernel data and bss" { print $4, $5 }' "$csv")" \
			"$(iomem "$o/iomem" data) iomem"
	fi
	# the initramfs: every file of it is RAM, named under the root's filesystem
	case $(cat "$o/rootfs") in
	1021994) rootfs=tmpfs ;;
	858458f6) rootfs=ramfs ;;
	*) rootfs="? ($(cat "$o/rootfs"))" ;;
	esac
	while read -r path size blocks; do
		case $rootfs in
		tmpfs) want=$((blocks * 512)) ;;
		*) want=$(((size + PAGE - 1) / PAGE * PAGE)) ;;
		esac
		check_eq "the initramfs is $rootfs: $path is named there, $want bytes" \
			"$(row "$csv" detail "$rootfs" "$path")" "$want"
	done <"$o/files"
	# a file in a tmpfs
	f=/mnt/ram/big
	check_eq "tmpfs: $f is named with its $TMPFS_MIB MiB" "$(row "$t1" detail tmpfs $f)" $((TMPFS_MIB * MIB))
	check_cmd "tmpfs: no $f before it was written" not has ",$f," "$csv"
	check_num "tmpfs: unmapped shmem grows by $TMPFS_MIB MiB" \
		$(($(row "$t1" part "unmapped shmem") - $(row "$csv" part "unmapped shmem"))) $((TMPFS_MIB * MIB)) \
		$((256 * 1024))
	check_cmd "text: $f is a line" has "^      $f  *${TMPFS_MIB}M " "$o/ram"
}

# The census from SOURCE (kpageflags, else the module), against iomem and the
# view's own meminfo figures; free (the free lines: the buddy allocator's and
# MemFree's outside it) is MemFree within FREE_TOL bytes.
census() {	# SOURCE FREE_TOL
	csv=$o/csv
	check_eq "census: source $1" "$(awk -F, '$1 == "census" && $2 == "census" { print $5 }' "$csv")" \
		"$1"
	check_eq "census: every frame of iomem's System RAM" "$(row "$csv" census census)" \
		"$(iomem "$o/iomem" frames)"
	check_eq "census: the kinds add up to it (mapped and THP run across them)" \
		"$(awk -F, '$1 == "census" && $2 != "census" && $2 !~ /across kinds/ { s += $4 }
			END { printf "%.0f", s }' "$csv")" "$(row "$csv" census census)"
	c() { v=$(row "$csv" census "$1"); echo "${v:-0}"; }
	p() { v=$(row "$csv" part "$1"); echo "${v:-0}"; }
	tol=$((installed / 100))
	# MemFree counts the buddy allocator's free pages (and on kernels that
	# hand memory to it lazily, what they have not yet), and kpageflags
	# marks every frame of a free block (or its first, the rest inferred):
	# the same, but for what left or joined the buddy lists between the two
	# reads (exmap-mini's own pages, the per-cpu lists refilled and drained
	# 63 pages at a time)
	free=$(($(c free) + $(c "free outside the buddy allocator")))
	check_num "census: free = MemFree within $2 bytes ($((free - $(p free))) apart)" "$free" \
		"$(p free)" "$2"
	check_num "census: slab = SReclaimable + SUnreclaim, within 1% of RAM" "$(c slab)" \
		$(($(p "slab reclaimable") + $(p "slab unreclaimable"))) "$tol"
	check_num "census: page tables = PageTables, within 1% of RAM" "$(c "page tables")" "$(p "page tables")" "$tol"
	check_num "census: shmem = Shmem, within 1% of RAM" "$(c shmem)" \
		$(($(p "process shmem") + $(p "unmapped shmem"))) "$tol"
	# other kernel memory is what is neither free nor anything named
	check_cmd "census: other kernel ($(c "other kernel")) <= MemTotal - MemFree, within 1% of RAM" \
		within 0 "$(c "other kernel")" $((total - $(p free) + tol))
	check_cmd "census: no line says it disagrees with meminfo" not has '^census: over 1% of RAM apart' "$o/ram"
}

# Debian's kernels and ours as they boot: every frame of a free block marked,
# MemTotal what the zones manage.
mainline() {
	check_cmd "no line says first frames only are marked" not has 'first frames only' "$o/ram"
	check_cmd "nothing counted free outside the buddy allocator" \
		lacks_rows "$o/csv" census "free outside the buddy allocator"
}

checks() {
	o=$1
	firmware_regions=0
	PAGE=4096
	[ $c = armhf-dt ] && firmware_regions=$REGION_BYTES	# no-map: firmware's, listed within it
	common
	case $c in
	amd64)
		check_eq "installed is qemu's -m ($MEM_MIB MiB), from SMBIOS" \
			"$(awk -F, '$1 == "installed" { print $4, $5 }' "$o/csv")" "$((MEM_MIB * MIB)) smbios"
		check_cmd "qemu gives SMBIOS memory devices (type 17)" has '^17-0$' "$o/dmi"
		census kpageflags $MIB
		mainline ;;
	armhf|armhf-dt)
		check_eq "installed is qemu's -m ($MEM_MIB MiB), from the device tree" \
			"$(awk -F, '$1 == "installed" { print $4, $5 }' "$o/csv")" "$((MEM_MIB * MIB)) devicetree"
		census kpageflags $MIB
		mainline ;;
	headonly|outside)
		check_eq "insmod" "$(cat "$o/insmod.rc")" 0 "$(cat "$o/insmod.stderr" 2>/dev/null)"
		census kpageflags $((installed / 100))
		CENSUS_KERNEL=$c CENSUS_OUTSIDE_MIB=$OUTSIDE_MIB
		census_checks "$o"
		if [ $c = headonly ]; then
			check_cmd "text: a line says kpageflags marks first frames only, and what was inferred" \
				has '^census: kpageflags marks free blocks. first frames only: .* inferred free$' "$o/ram"
			check_cmd "no free outside the buddy allocator here" \
				lacks_rows "$o/csv" census "free outside the buddy allocator"
		else
			check_cmd "text: free outside the buddy allocator is a line, from zoneinfo" \
				has "^  free outside the buddy allocator  *[0-9.]*[KMG] .* zoneinfo\$" "$o/ram"
			check_cmd "no line says first frames only are marked" not has 'first frames only' "$o/ram"
		fi ;;
	nopagemap)
		check_eq "no pagemap, no module: ram still prints, exit 1 (no process scanned)" \
			"$(cat "$o/nomod.rc") $(cat "$o/nomod_csv.rc")" "1 1"
		check_cmd "no pagemap, no module: a note says no process was scanned" \
			has '^note: no page source (no pagemap, no module): no process was scanned$' "$o/nomod"
		check_eq "no pagemap, no module: the parts still add up to MemTotal" \
			"$(awk -F, '$1 == "part" { s += $4 } END { printf "%.0f", s }' "$o/nomod_csv")" \
			"$(awk -F, '$1 == "memtotal" { print $4 }' "$o/nomod_csv")"
		check_eq "insmod" "$(cat "$o/insmod.rc")" 0 "$(cat "$o/insmod.stderr" 2>/dev/null)"
		check_eq "installed is iomem's System RAM (no SMBIOS in sysfs here)" \
			"$(awk -F, '$1 == "installed" { print $4, $5 }' "$o/csv")" "$(iomem "$o/iomem" sysram) iomem"
		# no kpageflags here: the census is the module's, held to the same truths
		census kmod $MIB
		mainline
		check_cmd "no note says there is no census" not has '^note: no census' "$o/ram"
		check_cmd "a note says why slab caches are not named (no /proc/slabinfo)" \
			has '^note: no /proc/slabinfo (SLOB' "$o/ram" ;;
	esac
	case $c in
	armhf)
		check_cmd "no reserved-memory in the board's device tree" not test -s "$o/resmem"
		check_cmd "no region shown" lacks_rows "$o/csv" reserved region ;;
	armhf-dt)
		check_cmd "the guest's device tree has the region" has "^$REGION\$" "$o/resmem"
		check_eq "the region is shown by its name and size, from the device tree" \
			"$(grep "^reserved,region," "$o/csv")" "reserved,region,$REGION,$REGION_BYTES,devicetree"
		check_cmd "text: the region is the line after firmware, within it" \
			after "$o/ram" "^    firmware  *8.0M " "^      $REGION  *8.0M .* devicetree\$"
		check_eq "no-map: the region is outside System RAM, firmware's" \
			"$(row "$o/csv" reserved firmware)" \
			$((installed - $(iomem "$o/iomem" sysram)))
		check_eq "no-map: firmware is the region ($REGION_BYTES)" "$(row "$o/csv" reserved firmware)" \
			$REGION_BYTES ;;
	esac
}


# A case's files: exmap-mini (and on our kernels the module and censusdump).
prepare() {
	dir=$1
	[ -n "$c" ] || { no "$boot: not a boot of the ram view's cases"; return 1; }
	[ -z "$kernel_error" ] || { no "${kernel_error%%:*}" "${kernel_error#*: }"; return 1; }
	[ -x "$bin/exmap-mini" ] || { no "$bin/exmap-mini is not built (make test builds it)"; return 1; }
	case $c in
	headonly|outside)
		[ -x "$bin/tools/censusdump" ] ||
			{ no "$bin/tools/censusdump is not built (make test builds it)"; return 1; }
		cp "$bin/tools/censusdump" "$dir/" || return 1 ;;
	esac
	if [ $kind = tiny ]; then
		# the module's build dir is the kernel's name: one build at a time
		flock "build/.kmod-$(basename "$kdir").lock" make kmod KDIR="$kdir" >"$w/$phase.kmod.log" 2>&1 ||
			{ tail -20 "$w/$phase.kmod.log"; no "module build"; return 1; }
		cp "build/kmod/$(basename "$kdir")/exmap_mini.ko" "$dir/" || return 1
	fi
	cp "$bin/exmap-mini" "$dir/" && cp tests/guest/ram_guest.sh "$dir/guest.sh" || return 1
	printf 'CASE=%s TMPFS_MIB=%s\n' "$c" $TMPFS_MIB >"$dir/params"
	echo 300 >"$w/$phase.budget"
}

# The boot and what came back: checked.
check() {
	phase_back || return
	echo "--- $c: exmap-mini ram"
	cat "$o/ram"
	echo "---"
	# busybox time: "real 0m 0.21s" on stderr (TCG: an emulated board's pace)
	echo "ram view on the emulated $c board ($MEM_MIB MiB, qemu TCG): $(grep -o 'real.*' "$o/cost.stderr" 2>/dev/null | head -1 | tr '\t' ' ')"
	checks "$o"
	# the guest left as found, for the phases after this one
	[ ! -f "$w/test/$phase/exmap_mini.ko" ] ||
		check_eq "the module unloaded after" "$(cat "$o/rmmod.rc" 2>/dev/null)" 0 "$(cat "$o/rmmod.stderr" 2>/dev/null)"
}

case $cmd in
prefix) printf '%s' "$TEST_PREFIX" ;;
prepare) prepare "$4" ;;
check) check; [ "$fail" -eq 0 ] ;;
*) echo "usage: tests/lib/ram_phase.sh prefix|prepare|check ENV PHASE [DIR]" >&2; exit 2 ;;
esac
