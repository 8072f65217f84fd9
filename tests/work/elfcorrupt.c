/* elfcorrupt: broken variants of a valid ELF file, for the reader's tests. */
/*
 * elfcorrupt: write broken variants of a valid ELF file into a directory,
 * each breaking one thing, for running the reader over. It parses the file
 * itself, apart from src/elf.c, so that a mistake there is not copied here.
 *
 * usage: elfcorrupt FILE OUTDIR
 *
 * The variants, one file each, named by what they break:
 *   eh-FIELD-VALUE	every ELF header field: zero, all-ones, a large value,
 *			and for some fields values that are wrong in a sharper
 *			way (offsets at or near the end of the file or of 2^64)
 *   shN-FIELD-VALUE	every field of every section header (a sample when
 *			there are many): offsets past EOF, sizes that overflow,
 *			zero entry sizes, links out of range or to a table that
 *			holds no strings, names past the name table, types
 *			changed to ones the reader acts on
 *   phN-FIELD-VALUE	every field of every program header
 *   symtab.I-FIELD-VALUE, dynsym.I-FIELD-VALUE
 *			a few symbols of each table: names past the string
 *			table, reserved and out-of-range section indexes
 *   strN-unterminated	a string table's last NUL replaced; strN-nonul: none
 *   note-shN-..., note-phN-...
 *			the first note of each note section or segment
 *   valid-xnum		the same file with extended section numbering
 *			(e_shnum 0, e_shstrndx SHN_XINDEX, the real values in
 *			section 0); xnum-...: that with bad values
 *   valid-pnxnum	e_phnum PN_XNUM, the count in section 0's sh_info;
 *			pnxnum-...: that with bad values
 *   valid-shndx	the symbols' section indexes moved to a new
 *			SYMTAB_SHNDX table; shndx-...: that table broken
 *   valid-nosec	no section headers (e_shoff, e_shnum, e_shstrndx 0)
 *   trunc-LEN		the file cut at every header and section boundary
 * The valid-* variants are still correct files (readelf agrees with them).
 * Exit status: 0, or 2 when the input cannot be used.
 * The variants of the headers are made in elfcorrupt_hdrs.c, the rewrites
 * (xnum, pnxnum, shndx, nosec, trunc) in elfcorrupt_rewrite.c.
 */
#include <elf.h>		/* constants only */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "elfcorrupt.h"

#define SAMPLE_SECTIONS	40	/* more sections than this: corrupt a sample */

const struct field ehdr_fields[] = {
	{ "ei_magic", 0, 4, 0, 4 }, { "ei_class", 4, 1, 4, 1 }, { "ei_data", 5, 1, 5, 1 },
	{ "ei_version", 6, 1, 6, 1 }, { "ei_osabi", 7, 1, 7, 1 },
	{ "ei_abiversion", 8, 1, 8, 1 }, { "e_type", 16, 2, 16, 2 },
	{ "e_machine", 18, 2, 18, 2 }, { "e_version", 20, 4, 20, 4 },
	{ "e_entry", 24, 4, 24, 8 }, { "e_phoff", 28, 4, 32, 8 },
	{ "e_shoff", 32, 4, 40, 8 }, { "e_flags", 36, 4, 48, 4 },
	{ "e_ehsize", 40, 2, 52, 2 }, { "e_phentsize", 42, 2, 54, 2 },
	{ "e_phnum", 44, 2, 56, 2 }, { "e_shentsize", 46, 2, 58, 2 },
	{ "e_shnum", 48, 2, 60, 2 }, { "e_shstrndx", 50, 2, 62, 2 },
};

const struct field shdr_fields[] = {
	{ "sh_name", 0, 4, 0, 4 }, { "sh_type", 4, 4, 4, 4 }, { "sh_flags", 8, 4, 8, 8 },
	{ "sh_addr", 12, 4, 16, 8 }, { "sh_offset", 16, 4, 24, 8 },
	{ "sh_size", 20, 4, 32, 8 }, { "sh_link", 24, 4, 40, 4 },
	{ "sh_info", 28, 4, 44, 4 }, { "sh_addralign", 32, 4, 48, 8 },
	{ "sh_entsize", 36, 4, 56, 8 },
};

