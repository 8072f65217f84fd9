/* Unit tests of the page table, effective sizes, the arena, hidden mappers. */
/*
 * Effective sizes to the byte, the page table of cookies (ids, runs, counts,
 * its limits), the arena (and its overflow: an error naming -m), and shares
 * raised to the kernel's map counts where mappers may be hidden.
 */
#include <errno.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "exmap.h"
#include "outside.h"
#include "unit.h"

void test_eff(void)
{
	struct eff e = { 0, 0 };
	uint64_t ps = 4096;
	uint32_t c;

	/* k pages each shared by k: k shares of 4096/k are one page, to a byte */
	for (c = 1; c <= 1000; c++) {
		memset(&e, 0, sizeof(e));
		eff_add(&e, (ps << 32) / c, c);
		if (eff_bytes(&e) != ps)
			break;
	}
	check(c == 1001, "eff: c shares of a page sum to the page", NULL);

	/* 5 or more sharers: KiB-per-page rounding loses these, we must not */
	memset(&e, 0, sizeof(e));
	eff_add(&e, (ps << 32) / 7, 1000);
	check(eff_bytes(&e) == (4096 * 1000 + 3) / 7, "eff: 1000 pages shared by 7", NULL);

	{
		struct eff a = { 10, UINT64_C(0xc0000000) }, b = { 5, UINT64_C(0x80000000) };

		eff_sum(&a, &b);
		check(a.whole == 16 && a.frac == 0x40000000 && eff_bytes(&a) == 16,
		      "eff: carry of the fraction", NULL);
	}
	memset(&e, 0, sizeof(e));
	eff_add(&e, UINT64_C(65536) << 32, UINT64_C(1) << 40);
	check(e.whole == UINT64_C(1) << 56 && e.frac == 0, "eff: large totals", NULL);
}

void test_ptab(void)
{
	static struct arena a;
	struct ptab t;
	uint32_t i, id, ok = 1;

	if (arena_init(&a, ptab_bytes(1000, 100) + ptab_bytes(1000, 2) + 4096) < 0) {
		check(0, "ptab arena", NULL);
		return;
	}
	ptab_init(&t, &a, 1000, 100);
	check((uint64_t)(t.bmask + 1) * 7 / 8 >= 100 && ((t.bmask + 1) & t.bmask) == 0 &&
	      t.bshift == 64 - (unsigned)__builtin_ctz(t.bmask + 1) &&
	      ((uintptr_t)t.slot & (PT_PAGE - 1)) == 0,
	      "ptab: power of two buckets, load <= 7/8, slots page-aligned", NULL);
	/* cookie 0 is a valid key: emptiness is in the slot, not the key; ten
	 * blocks of pfns and ten of swap, cookies in and across blocks */
	for (i = 0; i < 1000; i++) {
		uint64_t cookie = ((uint64_t)(i % 100) * 512 + i / 100) |
				  (i / 100 & 1 ? COOKIE_SWAP_TAG : 0);

		ok &= ptab_ref(&t, cookie) == i;
	}
	check(ok && t.nblock == 2 * 50, "ptab: dense ids in insertion order, one bucket a block",
	      NULL);
	for (i = 0, ok = 1; i < 1000; i++) {
		uint64_t cookie = ((uint64_t)(i % 100) * 512 + i / 100) |
				  (i / 100 & 1 ? COOKIE_SWAP_TAG : 0);

		ok &= ptab_ref(&t, cookie) == i && ptab_find(&t, cookie) == i;
	}
	ptab_sum(&t);
	for (i = 0; i < 1000; i++)
		ok &= t.count[i] == 2;
	check(ok, "ptab: a second reference counts 2, found again", NULL);
	check(ptab_find(&t, 512 | COOKIE_SWAP_TAG) == UINT32_MAX && ptab_find(&t, 512) == 1 &&
	      ptab_find(&t, 1 | COOKIE_SWAP_TAG) == 100 && ptab_find(&t, 1) == UINT32_MAX,
	      "ptab: swap and pfn cookies never collide", NULL);
	check(ptab_find(&t, (uint64_t)1 << 40) == UINT32_MAX && ptab_find(&t, 1023) == UINT32_MAX,
	      "ptab: an absent cookie, in a new block or a known one, is not found", NULL);
	id = ptab_ref(&t, 999999);
	check(id == UINT32_MAX && t.n == 1000, "ptab: full table refuses, unchanged", NULL);
	check(ptab_ref(&t, 1024) == 2 && t.count[2] == 3, "ptab: full table still counts known pages", NULL);

	ptab_init(&t, &a, 1000, 2);
	check(ptab_ref(&t, 5) == 0 && ptab_ref(&t, PT_BLOCK + 5) == 1 &&
	      ptab_ref(&t, 6) == 2 && ptab_ref(&t, 2 * PT_BLOCK) == UINT32_MAX &&
	      t.nblock == 2 && t.n == 3 && ptab_ref(&t, PT_BLOCK + 6) == 3,
	      "ptab: past its blocks it refuses a new block, not a known one", NULL);
}

