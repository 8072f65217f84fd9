// SPDX-License-Identifier: GPL-2.0
/*
 * exmap_mini's page records: a process's page tables, walked from an address
 * on, as pagemap's records with the PTE's write, dirty and young bits, and a
 * run of empty pages in one record.
 *
 * The walk holds mmap_lock for reading over a bounded number of entries, fills
 * a kernel buffer, drops the lock, copies the buffer out and reschedules.
 * A reader that asks for spans gets a huge entry's pages as spans: a record
 * for as many pages as follow the first with the next frames and its flags.
 */
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include <linux/uaccess.h>

#include "compat.h"
#include "exmap_mini.h"

#define XM_BUDGET	1024	/* page table entries examined per hold of mmap_lock */

/* The walk's state over one hold of mmap_lock. */
struct xm_walk {
	struct mm_struct *mm;
	unsigned long addr;	/* next page to report */
	unsigned long end;	/* the task size */
	exmap_mini_rec *rec;
	unsigned int n, max;	/* records filled, room */
	unsigned int budget;	/* entries left to examine */
	bool driver;		/* the VMA is a driver's (VM_MIXEDMAP, VM_IO): raw frames may be in it */
	bool spans;		/* huge entries as spans */
};

static bool xm_full(const struct xm_walk *w)
{
	return w->n >= w->max || w->budget == 0;
}

/*
 * Report pages [w->addr, to) as a run of kind (EXMAP_MINI_RUN, alone for a
 * hole, with NOTRAM for raw frames), merged with such a run just before.
 */
static void xm_hole(struct xm_walk *w, unsigned long to, u64 kind)
{
	while (w->addr < to && w->n < w->max) {
		u64 pages = (to - w->addr) >> PAGE_SHIFT;
		exmap_mini_rec *last = w->n ? &w->rec[w->n - 1] : NULL;

		if (last && (*last & ~EXMAP_MINI_FRAME) == kind &&
		    (*last & EXMAP_MINI_FRAME) < EXMAP_MINI_RUN_MAX) {
			u64 room = EXMAP_MINI_RUN_MAX - (*last & EXMAP_MINI_FRAME);

			if (pages > room)
				pages = room;
			*last += pages;
		} else {
			if (pages > EXMAP_MINI_RUN_MAX)
				pages = EXMAP_MINI_RUN_MAX;
			w->rec[w->n++] = kind | pages;
		}
		w->addr += pages << PAGE_SHIFT;
	}
}

static void xm_page(struct xm_walk *w, u64 rec)
{
	w->rec[w->n++] = rec;
	w->addr += PAGE_SIZE;
}

/* A present page's record: its struct page, if it has one, gives its kind and whether it is mapped once. */
static u64 xm_rec(unsigned long pfn, struct page *page, u64 flags)
{
	flags |= EXMAP_MINI_PRESENT | ((u64)pfn & EXMAP_MINI_FRAME);
	if (is_zero_pfn(pfn) || !page) {
		flags |= EXMAP_MINI_NOTRAM;
	} else {
		if (!PageAnon(page))
			flags |= EXMAP_MINI_FILE;
		if (xm_page_mapcount(page) == 1)
			flags |= EXMAP_MINI_EXCL;
	}
	return flags;
}

static void xm_present(struct xm_walk *w, unsigned long pfn, struct page *page, u64 flags)
{
	xm_page(w, xm_rec(pfn, page, flags));
}

/* A non-present, non-empty PTE: swap, or an entry whose page is not to be touched. */
static void xm_swap(struct xm_walk *w, xm_leaf_t entry)
{
	xm_page(w, EXMAP_MINI_SWAP |
		(((u64)swp_type(entry) | (u64)swp_offset(entry) << 5) & EXMAP_MINI_FRAME));
}

static void xm_pte(struct xm_walk *w, pte_t pte)
{
	if (pte_none(pte) || (!pte_present(pte) && xm_pte_marker(pte))) {
		xm_hole(w, w->addr + PAGE_SIZE, EXMAP_MINI_RUN);
	} else if (pte_present(pte)) {
		unsigned long pfn = xm_pte_pfn(pte, w->addr);
		u64 flags = (pte_write(pte) ? EXMAP_MINI_WRITE : 0) |
			    (pte_dirty(pte) ? EXMAP_MINI_DIRTY : 0) |
			    (pte_young(pte) ? EXMAP_MINI_YOUNG : 0);
		struct page *page = NULL;

		if (xm_pte_has_page(pte, pfn, w->driver))
			page = pfn_to_page(pfn);
		xm_present(w, pfn, page, flags);
	} else {
		xm_swap(w, xm_pte_leaf(pte));
	}
}

