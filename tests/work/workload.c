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
#include <sys/prctl.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAXCHILD	4096
#define MAXKIB		(16LL * 1024 * 1024)	/* 16 GiB per region */
#define MAXMIB		(4LL * 1024 * 1024)	/* 4 TiB of sparse address space */
#define NISLAND		16

static const char	*prog = "workload";
static char		 path[PATH_MAX];	/* file to unlink, if any */
static pid_t		*kids;
static int		 nkids;
static size_t		 pagesz;
static size_t		 zlen = 64 * 1024;	/* -z: read-only anon, zero page */
static char		*isl;			/* -I: the islands' mapping */
static size_t		 islen;

static void
cleanup(void)
{
	int i;

	for (i = 0; i < nkids; i++)
		if (kill(kids[i], SIGKILL) == -1 && errno != ESRCH)
			fprintf(stderr, "%s: kill %d: %s\n", prog,
			    (int)kids[i], strerror(errno));
	for (i = 0; i < nkids; i++)
		while (waitpid(kids[i], NULL, 0) == -1)
			if (errno != EINTR) {
				fprintf(stderr, "%s: waitpid %d: %s\n", prog,
				    (int)kids[i], strerror(errno));
				break;
			}
	nkids = 0;
	if (path[0] != '\0' && unlink(path) == -1)
		fprintf(stderr, "%s: unlink %s: %s\n", prog, path,
		    strerror(errno));
	path[0] = '\0';
}

/* Report "prog: what: errno" and undo whatever setup was done. */
static void __attribute__((noreturn, format(printf, 1, 2)))
die(const char *fmt, ...)
{
	int e = errno;
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, ": %s\n", strerror(e));
	cleanup();
	exit(1);
}

static void __attribute__((noreturn))
usage(void)
{
	fprintf(stderr, "usage: %s [-S] [-n children] [-f file_kib] [-c cow_kib] "
	    "[-p priv_kib] [-z zero_kib] [-R reserve_mib] [-I islands_mib] "
	    "[-d dir]\n", prog);
	exit(2);
}

/* Parse a decimal in [lo, hi]; sizes must also be whole pages. */
static long long
num(const char *s, char opt, long long lo, long long hi, long long mult)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno != 0 || end == s || *end != '\0' || v < lo || v > hi ||
	    v % mult != 0) {
		fprintf(stderr, "%s: -%c %s: want an integer in [%lld, %lld]"
		    "%s\n", prog, opt, s, lo, hi,
		    mult > 1 ? ", a multiple of the page size in KiB" : "");
		exit(2);
	}
	return v;
}

/* Anonymous private memory, NULL for an empty region. */
static char *
anon(size_t len, int prot)
{
	char *p;

	if (len == 0)
		return NULL;
	/* A PROT_NONE page each side: no neighbour merges into the region,
	 * so a test finds it in the maps as one mapping of exactly len. */
	p = mmap(NULL, len + 2 * pagesz, PROT_NONE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		die("mmap anonymous");
	p += pagesz;
	if (mprotect(p, len, prot) == -1)
		die("mprotect");
	return p;
}

/* Write len bytes of non-zero data so every page is real page cache. */
static void
fill(int fd, size_t len)
{
	static unsigned char buf[64 * 1024];
	size_t i, n;
	ssize_t w;

	for (i = 0; i < sizeof(buf); i++)
		buf[i] = i % 251 + 1;
	while (len > 0) {
		n = len < sizeof(buf) ? len : sizeof(buf);
		w = write(fd, buf, n);
		if (w == -1 && errno == EINTR)
			continue;
		if (w == -1)
			die("write %s", path);
		len -= w;
	}
}

/* Give page i of p a distinct non-zero word, faulting in a page of its own. */
static void
tag(char *p, size_t i, uint64_t v)
{
	*(uint64_t *)(p + i * pagesz) = v;
}

static char *
mkfile(const char *dir, size_t len)
{
	char *p;
	int fd;

	if (snprintf(path, sizeof(path), "%s/workload.XXXXXX", dir) >=
	    (int)sizeof(path)) {
		path[0] = '\0';
		errno = ENAMETOOLONG;
		die("-d %s", dir);
	}
	if ((fd = mkstemp(path)) == -1) {
		path[0] = '\0';	/* nothing to unlink */
		die("mkstemp %s/workload.XXXXXX", dir);
	}
	fill(fd, len);
	p = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		die("mmap %s", path);
	if (close(fd) == -1)
		die("close %s", path);
	return p;
}

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
		die("mmap %zu MiB of address space", len >> 20);
	return p;
}

