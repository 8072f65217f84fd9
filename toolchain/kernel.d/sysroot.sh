# toolchain/kernel: kbuild tools that do not run with this machine's
# libraries (trixie's modpost and objtool need glibc 2.38; bullseye's
# sign-file needs libssl1.1) run through the suite's own loader, libc and
# libraries, unpacked in DIR/sysroot: each such tool is renamed TOOL.bin
# and TOOL becomes a wrapper script, so that kbuild calls it as before.
# Needs from toolchain/kernel: dist arch dir, die and note; from fetch.sh:
# new source and get_debs (kbuildpkg: the manifest's, resolve.sh). Sets
# wrapped (the tools wrapped, for the info file).

# kbuild_sysroot: find the kbuild tools whose libraries do not resolve
# here; unpack the manifest's lib packages and wrap those tools.
kbuild_sysroot() {
	kb=$new/root/usr/lib/$kbuildpkg
	[ -d "$kb" ] || die "$dist $arch: $kbuildpkg has no usr/lib/$kbuildpkg"
	bad="" why=""
	for f in $(find "$kb" -type f -perm -u+x); do
		head -c 4 "$f" | grep -q 'ELF' || continue
		w=$(ldd "$f" 2>&1 | grep 'not found' | head -n 1)
		[ -n "$w" ] || continue
		bad="$bad $f"
		[ -n "$why" ] || why=$(echo "$w" | sed 's/^[^:]*: //; s/^[ 	]*//; s/ (required by .*//')
	done
	wrapped=""
	[ -n "$bad" ] || return 0
	libs=$(awk '$2 == "lib" { sub(/:[^:]*$/, "", $3); printf " %s", $3 }' "$new/manifest")
	[ -n "$libs" ] || die "$dist $arch: the $source names no libraries for $kbuildpkg's tools"
	note "$dist $arch: $(echo "$bad" | wc -w) kbuild tools do not run with this machine's libraries ($why): they run with $dist's$libs, unpacked in $dir/sysroot"
	mkdir -p "$new/sysroot" || die "$new/sysroot: cannot create"
	get_debs "$new/sysroot-debs" lib || die "$dist $arch: $why"
	for f in "$new"/sysroot-debs/*.deb; do
		dpkg-deb -x "$f" "$new/sysroot" || die "$f: dpkg-deb -x failed"
	done
	S=$dir/sysroot
	ld=$(cd "$new/sysroot" && ls lib64/ld-linux-x86-64.so.2 usr/lib64/ld-linux-x86-64.so.2 \
		lib/x86_64-linux-gnu/ld-linux-x86-64.so.2 usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2 2>/dev/null | head -n 1)
	[ -n "$ld" ] || die "$dist $arch: no ld-linux-x86-64.so.2 in $dist's libc6"
	lp=$S/lib/x86_64-linux-gnu:$S/usr/lib/x86_64-linux-gnu
	for f in $bad; do
		mv "$f" "$f.bin" || die "$f: cannot rename"
		rel=${f#"$new"/}
		cat >"$f" <<EOS
#!/bin/sh
# toolchain/kernel: built for $dist's glibc; run through $dist's loader.
exec $S/${ld#/} --library-path $lp $dir/$rel.bin "\$@"
EOS
		chmod 755 "$f"
		wrapped="$wrapped ${rel#root/usr/lib/"$kbuildpkg"/}"
	done
	# Check now (with the tree still at .new) that the loader finds everything.
	for f in $bad; do
		out=$("$new/sysroot/$ld" --library-path "$new/sysroot/lib/x86_64-linux-gnu:$new/sysroot/usr/lib/x86_64-linux-gnu" --list "$f.bin" 2>&1)
		case $out in *"not found"*) die "$f: still unresolved with $dist's libc: $(echo "$out" | grep 'not found' | head -n 1)" ;; esac
	done
}
