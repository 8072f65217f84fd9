/* The elf view: a file's sections, segments, symbols and build-id, no scan. */
/*
 * The elf view: a static dump of one file's sections, segments, symbols and
 * build-id, with no scan. A part that cannot be read is reported, the exit
 * status says partial, and the dump goes on with the next part.
 */
#include <elf.h>		/* constants only */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "elfread.h"

struct name { uint32_t v; const char *s; };

static const struct name sec_types[] = {
	{ 0, "NULL" }, { 1, "PROGBITS" }, { 2, "SYMTAB" }, { 3, "STRTAB" },
	{ 4, "RELA" }, { 5, "HASH" }, { 6, "DYNAMIC" }, { 7, "NOTE" },
	{ 8, "NOBITS" }, { 9, "REL" }, { 10, "SHLIB" }, { 11, "DYNSYM" },
	{ 14, "INIT_ARRAY" }, { 15, "FINI_ARRAY" }, { 16, "PREINIT_ARRAY" },
	{ 17, "GROUP" }, { 18, "SYMTAB_SHNDX" }, { 0x6ffffff5, "GNU_ATTRIBUTES" },
	{ 0x6ffffff6, "GNU_HASH" }, { 0x6ffffffd, "VERDEF" }, { 0x6ffffffe, "VERNEED" },
	{ 0x6fffffff, "VERSYM" }, { 0x70000001, "LOPROC+1" }, { 0x70000003, "LOPROC+3" },
};

static const struct name seg_types[] = {
	{ 0, "NULL" }, { 1, "LOAD" }, { 2, "DYNAMIC" }, { 3, "INTERP" }, { 4, "NOTE" },
	{ 5, "SHLIB" }, { 6, "PHDR" }, { 7, "TLS" }, { 0x6474e550, "GNU_EH_FRAME" },
	{ 0x6474e551, "GNU_STACK" }, { 0x6474e552, "GNU_RELRO" },
	{ 0x6474e553, "GNU_PROPERTY" },
};

static const struct name sym_types[] = {
	{ 0, "NOTYPE" }, { 1, "OBJECT" }, { 2, "FUNC" }, { 3, "SECTION" }, { 4, "FILE" },
	{ 5, "COMMON" }, { 6, "TLS" }, { 10, "IFUNC" },
};

static const struct name sym_binds[] = {
	{ 0, "LOCAL" }, { 1, "GLOBAL" }, { 2, "WEAK" }, { 10, "UNIQUE" },
};

static const struct name machines[] = {
	{ 3, "i386" }, { 8, "mips" }, { 20, "ppc" }, { 21, "ppc64" }, { 22, "s390" },
	{ 40, "arm" }, { 42, "sh" }, { 62, "x86-64" }, { 183, "aarch64" },
	{ 243, "riscv" },
};

static const char *lookup(const struct name *t, size_t n, uint32_t v, char *buf, size_t len)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (t[i].v == v)
			return t[i].s;
	fmt_snprintf(buf, len, "0x%x", v);
	return buf;
}

#define LOOKUP(t, v, buf) lookup(t, sizeof(t) / sizeof(t[0]), v, buf, sizeof(buf))

/* readelf's letters for section flags */
static void sec_flags(uint64_t f, char *buf)
{
	static const struct { uint64_t bit; char c; } fl[] = {
		{ 0x1, 'W' }, { 0x2, 'A' }, { 0x4, 'X' }, { 0x10, 'M' }, { 0x20, 'S' },
		{ 0x40, 'I' }, { 0x80, 'L' }, { 0x100, 'O' }, { 0x200, 'G' },
		{ 0x400, 'T' }, { 0x800, 'C' }, { 0x80000000, 'E' },
	};
	size_t i, n = 0;

	for (i = 0; i < sizeof(fl) / sizeof(fl[0]); i++)
		if (f & fl[i].bit)
			buf[n++] = fl[i].c;
	buf[n] = '\0';
}

static void seg_flags(uint32_t f, char *buf)
{
	buf[0] = f & 4 ? 'R' : '-';
	buf[1] = f & 2 ? 'W' : '-';
	buf[2] = f & 1 ? 'E' : '-';
	buf[3] = '\0';
}

/* Cut to fit, and say so: a name longer than its buffer ends in "...". */
static void mark_cut(char *buf, size_t len, int cut)
{
	if (cut > 0)
		memcpy(buf + len - 4, "...", 4);
}

