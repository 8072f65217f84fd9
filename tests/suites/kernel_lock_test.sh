#!/bin/sh
# toolchain/kernel's choice between a suite's index and toolchain/kernels.lock,
# and toolchain/mirror's reading of apt sources, against a local archive built
# here (no network; whatever state the real mirror is in): small .debs made
# with dpkg-deb, Packages indexes, a Release signed with a key made for the
# run (KERNEL_KEYRING), served as file:// (KERNEL_MIRROR) under a private
# KERNEL_DIR and KERNEL_LOCK. The truth is computed here: each .deb's SHA256
# with sha256sum, each pool path from where the test put it. An index is made
# to fail verification by changing it after Release was written (its size, or
# only its bytes). `toolchain/kernel download` is fetch's resolve-and-download
# step (fetch then unpacks real kernel headers, which these .debs are not).
# Also: the package layout of 6.19 on (linux-binary, linux-base), an ABI
# named instead of the newest, which kernel is the newest (headers there,
# the flavour's own, signed first), a backports suite over its base, and a
# PREEMPT_RT flavour (rt-amd64: its headers' common part is -common-rt).
# And the pool of packages kept across runs (the machine's cache,
# toolchain/cache.sh): a damaged or cut-short file in it is fetched again,
# said, never used; a run with everything cached downloads nothing.
# Needs dpkg-deb, gpg, apt. Last line: N passed, N failed.
set -u
cd "$(dirname "$0")/../.." || exit 2
repo=$(pwd)
kernel=$repo/toolchain/kernel
. tests/lib/lib.sh

T=$(mktemp -d /tmp/kernel-lock.XXXXXX) || exit 2
GNUPGHOME=$T/gnupg
export GNUPGHOME
trap 'gpgconf --kill gpg-agent 2>/dev/null; rm -rf "$T"' EXIT
trap 'no interrupted; finish' INT TERM HUP

for t in dpkg-deb gpg gpgconf apt-get sha256sum; do
	command -v $t >/dev/null 2>&1 || { no "tools" "$t: not found (apt-get install dpkg gnupg apt)"; finish; }
done

A=$T/archive
pool=pool/main/l/linux

# deb NAME VERSION ARCH DEPENDS DIR: a small package in $A/DIR; prints its pool path.
deb() {
	b=$T/src/$1_$2_$3
	mkdir -p "$b/DEBIAN" "$b/usr/share/doc/$1" "$A/$5" || exit 2
	{
		echo "Package: $1"
		echo "Version: $2"
		echo "Architecture: $3"
		echo "Maintainer: test <test@invalid>"
		[ -z "$4" ] || echo "Depends: $4"
		echo "Description: $1 for the kernel lock test"
	} >"$b/DEBIAN/control"
	echo "$1 $2 $3" >"$b/usr/share/doc/$1/what"
	dpkg-deb --root-owner-group -Zgzip -b "$b" "$A/$5/$1_$2_$3.deb" >/dev/null || exit 2
	echo "$5/$1_$2_$3.deb"
}
# sum FILE: its SHA256.
sum() { sha256sum <"$1" | cut -c 1-64; }

# The kernels: 1.0.1 (the locked one) and 1.0.2 (the index's newest), armhf,
# with kbuild and two libraries for amd64 (the build machine).
# kbdeps: linux-kbuild's Depends (a library with an alternative); hdeps V:
# the headers'.
kbdeps() { echo "libc6 (>= 2.38), libfake1 (>= 1) | libalt1, pahole"; }
hdeps() { echo "linux-headers-$1-common (= $1-1), linux-kbuild-$1, gcc-14"; }
img_101=$(deb linux-image-1.0.1-armmp 1.0.1-1 armhf kmod $pool)
hdr_101=$(deb linux-headers-1.0.1-armmp 1.0.1-1 armhf "$(hdeps 1.0.1)" $pool)
com_101=$(deb linux-headers-1.0.1-common 1.0.1-1 all "" $pool)
kb_101=$(deb linux-kbuild-1.0.1 1.0.1-1 amd64 "$(kbdeps)" $pool)
img_102=$(deb linux-image-1.0.2-armmp 1.0.2-1 armhf kmod $pool)
hdr_102=$(deb linux-headers-1.0.2-armmp 1.0.2-1 armhf "$(hdeps 1.0.2)" $pool)
com_102=$(deb linux-headers-1.0.2-common 1.0.2-1 all "" $pool)
kb_102=$(deb linux-kbuild-1.0.2 1.0.2-1 amd64 "$(kbdeps)" $pool)
libc=$(deb libc6 2.41-1 amd64 '' pool/main/g/glibc)
libf=$(deb libfake1 1.5-1 amd64 '' pool/main/f/fake)
meta=$(deb linux-image-armmp 1.0.2-1 armhf "linux-image-1.0.2-armmp (= 1.0.2-1)" $pool)