/* Island i's page: spread evenly, the first at 0 and the last at the end. */
static size_t
island(int i)
{
	return islen / pagesz / (NISLAND - 1) * i -
	    (i == NISLAND - 1 && islen / pagesz % (NISLAND - 1) == 0);
}

static void
child(pid_t ppid, int wfd, const char *file, size_t flen, char *cow,
    size_t clen, size_t plen)
{
	volatile unsigned long sum = 0;
	sigset_t none;
	char *priv;
	struct timespec ts;
	size_t i;

	/* Die with the parent, even if it went before prctl took effect. */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) == -1)
		die("prctl");
	if (getppid() != ppid)
		_exit(1);
	sigemptyset(&none);
	if (sigprocmask(SIG_SETMASK, &none, NULL) == -1)
		die("sigprocmask");

	for (i = 0; i < flen; i += pagesz)
		sum += (unsigned char)file[i];
	/* Flipping the bits changes every byte written: a true private copy. */
	for (i = 0; i < clen / pagesz / 2; i++)
		tag(cow, i, ~*(uint64_t *)(cow + i * pagesz));
	priv = anon(plen, PROT_READ | PROT_WRITE);
	for (i = 0; i < plen / pagesz; i++)
		tag(priv, i, (uint64_t)getpid() << 32 | (i + 1));
	for (i = 0; isl && i < NISLAND; i++)
		tag(isl, island(i) + (i < NISLAND - 1 ? 1 : -1), getpid());
	if (zlen) {
		const char *zero = anon(zlen, PROT_READ);

		for (i = 0; i < zlen; i += pagesz)
			sum += (unsigned char)zero[i];
	}

	if (clock_gettime(CLOCK_MONOTONIC, &ts) == -1)
		die("clock_gettime");
	/* Closing our end lets the parent see EOF once every child is done. */
	while (write(wfd, "r", 1) == -1)
		if (errno != EINTR)
			die("write ready");
	if (close(wfd) == -1)
		die("close");
	for (;;)
		pause();
}

/* Fork the children; each one says "r" on the pipe when it is set up. */
static void
spawn(int n, const char *file, size_t flen, char *cow, size_t clen,
    size_t plen)
{
	pid_t ppid = getpid(), pid;
	int fds[2], got = 0;
	ssize_t r;
	char c;

	if (pipe(fds) == -1)
		die("pipe");
	if (fflush(stdout) == EOF)
		die("stdout");
	while (nkids < n) {
		if ((pid = fork()) == -1)
			die("fork");
		if (pid == 0) {
			nkids = 0;	/* the parent's to kill, not ours */
			path[0] = '\0';
			if (close(fds[0]) == -1)
				die("close");
			child(ppid, fds[1], file, flen, cow, clen, plen);
		}
		kids[nkids++] = pid;
	}
	if (close(fds[1]) == -1)
		die("close");
	while (got < n) {
		r = read(fds[0], &c, 1);
		if (r == -1 && errno == EINTR)
			continue;
		if (r == -1)
			die("read ready");
		if (r == 0) {
			fprintf(stderr, "%s: %d of %d children died before "
			    "ready\n", prog, n - got, n);
			cleanup();
			exit(1);
		}
		got++;
	}
	if (close(fds[0]) == -1)
		die("close");
}

static void
report(void)
{
	int i;

	printf("file %s\nready %d", path, (int)getpid());
	for (i = 0; i < nkids; i++)
		printf(" %d", (int)kids[i]);
	printf("\n");
	if (fflush(stdout) == EOF || ferror(stdout))
		die("stdout");
}

