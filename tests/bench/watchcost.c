/*
 * watchcost: the CPU a watch sample costs beyond its scan, on exmap-mini's
 * own objects (make bench). In one process, ROUNDS rounds of three, their
 * order turning each round: A, a scan as a report view makes it (scan,
 * pass two, the file table); R, the same as a sample's scan makes it (each
 * process's start time read from stat, dearer for the kernel than comm)
 * and the ram view's parts read as a sample reads them (meminfo, the
 * mounts, vmallocinfo, zram): all a sample reads from the kernel; B, a
 * watch's sample (that scan, pass two, the ram view's parts, and the
 * sample against the last one, written to /dev/null). CPU time is the
 * process's (user and system), CLOCK_PROCESS_CPUTIME_ID. Every KEYth
 * sample is a keyframe, as watch writes them, timed apart.
 *
 * "Beyond its scan" is (B - R) / R: watch's own work, its target 5%;
 * (B - A) / A says what stat and the ram view's parts add besides. Prints
 * per round "round N A_NS R_NS B_NS KEY", then the medians of A, R and B
 * and of the paired ratios, non-keyframe and keyframe apart, each with its
 * min, quartiles and max.
 * usage: watchcost ROUNDS [KEY]   (KEY: 60, watch's)
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "ramsrc.h"
#include "wlog.h"

static struct arena arena;
static struct scan scan;

/* What one round times: A, a report's scan; R, the scan a sample makes (each
 * process's start time read too, from stat) and the ram view's parts, all a
 * sample reads; B, a sample. */
enum what { A_SCAN, R_READS, B_SAMPLE };

/* One of them; the CPU it took, ns. */
static uint64_t one(enum what w, int key, uint64_t n)
{
	static struct ramsrc rs;
	struct opts o = { .view = w == A_SCAN ? V_PROCS : V_WATCH, .sort = -1 };
	struct totals t;
	uint32_t nf;
	uint64_t t0 = clock_ns(CLOCK_PROCESS_CPUTIME_ID);

	arena_release(&arena);
	scan_live(&scan, &arena, &o, "auto", 0, 0, NULL, 0);
	account(&scan, &t);
	if (w == B_SAMPLE)
		wsample_write(&scan, n * 60000, n * 60000, key);
	else
		files_build(&scan, &nf);
	if (w == R_READS)
		ram_read_parts(&rs, scan.page_size);
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
	printf("%s: median %.4f%s (min %.4f, quartiles %.4f %.4f, max %.4f; %d rounds)\n", what,
	       v[n / 2] * scale, unit, v[0] * scale, v[n / 4] * scale, v[3 * n / 4] * scale,
	       v[n - 1] * scale, n);
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 0, key = argc > 2 ? atoi(argv[2]) : WL_KEYFRAME;
	double *a, *rr, *b, *r, *ra, *kr, *kra;
	int i, j, n = 0, k = 0, fd = open("/dev/null", O_WRONLY);
	uint64_t sample = 0;

	if (rounds < 1 || key < 1 || fd < 0) {
		fprintf(stderr, "usage: watchcost ROUNDS [KEY]\n");
		return 2;
	}
	a = calloc(rounds, sizeof(*a));
	rr = calloc(rounds, sizeof(*rr));
	b = calloc(rounds, sizeof(*b));
	r = calloc(rounds, sizeof(*r));
	ra = calloc(rounds, sizeof(*ra));
	kr = calloc(rounds, sizeof(*kr));
	kra = calloc(rounds, sizeof(*kra));
	if (!a || !rr || !b || !r || !ra || !kr || !kra) {
		fprintf(stderr, "watchcost: out of memory\n");
		return 2;
	}
	out_to(fd, "/dev/null");
	wsample_begin(1, 60000);
	one(B_SAMPLE, 1, sample++);	/* the first sample: the tables sized, a keyframe */
	for (i = 0; i < rounds; i++) {
		int kf = sample % key == 0;
		uint64_t t[3];

		for (j = 0; j < 3; j++) {
			int w = (i + j) % 3;	/* the order turns each round */

			t[w] = w == A_SCAN ? one(A_SCAN, 0, 0) : w == R_READS ?
			       one(R_READS, 0, 0) : one(B_SAMPLE, kf, sample++);
		}
		printf("round %d %llu %llu %llu %d\n", i, (unsigned long long)t[0],
		       (unsigned long long)t[1], (unsigned long long)t[2], kf);
		if (kf) {
			kr[k] = ((double)t[2] - t[1]) / t[1];
			kra[k++] = ((double)t[2] - t[0]) / t[0];
		} else {
			a[n] = t[0];
			rr[n] = t[1];
			b[n] = t[2];
			r[n] = ((double)t[2] - t[1]) / t[1];
			ra[n++] = ((double)t[2] - t[0]) / t[0];
		}
	}
	stats("scan alone (A)", a, n, " ms", 1e-6);
	stats("a sample's scan and the ram view's parts (R)", rr, n, " ms", 1e-6);
	stats("watch sample (B)", b, n, " ms", 1e-6);
	stats("sample beyond its scan, (B - R) / R", r, n, "", 1);
	stats("keyframe beyond its scan, (B - R) / R", kr, k, "", 1);
	stats("sample beyond a scan of processes alone, (B - A) / A", ra, n, "", 1);
	stats("keyframe beyond a scan of processes alone, (B - A) / A", kra, k, "", 1);
	return 0;
}
