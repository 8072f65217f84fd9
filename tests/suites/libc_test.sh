#!/bin/sh
# Builds with another C library, as Buildroot and Yocto make them: make
# CC=... CFLAGS=... LDFLAGS=..., without musl's specs, with Debian's glibc
# cross compilers for arm64 and armhf, static and dynamic, Debian's hardened
# flags on top (fortify, stack protector):
#   - each builds, with no warning (WERROR), and its binary is glibc's (the
#     ABI tag glibc's start files carry), linked as asked (an INTERP and
#     libc.so.6, or neither);
#   - its unit tests and our snprintf's pass under qemu-user (a dynamic
#     build with Debian's cross libraries, -L), and -V runs;
#   - its objects call no allocator (malloc, strdup, fopen, opendir...: read
#     from their machine code, LTO builds' objects being fat), and
#     every C library function they call is one tests/data/libc-calls names
#     with what it allocates; the same for the default build's objects (musl);
#   - 32-bit off_t is refused at compile time (-U_FILE_OFFSET_BITS), named;
#   - this machine's exmap-mini built with glibc (static) passes the
#     integration suite (the kernel's figures for a workload of known
#     sharing) but its check that no allocator is linked, which glibc's own
#     malloc (its start-up uses it) fails, as it must.
# Needs: make test's build (build/obj, build/host/workload), the glibc cross
# compilers and libc6-dev-*-cross, qemu-user-static; root for the integration
# suite. Last line: N passed, N failed.
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib/lib.sh
B=build/libc
rm -rf "$B" && mkdir -p "$B" || { no "$B: cannot create"; finish; }
LIST=tests/data/libc-calls
ALLOC='malloc|calloc|realloc|reallocarray|free|aligned_alloc|posix_memalign|memalign|valloc|pvalloc|strdup|strndup|asprintf|vasprintf|getline|getdelim|open_memstream|fopen|fdopen|freopen|popen|tmpfile|opendir|fdopendir|scandir|glob|wordexp|realpath|canonicalize_file_name|qsort'
FLAGS="-O2 -fstack-protector-strong -D_FORTIFY_SOURCE=2 -Wformat -Werror=format-security"

