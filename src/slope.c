/* A series' floor and how fast it rises: the lower envelope, Theil-Sen. */
/*
 * Why this estimator: memory that leaks raises a process's floor, while a
 * cache that fills and empties (a sawtooth) or a burst (a spike) moves its
 * top. So the series is cut into windows and only each window's minimum is
 * kept (trend.h: ENV_WIN of them, merged in pairs as the series grows, so
 * memory stays bounded), and the slope is Theil-Sen's over those minima:
 * the median of the slopes between every pair of them, which a few odd
 * windows (under 29% of them) cannot move. A sawtooth whose period is
 * shorter than a window has a flat floor; a spike up is never a minimum.
 */
#include "slope.h"

/* The earlier of two points when their values tie: the floor's first visit. */
static struct env_pt lower(struct env_pt a, struct env_pt b)
{
	return b.v < a.v ? b : a;
}

void env_add(struct envelope *e, int64_t t, uint64_t v)
{
	struct env_pt p = { t, v };
	uint32_t i;

	if (e->samples++ == 0) {
		e->first = p;
		e->min = e->max = v;
		e->width = 1;
	}
	e->last = p;
	if (v < e->min)
		e->min = v;
	if (v > e->max)
		e->max = v;
	e->open = e->fill++ ? lower(e->open, p) : p;
	if (e->fill < e->width)
		return;
	e->win[e->n++] = e->open;
	e->fill = 0;
	if (e->n < ENV_WIN)
		return;
	for (i = 0; i < ENV_WIN / 2; i++)
		e->win[i] = lower(e->win[2 * i], e->win[2 * i + 1]);
	e->n = ENV_WIN / 2;
	e->width *= 2;
}

/* MIPS16 code hands doubles to libgcc's conversions (__fixdfdi,
 * __floatdidf) through call stubs that --gc-sections drops, which made
 * every slope 0 there: the functions with doubles are plain MIPS. */
#ifdef __mips__
#define PLAIN	__attribute__((nomips16))
#else
#define PLAIN
#endif

/* The middle of n values (the mean of the two middle ones when n is even),
 * sorted in place: n is small (ENV_WIN + 1 points give 136 pairs). */
static PLAIN double median(double *x, uint32_t n)
{
	uint32_t i, j;

	for (i = 1; i < n; i++) {
		double v = x[i];

		for (j = i; j > 0 && x[j - 1] > v; j--)
			x[j] = x[j - 1];
		x[j] = v;
	}
	return n % 2 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2;
}

static PLAIN void fit(const struct envelope *e, struct env_fit *f)
{
	static double s[(ENV_WIN + 1) * ENV_WIN / 2];
	struct env_pt pt[ENV_WIN + 1];
	uint32_t n = e->n, i, j, ns = 0;
	int32_t up = 0, down = 0;
	double m;

	for (i = 0; i < n; i++)
		pt[i] = e->win[i];
	/* the open window, when it has seen half a window's samples */
	if (e->fill && 2 * e->fill >= e->width)
		pt[n++] = e->open;
	f->points = n;
	f->known = n >= ENV_MIN_POINTS;
	f->slope = 0;
	f->rising = 0;
	f->span = n ? pt[n - 1].t - pt[0].t : 0;
	if (!f->known || f->span <= 0) {
		f->known = 0;
		return;
	}
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++) {
			if (pt[j].t <= pt[i].t)
				continue;
			s[ns++] = ((double)pt[j].v - (double)pt[i].v) / (double)(pt[j].t - pt[i].t);
			up += pt[j].v > pt[i].v;
			down += pt[j].v < pt[i].v;
		}
	m = median(s, ns) * 3600000.0;	/* bytes a ms to bytes an hour */
	if (!(m > -9.2e18 && m < 9.2e18)) {	/* no slope of 64 bits: not said */
		f->known = 0;
		return;
	}
	f->slope = (int64_t)(m < 0 ? m - 0.5 : m + 0.5);
	f->rising = (double)(up - down) / ns;
}

void env_fit(const struct envelope *e, struct env_fit *f)
{
	fit(e, f);
}

static PLAIN int grows(const struct env_fit *f)
{
	return f->known && f->slope > 0 && f->rising >= GROW_RISING &&
	       (double)f->slope * (double)f->span / 3600000.0 >= GROW_MIN_BYTES;
}

int env_grows(const struct env_fit *f)
{
	return grows(f);
}
