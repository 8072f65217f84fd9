# toolchain/kernel: fetching. obtain chooses the kernel (the verified
# index's, resolve.sh; else the lock's, lock.sh, one line saying so) and
# downloads its packages through apt's own transport into the machine's
# pool (KERNEL_DIR/debs), each checked against its SHA256; fetch_unpack
# unpacks them into DIR.new (an interrupted fetch leaves no half tree that
# looks fetched); fetch_done records the info file and the tree's list of
# files and moves DIR.new into place. Only when both the index and the lock
# fail does a fetch fail, naming both reasons. tree_ok decides whether a
# tree fetched before (by any checkout: KERNEL_DIR is the machine's cache)
# serves as it is.
# Needs from toolchain/kernel: helper buildarch dist arch karch cross dir
# lockfile abi top, die and note; from apt.sh: apt mirror manifest,
# index_update and apt_tidy; resolve_index and from_lock; cache_file and
# cache_sha (toolchain/cache.sh). Sets source (index or lock), new, R (the
# tree's final root), image config systemmap kdir_new; the headers and
# kbuild steps (headers.sh, sysroot.sh) set kgcc cc btf wrapped, which
# fetch_done records.

# get_debs DIR ROLE...: the manifest's packages of those roles into DIR,
# each checked against its SHA256 (the index's or the lock's); else why
# names the file and what went wrong. Each comes through the machine's pool
# of packages (KERNEL_DIR/debs, toolchain/cache.sh): one there whose SHA256
# is right is not downloaded again, a damaged one is (said), and DIR gets a
# link to it (a copy across file systems).
get_debs() {
	d=$1
	shift
	mkdir -p "$d" || die "$d: cannot create"
	awk -v roles=" $* " 'index(roles, " " $2 " ")' "$manifest" >"$apt/want" || die "$apt/want: cannot write"
	while read -r k r p v sum pool; do
		f=$d/${pool##*/}
		if ! cache_file "$top/debs" "$mirror/$pool" "$sum"; then
			case $cache_why in
			"SHA256 "*) set -- $cache_why
				why="$pool: SHA256 $2 differs from the $source's $sum" ;;
			*)	why="$pool: $cache_why" ;;
			esac
			return 1
		fi
		[ "$cache_path" -ef "$f" ] || ln -f "$cache_path" "$f" 2>/dev/null || cp "$cache_path" "$f" ||
			die "$f: cannot write"
	done <"$apt/want"
}

# obtain DIR ROLE...: choose the kernel (the index's newest, else the lock's)
# and download those roles' packages into DIR; one line when the lock is used;
# dies when neither works.
obtain() {
	d=$1
	shift
	[ -x "$helper" ] || die "$helper: not found (part of apt)"
	iwhy=""
	if index_update && resolve_index; then
		source=index
		get_debs "$d" "$@" && return 0
	fi
	iwhy=$why
	source=lock
	from_lock || die "$dist $arch: $iwhy; $why"
	get_debs "$d" "$@" || die "$dist $arch: $iwhy; the locked $version: $why"
	note "$dist $arch: $iwhy; using the locked $version"
}

# deb ROLE: the downloaded .deb of that role.
deb() { echo "$new/debs/$(awk -v r="$1" '$2 == r { n = split($6, p, "/"); print p[n]; exit }' "$new/manifest")"; }

# unpack ROLE...: those roles' packages, whole, into DIR.new/root.
unpack() {
	for r; do
		f=$(deb "$r")
		dpkg-deb -x "$f" "$new/root" || die "$dist $arch: $f: dpkg-deb -x failed"
	done
}

