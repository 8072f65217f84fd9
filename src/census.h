/* The census: every frame of RAM by what holds it, from /proc/kpageflags or the module. */
#ifndef CENSUS_H
#define CENSUS_H

#include <stddef.h>
#include <stdint.h>

/*
 * What a frame holds. Exclusive: a frame is counted under the first kind
 * that applies, in this order, by both sources (kpageflags bits, or the
 * module's reading of struct page).
 */
enum frame_kind {
	FK_NOPAGE,	/* in a RAM range, but no struct page (KPF_NOPAGE) */
	FK_OFFLINE,	/* offline: a balloon or hot-unplug took it (KPF_OFFLINE) */
	FK_BALLOON,	/* a balloon driver's: no source tells one now (balloons set offline) */
	FK_FREE,	/* the buddy allocator's (KPF_BUDDY) */
	FK_ZERO,	/* the zero page, or a huge zero page (KPF_ZERO_PAGE) */
	FK_RESERVED,	/* reserved: memblock at boot, the kernel image (KPF_RESERVED) */
	FK_HUGETLB,	/* the hugetlb pool (KPF_HUGE) */
	FK_SLAB,	/* KPF_SLAB */
	FK_PGTABLE,	/* page tables (KPF_PGTABLE) */
	FK_KSM,		/* KPF_KSM */
	FK_ANON,	/* anonymous (KPF_ANON) */
	FK_SHMEM,	/* swap-backed, not anonymous: tmpfs, SysV and shared anonymous memory */
	FK_FILE,	/* on an LRU list otherwise: the page cache */
	FK_OTHER,	/* none of these: other kernel allocations (drivers, DMA, vmalloc) */
	FK_N
};

/* /proc/kpageflags bits (include/uapi/linux/kernel-page-flags.h) */
enum {
	KPF_LRU = 5, KPF_SLAB = 7, KPF_BUDDY = 10, KPF_MMAP = 11, KPF_ANON = 12,
	KPF_SWAPBACKED = 14, KPF_HUGE = 17, KPF_NOPAGE = 20, KPF_KSM = 21, KPF_THP = 22,
	KPF_OFFLINE = 23, KPF_ZERO_PAGE = 24, KPF_PGTABLE = 26, KPF_RESERVED = 32,
};

struct census {
	uint64_t frames;		/* examined: every frame of every RAM range */
	uint64_t kind[FK_N];		/* frames of each kind; with outside, they add up to frames */
	uint64_t mapped;		/* frames some process maps (KPF_MMAP), of any kind */
	uint64_t thp;			/* frames of transparent huge pages (KPF_THP) */
	/*
	 * What the kernel's own counts, read around the frames, add to them
	 * (census_settle). outside: free by MemFree but in no zone's free
	 * lists, counted on frames with no flag (out of other kernel), at most
	 * outside_want: MemFree less the zones' free pages, where MemTotal is
	 * more than the zones manage (0 on mainline kernels). bare: the frames
	 * with no flag and no mapping left in other kernel.
	 */
	uint64_t outside, outside_want, bare;
	/*
	 * Where kpageflags marks only a free block's first frame (before 4.6):
	 * the frames after them counted free by the inference (census.c).
	 * buddy_frames and buddy_heads: /proc/buddyinfo's free frames and
	 * blocks (0: unread), mean of before and after.
	 */
	uint64_t inferred, buddy_frames, buddy_heads;
	int heads_only;			/* kpageflags marked first frames only */
	uint64_t moved;			/* frames MemFree moved by while they were read */
	uint64_t ms;			/* what reading the frames took */
	const char *source;		/* "kpageflags" or "kmod" */
};

extern const char *const frame_kind_name[FK_N];	/* "free", "slab", ... */
#define CENSUS_OUTSIDE	"free outside the buddy allocator"

extern const char *const frame_kind_name[FK_N];	/* "free", "slab", ... */

struct ramrange {
	uint64_t start, end;	/* bytes, [start, end): System RAM */
};

/* The kernel's counts the census is settled with, in frames. */
struct census_counts {
	uint64_t memtotal, memfree;		/* /proc/meminfo */
	uint64_t zone_free, zone_managed;	/* /proc/zoneinfo, all zones */
	uint64_t buddy_frames, buddy_heads;	/* /proc/buddyinfo, all zones */
	int have_zone, have_buddy;
	int max_order;				/* buddyinfo's last column */
	uint64_t ns;				/* when read (CLOCK_MONOTONIC) */
};
void census_counts(struct census_counts *k, int page_shift);
/* The frames counted (before and after them read) into c's free and outside. */
void census_settle(struct census *c, const struct census_counts *before,
		   const struct census_counts *after);
/* Frames [0, n) of flags, as census_kpageflags counts them from pfn on (unit tests). */
void census_flags(struct census *c, const uint64_t *flags, size_t n, uint64_t pfn, int max_order);

/*
 * Count every frame of the ranges, by reading /proc/kpageflags (census.c)
 * or the module's frames (kmodsrc.c), in large chunks, settled with the
 * kernel's counts: 0, or -errno; census_kmod's -EPROTONOSUPPORT is a
 * module from before the census, for which CENSUS_KMOD_OLD is the one line
 * to say.
 */
#define CENSUS_KMOD_OLD	"the exmap_mini module loaded is too old for the census of RAM: " \
			"load the exmap_mini.ko built with this exmap-mini"
int census_kpageflags(struct census *c, const struct ramrange *r, size_t n, int page_shift);
int census_kmod(struct census *c, const struct ramrange *r, size_t n, int page_shift);

#endif
