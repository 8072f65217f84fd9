/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What /proc/exmap-mini returns, shared by the module and exmap-mini.
 *
 * Open it (root, CAP_SYS_ADMIN), write a pid in decimal to choose the process
 * (once per open file: its mm is pinned then), then pread(fd, buf, len, addr):
 * the answer is a header and records for the pages from addr on, as many as
 * fit in len, in address order. 0 bytes: addr is past the task size, or the
 * process has exited. Everything is in the machine's byte order.
 *
 * Write the pid followed by " spans" (once per open file) to have every huge
 * page table entry (a PMD or PUD that maps a folio, THP or hugetlb) reported
 * as spans: a span record (RUN and PRESENT, the number of pages) and then
 * the record of its first page; the others have the next frames and the
 * same flags, their "mapped once" bit among them (a huge entry whose pages
 * differ there is cut into spans). Spans came within version 2, the page
 * records unchanged: a module from before them refuses the word (EINVAL),
 * and a reader then writes the pid alone.
 *
 * Or write the word "frames" instead (once per open file) for the census of
 * RAM frames: pread(fd, buf, len, pfn) gives the header (rec_size 1, addr the
 * first pfn) and one byte per frame from pfn on (EXMAP_MINI_F*), as many as
 * fit in len up to EXMAP_MINI_FRAMES_MAX; fewer at the end of memory (the end
 * of the last node's span), 0 bytes past it. Frame mode came in version 2's
 * lifetime, leaving the page records as they were: a module from before it
 * refuses the word (EINVAL), which says "too old for the census".
 *
 * Or write the word "counts" (once per open file) for the kernel's map
 * counts: pread(fd, buf, len, pfn) gives the header (rec_size 8, addr the
 * first pfn) and one u64 per frame from pfn on: how many page table entries
 * map its page as smaps divides the page's size by (0 for a frame with no
 * online page), what /proc/kpagecount gives; as many as fit in len up to
 * EXMAP_MINI_COUNTS_MAX, fewer at the end of memory, 0 bytes past it. Counts
 * came in version 2's lifetime too: a module from before refuses the word.
 */
#ifndef EXMAP_MINI_ABI_H
#define EXMAP_MINI_ABI_H

#ifdef __KERNEL__
#include <linux/build_bug.h>
#include <linux/types.h>
#define XM_ASSERT(c, why)	static_assert(c, why)
#else
#include <stdint.h>
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
#define XM_ASSERT(c, why)	_Static_assert(c, why)
#endif

#define EXMAP_MINI_ENTRY	"exmap-mini"		/* under /proc */
#define EXMAP_MINI_MAGIC	0x4d4d5845u		/* "EXMM" little-endian */
#define EXMAP_MINI_VERSION	2

struct exmap_mini_hdr {
	u32 magic;		/* EXMAP_MINI_MAGIC */
	u16 version;		/* EXMAP_MINI_VERSION */
	u16 rec_size;		/* sizeof(exmap_mini_rec) */
	u32 page_shift;
	u32 zero;
	u64 addr;		/* the page the first record is for */
	u64 zero2;
};

/*
 * A record: one page, or a run of pages with none mapped. Its bits are where
 * /proc/PID/pagemap has them (present 63, swap 62, file 61, exclusively
 * mapped 56) or where pagemap has none, so that it reads as a pagemap entry.
 */
typedef u64 exmap_mini_rec;
#define EXMAP_MINI_FRAME	((1ULL << 55) - 1)	/* pfn; swap type | offset << 5; run length */
#define EXMAP_MINI_WRITE	(1ULL << 55)	/* the PTE's write bit */
#define EXMAP_MINI_EXCL		(1ULL << 56)	/* the page's map count is 1 */
#define EXMAP_MINI_RUN		(1ULL << 57)	/* FRAME pages, none mapped: a hole; with
						   NOTRAM a VM_PFNMAP mapping's raw frames;
						   with PRESENT a span, its first page's
						   record next */
#define EXMAP_MINI_DIRTY	(1ULL << 58)
#define EXMAP_MINI_NOTRAM	(1ULL << 59)	/* present, not RAM: the zero page, or
						   a frame with no struct page */
#define EXMAP_MINI_YOUNG	(1ULL << 60)
#define EXMAP_MINI_FILE		(1ULL << 61)	/* page cache, shmem included */
#define EXMAP_MINI_SWAP		(1ULL << 62)	/* swap, migration, device-private or
						   hwpoison entry: its page untouched */
#define EXMAP_MINI_PRESENT	(1ULL << 63)
#define EXMAP_MINI_RUN_MAX	EXMAP_MINI_FRAME	/* pages in one run record */
#define EXMAP_MINI_SPANS_WORD	"spans"			/* after the pid: spans wanted */

/*
 * A frame's byte: its kind, the first that applies in this order (the order
 * of exmap-mini's census.h, which /proc/kpageflags is read into too), and
 * whether a process maps it (kpageflags' MMAP) and whether it is part of a
 * transparent huge page (THP); for other kernel memory, whether its page
 * has no flag, no mapping and is no compound page's (kpageflags' 0: BARE,
 * which modules from before it never set).
 */
#define EXMAP_MINI_FRAMES_WORD	"frames"
#define EXMAP_MINI_COUNTS_WORD	"counts"
#define EXMAP_MINI_COUNTS_MAX	8192	/* frames' counts in one read */
#define EXMAP_MINI_FRAMES_MAX	65536	/* frames in one read */
#define EXMAP_MINI_FKIND	0x0f
#define EXMAP_MINI_FMAPPED	0x10
#define EXMAP_MINI_FTHP		0x20
#define EXMAP_MINI_FBARE	0x40
#define EXMAP_MINI_K_NOPAGE	0	/* no online struct page */
#define EXMAP_MINI_K_OFFLINE	1
#define EXMAP_MINI_K_BALLOON	2	/* not given: balloons mark their pages offline */
#define EXMAP_MINI_K_FREE	3	/* a free block of the buddy allocator, any page of it */
#define EXMAP_MINI_K_ZERO	4
#define EXMAP_MINI_K_RESERVED	5
#define EXMAP_MINI_K_HUGETLB	6
#define EXMAP_MINI_K_SLAB	7
#define EXMAP_MINI_K_PGTABLE	8
#define EXMAP_MINI_K_KSM	9
#define EXMAP_MINI_K_ANON	10
#define EXMAP_MINI_K_SHMEM	11	/* swap-backed, not anonymous */
#define EXMAP_MINI_K_FILE	12	/* on an LRU list otherwise */
#define EXMAP_MINI_K_OTHER	13
#define EXMAP_MINI_K_N		14
XM_ASSERT(EXMAP_MINI_K_N <= EXMAP_MINI_FKIND + 1, "a kind fits in its bits");

#define EXMAP_MINI_HDR		sizeof(struct exmap_mini_hdr)
#define EXMAP_MINI_REC		sizeof(exmap_mini_rec)
XM_ASSERT(sizeof(struct exmap_mini_hdr) == 32, "the header is 32 bytes");
XM_ASSERT(sizeof(exmap_mini_rec) == 8, "a record is 8 bytes");

#endif
