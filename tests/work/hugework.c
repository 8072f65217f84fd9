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
#include <sys/prctl.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef MAP_HUGE_SHIFT
#define MAP_HUGE_SHIFT	26
#endif
#define MAXCHILD	16
#define MAXREGION	8
#define MAXKIB		(1024LL * 1024)	/* a 1 GiB huge page at most */
#define MAXCOUNT	64

static const char	*prog = "hugework";
static pid_t		 kids[MAXCHILD];
static int		 nkids;

struct region {
	long long	 kib;
	size_t		 len;
	volatile char	*p;
};

static void
cleanup(void)
{
	int i;

	for (i = 0; i < nkids; i++)
		if (kill(kids[i], SIGKILL) == -1 && errno != ESRCH)
			fprintf(stderr, "%s: kill %d: %s\n", prog,
			    (int)kids[i], strerror(errno));
	for (i = 0; i < nkids; i++)
		while (waitpid(kids[i], NULL, 0) == -1 && errno == EINTR)
			;
	nkids = 0;
}

/* Report "prog: what: errno", kill the children made so far, exit 1. */
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
	fprintf(stderr, "usage: %s [-n children] kib:count...\n", prog);
	exit(2);
}

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
		    prog, what, lo, hi);
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

static void
child(pid_t ppid, int wfd, const struct region *r, int nr, size_t pagesz)
{
	uint64_t sum = 0;
	sigset_t none;
	size_t i;
	int k;

	/* Die with the parent, even if it went before prctl took effect. */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) == -1)
		die("prctl");
	if (getppid() != ppid)
		_exit(1);
	sigemptyset(&none);
	if (sigprocmask(SIG_SETMASK, &none, NULL) == -1)
		die("sigprocmask");
	for (k = 0; k < nr; k++)
		for (i = 0; i < r[k].len; i += pagesz)
			sum += *(volatile uint64_t *)(r[k].p + i);
	if (sum == 0)	/* the parent wrote i + 1 in each: never 0 */
		_exit(1);
	/* Closing our end lets the parent see EOF once every child is done. */
	while (write(wfd, "r", 1) == -1)
		if (errno != EINTR)
			die("write ready");
	if (close(wfd) == -1)
		die("close");
	for (;;)
		pause();
}

int
main(int argc, char **argv)
{
	struct region r[MAXREGION];
	long long n = 1, count;
	pid_t ppid = getpid(), pid;
	int ch, sig, fds[2], got = 0, nr = 0, shift, k;
	const char *colon;
	size_t pagesz, i;
	sigset_t set;
	ssize_t rd;
	long ps;
	char c;

	if ((ps = sysconf(_SC_PAGESIZE)) == -1)
		die("sysconf");
	pagesz = ps;
	while ((ch = getopt(argc, argv, "n:")) != -1) {
		switch (ch) {
		case 'n': n = num(optarg, "-n", 1, MAXCHILD, '\0', NULL); break;
		default: usage();
		}
	}
	if (optind == argc || argc - optind > MAXREGION)
		usage();
	for (; optind < argc; optind++, nr++) {
		r[nr].kib = num(argv[optind], argv[optind], ps / 1024, MAXKIB,
		    ':', &colon);
		count = num(colon + 1, argv[optind], 1, MAXCOUNT, '\0', NULL);
		shift = log2of((unsigned long long)r[nr].kib * 1024);
		if (shift < 0 || r[nr].kib * 1024 <= ps) {
			fprintf(stderr, "%s: %s: a huge page size is a power of "
			    "two above the page size\n", prog, argv[optind]);
			exit(2);
		}
		r[nr].len = (size_t)r[nr].kib * 1024 * count;
		r[nr].p = mmap(NULL, r[nr].len, PROT_READ | PROT_WRITE,
		    MAP_SHARED | MAP_ANONYMOUS | MAP_HUGETLB |
		    shift << MAP_HUGE_SHIFT, -1, 0);
		if (r[nr].p == MAP_FAILED)
			die("mmap %lld hugetlb pages of %lld KiB", count,
			    r[nr].kib);
	}

	/* Block the stop signals now so one arriving during setup waits. */
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	if (sigprocmask(SIG_BLOCK, &set, NULL) == -1)
		die("sigprocmask");
	for (k = 0; k < nr; k++)
		for (i = 0; i < r[k].len; i += pagesz)
			*(volatile uint64_t *)(r[k].p + i) = i / pagesz + 1;

	if (pipe(fds) == -1)
		die("pipe");
	if (fflush(stdout) == EOF)
		die("stdout");
	while (nkids < n) {
		if ((pid = fork()) == -1)
			die("fork");
		if (pid == 0) {
			nkids = 0;	/* the parent's to kill, not ours */
			if (close(fds[0]) == -1)
				die("close");
			child(ppid, fds[1], r, nr, pagesz);
		}
		kids[nkids++] = pid;
	}
	if (close(fds[1]) == -1)
		die("close");
	while (got < n) {
		rd = read(fds[0], &c, 1);
		if (rd == -1 && errno == EINTR)
			continue;
		if (rd == -1)
			die("read ready");
		if (rd == 0) {
			fprintf(stderr, "%s: %lld of %lld children died before "
			    "ready\n", prog, n - got, n);
			cleanup();
			exit(1);
		}
		got++;
	}
	if (close(fds[0]) == -1)
		die("close");

	for (k = 0; k < nr; k++)
		printf("region %lld 0x%lx %zu\n", r[k].kib,
		    (unsigned long)(uintptr_t)r[k].p, r[k].len);
	printf("ready %d", (int)getpid());
	for (k = 0; k < nkids; k++)
		printf(" %d", (int)kids[k]);
	printf("\n");
	if (fflush(stdout) == EOF || ferror(stdout))
		die("stdout");

	while (sigwait(&set, &sig) != 0)
		;
	cleanup();
	return 0;
}
