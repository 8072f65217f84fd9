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
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "wl.h"

#define MAXKIB		(64LL * 1024)
#define USAGE		"[-s small_kib]"

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
		wl_die("/proc/self/smaps_rollup, statm: no resident count");
	}
	return kib ? kib * 1024 : pages * wl_pagesz;
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
	for (i = 0; i < len; i += wl_pagesz)
		sum += p[i];
	after = rss();
	if (sum != 0) {
		errno = EINVAL;
		wl_die("%s: fresh anonymous memory reads non-zero", name);
	}
	pm = open("/proc/self/pagemap", O_RDONLY);
	kf = open("/proc/kpageflags", O_RDONLY);
	for (i = 0; i < len / wl_pagesz && pm != -1 && kf != -1; i++) {
		if (wl_entry(pm, (uintptr_t)p / wl_pagesz + i, &e) == -1 ||
		    !PM_PRESENT(e) || PM_PFN(e) == 0 ||
		    wl_entry(kf, PM_PFN(e), &f) == -1) {
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
	    known ? verdict(zero, len / wl_pagesz) : "unknown",
	    known ? verdict(thp, len / wl_pagesz) : "unknown");
}

int
main(int argc, char **argv)
{
	size_t small = 64 * 1024, hp;
	volatile char *s, *h;
	sigset_t stop;
	char *end;
	int c;

	wl_init("readfault");
	while ((c = getopt(argc, argv, "s:")) != -1) {
		switch (c) {
		case 's':
			errno = 0;
			small = (size_t)strtoll(optarg, &end, 10) * 1024;
			if (errno || end == optarg || *end != '\0' || small == 0 ||
			    small > MAXKIB * 1024 || small % wl_pagesz != 0) {
				fprintf(stderr, "%s: -s %s: want KiB in [1, %lld], "
				    "a multiple of the page size\n", wl_prog, optarg,
				    MAXKIB);
				exit(2);
			}
			break;
		default:
			wl_usage(USAGE);
		}
	}
	if (optind != argc)
		wl_usage(USAGE);
	wl_block(&stop);

	s = wl_anon(small, wl_pagesz, PROT_READ | PROT_WRITE);
	/* not a huge page, whatever THP's setting (EINVAL without THP) */
	madvise((void *)s, small, MADV_NOHUGEPAGE);
	hp = (size_t)file_u64("/sys/kernel/mm/transparent_hugepage/hpage_pmd_size", "");
	h = hp > wl_pagesz ? wl_anon(hp, hp, PROT_READ | PROT_WRITE) : NULL;
	if (h != NULL && madvise((void *)h, hp, MADV_HUGEPAGE) == -1)
		wl_die("madvise MADV_HUGEPAGE");
	rss();	/* its buffer and stack touched before the counts */
	printf("page %zu\n", wl_pagesz);
	readall("small", s, small);
	if (h != NULL)
		readall("huge", h, hp);
	else
		printf("huge none\n");
	wl_ready();
	wl_wait(&stop);
	return 0;
}
