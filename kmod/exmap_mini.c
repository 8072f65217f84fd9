// SPDX-License-Identifier: GPL-2.0
/*
 * exmap_mini: page information for exmap-mini, for kernels built without
 * /proc/PID/pagemap, with what pagemap cannot give: the PTE's write, dirty
 * and young bits. The protocol is described in exmap_mini_abi.h: records in
 * pagemap's layout, and a run of empty pages in one record.
 *
 * The walk holds mmap_lock for reading over a bounded number of entries, fills
 * a kernel buffer, drops the lock, copies the buffer out and reschedules.
 * A reader that asks for spans gets a huge entry's pages as spans: a record
 * for as many pages as follow the first with the next frames and its flags.
 * In frame mode it gives every frame's kind as /proc/kpageflags would, for
 * kernels without it: struct pages read without a lock, as kpageflags does.
 */
#include <linux/capability.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/proc_fs.h>
#include <linux/sched.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "compat.h"
#include "exmap_mini_abi.h"

#define XM_BUF_RECS	8192	/* records copied out at a time: 64 KiB */
#define XM_BUDGET	1024	/* page table entries examined per hold of mmap_lock */
#define XM_FRAME_STEP	4096	/* frames classified between copies out and reschedules */

struct xm_file {
	struct mutex lock;
	struct mm_struct *mm;	/* pinned (mmgrab) when the pid was written */
	bool frames;		/* "frames" was written: the census of RAM frames */
	bool counts;		/* "counts" was written: frames' map counts */
	bool spans;		/* " spans" followed the pid: huge entries as spans */
	exmap_mini_rec *buf;
};

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
static ssize_t xm_read_frames(struct xm_file *xf, char __user *ubuf, size_t len, loff_t *ppos)
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
static ssize_t xm_read_counts(struct xm_file *xf, char __user *ubuf, size_t len, loff_t *ppos)
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

static ssize_t xm_read(struct file *file, char __user *ubuf, size_t len, loff_t *ppos)
{
	struct xm_file *xf = file->private_data;
	struct xm_walk w = { .rec = xf->buf, .spans = xf->spans };
	struct exmap_mini_hdr hdr = {
		.magic = EXMAP_MINI_MAGIC, .version = EXMAP_MINI_VERSION,
		.rec_size = EXMAP_MINI_REC, .page_shift = PAGE_SHIFT,
	};
	ssize_t out = EXMAP_MINI_HDR;
	struct mm_struct *mm;
	int err = 0;

	if (*ppos < 0)
		return -EINVAL;
	mutex_lock(&xf->lock);
	if (xf->frames) {
		out = len > EXMAP_MINI_HDR ? xm_read_frames(xf, ubuf, len, ppos) : -EINVAL;
		mutex_unlock(&xf->lock);
		return out;
	}
	if (xf->counts) {
		out = len > EXMAP_MINI_HDR ? xm_read_counts(xf, ubuf, len, ppos) : -EINVAL;
		mutex_unlock(&xf->lock);
		return out;
	}
	if (len < EXMAP_MINI_HDR + EXMAP_MINI_REC) {
		mutex_unlock(&xf->lock);
		return -EINVAL;
	}
	mm = xf->mm;
	if (!mm) {
		mutex_unlock(&xf->lock);
		return -EINVAL;		/* no pid written yet */
	}
	if (!mmget_not_zero(mm)) {
		mutex_unlock(&xf->lock);
		return 0;		/* the process has exited */
	}
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
	mutex_unlock(&xf->lock);
	return err && out == EXMAP_MINI_HDR ? err : out;
}

/* Frame mode or counts, once per open file and not after a pid. */
static ssize_t xm_frames_mode(struct xm_file *xf, size_t len, bool counts)
{
	ssize_t ret = len;

	mutex_lock(&xf->lock);
	if (xf->mm || xf->frames || xf->counts)
		ret = -EBUSY;
	else if (counts)
		xf->counts = true;
	else
		xf->frames = true;
	mutex_unlock(&xf->lock);
	return ret;
}

/*
 * Choose the process: once per open file; its mm is pinned, not looked up
 * again. The pid may be followed by the word "spans". Or the word "frames":
 * the census of RAM frames; or "counts": frames' map counts.
 */
static ssize_t xm_write(struct file *file, const char __user *ubuf, size_t len, loff_t *ppos)
{
	struct xm_file *xf = file->private_data;
	struct task_struct *task;
	struct mm_struct *mm;
	struct pid *pid;
	bool spans = false;
	char buf[24], *s, *word;
	int nr, err;

	if (len == 0 || len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	s = strim(buf);
	if (!strcmp(s, EXMAP_MINI_FRAMES_WORD))
		return xm_frames_mode(xf, len, false);
	if (!strcmp(s, EXMAP_MINI_COUNTS_WORD))
		return xm_frames_mode(xf, len, true);
	word = strchr(s, ' ');
	if (word) {
		*word++ = '\0';
		if (strcmp(skip_spaces(word), EXMAP_MINI_SPANS_WORD))
			return -EINVAL;
		spans = true;
	}
	if (kstrtoint(s, 10, &nr) || nr <= 0)
		return -EINVAL;
	pid = find_get_pid(nr);
	if (!pid)
		return -ESRCH;
	task = get_pid_task(pid, PIDTYPE_PID);
	put_pid(pid);
	if (!task)
		return -ESRCH;
	mm = get_task_mm(task);
	/* no mm: a kernel thread, or a process that has exited */
	err = mm ? 0 : (task->flags & PF_KTHREAD) ? -EINVAL : -ESRCH;
	put_task_struct(task);
	if (err)
		return err;
	mutex_lock(&xf->lock);
	if (xf->mm || xf->frames || xf->counts) {
		mutex_unlock(&xf->lock);
		mmput(mm);
		return -EBUSY;
	}
	mmgrab(mm);
	xf->mm = mm;
	xf->spans = spans;
	mutex_unlock(&xf->lock);
	mmput(mm);
	return len;
}

static int xm_open(struct inode *inode, struct file *file)
{
	struct xm_file *xf;

	/* pfns help Rowhammer attacks: as pagemap, only CAP_SYS_ADMIN sees them */
	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	xf = kzalloc(sizeof(*xf), GFP_KERNEL);
	if (!xf)
		return -ENOMEM;
	xf->buf = kvmalloc_array(XM_BUF_RECS, sizeof(*xf->buf), GFP_KERNEL);
	if (!xf->buf) {
		kfree(xf);
		return -ENOMEM;
	}
	mutex_init(&xf->lock);
	file->private_data = xf;
	return 0;
}

static int xm_release(struct inode *inode, struct file *file)
{
	struct xm_file *xf = file->private_data;

	if (xf->mm)
		mmdrop(xf->mm);
	kvfree(xf->buf);
	kfree(xf);
	return 0;
}

static const XM_PROC_OPS xm_ops = {
	XM_OP(open) = xm_open,
	XM_OP(read) = xm_read,
	XM_OP(write) = xm_write,
	XM_OP(release) = xm_release,
	XM_OP(lseek) = default_llseek,
};

static int __init xm_init(void)
{
	if (!proc_create(EXMAP_MINI_ENTRY, 0600, NULL, &xm_ops))
		return -ENOMEM;
	return 0;
}

static void __exit xm_exit(void)
{
	remove_proc_entry(EXMAP_MINI_ENTRY, NULL);
}

module_init(xm_init);
module_exit(xm_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Page information for exmap-mini");
