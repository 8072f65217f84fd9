/* readfault: what a read fault in private anonymous memory gives here. */
/*
 * readfault - what a read fault in private anonymous memory gives here
 *
 * usage: readfault [-s SMALL_KIB]
 *
 * Maps SMALL_KIB (64) of private anonymous read-write memory and reads
 * every page of it, never writing. Where the kernel has transparent huge
 * pages, it also maps one PMD-sized, PMD-aligned read-write range with
 * MADV_HUGEPAGE and reads every page of that. A kernel with a zero page maps
 * the zero page (and the huge zero page) there; one that forbids it
 * (s390 KVM, pvm_no_zero_page=1, the no_zero_page test kernel of
 * toolchain/tinykernel) allocates. For each range it prints
 *	small|huge ADDR BYTES rss+BYTES zero=Z thp=T
 * rss+ is how much the kernel's own resident count (Rss: smaps_rollup, or
 * statm without it) rose with the reads; Z says whether /proc/kpageflags flags the pages read as
 * the zero page, T whether as a transparent huge page: yes (all of them), no
 * (none), mixed, or unknown where pagemap or kpageflags cannot be read.
 * Without THP it prints "huge none". Before them comes "page BYTES" (the
 * page size), after them "ready PID"; then it waits for SIGTERM or SIGINT.
 * Each range has a PROT_NONE page either side, so it is one mapping of its
 * own in the maps, starting at ADDR. Exit 0, 1 on an error (named on
 * stderr), 2 on bad usage.
 */
#include <sys/mman.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* /proc/self/pagemap and /proc/kpageflags bits (Documentation/admin-guide/
 * mm/pagemap.rst) */
#define PM_PRESENT(e)	((e) >> 63 & 1)
#define PM_PFN(e)	((e) & ((1ULL << 55) - 1))
#define KPF_THP(f)	((f) >> 22 & 1)
#define KPF_ZERO(f)	((f) >> 24 & 1)
#define MAXKIB		(64LL * 1024)

static const char	*prog = "readfault";
static size_t		 pagesz;

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
	exit(1);
}

static void __attribute__((noreturn))
usage(void)
{
	fprintf(stderr, "usage: %s [-s small_kib]\n", prog);
	exit(2);
}

/* The number after key (a word, or "" for the first) in a small file, 0
 * when the file or the number is not there. */
static uint64_t
file_u64(const char *path, const char *key)
{
	static char buf[4096];
	char *p = buf, *end;
	unsigned long long v;
	ssize_t n;
	int fd;

	if ((fd = open(path, O_RDONLY)) == -1)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	if (*key != '\0') {
		if ((p = strstr(buf, key)) == NULL)
			return 0;
		p += strlen(key);
	}
	errno = 0;
	v = strtoull(p, &end, 10);
	return errno || end == p ? 0 : v;
}

/* The kernel's resident count of this process, in bytes: smaps_rollup's
 * Rss, counted from the page tables when read; else statm's, which SMP
 * kernels before 6.2 update only every 64 faults (SPLIT_RSS_COUNTING). */
static uint64_t
rss(void)
{
	uint64_t kib = file_u64("/proc/self/smaps_rollup", "\nRss:");
	uint64_t pages = kib ? 0 : file_u64("/proc/self/statm", " ");

	if (kib == 0 && pages == 0) {
		errno = EIO;
		die("/proc/self/smaps_rollup, statm: no resident count");
	}
	return kib ? kib * 1024 : pages * pagesz;
}

/* len bytes of private anonymous read-write memory aligned to align, with a
 * PROT_NONE page each side, so that no neighbour merges into it. */
