#!/bin/sh
# The exmap-mini-dkms package (deb_test.sh builds it) installed on this
# machine, as DKMS serves a Debian system:
#   - installed with kernels present (their headers where a linux-headers
#     package puts them: /lib/modules/REL/build, here Debian's 6.1 and 6.12
#     from toolchain/kernel), DKMS builds and installs the module for each,
#     its vermagic that kernel's;
#   - a kernel installed later (the newest of the amd64 matrix, its headers'
#     hook run as their package runs it) gets the module too;
#   - dkms build against kernels outside /lib/modules (--kernelsourcedir):
#     the rest of the amd64 matrix, 5.10 and sid's;
#   - every build is free of warnings and unexported symbols;
#   - the module DKMS built for 6.12 loads in a qemu guest of that kernel
#     and passes all of the module's checks there (the phase "dkms" of a
#     trixie-amd64 boot: tests/lib/dkms_phase.sh, a 10 s churn; with
#     DKMS_GUEST=later, as tests/run sets it, the module is left in
#     build/pkg/dkms/exmap_mini.ko and the phase runs in tests/run's own
#     trixie-amd64 boot, with the module matrix's and the ram view's);
#   - nothing is loaded here: the running kernel gets no module (no
#     headers for it here; where it has them, DKMS builds and installs, and
#     still loads nothing), dkms's modprobe_on_install is off;
#   - dpkg --purge leaves nothing: /usr/src and /var/lib/dkms as they were
#     before (but dkms's own signing key, mok.key and mok.pub, which it
#     keeps for every module: removed at the end if this run made it), no
#     exmap_mini.ko in /lib/modules.
# The /lib/modules/REL directories it makes (the kernels' stand-ins) go
# again at the end, whatever happens; one that exists already is not
# touched (that part fails instead).
# Needs root, dkms, toolchain/kernel's amd64 kernels (fetched when missing),
# and what kmod_test.sh needs for trixie-amd64 (make test builds it).
# Environment: DKMS_DEB (default: deb_test.sh's exmap-mini-dkms),
# DKMS_GUEST.
# Last line: N passed, N failed.
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib/lib.sh
P=build/pkg/dkms
ver=$(sed -n 's/^#define EXMAP_VERSION "\(.*\)"$/\1/p' src/exmap.h)
DEB=${DKMS_DEB:-build/pkg/clone/build/deb/amd64/exmap-mini-dkms_${ver}_all.deb}
INSTALLED="bookworm-amd64 trixie-amd64"	# there when the package is installed
LATER=trixie-backports-amd64		# installed after it: the newest
OUTSIDE="bullseye-amd64 sid-amd64"	# dkms build --kernelsourcedir
GUEST=trixie-amd64			# the module it built, loaded there
pkg=exmap-mini-dkms

[ "$(id -u)" -eq 0 ] || { no "needs root (dpkg -i)"; finish; }
[ -s "$DEB" ] || { no "$DEB: not built (deb_test.sh builds it)"; finish; }
command -v dkms >/dev/null 2>&1 || { no "dkms: not installed (toolchain/setup pkg)"; finish; }
rm -rf "$P" && mkdir -p "$P" || { no "$P: cannot create"; finish; }

made=			# /lib/modules/REL made here
made_top=		# /lib/modules itself, when made here
# dkms's signing key, made at its first build with a kernel's sign-file and
# kept for every module (Secure Boot enrols it): dkms's, not the package's;
# removed at the end only when this run made it.
MOK="/var/lib/dkms/mok.key /var/lib/dkms/mok.pub"
mok_before=$(ls $MOK 2>/dev/null)
installed() { [ "$(dpkg-query -W -f '${Status}' $pkg 2>/dev/null)" = "install ok installed" ]; }
cleanup() {
	dpkg-query -W $pkg >/dev/null 2>&1 && dpkg --purge $pkg >>"$P/purge.log" 2>&1
	for r in $made; do rm -rf "/lib/modules/$r"; done
	[ -z "$made_top" ] || rmdir /lib/modules 2>/dev/null
	[ -n "$mok_before" ] || rm -f $MOK
	made= made_top=
}
trap cleanup EXIT
trap 'exit 2' INT TERM
if dpkg-query -W $pkg >/dev/null 2>&1; then
	dpkg --purge $pkg >"$P/leftover.log" 2>&1
	check_cmd "an $pkg left by an earlier run: purged first" not installed
fi

# What is there before: compared with what is left after the purge.
state() {
	ls -A /usr/src /var/lib/dkms 2>&1 | grep -vx 'mok\.key\|mok\.pub'
	find /lib/modules -name 'exmap_mini.ko*' 2>/dev/null | sort
}
state >"$P/before"
loaded() { grep -q '^exmap_mini ' /proc/modules 2>/dev/null; }

