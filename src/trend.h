/* The trend view's parts: the floor's slope, the rows, the page's series. */
/*
 *	slope.c		one series' lower envelope and its Theil-Sen slope (slope.h)
 *	trend.c		a watch log walked: rows per process, file or part;
 *			the report, the slope budgets
 *	trendpage.c	the html page of a watch log: the growers' series
 */
#ifndef TREND_H
#define TREND_H

#include "exmap.h"

#include "slope.h"

/*
 * trend.c: the rows. A process by its name and command line, a file by its
 * path, a part of the processes -P picks, a cgroup by its path (its
 * processes summed); budgets' rows of their own. Each
 * has its floor's envelope (and a process its sole's), and, for the page,
 * its series (SERIES_POINTS buckets, each a window's least and most).
 */
enum { TK_PROC, TK_FILE, TK_PART, TK_CGROUP, TK_BUDGET_PROC, TK_BUDGET_FILE, TK_DMABUF };
/* TK_DMABUF: a process's dma-bufs' share (eff_dmabuf), by name and command
 * line, from the first sample it held one */

#define SERIES_POINTS	240

struct series {
	uint32_t n;			/* points: the buckets the row was in */
	uint32_t bucket;		/* the last point's */
	int64_t t[SERIES_POINTS];	/* ms since boot: each point's first sample */
	uint64_t lo[SERIES_POINTS], hi[SERIES_POINTS];
};

struct trow {
	const char *name;
	const char *cmd;	/* NUL between arguments; NULL but for a process */
	uint32_t cmdlen;
	uint8_t kind;
	uint8_t lost;		/* a value of this sample was lost */
	uint32_t touched;	/* the sample it was last added to, from 1 */
	struct trow *next;	/* the next row touched in this sample */
	uint64_t eff, sole;	/* this sample's sums */
	uint32_t count;		/* and how many values they sum (processes) */
	uint32_t nlast;		/* the count at its last sample (a cgroup's: 1) */
	uint64_t first, last, min, max;	/* its sums: at its first and last sample */
	const char *path;	/* a file budget's first file, to tell two apart */
	int ambiguous;		/* a file budget matched files of two paths */
	struct series *ser;	/* the page's: a grower's */
	/* the floor of each sample's mean (sum / count), so that processes of
	 * the row starting or exiting are not growth; its slope times nlast
	 * is the row's (a cgroup's: of its sum, a process joining it is its
	 * growth) */
	struct envelope e_eff, e_sole;
};

/* A part of MemTotal over time, for the page: each bucket's last value. */
struct ramseries {
	const char *name;
	int depth;
	int64_t v[SERIES_POINTS];
};

struct trend_opts {
	const char *log;	/* as -l names it */
	int64_t warmup;		/* -w: ms of the log's start left out */
	const char *pick;	/* -P: a process name or pid, for its parts */
	const struct budget *budgets;
	size_t nbudget;
};

/* What the walk found, for the report. */
struct trend_sum {
	const char *log;
	uint32_t used, skipped;		/* samples fitted, left out as warm-up */
	int64_t t_first, t_last;	/* ms since boot */
	uint64_t real_first, real_last;	/* s since 1970 */
	uint64_t runs, lost, unknown;	/* the reader's: watch runs, lines lost,
					   samples with a value unknown */
	struct trow *budget;		/* two a budget: processes, files */
	const char *pick;		/* -P, as given */
	int pick_seen;			/* a process it names was in the log */
	int pick_reused;		/* -P PID: the pid was another's later */
	char reuser[NAME_MAX_COMM];
	struct ramseries *ram;		/* the page's */
	uint32_t nram;
	int64_t ram_t[SERIES_POINTS];	/* each bucket's first sample, ms */
	uint32_t nbucket;
	uint32_t width;			/* samples a bucket of the series */
};

void trend_begin(struct arena *a, const struct trend_opts *to);
void trend_sample(int64_t t, uint64_t realtime);
void trend_proc(int32_t pid, uint64_t start, const char *name, const char *cmd,
		uint32_t cmdlen, uint64_t eff, uint64_t sole, int known);
void trend_dmabuf(const char *name, const char *cmd, uint32_t cmdlen, uint64_t eff, int known);
void trend_file(const char *path, uint64_t eff, int known);
void trend_part(int32_t pid, uint64_t start, const char *name, const char *part,
		uint64_t eff, int known);
void trend_cgroup(const char *path, int doubt, uint64_t eff, uint64_t sole, int known);
void trend_sample_end(void);
int parse_duration(const char *s, int64_t *ms);
void cmd_words(const struct trow *r, char *buf, size_t len);
/* The log read and fitted: the rows, and for html its series (view_trend,
 * in trendrep.c, then reports them). */
void trend_read(const char *log, const struct opts *o, const char *pick, const char *warmup,
		const struct budget *b, size_t nbudget, uint64_t cap_mem, struct trend_opts *to);
/*
 * A row is judged on its slope only with evidence: present in a share of
 * the log's samples (TREND_SHARE: a quarter), for TREND_MIN_MS and
 * TREND_MIN_SAMPLES at least. Else it is brief: no slope (a few samples
 * are never extrapolated to an hour), never marked as growing, counted
 * apart with the largest peak and the longest life among them.
 */
#define TREND_SHARE		4
#define TREND_MIN_MS		30000
#define TREND_MIN_SAMPLES	8

/* The rows of one kind with a sample, fitted: the judged by slope (largest
 * first), then the brief by peak. */
struct shown {
	struct trow *r;
	struct env_fit f, fs;	/* the row's: the mean's slope times nlast */
	int brief, grows;
};
struct shown *trend_rows(int kind, uint32_t *n);
/* The brief rows of a table: how many, the largest peak, the longest life. */
struct brief {
	uint32_t n;
	const struct trow *peak, *longest;
};
void trend_brief(const struct shown *v, uint32_t n, struct brief *b);
/* A row's fit and whether it is judged, as trend_rows gives them. */
void trend_fit(const struct trow *r, struct shown *s);
const struct trend_sum *trend_summary(void);

/* trendrep.c: the report as text or CSV; the budgets; view_trend */
void trend_report(const struct opts *o, const struct trend_opts *to);
void trend_budgets(const struct opts *o, const struct trend_opts *to);

/* trendpage.c: the page of a watch log (left out with PICTURES=0) */
void trend_page(const struct opts *o, const struct trend_opts *to);

#endif
