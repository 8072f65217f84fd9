/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel version differences, kept here and not in the walk:
 *  4.11  the p4d level (assumed: older kernels are not supported);
 *  5.6   struct proc_ops for /proc entries;
 *  5.8   mmap_lock and its helpers (mmap_sem before);
 *  6.0   PTE markers (uffd-wp, poison, guard) in non-present PTEs;
 *  6.5   pte_offset_map() may fail, page tables may be freed under RCU, and
 *        the helpers that handle that (__pte_offset_map_lock) are not
 *        exported: xm_pte_map_lock() does what they do;
 *  6.12  page_mapcount() is gone: the count comes from the folio, whose
 *        counts also tell when no PTE maps one of its pages;
 *  6.15  CONFIG_NO_PAGE_MAPCOUNT: no count per page in a large folio, and
 *        smaps and kpagecount take the folio's average;
 *  6.19  non-present PTEs are "software leaf" entries (<linux/leafops.h>):
 *        pte_to_swp_entry and is_pte_marker are gone;
 *  7.2   riscv64's p4d_offset and pud_offset are exported (sid's
 *        Module.symvers; 6.12's has neither): below, xm_p4d_offset and
 *        xm_pud_offset do what they do;
 * for the frame census, what /proc/kpageflags reads of a struct page, which
 * moved from the page to its folio between 6.1 and 6.12 (its flags, THP as
 * large_rmappable folios), and to the folio's page type by 7.x (offline, page
 * tables); MAX_ORDER inclusive since 6.4, MAX_PAGE_ORDER since 6.8; the flags
 * word in a memdesc_flags_t since 6.18;
 * and two configuration differences: huge user mappings (no THP on armmp),
 * and riscv's Svnapot, whose 64 KiB pages are 16 PTEs of one value.
 */
#ifndef EXMAP_MINI_COMPAT_H
#define EXMAP_MINI_COMPAT_H

#include <linux/version.h>
#include <linux/mm.h>
#include <linux/highmem.h>
#include <linux/mmzone.h>
#include <linux/page-flags.h>
#include <linux/rcupdate.h>
#include <linux/swap.h>
#include <linux/swapops.h>

#if LINUX_VERSION_CODE < KERNEL_VERSION(4, 11, 0)
#error "exmap_mini needs Linux 4.11 or later (the p4d page table level)"
#endif

#if LINUX_VERSION_CODE < KERNEL_VERSION(5, 8, 0)
#define mmap_read_lock_killable(mm)	down_read_killable(&(mm)->mmap_sem)
#define mmap_read_unlock(mm)		up_read(&(mm)->mmap_sem)
#endif

#ifndef ptep_get
#if LINUX_VERSION_CODE < KERNEL_VERSION(5, 8, 0)
#define ptep_get(ptep)			READ_ONCE(*(ptep))
#endif
#endif

#if LINUX_VERSION_CODE >= KERNEL_VERSION(5, 6, 0)
#define XM_PROC_OPS		struct proc_ops
#define XM_OP(name)		.proc_##name
#else
#define XM_PROC_OPS		struct file_operations
#define XM_OP(name)		.name
#endif

/*
 * A non-present PTE: the entry it holds, and whether it is a marker (uffd-wp,
 * poison, guard: no page behind it). Chosen by the header, which came with
 * the API.
 */
#if __has_include(<linux/leafops.h>)
#include <linux/leafops.h>
typedef softleaf_t xm_leaf_t;
#define xm_pte_leaf(pte)		softleaf_from_pte(pte)
#define xm_pte_marker(pte)		pte_is_marker(pte)
#else
typedef swp_entry_t xm_leaf_t;
#define xm_pte_leaf(pte)		pte_to_swp_entry(pte)
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 0, 0)
#define xm_pte_marker(pte)		is_pte_marker(pte)
#else
#define xm_pte_marker(pte)		false
#endif
#endif

