/* libfixture.so: the library the sections and symbols fixture maps. */
/*
 * libfixture.so - the library the sections and symbols fixture test maps
 *
 * Ten arrays of exactly FIX_PAGES pages each, page aligned, so that every
 * page of them belongs to one symbol alone and its figures can be told from
 * pagemap without splitting pages: five in .data (a non-zero initialiser
 * keeps them out of .bss), five in .bss. fixture_touch() touches each a
 * different way: not at all, every byte read, every byte written, the first
 * half of its pages read, the first half written.
 *
 * The touching is done here, inside the library, and the driver never names
 * the arrays: a reference from the executable would give them copy
 * relocations, moving them into the executable's .bss.
 */
#include <stddef.h>

#define FIX_PAGE	4096
#define FIX_PAGES	4	/* even: "half" is a whole number of pages */
#define FIX_SIZE	(FIX_PAGE * FIX_PAGES)

/*
 * aligned() makes the alignment part of each object, so however the compiler
 * or the linker order them, every array starts on a page and, being a whole
 * number of pages long, ends on one.
 */
#define DATA(name) \
	char name[FIX_SIZE] __attribute__((aligned(FIX_PAGE))) = { 1 }
#define BSS(name) \
	char name[FIX_SIZE] __attribute__((aligned(FIX_PAGE)))

DATA(data_untouched);
DATA(data_read);
DATA(data_written);
DATA(data_half_read);
DATA(data_half_written);

BSS(bss_untouched);
BSS(bss_read);
BSS(bss_written);
BSS(bss_half_read);
BSS(bss_half_written);

void	fixture_touch(void);

/*
 * Two small objects beside the arrays, for the pages around the RELRO
 * boundary: a string in .rodata that nothing reads, and a table of pointers
 * that ld.so relocates (so its page is copied) and then makes read-only. In
 * a small library the read-only segment and the start of the data segment
 * share a page of the file, so both mappings have the same file offset.
 */
const char fixture_rodata[64] = "libfixture: read-only data, never read";
void (*const fixture_ops[2])(void) = { fixture_touch, fixture_touch };

/* Reads go here, so that the compiler cannot drop them. */
static volatile unsigned char fixture_sink;

static void
rd(const volatile char *p, size_t n)
{
	unsigned char sum = 0;
	size_t i;

	/* Every byte, not one per page: "read" means the whole range. */
	for (i = 0; i < n; i++)
		sum += (unsigned char)p[i];
	fixture_sink = sum;
}

static void
wr(volatile char *p, size_t n)
{
	size_t i;

	/* Non-zero bytes: the written pages must not look untouched. */
	for (i = 0; i < n; i++)
		p[i] = (char)(i % 251 + 1);
}

void
fixture_touch(void)
{
	rd(data_read, FIX_SIZE);
	wr(data_written, FIX_SIZE);
	rd(data_half_read, FIX_SIZE / 2);
	wr(data_half_written, FIX_SIZE / 2);

	rd(bss_read, FIX_SIZE);
	wr(bss_written, FIX_SIZE);
	rd(bss_half_read, FIX_SIZE / 2);
	wr(bss_half_written, FIX_SIZE / 2);
}
