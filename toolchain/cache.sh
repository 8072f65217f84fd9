# The download cache: what the tests and the builds fetch (Debian's kernels,
# busybox and musl's source) and the kernels we build, once per machine
# instead of once per checkout. Sourced by toolchain/kernel,
# toolchain/tinykernel, toolchain/musl and tests/qemu/initramfs.
#
# The cache is EXMAP_CACHE, else /var/cache/exmap-mini, else (a user who
# cannot make that) ${XDG_CACHE_HOME:-~/.cache}/exmap-mini. Every file in it
# is checked against the SHA256 a lock file gives (toolchain/kernels.lock,
# toolchain/packages.lock) before it is used; one that does not match is
# fetched again, never used. Two runs at once (two checkouts, two suites)
# take a lock (flock) on what they fetch or build, so it is fetched once.
# Clearing it: rm -rf the directory (README.md says so); nothing else
# refers to it.
#
# cache_root              sets CACHE (made when missing); on failure, dies
# cache_sha FILE          its SHA256
# cache_file POOL URL SUM sets cache_path to POOL/basename of URL, a whole copy
#                         of URL whose SHA256 is SUM: reused when it checks,
#                         else (missing, or damaged: one line says so)
#                         downloaded again; 1 with cache_why on failure
# Needs from the sourcing script: die (one line, exit 1).

cache_root() {
	if [ -n "${EXMAP_CACHE:-}" ]; then
		CACHE=$EXMAP_CACHE
	elif mkdir -p /var/cache/exmap-mini 2>/dev/null && [ -w /var/cache/exmap-mini ]; then
		CACHE=/var/cache/exmap-mini
	else
		CACHE=${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/exmap-mini
	fi
	mkdir -p "$CACHE" || die "$CACHE: cannot create the cache (set EXMAP_CACHE to a directory you can write)"
}

cache_sha() { sha256sum <"$1" | cut -c 1-64; }

# cache_file POOL URL SUM: see above. The check and the download happen
# under a lock of the file's own (POOL/.NAME.lock), so that two runs
# wanting the same file fetch it once (and others meanwhile); the download
# goes to a name of its own and is moved into place whole.
cache_file() {
	cache_path=$1/${2##*/}
	cache_why=
	mkdir -p "$1" || { cache_why="$1: cannot create"; return 1; }
	[ -x /usr/lib/apt/apt-helper ] || { cache_why="/usr/lib/apt/apt-helper: not found (part of apt)"; return 1; }
	cache_why=$(
		l=$1/.${2##*/}.lock
		exec 8>>"$l" && flock 8 || { echo "$l: cannot lock"; exit 1; }
		f=$cache_path
		if [ -f "$f" ]; then
			got=$(cache_sha "$f")
			[ "$got" = "$3" ] && exit 0
			echo "cache: $f: damaged (SHA256 $got, not $3): fetched again" >&2
			rm -f "$f"
		fi
		part=$f.part.$$
		log=$1/download.log
		if ! /usr/lib/apt/apt-helper -o APT::Sandbox::User="$(id -un)" download-file "$2" "$part" "SHA256:$3" \
			>"$part.log" 2>&1; then
			got=$(sed -n '/Hashes of received file/,/Filesize/s/.*SHA256:\([0-9a-f]*\).*/\1/p' "$part.log" | tail -n 1)
			if grep -q 'Hash Sum mismatch' "$part.log"; then
				echo "SHA256 ${got:-?} differs from $3"
			else
				e=$(grep -E '^(E|Err):' "$part.log" | tail -n 1)
				echo "cannot download (${e:-see $log})"
			fi
			cat "$part.log" >>"$log"
			rm -f "$part" "$part.FAILED" "$part.log"
			exit 1
		fi
		cat "$part.log" >>"$log"
		rm -f "$part.log"
		# from a file: mirror apt links to the file: the cache keeps a copy
		if [ -L "$part" ]; then
			cp -L "$part" "$part.copy" && mv "$part.copy" "$part" || { echo "$part: cannot copy"; exit 1; }
		fi
		mv "$part" "$f" || { echo "$f: cannot move into place"; exit 1; }
	)
}
