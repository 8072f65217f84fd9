#!/bin/sh
# The ELF reader on a big-endian host: exmap-mini built for mips runs under
# qemu-user and reads ELF files of both byte orders and both classes; its
# output must be the native build's, byte for byte. Each file is read twice,
# as text (`elf FILE`) and as CSV (`-c elf FILE`); stdout, stderr and the
# exit status are compared. One count per file and mode.
# The files: the two exmap-mini builds (ELF64 LSB, ELF32 MSB); this machine's
# libc; small objects this script compiles from a tiny C file, with relocations,
# TLS, debug sections and a section of its own: mips .o and .so (ELF32 MSB),
# powerpc64 .o and .so (ELF64 MSB), arm .o (ELF32 LSB); two that must fail
# alike (text, a truncated ELF file). Used when present, skipped otherwise:
# the arm and arm64 builds, the cross compilers' libc.so.6, and the test files
# of the native ELF suite (build/elftest/obj: extended numbering, tables
# larger than the reader's window).
#
# usage: tests/suites/mips_elf.sh	build first: make && make ARCH=mips BUILD=build/mips-load
#	LOAD=1 build/mips-load/exmap-mini (a board build has no elf view), and ARCH=arm
# The environment may name: EXMAP (build/exmap-mini), EXMAP_MIPS
# (build/mips-load/exmap-mini), MIPS_BOARD (build/mips/exmap-mini), QEMU (qemu-mips-static), MIPS_ELF_DIR (the scratch
# directory, build/mips/elftest), ELFT_DIR (build/elftest).
# Last line: N passed, N failed; exit 1 if any failed.
set -u
cd "$(dirname "$0")/../.." || exit 2
EXMAP=${EXMAP:-build/exmap-mini}
EXMAP_MIPS=${EXMAP_MIPS:-build/mips-load/exmap-mini}
MIPS_BOARD=${MIPS_BOARD:-build/mips/exmap-mini}
QEMU=${QEMU:-qemu-mips-static}
dir=${MIPS_ELF_DIR:-build/mips/elftest}
ELFT_DIR=${ELFT_DIR:-build/elftest}
LC_ALL=C
export LC_ALL
. tests/lib/lib.sh
skipped=0

# What everything below needs; without it, one failure and the result line.
setup_ok=1
for f in "$EXMAP" "$EXMAP_MIPS"; do
	[ -x "$f" ] || { no "$f: missing (build first: make && make ARCH=mips)"; setup_ok=0; }
done
command -v "$QEMU" >/dev/null 2>&1 || { no "$QEMU: not found (apt-get install qemu-user-static)"; setup_ok=0; }
rm -rf "$dir" && mkdir -p "$dir/out" || { no "$dir: cannot create"; setup_ok=0; }
[ "$setup_ok" -eq 1 ] || finish

# The tiny C file, and what is compiled from it.
cat >"$dir/tiny.c" <<'EOF'
/* Written by tests/suites/mips_elf.sh: data, bss, rodata, TLS, a weak and a
 * static function, a section of its own. */
int counter = 42;
int zeroed[64];
static const char greeting[] = "hello, big-endian world";
__thread int per_thread = 7;
__attribute__((section(".exmap_marker"))) const unsigned int marker = 0x11223344u;
__attribute__((weak)) int weak_one(void) { return 1; }
static int helper(int x) { return x * 3 + counter + zeroed[x & 63]; }
int tiny_entry(int x)
{
	return helper(x) + greeting[x & 7] + per_thread + weak_one() + (int)marker;
}
EOF
# build NAME COMPILER ARGS...: one file, or a failure of its own.
built=""
build() {
	name=$1
	shift
	if "$@" -o "$dir/$name" "$dir/tiny.c" >"$dir/out/$name.cc" 2>&1; then
		built="$built $dir/$name"
	else
		no "$name: $* did not build it: $(head -n 3 "$dir/out/$name.cc" | tr '\n' ' ')"
	fi
}
so="-O1 -g -fPIC -shared -nostdlib -Wl,--build-id"
build mips.o mips-linux-gnu-gcc -O1 -g -c
# shellcheck disable=SC2086
build mips.so mips-linux-gnu-gcc $so
build ppc64.o powerpc64-linux-gnu-gcc -O1 -g -c
# shellcheck disable=SC2086
build ppc64.so powerpc64-linux-gnu-gcc $so
build arm.o arm-linux-gnueabihf-gcc -O1 -g -c
# Two that must fail alike, with exit 2: text, and an ELF file cut short.
bad="$dir/tiny.c"
if [ -f "$dir/mips.so" ]; then
	head -c 300 "$dir/mips.so" >"$dir/mips-cut.so" && bad="$bad $dir/mips-cut.so"
