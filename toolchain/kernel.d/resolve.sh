# toolchain/kernel: which kernel, from a verified index. The newest
# linux-image-REL-FLAVOUR in DIST's own index whose headers are there too
# (not the metapackage's choice: for a backports suite apt's candidate is
# the base suite's, and a suite can carry images without headers: trixie-
# backports has images from 6.16 but headers of some only), or the ABI
# named; then its headers, their common part, linux-kbuild for the build
# machine and the kbuild tools' libraries, as lines of the manifest (the
# lock's format: lock.sh). Both package layouts: up to 6.18 linux-image-REL
# holds /boot; from 6.19 it is a metapackage, vmlinuz is in linux-binary-REL
# and config and System.map in linux-base-REL.
# Needs from toolchain/kernel: helper buildarch dist arch debarch flavour
# abi; from apt.sh: apt mirror manifest, show and deps. Sets imgpkg hdrpkg
# commonpkg kbuildpkg basepkg version release; on failure, why says why.

# record ROLE PKG: PKG's line for the manifest, from the index; else why
# says what is missing.
record() {
	l=$(apt-cache show --no-all-versions "$2" 2>/dev/null | awk '
		/^Package: / { p = $2 } /^Architecture: / { a = $2 } /^Version: / { v = $2 }
		/^SHA256: / { s = $2 } /^Filename: / { f = $2 }
		/^$/ { exit }
		END { if (p != "" && a != "" && v != "" && s ~ /^[0-9a-f]+$/ && length(s) == 64 && f != "")
			print p ":" a, v, s, f }')
	[ -n "$l" ] || { why="$2: no Package, Version, SHA256 or Filename in the index"; return 1; }
	echo "$dist-$arch $1 $l" >>"$manifest"
}

# newest_image: the image package of DIST's newest kernel for the flavour
# whose headers DIST has too, from DIST's own index. The signed image
# before the -unsigned one of the same kernel. Nothing when there is none.
newest_image() {
	set -- $(ls "$apt/state/lists/"*"_dists_${dist}_main_binary-${debarch}_Packages"* 2>/dev/null |
		grep -v -e '\.diff' -e '/partial/')
	[ $# -gt 0 ] || return 0
	best="" bestv=""
	# "VERSION PACKAGE" for each image linux-image-REL-FLAVOUR[-unsigned]
	# (REL: digits first, each further dash-part too, so -cloud-amd64 or
	# -rt-amd64 is another flavour) whose linux-headers-REL-FLAVOUR is there.
	"$helper" cat-file "$@" | awk -v fl="$flavour" '
		function take() {
			if (p == "" || v == "") return
			r = p
			if (r ~ /^linux-headers-/) { sub(/^linux-headers-/, "", r); hdr[r] = 1; return }
			if (r !~ /^linux-image-[0-9]/) return
			sub(/^linux-image-/, "", r); sub(/-unsigned$/, "", r)
			n = length(r) - length(fl) - 1
			if (n < 1 || substr(r, n + 1) != "-" fl) return
			k = split(substr(r, 1, n), part, "-")
			for (i = 1; i <= k; i++) if (part[i] !~ /^[0-9]/) return
			img[++m] = v " " p; rel[m] = r
		}
		/^Package: / { p = $2 } /^Version: / { v = $2 }
		/^$/ { take(); p = v = "" }
		END { take(); for (i = 1; i <= m; i++) if (rel[i] in hdr) print img[i] }' |
		sort -k 2 >"$apt/images"
	while read -r v p; do
		if [ -z "$best" ] || dpkg --compare-versions "$v" gt "$bestv" ||
			{ [ "$v" = "$bestv" ] && [ "$best" != "${best%-unsigned}" ] && [ "$p" = "${p%-unsigned}" ]; }; then
			best=$p bestv=$v
		fi
	done <"$apt/images"
	echo "$best"
}

# resolve_index: from the newest image (or the ABI named) to the kernel's
# packages and the kbuild tools' libraries, written to the manifest; on
# failure, why says why. From 6.19 the image role is linux-binary-REL.
resolve_index() {
	: >"$manifest"
	if [ -n "$abi" ]; then
		imgpkg=linux-image-$abi-$flavour
		[ -n "$(show "$imgpkg" Version)" ] || imgpkg=$imgpkg-unsigned
		[ -n "$(show "$imgpkg" Version)" ] ||
			{ why="no kernel $abi-$flavour on $mirror $dist"; return 1; }
	else
		imgpkg=$(newest_image)
		[ -n "$imgpkg" ] && [ -n "$(show "$imgpkg" Version)" ] ||
			{ why="no linux-image-*-$flavour with its headers in $dist on $mirror"; return 1; }
	fi
	rel=$(kernel_release "$imgpkg")
	hdrpkg=linux-headers-$rel
	[ -n "$(show "$hdrpkg" Version)" ] || { why="$hdrpkg not found (the image is $imgpkg)"; return 1; }
	basepkg=""
	if [ -n "$(show "linux-binary-$rel" Version)" ]; then
		imgpkg=linux-binary-$rel basepkg=linux-base-$rel
		[ -n "$(show "$basepkg" Version)" ] || { why="$basepkg not found (the binary is $imgpkg)"; return 1; }
	fi
	# the RT flavours' common part is linux-headers-REL-common-rt up to 6.12
	commonpkg=$(deps "$hdrpkg" | grep -E '^linux-headers-.*-common(-rt)?$' | head -n 1)
	kbuildpkg=$(deps "$hdrpkg" | grep '^linux-kbuild-' | head -n 1)
	[ -n "$commonpkg" ] || { why="$hdrpkg depends on no linux-headers-*-common(-rt) package"; return 1; }
	[ -n "$kbuildpkg" ] || { why="$hdrpkg depends on no linux-kbuild-* package"; return 1; }
	[ -n "$(show "$kbuildpkg:$buildarch" Version)" ] ||
		{ why="$kbuildpkg:$buildarch not found (is the $buildarch index of $dist missing?)"; return 1; }
	record image "$imgpkg" && record headers "$hdrpkg" && record common "$commonpkg" &&
		record kbuild "$kbuildpkg:$buildarch" || return 1
	[ -z "$basepkg" ] || record base "$basepkg" || return 1
	# The kbuild tools' libraries (each dependency's first alternative),
	# libc6 first: a sysroot for them where this machine's do not do.
	libs=$(show "$kbuildpkg:$buildarch" Depends | tr ',' '\n' |
		sed 's/^ *//; s/[ (|].*//; s/:any$//' | grep -e '^lib' -e '^zlib' | grep -vx libc6 | sort -u)
	for p in libc6 $libs; do
		record lib "$p:$buildarch" || return 1
	done
	manifest_names
}

# kernel_release IMAGE-PACKAGE: its ABI name (linux-image-6.12.94+deb13-armmp
# gives 6.12.94+deb13-armmp).
kernel_release() {
	r=${1#linux-image-}
	r=${r#linux-binary-}
	echo "${r%-unsigned}"
}

# manifest_names: the names, version and release from the manifest (the
# index's or the lock's).
manifest_names() {
	name() { awk -v r="$1" '$2 == r { sub(/:[^:]*$/, "", $3); print $3; exit }' "$manifest"; }
	imgpkg=$(name image) hdrpkg=$(name headers) commonpkg=$(name common) kbuildpkg=$(name kbuild)
	basepkg=$(name base)
	version=$(awk '$2 == "image" { print $4; exit }' "$manifest")
	release=$(kernel_release "$imgpkg")
}
