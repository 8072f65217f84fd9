# toolchain/kernel's private apt: its own sources, state, cache and
# configuration under KERNEL_DIR/apt/DIST-ARCH, so that the machine's apt
# setup is neither read nor changed; DIST (and a backports suite's base
# suite) from the mirror of this machine's apt sources (toolchain/mirror).
# Needs from toolchain/kernel: repo top keyring buildarch dist base arch
# debarch, die and note. Sets mirror apt ulog manifest (and APT_CONFIG);
# on failure, why says what failed.

# apt_setup: the private apt for DIST with ARCH native and the build
# machine's architecture foreign.
apt_setup() {
	mirror=$("$repo/toolchain/mirror") || exit 1
	apt=$top/apt/$dist-$arch
	mkdir -p "$apt/etc/apt.conf.d" "$apt/etc/preferences.d" "$apt/state/lists/partial" \
		"$apt/cache/archives/partial" || die "$apt: cannot create"
	: >>"$apt/state/status"
	if [ $debarch = $buildarch ]; then archs="$debarch"; else archs="$debarch,$buildarch"; fi
	{
		echo "deb [arch=$archs signed-by=$keyring] $mirror $dist main"
		[ -z "$base" ] || echo "deb [arch=$archs signed-by=$keyring] $mirror $base main"
	} >"$apt/etc/sources.list"
	{
		echo "Dir::Etc \"$apt/etc\";"
		echo "Dir::Etc::Parts \"$apt/etc/apt.conf.d\";"
		echo "Dir::Etc::SourceList \"$apt/etc/sources.list\";"
		echo "Dir::Etc::SourceParts \"/dev/null\";"
		echo "Dir::Etc::Preferences \"/dev/null\";"
		echo "Dir::Etc::PreferencesParts \"$apt/etc/preferences.d\";"
		echo "Dir::State \"$apt/state\";"
		echo "Dir::State::status \"$apt/state/status\";"
		echo "Dir::Cache \"$apt/cache\";"
		echo "APT::Architecture \"$debarch\";"
		echo "APT::Architectures { \"$debarch\"; \"$buildarch\"; };"
		echo "Acquire::Languages \"none\";"
		echo "Acquire::Check-Valid-Until \"false\";"
		echo "Acquire::Check-Date \"false\";"
		echo "APT::Sandbox::User \"root\";"
		# Small on disk: indexes kept compressed, no source cache (and
		# the binary cache is removed after use: apt_tidy).
		echo "Acquire::GzipIndexes \"true\";"
		echo "Dir::Cache::srcpkgcache \"\";"
	} >"$apt/apt.conf"
	APT_CONFIG=$apt/apt.conf
	export APT_CONFIG
	ulog=$apt/update.log
	manifest=$apt/manifest
}

# apt_tidy: drop the binary cache (rebuilt from the indexes when needed).
apt_tidy() { rm -f "$apt/cache/pkgcache.bin"; }

# apt_update: apt-get update, tolerating errors (one index, often a foreign
# architecture's, can be mid-sync on the mirror): for the apt-get and
# apt-cache commands, where the caller checks that what it needs resolves.
apt_update() {
	if apt-get update >"$ulog" 2>&1; then
		touch "$apt/updated"
	else
		note "$dist $arch: apt-get update reported errors (see $ulog); checking what resolves"
	fi
}

# index_update: apt-get update, for resolving a kernel: it verifies only when
# every index of DIST came whole and matching its signed Release (apt keeps
# nothing new of a Release with one bad index). Else why says what failed.
index_update() {
	[ -r "$keyring" ] || { why="$keyring: missing (install debian-archive-keyring)"; return 1; }
	if apt-get update >"$ulog" 2>&1; then
		touch "$apt/updated"
		return 0
	fi
	if grep -q -e 'Hash Sum mismatch' -e 'File has unexpected size' "$ulog"; then
		why="index does not match Release (mirror mid-sync?)"
	elif grep -q -e NO_PUBKEY -e "couldn't be verified" -e 'is not signed' -e BADSIG -e EXPKEYSIG "$ulog"; then
		why="Release is not signed by a key in $keyring"
	else
		e=$(grep -E '^(E|W):' "$ulog" | grep -v 'Some index files failed' | head -n 1)
		why="apt-get update failed${e:+: $e}"
	fi
	return 1
}

# show PKG FIELD: a field of the candidate version, from the private index.
show() {
	apt-cache show --no-all-versions "$1" 2>/dev/null |
		awk -v f="$2" 'index($0, f ": ") == 1 { print substr($0, length(f) + 3); exit }'
}

# deps PKG: the names in PKG's Depends, one a line (alternatives included).
deps() {
	show "$1" Depends | tr ',|' '\n\n' | sed 's/^ *//; s/[ (].*//; s/:any$//' | sed '/^$/d'
}
