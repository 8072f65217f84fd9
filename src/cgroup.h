/* cgroups: each process's, each one's charge by the kernel, the cgroups view. */
/*
 *	cgroup.c	the hierarchy that holds the memory controller (from
 *			mountinfo), a process's cgroup in it, a cgroup's charge;
 *			the table of the cgroups that hold scanned processes
 *	cgview.c	the cgroups view: each one's fair share beside its charge
 *	cgdiff.c	diff's cgroups (hosts: LOAD=1)
 */
#ifndef CGROUP_H
#define CGROUP_H

#include "exmap.h"

/* Where the memory controller is: cgroup v1's memory hierarchy (also on a
 * hybrid, where a v2 tree holds no controller), v2's, or no mount at all. */
enum cg_hier { CG_NOFS, CG_V1, CG_V2 };

/* A charge as read, or why it is not known. */
enum cg_state {
	CG_OK,			/* read */
	CG_ROOT,		/* v2's root cgroup: it has no memory.current */
	CG_NOMEM,		/* no memory controller for it (v2: not enabled above it) */
	CG_GONE,		/* removed before its charge was read */
	CG_OUTSIDE,		/* not under the mount (another cgroup namespace's) */
	CG_NOMOUNT,		/* no cgroup file system is mounted */
	CG_UNREADABLE,		/* its files could not be read (said when read) */
	CG_NSTATE
};
extern const char *const cg_state_word[CG_NSTATE];	/* as a capture writes them (capwire.c) */

/* The kernel's charge: memory.current and memory.stat's anon, file, shmem
 * (v2), or memory.usage_in_bytes and memory.stat's total_rss, total_cache,
 * total_shmem (v1); each counts the cgroup's descendants too. */
enum { CH_CHARGED, CH_ANON, CH_FILE, CH_SHMEM, CH_N };
struct cgcharge {
	uint8_t hier;		/* enum cg_hier */
	uint8_t state;		/* enum cg_state */
	uint8_t known;		/* a bit per figure read */
	uint64_t v[CH_N];
};

/* A process's cgroup: its path (from /proc/PID/cgroup) and, loaded from a
 * capture, the charge it had when the capture was taken. */
struct cgproc {
	const char *path;
	uint32_t row;		/* in the cgroup table, once built */
	int loaded;		/* charge is the capture's */
	struct cgcharge charge;
};

/* A row: a cgroup that holds scanned processes. */
struct cgroup {
	const char *path;
	uint32_t nproc;
	struct fig fig;		/* its processes' figures, summed */
	uint32_t rnproc;	/* the processes the report shows (-P, -F), */
	struct fig rfig;	/* their part */
	struct cgcharge charge;
	int nested;		/* a row above it holds it: its charge is in that one's */
};

#ifdef EXMAP_NO_CGROUPS
/* CGROUPS=0: no cgroups read, none in captures, logs or metrics; the view says so */
static inline int cg_hierarchy(const char **dir) { (void)dir; return -1; }
static inline int cg_read(struct arena *a, struct proc *p, int piddir)
{
	(void)a, (void)p, (void)piddir;
	return -1;
}
static inline size_t cg_name(const char *path, char *buf, size_t len)
{
	(void)path, (void)len;
	buf[0] = '\0';
	return 0;
}
static inline struct cgroup *cgroups_build(struct scan *s, uint32_t *n)
{
	(void)s;
	*n = 0;
	return NULL;
}
static inline void diff_cgroups(struct scan *s, const struct opts *o, struct arena *a)
{
	(void)s, (void)o, (void)a;
}
#else
/* cgroup.c */
int cg_hierarchy(const char **dir);
int cg_read(struct arena *a, struct proc *p, int piddir);
void cg_charge(const char *path, struct cgcharge *c);
size_t cg_name(const char *path, char *buf, size_t len);
struct cgroup *cgroups_build(struct scan *s, uint32_t *n);

/* cgview.c */
void view_cgroups(struct scan *s, const struct opts *o);
/* cgdiff.c: s[0] and s[1], two captures (diff.c) */
void diff_cgroups(struct scan *s, const struct opts *o, struct arena *a);
#endif

#endif
