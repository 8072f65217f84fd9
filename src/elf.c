/* The ELF reader: every byte bounds-checked, read through one window. */
/*
 * A hand-written ELF reader: ELF32 and ELF64, either byte order, any machine.
 * Every byte comes through get(), which checks (offset, length) against the
 * file's size without overflow and reads the file through a fixed window, so
 * memory stays bounded and a file shrinking under us is an error, not a fault;
 * a name comes the same way but straight into its caller's buffer (elf_str).
 * A failed check stores a message in e->err and returns -1.
 */
#include <elf.h>		/* the format's constants only; the reader is ours */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "elfread.h"

#define ELF_WINDOW	65536	/* the file is read through a window this big */
#define ELF_STR_FIRST	128	/* a name's first read, straight from the file */
/* Names straight from the file (elf_str), but in a board's build (no -l):
 * its room, for a board's own few and small files. */
#ifdef EXMAP_NO_LOAD
#define ELF_STR_DIRECT	0
#else
#define ELF_STR_DIRECT	1
#endif

static unsigned char window[ELF_WINDOW];

static int elf_fail(struct elf *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int elf_fail(struct elf *e, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fmt_vsnprintf(e->err, sizeof(e->err), fmt, ap);
	va_end(ap);
	return -1;
}

/* want bytes at off into dst, all of them, or -1 (e->err says why). */
static int read_at(struct elf *e, unsigned char *dst, uint64_t off, size_t want, const char *what)
{
	size_t got = 0;

	while (got < want) {
		ssize_t r = pread(e->fd, dst + got, want - got, (off_t)(off + got));

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return elf_fail(e, "reading %s: %s", what, strerror(errno));
		if (r == 0)
			return elf_fail(e, "reading %s: the file is shorter than when it was opened",
				    what);
		got += r;
	}
	return 0;
}

/* len bytes at off, or NULL (e->err says why). */
static const unsigned char *get(struct elf *e, uint64_t off, size_t len, const char *what)
{
	size_t want;

	if (off > e->size || len > e->size - off) {
		elf_fail(e, "%s at offset %llu (%zu bytes) is past the end of the file (%llu bytes)",
		     what, (unsigned long long)off, len, (unsigned long long)e->size);
		return NULL;
	}
	if (e->mem)
		return e->mem + off;
	if (off >= e->woff && off - e->woff <= e->wlen && len <= e->wlen - (off - e->woff))
		return window + (off - e->woff);
	if (len > sizeof(window)) {
		elf_fail(e, "%s of %zu bytes is larger than the %zu-byte read window",
		     what, len, sizeof(window));
		return NULL;
	}
	want = e->size - off < sizeof(window) ? e->size - off : sizeof(window);
	e->wlen = 0;
	if (read_at(e, window, off, want, what) < 0)
		return NULL;
	e->woff = off;
	e->wlen = want;
	return window;
}

static uint16_t u16(const struct elf *e, const unsigned char *p)
{
	return e->be ? (uint16_t)(p[0] << 8 | p[1]) : (uint16_t)(p[1] << 8 | p[0]);
}

static uint32_t u32(const struct elf *e, const unsigned char *p)
{
	return e->be ? (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]
		     : (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
}

static uint64_t u64(const struct elf *e, const unsigned char *p)
{
	uint64_t a = u32(e, p), b = u32(e, p + 4);

	return e->be ? a << 32 | b : b << 32 | a;
}

/* A word: 32 or 64 bits by class. */
static uint64_t word(const struct elf *e, const unsigned char *p)
{
	return e->is64 ? u64(e, p) : u32(e, p);
}

/* Does a table of n entries of size ent at off fit in the file? */
static int table_fits(struct elf *e, uint64_t off, uint64_t n, uint64_t ent, const char *what)
{
	if (n == 0)
		return 0;
	if (off > e->size || n > (e->size - off) / ent)
		return elf_fail(e, "%s: %llu entries of %llu bytes at offset %llu do not fit in "
			    "the file (%llu bytes)", what, (unsigned long long)n,
			    (unsigned long long)ent, (unsigned long long)off,
			    (unsigned long long)e->size);
	return 0;
}

static int parse_header(struct elf *e)
{
	static const unsigned char magic[4] = { 0x7f, 'E', 'L', 'F' };
	const unsigned char *h = get(e, 0, 16, "ELF identification");
	uint16_t shnum, phnum, shstrndx;

	if (!h)
		return -1;
	if (memcmp(h, magic, 4) != 0)
		return elf_fail(e, "not an ELF file (bad magic)");
	if (h[4] != 1 && h[4] != 2)
		return elf_fail(e, "bad ELF class %u", h[4]);
	if (h[5] != 1 && h[5] != 2)
		return elf_fail(e, "bad ELF data encoding %u", h[5]);
	if (h[6] != 1)
		return elf_fail(e, "bad ELF version %u", h[6]);
	e->is64 = h[4] == 2;
	e->be = h[5] == 2;
	if (!(h = get(e, 0, e->is64 ? 64 : 52, "ELF header")))
		return -1;
	e->type = u16(e, h + 16);
	e->machine = u16(e, h + 18);
	e->entry = word(e, h + 24);
	e->phoff = e->is64 ? u64(e, h + 32) : u32(e, h + 28);
	e->shoff = e->is64 ? u64(e, h + 40) : u32(e, h + 32);
	h += e->is64 ? 54 : 42;
	e->phentsize = u16(e, h);
	phnum = u16(e, h + 2);
	e->shentsize = u16(e, h + 4);
	shnum = u16(e, h + 6);
	shstrndx = u16(e, h + 8);
	e->phnum = phnum;
	e->shnum = shnum;
	e->shstrndx = shstrndx;

	/* Extended numbering keeps the real counts in section header 0. */
	if (e->shoff != 0 && (shnum == 0 || shstrndx == SHN_XINDEX || phnum == PN_XNUM)) {
		const unsigned char *s0;

		if (e->shentsize != (e->is64 ? 64 : 40))
			return elf_fail(e, "bad section header size %u", e->shentsize);
		if (!(s0 = get(e, e->shoff, e->shentsize, "section header 0")))
			return -1;
		if (shnum == 0) {
			uint64_t n = e->is64 ? u64(e, s0 + 32) : u32(e, s0 + 20);

			if (n > UINT32_MAX)
				return elf_fail(e, "section count %llu in section header 0 is too large",
					    (unsigned long long)n);
			e->shnum = (uint32_t)n;
		}
		if (shstrndx == SHN_XINDEX)
			e->shstrndx = u32(e, s0 + (e->is64 ? 40 : 24));
		if (phnum == PN_XNUM)
			e->phnum = u32(e, s0 + (e->is64 ? 44 : 28));
	} else if (e->shoff == 0) {
		e->shnum = 0;
		e->shstrndx = SHN_UNDEF;
	}
	if (e->phnum && e->phentsize != (e->is64 ? 56 : 32))
		return elf_fail(e, "bad program header size %u", e->phentsize);
	if (e->shnum && e->shentsize != (e->is64 ? 64 : 40))
		return elf_fail(e, "bad section header size %u", e->shentsize);
	if (table_fits(e, e->phoff, e->phnum, e->phentsize, "program headers") < 0 ||
	    table_fits(e, e->shoff, e->shnum, e->shentsize, "section headers") < 0)
		return -1;
	if (e->shstrndx != SHN_UNDEF && e->shstrndx >= e->shnum)
		return elf_fail(e, "section name table index %u is out of range (%u sections)",
			    e->shstrndx, e->shnum);
	return 0;
}

int elf_open_fd(struct elf *e, int fd, uint64_t size)
{
	memset(e, 0, sizeof(*e));
	e->fd = fd;
	e->size = size;
	return parse_header(e);
}

int elf_open_mem(struct elf *e, const void *buf, uint64_t size)
{
	memset(e, 0, sizeof(*e));
	e->fd = -1;
	e->mem = buf;
	e->size = size;
	return parse_header(e);
}

int elf_shdr(struct elf *e, uint32_t i, struct elf_shdr *sh)
{
	const unsigned char *p;

	if (i >= e->shnum)
		return elf_fail(e, "section index %u is out of range (%u sections)", i, e->shnum);
	if (!(p = get(e, e->shoff + (uint64_t)i * e->shentsize, e->shentsize, "section header")))
		return -1;
	sh->name = u32(e, p);
	sh->type = u32(e, p + 4);
	if (e->is64) {
		sh->flags = u64(e, p + 8);
		sh->addr = u64(e, p + 16);
		sh->offset = u64(e, p + 24);
		sh->size = u64(e, p + 32);
		sh->link = u32(e, p + 40);
		sh->info = u32(e, p + 44);
		sh->addralign = u64(e, p + 48);
		sh->entsize = u64(e, p + 56);
	} else {
		sh->flags = u32(e, p + 8);
		sh->addr = u32(e, p + 12);
		sh->offset = u32(e, p + 16);
		sh->size = u32(e, p + 20);
		sh->link = u32(e, p + 24);
		sh->info = u32(e, p + 28);
		sh->addralign = u32(e, p + 32);
		sh->entsize = u32(e, p + 36);
	}
	return 0;
}

int elf_phdr(struct elf *e, uint32_t i, struct elf_phdr *ph)
{
	const unsigned char *p;

	if (i >= e->phnum)
		return elf_fail(e, "program header index %u is out of range (%u headers)", i, e->phnum);
	if (!(p = get(e, e->phoff + (uint64_t)i * e->phentsize, e->phentsize, "program header")))
		return -1;
	ph->type = u32(e, p);
	if (e->is64) {
		ph->flags = u32(e, p + 4);
		ph->offset = u64(e, p + 8);
		ph->vaddr = u64(e, p + 16);
		ph->paddr = u64(e, p + 24);
		ph->filesz = u64(e, p + 32);
		ph->memsz = u64(e, p + 40);
		ph->align = u64(e, p + 48);
	} else {
		ph->offset = u32(e, p + 4);
		ph->vaddr = u32(e, p + 8);
		ph->paddr = u32(e, p + 12);
		ph->filesz = u32(e, p + 16);
		ph->memsz = u32(e, p + 20);
		ph->flags = u32(e, p + 24);
		ph->align = u32(e, p + 28);
	}
	return 0;
}

/*
 * The string at off in string table section strsec, into buf[len]. 0 when
 * whole, 1 when cut to fit buf (the caller marks it), -1 when the index or
 * the table is bad or the string is not terminated inside its table.
 */
int elf_str(struct elf *e, uint32_t strsec, uint64_t off, char *buf, size_t len)
{
	uint64_t pos, end;
	size_t n = 0;

	/* the table's header read once, not again for each of its names */
	if (!ELF_STR_DIRECT || e->strsec != strsec + 1) {
		struct elf_shdr sh;

		if (elf_shdr(e, strsec, &sh) < 0)
			return -1;
		if (sh.type != SHT_STRTAB)
			return elf_fail(e, "string table section %u has type %u, not STRTAB",
				    strsec, sh.type);
		e->strsec = strsec + 1;
		e->stroff = sh.offset;
		e->strsize = sh.size;
	}
	if (off >= e->strsize)
		return elf_fail(e, "string index %llu is past its table's end (%llu bytes)",
			    (unsigned long long)off, (unsigned long long)e->strsize);
	if (e->stroff > e->size || e->strsize > e->size - e->stroff)
		return elf_fail(e, "string table section %u lies past the end of the file", strsec);
	pos = e->stroff + off;
	end = e->stroff + e->strsize;
	/*
	 * From a file, a name is read straight into buf, a short first read
	 * (most names are), then what room is left: the window keeps the symbol
	 * table it holds, where a read through it would swap 64 KiB twice a
	 * name. A name longer than buf is scanned on through the window.
	 */
	while (ELF_STR_DIRECT && !e->mem && n < len - 1 && pos < end) {
		size_t want = end - pos < len - 1 - n ? (size_t)(end - pos) : len - 1 - n;

		if (n == 0 && want > ELF_STR_FIRST)
			want = ELF_STR_FIRST;
		if (read_at(e, (unsigned char *)buf + n, pos, want, "string") < 0)
			return -1;
		if (memchr(buf + n, '\0', want))
			return 0;
		n += want;
		pos += want;
	}
	while (pos < end) {
		size_t chunk = end - pos < sizeof(window) ? end - pos : sizeof(window);
		const unsigned char *p = get(e, pos, chunk, "string"), *z;
		size_t take;

		if (!p)
			return -1;
		z = memchr(p, '\0', chunk);
		take = z ? (size_t)(z - p) : chunk;
		if (n < len - 1) {
			size_t room = len - 1 - n;

			memcpy(buf + n, p, take < room ? take : room);
		}
		n += take;
		if (z) {
			buf[n < len - 1 ? n : len - 1] = '\0';
			return n < len ? 0 : 1;
		}
		pos += chunk;
	}
	return elf_fail(e, "string at index %llu of section %u is not terminated",
		    (unsigned long long)off, strsec);
}

int elf_secname(struct elf *e, const struct elf_shdr *sh, char *buf, size_t len)
{
	if (e->shstrndx == SHN_UNDEF) {
		buf[0] = '\0';
		return 0;
	}
	return elf_str(e, e->shstrndx, sh->name, buf, len);
}

/*
 * The symbol table of the given type (SHT_SYMTAB or SHT_DYNSYM): 0 found,
 * 1 none (not an error: stripped, or no section headers), -1 bad.
 */
int elf_symtab(struct elf *e, uint32_t type, struct elf_symtab *t)
{
	uint32_t i, ent = e->is64 ? 24 : 16;
	struct elf_shdr sh, link;

	memset(t, 0, sizeof(*t));
	for (i = 1; i < e->shnum; i++) {
		if (elf_shdr(e, i, &sh) < 0)
			return -1;
		if (sh.type == type)
			break;
	}
	if (i >= e->shnum)
		return 1;
	if (sh.entsize != ent)
		return elf_fail(e, "symbol table section %u: entry size %llu, not %u", i,
			    (unsigned long long)sh.entsize, ent);
	if (sh.offset > e->size || sh.size > e->size - sh.offset)
		return elf_fail(e, "symbol table section %u lies past the end of the file", i);
	if (sh.link == SHN_UNDEF || sh.link >= e->shnum)
		return elf_fail(e, "symbol table section %u: string table link %u is out of range",
			    i, sh.link);
	if (elf_shdr(e, sh.link, &link) < 0)
		return -1;
	if (link.type != SHT_STRTAB)
		return elf_fail(e, "symbol table section %u links to section %u, not a string table",
			    i, sh.link);
	t->sec = i;
	t->strsec = sh.link;
	t->offset = sh.offset;
	t->count = sh.size / ent;
	t->type = type;
	/* SHT_SYMTAB_SHNDX holds the section indexes that do not fit in 16 bits. */
	for (i = 1; i < e->shnum; i++) {
		struct elf_shdr x;

		if (elf_shdr(e, i, &x) < 0)
			return -1;
		if (x.type == SHT_SYMTAB_SHNDX && x.link == t->sec) {
			if (x.offset > e->size || x.size > e->size - x.offset ||
			    x.size / 4 < t->count)
				return elf_fail(e, "extended section index table %u is too short or "
					    "past the end of the file", i);
			t->shndx_off = x.offset;
			t->has_shndx = 1;
			break;
		}
	}
	return 0;
}

int elf_sym(struct elf *e, const struct elf_symtab *t, uint64_t i, struct elf_sym *s)
{
	uint32_t ent = e->is64 ? 24 : 16;
	const unsigned char *p;

	if (i >= t->count)
		return elf_fail(e, "symbol index %llu is out of range", (unsigned long long)i);
	if (!(p = get(e, t->offset + i * ent, ent, "symbol")))
		return -1;
	s->name = u32(e, p);
	if (e->is64) {
		s->info = p[4];
		s->other = p[5];
		s->shndx = u16(e, p + 6);
		s->value = u64(e, p + 8);
		s->size = u64(e, p + 16);
	} else {
		s->value = u32(e, p + 4);
		s->size = u32(e, p + 8);
		s->info = p[12];
		s->other = p[13];
		s->shndx = u16(e, p + 14);
	}
	if (s->shndx == SHN_XINDEX) {
		if (!t->has_shndx)
			return elf_fail(e, "symbol %llu needs an extended section index, and there "
				    "is no SYMTAB_SHNDX table", (unsigned long long)i);
		if (!(p = get(e, t->shndx_off + i * 4, 4, "extended section index")))
			return -1;
		s->shndx = u32(e, p);
		/* checked here: a big value would read as ELF_SHN_SPECIAL */
		if (s->shndx >= e->shnum)
			return elf_fail(e, "symbol %llu: extended section index %u is out of range "
				    "(%u sections)", (unsigned long long)i, s->shndx, e->shnum);
	} else if (s->shndx >= SHN_LORESERVE) {
		s->shndx |= ELF_SHN_SPECIAL;	/* ABS, COMMON and the like */
	}
	return 0;
}

/*
 * Look for the GNU build-id in one note area; 0 found, 1 not there, -1 bad.
 * A note is a 12-byte header, the name and the descriptor, each of the last
 * two starting at a multiple of the area's alignment (4, or 8) from the start.
 */
static int find_note(struct elf *e, uint64_t off, uint64_t size, uint64_t align,
		     unsigned char *id, size_t *idlen)
{
	uint64_t pos = 0;

	align = align == 8 ? 8 : 4;
	if (off > e->size || size > e->size - off)
		return elf_fail(e, "note area at offset %llu lies past the end of the file",
			    (unsigned long long)off);
	while (size - pos >= 12) {
		const unsigned char *h = get(e, off + pos, 12, "note header");
		uint64_t namesz, descsz, desc, next;
		uint32_t type;

		if (!h)
			return -1;
		namesz = u32(e, h);
		descsz = u32(e, h + 4);
		type = u32(e, h + 8);
		/* sizes are 32-bit, so these sums cannot overflow */
		desc = (12 + namesz + align - 1) & ~(align - 1);
		next = (desc + descsz + align - 1) & ~(align - 1);
		if (desc + descsz > size - pos)
			return elf_fail(e, "note at offset %llu runs past its area",
				    (unsigned long long)(off + pos));
		if (type == NT_GNU_BUILD_ID && namesz == 4) {
			const unsigned char *n = get(e, off + pos + 12, 4, "note name");

			if (!n)
				return -1;
			if (memcmp(n, "GNU", 4) == 0) {
				const unsigned char *d;

				if (descsz == 0 || descsz > ELF_BUILDID_MAX)
					return elf_fail(e, "build-id of %llu bytes",
						    (unsigned long long)descsz);
				if (!(d = get(e, off + pos + desc, descsz, "build-id")))
					return -1;
				memcpy(id, d, descsz);
				*idlen = descsz;
				e->buildid_off = off + pos + desc;
				return 0;
			}
		}
		if (next >= size - pos)
			break;
		pos += next;
	}
	return 1;
}

/* The GNU build-id, from note sections, else note segments: 0, 1 none, -1 bad. */
int elf_buildid(struct elf *e, unsigned char *id, size_t *idlen)
{
	uint32_t i;
	int r;

	*idlen = 0;
	for (i = 1; i < e->shnum; i++) {
		struct elf_shdr sh;

		if (elf_shdr(e, i, &sh) < 0)
			return -1;
		if (sh.type == SHT_NOTE &&
		    (r = find_note(e, sh.offset, sh.size, sh.addralign, id, idlen)) != 1)
			return r;
	}
	for (i = 0; i < e->phnum; i++) {
		struct elf_phdr ph;

		if (elf_phdr(e, i, &ph) < 0)
			return -1;
		if (ph.type == PT_NOTE &&
		    (r = find_note(e, ph.offset, ph.filesz, ph.align, id, idlen)) != 1)
			return r;
	}
	return 1;
}
