#!/bin/sh
# The br2-external tree (toolchain/buildroot/) against Buildroot 2026.02.3,
# the long-term release, unpacked from ../shared/vendor/ into
# build/buildroot/. A Buildroot build needs its own toolchain and the
# sources it downloads, which cannot be had here: what runs is what Buildroot
# does without them.
#   - utils/check-package finds nothing to say about any of its files;
#   - its defconfig (qemu aarch64, Buildroot's kernel) keeps the package and
#     its module enabled through olddefconfig and savedefconfig, and
#     make exmap-mini-show-info shows the package (the program's version,
#     GPL-2.0, this checkout as its source) depending on the kernel (linux);
#   - without a kernel the module's option is gone and so is the dependency;
#     with musl, uClibc-ng or glibc, static or not, the package stays;
#     without an MMU it is not offered;
#   - Buildroot's own command for the package (printvars: its compiler's
#     flags for that system, STATIC as it links), run in a copy of the tree
#     as its local method makes it (no build/), with Debian's glibc cross
#     compiler in place of Buildroot's: builds, and the unit tests pass
#     under qemu-user; a static system's gets -static and STATIC=1;
#   - the module is built by the kernel-module infrastructure, in kmod/.
# Environment: BUILDROOT_TARBALL (default ../shared/vendor/
# buildroot-2026.02.3.tar.xz beside the checkout). Last line: N passed, N failed.
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib/lib.sh
repo=$(pwd)
BRV=buildroot-2026.02.3
TARBALL=${BUILDROOT_TARBALL:-$repo/../shared/vendor/$BRV.tar.xz}
W=$repo/build/buildroot
BR=$W/$BRV
EXT=$repo/toolchain/buildroot
ver=$(sed -n 's/^#define EXMAP_VERSION "\(.*\)"$/\1/p' src/exmap.h)

if [ ! -x "$BR/utils/check-package" ]; then
	rm -rf "$W" && mkdir -p "$W" || { no "$W: cannot create"; finish; }
	tar -C "$W" -xJf "$TARBALL" 2>"$W/unpack.log" ||
		{ no "$TARBALL: unpacked" "$(head -n 2 "$W/unpack.log")"; finish; }
fi
rm -rf "$W"/out-* "$W/src"

# check-package: on stdout, nothing; on stderr, its tally of 0 warnings.
find "$EXT" -type f | sort >"$W/files"
(cd "$BR" && /usr/bin/python3 utils/check-package -b $(cat "$W/files")) >"$W/cp.out" 2>"$W/cp.err"
check_eq "check-package: nothing to say about the $(wc -l <"$W/files") files" \
	"$(cat "$W/cp.out") $(grep -c '^0 warnings generated$' "$W/cp.err")" " 1" \
	"$(head -n 5 "$W/cp.out" "$W/cp.err" | tr '\n' ' ')"

# br NAME ARGS...: make in Buildroot for the output directory out-NAME
br() {
	_o=$W/out-$1
	shift
	make -s -C "$BR" O="$_o" BR2_EXTERNAL="$EXT" "$@" >>"$_o.log" 2>&1
}
# config NAME LINES...: out-NAME configured from these defconfig lines
config() {
	_n=$1
	shift
	mkdir -p "$W/out-$_n" && printf '%s\n' "$@" >"$W/$_n.defconfig" &&
		br "$_n" defconfig BR2_DEFCONFIG="$W/$_n.defconfig"
}
# conf NAME: out-NAME's .config, as set (y or a value) or not
conf() { sed -n "s/^$2=//p" "$W/out-$1/.config"; }
# deps NAME: the package's dependencies, by show-info, one a line
deps() {
	make -s -C "$BR" O="$W/out-$1" exmap-mini-show-info >"$W/$1.info" 2>>"$W/out-$1.log" &&
		/usr/bin/python3 -c '
import json, sys
p = json.load(open(sys.argv[1]))["exmap-mini"]
print("\n".join(p["dependencies"]))
print("version", p["version"], "license", p["licenses"])
print("source", p["downloads"][0]["uris"][0])' "$W/$1.info"
}

# The defconfig, and what olddefconfig and savedefconfig keep.
if br qemu exmap_mini_qemu_aarch64_virt_defconfig; then
	check_eq "exmap_mini_qemu_aarch64_virt_defconfig: the package and its module" \
		"$(conf qemu BR2_PACKAGE_EXMAP_MINI) $(conf qemu BR2_PACKAGE_EXMAP_MINI_MODULE)" "y y"
	br qemu olddefconfig && br qemu savedefconfig BR2_DEFCONFIG="$W/qemu.saved"
	check_eq "olddefconfig keeps them" \
		"$(conf qemu BR2_PACKAGE_EXMAP_MINI) $(conf qemu BR2_PACKAGE_EXMAP_MINI_MODULE)" "y y"
	check_cmd "savedefconfig keeps the package (the module is its default)" \
		has '^BR2_PACKAGE_EXMAP_MINI=y$' "$W/qemu.saved"
	deps qemu >"$W/qemu.deps" 2>&1
	check_cmd "exmap-mini-show-info: it depends on the kernel (linux)" has '^linux$' "$W/qemu.deps"
	check_cmd "exmap-mini-show-info: and on the toolchain" has '^toolchain$' "$W/qemu.deps"
	check_cmd "exmap-mini-show-info: version $ver, GPL-2.0" has "^version $ver license GPL-2.0\$" "$W/qemu.deps"
	check_cmd "exmap-mini-show-info: its source is this checkout" has "^source local+$repo\$" "$W/qemu.deps"
