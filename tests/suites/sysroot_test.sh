#!/bin/sh
# sysroot_open() (src/sysroot.c) against sysroot trees built here with the
# host's gcc: Buildroot-like stripped files with unstripped twins in staging/,
# Yocto-like .debug twins, other builds at the same path, no build-id, corrupt
# and non-ELF files, symlink loops, a tree deeper than SYSROOT_DEPTH_MAX,
# paths longer than PATH_MAX, and (as an unprivileged user) unreadable
# directories and a mount point. The expected build-ids come from readelf -n. One line per case:
# the driver's output against the one expected. Environment: DRV (default
# build/sysroot_drv). Last line: N passed, N failed.
set -u
cd "$(dirname "$0")/../.." || exit 2
DRV=${DRV:-build/sysroot_drv}
case $DRV in /*) ;; *) DRV=$PWD/$DRV ;; esac
. tests/lib/lib.sh

T=$(mktemp -d) || exit 2
# chmod first: the unreadable directories would stop rm
trap 'chmod -R u+rwx "$T" 2>/dev/null; rm -rf "$T"' EXIT
trap 'no interrupted; finish' INT TERM HUP

[ -x "$DRV" ] || { no "driver" "$DRV is not built (make build/sysroot_drv)"; finish; }

# check_out NAME EXPECTED CMD...: CMD's one line of output must be EXPECTED
check_out() {
	name=$1 want=$2
	shift 2
	got=$("$@" 2>&1)
	check_eq "$name" "$got" "$want" "
  want: $want
  got:  $got"
}

# check_like: the same, EXPECTED a shell pattern (for the ELF reader's own words)
check_like() {
	name=$1 want=$2
	shift 2
	got=$("$@" 2>&1)
	case $got in
	$want) ok "$name" ;;
	*) no "$name" "
  want (pattern): $want
  got:  $got" ;;
	esac
}

# A hung walk (a followed symlink loop) fails its case instead of the run.
drv() { timeout 60 "$DRV" "$@"; }

setup_fail() { no "setup: $1"; finish; }

buildid() { readelf -n "$1" 2>/dev/null | sed -n 's/^ *Build ID: *//p'; }

# build NAME V [GCC ARGS...]: $B/NAME, a program (or with -shared a library)
# whose code depends on V, so every V has its own build-id
B=$T/build
mkdir -p "$B" || setup_fail "mkdir"
cat >"$B/v.c" <<'EOF'
static volatile int v = V;
int f(int x) { return x * V + v; }
int main(void) { return f(v) == V * V + V ? 0 : 1; }
EOF
build() {
	out=$1 v=$2
	shift 2
	gcc -O1 -DV="$v" -Wl,--build-id "$@" -o "$B/$out" "$B/v.c" ||
		setup_fail "gcc $out"
}
build prog 1
build libfoo.so.1.0 2 -fPIC -shared -Wl,-soname,libfoo.so.1
build app 3
build absent 4
build noid 5 -Wl,--build-id=none
build dbg 6
build dbgonly 7
build short 8 -Wl,--build-id=0xdeadbeef
build bar.so 9 -fPIC -shared
build hidden 10
build full 11
build lone 12
build deepa 13
build deepb 14
build locked 15
build lockedf 16
build longa 17
build longb 18
build mnt 19
for f in prog libfoo.so.1.0 dbg bar.so hidden lone deepa locked longa; do
	strip -o "$B/$f.stripped" "$B/$f" || setup_fail "strip $f"
done
objcopy --only-keep-debug "$B/dbg" "$B/dbg.debug" || setup_fail "objcopy dbg"
objcopy --only-keep-debug "$B/dbgonly" "$B/dbgonly.debug" || setup_fail "objcopy dbgonly"