/* Push the region out to swap; fail unless every page became a swap entry. */
static void
pageout(char *p, size_t len)
{
	size_t n = len / pagesz, i, left = n;
	uint64_t *pe;
	int try, fd;

	if ((pe = malloc(n * sizeof(*pe) + 1)) == NULL)
		die("malloc");
	if ((fd = open("/proc/self/pagemap", O_RDONLY)) == -1)
		die("/proc/self/pagemap");
	for (try = 0; try < 10 && left > 0; try++) {
		if (madvise(p, len, MADV_PAGEOUT) == -1)
			die("madvise MADV_PAGEOUT");
		if (pread(fd, pe, n * sizeof(*pe),
		    (off_t)((uintptr_t)p / pagesz * sizeof(*pe))) !=
		    (ssize_t)(n * sizeof(*pe)))
			die("pagemap read");
		for (i = 0, left = 0; i < n; i++)
			left += !(pe[i] >> 62 & 1);	/* bit 62: swapped */
		if (left)
			usleep(100000);
	}
	close(fd);
	free(pe);
	if (left) {
		errno = EAGAIN;
		die("-S: %zu of %zu pages were not swapped out (is swap on?)", left, n);
	}
}

int
main(int argc, char **argv)
{
	long long n = 4, fkib = 1024, ckib = 512, pkib = 256, pk;
	const char *dir = "/tmp";
	char *file, *cow;
	sigset_t set;
	size_t i;
	long ps;
	int ch, sig, swap = 0;
	long long rmib = 0, imib = 0;

	if ((ps = sysconf(_SC_PAGESIZE)) == -1)
		die("sysconf");
	pagesz = ps;
	pk = ps / 1024;
	while ((ch = getopt(argc, argv, "Sn:f:c:p:z:R:I:d:")) != -1) {
		switch (ch) {
		case 'S': swap = 1; break;
		case 'n': n = num(optarg, ch, 1, MAXCHILD, 1); break;
		case 'f': fkib = num(optarg, ch, pk, MAXKIB, pk); break;
		case 'c': ckib = num(optarg, ch, 0, MAXKIB, pk); break;
		case 'p': pkib = num(optarg, ch, 0, MAXKIB, pk); break;
		case 'z': zlen = num(optarg, ch, 0, MAXKIB, pk) * 1024; break;
		case 'R': rmib = num(optarg, ch, 0, MAXMIB, 1); break;
		case 'I': imib = num(optarg, ch, 0, MAXMIB, 1); break;
		case 'd': dir = optarg; break;
		default: usage();
		}
	}
	if (optind != argc)
		usage();
	if ((unsigned long long)rmib << 20 > SIZE_MAX ||
	    (unsigned long long)imib << 20 > SIZE_MAX) {
		errno = EOVERFLOW;
		die("-R or -I: more than this machine's address space");
	}
	islen = (size_t)imib << 20;

	/* Block the stop signals now so one arriving during setup waits. */
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	if (sigprocmask(SIG_BLOCK, &set, NULL) == -1)
		die("sigprocmask");
	if ((kids = calloc(n, sizeof(*kids))) == NULL)
		die("calloc");

	file = mkfile(dir, fkib * 1024);
	cow = anon(ckib * 1024, PROT_READ | PROT_WRITE);
	for (i = 0; i < (size_t)ckib * 1024 / pagesz; i++)
		tag(cow, i, i + 1);
	if (swap)
		pageout(cow, ckib * 1024);
	sparse((size_t)rmib << 20, PROT_NONE);
	if ((isl = sparse(islen, PROT_READ | PROT_WRITE)) != NULL) {
		if (islen / pagesz < 2 * NISLAND) {
			errno = EINVAL;
			die("-I: room for %d islands and their neighbours", NISLAND);
		}
		for (i = 0; i < NISLAND; i++)
			tag(isl, island(i), i + 1);
		for (i = 1; swap && i < NISLAND; i += 2)
			pageout(isl + island(i) * pagesz, pagesz);
	}
	spawn(n, file, fkib * 1024, cow, ckib * 1024, pkib * 1024);
	report();

	while (sigwait(&set, &sig) != 0)
		;
	cleanup();
	return 0;
}