const struct field phdr_fields[] = {
	{ "p_type", 0, 4, 0, 4 }, { "p_flags", 24, 4, 4, 4 }, { "p_offset", 4, 4, 8, 8 },
	{ "p_vaddr", 8, 4, 16, 8 }, { "p_paddr", 12, 4, 24, 8 },
	{ "p_filesz", 16, 4, 32, 8 }, { "p_memsz", 20, 4, 40, 8 },
	{ "p_align", 28, 4, 48, 8 },
};

const struct field sym_fields[] = {
	{ "st_name", 0, 4, 0, 4 }, { "st_value", 4, 4, 8, 8 }, { "st_size", 8, 4, 16, 8 },
	{ "st_info", 12, 1, 4, 1 }, { "st_other", 13, 1, 5, 1 },
	{ "st_shndx", 14, 2, 6, 2 },
};

static const char *outdir;
unsigned char *orig;	/* the input, never changed */
unsigned char *work;	/* the variant being made */
uint64_t size;		/* of the input */
uint64_t wlen;		/* of the variant */
uint64_t wcap;
static unsigned long nvariants;
int is64;
static int be;

/* The input's layout, read once. */
uint64_t phoff, shoff;
uint32_t phnum, shnum, shstrndx, phentsize, shentsize, ehsize;