/*
 * riscv64 chooses its page table depth at boot (Sv39, Sv48 or Sv57: 3, 4 or
 * 5 levels; since 5.18), so p4d_offset and pud_offset are functions there:
 * 6.12 does not export them, 7.2 does (the versions between are taken as
 * not). What they do, from the depth flags the kernel exports: a level that
 * is folded is the entry above it.
 */
#if defined(CONFIG_RISCV) && CONFIG_PGTABLE_LEVELS == 5 && \
	LINUX_VERSION_CODE < KERNEL_VERSION(7, 2, 0)
static inline p4d_t *xm_p4d_offset(pgd_t *pgd, unsigned long addr)
{
	if (pgtable_l5_enabled)
		return pgd_pgtable(READ_ONCE(*pgd)) + p4d_index(addr);
	return (p4d_t *)pgd;
}

static inline pud_t *xm_pud_offset(p4d_t *p4d, unsigned long addr)
{
	if (pgtable_l4_enabled)
		return p4d_pgtable(READ_ONCE(*p4d)) + pud_index(addr);
	return (pud_t *)p4d;
}
#else
#define xm_p4d_offset(pgd, addr)	p4d_offset(pgd, addr)
#define xm_pud_offset(p4d, addr)	pud_offset(p4d, addr)
#endif

/*
 * The frame of the page at addr that a present PTE maps. With Svnapot
 * (riscv), a 64 KiB page is 16 PTEs holding the same value, and pte_pfn()
 * gives its first frame for all 16: the page's own is that plus its place
 * in the range (as pagemap adds it for a huge page).
 */
#ifdef CONFIG_RISCV_ISA_SVNAPOT
static inline unsigned long xm_pte_pfn(pte_t pte, unsigned long addr)
{
	unsigned long pfn = pte_pfn(pte);

	if (has_svnapot() && pte_napot(pte))
		pfn += (addr >> PAGE_SHIFT) & (napot_pte_num(napot_cont_order(pte)) - 1);
	return pfn;
}
#else
#define xm_pte_pfn(pte, addr)		pte_pfn(pte)
#endif

/*
 * Whether a present PTE's frame has a struct page. Where PTEs carry the
 * special bit, vm_normal_page's rule: every PTE not special maps one, though
 * in a driver's mapping (VM_MIXEDMAP, VM_IO) pfn_valid() is asked as well;
 * where they do not, pfn_valid() decides. (pfn_valid() costs a tenth of the
 * walk: it is asked only where it can say no.)
 */
#ifdef CONFIG_ARCH_HAS_PTE_SPECIAL
#define xm_pte_has_page(pte, pfn, driver) \
	(!pte_special(pte) && (!(driver) || pfn_valid(pfn)))
#else
#define xm_pte_has_page(pte, pfn, driver)	(!pte_special(pte) && pfn_valid(pfn))
#endif

#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 5, 0)
/*
 * Map and lock the PTE table under pmd, as __pte_offset_map_lock() does: the
 * table may be freed (RCU) or replaced while only mmap_lock is held, so read
 * the pmd once, map the table it names, take its lock, and check that the
 * pmd still names it. NULL when there is no table (none, huge, or bad).
 */
static inline pte_t *xm_pte_map_lock(struct mm_struct *mm, pmd_t *pmd,
				     unsigned long addr, spinlock_t **ptlp)
{
	spinlock_t *ptl;
	pmd_t pmdval;
	pte_t *pte;

again:
	rcu_read_lock();
	pmdval = pmdp_get_lockless(pmd);
	if (pmd_none(pmdval) || !pmd_present(pmdval) || pmd_trans_huge(pmdval) ||
	    pmd_leaf(pmdval) || unlikely(pmd_bad(pmdval))) {
		rcu_read_unlock();
		return NULL;
	}
#ifdef CONFIG_HIGHPTE
	pte = (pte_t *)kmap_local_page(pmd_page(pmdval)) + pte_index(addr);
#else
	pte = pte_offset_kernel(&pmdval, addr);
#endif
	ptl = pte_lockptr(mm, &pmdval);
	spin_lock(ptl);
	if (likely(pmd_same(pmdval, pmdp_get_lockless(pmd)))) {
		*ptlp = ptl;
		return pte;
	}
	spin_unlock(ptl);
#ifdef CONFIG_HIGHPTE
	kunmap_local(pte);
#endif
	rcu_read_unlock();
	goto again;
}

