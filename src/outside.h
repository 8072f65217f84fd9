/* outside.c: pages mapped by processes the scan cannot see, by the kernel's count;
 * pidns.c: whether /proc is a nested PID namespace's. */
#ifndef OUTSIDE_H
#define OUTSIDE_H
#include "exmap.h"

/* What the scan could not see, and what it did about it (struct scan's view). */
#define OV_PIDNS	0x01	/* /proc is another PID namespace's than init's */
#define OV_ONLY		0x02	/* -p: pages shared among the processes named alone */
#define OV_NOPFN	0x04	/* pfns hidden: smaps_rollup's figures, no sharing */
#define OV_NOCOUNT	0x08	/* mappers hidden, and no map count to read */
#define OV_COUNTED	0x10	/* the kernel's counts were read (pt.hid) */

/* pidns.c: OV_ONLY if -p named processes, else OV_PIDNS if /proc is not init's. */
void outside_begin(struct scan *s, int only);

#define COUNT_CHUNK	1024	/* map counts read at a time */
/* The scan's OV_* flags and its hidden mappers' counts (NULL: none), for
 * reports and captures: OV_PIDNS alone and no counts in a build without them. */
#ifdef EXMAP_NO_OUTSIDE	/* OUTSIDE=0: shares among the processes seen */
#define ov_flags(s)			((s)->view & OV_PIDNS)
#define ov_hid(s)			((void)(s), (const uint32_t *)NULL)
#define outside_maps(s, frame, n)	((void)(s), 0)
#define outside_count(s)		((void)(s))
#define outside_totals(s, t)		((void)(s), (void)(t))
#define scan_rollups(s, pids, n)	((void)(s), (void)(pids), (void)(n))
#else
#define ov_flags(s)			((s)->view)
#define ov_hid(s)			((const uint32_t *)(s)->pt.hid)
int outside_maps(struct scan *s, uint64_t frame, uint64_t n);
void outside_count(struct scan *s);
void outside_totals(struct scan *s, struct totals *t);
void scan_rollups(struct scan *s, const pid_t *pids, size_t n);
#endif
#endif