fi

files="$EXMAP $EXMAP_MIPS /usr/lib/x86_64-linux-gnu/libc.so.6 $built"
for f in build/arm/exmap-mini build/arm64/exmap-mini \
	/usr/mips-linux-gnu/lib/libc.so.6 /usr/powerpc64-linux-gnu/lib/libc.so.6 \
	"$ELFT_DIR/obj/mips.exe" "$ELFT_DIR/obj/ppc64.exe" "$ELFT_DIR/obj/xnum.o" \
	"$ELFT_DIR/obj/big.o" "$ELFT_DIR/obj/longsec.o"; do
	if [ -f "$f" ]; then
		files="$files $f"
	else
		echo "skip $f: not there"
		skipped=$((skipped + 1))
	fi
done

# compare FILE MODE STATUS: MODE is text or csv; STATUS the exit expected.
compare() {
	f=$1
	mode=$2
	want=$3
	if [ "$mode" = csv ]; then
		set -- -c elf "$f"
	else
		set -- elf "$f"
	fi
	o=$dir/out/$(printf '%s' "$f" | tr '/' '_').$mode
	"$EXMAP" "$@" >"$o.native" 2>"$o.native.err"
	rc_n=$?
	"$QEMU" "$EXMAP_MIPS" "$@" >"$o.mips" 2>"$o.mips.err"
	rc_m=$?
	what="$f ($mode)"
	if [ "$rc_n" -ne "$rc_m" ]; then
		no "$what" "exit $rc_n natively, $rc_m on mips; mips stderr: $(head -n 2 "$o.mips.err" | tr '\n' ' ')"
	elif ! cmp -s "$o.native" "$o.mips"; then
		no "$what" "output differs ($(wc -l <"$o.native") lines natively, $(wc -l <"$o.mips") on mips); first differences:"
		diff "$o.native" "$o.mips" | head -n 10
	elif ! cmp -s "$o.native.err" "$o.mips.err"; then
		no "$what" "stderr differs: '$(head -n 1 "$o.native.err")' natively, '$(head -n 1 "$o.mips.err")' on mips"
	elif [ "$rc_n" -ne "$want" ]; then
		no "$what" "exit $rc_n on both, not $want: $(head -n 1 "$o.native.err")"
	elif [ "$rc_n" -ne 0 ] && [ ! -s "$o.native.err" ]; then
		no "$what" "exit $rc_n with nothing said on stderr"
	else
		ok "$what: $(wc -l <"$o.native") lines, exit $rc_n"
	fi
}

for f in $files; do
	compare "$f" text 0
	compare "$f" csv 0
done
for f in $bad; do
	compare "$f" text 2
	compare "$f" csv 2
done

# The mips board build leaves out loading captures and the elf view (LOAD=0,
# toolchain/mips.mk) and says so when asked.
"$QEMU" "$MIPS_BOARD" -l /dev/null >/dev/null 2>"$dir/load.err"
check_eq "mips board build: -l is left out, said in one line, exit 2" "$? $(cat "$dir/load.err")" \
	"2 exmap-mini: -l: left out of this build (made with LOAD=0: a host reads a board's captures, logs and files)"
"$QEMU" "$MIPS_BOARD" elf "$MIPS_BOARD" >/dev/null 2>"$dir/elf.err"
check_eq "mips board build: elf is left out, said in one line, exit 2" "$? $(cat "$dir/elf.err")" \
	"2 exmap-mini: elf: left out of this build (made with LOAD=0: a host reads a board's captures, logs and files)"

echo "$skipped optional files skipped"
finish
