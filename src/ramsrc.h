/* What the kernel says about all of RAM, as ramsrc.c reads it for the ram view. */
#ifndef RAMSRC_H
#define RAMSRC_H

#include "census.h"
#include "ramfiles.h"
#include "exmap.h"

/* /proc/meminfo's counters the view uses, in bytes. */
enum mi {
	MI_TOTAL, MI_FREE, MI_BUFFERS, MI_CACHED, MI_ANON, MI_MAPPED, MI_SHMEM,
	MI_KRECLAIM, MI_SRECLAIM, MI_SUNRECLAIM, MI_STACK, MI_PGTABLE, MI_SECPGTABLE,
	MI_VMALLOC, MI_PERCPU, MI_CMATOTAL, MI_CMAFREE, MI_HUGETLB, MI_HP_TOTAL,
	MI_HP_SIZE, MI_ZSWAP, MI_SWAPTOTAL, MI_SWAPFREE, MI_N
};

struct ramsrc {
	uint64_t time_s, uptime_s;	/* when read: since 1970, since boot */
	uint64_t mi[MI_N];
	uint32_t mi_have;		/* bit per enum mi */
	/* installed RAM, and where the figure came from */
	uint64_t installed;
	const char *installed_src;
	uint64_t sysram;		/* iomem's System RAM */
	int have_iomem;			/* readable, with addresses (root) */
	struct ramrange ranges[64];	/* System RAM, for the census */
	size_t nranges;
	/* the kernel image: iomem, else the boot log */
	uint64_t kcode, kdata, kbss;
	const char *kimage_src;
	uint64_t boot_reserved;		/* the boot log's "K reserved" */
	/* device-tree reserved-memory regions: kept out of RAM, or not */
	struct ramname region[16];
	uint8_t region_nomap[16], region_reusable[16];
	uint32_t nregion;
	int have_dt;
	/* named consumers */
	struct ramtop slab;		/* slabinfo's caches */
	int have_slabinfo;
	struct ramfiles files;		/* tmpfs, ramfs, SysV */
	struct ramtop modules;
	uint64_t vmalloc_stacks;	/* vmallocinfo: kernel stacks it holds */
	uint64_t vmalloc_info;		/* vmallocinfo: all pages */
	int have_vmallocinfo;
	struct ramtop cma, cma_used;	/* CMA areas (sysfs, 6.15 on): their pages,
					   those cma_alloc gave out */
	uint64_t zram_used, zram_compr, zram_orig;
	uint32_t nzram;
	struct census census;
	int census_err;			/* 0, or -errno: why there is none */
	/* what could not be read: one note each */
	const char *notes[16];
	uint32_t nnotes;
};

extern const char *const ram_mi_name[MI_N];	/* meminfo's names for them */

void ram_read(struct ramsrc *r, const char *census_how, uint64_t page_size);
void ram_read_parts(struct ramsrc *r, uint64_t page_size);


#endif
