// SPDX-License-Identifier: GPL-2.0
/*
 * exmap_mini's frame modes, a record per frame of RAM from a pfn on. Frames:
 * every frame's kind as /proc/kpageflags would give it, for kernels without
 * it, from struct pages read without a lock, as kpageflags does. Counts: the
 * map count smaps divides a page by, for kernels without /proc/kpagecount.
 */
#include <linux/memory_hotplug.h>
#include <linux/mm.h>
#include <linux/mmzone.h>
#include <linux/nodemask.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/uaccess.h>

#include "compat.h"
#include "exmap_mini.h"

#define XM_FRAME_STEP	4096	/* frames classified between copies out and reschedules */

/* The end of memory: the last pfn of any online node's span, plus one. */
static unsigned long xm_end_pfn(void)
{
	unsigned long end = 0;
	int nid;

	for_each_online_node(nid)
		end = max(end, pgdat_end_pfn(NODE_DATA(nid)));
	return end;
}

/*
 * Whether a page with no reference is inside a larger free block, whose first
 * page is the buddy allocator's (mm/page_alloc.c's is_free_buddy_page, which
 * kpageflags asks and 5.10 does not export). A block never crosses its
 * order's alignment, so its first page is in the same memory map section.
 */
static bool xm_in_free_block(struct page *page, unsigned long pfn)
{
	unsigned int order;

	for (order = 1; order <= XM_MAX_ORDER; order++) {
		struct page *head = page - (pfn & ((1UL << order) - 1));

		if (PageBuddy(head) && xm_buddy_order(head) >= order)
			return true;
	}
	return false;
}

/*
 * A frame's kind, the first that applies in exmap_mini_abi.h's order, as
 * stable_page_flags() sets the bits census.c reads. *free_end is the end of
 * the last free block whose first page was seen: its other pages need no
 * search. Nothing a page points to is followed but its head.
 */
static unsigned int xm_kind(struct page *page, unsigned long pfn, unsigned long *free_end)
{
	unsigned long flags;

	if (xm_kpf_offline(page))
		return EXMAP_MINI_K_OFFLINE;
	if (PageBuddy(page)) {
		unsigned long order = xm_buddy_order(page);

		if (order <= XM_MAX_ORDER && !(pfn & ((1UL << order) - 1)))
			*free_end = pfn + (1UL << order);
		return EXMAP_MINI_K_FREE;
	}
	if (page_count(page) == 0 &&
	    (pfn < *free_end || xm_in_free_block(page, pfn)))
		return EXMAP_MINI_K_FREE;
	if (is_zero_pfn(pfn))
		return EXMAP_MINI_K_ZERO;
	flags = xm_kpf_flags(page);
	if (flags & (1UL << PG_reserved))
		return EXMAP_MINI_K_RESERVED;
	if (xm_kpf_hugetlb(page))
		return EXMAP_MINI_K_HUGETLB;
	if (xm_kpf_slab(page))
		return EXMAP_MINI_K_SLAB;
	if (xm_kpf_pgtable(page))
		return EXMAP_MINI_K_PGTABLE;
	if (xm_kpf_ksm(page))
		return EXMAP_MINI_K_KSM;
	if (xm_kpf_anon(page))
		return EXMAP_MINI_K_ANON;
	if (flags & (1UL << PG_swapbacked))
		return EXMAP_MINI_K_SHMEM;
	if (flags & (1UL << PG_lru))
		return EXMAP_MINI_K_FILE;
	return EXMAP_MINI_K_OTHER;
}

/*
 * A frame's byte: its kind, whether it is mapped and part of a THP, and for
 * other kernel memory whether the page has no flag at all (kpageflags' 0):
 * memory MemFree may count outside the buddy allocator looks so.
 */
