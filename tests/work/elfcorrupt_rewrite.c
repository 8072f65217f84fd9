/* elfcorrupt's rewrites: extended numbering, SYMTAB_SHNDX, no sections, cuts. */
#include <elf.h>		/* constants only */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "elfcorrupt.h"

#define MAX_TRUNC	4096

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

void xnum_variants(void)
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

void shndx_variants(void)
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
void nosec_variant(void)
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
void trunc_variants(void)
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

