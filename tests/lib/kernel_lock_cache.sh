# The pool of packages kept across runs (the machine's cache,
# toolchain/cache.sh) as toolchain/kernel and toolchain/packages use it: run
# where it is sourced, by tests/suites/kernel_lock_test.sh (its checks 19 and
# 20), with tests/lib/lib.sh and that suite's archive: archive, line, holds,
# errline, sum, $A, $T, $kernel, $repo, $meta and the packages of 1.0.1.

# 19. The pool of packages (KERNEL_DIR/debs, the machine's cache): kept
# across runs, each file checked against the lock's SHA256 before use. An
# index that does not verify, so the lock decides: a first run downloads
# into the pool; a file of it damaged (a byte changed) or cut short is
# downloaded again, said in one line, and the right bytes delivered; with
# the archive's pool gone, a run takes everything from the cache.
archive "$meta"
echo "Package: extra" >>"$A/dists/trixie/main/binary-armhf/Packages"
C=$T/k-cache
# runc NAME: download trixie armhf into $T/dl-NAME through the same cache.
runc() {
	rm -rf "$T/dl-$1"
	KERNEL_MIRROR=file://$A KERNEL_DIR=$C KERNEL_LOCK=$T/lock KERNEL_KEYRING=$T/key.gpg \
		"$kernel" download trixie armhf "$T/dl-$1" >"$T/$1.out" 2>"$T/$1.err"
}
lockline="kernel: trixie armhf: index does not match Release (mirror mid-sync?); using the locked 1.0.1-1"
if runc cache1 && w=$(holds "$T/dl-cache1" $all101) && w=$(holds "$C/debs" $all101); then
	ok "cache: a first run puts the locked files in the pool, checked"
else
	no "cache: a first run" "$(cat "$T/cache1.err") ${w:-}"
fi
hdr=$C/debs/${hdr_101##*/}
printf 'X' | dd of="$hdr" bs=1 seek=100 conv=notrunc 2>/dev/null
bad=$(sum "$hdr")
if runc cache2 && w=$(holds "$T/dl-cache2" $all101) && [ "$(sum "$hdr")" = "$(sum "$A/$hdr_101")" ] &&
	[ "$(sed -n 1p "$T/cache2.err")" = "cache: $hdr: damaged (SHA256 $bad, not $(sum "$A/$hdr_101")): fetched again" ] &&
	[ "$(sed -n 2p "$T/cache2.err")" = "$lockline" ] && [ "$(wc -l <"$T/cache2.err")" -eq 2 ]; then
	ok "cache: a damaged file (a byte changed) is fetched again, one line says so, the right bytes delivered"
else
	no "cache: a damaged file" "$(cat "$T/cache2.err") ${w:-}"
fi
img=$C/debs/${img_101##*/}
head -c 100 "$A/$img_101" >"$img"
if runc cache3 && w=$(holds "$T/dl-cache3" $all101) && grep -q "^cache: $img: damaged" "$T/cache3.err"; then
	ok "cache: a file cut short (a download interrupted) is fetched again"
else
	no "cache: a file cut short" "$(cat "$T/cache3.err") ${w:-}"
fi
# (holds compares with the archive's files: put back before it looks)
mv "$A/pool" "$T/pool.away"
runc cache4
rc4=$?
cp -R "$T/dl-cache4" "$T/dl-cache4.copy"	# its files are the pool's (links)
printf 'X' | dd of="$hdr" bs=1 seek=100 conv=notrunc 2>/dev/null
runc cache5
rc5=$?
mv "$T/pool.away" "$A/pool"
if [ $rc4 -eq 0 ] && w=$(holds "$T/dl-cache4.copy" $all101) && [ "$(errline cache4)" = "$lockline" ]; then
	ok "cache: with the archive's pool gone, every file from the cache, checked (nothing downloaded)"
else
	no "cache: the archive's pool gone" "$(cat "$T/cache4.err") ${w:-}"
fi
if [ $rc5 -eq 0 ]; then
	no "cache: damaged, the pool gone: download succeeded" "$(cat "$T/cache5.out")"
elif grep -q "^cache: $hdr: damaged" "$T/cache5.err" && [ ! -e "$T/dl-cache5/${hdr_101##*/}" ]; then
	ok "cache: damaged and the pool gone: fails, the damaged file not used"
else
	no "cache: damaged, the pool gone" "$(cat "$T/cache5.err")"
fi

# 20. toolchain/packages: a package its lock names comes from the pool
# into the cache, checked; damaged there, it is fetched again.
line trixie-amd64 x "$libf" | awk '{ sub(/:amd64$/, "", $3); print $3, "trixie", "amd64", $4, $5, $6 }' >"$T/plock"
pkg() {
	EXMAP_CACHE=$T/pc PACKAGES_LOCK=$T/plock KERNEL_MIRROR=file://$A "$repo/toolchain/packages" get libfake1 trixie amd64 \
		>"$T/$1.out" 2>"$T/$1.err"
}
if pkg pkg1 && [ "$(cat "$T/pkg1.out")" = "$T/pc/debs/${libf##*/}" ] && [ ! -s "$T/pkg1.err" ] &&
	[ "$(sum "$T/pc/debs/${libf##*/}")" = "$(sum "$A/$libf")" ]; then
	ok "packages: the locked file from the pool into the cache, its path printed"
else
	no "packages: the locked file" "$(cat "$T/pkg1.out" "$T/pkg1.err")"
fi
printf 'X' | dd of="$T/pc/debs/${libf##*/}" bs=1 seek=10 conv=notrunc 2>/dev/null
if pkg pkg2 && [ "$(sum "$T/pc/debs/${libf##*/}")" = "$(sum "$A/$libf")" ] &&
	grep -q "^cache: $T/pc/debs/${libf##*/}: damaged" "$T/pkg2.err"; then
	ok "packages: damaged in the cache, fetched again, said"
else
	no "packages: damaged in the cache" "$(cat "$T/pkg2.out" "$T/pkg2.err")"
fi