static inline void xm_pte_unmap_unlock(pte_t *pte, spinlock_t *ptl)
{
	spin_unlock(ptl);
#ifdef CONFIG_HIGHPTE
	kunmap_local(pte);
#endif
	rcu_read_unlock();
}
#else
/*
 * Before 6.5 a PTE table is freed or collapsed only under mmap_lock held for
 * writing, so a table seen once stays. (pmd_trans_unstable() would clear a
 * bad pmd, through pmd_clear_bad(), which is not exported.)
 */
static inline pte_t *xm_pte_map_lock(struct mm_struct *mm, pmd_t *pmd,
				     unsigned long addr, spinlock_t **ptlp)
{
	pmd_t pmdval = READ_ONCE(*pmd);

	barrier();
	if (pmd_none(pmdval) || !pmd_present(pmdval) || pmd_trans_huge(pmdval) ||
	    pmd_leaf(pmdval) || unlikely(pmd_bad(pmdval)))
		return NULL;
	return pte_offset_map_lock(mm, pmd, addr, ptlp);
}

#define xm_pte_unmap_unlock(pte, ptl)	pte_unmap_unlock(pte, ptl)
#endif

/*
 * Huge user mappings (THP, hugetlb) exist only where the kernel has them;
 * elsewhere (armmp) the pmd and pud accessors for them are not even defined.
 */
#if defined(CONFIG_TRANSPARENT_HUGEPAGE) || defined(CONFIG_HUGETLB_PAGE)
#define xm_pmd_huge(pmd)	(pmd_leaf(pmd) || pmd_trans_huge(pmd))
#define xm_pmd_pfn(pmd)		pmd_pfn(pmd)
#define xm_pmd_write(pmd)	pmd_write(pmd)
#define xm_pmd_dirty(pmd)	pmd_dirty(pmd)
#define xm_pmd_young(pmd)	pmd_young(pmd)
#define xm_pud_huge(pud)	pud_leaf(pud)
#define xm_pud_pfn(pud)		pud_pfn(pud)
#define xm_pud_write(pud)	pud_write(pud)
#else
#define xm_pmd_huge(pmd)	false
#define xm_pmd_pfn(pmd)		0UL
#define xm_pmd_write(pmd)	false
#define xm_pmd_dirty(pmd)	false
#define xm_pmd_young(pmd)	false
#define xm_pud_huge(pud)	false
#define xm_pud_pfn(pud)		0UL
#define xm_pud_write(pud)	false
#endif

/* How many PTEs and PMDs map this page (the kernel's precise count). */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
static inline int xm_page_mapcount(struct page *page)
{
	struct folio *folio = page_folio(page);
	int n;

	if (!folio_test_large(folio))
		return folio_mapcount(folio);
	n = atomic_read(&page->_mapcount) + 1;
	if (page_mapcount_is_type(n))
		n = 0;
	return n + folio_entire_mapcount(folio);
}
#else
#define xm_page_mapcount(page)		page_mapcount(page)
#endif

/*
 * The count smaps divides a page's size by, which /proc/kpagecount gives:
 * page_mapcount() before 6.12, the precise count of the page after; with
 * CONFIG_NO_PAGE_MAPCOUNT (6.15 on) a large folio keeps no count per page,
 * and both take the folio's mappings shared over its pages (PMDs whole,
 * the rest rounded to the nearest, 1 at least).
 */
#if defined(CONFIG_NO_PAGE_MAPCOUNT)
static inline int xm_smaps_mapcount(struct page *page)
{
	struct folio *folio = page_folio(page);
	int all, whole;

	if (!folio_test_large(folio))
		return folio_mapcount(folio);
	all = folio_large_mapcount(folio);
	whole = folio_entire_mapcount(folio);
	if (all <= 0)
		return 0;
	if (all <= whole)
		return whole;
	all = (int)(((unsigned int)(all - whole) + folio_nr_pages(folio) / 2) >> folio_order(folio));
	return max(all + whole, 1);
}
#else
#define xm_smaps_mapcount(page)		xm_page_mapcount(page)
#endif