/* The section a symbol is defined in: its name, or UND, ABS, COM. */
static const char *sym_section(const char *path, struct elf *e, uint32_t shndx,
			       char *buf, size_t len)
{
	struct elf_shdr sh;
	int cut;

	if (shndx == 0)
		return "UND";
	if (shndx & ELF_SHN_SPECIAL) {
		uint32_t v = shndx & 0xffff;

		if (v == 0xfff1)
			return "ABS";
		if (v == 0xfff2)
			return "COM";
		fmt_snprintf(buf, len, "0x%x", v);
		return buf;
	}
	if (elf_shdr(e, shndx, &sh) < 0 || (cut = elf_secname(e, &sh, buf, len)) < 0) {
		/* the symbol is listed; the damage is said, and the exit says partial */
		warnx("%s: %s", path, e->err);
		exit_at_least(EX_PARTIAL);
		fmt_snprintf(buf, len, "[%u]", shndx);
		return buf;
	}
	mark_cut(buf, len, cut);
	return buf;
}

static void bad(const char *path, const struct elf *e)
{
	warnx("%s: %s", path, e->err);
	exit_at_least(EX_PARTIAL);
}

static void csv_row(const char *kind, uint64_t index, const char *name, const char *type,
		    uint64_t addr, const char *offset, uint64_t size, const char *filesz,
		    const char *flags, const char *align, const char *bind,
		    const char *section, const char *table)
{
	outf("%s,%llu,", kind, (unsigned long long)index);
	csv_field(name, strlen(name));
	outf(",%s,0x%llx,%s,%llu,%s,%s,%s,%s,", type, (unsigned long long)addr, offset,
	     (unsigned long long)size, filesz, flags, align, bind);
	csv_field(section, strlen(section));
	outf(",%s\n", table);
}

static void dump_sections(const char *path, struct elf *e, int csv)
{
	static char name[ELF_NAME_MAX];	/* not on the stack: small stacks on boards */
	char tbuf[16], fl[16], off[24], al[24];
	uint32_t i;

	if (!csv)
		outf("sections: %u\n  [Nr] %-18s %-12s %-16s %8s %8s FLAGS\n", e->shnum,
		     "NAME", "TYPE", "ADDR", "OFFSET", "SIZE");
	for (i = 0; i < e->shnum; i++) {
		struct elf_shdr sh;
		int cut;

		if (elf_shdr(e, i, &sh) < 0 || (cut = elf_secname(e, &sh, name, sizeof(name))) < 0) {
			bad(path, e);
			return;
		}
		mark_cut(name, sizeof(name), cut);
		sec_flags(sh.flags, fl);
		if (csv) {
			fmt_snprintf(off, sizeof(off), "%llu", (unsigned long long)sh.offset);
			fmt_snprintf(al, sizeof(al), "%llu", (unsigned long long)sh.addralign);
			csv_row("section", i, name, LOOKUP(sec_types, sh.type, tbuf), sh.addr, off,
				sh.size, "", fl, al, "", "", "");
		} else {
			outf("  [%2u] %-18.18s %-12.12s %016llx %8llx %8llx %s\n", i, name,
			     LOOKUP(sec_types, sh.type, tbuf), (unsigned long long)sh.addr,
			     (unsigned long long)sh.offset, (unsigned long long)sh.size, fl);
		}
	}
}

static void dump_segments(const char *path, struct elf *e, int csv)
{
	char tbuf[16], fl[8], off[24], fsz[24], al[24];
	uint32_t i;

	if (!csv)
		outf("segments: %u\n  %-12s %8s %-16s %8s %8s FLG ALIGN\n", e->phnum, "TYPE",
		     "OFFSET", "VADDR", "FILESZ", "MEMSZ");
	for (i = 0; i < e->phnum; i++) {
		struct elf_phdr ph;
		const char *type;

		if (elf_phdr(e, i, &ph) < 0) {
			bad(path, e);
			return;
		}
		type = LOOKUP(seg_types, ph.type, tbuf);
		seg_flags(ph.flags, fl);
		if (csv) {
			fmt_snprintf(off, sizeof(off), "%llu", (unsigned long long)ph.offset);
			fmt_snprintf(fsz, sizeof(fsz), "%llu", (unsigned long long)ph.filesz);
			fmt_snprintf(al, sizeof(al), "%llu", (unsigned long long)ph.align);
			csv_row("segment", i, type, type, ph.vaddr, off, ph.memsz, fsz, fl, al,
				"", "", "");
		} else {
			outf("  %-12s %8llx %016llx %8llx %8llx %s %llx\n", type,
			     (unsigned long long)ph.offset, (unsigned long long)ph.vaddr,
			     (unsigned long long)ph.filesz, (unsigned long long)ph.memsz, fl,
			     (unsigned long long)ph.align);
		}
	}
}

