#!/bin/sh
# The Debian packages (make deb, toolchain/debian/), built in a clean clone
# of this repository (its committed tree, in build/pkg/clone, which
# dkms_test.sh then installs from):
#   - make deb (this machine, amd64, with the source package), make deb
#     ARCH=arm64 and ARCH=armhf give exmap-mini for that machine and
#     exmap-mini-dkms;
#   - lintian --pedantic: no error and no warning (its overrides give their
#     reasons); what it says below that is shown;
#   - exmap-mini holds the binary in /usr/sbin, static, built with musl (no
#     glibc ABI tag), for the package's machine (readelf), running there
#     (qemu-user for arm64 and armhf): -V is the source's version; the
#     manual page in section 8, the source's page but for its .Dt line; its
#     changelog and copyright; nothing else;
#   - exmap-mini-dkms holds kmod/'s Kbuild and C as they are in /usr/src/
#     exmap-mini-VERSION/, and kmod/dkms.conf with the version filled in;
#     kmod/README.md as its documentation;
#   - a changelog at another version than src/exmap.h's: make deb refuses,
#     naming both, before building anything.
# Needs: toolchain/setup pkg (dpkg-dev, debhelper, dh-dkms, lintian), the
# cross compilers and musl-dev:arm64/armhf, qemu-user-static.
# Last line: N passed, N failed.
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib/lib.sh
repo=$(pwd)
P=build/pkg
C=$P/clone
ver=$(sed -n 's/^#define EXMAP_VERSION "\(.*\)"$/\1/p' src/exmap.h)
rm -rf "$P" && mkdir -p "$P" || { no "$P: cannot create"; finish; }
if ! git clone -q "$repo" "$C" 2>"$P/clone.log"; then
	no "a clean clone" "$(cat "$P/clone.log")"
	finish
fi
ok "a clean clone of the repository ($(git -C "$C" log -1 --format=%h))"

# files DEB: the package's files (not its directories), one a line
files() { dpkg-deb -c "$1" | awk '$1 !~ /^d/ { print $NF }' | sort; }
# lintian_clean CHANGES: no E: or W: line (as root it says so first: not a tag)
lintian_clean() {
	lintian --pedantic -I "$1" >"$1.lintian" 2>&1
	grep -E '^[EW]: ' "$1.lintian" && return 1
	return 0
}

# dkms_conf CONF TMP: kmod/dkms.conf with the version filled in
dkms_conf() {
	has "^PACKAGE_VERSION=\"$ver\"\$" "$1" || return 1
	sed 's/^PACKAGE_VERSION=.*/PACKAGE_VERSION="#MODULE_VERSION#"/' "$1" >"$2"
	same_file "$2" "$C/kmod/dkms.conf"
}

