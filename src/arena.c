/* The arena: all working memory, one mapping, opened as it fills. */
/*
 * The arena: all working memory, one anonymous mapping reserved at start-up
 * and never moved. Records grow up from the bottom, run records down from the
 * top. It is reserved without access and opened a step at a time at either
 * end as it fills, so that only what is used is committed (also where the
 * kernel accounts every writable page, overcommit_memory 2) and RSS follows.
 */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>

#include "exmap.h"

#define ARENA_STEP	((size_t)1 << 20)	/* opened at a time, at least */

int arena_init(struct arena *a, size_t size)
{
	void *p;

	size = (size + 4095) & ~(size_t)4095;
	p = mmap(NULL, size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED)
		return -errno;
	memset(a, 0, sizeof(*a));
	a->base = p;
	a->size = size;
	return 0;
}

/* The whole arena given back, to be made anew. */
void arena_release(struct arena *a)
{
	if (a->base)
		munmap(a->base, a->size);
	memset(a, 0, sizeof(*a));
}

/* A size as a person reads it: bytes below 10 KiB, else KiB below 10 MiB, else MiB. */
static const char *size_text(char *buf, size_t len, size_t n)
{
	if (n < 10240)
		fmt_snprintf(buf, len, "%zu bytes", n);
	else if (n < ((size_t)10 << 20))
		fmt_snprintf(buf, len, "%zu KiB", (n + 1023) >> 10);
	else
		fmt_snprintf(buf, len, "%zu MiB", (n + (1 << 20) - 1) >> 20);
	return buf;
}

_Noreturn void arena_full(const struct arena *a, size_t want)
{
	char used[32], more[32];
	size_t need = a->lo + a->hi + want;

	/* the -m that would hold it, in whole MiB and a quarter more for what follows */
	need = ((need + need / 4) >> 20) + 1;
	die("arena full: %s in use, %s more needed; raise it with -m SIZE (-m %zuM would do)",
	    size_text(used, sizeof(used), a->lo + a->hi), size_text(more, sizeof(more), want),
	    need);
}

/* The next step to open beyond `open` bytes: a quarter of them, 1 MiB at least. */
static size_t step(size_t open)
{
	return open / 4 > ARENA_STEP ? (open / 4 + 4095) & ~(size_t)4095 : ARENA_STEP;
}

/* Open the bottom up to lo bytes and the top down to hi bytes, or die saying why. */
static void open_up(struct arena *a, size_t lo, size_t hi)
{
	size_t gap = a->size - a->lo_open - a->hi_open, n;

	if (lo > a->lo_open) {
		n = (lo - a->lo_open + step(a->lo_open) - 1) / step(a->lo_open) * step(a->lo_open);
		if (n > gap)
			n = gap;	/* the rest the top opened already */
		if (n && mprotect(a->base + a->lo_open, n, PROT_READ | PROT_WRITE) < 0)
			dierr(errno, "cannot commit %zu MiB more of the arena", n >> 20);
		a->lo_open += n;
		gap -= n;
	}
	if (hi > a->hi_open) {
		n = (hi - a->hi_open + step(a->hi_open) - 1) / step(a->hi_open) * step(a->hi_open);
		if (n > gap)
			n = gap;	/* the rest the bottom opened already */
		if (n && mprotect(a->base + a->size - a->hi_open - n, n, PROT_READ | PROT_WRITE) < 0)
			dierr(errno, "cannot commit %zu MiB more of the arena", n >> 20);
		a->hi_open += n;
	}
}

void *arena_alloc(struct arena *a, size_t n, size_t align)
{
	size_t off = (a->lo + align - 1) & ~(align - 1);

	if (off < a->lo || off > a->size - a->hi || n > a->size - a->hi - off)
		arena_full(a, n);
	if (off + n > a->lo_open)
		open_up(a, off + n, 0);
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
	if (a->size - off > a->hi_open)
		open_up(a, 0, a->size - off);
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
