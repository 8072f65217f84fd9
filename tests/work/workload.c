/* workload: a family of processes with a known page sharing pattern. */
/*
 * workload - start a family of processes with a known page sharing pattern
 *
 * usage: workload [-S] [-n CHILDREN] [-f FILE_KIB] [-c COW_KIB] [-p PRIV_KIB]
 *                 [-z ZERO_KIB] [-R RESERVE_MIB] [-I ISLANDS_MIB] [-d DIR]
 *
 * The parent maps a FILE_KIB file shared (never touching it) and writes
 * COW_KIB of private anonymous memory, then forks CHILDREN children. Each
 * child reads the whole file, rewrites the first half of the cow pages and
 * writes PRIV_KIB of its own. So, per child:
 *	file pages		mapped by the N children only
 *	cow pages, first half	private to each process (parent included)
 *	cow pages, second half	shared by the parent and the N children
 *	priv pages		private
 *	zero pages		ZERO_KIB (64) of untouched anonymous memory that
 *				each child reads: the shared zero page, not RAM
 * and each child reads the clock, through the vDSO where the C library uses
 * it, so its [vvar] pages are faulted in (Rss counts them from 7.x on, where
 * they are ordinary pages, and not before, where they are raw frames).
 * With -S the parent pages its cow pages out to swap (MADV_PAGEOUT) before
 * forking, so the second half becomes swap entries shared by all N + 1.
 * Sparse address space, for every process (set up before the fork):
 *	-R	RESERVE_MIB of PROT_NONE reservation: no page, ever
 *	-I	ISLANDS_MIB of read-write memory in which the parent writes
 *		NISLAND pages spread from its first page to its last, shared by
 *		all; each child writes the page after each (before, for the
 *		last), its own; with -S the parent's odd islands go to swap
 * Once every child is ready the parent prints "file PATH" and
 * "ready PARENT_PID CHILD_PID..." on stdout and waits for SIGTERM or SIGINT,
 * then kills the children, removes the file and exits 0.
 */
#include <sys/mman.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "wl.h"

#define MAXCHILD	4096
#define MAXKIB		(16LL * 1024 * 1024)	/* 16 GiB per region */
#define MAXMIB		(4LL * 1024 * 1024)	/* 4 TiB of sparse address space */
#define NISLAND		16
#define USAGE		"[-S] [-n children] [-f file_kib] [-c cow_kib] " \
			"[-p priv_kib] [-z zero_kib] [-R reserve_mib] " \
			"[-I islands_mib] [-d dir]"

/* What the parent set up before the fork, for the children to touch. */
static const char	*file;
static size_t		 flen;
static char		*cow;
static size_t		 clen;
static size_t		 plen;			/* -p: each child's own */
static size_t		 zlen = 64 * 1024;	/* -z: read-only anon, zero page */
static char		*isl;			/* -I: the islands' mapping */
static size_t		 islen;

/* Address space, MAP_NORESERVE: a reservation costs no commit charge. */
static char *
sparse(size_t len, int prot)
{
	char *p;

	if (len == 0)
		return NULL;
	p = mmap(NULL, len, prot, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
	    -1, 0);
	if (p == MAP_FAILED)
		wl_die("mmap %zu MiB of address space", len >> 20);
	return p;
}

/* Island i's page: spread evenly, the first at 0 and the last at the end. */
static size_t
island(int i)
{
	return islen / wl_pagesz / (NISLAND - 1) * i -
	    (i == NISLAND - 1 && islen / wl_pagesz % (NISLAND - 1) == 0);
}

/* A child's pages: see the top of the file. */
static void
child(int k, void *arg)
{
	volatile unsigned long sum = 0;
	char *priv;
	struct timespec ts;
	size_t i;

	(void)k;
	(void)arg;
	sum += wl_touch(file, flen);
	/* Flipping the bits changes every byte written: a true private copy. */
	for (i = 0; i < clen / wl_pagesz / 2; i++)
		wl_tag(cow, i, ~*(uint64_t *)(cow + i * wl_pagesz));
	priv = wl_anon(plen, wl_pagesz, PROT_READ | PROT_WRITE);
	for (i = 0; i < plen / wl_pagesz; i++)
		wl_tag(priv, i, (uint64_t)getpid() << 32 | (i + 1));
	for (i = 0; isl && i < NISLAND; i++)
		wl_tag(isl, island(i) + (i < NISLAND - 1 ? 1 : -1), getpid());
	if (zlen)
		sum += wl_touch(wl_anon(zlen, wl_pagesz, PROT_READ), zlen);

	if (clock_gettime(CLOCK_MONOTONIC, &ts) == -1)
		wl_die("clock_gettime");
}