# stanza POOLPATH: the deb's index entry.
stanza() {
	dpkg-deb -f "$A/$1"
	echo "Filename: $1"
	echo "Size: $(wc -c <"$A/$1")"
	echo "SHA256: $(sum "$A/$1")"
	echo
}
# suite NAME ARMHF AMD64: dists/NAME with Packages for armhf and amd64 (the
# pool paths listed) and a Release signed with the test's key.
suite() {
	d=$A/dists/$1
	rm -rf "$d" && mkdir -p "$d/main/binary-armhf" "$d/main/binary-amd64" || exit 2
	for p in $2; do stanza "$p"; done >"$d/main/binary-armhf/Packages"
	for p in $3; do stanza "$p"; done >"$d/main/binary-amd64/Packages"
	{
		echo "Origin: Test"
		echo "Suite: $1"
		echo "Codename: $1"
		echo "Date: $(LC_ALL=C date -u '+%a, %d %b %Y %H:%M:%S UTC')"
		echo "Architectures: amd64 armhf"
		echo "Components: main"
		echo "SHA256:"
		for i in main/binary-amd64/Packages main/binary-armhf/Packages; do
			echo " $(sum "$d/$i") $(wc -c <"$d/$i") $i"
		done
	} >"$d/Release"
	gpg --batch --yes --clearsign -o "$d/InRelease" "$d/Release" 2>/dev/null || exit 2
}
# archive [META]: trixie, with the kernels 1.0.1 and 1.0.2 (arch all in
# both architectures) and META; xarmhf and xamd64 name more packages for
# each; the headers of 1.0.1 and 1.0.2 only without nohdr.
xarmhf="" xamd64="" nohdr=""
archive() {
	h="$hdr_101 $hdr_102"
	[ -z "$nohdr" ] || h=""
	suite trixie "$img_101 $h $com_101 $img_102 $com_102 ${1:-} $xarmhf" \
		"$com_101 $com_102 $kb_101 $kb_102 $libc $libf $xamd64"
}

# The archive's signing key, and the keyring toolchain/kernel checks with.
mkdir -p "$GNUPGHOME" && chmod 700 "$GNUPGHOME"
gpg --batch --passphrase '' --quick-gen-key 'kernel lock test <test@invalid>' ed25519 sign never \
	>/dev/null 2>&1 || { no "signing key" "gpg --quick-gen-key failed"; finish; }
gpg --export >"$T/key.gpg" || exit 2

# line DIST-ARCH ROLE POOLPATH: the lock line the truth gives for a .deb.
line() {
	f=$A/$3
	echo "$1 $2 $(dpkg-deb -f "$f" Package):$(dpkg-deb -f "$f" Architecture) $(dpkg-deb -f "$f" Version) $(sum "$f") $3"
}
lock101() {
	line trixie-armhf image "$img_101"
	line trixie-armhf headers "$hdr_101"
	line trixie-armhf common "$com_101"
	line trixie-armhf kbuild "$kb_101"
	line trixie-armhf lib "$libc"
	line trixie-armhf lib "$libf"
}
lock101 >"$T/lock"
line trixie-amd64 image "$img_101" >"$T/lock-other"