static volatile char *
region(size_t len, size_t align)
{
	char *p, *a;

	p = mmap(NULL, len + align + pagesz, PROT_NONE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		die("mmap %zu bytes", len + align + pagesz);
	a = (char *)(((uintptr_t)p + pagesz + align - 1) & ~(uintptr_t)(align - 1));
	if (mprotect(a, len, PROT_READ | PROT_WRITE) == -1)
		die("mprotect");
	return a;
}

static const char *
verdict(size_t yes, size_t n)
{
	return yes == n ? "yes" : yes == 0 ? "no" : "mixed";
}

/* Read every page of [p, p + len), then print what the kernel made of it. */
static void
readall(const char *name, volatile char *p, size_t len)
{
	uint64_t before, after, e, f;
	size_t i, zero = 0, thp = 0, known = 1;
	int pm, kf;
	char sum = 0;

	/* The first read of the count faults in its buffer after the kernel
	 * has counted: read it once before, so that only our reads differ. */
	(void)rss();
	before = rss();
	for (i = 0; i < len; i += pagesz)
		sum += p[i];
	after = rss();
	if (sum != 0) {
		errno = EINVAL;
		die("%s: fresh anonymous memory reads non-zero", name);
	}
	pm = open("/proc/self/pagemap", O_RDONLY);
	kf = open("/proc/kpageflags", O_RDONLY);
	for (i = 0; i < len / pagesz && pm != -1 && kf != -1; i++) {
		if (pread(pm, &e, 8, (off_t)(((uintptr_t)p / pagesz + i) * 8)) != 8 ||
		    !PM_PRESENT(e) || PM_PFN(e) == 0 ||
		    pread(kf, &f, 8, (off_t)(PM_PFN(e) * 8)) != 8) {
			known = 0;
			break;
		}
		zero += KPF_ZERO(f);
		thp += KPF_THP(f);
	}
	known = known && pm != -1 && kf != -1;
	if (pm != -1)
		close(pm);
	if (kf != -1)
		close(kf);
	printf("%s %p %zu rss+%lld zero=%s thp=%s\n", name, (void *)p, len,
	    (long long)(after - before),
	    known ? verdict(zero, len / pagesz) : "unknown",
	    known ? verdict(thp, len / pagesz) : "unknown");
}

static void
stop(int sig)
{
	(void)sig;
}

int
main(int argc, char **argv)
{
	size_t small = 64 * 1024, hp;
	volatile char *s, *h;
	sigset_t mask, old;
	char *end;
	int c;

	pagesz = (size_t)sysconf(_SC_PAGESIZE);
	while ((c = getopt(argc, argv, "s:")) != -1) {
		switch (c) {
		case 's':
			errno = 0;
			small = (size_t)strtoll(optarg, &end, 10) * 1024;
			if (errno || end == optarg || *end != '\0' || small == 0 ||
			    small > MAXKIB * 1024 || small % pagesz != 0) {
				fprintf(stderr, "%s: -s %s: want KiB in [1, %lld], "
				    "a multiple of the page size\n", prog, optarg,
				    MAXKIB);
				exit(2);
			}
			break;
		default:
			usage();
		}
	}
	if (optind != argc)
		usage();
	/* SIGTERM waited for, not taken before the wait */
	sigemptyset(&mask);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGINT);
	signal(SIGTERM, stop);
	signal(SIGINT, stop);
	sigprocmask(SIG_BLOCK, &mask, &old);

	s = region(small, pagesz);
	/* not a huge page, whatever THP's setting (EINVAL without THP) */
	madvise((void *)s, small, MADV_NOHUGEPAGE);
	hp = (size_t)file_u64("/sys/kernel/mm/transparent_hugepage/hpage_pmd_size", "");
	h = hp > pagesz ? region(hp, hp) : NULL;
	if (h != NULL && madvise((void *)h, hp, MADV_HUGEPAGE) == -1)
		die("madvise MADV_HUGEPAGE");
	rss();	/* its buffer and stack touched before the counts */
	printf("page %zu\n", pagesz);
	readall("small", s, small);
	if (h != NULL)
		readall("huge", h, hp);
	else
		printf("huge none\n");
	printf("ready %d\n", (int)getpid());
	if (fflush(stdout) == EOF)
		die("stdout");
	sigsuspend(&old);
	return 0;
}