/* Push the region out to swap; fail unless every page became a swap entry. */
static void
pageout(char *p, size_t len)
{
	size_t n = len / wl_pagesz, i, left = n;
	uint64_t *pe;
	int try, fd;

	if ((pe = malloc(n * sizeof(*pe) + 1)) == NULL)
		wl_die("malloc");
	if ((fd = open("/proc/self/pagemap", O_RDONLY)) == -1)
		wl_die("/proc/self/pagemap");
	for (try = 0; try < 10 && left > 0; try++) {
		if (madvise(p, len, MADV_PAGEOUT) == -1)
			wl_die("madvise MADV_PAGEOUT");
		if (pread(fd, pe, n * sizeof(*pe),
		    (off_t)((uintptr_t)p / wl_pagesz * sizeof(*pe))) !=
		    (ssize_t)(n * sizeof(*pe)))
			wl_die("pagemap read");
		for (i = 0, left = 0; i < n; i++)
			left += !(pe[i] >> 62 & 1);	/* bit 62: swapped */
		if (left)
			usleep(100000);
	}
	close(fd);
	free(pe);
	if (left) {
		errno = EAGAIN;
		wl_die("-S: %zu of %zu pages were not swapped out (is swap on?)", left, n);
	}
}

int
main(int argc, char **argv)
{
	static char path[PATH_MAX];		/* the file's, to unlink */
	static unsigned char buf[64 * 1024];	/* the file's data, written */
	long long n = 4, fkib = 1024, ckib = 512, pkib = 256, pk;
	long long rmib = 0, imib = 0;
	const char *dir = "/tmp";
	sigset_t stop;
	size_t i;
	int ch, swap = 0;

	wl_init("workload");
	wl_path = path;
	pk = wl_pagesz / 1024;
	while ((ch = getopt(argc, argv, "Sn:f:c:p:z:R:I:d:")) != -1) {
		switch (ch) {
		case 'S': swap = 1; break;
		case 'n': n = wl_num(optarg, ch, 1, MAXCHILD, 1); break;
		case 'f': fkib = wl_num(optarg, ch, pk, MAXKIB, pk); break;
		case 'c': ckib = wl_num(optarg, ch, 0, MAXKIB, pk); break;
		case 'p': pkib = wl_num(optarg, ch, 0, MAXKIB, pk); break;
		case 'z': zlen = wl_num(optarg, ch, 0, MAXKIB, pk) * 1024; break;
		case 'R': rmib = wl_num(optarg, ch, 0, MAXMIB, 1); break;
		case 'I': imib = wl_num(optarg, ch, 0, MAXMIB, 1); break;
		case 'd': dir = optarg; break;
		default: wl_usage(USAGE);
		}
	}
	if (optind != argc)
		wl_usage(USAGE);
	if ((unsigned long long)rmib << 20 > SIZE_MAX ||
	    (unsigned long long)imib << 20 > SIZE_MAX) {
		errno = EOVERFLOW;
		wl_die("-R or -I: more than this machine's address space");
	}
	islen = (size_t)imib << 20;
	flen = fkib * 1024, clen = ckib * 1024, plen = pkib * 1024;

	wl_block(&stop);
	if ((wl_kids = calloc(n, sizeof(*wl_kids))) == NULL)
		wl_die("calloc");
	file = wl_file(dir, flen, buf, sizeof(buf), 0);
	cow = wl_anon(clen, wl_pagesz, PROT_READ | PROT_WRITE);
	for (i = 0; i < clen / wl_pagesz; i++)
		wl_tag(cow, i, i + 1);
	if (swap)
		pageout(cow, clen);
	sparse((size_t)rmib << 20, PROT_NONE);
	if ((isl = sparse(islen, PROT_READ | PROT_WRITE)) != NULL) {
		if (islen / wl_pagesz < 2 * NISLAND) {
			errno = EINVAL;
			wl_die("-I: room for %d islands and their neighbours", NISLAND);
		}
		for (i = 0; i < NISLAND; i++)
			wl_tag(isl, island(i), i + 1);
		for (i = 1; swap && i < NISLAND; i += 2)
			pageout(isl + island(i) * wl_pagesz, wl_pagesz);
	}
	wl_spawn(n, child, NULL);
	printf("file %s\n", path);
	wl_ready();
	wl_wait(&stop);
	return 0;
}