# run NAME LOCK CMD...: toolchain/kernel CMD against the archive, with a
# fresh private apt and cache; stdout in $T/NAME.out, stderr in $T/NAME.err.
run() {
	n=$1 l=$2
	shift 2
	rm -rf "$T/k-$n"
	KERNEL_MIRROR=file://$A KERNEL_DIR=$T/k-$n KERNEL_LOCK=$l KERNEL_KEYRING=$T/key.gpg \
		"$kernel" "$@" >"$T/$n.out" 2>"$T/$n.err"
}
# the downloaded DIR holds exactly these pool paths' files, byte for byte.
holds() {
	d=$1
	shift
	for p; do
		[ -f "$d/${p##*/}" ] || { echo "${p##*/} missing"; return 1; }
		[ "$(sum "$d/${p##*/}")" = "$(sum "$A/$p")" ] || { echo "${p##*/} differs"; return 1; }
	done
	[ "$(ls "$d" | grep -c '\.deb$')" -eq $# ] || { echo "$(ls "$d" | grep -c '\.deb$') .debs, want $#"; return 1; }
}
errline() { [ "$(wc -l <"$T/$1.err")" -eq 1 ] && cat "$T/$1.err"; }
all101="$img_101 $hdr_101 $com_101 $kb_101 $libc $libf"
all102="$img_102 $hdr_102 $com_102 $kb_102 $libc $libf"

# 1. A good index: the newest kernel, not the lock's.
archive "$meta"
if run good "$T/lock" download trixie armhf "$T/dl-good"; then
	if grep -qx 'source=index' "$T/good.out" && grep -qx 'version=1.0.2-1' "$T/good.out" &&
		w=$(holds "$T/dl-good" $all102) && ! grep -q locked "$T/good.err"; then
		ok "good index: the index's newest (1.0.2-1), not the locked 1.0.1-1"
	else
		no "good index: the index's newest" "$(cat "$T/good.out" "$T/good.err") ${w:-}"
	fi
else
	no "good index: download failed" "$(cat "$T/good.err")"
fi

# 2. resolve: the lock lines of the index's newest, as the truth gives them.
{
	line trixie-armhf image "$img_102"
	line trixie-armhf headers "$hdr_102"
	line trixie-armhf common "$com_102"
	line trixie-armhf kbuild "$kb_102"
	line trixie-armhf lib "$libc"
	line trixie-armhf lib "$libf"
} >"$T/want102"
if run resolve "$T/lock" resolve trixie armhf && cmp -s "$T/resolve.out" "$T/want102"; then
	ok "resolve: the index's packages, pool paths and SHA256 (first alternative of a library)"
else
	no "resolve" "$(diff "$T/want102" "$T/resolve.out" 2>&1 | head -n 4; cat "$T/resolve.err")"
fi

# 3. lock through a good index: the entry becomes the index's newest, the
# other DIST-ARCHs stay, the header says what the file is.
cat "$T/lock" "$T/lock-other" >"$T/lock3"
if run lock3 "$T/lock3" lock trixie-armhf && grep -v '^#' "$T/lock3" >"$T/lock3.body" &&
	cat "$T/want102" "$T/lock-other" | cmp -s - "$T/lock3.body" &&
	grep -q '^# One package a line: *DIST-ARCH ROLE PACKAGE:ARCH VERSION SHA256 POOL-PATH' "$T/lock3"; then
	ok "lock, good index: trixie-armhf refreshed to 1.0.2-1, trixie-amd64 kept, format in the header"
else
	no "lock, good index" "$(cat "$T/lock3.err"; diff "$T/lock3.body" "$T/want102" | head -n 4)"
fi

# 4. An index whose size differs from Release: the lock, checked, one line.
echo "Package: extra" >>"$A/dists/trixie/main/binary-armhf/Packages"
want="kernel: trixie armhf: index does not match Release (mirror mid-sync?); using the locked 1.0.1-1"
if run size "$T/lock" download trixie armhf "$T/dl-size"; then
	if [ "$(errline size)" = "$want" ] && grep -qx 'source=lock' "$T/size.out" &&
		w=$(holds "$T/dl-size" $all101); then
		ok "index size off: the locked 1.0.1-1, every file's SHA256 the lock's, one line"
	else
		no "index size off" "$(cat "$T/size.err" "$T/size.out") ${w:-}"
	fi
else
	no "index size off: download failed" "$(cat "$T/size.err")"
fi

# 5. Same size, other bytes: a hash mismatch, the same way.
archive "$meta"
sed -i 's/^Version: 1\.0\.2-1$/Version: 1.0.2-2/' "$A/dists/trixie/main/binary-armhf/Packages"
if run hash "$T/lock" download trixie armhf "$T/dl-hash" && [ "$(errline hash)" = "$want" ] &&
	grep -qx 'version=1.0.1-1' "$T/hash.out" && holds "$T/dl-hash" $all101 >/dev/null; then
	ok "index hash off (same size): the locked 1.0.1-1"
else
	no "index hash off" "$(cat "$T/hash.err")"
fi

# 6. lock through that index: the entry kept as it was, with a warning.
cp "$T/lock" "$T/lock6"
if run lock6 "$T/lock6" lock trixie-armhf && grep -v '^#' "$T/lock6" | cmp -s - "$T/lock" &&
	grep -q '^kernel: warning: trixie armhf: index does not match Release (mirror mid-sync?); kept the locked 1.0.1-1$' "$T/lock6.err"; then
	ok "lock, bad index: the entry kept, one warning"
else
	no "lock, bad index" "$(cat "$T/lock6.err")"
fi

# 7. A pool file that is not what the lock says: fails, naming the file.
sed "s|^\(trixie-armhf headers [^ ]* [^ ]* \)[0-9a-f]*|\1$(sum "$A/$hdr_102")|" "$T/lock" >"$T/lock7"
if run badsum "$T/lock7" download trixie armhf "$T/dl-badsum"; then
	no "pool file unlike the lock: download succeeded"
else
	e=$(errline badsum)
	case $e in
	"kernel: trixie armhf: index does not match Release (mirror mid-sync?); the locked 1.0.1-1: $hdr_101: SHA256 $(sum "$A/$hdr_101") differs from the lock's $(sum "$A/$hdr_102")")
		ok "pool file unlike the lock: fails naming the file and both SHA256" ;;
	*)	no "pool file unlike the lock" "$(cat "$T/badsum.err")" ;;
	esac
fi

# 8. No entry for this DIST-ARCH, and a bad index: fails naming the index.
if run noentry "$T/lock-other" download trixie armhf "$T/dl-noentry"; then
	no "no lock entry, bad index: download succeeded"
elif [ "$(errline noentry)" = "kernel: trixie armhf: index does not match Release (mirror mid-sync?); no locked kernel for trixie-armhf in $T/lock-other" ]; then
	ok "no lock entry, bad index: fails naming the index"
else
	no "no lock entry, bad index" "$(cat "$T/noentry.err")"
fi

# 9. A Release not signed by the keyring's key: not verified, the lock.
archive "$meta"
rm -rf "$T/gnupg2"
mkdir -m 700 "$T/gnupg2"
GNUPGHOME=$T/gnupg2 gpg --batch --passphrase '' --quick-gen-key 'other <other@invalid>' ed25519 sign never \
	>/dev/null 2>&1 &&
	GNUPGHOME=$T/gnupg2 gpg --batch --yes --clearsign -o "$A/dists/trixie/InRelease" "$A/dists/trixie/Release" 2>/dev/null
GNUPGHOME=$T/gnupg2 gpgconf --kill gpg-agent 2>/dev/null
if run sig "$T/lock" download trixie armhf "$T/dl-sig" &&
	[ "$(errline sig)" = "kernel: trixie armhf: Release is not signed by a key in $T/key.gpg; using the locked 1.0.1-1" ]; then
	ok "Release signed by another key: not trusted, the locked 1.0.1-1"
else
	no "Release signed by another key" "$(cat "$T/sig.err")"
fi

# 10. A good index with images but none with its headers: does not
# resolve, the lock. (Without the metapackage it resolves all the same.)
nohdr=y
archive "$meta"
nohdr=""
if run nohdr "$T/lock" download trixie armhf "$T/dl-nohdr" &&
	[ "$(errline nohdr)" = "kernel: trixie armhf: no linux-image-*-armmp with its headers in trixie on file://$A; using the locked 1.0.1-1" ]; then
	ok "good index, no image with its headers: the locked 1.0.1-1"
else
	no "good index, no image with its headers" "$(cat "$T/nohdr.err")"
fi
archive
if run nometa "$T/lock" download trixie armhf "$T/dl-nometa" && grep -qx 'version=1.0.2-1' "$T/nometa.out" &&
	grep -qx 'source=index' "$T/nometa.out" && [ ! -s "$T/nometa.err" ]; then
	ok "good index without linux-image-armmp: its newest image with headers all the same (1.0.2-1)"
else
	no "good index without linux-image-armmp" "$(cat "$T/nometa.out" "$T/nometa.err")"
fi

# 11. A good index whose newest file is gone from the pool: the lock.
archive "$meta"
mv "$A/$img_102" "$T/img102.deb"
if run gone "$T/lock" download trixie armhf "$T/dl-gone" && grep -qx 'source=lock' "$T/gone.out" &&
	[ "$(wc -l <"$T/gone.err")" -eq 1 ] &&
	grep -q "^kernel: trixie armhf: $img_102: cannot download (.*); using the locked 1.0.1-1\$" "$T/gone.err"; then
	ok "index's newest missing from the pool: the locked 1.0.1-1"
else
	no "index's newest missing from the pool" "$(cat "$T/gone.err")"
fi
mv "$T/img102.deb" "$A/$img_102"

# 12. The layout from 6.19 on: linux-image-REL is a metapackage, vmlinuz is
# in linux-binary-REL, config and System.map in linux-base-REL. The newest
# (1.0.3) is taken as binary (role image) and base, the metapackage not.
img_103=$(deb linux-image-1.0.3-armmp 1.0.3-1 armhf \
	"linux-base-1.0.3-armmp (= 1.0.3-1), linux-binary-1.0.3-armmp (= 1.0.3-1)" $pool)
bin_103=$(deb linux-binary-1.0.3-armmp 1.0.3-1 armhf "" $pool)
base_103=$(deb linux-base-1.0.3-armmp 1.0.3-1 armhf "" $pool)
hdr_103=$(deb linux-headers-1.0.3-armmp 1.0.3-1 armhf "$(hdeps 1.0.3), linux-base-1.0.3-armmp" $pool)
com_103=$(deb linux-headers-1.0.3-common 1.0.3-1 all "" $pool)
kb_103=$(deb linux-kbuild-1.0.3 1.0.3-1 amd64 "$(kbdeps)" $pool)
meta_103=$(deb linux-image-armmp 1.0.3-1 armhf "linux-image-1.0.3-armmp (= 1.0.3-1)" $pool)
xarmhf="$img_103 $bin_103 $base_103 $hdr_103 $com_103" xamd64="$com_103 $kb_103"
archive "$meta $meta_103"
{
	line trixie-armhf image "$bin_103"
	line trixie-armhf headers "$hdr_103"
	line trixie-armhf common "$com_103"
	line trixie-armhf kbuild "$kb_103"
	line trixie-armhf base "$base_103"
	line trixie-armhf lib "$libc"
	line trixie-armhf lib "$libf"
} >"$T/want103"
if run split "$T/lock" download trixie armhf "$T/dl-split" && grep -qx 'version=1.0.3-1' "$T/split.out" &&
	grep -qx 'release=1.0.3-armmp' "$T/split.out" &&
	w=$(holds "$T/dl-split" $bin_103 $base_103 $hdr_103 $com_103 $kb_103 $libc $libf) &&
	cmp -s "$T/dl-split/manifest" "$T/want103"; then
	ok "6.19's layout: the newest metapackage's linux-binary (as image) and linux-base, not the metapackage"
else
	no "6.19's layout" "$(cat "$T/split.out" "$T/split.err") ${w:-} $(diff "$T/want103" "$T/dl-split/manifest" 2>&1 | head -n 4)"
fi

# 13. An ABI named: that kernel, not the newest.
if run abi "$T/lock" resolve trixie armhf 1.0.1 && lock101 | cmp -s - "$T/abi.out"; then
	ok "an ABI named (1.0.1): its packages, not the newest's"
else
	no "an ABI named" "$(lock101 | diff - "$T/abi.out" 2>&1 | head -n 4; cat "$T/abi.err")"
fi
if run noabi "$T/lock" resolve trixie armhf 9.9.9 ||
	[ "$(errline noabi)" != "kernel: trixie armhf: no kernel 9.9.9-armmp on file://$A trixie" ]; then
	no "an ABI the index lacks" "$(cat "$T/noabi.err")"
else
	ok "an ABI the index lacks: one line naming it"
fi

# 13b. With an index that does not resolve the ABI, the lock does only when
# it holds that ABI's kernel (download takes the ABI as KERNEL_ABI).
KERNEL_ABI=1.0.9
export KERNEL_ABI
if run abilock "$T/lock" download trixie armhf "$T/dl-abilock"; then
	no "an ABI neither the index nor the lock has: download succeeded" "$(cat "$T/abilock.out")"
elif [ "$(errline abilock)" = "kernel: trixie armhf: no kernel 1.0.9-armmp on file://$A trixie; the locked kernel is 1.0.1-armmp, not 1.0.9-armmp" ]; then
	ok "an ABI neither the index nor the lock has: one line, not the locked kernel"
else
	no "an ABI neither the index nor the lock has" "$(cat "$T/abilock.err")"
fi
echo "Package: extra" >>"$A/dists/trixie/main/binary-armhf/Packages"
KERNEL_ABI=1.0.1
if run abibad "$T/lock" download trixie armhf "$T/dl-abibad" &&
	grep -qx 'version=1.0.1-1' "$T/abibad.out" && grep -qx 'source=lock' "$T/abibad.out" &&
	holds "$T/dl-abibad" $all101 >/dev/null; then
	ok "an ABI (1.0.1), index off: the locked kernel, which is that ABI"
else
	no "an ABI, index off" "$(cat "$T/abibad.out" "$T/abibad.err")"
fi
unset KERNEL_ABI

# 14. Which is the newest: the highest image of the flavour whose headers
# the index has, not the metapackage's choice (1.0.4: an image without
# headers) nor another flavour's (1.0.5-rt-armmp, with headers).
img_104=$(deb linux-image-1.0.4-armmp 1.0.4-1 armhf kmod $pool)
meta_104=$(deb linux-image-armmp 1.0.4-1 armhf "linux-image-1.0.4-armmp (= 1.0.4-1)" $pool)
img_rt=$(deb linux-image-1.0.5-rt-armmp 1.0.5-1 armhf kmod $pool)
hdr_rt=$(deb linux-headers-1.0.5-rt-armmp 1.0.5-1 armhf "$(hdeps 1.0.3)" $pool)
xarmhf="$img_103 $bin_103 $base_103 $hdr_103 $com_103 $img_104 $img_rt $hdr_rt"
archive "$meta $meta_103 $meta_104"
if run newest "$T/lock" download trixie armhf "$T/dl-newest" && grep -qx 'version=1.0.3-1' "$T/newest.out" &&
	cmp -s "$T/dl-newest/manifest" "$T/want103"; then
	ok "newest: 1.0.3 (with headers), not the metapackage's 1.0.4 (no headers) nor 1.0.5-rt-armmp (another flavour)"
else
	no "newest" "$(cat "$T/newest.out" "$T/newest.err") $(diff "$T/want103" "$T/dl-newest/manifest" 2>&1 | head -n 4)"
fi

# 15. The same kernel signed and -unsigned: the signed image.
uns_102=$(deb linux-image-1.0.2-armmp-unsigned 1.0.2-1 armhf kmod $pool)
xarmhf="$uns_102"
archive "$meta"
if run signed "$T/lock" resolve trixie armhf && cmp -s "$T/signed.out" "$T/want102"; then
	ok "signed and -unsigned images of 1.0.2: the signed one"
else
	no "signed and -unsigned" "$(diff "$T/want102" "$T/signed.out" 2>&1 | head -n 4; cat "$T/signed.err")"
fi

# 16. A backports suite: its own newest kernel (1.0.7~bpo, 6.19's layout),
# though the base suite's metapackage would be apt's candidate (backports is
# NotAutomatic); its headers' and kbuild's dependencies come from the base
# suite (the libraries are only there). The lock lines name
# trixie-backports-armhf; lock takes the DIST-ARCH with its dash.
v7=1.0.7-1~bpo13+1
img_107=$(deb linux-image-1.0.7-armmp $v7 armhf \
	"linux-base-1.0.7-armmp (= $v7), linux-binary-1.0.7-armmp (= $v7)" $pool)
bin_107=$(deb linux-binary-1.0.7-armmp $v7 armhf "" $pool)
base_107=$(deb linux-base-1.0.7-armmp $v7 armhf "" $pool)
hdr_107=$(deb linux-headers-1.0.7-armmp $v7 armhf \
	"linux-headers-1.0.7-common (= $v7), linux-kbuild-1.0.7, gcc-14" $pool)
com_107=$(deb linux-headers-1.0.7-common $v7 all "" $pool)
kb_107=$(deb linux-kbuild-1.0.7 $v7 amd64 "$(kbdeps)" $pool)
meta_107=$(deb linux-image-armmp $v7 armhf "linux-image-1.0.7-armmp (= $v7)" $pool)
xarmhf="" xamd64=""
archive "$meta"
suite trixie-backports "$img_107 $bin_107 $base_107 $hdr_107 $com_107 $meta_107" "$com_107 $kb_107"
sed -i 's/^Components: main$/&\nNotAutomatic: yes\nButAutomaticUpgrades: yes/' "$A/dists/trixie-backports/Release"
gpg --batch --yes --clearsign -o "$A/dists/trixie-backports/InRelease" "$A/dists/trixie-backports/Release" 2>/dev/null
{
	line trixie-backports-armhf image "$bin_107"
	line trixie-backports-armhf headers "$hdr_107"
	line trixie-backports-armhf common "$com_107"
	line trixie-backports-armhf kbuild "$kb_107"
	line trixie-backports-armhf base "$base_107"
	line trixie-backports-armhf lib "$libc"
	line trixie-backports-armhf lib "$libf"
} >"$T/want107"
if run bpo "$T/lock" download trixie-backports armhf "$T/dl-bpo" && grep -qx "version=$v7" "$T/bpo.out" &&
	w=$(holds "$T/dl-bpo" $bin_107 $base_107 $hdr_107 $com_107 $kb_107 $libc $libf) &&
	cmp -s "$T/dl-bpo/manifest" "$T/want107"; then
	ok "backports: its own newest ($v7), libraries from the base suite"
else
	no "backports" "$(cat "$T/bpo.out" "$T/bpo.err") ${w:-} $(diff "$T/want107" "$T/dl-bpo/manifest" 2>&1 | head -n 4)"
fi
cp "$T/lock" "$T/lock16"
if run lock16 "$T/lock16" lock trixie-backports-armhf && grep -v '^#' "$T/lock16" >"$T/lock16.body" &&
	cat "$T/want107" "$T/lock" | cmp -s - "$T/lock16.body"; then
	ok "lock trixie-backports-armhf: its entry added, trixie-armhf kept"
else
	no "lock trixie-backports-armhf" "$(cat "$T/lock16.err"; cat "$T/want107" "$T/lock" | diff - "$T/lock16.body" | head -n 4)"
fi

# 17. A lock entry of 6.19's layout without its base line: fetch cannot
# use it (no config, no System.map): one line says so.
grep -v ' base ' "$T/want107" >"$T/lock17"
rm -rf "$A/dists/trixie-backports"
if run nobase "$T/lock17" download trixie-backports armhf "$T/dl-nobase"; then
	no "lock without base: download succeeded"
else
	e=$(errline nobase)
	case $e in
	"kernel: trixie-backports armhf: "*"; $T/lock17: trixie-backports-armhf has linux-binary as image but no single base line")
		ok "lock entry with linux-binary but no base line: one line naming it" ;;
	*)	no "lock without base" "$(cat "$T/nobase.err")" ;;
	esac
