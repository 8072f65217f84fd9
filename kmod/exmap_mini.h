/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the module's files share: an open file's state and each mode's read.
 * proc.c is /proc/exmap-mini (open, the pid or word written, read by mode);
 * walk.c reads a process's page tables as page records; frames.c reads RAM
 * frames, their kinds (frames) or their map counts (counts).
 */
#ifndef EXMAP_MINI_H
#define EXMAP_MINI_H

#include <linux/compiler.h>
#include <linux/mm_types.h>
#include <linux/mutex.h>
#include <linux/types.h>

#include "exmap_mini_abi.h"

#define XM_BUF_RECS	8192	/* records copied out at a time: 64 KiB */

struct xm_file {
	struct mutex lock;
	struct mm_struct *mm;	/* pinned (mmgrab) when the pid was written */
	bool frames;		/* "frames" was written: the census of RAM frames */
	bool counts;		/* "counts" was written: frames' map counts */
	bool spans;		/* " spans" followed the pid: huge entries as spans */
	exmap_mini_rec *buf;	/* XM_BUF_RECS records */
};

/* Each read is called with xf->lock held, *ppos not negative. */

/* walk.c */
ssize_t xm_read_pages(struct xm_file *xf, char __user *ubuf, size_t len, loff_t *ppos);

/* frames.c */
ssize_t xm_read_frames(struct xm_file *xf, char __user *ubuf, size_t len, loff_t *ppos);
ssize_t xm_read_counts(struct xm_file *xf, char __user *ubuf, size_t len, loff_t *ppos);

#endif
