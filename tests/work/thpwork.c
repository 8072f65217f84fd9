/* thpwork: large folios mapped in part after copy-on-write. */
/*
 * thpwork - large folios mapped in part after copy-on-write
 *
 * usage: thpwork [-H] [-n CHILDREN] [-s SIZE_KIB] [-a ALIGN_KIB]
 *                [-o OFFSET_KIB] [-r STRIDE] [-D DROP_KIB]
 *
 * The parent maps SIZE_KIB of private anonymous memory starting OFFSET_KIB
 * past an ALIGN_KIB boundary (-H: MADV_HUGEPAGE on it), writes every page,
 * so that the kernel fills it with the large folios its THP settings allow,
 * then forks CHILDREN children and never touches the region again. Child k
 * (1..N) drops DROP_KIB (MADV_DONTNEED) at k / (N + 1) of the region, a
 * place no other child drops, then rewrites every page i outside that
 * range with i % STRIDE == k - 1. Each child so maps every large folio in
 * part: a copy-on-write replaces one page of it, or a drop unmaps some of
 * it, while the parent (untouched since the fork) maps them all whole.
 * Once every child is ready the parent prints
 *	region SIZE_BYTES
 *	folios KIB:COUNT...	(the folios that back the parent's region,
 *				by size, from pagemap and kpageflags)
 *	child PID DROPPED_BYTES REWRITTEN_BYTES	(one line a child)
 *	ready PARENT_PID CHILD_PID...
 * on stdout and waits for SIGTERM or SIGINT; then it kills the children and
 * exits 0.
 */
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAXCHILD	64
#define MAXORDER	20	/* folios up to 2^20 pages (16 GiB at 16 KiB) */

/* /proc/self/pagemap and /proc/kpageflags bits (Documentation/admin-guide/
 * mm/pagemap.rst) */
#define PM_PRESENT(e)	((e) >> 63 & 1)
#define PM_PFN(e)	((e) & ((1ULL << 55) - 1))
#define KPF_TAIL(f)	((f) >> 16 & 1)
#define MAXKIB		(1024LL * 1024)	/* 1 GiB, whole in a 32-bit size_t */

static const char	*prog = "thpwork";
static pid_t		 kids[MAXCHILD];
static int		 nkids;
static size_t		 pagesz;

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
	fprintf(stderr, "usage: %s [-H] [-n children] [-s size_kib] "
	    "[-a align_kib] [-o offset_kib] [-r stride] [-D drop_kib]\n", prog);
	exit(2);
}

/* Parse a decimal in [lo, hi] that is a multiple of mult. */
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

static uint64_t
read64(int fd, uint64_t index, const char *name)
{
	uint64_t v;

	if (pread(fd, &v, sizeof(v), (off_t)(index * sizeof(v))) != sizeof(v))
		die("%s: read entry %llu", name, (unsigned long long)index);
	return v;
}

/* Print the region's folios by size: a folio is a page followed by its
 * compound tails, mapped here in order, as a fault leaves it (the parent
 * never writes after the fork); a page not followed by tails is one page. */
static void
folios(const char *p, size_t len)
{
	uint64_t count[MAXORDER + 1] = { 0 }, e, f, pfn = 0;
	size_t i, run = 0, o;
	int pm, kf;

	if ((pm = open("/proc/self/pagemap", O_RDONLY)) == -1)
		die("/proc/self/pagemap");
	if ((kf = open("/proc/kpageflags", O_RDONLY)) == -1)
		die("/proc/kpageflags");
	for (i = 0; i <= len / pagesz; i++) {
		f = 0;
		if (i < len / pagesz) {
			e = read64(pm, (uintptr_t)p / pagesz + i, "pagemap");
			if (!PM_PRESENT(e) || PM_PFN(e) == 0) {
				errno = EPERM;
				die("page %zu: no pfn (not root?)", i);
			}
			f = read64(kf, PM_PFN(e), "kpageflags");
			if (run && KPF_TAIL(f) && PM_PFN(e) == pfn + run) {
				run++;
				continue;
			}
			pfn = PM_PFN(e);
		}
		/* A run ends: count it when it is a whole power of two. */
		for (o = 0; run && o <= MAXORDER && (size_t)1 << o != run; o++)
			;
		if (run && o > MAXORDER) {
			errno = ERANGE;
			die("page %zu: a folio of %zu pages", i - run, run);
		}
		if (run)
			count[o]++;
		run = i < len / pagesz ? 1 : 0;
		if (run && KPF_TAIL(f)) {
			errno = EINVAL;
			die("page %zu: a folio's tail without its head", i);
		}
	}
	close(pm);
	close(kf);
	printf("folios");
	for (o = 0; o <= MAXORDER; o++)
		if (count[o])
			printf(" %zu:%llu", (pagesz << o) / 1024,
			    (unsigned long long)count[o]);
	printf("\n");
}

/* Child k's drop, pages [*d0, *d1), and the bytes it rewrites outside it. */
static size_t
plan(size_t npages, int n, int k, size_t stride, size_t drop, size_t *d0,
    size_t *d1)
{
	size_t i, bytes = 0;

	*d0 = npages * k / (n + 1);
	*d1 = *d0 + drop / pagesz;
	for (i = (size_t)k - 1; i < npages; i += stride)
		if (i < *d0 || i >= *d1)
			bytes += pagesz;
	return bytes;
}