# fetch_unpack: the kernel's packages downloaded and unpacked into DIR.new:
# the headers, their common part and kbuild whole, of the image only what
# boots (vmlinuz, config, System.map).
fetch_unpack() {
	new=$dir.new
	rm -rf "$new" "$dir" || die "$dir: cannot remove"
	mkdir -p "$new/debs" "$new/root" || die "$new: cannot create"
	obtain "$new/debs" image base headers common kbuild
	cp "$manifest" "$new/manifest" || die "$new/manifest: cannot write"
	[ $source = lock ] ||
		note "$dist $arch: kernel $release ($version): $imgpkg $hdrpkg $commonpkg $kbuildpkg:$buildarch"
	unpack headers common kbuild
	R=$dir/root
	if [ -n "$basepkg" ]; then
		# linux-binary holds vmlinuz alone, linux-base config and System.map.
		unpack image base
		mb=usr/lib/modules/$release
		image=$(cd "$new/root" && ls "$mb/vmlinuz" "$mb/vmlinux" 2>/dev/null | head -n 1)
		[ -n "$image" ] || die "$dist $arch: $imgpkg has no /$mb/vmlinuz"
		config=$R/$mb/config systemmap=$R/$mb/System.map
	else
		# Of the image only /boot is needed (the modules would be hundreds of
		# MB); the .deb stays in debs/ for anything else.
		f=$(deb image)
		dpkg-deb --fsys-tarfile "$f" | (cd "$new/root" && tar -xf - ./boot) ||
			die "$dist $arch: $f: cannot extract /boot"
		image=$(cd "$new/root" && ls "boot/vmlinuz-$release" "boot/vmlinux-$release" 2>/dev/null | head -n 1)
		[ -n "$image" ] || die "$dist $arch: $imgpkg has no /boot/vmlinuz-$release"
		config=$R/boot/config-$release systemmap=$R/boot/System.map-$release
	fi
	image=$R/$image
	kdir_new=$new/root/usr/src/linux-headers-$release
	[ -f "$kdir_new/Makefile" ] || die "$dist $arch: $hdrpkg has no usr/src/linux-headers-$release/Makefile"

	# Absolute symlinks would leave the tree: make them point inside it.
	find "$new/root" -type l | while read -r l; do
		t=$(readlink "$l")
		case $t in /*) ln -sfn "$R$t" "$l" ;; esac
	done
}

# fetch_done: the info file (every key=value `toolchain/kernel info`
# prints), then DIR.new moved into place.
fetch_done() {
	symvers=$R/usr/src/linux-headers-$release/Module.symvers
	{
		echo "dir=$dir"
		echo "dist=$dist"
		echo "arch=$arch"
		echo "release=$release"
		echo "version=$version"
		echo "image=$image"
		echo "kdir=$R/usr/src/linux-headers-$release"
		echo "config=$config"
		echo "systemmap=$systemmap"
		echo "symvers=$symvers"
		echo "karch=$karch"
		echo "cross_compile=$cross"
		echo "kernel_cc=$kgcc"
		echo "cc=$cc"
		echo "module_btf=$btf"
		echo "wrapped=${wrapped# }"
		[ -z "$wrapped" ] || echo "sysroot=$dir/sysroot"
		echo "packages=$imgpkg${basepkg:+ $basepkg} $hdrpkg $commonpkg $kbuildpkg:$buildarch"
		echo "source=$source"
		echo "image_sha256=$(cache_sha "$new/${image#"$dir"/}")"
	} >"$new/info.tmp"
	mv "$new/info.tmp" "$new/info"
	tree_list "$new" >"$new/files" || die "$new/files: cannot write"
	apt_tidy
	mv "$new" "$dir" || die "$new: cannot move to $dir"
	note "$dist $arch: fetched $release into $dir"
}

# tree_list DIR: every file and link of the tree with its size and time, to
# tell later whether anything in it changed (a module build writes nothing
# there).
tree_list() {
	(cd "$1" && find root sysroot -printf '%y %p %s %T@\n' 2>/dev/null | LC_ALL=C sort)
}

# tree_ok: the fetched tree serves as it is; else why says why not. Its
# files are as fetch_done listed them, its image's SHA256 the one
# recorded; every package it was unpacked from that the lock also names,
# at that version, has the lock's SHA256; and (no ABI named) the lock names
# no newer kernel for DIST-ARCH (make kernels-lock moved on: the newer one
# is fetched).
tree_ok() {
	[ -f "$dir/files" ] || { why="no list of its files (fetched before the cache)"; return 1; }
	tree_list "$dir" >"$dir/files.now" 2>/dev/null || { why="$dir: cannot list"; return 1; }
	if ! cmp -s "$dir/files" "$dir/files.now"; then
		why="$(diff "$dir/files" "$dir/files.now" | grep '^[<>]' | head -n 1 | cut -d' ' -f3) changed since it was fetched"
		rm -f "$dir/files.now"
		return 1
	fi
	rm -f "$dir/files.now"
	img=$(get image)
	[ "$(cache_sha "$img" 2>/dev/null)" = "$(get image_sha256)" ] ||
		{ why="$img: SHA256 not the one recorded at fetch"; return 1; }
	[ -f "$lockfile" ] || return 0
	why=$(awk 'NR == FNR { if ($1 !~ /^#/ && NF == 6) L[$1 " " $2 " " $3 " " $4] = $5; next }
		($1 " " $2 " " $3 " " $4) in L && L[$1 " " $2 " " $3 " " $4] != $5 {
			print $3 " " $4 ": SHA256 " $5 ", the lock says " L[$1 " " $2 " " $3 " " $4]; exit }' \
		"$lockfile" "$dir/manifest")
	[ -z "$why" ] || return 1
	[ -z "$abi" ] || return 0
	lv=$(awk -v k="$dist-$arch" '$1 == k && $2 == "image" { print $4; exit }' "$lockfile")
	if [ -n "$lv" ] && dpkg --compare-versions "$lv" gt "$(get version)"; then
		why="the lock names a newer kernel ($lv, this is $(get version))"
		return 1
	fi
}
