/* The ram view's figures: what the kernel says about all of RAM, read by ramsrc.c. */
#ifndef RAM_H
#define RAM_H

#include "census.h"
#include "exmap.h"

/* /proc/meminfo's counters the view uses, in bytes. */
enum mi {
	MI_TOTAL, MI_FREE, MI_BUFFERS, MI_CACHED, MI_ANON, MI_MAPPED, MI_SHMEM,
	MI_KRECLAIM, MI_SRECLAIM, MI_SUNRECLAIM, MI_STACK, MI_PGTABLE, MI_SECPGTABLE,
	MI_VMALLOC, MI_PERCPU, MI_CMATOTAL, MI_CMAFREE, MI_HUGETLB, MI_HP_TOTAL,
	MI_HP_SIZE, MI_ZSWAP, MI_SWAPTOTAL, MI_SWAPFREE, MI_N
};

#define RAM_TOP		8	/* named consumers kept for each line */
#define RAM_NAME	64	/* a name, cut to this */

struct ramname {		/* a named consumer: a slab cache, a file, a region */
	char name[RAM_NAME];
	uint64_t bytes;
};

struct ramtop {			/* the largest of a kind, and how many there were */
	struct ramname top[RAM_TOP];
	uint32_t n;		/* in top */
	uint64_t count, bytes;	/* all of them */
};

struct ramsrc {
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
	struct ramtop tmpfs, ramfs, sysv, modules;
	uint64_t vmalloc_stacks;	/* vmallocinfo: kernel stacks it holds */
	uint64_t vmalloc_info;		/* vmallocinfo: all pages */
	int have_vmallocinfo;
	uint64_t zram_used, zram_compr, zram_orig;
	uint32_t nzram;
	uint32_t shm_dev[32], huge_dev[8];	/* tmpfs and hugetlbfs mounts, as mappings give devices */
	uint32_t nshm_dev, nhuge_dev;
	struct census census;
	int census_err;			/* 0, or -errno: why there is none */
	/* what could not be read: one note each */
	const char *notes[16];
	uint32_t nnotes;
};

extern const char *const ram_mi_name[MI_N];	/* meminfo's names for them */

void ram_read(struct ramsrc *r, const char *census_how, uint64_t page_size);
/* capram.c: the figures as a capture's lines, and back */
void ram_dump(const struct ramsrc *r, void (*line)(const char *, size_t));
int ram_parse(struct ramsrc *r, char *line, struct arena *a);
void view_ram(struct scan *s, const struct opts *o, const char *census_how);
uint32_t ram_budget(const struct scan *s, const char *name, uint64_t *bytes);
void diff_ram(const struct scan *a, const struct scan *b, const struct opts *o, struct arena *ar);

#endif