for spec in amd64::X86-64:native arm64:arm64:AArch64:qemu-aarch64-static armhf:armhf:ARM:qemu-arm-static; do
	deb=${spec%%:*} rest=${spec#*:}
	arch=${rest%%:*} rest=${rest#*:}
	machine=${rest%%:*} run=${rest#*:}
	[ "$run" = native ] && run=
	n="make deb${arch:+ ARCH=$arch}"
	d=$C/build/deb/$deb
	if ! make -s -C "$C" deb ${arch:+ARCH=$arch} >"$P/$deb.log" 2>&1; then
		no "$n: builds" "$(tail -n 8 "$P/$deb.log" | tr '\n' ' ')"
		continue
	fi
	prog=$d/exmap-mini_${ver}_$deb.deb dkms=$d/exmap-mini-dkms_${ver}_all.deb
	check_cmd "$n: exmap-mini_${ver}_$deb.deb and exmap-mini-dkms_${ver}_all.deb" \
		test -s "$prog" -a -s "$dkms"
	[ -s "$prog" ] && [ -s "$dkms" ] || continue
	check_cmd "$n: lintian, no error and no warning" lintian_clean "$d/exmap-mini_${ver}_$deb.changes"
	grep -E '^[A-Z]: ' "$d/exmap-mini_${ver}_$deb.changes.lintian" | sed 's/^/  lintian says /'

	files "$prog" >"$P/$deb.files"
	printf '%s\n' ./usr/sbin/exmap-mini ./usr/share/doc/exmap-mini/changelog.gz \
		./usr/share/doc/exmap-mini/copyright ./usr/share/lintian/overrides/exmap-mini \
		./usr/share/man/man8/exmap-mini.8.gz >"$P/want.files"
	check_cmd "$n: exmap-mini holds the binary in /usr/sbin, its page in section 8, its changelog and copyright" \
		same_file "$P/$deb.files" "$P/want.files"
	x=$P/$deb.root
	rm -rf "$x" && dpkg-deb -x "$prog" "$x"
	readelf -hlnW "$x/usr/sbin/exmap-mini" >"$P/$deb.elf" 2>&1
	check_cmd "$n: the binary is for $machine" has "Machine:.*$machine" "$P/$deb.elf"
	check_cmd "$n: static (no INTERP), with musl (no glibc ABI tag)" not grep -qE 'INTERP|NT_GNU_ABI_TAG' "$P/$deb.elf"
	check_eq "$n: the binary runs${run:+ ($run)}: -V" "$($run "$x/usr/sbin/exmap-mini" -V 2>&1)" "exmap-mini $ver"
	zcat "$x/usr/share/man/man8/exmap-mini.8.gz" >"$P/$deb.page"
	check_cmd "$n: the page says section 8" has '^\.Dt EXMAP-MINI 8$' "$P/$deb.page"
	sed 's/^\.Dt EXMAP-MINI 8$/.Dt EXMAP-MINI 1/' "$P/$deb.page" >"$P/$deb.page1"
	check_cmd "$n: the page is the source's (but for its section)" same_file "$P/$deb.page1" "$C/src/exmap-mini.1"

	files "$dkms" | grep '^\./usr/src/' >"$P/$deb.dkms"
	files "$dkms" | grep '^\./usr/share/doc/' >"$P/$deb.dkmsdoc"
	(cd "$C/kmod" && ls Kbuild dkms.conf ./*.c ./*.h) | sed "s|^\(\./\)*|./usr/src/exmap-mini-$ver/|" |
		sort >"$P/want.dkms"
	check_cmd "$n: exmap-mini-dkms holds kmod/'s Kbuild, C and dkms.conf in /usr/src/exmap-mini-$ver" \
		same_file "$P/$deb.dkms" "$P/want.dkms"
	check_cmd "$n: and kmod/README.md as its documentation" \
		has "^\./usr/share/doc/exmap-mini-dkms/README\.md" "$P/$deb.dkmsdoc"
	y=$P/$deb.dkmsroot
	rm -rf "$y" && dpkg-deb -x "$dkms" "$y"
	src=$y/usr/src/exmap-mini-$ver
	same=0 all=0
	for f in "$C"/kmod/Kbuild "$C"/kmod/*.c "$C"/kmod/*.h; do
		b=${f##*/}
		all=$((all + 1))
		cmp -s "$f" "$src/$b" && same=$((same + 1))
	done
	check_cmd "$n: its sources are kmod/'s as they are ($same of $all)" test "$same" -eq "$all" -a "$all" -gt 2
	check_cmd "$n: its dkms.conf is kmod/'s, at version $ver" dkms_conf "$src/dkms.conf" "$P/$deb.dkmsconf"
done

# The changelog behind src/exmap.h: refused before anything is built (the
# packages built above are left as they were).
sed -i '1s/([^)]*)/(0.0.1)/' "$C/toolchain/debian/changelog"
ls -lR --full-time "$C/build/deb" >"$P/debs.before" 2>&1
make -s -C "$C" deb >"$P/oldlog.out" 2>&1
rc=$?
check_eq "a changelog at 0.0.1 and the program at $ver: make deb refuses (exit 2 from make)" "$rc" 2
check_cmd "... naming both versions" has "changelog is at 0.0.1, src/exmap.h at $ver" "$P/oldlog.out"
ls -lR --full-time "$C/build/deb" >"$P/debs.after" 2>&1
check_cmd "... before building anything (build/deb as it was)" same_file "$P/debs.after" "$P/debs.before"
git -C "$C" checkout -q toolchain/debian/changelog
finish