# kernel TARGET: kdir, rel (UTS_RELEASE) of that kernel, fetched when missing
kernel() {
	toolchain/kernel fetch "${1%-amd64}" amd64 >"$P/fetch-$1.log" 2>&1 &&
		eval "$(toolchain/kernel path "${1%-amd64}" amd64)" &&
		rel=$(sed -n 's/^#define UTS_RELEASE "\(.*\)"$/\1/p' "$kdir/include/generated/utsrelease.h") &&
		[ -n "$rel" ] && return 0
	no "$1: kernel fetch" "$(tail -n 3 "$P/fetch-$1.log" | tr '\n' ' ')"
	return 1
}
# no_ko DIR RELPATTERN: no exmap_mini.ko under DIR in a path matching it (else the first)
no_ko() {
	_ko=$(find "$1" -path "$2" -name 'exmap_mini.ko*' -print 2>/dev/null | head -n 1)
	[ -z "$_ko" ] && return 0
	echo "$_ko"
	return 1
}
# vermagic KO: the kernel release the module was built for
vermagic() { strings "$1" 2>/dev/null | sed -n 's/^vermagic=\([^ ]*\) .*/\1/p'; }
# built WHAT REL KO: the module is there, for REL, its build clean
built() {
	check_eq "$1: exmap_mini.ko for $2 (its vermagic)" "$(vermagic "$3")" "$2"
	_log=/var/lib/dkms/exmap-mini/$ver/$2/x86_64/log/make.log
	if [ -s "$_log" ]; then
		check_cmd "$1: the build has no warning, no unexported symbol" not grep -qiE 'warning|undefined' "$_log"
	else
		no "$1: dkms's make.log for $2" "$_log: missing"
	fi
}
# stand_in TARGET: /lib/modules/REL/build, as linux-headers-REL installs it
stand_in() {
	if [ -e "/lib/modules/$rel" ]; then
		no "$1: /lib/modules/$rel exists on this machine: not touched"
		return 1
	fi
	[ -d /lib/modules ] || { mkdir /lib/modules && made_top=1; }
	mkdir "/lib/modules/$rel" && made="$made $rel" && ln -s "$kdir" "/lib/modules/$rel/build"
}

check_cmd "dkms's modprobe_on_install is off (dkms installs, never loads)" \
	not grep -rqsE '^[[:space:]]*modprobe_on_install=.' /etc/dkms/framework.conf /etc/dkms/framework.conf.d
rels= guest_rel=
for t in $INSTALLED; do
	kernel "$t" && stand_in "$t" && rels="$rels $rel"
	[ "$t" = $GUEST ] && guest_rel=$rel
done

# Installed: the kernels there get the module.
dpkg -i "$DEB" >"$P/install.log" 2>&1
check_eq "dpkg -i $(basename "$DEB")" "$?" 0 "$(tail -n 5 "$P/install.log" | tr '\n' ' ')"
check_cmd "installed" installed
for r in $rels; do
	built "installed with $r there" "$r" "/lib/modules/$r/updates/dkms/exmap_mini.ko"
done
guest=
if [ -n "$guest_rel" ] && cp "/lib/modules/$guest_rel/updates/dkms/exmap_mini.ko" "$P/"; then
	if [ "${DKMS_GUEST:-}" != later ]; then
		DKMS_KO=$P/exmap_mini.ko tests/qemu/phases $GUEST dkms >"$P/guest.log" 2>&1 &
		guest=$!
	fi
else
	no "$GUEST: the module DKMS built for it"
fi

running=$(uname -r)
if [ -e "/lib/modules/$running/build/include" ]; then
	check_eq "the running kernel ($running, headers here): built and installed, as DKMS does" \
		"$(vermagic "/lib/modules/$running/updates/dkms/exmap_mini.ko")" "$running"
else
	check_cmd "the running kernel ($running, no headers here): no module" \
		no_ko /lib/modules "/lib/modules/$running/*"
	check_cmd "... and dkms said why" has "It is likely that $running belongs to a chroot's host\|skipped" \
		"$P/install.log"
fi

# Installed later: the hook its headers' package runs.
if kernel $LATER && stand_in $LATER; then
	later=$rel newest=$rel
	/etc/kernel/header_postinst.d/dkms "$later" >"$P/later.log" 2>&1
	check_eq "a kernel installed later ($later): its headers' hook" "$?" 0 "$(tail -n 3 "$P/later.log")"
	built "installed later, $later" "$later" "/lib/modules/$later/updates/dkms/exmap_mini.ko"
	for t in $INSTALLED $OUTSIDE; do
		kernel "$t" || continue
		dpkg --compare-versions "$newest" ge "$rel" || newest="$rel ($t)"
	done
	check_eq "$LATER is the newest kernel of the amd64 matrix" "$newest" "$later"
fi

# Kernels outside /lib/modules: dkms build --kernelsourcedir.
for t in $OUTSIDE; do
	kernel "$t" || continue
	dkms build -m exmap-mini -v "$ver" -k "$rel" --kernelsourcedir "$kdir" >"$P/build-$t.log" 2>&1
	check_eq "dkms build -k $rel --kernelsourcedir ($t)" "$?" 0 "$(tail -n 3 "$P/build-$t.log")"
	built "$t" "$rel" "/var/lib/dkms/exmap-mini/$ver/$rel/x86_64/module/exmap_mini.ko"
	check_cmd "$t: built, not installed" no_ko /lib/modules "/lib/modules/$rel/*"
done

if [ -n "$guest" ]; then
	wait "$guest"
	cat "$P/guest.log"
	echo "== $GUEST: the DKMS module in a guest"
	TEST_PREFIX="$GUEST: "
	if [ -f "build/qemu/boots/$GUEST/dkms.log" ]; then
		tally "build/qemu/boots/$GUEST/dkms.log"
	else
		no "the DKMS module in a guest" "no log (see above)"
	fi
	TEST_PREFIX=
fi
# (a kernel without loadable modules has no /proc/modules: the name says so)
what="/proc/modules"
[ -e /proc/modules ] || what="the running kernel takes no modules: no /proc/modules"
check_cmd "nothing loaded here ($what)" not loaded

dpkg --purge $pkg >"$P/purge.log" 2>&1
check_eq "dpkg --purge $pkg" "$?" 0 "$(tail -n 3 "$P/purge.log")"
check_cmd "purged" not installed
state >"$P/after"
check_cmd "nothing left: /usr/src, /var/lib/dkms as they were (but dkms's key), no exmap_mini.ko in /lib/modules" \
	same_file "$P/after" "$P/before"
finish
