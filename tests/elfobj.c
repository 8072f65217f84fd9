/*
 * The source of the ELF files the reader tests are run on, for every cross
 * compiler: a relocatable object, a static executable with no libc (its own
 * _start) and a shared object. It holds one of each thing the reader has to
 * tell apart: functions and objects, local, global and weak, defined and
 * undefined, initialised, zeroed and read-only data, TLS, a common symbol,
 * an absolute one, a section of our own, a note that is not a build-id, a
 * COMDAT group, names too long for the reader's buffers, and names that CSV
 * must quote.
 *
 * -DELFOBJ_MANY builds instead one object with more than 65280 sections (one
 * per variable), so the assembler has to use extended section numbering:
 * e_shnum 0, e_shstrndx SHN_XINDEX and a SHT_SYMTAB_SHNDX table.
 *
 * -DELFOBJ_LONGSEC adds a section whose name is longer than 255 bytes.
 */

#ifdef ELFOBJ_MANY

/* 66000 one-byte variables, each in its own section, named by the preprocessor. */
#define ELFOBJ_STR(x)	#x
#define V(n)	__attribute__((section(".d" ELFOBJ_STR(n)))) char d##n = 1;
#define A(p)	V(p##0) V(p##1) V(p##2) V(p##3) V(p##4) V(p##5) V(p##6) V(p##7) V(p##8) V(p##9)
#define B(p)	A(p##0) A(p##1) A(p##2) A(p##3) A(p##4) A(p##5) A(p##6) A(p##7) A(p##8) A(p##9)
#define C(p)	B(p##0) B(p##1) B(p##2) B(p##3) B(p##4) B(p##5) B(p##6) B(p##7) B(p##8) B(p##9)
#define D(p)	C(p##0) C(p##1) C(p##2) C(p##3) C(p##4) C(p##5) C(p##6) C(p##7) C(p##8) C(p##9)

D(1) D(2) D(3) D(4) D(5) D(6)
C(70) C(71) C(72) C(73) C(74) C(75)

#else

/* Data of every kind: .data, .bss, .rodata, .tdata, .tbss, and a common block. */
int elfobj_data = 42;
int elfobj_bss;
const char elfobj_rodata[] = "exmap-mini elf test";
__thread int elfobj_tls = 7;
__thread int elfobj_tbss;
__attribute__((common)) int elfobj_common;
static int elfobj_local_counter;

/* A section of our own, with a name that needs no quoting. */
__attribute__((section(".exmap_custom"), used)) int elfobj_custom[4] = { 1, 2, 3, 4 };

#ifdef ELFOBJ_LONGSEC
/* 300 bytes of section name: longer than any fixed 256-byte buffer. */
#define L10	"abcdefghij"
#define L100	L10 L10 L10 L10 L10 L10 L10 L10 L10 L10
__attribute__((section(".long_" L100 L100 L100), used)) int elfobj_longsec = 5;
#endif

/* A weak reference nothing defines: an undefined symbol even when linked. */
extern int elfobj_missing(void) __attribute__((weak));

/*
 * Names of 300 and of 5000 bytes, spelled out by the preprocessor: the first
 * fits the reader's name buffer, the second does not and is cut and marked;
 * readelf -W prints both whole.
 */
#define S10	"aaaaaaaaaa"
#define S100	S10 S10 S10 S10 S10 S10 S10 S10 S10 S10
#define S1000	S100 S100 S100 S100 S100 S100 S100 S100 S100 S100
#define NAME300	"elfobj_name_300_" S100 S100 S10 S10 S10 S10 S10 S10 S10 S10 "aaaa"
#define NAME5000 "elfobj_name_5000_" S1000 S1000 S1000 S1000 S1000

__attribute__((noinline, used)) static int elfobj_local(int a)
{
	return a * 3 + elfobj_local_counter++;
}

__attribute__((weak)) int elfobj_weak(int a)
{
	return a + 1;
}

int elfobj_func(int a)
{
	int r = elfobj_local(a) + elfobj_weak(a) + elfobj_data + elfobj_bss + elfobj_tls +
		elfobj_tbss + elfobj_common + elfobj_rodata[a & 15] + elfobj_custom[a & 3];

	if (elfobj_missing)
		r += elfobj_missing();
	return r;
}

/*
 * What C cannot say, said to the assembler: an absolute symbol, a note with
 * an owner that is not GNU (the build-id search must step over it), a COMDAT
 * group, names with a comma, a quote or a leading '=', and the two long
 * names. %progbits and %note work on every target (ARM takes @ as a comment).
 */
__asm__(
	".globl elfobj_abs\n"
	".set elfobj_abs, 0x1234\n"
	".pushsection .note.exmap,\"a\",%note\n"
	".balign 4\n"
	".long 6\n"			/* namesz: "exmap" and its NUL */
	".long 8\n"			/* descsz */
	".long 3\n"			/* type 3, as a build-id, but not GNU's */
	".asciz \"exmap\"\n"
	".balign 4\n"
	".long 0x11223344, 0x55667788\n"
	".popsection\n"
	".pushsection .text.elfobj_group,\"axG\",%progbits,elfobj_group,comdat\n"
	".globl elfobj_group\n"
	".type elfobj_group, %function\n"
	"elfobj_group:\n"
	".long 0\n"
	".size elfobj_group, 4\n"
	".popsection\n"
	/* names a CSV writer must quote or guard: a comma, a quote, a formula */
	".pushsection \".exmap,csv\",\"a\",%progbits\n"
	".globl \"elfobj,csv \\\"quoted\\\"\"\n"
	"\"elfobj,csv \\\"quoted\\\"\":\n"
	".long 3\n"
	".globl \"=elfobj_formula\"\n"
	"\"=elfobj_formula\":\n"
	".long 4\n"
	".popsection\n"
	".pushsection .data.elfobj_names,\"aw\",%progbits\n"
	".globl " NAME300 "\n"
	NAME300 ":\n"
	".long 1\n"
	".globl " NAME5000 "\n"
	NAME5000 ":\n"
	".long 2\n"
	".popsection\n"
);

/* The static executable's entry point; the link names it, as MIPS would want __start. */
void _start(void)
{
	for (;;)
		elfobj_func(1);
}

#endif
