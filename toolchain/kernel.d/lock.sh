# toolchain/kernel: the lock file (toolchain/kernels.lock, or KERNEL_LOCK),
# the kernel packages last resolved through a verified index for each
# DIST-ARCH the suites test. lock_refresh writes it (`make kernels-lock`),
# resolving each DIST-ARCH with `toolchain/kernel resolve`; from_lock reads
# one entry as the manifest when an index does not verify (a mirror
# mid-sync) or does not resolve.
# Needs from toolchain/kernel: me lockfile suites dist arch abi flavour,
# die and note; from apt.sh: manifest; from resolve.sh: manifest_names.
# On failure, why says why.

# split_da DIST-ARCH: d and a (a DIST may hold a dash: trixie-backports-amd64)
split_da() {
	case $1 in
	*-backports-*) d=${1%%-backports-*}-backports a=${1#*-backports-} ;;
	*) d=${1%%-*} a=${1#*-} ;;
	esac
}

# The lock's own description, written at its head on every refresh.
lock_header() {
	cat <<'EOH'
# toolchain/kernels.lock: the Debian kernel packages that toolchain/kernel
# last resolved through an index that verified against its signed Release,
# for each DIST-ARCH the suites test. When a suite's index does not verify
# (a mirror mid-sync) or does not resolve, `toolchain/kernel fetch` takes
# these files from the mirror's pool and checks their SHA256. Refreshed by
# `make kernels-lock` (toolchain/kernel lock), which keeps an entry as it was,
# with a warning, when its index does not verify that day.
#
# One package a line:  DIST-ARCH ROLE PACKAGE:ARCH VERSION SHA256 POOL-PATH
#   ROLE  image    the kernel: linux-image-REL, or from 6.19 linux-binary-REL
#                  (vmlinuz; linux-image-REL is then a metapackage)
#         base     from 6.19: linux-base-REL (config and System.map)
#         headers  its headers
#         common   the headers' common part
#         kbuild   linux-kbuild, for the build machine (amd64)
#         lib      a library the kbuild tools need (libc6 first), unpacked
#                  as a sysroot where this machine's libraries do not do
#   POOL-PATH is relative to the mirror's URI (the index's Filename).
EOH
}

# lock_refresh [DIST-ARCH...]: the `lock` command (every DIST-ARCH of
# suites when none is named). An entry whose index does not verify is kept
# as it was, with a warning; DIST-ARCHs not named stay as they were. Exits.
lock_refresh() {
	[ $# -gt 0 ] || set -- $suites
	for da; do
		case $da in *-*) ;; *) echo "$me: $da: not DIST-ARCH (e.g. trixie-armhf)" >&2; exit 2 ;; esac
	done
	tmp=$lockfile.new.$$ err=$lockfile.err.$$
	trap 'rm -f "$tmp" "$err"' EXIT
	[ -f "$lockfile" ] || : >"$lockfile" || die "$lockfile: cannot create"
	lock_header >"$tmp" || die "$tmp: cannot write"
	missing=0
	for da; do
		split_da "$da"
		if out=$("$0" resolve "$d" "$a" 2>"$err"); then
			echo "$out" >>"$tmp"
			v=$(echo "$out" | awk '$2 == "image" { print $4 }')
			old=$(awk -v k="$da" '$1 == k && $2 == "image" { print $4 }' "$lockfile")
			[ "$old" != "$v" ] || old=""
			note "$da: $v${old:+ (was $old)}"
			continue
		fi
		why=$(tail -n 1 "$err")
		why=${why#"$me: "}
		if grep -q "^$da " "$lockfile"; then
			grep "^$da " "$lockfile" >>"$tmp"
			v=$(awk -v k="$da" '$1 == k && $2 == "image" { print $4 }' "$lockfile")
			note "warning: $why; kept the locked $v"
		else
			note "warning: $why; no entry for $da (none was locked before)"
			missing=$((missing + 1))
		fi
	done
	grep -v -e '^#' -e '^[ 	]*$' "$lockfile" | while read -r k rest; do
		for da; do [ "$k" = "$da" ] && continue 2; done
		echo "$k $rest"
	done >>"$tmp"
	mv "$tmp" "$lockfile" || die "$lockfile: cannot replace"
	[ $missing -eq 0 ] || die "$missing DIST-ARCH without an entry in $lockfile"
	exit 0
}

# from_lock: DIST-ARCH's entry in the lock file as the manifest; else why.
from_lock() {
	[ -f "$lockfile" ] || { why="no lock file ($lockfile)"; return 1; }
	grep "^$dist-$arch " "$lockfile" >"$manifest"
	[ -s "$manifest" ] || { why="no locked kernel for $dist-$arch in $lockfile"; return 1; }
	bad=$(awk 'NF != 6 || $2 !~ /^(image|base|headers|common|kbuild|lib)$/ || $5 !~ /^[0-9a-f]+$/ ||
		length($5) != 64 || $3 !~ /:/ { print NR; exit }' "$manifest")
	[ -z "$bad" ] || { why="$lockfile: line $bad of $dist-$arch is not DIST-ARCH ROLE PACKAGE:ARCH VERSION SHA256 POOL-PATH"; return 1; }
	for r in image headers common kbuild; do
		[ "$(awk -v r=$r '$2 == r' "$manifest" | wc -l)" -eq 1 ] ||
			{ why="$lockfile: $dist-$arch has no single $r line"; return 1; }
	done
	# From 6.19 (linux-binary as image) config and System.map are in base.
	nb=$(awk '$2 == "base"' "$manifest" | wc -l)
	if awk '$2 == "image" && $3 ~ /^linux-binary-/ { f = 1 } END { exit !f }' "$manifest"; then
		[ "$nb" -eq 1 ] || { why="$lockfile: $dist-$arch has linux-binary as image but no single base line"; return 1; }
	else
		[ "$nb" -eq 0 ] || { why="$lockfile: $dist-$arch has a base line but no linux-binary as image"; return 1; }
	fi
	manifest_names
	# An ABI named: the lock does only if it holds that kernel.
	[ -z "$abi" ] || [ "$release" = "$abi-$flavour" ] ||
		{ why="the locked kernel is $release, not $abi-$flavour"; return 1; }
}
