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
 *  6.12  page_mapcount() is gone: the count comes from the folio;
 *  6.19  non-present PTEs are "software leaf" entries (<linux/leafops.h>):
 *        pte_to_swp_entry and is_pte_marker are gone;
 * and one configuration difference: huge user mappings (no THP on armmp).
 */
#ifndef EXMAP_MINI_COMPAT_H
#define EXMAP_MINI_COMPAT_H

#include <linux/version.h>
#include <linux/mm.h>
#include <linux/highmem.h>
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

#endif
