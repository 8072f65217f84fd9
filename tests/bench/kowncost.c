/*
 * kowncost: exmap-mini's own work on an allocinfo of many lines (make
 * bench: tests/bench/kmem_bench.sh gives it one grown from a real kernel's),
 * on its objects: each round reads FILE's lines from memory through
 * kown_alloc_line, as kowner.c reads /proc/allocinfo, once keeping every
 * call site (the ram view, dump: sites listed and merged) and once the
 * owners' figures alone (a watch sample's, metrics'). CPU time
 * (CLOCK_PROCESS_CPUTIME_ID); prints the median of each over ROUNDS, and
 * a line's, with the lines, owners and sites read.
 * usage: kowncost FILE ROUNDS
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kowner.h"

static char text[16 << 20], line[512];

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* One reading of the text: its CPU time in ns; k the table it filled. */
static uint64_t reading(int sites, size_t len, struct kowners **k, uint64_t *lines)
{
	uint64_t t0 = clock_ns(CLOCK_PROCESS_CPUTIME_ID);
	size_t at = 0;

	*k = kown_begin(sites);
	*lines = 0;
	while (at < len) {
		char *nl = memchr(text + at, '\n', len - at);
		size_t n = nl ? (size_t)(nl - (text + at)) : len - at;

		if (n < sizeof(line)) {	/* as the reader's line buffer takes it */
			memcpy(line, text + at, n);
			line[n] = '\0';
			kown_alloc_line(*k, line);
		}
		at += n + 1;
		(*lines)++;
	}
	(*k)->have[KO_ALLOC] = 1;
	kown_end(*k);
	return clock_ns(CLOCK_PROCESS_CPUTIME_ID) - t0;
}

int main(int argc, char **argv)
{
	int rounds = argc > 2 ? atoi(argv[2]) : 0, fd = argc > 1 ? open(argv[1], O_RDONLY) : -1, s, i;
	ssize_t len = fd >= 0 ? read(fd, text, sizeof(text)) : -1;
	static uint64_t t[2][1000];
	struct kowners *k;
	uint64_t lines = 0;

	if (rounds < 1 || rounds > 1000 || len <= 0 || (size_t)len == sizeof(text)) {
		fprintf(stderr, "usage: kowncost FILE ROUNDS (1 to 1000; FILE under 16 MiB)\n");
		return 2;
	}
	for (i = 0; i < rounds; i++)
		for (s = 0; s < 2; s++)
			t[s][i] = reading(!s, (size_t)len, &k, &lines);
	for (s = 0; s < 2; s++) {
		uint64_t m;

		(void)reading(!s, (size_t)len, &k, &lines);
		qsort(t[s], rounds, sizeof(t[s][0]), cmp_u64);
		m = t[s][rounds / 2];
		printf("%s: median %.3f ms, %.0f ns a line (%llu lines, %u owners, %u sites listed, "
		       "%llu past the table; %d rounds)\n", s ? "owners alone (a watch sample)" :
		       "every call site (the view, dump)", m / 1e6, (double)m / lines,
		       (unsigned long long)lines, k->nowner, k->nsite, (unsigned long long)k->lost,
		       rounds);
	}
	return 0;
}