/*
 * Whether no PTE maps a page of page's large folio, so that each of its
 * pages is mapped as often as the folio is whole (by PMDs, PUDs): 6.12's
 * folio counts tell; before, it is not known, and each page is asked.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
static inline bool xm_folio_pmd_only(struct page *page)
{
	struct folio *folio = page_folio(page);

	return folio_test_large(folio) &&
	       folio_large_mapcount(folio) == folio_entire_mapcount(folio);
}
#else
#define xm_folio_pmd_only(page)		false
#endif

/* The highest order of a free block (the buddy allocator's). */
#if defined(MAX_PAGE_ORDER)
#define XM_MAX_ORDER		MAX_PAGE_ORDER
#elif LINUX_VERSION_CODE >= KERNEL_VERSION(6, 4, 0)
#define XM_MAX_ORDER		MAX_ORDER
#else
#define XM_MAX_ORDER		(MAX_ORDER - 1)
#endif

/* A free block's order, in its first page's private (mm/internal.h's buddy_order_unsafe). */
#define xm_buddy_order(page)	READ_ONCE((page)->private)

#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 18, 0)
#define xm_flags_word(page)	READ_ONCE((page)->flags.f)
#else
#define xm_flags_word(page)	READ_ONCE((page)->flags)
#endif

/*
 * What fs/proc/page.c's stable_page_flags() reads, so that a frame's kind is
 * the one kpageflags gives it. 6.12 reads the folio: its flags (LRU,
 * swap-backed, reserved), its mapping's anon and KSM bits, THP as a large
 * rmappable folio (the huge zero folio among them: it is allocated as one).
 * 6.1 reads a page's own flags and its head's mapping, and THP is a compound
 * page whose head is on an LRU or anonymous. The huge zero page, which 6.1's
 * kpageflags calls zero, is not exported: here it is another kernel
 * allocation. (The change came between 6.1 and 6.12, the versions tested.)
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
#define xm_kpf_flags(page)	xm_flags_word(&page_folio(page)->page)
#define xm_kpf_hugetlb(page)	folio_test_hugetlb(page_folio(page))
#define xm_kpf_slab(page)	folio_test_slab(page_folio(page))
#define xm_kpf_ksm(page)	folio_test_ksm(page_folio(page))
#define xm_kpf_anon(page)	folio_test_anon(page_folio(page))
#define xm_kpf_mapped(page)	folio_mapped(page_folio(page))
static inline bool xm_kpf_thp(struct page *page)
{
	struct folio *folio = page_folio(page);

	return folio_test_large(folio) && !folio_test_hugetlb(folio) &&
	       folio_test_large_rmappable(folio);
}
#else
#define xm_kpf_flags(page)	xm_flags_word(page)
#define xm_kpf_hugetlb(page)	PageHuge(page)
#define xm_kpf_slab(page)	PageSlab(page)
#define xm_kpf_ksm(page)	PageKsm(page)
#define xm_kpf_anon(page)	PageAnon(page)
/* a slab page's _mapcount is the allocator's */
#define xm_kpf_mapped(page)	(!PageSlab(page) && page_mapped(page))
static inline bool xm_kpf_thp(struct page *page)
{
	struct page *head;

	if (PageHuge(page) || !PageTransCompound(page))
		return false;
	head = compound_head(page);
	return PageLRU(head) || PageAnon(head);
}
#endif

/* 7.x asks the folio whether it is offline or a page table; 6.12 the page. */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 18, 0)
#define xm_kpf_offline(page)	folio_test_offline(page_folio(page))
#define xm_kpf_pgtable(page)	folio_test_pgtable(page_folio(page))
#else
#define xm_kpf_offline(page)	PageOffline(page)
#define xm_kpf_pgtable(page)	PageTable(page)
#endif

#endif
