/*
 * watchcost: the CPU a watch sample costs beyond its scan, on exmap-mini's
 * own objects (make bench). In one process, ROUNDS pairs alternate, their
 * order flipping each round: A, a scan as a report view makes it (scan,
 * pass two, the file table); B, a watch's sample (its scan, which reads
 * each process's start time and command line too, pass two, and the sample
 * against the last one, written to /dev/null). CPU time is the process's
 * (user and system), CLOCK_PROCESS_CPUTIME_ID. Every KEYth sample is a
 * keyframe, as watch writes them, timed apart.
 *
 * Prints per pair "pair N A_NS B_NS KEY", then the medians of A and B and
 * of the paired ratios (B - A) / A, non-keyframe and keyframe apart, each
 * with its min, quartiles and max.
 * usage: watchcost ROUNDS [KEY]   (KEY: 60, watch's)
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "wlog.h"

static struct arena arena;
static struct scan scan;

/* One scan as view v makes it; the CPU it took, ns. */
static uint64_t one(enum view v, int key, uint64_t n)
{
	struct opts o = { .view = v, .sort = -1 };
	struct totals t;
	uint32_t nf;
	uint64_t t0 = clock_ns(CLOCK_PROCESS_CPUTIME_ID);

	arena_release(&arena);
	scan_live(&scan, &arena, &o, "auto", 0, 0, NULL, 0);
	account(&scan, &t);
	if (v == V_WATCH)
		wsample_write(&scan, n * 60000, n * 60000, key);
	else
		files_build(&scan, &nf);
	out_flush();
	return clock_ns(CLOCK_PROCESS_CPUTIME_ID) - t0;
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void stats(const char *what, double *v, int n, const char *unit, double scale)
{
	if (!n)
		return;
	qsort(v, n, sizeof(*v), cmp_d);
	printf("%s: median %.4f%s (min %.4f, quartiles %.4f %.4f, max %.4f; %d pairs)\n", what,
	       v[n / 2] * scale, unit, v[0] * scale, v[n / 4] * scale, v[3 * n / 4] * scale,
	       v[n - 1] * scale, n);
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 0, key = argc > 2 ? atoi(argv[2]) : WL_KEYFRAME;
	double *a, *b, *r, *ka, *kb, *kr;
	int i, n = 0, k = 0, fd = open("/dev/null", O_WRONLY);
	uint64_t sample = 0;

	if (rounds < 1 || key < 1 || fd < 0) {
		fprintf(stderr, "usage: watchcost ROUNDS [KEY]\n");
		return 2;
	}
	a = calloc(rounds, sizeof(*a));
	b = calloc(rounds, sizeof(*b));
	r = calloc(rounds, sizeof(*r));
	ka = calloc(rounds, sizeof(*ka));
	kb = calloc(rounds, sizeof(*kb));
	kr = calloc(rounds, sizeof(*kr));
	out_to(fd, "/dev/null");
	wsample_begin(1, 60000);
	one(V_WATCH, 1, sample++);	/* the first sample: the tables sized, a keyframe */
	for (i = 0; i < rounds; i++) {
		int kf = sample % key == 0;
		uint64_t ta, tb;

		if (i % 2) {
			ta = one(V_PROCS, 0, 0);
			tb = one(V_WATCH, kf, sample++);
		} else {
			tb = one(V_WATCH, kf, sample++);
			ta = one(V_PROCS, 0, 0);
		}
		printf("pair %d %llu %llu %d\n", i, (unsigned long long)ta, (unsigned long long)tb, kf);
		if (kf) {
			ka[k] = ta;
			kb[k] = tb;
			kr[k++] = ((double)tb - ta) / ta;
		} else {
			a[n] = ta;
			b[n] = tb;
			r[n++] = ((double)tb - ta) / ta;
		}
	}
	stats("scan alone (A)", a, n, " ms", 1e-6);
	stats("watch sample (B)", b, n, " ms", 1e-6);
	stats("sample beyond its scan, (B - A) / A", r, n, "", 1);
	stats("keyframe beyond its scan, (B - A) / A", kr, k, "", 1);
	(void)ka, (void)kb;
	return 0;
}