/* The PTEs under pmd, from w->addr to end, with the table mapped and locked. */
static void xm_pte_range(struct xm_walk *w, pmd_t *pmd, unsigned long end)
{
	spinlock_t *ptl;
	pte_t *start, *pte;

	start = pte = xm_pte_map_lock(w->mm, pmd, w->addr, &ptl);
	if (!pte) {
		xm_hole(w, end, EXMAP_MINI_RUN);
		return;
	}
	for (; w->addr < end && !xm_full(w); pte++, w->budget--)
		xm_pte(w, ptep_get(pte));
	xm_pte_unmap_unlock(start, ptl);
}

/*
 * A PMD (or PUD) that maps a huge page: its pages from w->addr to end, each
 * a record, or as spans: as many pages as go on from one with the next
 * frames and its flags (all, when no PTE maps a page of the folio).
 */
static void xm_huge(struct xm_walk *w, unsigned long pfn0, unsigned long base,
		    unsigned long end, u64 flags)
{
	/* one folio: its pages have struct pages if its first one has */
	bool valid = pfn_valid(pfn0);
	bool alike = !valid || xm_folio_pmd_only(pfn_to_page(pfn0));

	while (w->addr < end && !xm_full(w)) {
		unsigned long pfn = pfn0 + ((w->addr - base) >> PAGE_SHIFT);
		unsigned long left = (end - w->addr) >> PAGE_SHIFT, n;
		u64 rec = xm_rec(pfn, valid ? pfn_to_page(pfn) : NULL, flags);

		if (!w->spans || left < 2 || w->max - w->n < 2) {
			xm_page(w, rec);
			w->budget--;
			continue;
		}
		if (alike)
			n = left;
		else
			for (n = 1; n < left && xm_rec(pfn + n, pfn_to_page(pfn + n), flags) == rec + n; n++)
				;
		w->rec[w->n++] = EXMAP_MINI_RUN | EXMAP_MINI_PRESENT | n;
		w->rec[w->n++] = rec;
		w->addr += n << PAGE_SHIFT;
		/* a span costs its records, and a little for the pages it looked at */
		w->budget -= min_t(unsigned int, w->budget, 1 + n / 64);
	}
}

static void xm_pmd_range(struct xm_walk *w, pud_t *pud, unsigned long end)
{
	pmd_t *pmd = pmd_offset(pud, w->addr);

	while (w->addr < end && !xm_full(w)) {
		unsigned long next = pmd_addr_end(w->addr, end);
		pmd_t val = READ_ONCE(*pmd);

		w->budget--;
		if (pmd_none(val) || !pmd_present(val)) {
			/* empty, or a PMD migration entry: its page is not ours to touch */
			xm_hole(w, next, EXMAP_MINI_RUN);
		} else if (xm_pmd_huge(val)) {
			spinlock_t *ptl = pmd_lock(w->mm, pmd);

			val = *pmd;
			if (pmd_present(val) && xm_pmd_huge(val)) {
				u64 flags = (xm_pmd_write(val) ? EXMAP_MINI_WRITE : 0) |
					    (xm_pmd_dirty(val) ? EXMAP_MINI_DIRTY : 0) |
					    (xm_pmd_young(val) ? EXMAP_MINI_YOUNG : 0);

				xm_huge(w, xm_pmd_pfn(val), w->addr & PMD_MASK, next, flags);
				spin_unlock(ptl);
			} else {
				/* split (or gone) while we took the lock */
				spin_unlock(ptl);
				xm_pte_range(w, pmd, next);
			}
		} else {
			xm_pte_range(w, pmd, next);
		}
		if (w->addr >= next)
			pmd++;
	}
}

static void xm_pud_range(struct xm_walk *w, p4d_t *p4d, unsigned long end)
{
	pud_t *pud = xm_pud_offset(p4d, w->addr);

	while (w->addr < end && !xm_full(w)) {
		unsigned long next = pud_addr_end(w->addr, end);
		/* unused where the tests are constants (a folded pud: 5.10's armmp) */
		pud_t val __maybe_unused = READ_ONCE(*pud);

		w->budget--;
		if (pud_none(val) || !pud_present(val) || unlikely(pud_bad(val) && !xm_pud_huge(val)))
			xm_hole(w, next, EXMAP_MINI_RUN);
		else if (xm_pud_huge(val))
			xm_huge(w, xm_pud_pfn(val), w->addr & PUD_MASK, next,
				xm_pud_write(val) ? EXMAP_MINI_WRITE : 0);
		else
			xm_pmd_range(w, pud, next);
		if (w->addr >= next)
			pud++;
	}
}

