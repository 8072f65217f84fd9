/* elfcorrupt's variants of the headers and of what they point at. */
/*
 * Every field of the ELF header and of each section and program header
 * (a sample of the sections when there are many), a few symbols of each
 * symbol table, each string table unterminated, the first note of each
 * note section and segment.
 */
#include <elf.h>		/* constants only */
#include <stdint.h>
#include <stdio.h>

#include "elfcorrupt.h"

void ehdr_variants(void)
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

void shdr_variants(void)
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

void phdr_variants(void)
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
void sym_variants(void)
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
void strtab_variants(void)
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

void note_variants(void)
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