ID_PROG=$(buildid "$B/prog")
ID_LIB=$(buildid "$B/libfoo.so.1.0")
ID_APP=$(buildid "$B/app")
ID_ABSENT=$(buildid "$B/absent")
ID_DBG=$(buildid "$B/dbg")
ID_DBGONLY=$(buildid "$B/dbgonly")
ID_BAR=$(buildid "$B/bar.so")
ID_HIDDEN=$(buildid "$B/hidden")
ID_FULL=$(buildid "$B/full")
ID_LONE=$(buildid "$B/lone")
ID_DEEPA=$(buildid "$B/deepa")
ID_DEEPB=$(buildid "$B/deepb")
ID_LOCKED=$(buildid "$B/locked")
ID_LOCKEDF=$(buildid "$B/lockedf")
ID_LONGA=$(buildid "$B/longa")
ID_LONGB=$(buildid "$B/longb")
ID_MNT=$(buildid "$B/mnt")
[ "$(buildid "$B/prog.stripped")" = "$ID_PROG" ] || setup_fail "strip kept no build-id"
[ "$(buildid "$B/dbg.debug")" = "$ID_DBG" ] || setup_fail "objcopy kept no build-id"
[ "$(buildid "$B/short")" = deadbeef ] || setup_fail "--build-id=0xdeadbeef"
[ -z "$(buildid "$B/noid")" ] || setup_fail "--build-id=none has a build-id"
for id in "$ID_PROG" "$ID_LIB" "$ID_APP" "$ID_ABSENT" "$ID_DBGONLY" "$ID_LONGB"; do
	[ ${#id} -eq 40 ] || setup_fail "a build-id is not 20 bytes: '$id'"
done

# The main tree: Buildroot's target/ at the top, its staging/ inside.
R=$T/root
mkdir -p "$R/usr/bin" "$R/usr/lib/debug/usr/bin" "$R/usr/lib/debug/.build-id/ab" \
	"$R/usr/bin/.debug" "$R/staging/usr/bin" "$R/staging/usr/lib" "$R/opt" \
	"$R/loop" "$T/outside/dir" || setup_fail "mkdir"
cp "$B/prog.stripped" "$R/usr/bin/prog"
cp "$B/prog" "$R/staging/usr/bin/prog"
cp "$B/libfoo.so.1.0.stripped" "$R/usr/lib/libfoo.so.1.0"
ln -s libfoo.so.1.0 "$R/usr/lib/libfoo.so.1"
ln -s /usr/lib/libfoo.so.1.0 "$R/usr/lib/libabs.so"
cp "$B/libfoo.so.1.0" "$R/staging/usr/lib/libfoo.so.1.0"
cp "$B/app" "$R/usr/bin/app"
cp "$B/noid" "$R/usr/bin/noid"
cp "$B/dbg.stripped" "$R/usr/bin/dbg"
cp "$B/dbg.debug" "$R/usr/lib/debug/usr/bin/dbg.debug"
cp "$B/dbg.debug" "$R/usr/bin/.debug/dbg"
cp "$B/dbgonly.debug" "$R/usr/lib/debug/.build-id/ab/cdef.debug"
cp "$B/short" "$R/usr/bin/short"
cp "$B/bar.so.stripped" "$R/usr/lib/libbar.so"
cp "$B/bar.so" "$T/outside/libbar.so"
ln -s "$T/outside/libbar.so" "$R/opt/libbar.so"
cp "$B/hidden.stripped" "$R/usr/bin/hidden"
cp "$B/hidden" "$T/outside/dir/hidden"
ln -s "$T/outside/dir" "$R/opt/dirlink"
cp "$B/full" "$R/usr/bin/full"
cp "$B/full" "$R/staging/usr/bin/full"
cp "$B/lone.stripped" "$R/usr/bin/lone"
ln -s .. "$R/loop/up"
ln -s . "$R/loop/self"
ln -s b "$R/loop/a"
ln -s a "$R/loop/b"
# corrupt ELF files: cut short; and a build-id note whose size runs past its area
head -c 3000 "$B/prog" >"$R/usr/bin/trunc"
cp "$B/prog" "$R/usr/bin/badnote"
off=$(readelf -SW "$B/prog" | sed -n 's/^ *\[ *[0-9]*\] //p' |
	awk '$1 == ".note.gnu.build-id" { print $4 }')
[ -n "$off" ] || setup_fail "no .note.gnu.build-id in prog"
printf '\377\377\377\377' | dd of="$R/usr/bin/badnote" bs=1 seek=$((0x$off + 4)) \
	conv=notrunc 2>/dev/null || setup_fail "dd"
printf '\177ELF' >"$R/usr/bin/tiny"
: >"$R/usr/bin/empty"
printf '#!/bin/sh\necho hello\n' >"$R/usr/bin/script"
mkfifo "$R/usr/bin/fifo" || setup_fail "mkfifo"

# unstripped twins, in staging/ or elsewhere under ROOT
check_out "program: the unstripped twin in staging/" \
	"used $R/staging/usr/bin/prog" drv "$R" /usr/bin/prog "$ID_PROG"
check_out "library through its soname link: the twin in staging/" \
	"used $R/staging/usr/lib/libfoo.so.1.0" drv "$R" /usr/lib/libfoo.so.1 "$ID_LIB"
check_out "unstripped at ROOT/path: used, not its staging/ copy" \
	"used $R/usr/bin/full" drv "$R" /usr/bin/full "$ID_FULL"
check_out "only a stripped match: used" \
	"used $R/usr/bin/lone" drv "$R" /usr/bin/lone "$ID_LONE"
check_out "another build at ROOT/path, the right one elsewhere" \
	"used $R/staging/usr/bin/prog" drv "$R" /usr/bin/app "$ID_PROG"
check_out "a corrupt file at ROOT/path, the right one elsewhere" \
	"used $R/staging/usr/bin/prog" drv "$R" /usr/bin/trunc "$ID_PROG"
check_out "a symlink to a file under ROOT is followed" \
	"used $R/opt/libbar.so" drv "$R" /usr/lib/libbar.so "$ID_BAR"
check_out "a symlink to a directory is not: the stripped match" \
	"used $R/usr/bin/hidden" drv "$R" /usr/bin/hidden "$ID_HIDDEN"
check_out "an unstripped file with a short build-id" \
	"used $R/usr/bin/short" drv "$R" /usr/bin/short deadbeef

# .debug twins: the same build-id, a .symtab, but no code
check_out ".debug twins are not preferred to the stripped file" \
	"used $R/usr/bin/dbg" drv "$R" /usr/bin/dbg "$ID_DBG"
check_out ".debug twins are not preferred in the walk either" \
	"used $R/usr/bin/dbg" drv "$R" /usr/bin/elsewhere "$ID_DBG"
check_out "only a .debug file has the build-id" \
	"none: no file under $R has build-id $ID_DBGONLY but 1 debug-only file (objcopy --only-keep-debug)" \
	drv "$R" /usr/bin/dbgonly "$ID_DBGONLY"
check_out "ROOT/path is the .debug file" \
	"none: $R/usr/lib/debug/.build-id/ab/cdef.debug has build-id $ID_DBGONLY but only debug data (objcopy --only-keep-debug): not used; no other file under $R has it" \
	drv "$R" /usr/lib/debug/.build-id/ab/cdef.debug "$ID_DBGONLY"

# no match: why, precisely
check_out "another build at ROOT/path, none elsewhere" \
	"none: $R/usr/bin/app has build-id $ID_APP, the capture has $ID_ABSENT: not used; no other file under $R has it" \
	drv "$R" /usr/bin/app "$ID_ABSENT"
check_out "no build-id at ROOT/path" \
	"none: $R/usr/bin/noid has no build-id, the capture has $ID_ABSENT: not used; no other file under $R has it" \
	drv "$R" /usr/bin/noid "$ID_ABSENT"
check_out "a prefix of the build-id does not match" \
	"none: $R/usr/bin/short has build-id deadbeef, the capture has deadbe: not used; no other file under $R has it" \
	drv "$R" /usr/bin/short deadbe
check_out "nor does a longer id" \
	"none: $R/usr/bin/short has build-id deadbeef, the capture has deadbeef00: not used; no other file under $R has it" \
	drv "$R" /usr/bin/short deadbeef00
check_out "nothing at ROOT/path, nothing elsewhere (the walk ends: symlink loops)" \
	"none: no file under $R has build-id $ID_ABSENT" drv "$R" /usr/bin/nothing "$ID_ABSENT"
check_like "truncated ELF at ROOT/path" \
	"none: $R/usr/bin/trunc: *do not fit in the file*; no other file under $R has build-id $ID_ABSENT" \
	drv "$R" /usr/bin/trunc "$ID_ABSENT"
check_like "corrupt build-id note at ROOT/path" \
	"none: $R/usr/bin/badnote: note at offset * runs past its area; no other file under $R has build-id $ID_ABSENT" \
	drv "$R" /usr/bin/badnote "$ID_ABSENT"
check_out "non-ELF file at ROOT/path" \
	"none: $R/usr/bin/script: not an ELF file; no other file under $R has build-id $ID_ABSENT" \
	drv "$R" /usr/bin/script "$ID_ABSENT"
check_out "a FIFO at ROOT/path" \
	"none: $R/usr/bin/fifo is not a regular file; no other file under $R has build-id $ID_ABSENT" \
	drv "$R" /usr/bin/fifo "$ID_ABSENT"
check_out "a directory at ROOT/path" \
	"none: $R/usr/bin is not a regular file; no other file under $R has build-id $ID_ABSENT" \
	drv "$R" /usr/bin "$ID_ABSENT"
check_out "no such sysroot" \
	"none: $T/nosuch: No such file or directory" drv "$T/nosuch" /usr/bin/prog "$ID_PROG"

# the capture has no build-id: ROOT/path if it is ELF
check_out "no build-id recorded: ROOT/path" \
	"used $R/usr/bin/noid" drv "$R" /usr/bin/noid
check_out "no build-id recorded: a stripped file will do" \
	"used $R/usr/bin/prog" drv "$R" /usr/bin/prog
check_out "an absolute symlink resolves inside ROOT, not on the host" \
	"used $R/usr/lib/libabs.so" drv "$R" /usr/lib/libabs.so
check_out "no build-id recorded, no file" \
	"none: $R/usr/bin/nothing: No such file or directory; the capture has no build-id to look further with" \
	drv "$R" /usr/bin/nothing
check_out "no build-id recorded, a non-ELF file" \
	"none: $R/usr/bin/script: not an ELF file; the capture has no build-id to look further with" \
	drv "$R" /usr/bin/script
check_out "no build-id recorded, an empty file" \
	"none: $R/usr/bin/empty: not an ELF file; the capture has no build-id to look further with" \
	drv "$R" /usr/bin/empty
check_like "no build-id recorded, the ELF magic alone" \
	"none: $R/usr/bin/tiny: *; the capture has no build-id to look further with" \
	drv "$R" /usr/bin/tiny
check_out "no build-id recorded, a FIFO" \
	"none: $R/usr/bin/fifo is not a regular file; the capture has no build-id to look further with" \
	drv "$R" /usr/bin/fifo

# the path used: as ROOT was given, whole or not at all
check_out "ROOT with a trailing slash" \
	"used $R/usr/bin/full" drv "$R/" /usr/bin/full "$ID_FULL"
check_out "a relative ROOT" \
	"used root/usr/bin/full" sh -c 'cd "$1" && shift && timeout 60 "$@"' sh "$T" \
	"$DRV" root /usr/bin/full "$ID_FULL"
n=$(printf %s "$R/usr/bin/full" | wc -c)
check_out "the path used fits its buffer exactly" \
	"used $R/usr/bin/full" env USEDLEN=$((n + 1)) timeout 60 "$DRV" "$R" /usr/bin/full "$ID_FULL"
check_out "a path one byte too long for its buffer is refused" \
	"none: $R/usr/bin/full: the path is longer than the $n bytes it is given" \
	env USEDLEN="$n" timeout 60 "$DRV" "$R" /usr/bin/full "$ID_FULL"

# SYSROOT_DEPTH_MAX: directories 32 levels under ROOT searched, not 33
R2=$T/deep
d=$R2
i=1
while [ $i -le 40 ]; do
	d=$d/l$i
	[ $i -eq 32 ] && D32=$d
	[ $i -eq 33 ] && D33=$d
	i=$((i + 1))
done
mkdir -p "$d" "$R2/usr/bin" || setup_fail "mkdir deep"
cp "$B/deepa.stripped" "$R2/usr/bin/deepa"
cp "$B/deepa" "$D32/deepa"
cp "$B/deepb" "$D33/deepb"
check_out "a twin 32 levels under ROOT is found" \
	"used $D32/deepa" drv "$R2" /usr/bin/deepa "$ID_DEEPA"
check_out "one 33 levels under is not, and why says so" \
	"none: no file under $R2 has build-id $ID_DEEPB; 1 directory more than SYSROOT_DEPTH_MAX (32) levels under $R2 not searched" \
	drv "$R2" /usr/bin/deepb "$ID_DEEPB"

# PATH_MAX: 24 levels of 200-byte names; what lies past 4096 bytes is not searched
R4=$T/long
mkdir -p "$R4/usr/bin" || setup_fail "mkdir long"
cp "$B/longa.stripped" "$R4/usr/bin/longa"
name=$(printf '%0200d' 0)
# cd -P: dash's logical cd would chdir to the whole path, past PATH_MAX
(
	cd "$R4" || exit 1
	i=1
	while [ $i -le 24 ]; do
		mkdir "$name" && cd -P "$name" || exit 1
		[ $i -eq 10 ] && { cp "$B/longa" . || exit 1; }
		i=$((i + 1))
	done
	cp "$B/longb" .
) || setup_fail "long paths"
long=$R4
i=1
while [ $i -le 10 ]; do
	long=$long/$name
	i=$((i + 1))
done
check_out "a twin below a 2000-byte path is found" \
	"used $long/longa" drv "$R4" /usr/bin/longa "$ID_LONGA"
check_out "one past PATH_MAX is not, and why says so" \
	"none: no file under $R4 has build-id $ID_LONGB; 1 path longer than PATH_MAX (4096) under $R4 not searched" \
	drv "$R4" /usr/bin/longb "$ID_LONGB"

# Another filesystem mounted under ROOT (ROOT may be /: /proc, /sys) is not
# searched. Mounting needs root: in a mount namespace of its own, gone after.
R5=$T/mounted
mkdir -p "$R5/usr/bin" "$R5/mnt" || setup_fail "mkdir mounted"
if unshare --mount sh -c 'mount -t tmpfs none "$1"' sh "$R5/mnt" 2>/dev/null; then
	check_out "a mount point under ROOT is not crossed, and why says so" \
		"none: no file under $R5 has build-id $ID_MNT; 1 mount point under $R5 not searched (other filesystems)" \
		unshare --mount sh -c 'mount -t tmpfs none "$1/mnt" && cp "$2" "$1/mnt/" &&
			timeout 60 "$3" "$1" /usr/bin/mnt "$4"' sh "$R5" "$B/mnt" "$DRV" "$ID_MNT"
else
	echo "skip - a mount point under ROOT is not crossed: cannot mount here (needs root)"
fi

# Unreadable directories and files, as nobody (root reads them anyway).
R3=$T/locked
mkdir -p "$R3/usr/bin" "$R3/secret" "$R3/opt" || setup_fail "mkdir locked"
cp "$B/locked.stripped" "$R3/usr/bin/locked"
cp "$B/locked" "$R3/secret/locked"
cp "$B/lockedf" "$R3/opt/lockedf"
chmod 000 "$R3/secret" "$R3/opt/lockedf"
chmod 755 "$T"
cp "$DRV" "$T/drv" && chmod 755 "$T/drv" || setup_fail "cp driver"
if [ "$(id -u)" -eq 0 ]; then
	if command -v setpriv >/dev/null; then
		nobody() { timeout 60 setpriv --reuid=65534 --regid=65534 --clear-groups \
			--inh-caps=-all "$T/drv" "$@"; }
	else
		nobody() { echo "setpriv is needed to run as nobody"; }
	fi
else
	nobody() { timeout 60 "$T/drv" "$@"; }
fi
check_out "an unreadable directory hides the twin: the stripped match" \
	"used $R3/usr/bin/locked" nobody "$R3" /usr/bin/locked "$ID_LOCKED"
check_out "unreadable directories and files are counted in why" \
	"none: no file under $R3 has build-id $ID_LOCKEDF; 1 directory under $R3 could not be read; 1 file under $R3 could not be opened" \
	nobody "$R3" /usr/bin/lockedf "$ID_LOCKEDF"

finish