/* Walk the page tables of one VMA's range [w->addr, end). */
static void xm_range(struct xm_walk *w, unsigned long end)
{
	pgd_t *pgd = pgd_offset(w->mm, w->addr);

	while (w->addr < end && !xm_full(w)) {
		unsigned long next = pgd_addr_end(w->addr, end);
		p4d_t *p4d;

		w->budget--;
		/* a bad entry is reported, not cleared: this walk only reads */
		if (pgd_none(*pgd) || unlikely(pgd_bad(*pgd))) {
			xm_hole(w, next, EXMAP_MINI_RUN);
		} else {
			p4d = xm_p4d_offset(pgd, w->addr);
			while (w->addr < next && !xm_full(w)) {
				unsigned long pnext = p4d_addr_end(w->addr, next);

				if (p4d_none(*p4d) || unlikely(p4d_bad(*p4d)))
					xm_hole(w, pnext, EXMAP_MINI_RUN);
				else
					xm_pud_range(w, p4d, pnext);
				if (w->addr >= pnext)
					p4d++;
			}
		}
		if (w->addr >= next)
			pgd++;
	}
}

/* Fill w->rec from w->addr on, VMA by VMA, within the budget. mmap_lock is held. */
static void xm_walk_vmas(struct xm_walk *w)
{
	while (w->addr < w->end && !xm_full(w)) {
		struct vm_area_struct *vma = find_vma(w->mm, w->addr);

		if (!vma) {
			xm_hole(w, w->end, EXMAP_MINI_RUN);
			break;
		}
		if (w->addr < vma->vm_start) {
			xm_hole(w, vma->vm_start, EXMAP_MINI_RUN);
			continue;
		}
		/*
		 * Raw frames: say so, do not walk (pagemap shows them as holes
		 * and Rss leaves them out). VM_IO alone is no reason: 7.x's
		 * [vvar] is VM_IO | VM_MIXEDMAP with ordinary pages, which Rss
		 * counts; pte_special entries elsewhere are NOPAGE.
		 */
		if (vma->vm_flags & VM_PFNMAP) {
			xm_hole(w, vma->vm_end, EXMAP_MINI_RUN | EXMAP_MINI_NOTRAM);
		} else {
			w->driver = (vma->vm_flags & (VM_MIXEDMAP | VM_IO)) != 0;
			xm_range(w, vma->vm_end);
		}
	}
}

/* Page mode's read: a header and records from address *ppos on. */
ssize_t xm_read_pages(struct xm_file *xf, char __user *ubuf, size_t len, loff_t *ppos)
{
	struct xm_walk w = { .rec = xf->buf, .spans = xf->spans };
	struct exmap_mini_hdr hdr = {
		.magic = EXMAP_MINI_MAGIC, .version = EXMAP_MINI_VERSION,
		.rec_size = EXMAP_MINI_REC, .page_shift = PAGE_SHIFT,
	};
	ssize_t out = EXMAP_MINI_HDR;
	struct mm_struct *mm = xf->mm;
	int err = 0;

	if (len < EXMAP_MINI_HDR + EXMAP_MINI_REC)
		return -EINVAL;
	if (!mm)
		return -EINVAL;		/* no pid written yet */
	if (!mmget_not_zero(mm))
		return 0;		/* the process has exited */
	w.mm = mm;
	w.addr = (unsigned long)*ppos & PAGE_MASK;
	w.end = mm->task_size;
	if ((u64)*ppos >= mm->task_size) {
		out = 0;
		goto done;
	}
	hdr.addr = w.addr;
	if (copy_to_user(ubuf, &hdr, sizeof(hdr))) {
		err = -EFAULT;
		goto done;
	}
	while (w.addr < w.end && len - out >= EXMAP_MINI_REC) {
		size_t room = (len - out) / EXMAP_MINI_REC;

		unsigned long before = w.addr;

		w.n = 0;
		w.max = room < XM_BUF_RECS ? room : XM_BUF_RECS;
		w.budget = XM_BUDGET;
		if (mmap_read_lock_killable(mm)) {
			err = -EINTR;
			break;
		}
		xm_walk_vmas(&w);
		mmap_read_unlock(mm);
		if (w.addr == before) {
			/* no progress would loop for ever: a bug, said once */
			WARN_ONCE(1, "exmap_mini: walk stuck at %lx\n", w.addr);
			err = -EIO;
			break;
		}
		/* never copy to user space with mmap_lock held */
		if (copy_to_user(ubuf + out, w.rec, (size_t)w.n * EXMAP_MINI_REC)) {
			err = -EFAULT;
			break;
		}
		out += (ssize_t)w.n * EXMAP_MINI_REC;
		if (fatal_signal_pending(current)) {
			err = -EINTR;
			break;
		}
		cond_resched();
	}
	*ppos = w.addr;
done:
	mmput(mm);
	return err && out == EXMAP_MINI_HDR ? err : out;
}