# calls OBJDIR CC: the C library functions the objects call, one a line
# (undefined, not defined by another object, not libgcc's), glibc's
# variants under the plain name. Read from the objects' machine code: an
# LTO build's objects hold it beside the compiler's IR (the Makefile's
# -ffat-lto-objects), whose symbols nm's plugin would list instead, and
# which name no C library call; an object with IR only lists none here.
calls() {
	_fmt=$(objdump -f "$1/main.o" | sed -n 's/.* file format //p')
	nm --target="$_fmt" "$1"/*.o | awk '$2 ~ /^[TDBRCVW]$/ { print $3 }' | sort -u >"$B/defined"
	nm "$($2 -print-libgcc-file-name)" 2>/dev/null | awk '$2 == "T" { print $3 }' |
		sort -u >>"$B/defined"
	sort -u -o "$B/defined" "$B/defined"
	nm -u --target="$_fmt" "$1"/*.o | awk 'NF == 2 { print $2 }' | sort -u | comm -23 - "$B/defined" |
		sed -e 's/^__//' -e 's/_chk$//' -e 's/_time64$//' -e 's/64//' | sort -u
}
# no_alloc CALLS: none is an allocator
no_alloc() {
	grep -xE "$ALLOC" "$1" | tr '\n' ' ' | grep . && return 1
	return 0
}
# reviewed CALLS: each is in the list
reviewed() {
	awk '!/^#/ && NF { print $1 }' "$LIST" | sort -u >"$B/listed"
	_new=$(comm -23 "$1" "$B/listed" | tr '\n' ' ')
	[ -z "$_new" ] && return 0
	echo "not in $LIST (say what each allocates there): $_new"
	return 1
}
objects_check() {	# WHAT OBJDIR CC
	calls "$2" "$3" >"$B/calls"
	check_cmd "$1: the objects call C library functions" test -s "$B/calls"
	check_cmd "$1: the objects call no allocator" no_alloc "$B/calls"
	check_cmd "$1: every C library call is one $LIST names with what it allocates" \
		reviewed "$B/calls"
}

# This machine's exmap-mini with glibc, static, through the integration
# suite, in the background of the cross builds (it mostly waits).
integ=
if [ "$(id -u)" -eq 0 ] && [ -x build/host/workload ]; then
	if make -s BUILD=$B/native CC=gcc CFLAGS="$FLAGS" $B/native/exmap-mini >"$B/native.log" 2>&1; then
		env EXMAP=$B/native/exmap-mini WORKLOAD=build/host/workload README=README.md \
			MUSL_WORKLOAD=build/tools/workload tests/suites/integration.sh >"$B/integ.log" 2>&1 &
		integ=$!
	else
		no "x86_64 glibc: builds" "$(tail -n 5 "$B/native.log")"
	fi
else
	no "x86_64 glibc: integration suite" "needs root and build/host/workload (make test builds it)"
fi

for spec in arm64:aarch64-linux-gnu:aarch64 armhf:arm-linux-gnueabihf:arm; do
	deb=${spec%%:*} t=${spec#*:}
	q=qemu-${t#*:}-static t=${t%:*}
	arch=$deb
	[ "$deb" = armhf ] && arch=arm
	command -v "$t-gcc" >/dev/null 2>&1 && [ -d "/usr/$t/lib" ] ||
		{ no "$deb: $t-gcc and its glibc (toolchain/setup pkg)"; continue; }
	for link in static dynamic; do
		n="$deb glibc $link" d=$B/$deb-$link
		st=1 L=
		[ $link = dynamic ] && st=0 L="-L /usr/$t"
		if ! make -s ARCH=$arch BUILD=$d CC=$t-gcc CFLAGS="$FLAGS" LDFLAGS= STATIC=$st \
			$d/exmap-mini $d/unit $d/fmt_test >"$d.log" 2>&1; then
			no "$n: builds with make CC=$t-gcc CFLAGS=... LDFLAGS=..." "$(tail -n 5 "$d.log")"
			continue
		fi
		ok "$n: builds with make CC=$t-gcc CFLAGS=... LDFLAGS=... (no warning)"
		check_cmd "$n: built without musl's specs" not grep -q specs "$d/obj/flags"
		readelf -nW "$d/exmap-mini" >"$d.notes" 2>&1
		check_cmd "$n: the binary is glibc's (its ABI tag)" has 'NT_GNU_ABI_TAG' "$d.notes"
		readelf -lW -d "$d/exmap-mini" >"$d.dyn" 2>&1
		if [ $link = static ]; then
			check_cmd "$n: no INTERP, no libc.so" not grep -qE 'INTERP|NEEDED' "$d.dyn"
		else
			check_cmd "$n: an INTERP and libc.so.6" has 'NEEDED.*\[libc\.so\.6\]' "$d.dyn"
		fi
		# shellcheck disable=SC2086 # L is the option and its argument
		$q $L "$d/unit" >"$d.unit" 2>&1
		add_results "$d.unit" "$n: unit tests"
		# shellcheck disable=SC2086
		$q $L "$d/fmt_test" >"$d.fmt" 2>&1
		add_results "$d.fmt" "$n: our snprintf"
		# shellcheck disable=SC2086
		check_eq "$n: -V under $q" "$($q $L "$d/exmap-mini" -V 2>&1)" \
			"exmap-mini $(sed -n 's/^#define EXMAP_VERSION "\(.*\)"$/\1/p' src/exmap.h)"
		objects_check "$n" "$d/obj" "$t-gcc"
	done
done

if [ -d build/obj ]; then
	objects_check "the default build (musl)" build/obj gcc
else
	no "the default build (musl): build/obj (make test builds it)"
fi

# 32-bit off_t (glibc on armhf without _FILE_OFFSET_BITS): src/exmap.h stops it.
off32_refused() {
	! make -s ARCH=arm BUILD=$B/off32 CC=arm-linux-gnueabihf-gcc CPPFLAGS=-U_FILE_OFFSET_BITS \
		$B/off32/obj/util.o >"$B/off32.log" 2>&1 &&
		has 'build with -D_FILE_OFFSET_BITS=64' "$B/off32.log"
}
check_cmd "armhf glibc with 32-bit off_t: refused at compile time, the fix named" off32_refused

if [ -n "$integ" ]; then
	wait "$integ"
	grep -v '^ok ' "$B/integ.log" | sed 's/^/  integration: /'
	fails=$(grep '^FAIL ' "$B/integ.log" | sed 's/:.*//')
	passes=$(grep -c '^ok ' "$B/integ.log")
	check_eq "x86_64 glibc, static: the integration suite passes, $passes checks, but for the one that no allocator is linked (glibc's own)" \
		"$fails" "FAIL links no allocator"
	check_cmd "x86_64 glibc: its integration suite ran" within 150 "$passes" ""
fi
finish