static void dump_symbols(const char *path, struct elf *e, uint32_t type, int csv)
{
	const char *table = type == SHT_SYMTAB ? "symtab" : "dynsym";
	static char name[ELF_NAME_MAX], sec[ELF_NAME_MAX];
	char tbuf[16], bbuf[16];
	struct elf_symtab t;
	uint64_t i;
	size_t w;
	int r = elf_symtab(e, type, &t);

	if (r < 0) {
		bad(path, e);
		return;
	}
	if (r > 0)
		return;
	if (!csv)
		outf("symbols (%s): %llu\n  %-16s %8s %-7s %-6s %-12s NAME\n", table,
		     (unsigned long long)t.count, "VALUE", "SIZE", "TYPE", "BIND", "SECTION");
	for (i = 0; i < t.count; i++) {
		struct elf_sym s;
		const char *st, *sb, *ss;
		int cut;

		if (elf_sym(e, &t, i, &s) < 0 ||
		    (cut = elf_str(e, t.strsec, s.name, name, sizeof(name))) < 0) {
			bad(path, e);
			return;
		}
		mark_cut(name, sizeof(name), cut);
		st = LOOKUP(sym_types, s.info & 0xf, tbuf);
		sb = LOOKUP(sym_binds, s.info >> 4, bbuf);
		ss = sym_section(path, e, s.shndx, sec, sizeof(sec));
		if (csv) {
			csv_row("symbol", i, name, st, s.value, "", s.size, "", "", "", sb, ss, table);
			continue;
		}
		w = 24 + text_cols() - TEXT_COLS;	/* 80 columns, or the terminal's */
		if (strlen(name) > w && w + 4 <= sizeof(name))	/* cut, and say so */
			memcpy(name + w - 3, "...", 4);
		outf("  %016llx %8llu %-7s %-6s %-12.12s %s\n", (unsigned long long)s.value,
		     (unsigned long long)s.size, st, sb, ss, name);
	}
}

static void dump_buildid(const char *path, struct elf *e, int csv)
{
	unsigned char id[ELF_BUILDID_MAX];
	char hex[2 * ELF_BUILDID_MAX + 1];
	size_t n, i;
	int r = elf_buildid(e, id, &n);

	if (r < 0) {
		bad(path, e);
		return;
	}
	for (i = 0; i < n; i++)
		fmt_snprintf(hex + 2 * i, 3, "%02x", id[i]);
	hex[2 * n] = '\0';
	if (csv && r == 0)
		csv_row("buildid", 0, hex, "", 0, "", n, "", "", "", "", "", "");
	else if (!csv)
		outf("build-id: %s\n", r == 0 ? hex : "none");
}

void view_elf(const char *path, const struct opts *o)
{
	struct elf e;
	uint64_t size;
	char mbuf[16];
	int fd = open_regular(AT_FDCWD, path, &size);

	if (fd == -EINVAL)
		die("%s: not a regular file", path);
	if (fd < 0)
		dierr(-fd, "%s", path);
	if (elf_open_fd(&e, fd, size) < 0) {
		close(fd);
		die("%s: %s", path, e.err);
	}
	if (o->csv) {
		if (!o->noheader)
			outs("kind,index,name,type,addr,offset,size,filesz,flags,align,bind,"
			     "section,table\n");
	} else {
		outf("%s: ELF%d %s-endian %s, type %u, %llu bytes\n", path, e.is64 ? 64 : 32,
		     e.be ? "big" : "little", LOOKUP(machines, e.machine, mbuf), e.type,
		     (unsigned long long)size);
	}
	dump_buildid(path, &e, o->csv);
	dump_sections(path, &e, o->csv);
	dump_segments(path, &e, o->csv);
	dump_symbols(path, &e, SHT_SYMTAB, o->csv);
	dump_symbols(path, &e, SHT_DYNSYM, o->csv);
	close(fd);
	out_flush();
}