static u8 xm_frame(unsigned long pfn, unsigned long *free_end)
{
	struct page *page = pfn_to_online_page(pfn);
	unsigned int kind;
	bool mapped;

	if (!page)
		return EXMAP_MINI_K_NOPAGE;
	kind = xm_kind(page, pfn, free_end);
	/* a free or offline page is no one's: its other fields are not to be read */
	if (kind == EXMAP_MINI_K_FREE || kind == EXMAP_MINI_K_OFFLINE)
		return kind;
	mapped = xm_kpf_mapped(page);
	if (kind == EXMAP_MINI_K_OTHER && !mapped && !PageCompound(page) &&
	    !(xm_flags_word(page) & ((1UL << NR_PAGEFLAGS) - 1)))
		return kind | EXMAP_MINI_FBARE;
	return kind | (mapped ? EXMAP_MINI_FMAPPED : 0) | (xm_kpf_thp(page) ? EXMAP_MINI_FTHP : 0);
}

/* Frame mode's read: a byte per frame from pfn *ppos on, in steps. */
ssize_t xm_read_frames(struct xm_file *xf, char __user *ubuf, size_t len, loff_t *ppos)
{
	struct exmap_mini_hdr hdr = {
		.magic = EXMAP_MINI_MAGIC, .version = EXMAP_MINI_VERSION,
		.rec_size = 1, .page_shift = PAGE_SHIFT,
	};
	unsigned long end = xm_end_pfn(), pfn, free_end = 0;
	u8 *buf = (u8 *)xf->buf;
	size_t n, out = EXMAP_MINI_HDR;
	int err = 0;

	if ((u64)*ppos >= end)
		return 0;
	pfn = (unsigned long)*ppos;
	n = min3(len - EXMAP_MINI_HDR, (size_t)EXMAP_MINI_FRAMES_MAX, (size_t)(end - pfn));
	hdr.addr = pfn;
	if (copy_to_user(ubuf, &hdr, sizeof(hdr)))
		return -EFAULT;
	while (out - EXMAP_MINI_HDR < n) {
		size_t step = min_t(size_t, n - (out - EXMAP_MINI_HDR), XM_FRAME_STEP), i;

		for (i = 0; i < step; i++)
			buf[i] = xm_frame(pfn + i, &free_end);
		if (copy_to_user(ubuf + out, buf, step)) {
			err = -EFAULT;
			break;
		}
		out += step;
		pfn += step;
		if (fatal_signal_pending(current)) {
			err = -EINTR;
			break;
		}
		cond_resched();
	}
	*ppos = pfn;
	return err && out == EXMAP_MINI_HDR ? err : (ssize_t)out;
}

/* Counts' read: a frame's map count, a u64, from pfn *ppos on, in steps. */
ssize_t xm_read_counts(struct xm_file *xf, char __user *ubuf, size_t len, loff_t *ppos)
{
	struct exmap_mini_hdr hdr = {
		.magic = EXMAP_MINI_MAGIC, .version = EXMAP_MINI_VERSION,
		.rec_size = EXMAP_MINI_REC, .page_shift = PAGE_SHIFT,
	};
	unsigned long end = xm_end_pfn(), pfn = (unsigned long)*ppos;
	size_t n, i;

	if ((u64)*ppos >= end)
		return 0;
	n = min3((len - EXMAP_MINI_HDR) / EXMAP_MINI_REC, (size_t)EXMAP_MINI_COUNTS_MAX,
		 (size_t)(end - pfn));
	if (n == 0)
		return -EINVAL;
	hdr.addr = pfn;
	for (i = 0; i < n; i++) {
		struct page *page = pfn_to_online_page(pfn + i);

		xf->buf[i] = page ? (u64)max(xm_smaps_mapcount(page), 0) : 0;
		if (i % XM_FRAME_STEP == XM_FRAME_STEP - 1)
			cond_resched();
	}
	if (copy_to_user(ubuf, &hdr, sizeof(hdr)) ||
	    copy_to_user(ubuf + EXMAP_MINI_HDR, xf->buf, n * EXMAP_MINI_REC))
		return -EFAULT;
	*ppos = pfn + n;
	return EXMAP_MINI_HDR + n * EXMAP_MINI_REC;
}