fi
xarmhf="" xamd64=""

# 18. A PREEMPT_RT flavour (ARCH rt-amd64): the newest rt-amd64 image with
# its headers, whose common part is Debian's linux-headers-REL-common-rt,
# not the newer amd64 kernel of the plain flavour; the lock lines name
# trixie-rt-amd64. ARCH amd64 takes the plain kernel from the same index.
img_rt5=$(deb linux-image-1.0.5-rt-amd64 1.0.5-1 amd64 kmod $pool)
hdr_rt5=$(deb linux-headers-1.0.5-rt-amd64 1.0.5-1 amd64 \
	"linux-headers-1.0.5-common-rt (= 1.0.5-1), linux-kbuild-1.0.5, gcc-14" $pool)
com_rt5=$(deb linux-headers-1.0.5-common-rt 1.0.5-1 all "" $pool)
kb_105=$(deb linux-kbuild-1.0.5 1.0.5-1 amd64 "$(kbdeps)" $pool)
img_106=$(deb linux-image-1.0.6-amd64 1.0.6-1 amd64 kmod $pool)
hdr_106=$(deb linux-headers-1.0.6-amd64 1.0.6-1 amd64 "$(hdeps 1.0.6)" $pool)
com_106=$(deb linux-headers-1.0.6-common 1.0.6-1 all "" $pool)
kb_106=$(deb linux-kbuild-1.0.6 1.0.6-1 amd64 "$(kbdeps)" $pool)
xamd64="$img_rt5 $hdr_rt5 $com_rt5 $kb_105 $img_106 $hdr_106 $com_106 $kb_106"
archive "$meta"
{
	line trixie-rt-amd64 image "$img_rt5"
	line trixie-rt-amd64 headers "$hdr_rt5"
	line trixie-rt-amd64 common "$com_rt5"
	line trixie-rt-amd64 kbuild "$kb_105"
	line trixie-rt-amd64 lib "$libc"
	line trixie-rt-amd64 lib "$libf"
} >"$T/want-rt"
cp "$T/lock" "$T/lock18"
if run rt "$T/lock18" lock trixie-rt-amd64 && grep -v '^#' "$T/lock18" >"$T/lock18.body" &&
	cat "$T/want-rt" "$T/lock" | cmp -s - "$T/lock18.body"; then
	ok "lock trixie-rt-amd64: the rt-amd64 kernel (1.0.5, common-rt), not the newer amd64 one"