else
	no "exmap_mini_qemu_aarch64_virt_defconfig" "$(tail -n 5 "$W/out-qemu.log" | tr '\n' ' ')"
fi

# Without a kernel, with each C library, without an MMU.
if config nokernel BR2_aarch64=y BR2_PACKAGE_EXMAP_MINI=y; then
	check_eq "no kernel: the package, no module option" \
		"$(conf nokernel BR2_PACKAGE_EXMAP_MINI)/$(grep -c EXMAP_MINI_MODULE "$W/out-nokernel/.config")" "y/0"
	deps nokernel >"$W/nokernel.deps" 2>&1
	check_cmd "no kernel: show-info answers" has '^toolchain$' "$W/nokernel.deps"
	check_cmd "no kernel: no dependency on linux" not grep -qx linux "$W/nokernel.deps"
else
	no "a defconfig without a kernel" "$(tail -n 5 "$W/out-nokernel.log" | tr '\n' ' ')"
fi
# (Buildroot builds glibc systems shared only.)
for spec in MUSL:static UCLIBC:static GLIBC:shared; do
	libc=${spec%:*} link=${spec#*:}
	st=
	[ $link = static ] && st=BR2_STATIC_LIBS=y
	config "$libc" BR2_aarch64=y "BR2_TOOLCHAIN_BUILDROOT_$libc=y" $st BR2_PACKAGE_EXMAP_MINI=y ||
		{ no "a defconfig with $libc"; continue; }
	check_eq "$libc, $link: the package stays" \
		"$(conf "$libc" "BR2_TOOLCHAIN_BUILDROOT_$libc") $(conf "$libc" BR2_STATIC_LIBS) $(conf "$libc" BR2_PACKAGE_EXMAP_MINI)" \
		"y ${st:+y} y"
done
if config nommu BR2_riscv=y BR2_RISCV_64=y "# BR2_RISCV_USE_MMU is not set" BR2_PACKAGE_EXMAP_MINI=y; then
	check_eq "no MMU: not offered" "$(conf nommu BR2_USE_MMU)/$(conf nommu BR2_PACKAGE_EXMAP_MINI)" "/"
else
	no "a defconfig without an MMU" "$(tail -n 5 "$W/out-nommu.log" | tr '\n' ' ')"
fi

# Buildroot's command for the package, with Debian's glibc compiler for its.
mkdir -p "$W/src" && tar -C "$repo" --exclude=./build --exclude=./.git -cf - . | tar -C "$W/src" -xf - ||
	no "a copy of the tree as Buildroot's local method makes it"
# opts NAME: EXMAP_MINI_MAKE_OPTS as Buildroot expands them for out-NAME
# (and the module's command, in $W/NAME.vars)
opts() {
	make -s -C "$BR" O="$W/out-$1" printvars \
		VARS="EXMAP_MINI_MAKE_OPTS EXMAP_MINI_KERNEL_MODULES_BUILD" >"$W/$1.vars" 2>>"$W/out-$1.log" &&
		sed -n 's/^EXMAP_MINI_MAKE_OPTS=//p' "$W/$1.vars"
}
# is_static BINARY, is_dynamic BINARY: readelf finds no INTERP, one
is_static() { ! readelf -lW "$1" | grep -q INTERP; }
is_dynamic() { readelf -lW "$1" | grep -q INTERP; }
# static_opts OPTS: STATIC=1, and -static in LDFLAGS
static_opts() { has ' STATIC=1 ' "$1" && has 'LDFLAGS="[^"]*-static' "$1"; }
for spec in qemu:dynamic MUSL:static; do
	n=${spec%:*} link=${spec#*:}
	o=$(opts "$n")
	[ -n "$o" ] || { no "$n: printvars EXMAP_MINI_MAKE_OPTS"; continue; }
	echo "$o" >"$W/$n.opts"
	case $link in
	static) check_cmd "$n: a static system's command: STATIC=1 and -static in LDFLAGS" \
			static_opts "$W/$n.opts" ;;
	dynamic) check_cmd "$n: a shared one's: STATIC=0" has ' STATIC=0 ' "$W/$n.opts" ;;
	esac
	d=$W/src/build-$n
	# Buildroot's words, then CC: Debian's glibc cross compiler for Buildroot's
	eval "set -- $o"
	if make -C "$W/src" "$@" CC=aarch64-linux-gnu-gcc BUILD="$d" all "$d/unit" >"$W/$n.build" 2>&1; then
		ok "$n: Buildroot's command for the package builds (Debian's aarch64 glibc gcc as its compiler)"
		L=
		[ $link = dynamic ] && L="-L /usr/aarch64-linux-gnu"
		# shellcheck disable=SC2086
		qemu-aarch64-static $L "$d/unit" >"$W/$n.unit" 2>&1
		add_results "$W/$n.unit" "$n: unit tests"
		check_cmd "$n: linked $link (readelf)" "is_$link" "$d/exmap-mini"
	else
		no "$n: Buildroot's command for the package builds" "$(tail -n 5 "$W/$n.build" | tr '\n' ' ')"
	fi
done
check_cmd "the module: the kernel-module infrastructure's make -C LINUX_DIR M=.../kmod modules" \
	has "M=[^ ]*/kmod modules" "$W/qemu.vars"
finish
