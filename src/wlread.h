/* The watch log's reader: one sample's state, passed through wlog.c and wlstate.c. */
/*
 * wlog.c reads lines into it (definitions, values, losses as key ranges),
 * wlstate.c closes a sample with it (losses marked, a keyframe's ends, each
 * entity given to the caller, the marks cleared). Its tables are sized by
 * the run's h line; it lives in the struct wlog's memory (wlog_read makes
 * it, wlog_close gives it back), and every step is given it. What a sample
 * costs is what is live (lists of the live ids, of the parts in use), never
 * the tables' capacities, which a log states and a damaged one can inflate.
 */
#ifndef WLREAD_H
#define WLREAD_H

#include "wlog.h"

#define GAPS_MAX	64	/* loss ranges in a sample; more: all of it unknown */
#define ALL_FIELDS	((1u << WL_NFIELD) - 1)
#define WL_TIME_MAX	(UINT64_C(1) << 62)	/* ms: a later t line's time is not a watch's */
#define WL_VALUE_MAX	(UINT64_C(1) << 48)	/* bytes: more than any machine's RAM */

struct rproc {
	struct wl_proc pub;
	char *cmd;		/* CMDLINE_MAX + 1 */
	char *cg;		/* its cgroup: PATH_BUF */
	int live, doubt;	/* defined; its definition may have been lost */
	int64_t v[WL_NFIELD];
	uint32_t known, changed;
	uint32_t gen;		/* its parts' (a part of an earlier holder of the id is stale) */
	uint8_t seen, started, ended, marked, parts_unknown;
	uint8_t said;		/* a record naming it undefined was said */
};

struct rfile {
	struct wl_file pub;
	char *path;		/* PATH_BUF */
	int live, doubt;
	int64_t v;
	uint32_t known, changed;
	uint8_t seen, ended, marked, said;
};

struct rpart {
	uint64_t key;		/* proc id + 1 << 32 | part << 28 | file id: 0 empty */
	int64_t v;
	uint32_t gen;		/* its process's, when it was written */
	uint32_t at;		/* its place in the list of parts in use */
	uint8_t known, changed, seen;
};

struct rram {
	char name[64];
	int depth, live, doubt;
	int64_t v;
	uint8_t known, changed, seen, marked, said;
};

struct gap {
	uint64_t from, to;	/* keys: class << 40 | sub << 32 | id */
};

/* What a definition needs while its text goes on in "+" lines. */
struct pend {
	int cls;		/* WC_N: none */
	uint32_t id;
	uint64_t a, b, c;	/* pid start flags; dev inode flags; depth */
	char name[NAME_MAX_COMM];
	uint64_t want;
	size_t elen;
	char esc[3 * PATH_BUF + 8];
};

/* Ids in use, in order: a sample walks these, not the tables. */
struct idlist {
	uint32_t *id;
	uint32_t n;
};

struct wlread {
	struct wlog *w;
	const struct wl_ops *ops;
	void *arg;
	struct arena a;
	/* the run */
	uint64_t id, ps, ivl;
	uint32_t format;	/* 1: no process has eff_dmabuf (it is 0) */
	uint32_t np, nf, nq, nr;
	int have_run, synced;
	uint64_t last_n, last_up;
	int have_last;
	struct rproc *proc;
	struct rfile *file;
	char *cmds, *paths, *cgs;	/* the text of each id's definition, its cgroup */
	struct idlist lp, lf;	/* the live processes and files */
	struct rpart *part;	/* a power of two, at least 4 * nq slots */
	uint32_t *inuse;	/* the slots in use, in no order */
	uint32_t qmask, nparts;
	struct rram *ram;
	/* identities unknown (a definition lost) since the last whole keyframe */
	int unsure_procs, unsure_files;
	/* the sample being read */
	uint32_t seq;
	int have_seq, gap_open, all_lost;
	uint64_t prev_key, gap_from;
	struct gap gaps[GAPS_MAX];
	uint32_t ngap, lines, lost_here;
	uint32_t bad_run;	/* damaged lines since the last whole one (said) */
	int orphan_procs, orphan_files;	/* records naming what is not defined */
	struct pend pend;
	/* notes */
	uint64_t unsynced;	/* watch lines read before the first keyframe */
	uint32_t run, said;
	const char *file_now;
	uint64_t at;		/* the line being read */
	struct wl_sample last_s;	/* the last one given */
};

/* A line item's place in a sample's order: class, sub (x: 0 p, 1 f), id. */
static inline uint64_t wlr_key(int cls, int sub, uint32_t id)
{
	return (uint64_t)cls << 40 | (uint64_t)sub << 32 | id;
}

int wl_fields(char *s, char **f, int max);
/* wlloss.c */
void wlr_say(struct wlread *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void wlr_say_losses(const struct wlog *w);
/* wlstate.c */
void wlr_tables(struct wlread *r);
void wlr_gap_to(struct wlread *r, uint64_t key);
struct rproc *wlr_proc_take(struct wlread *r, uint32_t id);
void wlr_proc_end(struct wlread *r, struct rproc *p);
struct rfile *wlr_file_take(struct wlread *r, uint32_t id);
struct rpart *wlr_part_slot(struct wlread *r, uint64_t k);
void wlr_part_add(struct wlread *r, struct rpart *e, uint64_t k);
void wlr_clear(struct wlread *r);
int wlr_close_sample(struct wlread *r, char *it);

#endif