static void arena_overflow(void)
{
	static struct arena a;
	int i;

	if (arena_init(&a, 1 << 20) < 0)
		_exit(3);
	for (i = 0; i < 17; i++)
		arena_alloc(&a, 64 * 1024, 8);
	_exit(0);
}

static void arena_top_overflow(void)
{
	static struct arena a;

	if (arena_init(&a, 1 << 20) < 0)
		_exit(3);
	arena_alloc(&a, 512 * 1024, 8);
	arena_alloc_top(&a, 512 * 1024, 8);
	arena_alloc_top(&a, 8, 8);
	_exit(0);
}

/* A child hits the limit: it must exit 2 with a message naming -m. */
static void expect_arena_full(void (*fn)(void), const char *what)
{
	int p[2], st;
	char msg[512] = "";
	ssize_t n;
	pid_t pid;

	if (pipe(p) < 0 || (pid = fork()) < 0) {
		check(0, what, "fork");
		return;
	}
	if (pid == 0) {
		dup2(p[1], 2);
		fn();
	}
	close(p[1]);
	n = read(p[0], msg, sizeof(msg) - 1);
	msg[n > 0 ? n : 0] = '\0';
	close(p[0]);
	waitpid(pid, &st, 0);
	check(WIFEXITED(st) && WEXITSTATUS(st) == EX_FATAL && strstr(msg, "arena full") &&
	      strstr(msg, "-m SIZE"), what, msg);
}

/* Runs of cookies: counted a stretch at a time, known from the id expected. */
void test_ptab_run(void)
{
	static struct arena a;
	struct ptab t;
	uint32_t id, k, i, got = 0, ok = 1;

	if (arena_init(&a, ptab_bytes(10000, 16) + 4096) < 0) {
		check(0, "ptab_run arena", NULL);
		return;
	}
	ptab_init(&t, &a, 10000, 16);
	/* cookies 1000 to 2999 new: a block at a time, ids in order */
	while (got < 2000) {
		k = ptab_run(&t, 1000 + got, 2000 - got, UINT32_MAX, &id);
		ok &= k > 0 && id == got && (1000 + got) / PT_BLOCK == (1000 + got + k - 1) / PT_BLOCK;
		got += k ? k : 2000;
	}
	check(ok && t.n == 2000 && t.nblock == 3, "ptab_run: new cookies, a block at a time, ids in order",
	      NULL);
	k = ptab_run(&t, 1000, 2000, 0, &id);
	check(k == 2000 && id == 0, "ptab_run: met again in order: all 2000 in one step, across blocks",
	      NULL);
	k = ptab_run(&t, 1500, 100, 500, &id);
	check(k == 100 && id == 500, "ptab_run: part of them, from the id expected", NULL);
	k = ptab_run(&t, 1500, 10, 7, &id);
	check(k == 10 && id == 500, "ptab_run: another id expected: found through the block", NULL);
	ok = ptab_run(&t, 5000, 1, UINT32_MAX, &id) == 1 && id == 2000 &&
	     ptab_run(&t, 5001, 1, UINT32_MAX, &id) == 1 && id == 2001 &&
	     ptab_run(&t, 5000, 2, 2000, &id) == 2 && id == 2000 &&
	     ptab_run(&t, 7000, 1, UINT32_MAX, &id) == 1 && id == 2002;
	k = ptab_run(&t, 5000, 3, 2000, &id);
	check(ok && k == 2 && id == 2000,
	      "ptab_run: ids given apart whose cookies follow go on; a cookie that does not follow stops them",
	      NULL);
	ptab_drop(&t, 0, 2000);
	ptab_sum(&t);
	for (i = 0, ok = 1; i < 2003; i++)
		ok &= t.count[i] == (i >= 500 && i < 510 ? 3u : i >= 510 && i < 600 ? 2u :
				     i == 2000 || i == 2001 ? 3u : 1u);
	check(ok && t.count[2003] == 0, "ptab_run: counts kept as differences, summed; a drop taken back",
	      NULL);
}