_Noreturn void die(const char *fmt, ...)
{
	va_list ap;

	fputs("elfcorrupt: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(2);
}

static uint64_t get(const unsigned char *b, uint64_t off, unsigned n)
{
	uint64_t v = 0;
	unsigned i;

	for (i = 0; i < n; i++)
		v |= (uint64_t)b[off + i] << 8 * (be ? n - 1 - i : i);
	return v;
}

void put(unsigned char *b, uint64_t off, unsigned n, uint64_t v)
{
	unsigned i;

	for (i = 0; i < n; i++)
		b[off + i] = (unsigned char)(v >> 8 * (be ? n - 1 - i : i));
}

unsigned fsize(const struct field *f)
{
	return is64 ? f->size64 : f->size32;
}

unsigned foff(const struct field *f)
{
	return is64 ? f->off64 : f->off32;
}

uint64_t ones(unsigned n)
{
	return n == 8 ? UINT64_MAX : (UINT64_C(1) << 8 * n) - 1;
}

/* The field of a header at base, in the input. */
uint64_t fget(uint64_t base, const struct field *f)
{
	return get(orig, base + foff(f), fsize(f));
}

/* The same field in the variant. */
void fset(uint64_t base, const struct field *f, uint64_t v)
{
	put(work, base + foff(f), fsize(f), v);
}

/* Start a variant from the input as it is. */
void begin(void)
{
	memcpy(work, orig, size);
	wlen = size;
}

void emit(const char *fmt, ...)
{
	char name[256], path[4096];
	va_list ap;
	uint64_t done = 0;
	int fd;

	va_start(ap, fmt);
	vsnprintf(name, sizeof(name), fmt, ap);
	va_end(ap);
	snprintf(path, sizeof(path), "%s/%s", outdir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		die("%s: %s", path, strerror(errno));
	while (done < wlen) {
		ssize_t w = write(fd, work + done, wlen - done);

		if (w <= 0)
			die("%s: %s", path, w < 0 ? strerror(errno) : "short write");
		done += (uint64_t)w;
	}
	if (close(fd) < 0)
		die("%s: %s", path, strerror(errno));
	nvariants++;
}

/* One field set to one value, named. */
void one(const char *what, uint64_t base, const struct field *f, const char *vname,
	 uint64_t v)
{
	begin();
	fset(base, f, v);
	emit("%s-%s-%s", what, f->name, vname);
}

/* Every field gets zero, all-ones and a large value (only the top bit set). */
void common_values(const char *what, uint64_t base, const struct field *f)
{
	unsigned n = fsize(f);

	one(what, base, f, "zero", 0);
	one(what, base, f, "ones", ones(n));
	one(what, base, f, "large", UINT64_C(1) << (8 * n - 1));
}

uint64_t sh_base(uint32_t i)
{
	return shoff + (uint64_t)i * shentsize;
}

uint64_t ph_base(uint32_t i)
{
	return phoff + (uint64_t)i * phentsize;
}

uint64_t sh(uint32_t i, int f)
{
	return fget(sh_base(i), &shdr_fields[f]);
}

uint64_t ph(uint32_t i, int f)
{
	return fget(ph_base(i), &phdr_fields[f]);
}

/* Does [off, off + len) lie in the input? */
int in_file(uint64_t off, uint64_t len)
{
	return off <= size && len <= size - off;
}

static void parse(void)
{
	static const unsigned char magic[4] = { 0x7f, 'E', 'L', 'F' };
	const struct field *e = ehdr_fields;

	if (size < 52 || memcmp(orig, magic, 4) != 0)
		die("not an ELF file");
	if ((orig[4] != 1 && orig[4] != 2) || (orig[5] != 1 && orig[5] != 2))
		die("bad ELF class or data encoding");
	is64 = orig[4] == 2;
	be = orig[5] == 2;
	ehsize = is64 ? 64 : 52;
	if (size < ehsize)
		die("shorter than its ELF header");
	phoff = fget(0, &e[E_PHOFF]);
	shoff = fget(0, &e[E_SHOFF]);
	phentsize = (uint32_t)fget(0, &e[E_PHENTSIZE]);
	shentsize = (uint32_t)fget(0, &e[E_SHENTSIZE]);
	phnum = (uint32_t)fget(0, &e[E_PHNUM]);
	shnum = (uint32_t)fget(0, &e[E_SHNUM]);
	shstrndx = (uint32_t)fget(0, &e[E_SHSTRNDX]);
	/* A valid input is wanted: plain numbering, headers where they say. */
	if (shoff == 0 || shnum == 0 || phnum == PN_XNUM || shstrndx >= shnum)
		die("want a file with section headers and no extended numbering");
	if (shentsize != (is64 ? 64u : 40u) || (phnum && phentsize != (is64 ? 56u : 32u)))
		die("bad header entry sizes");
	if (!in_file(shoff, (uint64_t)shnum * shentsize) ||
	    !in_file(phoff, (uint64_t)phnum * phentsize))
		die("headers past the end of the file");
}

/* The first section of a type, or 0. */
uint32_t find_type(uint32_t type)
{
	uint32_t i;

	for (i = 1; i < shnum; i++)
		if (sh(i, SH_TYPE) == type)
			return i;
	return 0;
}

/* Is section i worth corrupting when only a sample is? */
int sampled(uint32_t i)
{
	uint32_t t;

	if (shnum <= SAMPLE_SECTIONS || i < 4 || i + 3 >= shnum || i == shstrndx)
		return 1;
	t = (uint32_t)sh(i, SH_TYPE);
	return t == SHT_SYMTAB || t == SHT_DYNSYM || t == SHT_STRTAB || t == SHT_NOTE ||
	       t == SHT_SYMTAB_SHNDX;
}

int main(int argc, char **argv)
{
	struct stat st;
	uint64_t done = 0;
	int fd;

	if (argc != 3) {
		fputs("usage: elfcorrupt FILE OUTDIR\n", stderr);
		return 2;
	}
	outdir = argv[2];
	if ((fd = open(argv[1], O_RDONLY)) < 0 || fstat(fd, &st) < 0)
		die("%s: %s", argv[1], strerror(errno));
	if (st.st_size > (64 << 20))
		die("%s: larger than 64 MiB: pick a small file", argv[1]);
	size = (uint64_t)st.st_size;
	/* room for the appended SYMTAB_SHNDX table and a copy of the headers */
	wcap = size * 2 + 4096;
	if (!(orig = malloc(size + 1)) || !(work = malloc(wcap)))
		die("out of memory");
	while (done < size) {
		ssize_t r = read(fd, orig + done, size - done);

		if (r <= 0)
			die("%s: %s", argv[1], r < 0 ? strerror(errno) : "short read");
		done += (uint64_t)r;
	}
	close(fd);
	parse();

	ehdr_variants();
	shdr_variants();
	phdr_variants();
	sym_variants();
	strtab_variants();
	note_variants();
	xnum_variants();
	shndx_variants();
	nosec_variant();
	trunc_variants();
	printf("%lu\n", nvariants);
	return 0;
}
