/* The ram view's sources: tmpfs, ramfs and hugetlbfs mounts, SysV segments (ramfiles.c). */
#ifndef RAMFILES_H
#define RAMFILES_H

#include "ramtext.h"

struct ramfiles {
	struct ramtop tmpfs, ramfs, sysv;	/* the largest files and segments */
	uint32_t shm_dev[32], huge_dev[8];	/* tmpfs and hugetlbfs mounts, as mappings give devices */
	uint32_t nshm_dev, nhuge_dev;
	unsigned unreadable;		/* files the walk could not look at */
	int no_mountinfo;		/* /proc/self/mountinfo could not be read */
	int devs_only;			/* the devices alone, no walk (a watch's samples) */
};

void ram_read_mounts(struct ramfiles *f, uint64_t page_size);
void ram_read_sysv(struct ramfiles *f);

#endif
