/* The census of RAM from /proc/kpageflags: every frame once, by its flags. */
/*
 * Every frame once, by its flags, then settled with the kernel's own counts
 * read before and after: where kpageflags marks only the first frame of a
 * free block (kernels before 4.6), the frames after it are inferred free;
 * where MemFree counts memory the buddy allocator has not been given yet
 * (zoneinfo), that much of the frames with no flag is counted free apart.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "census.h"
#include "exmap.h"
#include "ramtext.h"

const char *const frame_kind_name[FK_N] = {
	[FK_NOPAGE] = "no struct page", [FK_OFFLINE] = "offline", [FK_BALLOON] = "balloon",
	[FK_FREE] = "free", [FK_ZERO] = "zero page", [FK_RESERVED] = "reserved",
	[FK_HUGETLB] = "hugetlb", [FK_SLAB] = "slab", [FK_PGTABLE] = "page tables",
	[FK_KSM] = "ksm", [FK_ANON] = "anonymous", [FK_SHMEM] = "shmem",
	[FK_FILE] = "page cache", [FK_OTHER] = "other kernel",
};

#define F(b)	(UINT64_C(1) << (b))

/*
 * A frame's kind from its flags: the first of census.h's order that applies.
 * No bit says balloon: 23, KPF_BALLOON until 5.0, is KPF_OFFLINE, which
 * balloon drivers set since; 33 is KPF_MLOCKED.
 */
static int kind_of(uint64_t f)
{
	if (f & F(KPF_NOPAGE))
		return FK_NOPAGE;
	if (f & F(KPF_OFFLINE))
		return FK_OFFLINE;
	if (f & F(KPF_BUDDY))
		return FK_FREE;
	if (f & F(KPF_ZERO_PAGE))
		return FK_ZERO;
	if (f & F(KPF_RESERVED))
		return FK_RESERVED;
	if (f & F(KPF_HUGE))
		return FK_HUGETLB;
	if (f & F(KPF_SLAB))
		return FK_SLAB;
	if (f & F(KPF_PGTABLE))
		return FK_PGTABLE;
	if (f & F(KPF_KSM))
		return FK_KSM;
	if (f & F(KPF_ANON))
		return FK_ANON;
	if (f & F(KPF_SWAPBACKED))
		return FK_SHMEM;
	if (f & F(KPF_LRU))
		return FK_FILE;
	return FK_OTHER;
}

/*
 * A free block's first frame at pfn P, where only that one is marked: the
 * block is 2^k frames with k <= ctz(P) and k <= the largest order, its
 * other frames carry no flag and are not mapped. The window is what the
 * alignment allows after P; tail, the flagless frames seen in it so far.
 * When the run ends, the block is taken as the largest power of two that
 * fits in it: an allocated flagless frame right after a smaller block, in
 * the window, is counted free (at most window - block frames a block).
 */
struct window {
	uint64_t left, tail;
};

static void window_close(struct census *c, struct window *w)
{
	if (w->tail)
		c->inferred += (UINT64_C(1) << (63 - __builtin_clzll(w->tail + 1))) - 1;
	w->left = w->tail = 0;
}

static void count(struct census *c, struct window *w, const uint64_t *buf, size_t n,
		  uint64_t pfn, int max_order)
{
	size_t k;

	for (k = 0; k < n; k++) {
		uint64_t f = buf[k];
		int o;

		if (w->left) {
			if (f == 0) {
				w->tail++;
				if (--w->left == 0)
					window_close(c, w);
			} else {
				window_close(c, w);
			}
		}
		if (f == 0) {	/* no flag: other kernel, or a free block's tail, or outside */
			c->kind[FK_OTHER]++;
			c->bare++;
			continue;
		}
		c->kind[kind_of(f)]++;
		c->mapped += (f >> KPF_MMAP) & 1;
		c->thp += (f >> KPF_THP) & 1;
		if (f & F(KPF_BUDDY)) {
			o = pfn + k ? __builtin_ctzll(pfn + k) : max_order;
			w->left = (UINT64_C(1) << (o < max_order ? o : max_order)) - 1;
			w->tail = 0;
		}
	}
}

void census_flags(struct census *c, const uint64_t *flags, size_t n, uint64_t pfn, int max_order)
{
	struct window w = { 0, 0 };

	count(c, &w, flags, n, pfn, max_order);
	window_close(c, &w);
	c->frames += n;
}

/* "Name:   N kB" of meminfo's text, in frames. */
static int mi_frames(const char *text, const char *name, int page_shift, uint64_t *v)
{
	const char *p = find_str(text, name);
	char *q;

	if (!p || (p != text && p[-1] != '\n'))
		return -1;
	q = (char *)p + strlen(name);
	if (ram_dec(&q, v) < 0)
		return -1;
	*v = (*v << 10) >> page_shift;
	return 0;
}

/* The kernel's counts, right now: MemTotal and MemFree, the zones', buddyinfo's. */
/*
 * The frames read, or zoneinfo's lines: one buffer, as they are read one
 * after the other (bss is RAM on a board).
 */
static union {
	uint64_t flags[8192];	/* 64 KiB: 32 MiB of 4 KiB frames a read */
	struct linebuf lb;
} mem;