else
	no "lock trixie-rt-amd64" "$(cat "$T/rt.err"; cat "$T/want-rt" "$T/lock" | diff - "$T/lock18.body" | head -n 4)"
fi
if run plain "$T/lock" resolve trixie amd64 &&
	[ "$(awk '$2 == "image" { print $3 }' "$T/plain.out")" = linux-image-1.0.6-amd64:amd64 ]; then
	ok "amd64 beside rt-amd64: the plain flavour's kernel (1.0.6)"
else
	no "amd64 beside rt-amd64" "$(cat "$T/plain.out" "$T/plain.err")"
fi
xamd64=""

. tests/lib/kernel_lock_cache.sh	# 19 and 20: the pool of packages

# toolchain/mirror: which apt source is the Debian archive.
# mirror NAME WANT: toolchain/mirror on $T/etc must print WANT (empty: exit 1
# with one line naming KERNEL_MIRROR).
mirror() {
	got=$(MIRROR_APT_ETC=$T/etc KERNEL_MIRROR= "$repo/toolchain/mirror" 2>"$T/mirror.err")
	rc=$?
	if [ -n "$2" ] && [ $rc -eq 0 ] && [ "$got" = "$2" ]; then
		ok "mirror: $1"
	elif [ -z "$2" ] && [ $rc -eq 1 ] && [ -z "$got" ] && [ "$(wc -l <"$T/mirror.err")" -eq 1 ] &&
		grep -q 'set KERNEL_MIRROR=' "$T/mirror.err"; then
		ok "mirror: $1"
	else
		no "mirror: $1" "exit $rc, printed '$got', want '$2' $(cat "$T/mirror.err")"
	fi
}
rm -rf "$T/etc" && mkdir -p "$T/etc/sources.list.d"
cat >"$T/etc/sources.list.d/debian.sources" <<'EOF'
Types: deb
URIs: http://security.example/debian-security
Suites: bookworm-security
Components: main

Types: deb deb-src
# a comment inside a stanza
URIs: http://one.example/debian/
Suites: bookworm bookworm-updates
Components: main contrib
EOF
mirror "deb822: the plain suite's URI, not security's" http://one.example/debian
cat >"$T/etc/sources.list" <<'EOF'
deb [arch=amd64 signed-by=/usr/share/keyrings/x.gpg] https://vendor.example/deb/ stable main
deb http://two.example/debian bookworm main
EOF
mirror "one-line list first, a third party's 'stable main' passed over" http://two.example/debian
printf 'Enabled: no\n' >>"$T/etc/sources.list.d/debian.sources"
cat >"$T/etc/sources.list" <<'EOF'
# deb http://commented.example/debian bookworm main
deb-src http://src.example/debian bookworm main
deb http://sec.example/debian-security bookworm-security main
deb [ trusted=yes ] http://vendor.example/deb/ stable main
EOF
mirror "only a disabled stanza, deb-src, -security and a third party: none" ""
got=$(MIRROR_APT_ETC=$T/etc KERNEL_MIRROR=file:///srv/mirror/ "$repo/toolchain/mirror")
check_eq "mirror: KERNEL_MIRROR overrides" "$got" file:///srv/mirror "printed '$got'"

finish