void test_arena(void)
{
	static struct arena a;
	char *x, *y, *z;

	if (arena_init(&a, 1 << 20) < 0) {
		check(0, "arena init", NULL);
		return;
	}
	x = arena_alloc(&a, 3, 1);
	y = arena_alloc(&a, 8, 8);
	z = arena_alloc_top(&a, 16, 8);
	check(x == a.base && y == a.base + 8 && ((uintptr_t)y & 7) == 0, "arena: aligned bottom", NULL);
	check(z == a.base + a.size - 16, "arena: top grows down", NULL);
	check(a.size == 1 << 20, "arena: size as asked", NULL);
	x = arena_alloc(&a, (1 << 20) - 16 - 16, 1);
	check(x == a.base + 16 && a.lo + a.hi == a.size, "arena: fills exactly", NULL);
	expect_arena_full(arena_overflow, "arena: bottom overflow is an error naming -m");
	expect_arena_full(arena_top_overflow, "arena: top overflow is an error naming -m");
}

#ifndef EXMAP_NO_OUTSIDE
/* The kernel's map counts of a fake source: 3 for pfns 100-104, 1 above,
 * 2 for pfn 2000; or an error. */
static int fake_err;
static ssize_t fake_counts(struct pagesrc *src, uint64_t pfn, uint64_t *c, size_t n)
{
	size_t i;

	(void)src;
	if (fake_err)
		return -fake_err;
	for (i = 0; i < n; i++)
		c[i] = pfn + i >= 100 && pfn + i < 105 ? 3 : pfn + i == 2000 ? 2 : 1;
	return (ssize_t)n;
}

/*
 * outside_count: where mappers may be hidden (a PID namespace, an
 * unreadable process) and not with -p, each shared page's count is raised
 * to the kernel's, the difference kept as hidden; swap is left as seen; a
 * count that cannot be read leaves the shares as seen and says so.
 */
void test_outside(void)
{
	static const struct {
		uint32_t view, unreadable;
		int err;
		int counted;	/* hid kept, counts raised */
	} cases[] = {
		{ OV_PIDNS, 0, 0, 1 },
		{ 0, 1, 0, 1 },
		{ 0, 0, 0, 0 },			/* nothing hidden: nothing read */
		{ OV_PIDNS | OV_ONLY, 1, 0, 0 },	/* -p: among those named */
		{ OV_PIDNS, 0, EACCES, 0 },	/* no counts: as seen, said */
	};
	static struct arena a;
	struct pagesrc src = { .name = "fake", .counts = fake_counts };
	struct scan s;
	size_t k;

	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		uint32_t i, id, ok = 1;
		char what[64];

		/* a fresh arena each case: the table's memory starts zero */
		if (k)
			arena_release(&a);
		if (arena_init(&a, 2 * ptab_bytes(64, 8) + 65536) < 0) {
			check(0, "outside arena", NULL);
			return;
		}
		memset(&s, 0, sizeof(s));
		s.arena = &a;
		s.src = &src;
		s.page_size = 4096;
		ptab_init(&s.pt, &a, 64, 8);
		for (i = 100; i < 110; i++)
			ptab_run(&s.pt, i, 1, UINT32_MAX, &id);
		ptab_run(&s.pt, 2000, 1, UINT32_MAX, &id);
		ptab_run(&s.pt, 2000, 1, UINT32_MAX, &id);
		ptab_run(&s.pt, 7 | COOKIE_SWAP_TAG, 1, UINT32_MAX, &id);
		ptab_sum(&s.pt);
		s.view = cases[k].view;
		s.unreadable = cases[k].unreadable;
		fake_err = cases[k].err;
		outside_count(&s);
		for (i = 0; i < 10; i++)
			ok &= s.pt.count[i] == (cases[k].counted && i < 5 ? 3u : 1u) &&
			      (!s.pt.hid || s.pt.hid[i] == (i < 5 ? 2u : 0u));
		ok &= s.pt.count[10] == 2 && s.pt.count[11] == 1 && (!s.pt.hid || !s.pt.hid[11]);
		ok &= (s.pt.hid != NULL) == cases[k].counted;
		ok &= !cases[k].err || (s.view & OV_NOCOUNT);
		fmt_snprintf(what, sizeof(what), "outside: case %zu", k);
		check(ok, what, NULL);
	}
	fake_err = 0;
	s.view = OV_PIDNS;
	check(outside_maps(&s, 100, 10) == 1 && outside_maps(&s, 105, 5) == 0,
	      "outside: an exclusive PMD another maps, by the kernel's count", NULL);
}
#endif