static void
child(pid_t ppid, int wfd, char *p, size_t len, int n, int k, size_t stride,
    size_t drop)
{
	size_t i, d0, d1;
	sigset_t none;

	/* Die with the parent, even if it went before prctl took effect. */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) == -1)
		die("prctl");
	if (getppid() != ppid)
		_exit(1);
	sigemptyset(&none);
	if (sigprocmask(SIG_SETMASK, &none, NULL) == -1)
		die("sigprocmask");

	plan(len / pagesz, n, k, stride, drop, &d0, &d1);
	if (drop && madvise(p + d0 * pagesz, drop, MADV_DONTNEED) == -1)
		die("madvise MADV_DONTNEED");
	for (i = (size_t)k - 1; i < len / pagesz; i += stride)
		if (i < d0 || i >= d1)	/* flip the bits: a true copy */
			*(uint64_t *)(p + i * pagesz) =
			    ~*(uint64_t *)(p + i * pagesz);

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
	long long n = 4, skib = 96 * 1024, akib = 0, okib = 0, dkib = 0;
	long long stride = 16, pk;
	size_t len, align, off, drop, i, d0, d1;
	pid_t ppid = getpid(), pid;
	int ch, sig, fds[2], got = 0, huge = 0;
	uintptr_t base;
	sigset_t set;
	char *raw, *p, c;
	ssize_t r;
	long ps;

	if ((ps = sysconf(_SC_PAGESIZE)) == -1)
		die("sysconf");
	pagesz = ps;
	pk = ps / 1024;
	while ((ch = getopt(argc, argv, "Hn:s:a:o:r:D:")) != -1) {
		switch (ch) {
		case 'H': huge = 1; break;
		case 'n': n = num(optarg, ch, 1, MAXCHILD, 1); break;
		case 's': skib = num(optarg, ch, pk, MAXKIB, pk); break;
		case 'a': akib = num(optarg, ch, 0, MAXKIB, pk); break;
		case 'o': okib = num(optarg, ch, 0, MAXKIB, pk); break;
		case 'r': stride = num(optarg, ch, 1, MAXKIB, 1); break;
		case 'D': dkib = num(optarg, ch, 0, MAXKIB, pk); break;
		default: usage();
		}
	}
	if (optind != argc)
		usage();
	len = skib * 1024, align = akib ? (size_t)akib * 1024 : pagesz;
	off = okib * 1024, drop = dkib * 1024;
	if (n > stride) {
		fprintf(stderr, "%s: -n %lld: more children than the stride "
		    "(-r %lld): two would rewrite the same pages\n", prog, n,
		    stride);
		exit(2);
	}
	if (dkib > skib / (n + 1)) {
		fprintf(stderr, "%s: -D %lld: the children's drops would overlap "
		    "(at most %lld KiB for -s %lld -n %lld)\n", prog, dkib,
		    skib / (n + 1), skib, n);
		exit(2);
	}

	/* Block the stop signals now so one arriving during setup waits. */
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	if (sigprocmask(SIG_BLOCK, &set, NULL) == -1)
		die("sigprocmask");

	/* PROT_NONE around the region: it stays one mapping of exactly len. */
	raw = mmap(NULL, len + off + align + 2 * pagesz, PROT_NONE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (raw == MAP_FAILED)
		die("mmap %zu bytes", len + off + align + 2 * pagesz);
	base = ((uintptr_t)raw + pagesz + align - 1) / align * align;
	p = (char *)(base + off);
	if (mprotect(p, len, PROT_READ | PROT_WRITE) == -1)
		die("mprotect");
	if (huge && madvise(p, len, MADV_HUGEPAGE) == -1)
		die("madvise MADV_HUGEPAGE");
	for (i = 0; i < len / pagesz; i++)
		*(uint64_t *)(p + i * pagesz) = i + 1;

	if (pipe(fds) == -1)
		die("pipe");
	if (fflush(stdout) == EOF)
		die("stdout");
	while (nkids < n) {
		if ((pid = fork()) == -1)
			die("fork");
		if (pid == 0) {
			int k = nkids + 1;

			nkids = 0;	/* the parent's to kill, not ours */
			if (close(fds[0]) == -1)
				die("close");
			child(ppid, fds[1], p, len, n, k, stride, drop);
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
			fprintf(stderr, "%s: %lld of %lld children died before "
			    "ready\n", prog, n - got, n);
			cleanup();
			exit(1);
		}
		got++;
	}
	if (close(fds[0]) == -1)
		die("close");

	printf("region %zu\n", len);
	folios(p, len);
	for (i = 0; i < (size_t)n; i++)
		printf("child %d %zu %zu\n", (int)kids[i], drop,
		    plan(len / pagesz, n, i + 1, stride, drop, &d0, &d1));
	printf("ready %d", (int)getpid());
	for (i = 0; i < (size_t)n; i++)
		printf(" %d", (int)kids[i]);
	printf("\n");
	if (fflush(stdout) == EOF || ferror(stdout))
		die("stdout");

	while (sigwait(&set, &sig) != 0)
		;
	cleanup();
	return 0;
}
