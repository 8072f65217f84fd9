/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What /proc/exmap-mini returns, shared by the module and exmap-mini.
 *
 * Open it (root, CAP_SYS_ADMIN), write a pid in decimal to choose the process
 * (once per open file: its mm is pinned then), then pread(fd, buf, len, addr):
 * the answer is a header and records for the pages from addr on, as many as
 * fit in len, in address order. 0 bytes: addr is past the task size, or the
 * process has exited. Records are in the machine's byte order and size
 * EXMAP_MINI_REC bytes; the header takes EXMAP_MINI_HDR bytes.
 */
#ifndef EXMAP_MINI_ABI_H
#define EXMAP_MINI_ABI_H

#define EXMAP_MINI_ENTRY	"exmap-mini"		/* under /proc */
#define EXMAP_MINI_MAGIC	0x4d4d5845u		/* "EXMM" little-endian */
#define EXMAP_MINI_VERSION	1
#define EXMAP_MINI_HDR		32
#define EXMAP_MINI_REC		16

/*
 * Header: u32 magic, u16 version, u16 record size, u32 page shift, u32 0,
 * u64 address of the first record's first page, u64 0.
 * Record: u64 frame, u32 count, u32 flags.
 */

/* The record's kind, in flags & EXMAP_MINI_KIND */
#define EXMAP_MINI_KIND		0xf
#define EXMAP_MINI_PAGE		1	/* one page; count is its map count */
#define EXMAP_MINI_HOLE		2	/* count pages with nothing mapped */
#define EXMAP_MINI_SPECIAL	3	/* count pages of a VM_PFNMAP mapping: raw frames, not walked */

/* A page's flags. frame is the pfn if PRESENT, the swap entry (type | offset << 5) if SWAP. */
#define EXMAP_MINI_PRESENT	(1u << 4)
#define EXMAP_MINI_SWAP		(1u << 5)	/* also migration, device and hwpoison entries */
#define EXMAP_MINI_WRITE	(1u << 6)	/* the PTE's write bit */
#define EXMAP_MINI_DIRTY	(1u << 7)
#define EXMAP_MINI_YOUNG	(1u << 8)
#define EXMAP_MINI_ANON		(1u << 9)
#define EXMAP_MINI_FILE		(1u << 10)	/* page cache, shmem included */
#define EXMAP_MINI_ZERO		(1u << 11)	/* the shared zero page */
#define EXMAP_MINI_HUGE		(1u << 12)	/* mapped by a PMD or PUD: THP or hugetlb */
#define EXMAP_MINI_NOPAGE	(1u << 13)	/* present, no struct page (pte_special) */
#define EXMAP_MINI_MIGRATION	(1u << 14)
#define EXMAP_MINI_DEVICE	(1u << 15)	/* device-private memory */
#define EXMAP_MINI_HWPOISON	(1u << 16)

#endif
