/*
 * hugework - hugetlb pages of given sizes shared by a parent and children
 *
 * usage: hugework [-n CHILDREN] KIB:COUNT...
 *
 * For each KIB:COUNT, the parent maps COUNT hugetlb pages of KIB KiB
 * (MAP_SHARED | MAP_ANONYMOUS | MAP_HUGETLB, with the size in the flags: a
 * pool of that size must hold them), writes every base page of each, then
 * forks CHILDREN children (1) that read every base page, so that each maps
 * every page in its own page tables. On riscv with Svnapot a 64 KiB page is
 * 16 PTEs of one value; a 2 MiB page is one PMD entry. Once every child is
 * ready the parent prints
 *	region KIB ADDRESS BYTES	(one line a mapping, ADDRESS as 0x%lx)
 *	ready PARENT_PID CHILD_PID...
 * on stdout and waits for SIGTERM or SIGINT; then it kills the children and
 * exits 0. Exit 1 on a failure (a pool too small: mmap fails, the pages
 * being reserved there), 2 on misuse.
 */
#include <sys/mman.h>

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "wl.h"

#ifndef MAP_HUGE_SHIFT
#define MAP_HUGE_SHIFT	26
#endif
#define MAXCHILD	16
#define MAXREGION	8
#define MAXKIB		(1024LL * 1024)	/* a 1 GiB huge page at most */
#define MAXCOUNT	64
#define USAGE		"[-n children] kib:count..."

struct region {
	long long	 kib;
	size_t		 len;
	volatile char	*p;
};

static struct region	 r[MAXREGION];
static int		 nr;
static pid_t		 kids[MAXCHILD];

/* Parse a decimal in [lo, hi] ending at stop (a character, or '\0'). */
static long long
num(const char *s, const char *what, long long lo, long long hi, char stop,
    const char **endp)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno != 0 || end == s || *end != stop || v < lo || v > hi) {
		fprintf(stderr, "%s: %s: want an integer in [%lld, %lld]\n",
		    wl_prog, what, lo, hi);
		exit(2);
	}
	if (endp)
		*endp = end;
	return v;
}

/* The log2 of a power of two, or -1. */
static int
log2of(unsigned long long v)
{
	int s = 0;

	if (v == 0 || (v & (v - 1)) != 0)
		return -1;
	while (v >>= 1)
		s++;
	return s;
}

/* A child reads every base page: each page in its own page tables. */
static void
child(int k, void *arg)
{
	uint64_t sum = 0;
	size_t i;
	int j;

	(void)k;
	(void)arg;
	for (j = 0; j < nr; j++)
		for (i = 0; i < r[j].len; i += wl_pagesz)
			sum += *(volatile uint64_t *)(r[j].p + i);
	if (sum == 0)	/* the parent wrote i + 1 in each: never 0 */
		_exit(1);
}

int
main(int argc, char **argv)
{
	long long n = 1, count;
	int ch, shift, k;
	const char *colon;
	sigset_t stop;
	size_t i;

	wl_init("hugework");
	wl_kids = kids;
	while ((ch = getopt(argc, argv, "n:")) != -1) {
		switch (ch) {
		case 'n': n = num(optarg, "-n", 1, MAXCHILD, '\0', NULL); break;
		default: wl_usage(USAGE);
		}
	}
	if (optind == argc || argc - optind > MAXREGION)
		wl_usage(USAGE);
	for (; optind < argc; optind++, nr++) {
		r[nr].kib = num(argv[optind], argv[optind], wl_pagesz / 1024,
		    MAXKIB, ':', &colon);
		count = num(colon + 1, argv[optind], 1, MAXCOUNT, '\0', NULL);
		shift = log2of((unsigned long long)r[nr].kib * 1024);
		if (shift < 0 || (size_t)r[nr].kib * 1024 <= wl_pagesz) {
			fprintf(stderr, "%s: %s: a huge page size is a power of "
			    "two above the page size\n", wl_prog, argv[optind]);
			exit(2);
		}
		r[nr].len = (size_t)r[nr].kib * 1024 * count;
		r[nr].p = mmap(NULL, r[nr].len, PROT_READ | PROT_WRITE,
		    MAP_SHARED | MAP_ANONYMOUS | MAP_HUGETLB |
		    shift << MAP_HUGE_SHIFT, -1, 0);
		if (r[nr].p == MAP_FAILED)
			wl_die("mmap %lld hugetlb pages of %lld KiB", count,
			    r[nr].kib);
	}

	wl_block(&stop);
	for (k = 0; k < nr; k++)
		for (i = 0; i < r[k].len; i += wl_pagesz)
			*(volatile uint64_t *)(r[k].p + i) = i / wl_pagesz + 1;

	wl_spawn(n, child, NULL);
	for (k = 0; k < nr; k++)
		printf("region %lld 0x%lx %zu\n", r[k].kib,
		    (unsigned long)(uintptr_t)r[k].p, r[k].len);
	wl_ready();
	wl_wait(&stop);
	return 0;
}