void census_counts(struct census_counts *k, int page_shift)
{
	static char text[8192];
	struct linebuf *lb = &mem.lb;
	char *p = text, *l, line[256];
	size_t len;
	int fd, toolong;

	memset(k, 0, sizeof(*k));
	k->max_order = 10;
	if (read_small(AT_FDCWD, "/proc/meminfo", text, sizeof(text)) > 0) {
		mi_frames(text, "MemTotal:", page_shift, &k->memtotal);
		mi_frames(text, "MemFree:", page_shift, &k->memfree);
	}
	/* zoneinfo is long (a block per cpu per zone): read a line at a time */
	if ((fd = open("/proc/zoneinfo", O_RDONLY | O_CLOEXEC)) >= 0) {
		lb_init(lb, fd);
		while (lb_next(lb, line, sizeof(line), &len, &toolong) > 0) {
			char *q = line, *w1 = ram_word(&q), *w2 = ram_word(&q);
			uint64_t v;

			if (!w1 || !w2)
				continue;
			if (!strcmp(w1, "pages") && !strcmp(w2, "free") && q && ram_dec(&q, &v) == 0) {
				k->zone_free += v;
			} else if (!strcmp(w1, "managed") && ram_dec_prefix(w2, &v) == 0) {
				k->zone_managed += v;
				k->have_zone = 1;
			}
		}
		close(fd);
	}
	/* "Node 0, zone   Normal  N0 N1 ... N10": blocks of each order */
	if (read_small(AT_FDCWD, "/proc/buddyinfo", text, sizeof(text)) > 0) {
		while ((l = ram_line(&p)) != NULL) {
			char *q = strstr(l, " zone ");
			uint64_t v;
			int o;

			if (!q || (q += 6, !ram_word(&q)))
				continue;
			for (o = 0; q && ram_dec(&q, &v) == 0; o++) {
				k->buddy_heads += v;
				k->buddy_frames += v << o;
			}
			k->have_buddy = 1;
			k->max_order = o > 0 ? o - 1 : k->max_order;
		}
	}
	k->ns = clock_ns(CLOCK_MONOTONIC);
}

static uint64_t at_most(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

void census_settle(struct census *c, const struct census_counts *b, const struct census_counts *a)
{
	c->moved = a->memfree > b->memfree ? a->memfree - b->memfree : b->memfree - a->memfree;
	c->ms = (a->ns - b->ns) / 1000000;
	if (a->have_buddy && b->have_buddy) {
		c->buddy_frames = (a->buddy_frames + b->buddy_frames) / 2;
		c->buddy_heads = (a->buddy_heads + b->buddy_heads) / 2;
	}
	/*
	 * Marked frames nearer buddyinfo's blocks than its frames: only the
	 * first frame of each block is marked, the inference counts the rest.
	 * (Where every block is a frame, the two are one figure.)
	 */
	c->heads_only = c->buddy_frames > c->buddy_heads && c->inferred &&
			2 * c->kind[FK_FREE] < c->buddy_frames + c->buddy_heads;
	if (c->heads_only) {
		c->kind[FK_FREE] += c->inferred;
		c->kind[FK_OTHER] -= c->inferred;
		c->bare -= c->inferred;
	} else {
		c->inferred = 0;
	}
	/*
	 * Free by MemFree but in no zone's free lists, where MemTotal counts
	 * more than the zones manage (memory the kernel has not handed to the
	 * buddy allocator yet, as with deferred_init=lazy): counted on frames
	 * with no flag, never more than there are.
	 */
	c->outside_want = 0;
	if (a->have_zone && a->memtotal > a->zone_managed && a->memfree > a->zone_free)
		c->outside_want = at_most(a->memtotal - a->zone_managed, a->memfree - a->zone_free);
	c->outside = at_most(c->outside_want, c->bare);
	c->kind[FK_OTHER] -= c->outside;
	c->bare -= c->outside;
}

int census_kpageflags(struct census *c, const struct ramrange *r, size_t n, int page_shift)
{
	uint64_t *buf = mem.flags;
	struct census_counts before, after;
	size_t i;
	int fd = open("/proc/kpageflags", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	memset(c, 0, sizeof(*c));
	c->source = "kpageflags";
	census_counts(&before, page_shift);
	for (i = 0; i < n; i++) {
		uint64_t pfn = r[i].start >> page_shift, end = r[i].end >> page_shift;
		struct window w = { 0, 0 };

		while (pfn < end) {
			size_t want = end - pfn < 8192 ? (size_t)(end - pfn) : 8192;
			ssize_t got = pread(fd, buf, want * 8, (off_t)(pfn * 8));

			if (got < 0 && errno == EINTR)
				continue;
			if (got <= 0 || got % 8) {
				int err = got < 0 ? errno : EIO;

				close(fd);
				return -err;
			}
			count(c, &w, buf, (size_t)got / 8, pfn, before.max_order);
			c->frames += (uint64_t)got / 8;
			pfn += (uint64_t)got / 8;
		}
		window_close(c, &w);
	}
	close(fd);
	census_counts(&after, page_shift);
	/*
	 * 6.12's kpageflags sets KSM on every anonymous page: it tests mapping &
	 * PAGE_MAPPING_KSM, which the anon bit alone passes (7.x tests for both
	 * bits). Where no anonymous frame goes without it, none is KSM's.
	 */
	if (c->kind[FK_ANON] == 0) {
		c->kind[FK_ANON] = c->kind[FK_KSM];
		c->kind[FK_KSM] = 0;
	}
	census_settle(c, &before, &after);
	return 0;
}
