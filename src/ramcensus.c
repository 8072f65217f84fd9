/* The ram view's census beside the kernel's counters: where they disagree, which to trust. */
#include "census.h"
#include "ramsrc.h"

/* Over 1% of RAM. */
static int over(const struct ramsrc *r, uint64_t bytes)
{
	return bytes * 100 > r->installed;
}

/*
 * Which of the two to trust where the census and a counter disagree, and
 * why, in a line: a reason the census's own figures show, else that a
 * counter is kept as pages change while the frames are read one by one.
 */
static void trust(const struct ramsrc *r, int kind, uint64_t c, uint64_t m, uint64_t ps)
{
	const struct census *k = &r->census;
	uint64_t buddy = k->buddy_frames * ps;
	char a[32], b[32];

	fmt_human(a, sizeof(a), k->moved * ps);
	fmt_human(b, sizeof(b), buddy);
	if (over(r, k->moved * ps)) {
		outf("census: trust meminfo's: free memory moved by %s in the census's %llu ms\n",
		     a, (unsigned long long)k->ms);
	} else if (kind == FK_FREE && over(r, (k->outside_want - k->outside) * ps)) {
		fmt_human(a, sizeof(a), k->outside_want * ps);
		fmt_human(b, sizeof(b), (k->outside + k->bare) * ps);
		outf("census: trust meminfo's free: %s outside the buddy allocator, %s flagless\n",
		     a, b);
	} else if (kind == FK_FREE && k->heads_only) {
		fmt_human(a, sizeof(a), k->inferred * ps);
		outf("census: trust meminfo's free: buddyinfo's is %s, %s of it inferred here\n",
		     b, a);
	} else if (kind == FK_FREE && buddy && !over(r, c > buddy ? c - buddy : buddy - c)) {
		outf("census: trust meminfo's free: it counts more than buddyinfo's %s\n", b);
	} else if (kind == FK_FREE && !buddy) {
		outf("census: trust meminfo's free: no buddyinfo or zoneinfo figures say why\n");
	} else if (kind == FK_ANON && c > m) {
		outf("census: trust the census's anonymous: AnonPages counts mapped ones only\n");
	} else {
		outf("census: trust meminfo's %s: kept as pages change; frames read over %llu ms\n",
		     frame_kind_name[kind], (unsigned long long)k->ms);
	}
}

/*
 * Where the census and the counters disagree by more than 1% of RAM, and
 * which to trust; where kpageflags marks only first frames, what was
 * inferred.
 */
void compare_census(const struct ramsrc *r, uint64_t page_size)
{
	static const struct {
		int kind, mi, mi2, less;	/* the counters: mi + mi2 - less */
	} pairs[] = {
		{ FK_FREE, MI_FREE, -1, -1 }, { FK_SLAB, MI_SRECLAIM, MI_SUNRECLAIM, -1 },
		{ FK_PGTABLE, MI_PGTABLE, -1, -1 }, { FK_SHMEM, MI_SHMEM, -1, -1 },
		{ FK_HUGETLB, MI_HUGETLB, -1, -1 }, { FK_ANON, MI_ANON, -1, -1 },
		{ FK_FILE, MI_CACHED, MI_BUFFERS, MI_SHMEM },
	};
	const struct census *k = &r->census;
	char a[32], b[32];
	size_t i;

	if (r->census_err)
		return;
	if (k->heads_only) {
		fmt_human(a, sizeof(a), k->inferred * page_size);
		fmt_human(b, sizeof(b), k->buddy_frames * page_size);
		outf("census: kpageflags marks free blocks' first frames only: %s inferred free\n", a);
		outf("census:   (the frames after them; buddyinfo counts %s free)\n", b);
	}
	for (i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
		/* free: the buddy allocator's and what MemFree counts outside it */
		uint64_t c = (k->kind[pairs[i].kind] + (pairs[i].kind == FK_FREE ? k->outside : 0)) *
			     page_size;
		uint64_t m = r->mi[pairs[i].mi] + (pairs[i].mi2 >= 0 ? r->mi[pairs[i].mi2] : 0) -
			     (pairs[i].less >= 0 ? r->mi[pairs[i].less] : 0);

		if (over(r, c > m ? c - m : m - c)) {
			fmt_human(a, sizeof(a), c);
			fmt_human(b, sizeof(b), m);
			outf("census: over 1%% of RAM apart: %s %s by %s, %s by meminfo\n",
			     frame_kind_name[pairs[i].kind], a, k->source, b);
			trust(r, pairs[i].kind, c, m, page_size);
		}
	}
}
