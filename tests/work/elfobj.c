/* The source of the ELF files the reader's tests run on. */
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
 * -DELFOBJ_BIG builds one whose section and symbol tables pass 64 KiB.
 *
 * -DELFOBJ_LONGSEC adds a section whose name is longer than 255 bytes.
 */

#if defined(ELFOBJ_MANY) || defined(ELFOBJ_BIG)

/* One-byte variables named by the preprocessor, V(n) for each n. */
#define ELFOBJ_STR(x)	#x
#define SEC(n)		__attribute__((section(".d" ELFOBJ_STR(n)))) char d##n = 1;
#define PLAIN(n)	char p##n = 1;
#define A(V, p)	V(p##0) V(p##1) V(p##2) V(p##3) V(p##4) V(p##5) V(p##6) V(p##7) V(p##8) V(p##9)
#define B(V, p)	A(V, p##0) A(V, p##1) A(V, p##2) A(V, p##3) A(V, p##4) A(V, p##5) \
		A(V, p##6) A(V, p##7) A(V, p##8) A(V, p##9)
#define C(V, p)	B(V, p##0) B(V, p##1) B(V, p##2) B(V, p##3) B(V, p##4) B(V, p##5) \
		B(V, p##6) B(V, p##7) B(V, p##8) B(V, p##9)
#define D(V, p)	C(V, p##0) C(V, p##1) C(V, p##2) C(V, p##3) C(V, p##4) C(V, p##5) \
		C(V, p##6) C(V, p##7) C(V, p##8) C(V, p##9)

#ifdef ELFOBJ_MANY
/* 66000 sections, one per variable. */
D(SEC, 1) D(SEC, 2) D(SEC, 3) D(SEC, 4) D(SEC, 5) D(SEC, 6)
C(SEC, 70) C(SEC, 71) C(SEC, 72) C(SEC, 73) C(SEC, 74) C(SEC, 75)
#else
/*
 * 1100 sections and 3100 symbols: the section headers and the symbol table
 * are each longer than the reader's 64 KiB file window, so reading them in a
 * row has to move the window on, and entries straddle its end.
 */
C(SEC, 1) B(SEC, 20)
C(PLAIN, 1) C(PLAIN, 2)
#endif

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
