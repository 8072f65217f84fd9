/*
 * kowncost: exmap-mini's own work on an allocinfo of many lines (make
 * bench: tests/bench/kmem_bench.sh gives it one grown from a real kernel's),
 * on its objects: each round reads FILE's lines from memory through
 * kown_alloc_line, as kowner.c reads /proc/allocinfo, once keeping every
 * call site (the ram view, dump: sites listed and merged) and once the
 * owners' figures alone (a watch sample's, metrics'). With -r, each
 * round reads FILE again first (/proc/allocinfo in a guest: the kernel's
 * cost of printing it in the time). CPU time (CLOCK_PROCESS_CPUTIME_ID:
 * the kernel's for the reads too); prints the median of each over ROUNDS,
 * and a line's, with the lines, owners and sites read.
 * usage: kowncost [-r] FILE ROUNDS
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

static const char *file;
static int reread;

/* FILE's text into text[]: its length, or 0. */
static size_t load(void)
{
	int fd = open(file, O_RDONLY);
	size_t len = 0;
	ssize_t n;

	while (fd >= 0 && len < sizeof(text) && (n = read(fd, text + len, sizeof(text) - len)) > 0)
		len += (size_t)n;
	if (fd >= 0)
		close(fd);
	return len < sizeof(text) ? len : 0;
}

/* One reading of the text (read again first with -r): its CPU time in ns;
 * k the table it filled. */
static uint64_t reading(int sites, size_t len, struct kowners **k, uint64_t *lines)
{
	uint64_t t0 = clock_ns(CLOCK_PROCESS_CPUTIME_ID);
	size_t at = 0;

	if (reread)
		len = load();

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
	static uint64_t t[2][1000];
	struct kowners *k;
	uint64_t lines = 0;
	size_t len;
	int rounds, s, i;

	reread = argc > 1 && strcmp(argv[1], "-r") == 0;
	file = argc > 1 + reread ? argv[1 + reread] : "";
	rounds = argc > 2 + reread ? atoi(argv[2 + reread]) : 0;
	len = load();
	if (rounds < 1 || rounds > 1000 || !len) {
		fprintf(stderr, "usage: kowncost [-r] FILE ROUNDS (1 to 1000; FILE under 16 MiB)\n");
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
		printf("%s%s: median %.3f ms, %.0f ns a line (%llu lines, %u owners, %u sites listed, "
		       "%llu past the table; %d rounds)\n", reread ? "read and " : "",
		       s ? "owners alone (a watch sample)" : "every call site (the view, dump)",
		       m / 1e6, (double)m / lines,
		       (unsigned long long)lines, k->nowner, k->nsite, (unsigned long long)k->lost,
		       rounds);
	}
	return 0;
}
