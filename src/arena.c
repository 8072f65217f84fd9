/*
 * The arena: all working memory, one anonymous mapping made at start-up and
 * never grown. Records grow up from the bottom, run records down from the top;
 * the pages are reserved, not committed, so RSS follows what is used.
 */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>

#include "exmap.h"

int arena_init(struct arena *a, size_t size)
{
	void *p;

	size = (size + 4095) & ~(size_t)4095;
	p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED)
		return -errno;
	a->base = p;
	a->size = size;
	a->lo = 0;
	a->hi = 0;
	a->peak = 0;
	return 0;
}

_Noreturn void arena_full(const struct arena *a, size_t want)
{
	die("arena full: %zu MiB in use, %zu more bytes needed; raise it with -m SIZE",
	    (a->lo + a->hi) >> 20, want);
}

void *arena_alloc(struct arena *a, size_t n, size_t align)
{
	size_t off = (a->lo + align - 1) & ~(align - 1);

	if (off < a->lo || off > a->size - a->hi || n > a->size - a->hi - off)
		arena_full(a, n);
	a->lo = off + n;
	if (a->lo > a->peak)
		a->peak = a->lo;
	return a->base + off;
}

/* Zero what was handed out and taken back before; above that it is zero. */
void arena_zero(const struct arena *a, void *p, size_t n)
{
	size_t off = (char *)p - a->base;

	if (off < a->peak)
		memset(p, 0, a->peak - off < n ? a->peak - off : n);
}

void *arena_alloc_top(struct arena *a, size_t n, size_t align)
{
	size_t free_top = a->size - a->hi;	/* end of the free gap */
	size_t off;

	if (n > free_top)
		arena_full(a, n);
	off = (free_top - n) & ~(align - 1);
	if (off < a->lo)
		arena_full(a, n);
	a->hi = a->size - off;
	return a->base + off;
}

char *arena_strdup(struct arena *a, const char *s, size_t n)
{
	char *p = arena_alloc(a, n + 1, 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}
