/* The trend view's parts: the floor's slope, the rows, the page's series. */
/*
 *	slope.c		one series' lower envelope and its Theil-Sen slope
 *	trend.c		a watch log walked: rows per process, file or part;
 *			the report, the slope budgets
 *	trendpage.c	the html page of a watch log: the growers' series
 */
#ifndef TREND_H
#define TREND_H

#include "exmap.h"

/*
 * A series' lower envelope: the minimum of each window of consecutive
 * samples, ENV_WIN windows at most; when they are all closed, neighbours
 * are merged in pairs and the windows are twice as long from then on. So a
 * series of any length costs the same few hundred bytes, and its windows
 * each span 1/16 to 1/8 of it.
 */
#define ENV_WIN	16

struct env_pt {
	int64_t t;		/* ms */
	uint64_t v;		/* bytes */
};

struct envelope {
	struct env_pt win[ENV_WIN];	/* the closed windows' minima, in order */
	struct env_pt open;		/* the open window's, so far */
	uint32_t n;			/* closed windows */
	uint32_t width;			/* samples a window */
	uint32_t fill;			/* samples in the open window */
	uint32_t samples;
	struct env_pt first, last;
	uint64_t min, max;
};

/* The fit: the slope of the floor, bytes an hour, and how steadily it rose:
 * of the pairs of window minima, the share that rose less the share that
 * fell (1: every later window above every earlier one; about 0: flat). */
struct env_fit {
	int known;		/* enough windows for a slope (ENV_MIN_POINTS) */
	int64_t slope;		/* bytes an hour */
	double rising;		/* -1 to 1 */
	uint32_t points;	/* the windows fitted */
	int64_t span;		/* ms from the first window's minimum to the last's */
};
#define ENV_MIN_POINTS	4

void env_add(struct envelope *e, int64_t t, uint64_t v);
void env_fit(const struct envelope *e, struct env_fit *f);
/* Grows: the floor rose by GROW_MIN_BYTES at least over the windows, and
 * steadily (rising at least GROW_RISING). */
#define GROW_MIN_BYTES	(64 * 1024)
#define GROW_RISING	0.5
int env_grows(const struct env_fit *f);

#endif

/*
 * trend.c: what a watch log's reader hands it, sample by sample: a sample
 * begins (its time since boot in ms, its realtime in s), then every value
 * known at it (known 0: the log lost it; left out, never guessed), then it
 * ends. A process is named by its pid and start time (pids are reused).
 */
struct trend_opts {
	int64_t warmup;		/* -w: ms of the log's start left out */
	const char *pick;	/* -P: a process name or pid, for its parts */
	const struct budget *budgets;
	size_t nbudget;
};
void trend_begin(struct arena *a, const struct trend_opts *to);
void trend_sample(int64_t t, uint64_t realtime);
void trend_proc(int32_t pid, uint64_t start, const char *name, const char *cmd,
		uint32_t cmdlen, uint64_t eff, uint64_t sole, int known);
void trend_file(const char *path, uint64_t eff, int known);
void trend_part(int32_t pid, uint64_t start, const char *name, const char *part,
		uint64_t eff, int known);
void trend_sample_end(void);
void trend_report(const char *log, const struct opts *o);
int parse_duration(const char *s, int64_t *ms);
