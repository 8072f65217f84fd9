/* slope.c: a series' floor and how fast it rises (the trend view's estimator). */
#ifndef SLOPE_H
#define SLOPE_H

#include <stdint.h>

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
