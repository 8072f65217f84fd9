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

#define SAMPLE_SECTIONS	40	/* more sections than this: corrupt a sample */
#define MAX_TRUNC	4096

/* One field of a header: its offset and width in ELF32 and in ELF64. */
struct field {
	const char *name;
	unsigned char off32, size32, off64, size64;
};

static const struct field ehdr_fields[] = {
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

enum { SH_NAME, SH_TYPE, SH_FLAGS, SH_ADDR, SH_OFFSET, SH_SIZE, SH_LINK, SH_INFO,
       SH_ALIGN, SH_ENTSIZE };
static const struct field shdr_fields[] = {
	{ "sh_name", 0, 4, 0, 4 }, { "sh_type", 4, 4, 4, 4 }, { "sh_flags", 8, 4, 8, 8 },
	{ "sh_addr", 12, 4, 16, 8 }, { "sh_offset", 16, 4, 24, 8 },
	{ "sh_size", 20, 4, 32, 8 }, { "sh_link", 24, 4, 40, 4 },
	{ "sh_info", 28, 4, 44, 4 }, { "sh_addralign", 32, 4, 48, 8 },
	{ "sh_entsize", 36, 4, 56, 8 },
};

enum { P_TYPE, P_FLAGS, P_OFFSET, P_VADDR, P_PADDR, P_FILESZ, P_MEMSZ, P_ALIGN };
static const struct field phdr_fields[] = {
	{ "p_type", 0, 4, 0, 4 }, { "p_flags", 24, 4, 4, 4 }, { "p_offset", 4, 4, 8, 8 },
	{ "p_vaddr", 8, 4, 16, 8 }, { "p_paddr", 12, 4, 24, 8 },
	{ "p_filesz", 16, 4, 32, 8 }, { "p_memsz", 20, 4, 40, 8 },
	{ "p_align", 28, 4, 48, 8 },
};

enum { ST_NAME, ST_VALUE, ST_SIZE, ST_INFO, ST_OTHER, ST_SHNDX };
static const struct field sym_fields[] = {
	{ "st_name", 0, 4, 0, 4 }, { "st_value", 4, 4, 8, 8 }, { "st_size", 8, 4, 16, 8 },
	{ "st_info", 12, 1, 4, 1 }, { "st_other", 13, 1, 5, 1 },
	{ "st_shndx", 14, 2, 6, 2 },
};

enum { E_PHOFF = 10, E_SHOFF, E_PHENTSIZE = 14, E_PHNUM, E_SHENTSIZE, E_SHNUM, E_SHSTRNDX };

static const char *outdir;
static unsigned char *orig;	/* the input, never changed */
static unsigned char *work;	/* the variant being made */
static uint64_t size;		/* of the input */
static uint64_t wlen;		/* of the variant */
static uint64_t wcap;
static unsigned long nvariants;
static int is64, be;

/* The input's layout, read once. */
static uint64_t phoff, shoff;
static uint32_t phnum, shnum, shstrndx, phentsize, shentsize, ehsize;

static _Noreturn void die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void emit(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static _Noreturn void die(const char *fmt, ...)
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

static void put(unsigned char *b, uint64_t off, unsigned n, uint64_t v)
{
	unsigned i;

	for (i = 0; i < n; i++)
		b[off + i] = (unsigned char)(v >> 8 * (be ? n - 1 - i : i));
}

static unsigned fsize(const struct field *f)
{
	return is64 ? f->size64 : f->size32;
}

static unsigned foff(const struct field *f)
{
	return is64 ? f->off64 : f->off32;
}

static uint64_t ones(unsigned n)
{
	return n == 8 ? UINT64_MAX : (UINT64_C(1) << 8 * n) - 1;
}

/* The field of a header at base, in the input. */
static uint64_t fget(uint64_t base, const struct field *f)
{
	return get(orig, base + foff(f), fsize(f));
}

/* The same field in the variant. */
static void fset(uint64_t base, const struct field *f, uint64_t v)
{
	put(work, base + foff(f), fsize(f), v);
}

/* Start a variant from the input as it is. */
static void begin(void)
{
	memcpy(work, orig, size);
	wlen = size;
}

static void emit(const char *fmt, ...)
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
static void one(const char *what, uint64_t base, const struct field *f, const char *vname,
		uint64_t v)
{
	begin();
	fset(base, f, v);
	emit("%s-%s-%s", what, f->name, vname);
}

/* Every field gets zero, all-ones and a large value (only the top bit set). */
static void common_values(const char *what, uint64_t base, const struct field *f)
{
	unsigned n = fsize(f);

	one(what, base, f, "zero", 0);
	one(what, base, f, "ones", ones(n));
	one(what, base, f, "large", UINT64_C(1) << (8 * n - 1));
}

static uint64_t sh_base(uint32_t i)
{
	return shoff + (uint64_t)i * shentsize;
}

static uint64_t ph_base(uint32_t i)
{
	return phoff + (uint64_t)i * phentsize;
}

static uint64_t sh(uint32_t i, int f)
{
	return fget(sh_base(i), &shdr_fields[f]);
}

static uint64_t ph(uint32_t i, int f)
{
	return fget(ph_base(i), &phdr_fields[f]);
}

/* Does [off, off + len) lie in the input? */
static int in_file(uint64_t off, uint64_t len)
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
static uint32_t find_type(uint32_t type)
{
	uint32_t i;

	for (i = 1; i < shnum; i++)
		if (sh(i, SH_TYPE) == type)
			return i;
	return 0;
}

/* Is section i worth corrupting when only a sample is? */
static int sampled(uint32_t i)
{
	uint32_t t;

	if (shnum <= SAMPLE_SECTIONS || i < 4 || i + 3 >= shnum || i == shstrndx)
		return 1;
	t = (uint32_t)sh(i, SH_TYPE);
	return t == SHT_SYMTAB || t == SHT_DYNSYM || t == SHT_STRTAB || t == SHT_NOTE ||
	       t == SHT_SYMTAB_SHNDX;
}

static void ehdr_variants(void)
{
	size_t i;

	for (i = 0; i < sizeof(ehdr_fields) / sizeof(ehdr_fields[0]); i++) {
		const struct field *f = &ehdr_fields[i];

		common_values("eh", 0, f);
		switch (i) {
		case 1:	/* the other class: a 64-bit file read as 32-bit, and back */
		case 2:	/* the other byte order */
			one("eh", 0, f, "other", 3 - orig[foff(f)]);
			break;
		case E_PHOFF:
		case E_SHOFF:
			one("eh", 0, f, "eof", size);
			one("eh", 0, f, "eof-1", size - 1);
			one("eh", 0, f, "near-top", ones(fsize(f)) - 15);
			one("eh", 0, f, "plus1", fget(0, f) + 1);
			break;
		case E_PHNUM:
		case E_SHNUM:
			one("eh", 0, f, "plus1", fget(0, f) + 1);
			one("eh", 0, f, "xnum", 0xffff);
			break;
		case E_PHENTSIZE:
		case E_SHENTSIZE:
			one("eh", 0, f, "plus1", fget(0, f) + 1);
			one("eh", 0, f, "other-class", i == E_PHENTSIZE ? (is64 ? 32 : 56) :
			    (is64 ? 40 : 64));
			break;
		case E_SHSTRNDX:
			one("eh", 0, f, "shnum", shnum);
			one("eh", 0, f, "xindex", SHN_XINDEX);
			one("eh", 0, f, "loreserve", SHN_LORESERVE);
			if (find_type(SHT_SYMTAB))	/* names from a table that is not strings */
				one("eh", 0, f, "symtab", find_type(SHT_SYMTAB));
			break;
		}
	}
}

static void shdr_variants(void)
{
	uint32_t i, nonstr = 0;
	uint64_t namesz = sh(shstrndx, SH_SIZE);
	size_t k;

	for (i = 1; i < shnum && !nonstr; i++)
		if (sh(i, SH_TYPE) != SHT_STRTAB)
			nonstr = i;
	for (i = 0; i < shnum; i++) {
		uint64_t base = sh_base(i), off = sh(i, SH_OFFSET), sz = sh(i, SH_SIZE);
		char what[32];

		if (!sampled(i))
			continue;
		snprintf(what, sizeof(what), "sh%u", i);
		for (k = 0; k < sizeof(shdr_fields) / sizeof(shdr_fields[0]); k++) {
			const struct field *f = &shdr_fields[k];
			uint64_t top = ones(fsize(f));

			/* flags, addr and info (past section 0) are only shown */
			if (k == SH_FLAGS || k == SH_ADDR || (k == SH_INFO && i != 0)) {
				one(what, base, f, "ones", top);
				continue;
			}
			common_values(what, base, f);
			switch (k) {
			case SH_NAME:
				one(what, base, f, "past-names", namesz);
				one(what, base, f, "last-byte", namesz - 1);
				break;
			case SH_TYPE:
				one(what, base, f, "symtab", SHT_SYMTAB);
				one(what, base, f, "dynsym", SHT_DYNSYM);
				one(what, base, f, "strtab", SHT_STRTAB);
				one(what, base, f, "note", SHT_NOTE);
				one(what, base, f, "nobits", SHT_NOBITS);
				one(what, base, f, "shndx", SHT_SYMTAB_SHNDX);
				break;
			case SH_OFFSET:
				one(what, base, f, "eof", size);
				one(what, base, f, "near-top", top - 15);
				if (sz && sz <= size)	/* ends one byte past the end */
					one(what, base, f, "end-past-eof", size - sz + 1);
				break;
			case SH_SIZE:
				one(what, base, f, "file", size);
				if (off <= size)
					one(what, base, f, "past-eof", size - off + 1);
				/* offset + size wraps around to 0, and to just past 0 */
				one(what, base, f, "wrap", (top - off + 1) & top);
				one(what, base, f, "wrap+1", (top - off + 2) & top);
				if (sz)
					one(what, base, f, "minus1", sz - 1);
				break;
			case SH_LINK:
				one(what, base, f, "shnum", shnum);
				one(what, base, f, "self", i);
				if (nonstr)
					one(what, base, f, "not-strtab", nonstr);
				break;
			case SH_INFO:	/* section 0: e_phnum's overflow */
				one(what, base, f, "phnum+1", phnum + 1);
				break;
			case SH_ALIGN:
				one(what, base, f, "3", 3);
				one(what, base, f, "8", 8);
				break;
			case SH_ENTSIZE:
				one(what, base, f, "1", 1);
				one(what, base, f, "plus1", sh(i, SH_ENTSIZE) + 1);
				one(what, base, f, "other-class", is64 ? 16 : 24);
				break;
			}
		}
	}
}

static void phdr_variants(void)
{
	uint32_t i;
	size_t k;

	for (i = 0; i < phnum; i++) {
		uint64_t base = ph_base(i), off = ph(i, P_OFFSET);
		char what[32];

		snprintf(what, sizeof(what), "ph%u", i);
		for (k = 0; k < sizeof(phdr_fields) / sizeof(phdr_fields[0]); k++) {
			const struct field *f = &phdr_fields[k];
			uint64_t top = ones(fsize(f));

			if (k == P_FLAGS || k == P_VADDR || k == P_PADDR || k == P_MEMSZ) {
				one(what, base, f, "ones", top);
				continue;
			}
			common_values(what, base, f);
			switch (k) {
			case P_TYPE:
				/* a note over what is not one, or the other way */
				one(what, base, f, "note", PT_NOTE);
				one(what, base, f, "load", PT_LOAD);
				one(what, base, f, "dynamic", PT_DYNAMIC);
				break;
			case P_OFFSET:
				one(what, base, f, "eof", size);
				one(what, base, f, "near-top", top - 15);
				break;
			case P_FILESZ:
				one(what, base, f, "file", size);
				if (off <= size)
					one(what, base, f, "past-eof", size - off + 1);
				one(what, base, f, "wrap", (top - off + 1) & top);
				break;
			case P_ALIGN:
				one(what, base, f, "3", 3);
				one(what, base, f, "8", 8);
				break;
			}
		}
	}
}

/* A few symbols of each table: the first real one, one inside, the last. */
static void sym_variants(void)
{
	static const uint32_t types[] = { SHT_SYMTAB, SHT_DYNSYM };
	size_t t;

	for (t = 0; t < 2; t++) {
		uint32_t s = find_type(types[t]), str;
		uint64_t ent = is64 ? 24 : 16, count, pick[3], strsz;
		const char *tname = types[t] == SHT_SYMTAB ? "symtab" : "dynsym";
		size_t j;

		if (!s || sh(s, SH_ENTSIZE) != ent || !in_file(sh(s, SH_OFFSET), sh(s, SH_SIZE)))
			continue;
		count = sh(s, SH_SIZE) / ent;
		str = (uint32_t)sh(s, SH_LINK);
		strsz = str < shnum ? sh(str, SH_SIZE) : 0;
		if (count < 2)
			continue;
		pick[0] = 1;
		pick[1] = count / 2;
		pick[2] = count - 1;
		for (j = 0; j < 3; j++) {
			uint64_t base = sh(s, SH_OFFSET) + pick[j] * ent;
			char what[48];

			if (j > 0 && pick[j] == pick[j - 1])
				continue;
			snprintf(what, sizeof(what), "%s.%llu", tname, (unsigned long long)pick[j]);
			one(what, base, &sym_fields[ST_NAME], "past-strings", strsz);
			one(what, base, &sym_fields[ST_NAME], "ones", UINT32_MAX);
			one(what, base, &sym_fields[ST_NAME], "large", UINT32_C(1) << 31);
			one(what, base, &sym_fields[ST_VALUE], "ones",
			    ones(fsize(&sym_fields[ST_VALUE])));
			one(what, base, &sym_fields[ST_SIZE], "ones",
			    ones(fsize(&sym_fields[ST_SIZE])));
			one(what, base, &sym_fields[ST_INFO], "ones", 0xff);
			one(what, base, &sym_fields[ST_SHNDX], "shnum", shnum);
			one(what, base, &sym_fields[ST_SHNDX], "loreserve", SHN_LORESERVE);
			one(what, base, &sym_fields[ST_SHNDX], "abs", SHN_ABS);
			one(what, base, &sym_fields[ST_SHNDX], "common", SHN_COMMON);
			one(what, base, &sym_fields[ST_SHNDX], "reserved", 0xfffe);
			/* SHN_XINDEX with no SYMTAB_SHNDX table to look in */
			one(what, base, &sym_fields[ST_SHNDX], "xindex", SHN_XINDEX);
		}
	}
}

/* String tables: the last NUL replaced, and no NUL at all. */
static void strtab_variants(void)
{
	uint32_t i;

	for (i = 1; i < shnum; i++) {
		uint64_t off = sh(i, SH_OFFSET), sz = sh(i, SH_SIZE), j;

		if (sh(i, SH_TYPE) != SHT_STRTAB || sz == 0 || !in_file(off, sz))
			continue;
		begin();
		work[off + sz - 1] = 'X';
		emit("str%u-unterminated", i);
		begin();
		for (j = 0; j < sz; j++)
			if (work[off + j] == '\0')
				work[off + j] = 'A';
		emit("str%u-nonul", i);
	}
}

/* The first note of an area: sizes that run past it, or past the limits. */
static void note_one(const char *what, uint64_t off, uint64_t sz)
{
	static const struct field nf[] = {
		{ "namesz", 0, 4, 0, 4 }, { "descsz", 4, 4, 4, 4 }, { "type", 8, 4, 8, 4 },
	};

	if (sz < 12 || !in_file(off, sz))
		return;
	common_values(what, off, &nf[0]);
	one(what, off, &nf[0], "gnu", 4);
	one(what, off, &nf[0], "area", sz);
	common_values(what, off, &nf[1]);
	one(what, off, &nf[1], "65", 65);	/* one past the longest build-id taken */
	one(what, off, &nf[1], "area", sz);
	one(what, off, &nf[1], "area-12", sz - 12);
	one(what, off, &nf[2], "buildid", 3);
	one(what, off, &nf[2], "ones", UINT32_MAX);
}

static void note_variants(void)
{
	char what[32];
	uint32_t i;

	for (i = 1; i < shnum; i++) {
		if (sh(i, SH_TYPE) != SHT_NOTE || !sampled(i))
			continue;
		snprintf(what, sizeof(what), "note-sh%u", i);
		note_one(what, sh(i, SH_OFFSET), sh(i, SH_SIZE));
	}
	for (i = 0; i < phnum; i++) {
		if (ph(i, P_TYPE) != PT_NOTE)
			continue;
		snprintf(what, sizeof(what), "note-ph%u", i);
		note_one(what, ph(i, P_OFFSET), ph(i, P_FILESZ));
	}
}

/*
 * Extended numbering, made from plain numbering: e_shnum 0 with the count in
 * section 0's sh_size, e_shstrndx SHN_XINDEX with the index in its sh_link,
 * e_phnum PN_XNUM with the count in its sh_info. Then each of those wrong.
 */
static void xnum_base(void)
{
	begin();
	fset(0, &ehdr_fields[E_SHNUM], 0);
	fset(0, &ehdr_fields[E_SHSTRNDX], SHN_XINDEX);
	fset(sh_base(0), &shdr_fields[SH_SIZE], shnum);
	fset(sh_base(0), &shdr_fields[SH_LINK], shstrndx);
}

static void pnxnum_base(void)
{
	begin();
	fset(0, &ehdr_fields[E_PHNUM], PN_XNUM);
	fset(sh_base(0), &shdr_fields[SH_INFO], phnum);
}

static void xnum_variants(void)
{
	const struct field *s0size = &shdr_fields[SH_SIZE], *s0link = &shdr_fields[SH_LINK];
	const struct field *s0info = &shdr_fields[SH_INFO];
	uint64_t b0 = sh_base(0), top = ones(fsize(s0size));
	const uint64_t counts[] = { 0, 1, shnum - 1, shnum + 1, shnum * 1000ull,
				    UINT32_MAX, (uint64_t)UINT32_MAX + 1, top };
	const char *cname[] = { "zero", "one", "minus1", "plus1", "times1000", "u32max",
				"u32max+1", "ones" };
	const uint64_t links[] = { 0, shnum, SHN_XINDEX, UINT32_MAX, 1 };
	const char *lname[] = { "zero", "shnum", "xindex", "ones", "one" };
	size_t k;

	xnum_base();
	emit("valid-xnum");
	for (k = 0; k < sizeof(counts) / sizeof(counts[0]); k++) {
		if (counts[k] > top)
			continue;
		xnum_base();
		fset(b0, s0size, counts[k]);
		emit("xnum-shnum-%s", cname[k]);
	}
	for (k = 0; k < sizeof(links) / sizeof(links[0]); k++) {
		xnum_base();
		fset(b0, s0link, links[k]);
		emit("xnum-shstrndx-%s", lname[k]);
	}
	/* extended numbering asked for where there is no section 0 to read */
	xnum_base();
	fset(0, &ehdr_fields[E_SHOFF], 0);
	emit("xnum-no-shoff");
	xnum_base();
	fset(0, &ehdr_fields[E_SHOFF], size);
	emit("xnum-shoff-eof");
	xnum_base();
	fset(0, &ehdr_fields[E_SHENTSIZE], 0);
	emit("xnum-shentsize-zero");

	if (phnum == 0)
		return;
	pnxnum_base();
	emit("valid-pnxnum");
	{
		const uint64_t v[] = { 0, phnum + 1, 0xffff, UINT32_MAX, UINT32_C(1) << 31 };
		const char *vn[] = { "zero", "plus1", "pn_xnum", "ones", "large" };

		for (k = 0; k < sizeof(v) / sizeof(v[0]); k++) {
			pnxnum_base();
			fset(b0, s0info, v[k]);
			emit("pnxnum-phnum-%s", vn[k]);
		}
	}
	pnxnum_base();
	fset(0, &ehdr_fields[E_SHOFF], 0);
	emit("pnxnum-no-shoff");
	/* both at once */
	xnum_base();
	fset(0, &ehdr_fields[E_PHNUM], PN_XNUM);
	fset(b0, s0info, phnum);
	emit("valid-xnum-pnxnum");
}

/*
 * A SYMTAB_SHNDX table made for .symtab: the table and a new section header
 * table with one more entry are appended, and every symbol with an ordinary
 * section index gets SHN_XINDEX, its index moved to the table. Then the
 * table broken in each way the reader must notice.
 */
static uint64_t sx_off, sx_hdr, sx_count;
static uint32_t sx_sym;

static uint64_t align_up(uint64_t v, uint64_t a)
{
	return (v + a - 1) & ~(a - 1);
}

static int shndx_base(void)
{
	uint64_t ent = is64 ? 24 : 16, soff, i;
	uint32_t n = shnum + 1;

	sx_sym = find_type(SHT_SYMTAB);
	if (!sx_sym || find_type(SHT_SYMTAB_SHNDX) || n >= SHN_LORESERVE ||
	    sh(sx_sym, SH_ENTSIZE) != ent || !in_file(sh(sx_sym, SH_OFFSET), sh(sx_sym, SH_SIZE)))
		return -1;
	soff = sh(sx_sym, SH_OFFSET);
	sx_count = sh(sx_sym, SH_SIZE) / ent;
	sx_off = align_up(size, 8);
	sx_hdr = align_up(sx_off + sx_count * 4, 8);
	wlen = sx_hdr + (uint64_t)n * shentsize;
	if (wlen > wcap)
		die("internal: no room for the SYMTAB_SHNDX variant");
	memcpy(work, orig, size);
	memset(work + size, 0, wlen - size);
	memcpy(work + sx_hdr, orig + shoff, (uint64_t)shnum * shentsize);
	fset(0, &ehdr_fields[E_SHOFF], sx_hdr);
	fset(0, &ehdr_fields[E_SHNUM], n);
	for (i = 0; i < sx_count; i++) {
		uint64_t base = soff + i * ent;
		uint64_t x = fget(base, &sym_fields[ST_SHNDX]);

		if (x != 0 && x < SHN_LORESERVE) {
			fset(base, &sym_fields[ST_SHNDX], SHN_XINDEX);
			put(work, sx_off + i * 4, 4, x);
		}
	}
	{
		uint64_t b = sx_hdr + (uint64_t)shnum * shentsize;

		fset(b, &shdr_fields[SH_TYPE], SHT_SYMTAB_SHNDX);
		fset(b, &shdr_fields[SH_OFFSET], sx_off);
		fset(b, &shdr_fields[SH_SIZE], sx_count * 4);
		fset(b, &shdr_fields[SH_LINK], sx_sym);
		fset(b, &shdr_fields[SH_ALIGN], 4);
		fset(b, &shdr_fields[SH_ENTSIZE], 4);
	}
	return 0;
}

static void shndx_variants(void)
{
	uint64_t b, top;

	if (shndx_base() < 0)
		return;
	emit("valid-shndx");
	b = sx_hdr + (uint64_t)shnum * shentsize;
	top = ones(fsize(&shdr_fields[SH_SIZE]));

	shndx_base();
	fset(b, &shdr_fields[SH_SIZE], sx_count * 4 - 4);	/* one entry short */
	emit("shndx-size-short");
	shndx_base();
	fset(b, &shdr_fields[SH_SIZE], top);
	emit("shndx-size-ones");
	shndx_base();
	fset(b, &shdr_fields[SH_OFFSET], wlen);
	emit("shndx-offset-eof");
	shndx_base();
	fset(b, &shdr_fields[SH_OFFSET], top - 3);
	emit("shndx-offset-near-top");
	shndx_base();
	fset(b, &shdr_fields[SH_LINK], 0);	/* belongs to no table */
	emit("shndx-link-zero");
	shndx_base();
	fset(b, &shdr_fields[SH_LINK], shnum + 1);
	emit("shndx-link-range");
	shndx_base();
	fset(b, &shdr_fields[SH_TYPE], 0);	/* no table at all */
	emit("shndx-type-null");
	/* the entries themselves: out of range, reserved, the reader's own flag bit */
	{
		const uint32_t v[] = { UINT32_MAX, 0x80000000u, 0x8000fff1u, SHN_ABS, SHN_XINDEX,
				       0, 0 };
		const char *vn[] = { "ones", "top-bit", "top-bit-abs", "abs", "xindex", "zero",
				     "shnum" };
		size_t k;
		uint64_t i;

		for (k = 0; k < sizeof(v) / sizeof(v[0]); k++) {
			shndx_base();
			for (i = 1; i < sx_count; i++)
				put(work, sx_off + i * 4, 4, k == 6 ? shnum + 1 : v[k]);
			emit("shndx-entries-%s", vn[k]);
		}
	}
	/* the file cut inside the table, and before the new headers */
	shndx_base();
	wlen = sx_off + sx_count * 2;
	emit("shndx-trunc-table");
}

/* No section headers at all: what is left is the program headers. */
static void nosec_variant(void)
{
	if (phnum == 0)
		return;
	begin();
	fset(0, &ehdr_fields[E_SHOFF], 0);
	fset(0, &ehdr_fields[E_SHNUM], 0);
	fset(0, &ehdr_fields[E_SHSTRNDX], 0);
	emit("valid-nosec");
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The file cut at every boundary a reader might trust. */
static void trunc_variants(void)
{
	static uint64_t at[MAX_TRUNC];
	size_t n = 0, k;
	uint32_t i;

#define AT(v) do { if (n < MAX_TRUNC && (v) < size) at[n++] = (v); } while (0)
	AT(0);
	AT(1);
	AT(4);
	AT(15);
	AT(16);
	AT(17);
	AT(ehsize - 1);
	AT(ehsize);
	for (i = 0; i <= phnum; i++)
		AT(ph_base(i));
	for (i = 0; i < phnum; i++) {
		AT(ph(i, P_OFFSET));
		AT(ph(i, P_OFFSET) + ph(i, P_FILESZ));
		if (ph(i, P_FILESZ))
			AT(ph(i, P_OFFSET) + ph(i, P_FILESZ) - 1);
	}
	for (i = 0; i <= shnum; i++)
		if (i == shnum || sampled(i))
			AT(sh_base(i));
	for (i = 1; i < shnum; i++) {
		if (!sampled(i) || sh(i, SH_TYPE) == SHT_NOBITS)
			continue;
		AT(sh(i, SH_OFFSET));
		AT(sh(i, SH_OFFSET) + sh(i, SH_SIZE));
		if (sh(i, SH_SIZE))
			AT(sh(i, SH_OFFSET) + sh(i, SH_SIZE) - 1);
	}
	AT(size - 1);
#undef AT
	qsort(at, n, sizeof(at[0]), cmp_u64);
	for (k = 0; k < n; k++) {
		if (k > 0 && at[k] == at[k - 1])
			continue;
		begin();
		wlen = at[k];
		emit("trunc-%llu", (unsigned long long)at[k]);
	}
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
