/* thpwork: large folios mapped in part after copy-on-write. */
/*
 * thpwork - large folios mapped in part after copy-on-write
 *
 * usage: thpwork [-H] [-n CHILDREN] [-s SIZE_KIB] [-a ALIGN_KIB]
 *                [-o OFFSET_KIB] [-r STRIDE] [-D DROP_KIB] [-O PAGEOUT_KIB]
 *                [-F DIR]
 *
 * The parent maps SIZE_KIB of private anonymous memory starting OFFSET_KIB
 * past an ALIGN_KIB boundary (-H: MADV_HUGEPAGE on it), writes every page,
 * so that the kernel fills it with the large folios its THP settings allow,
 * asks the kernel to page out PAGEOUT_KIB of it from one page past its
 * middle (-O: MADV_PAGEOUT; to swap, where swap is on: whole folios, and
 * the parts of those the range cuts), then forks CHILDREN children and
 * never touches the region again. Child k
 * (1..N) drops DROP_KIB (MADV_DONTNEED) at k / (N + 1) of the region, a
 * place no other child drops, then rewrites every page i outside that
 * range with i % STRIDE == k - 1. Each child so maps every large folio in
 * part: a copy-on-write replaces one page of it, or a drop unmaps some of
 * it, while the parent (untouched since the fork) maps them all whole.
 * With -F the region is a file's instead, written in DIR and mapped private
 * there: the parent reads every page (its folios are the page cache's: in
 * PMD-size folios on a tmpfs mounted huge=always), and a child's rewrite is
 * a copy of its own. The file is removed at the end.
 * Once every child is ready the parent prints
 *	region SIZE_BYTES
 *	folios KIB:COUNT...	(the folios that back the parent's region,
 *				by size, from pagemap and kpageflags)
 *	swapped BYTES		(of the region, in swap: pagemap)
 *	child PID DROPPED_BYTES REWRITTEN_BYTES	(one line a child)
 *	ready PARENT_PID CHILD_PID...
 * on stdout and waits for SIGTERM or SIGINT; then it kills the children and
 * exits 0.
 */
#include <sys/mman.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "wl.h"

#define MAXCHILD	64
#define MAXORDER	20	/* folios up to 2^20 pages (16 GiB at 16 KiB) */
#define MAXKIB		(1024LL * 1024)	/* 1 GiB, whole in a 32-bit size_t */
#define USAGE		"[-H] [-n children] [-s size_kib] [-a align_kib] " \
			"[-o offset_kib] [-r stride] [-D drop_kib] [-O pageout_kib] " \
			"[-F dir]"
#ifndef MADV_PAGEOUT
#define MADV_PAGEOUT	21	/* Linux 5.4; older C libraries lack it */
#endif
#define PM_SWAPPED(e)	((e) >> 62 & 1)

/* The region the parent wrote, and how the children cut it. */
static char		*p;
static size_t		 len, drop;
static size_t		 stride = 16;	/* -r */
static int		 n = 4;		/* -n */
static pid_t		 kids[MAXCHILD];

static uint64_t
read64(int fd, uint64_t index, const char *name)
{
	uint64_t v;

	if (wl_entry(fd, index, &v) == -1)
		wl_die("%s: read entry %llu", name, (unsigned long long)index);
	return v;
}

/* Print the region's folios by size: a folio is a page followed by its
 * compound tails, mapped here in order, as a fault leaves it (the parent
 * never writes after the fork); a page not followed by tails is one page.
 * A page in swap ends a folio, and is counted apart. */
static void
folios(void)
{
	uint64_t count[MAXORDER + 1] = { 0 }, e, f, pfn = 0;
	size_t i, run = 0, o, npages = len / wl_pagesz, swapped = 0;
	int pm, kf;

	if ((pm = open("/proc/self/pagemap", O_RDONLY)) == -1)
		wl_die("/proc/self/pagemap");
	if ((kf = open("/proc/kpageflags", O_RDONLY)) == -1)
		wl_die("/proc/kpageflags");
	for (i = 0; i <= npages; i++) {
		int out = 0;

		f = 0;
		if (i < npages) {
			e = read64(pm, (uintptr_t)p / wl_pagesz + i, "pagemap");
			if (!PM_PRESENT(e) && PM_SWAPPED(e)) {
				swapped++;
				out = 1;
			} else {
				if (!PM_PRESENT(e) || PM_PFN(e) == 0) {
					errno = EPERM;
					wl_die("page %zu: no pfn (not root?)", i);
				}
				f = read64(kf, PM_PFN(e), "kpageflags");
				if (run && KPF_TAIL(f) && PM_PFN(e) == pfn + run) {
					run++;
					continue;
				}
				pfn = PM_PFN(e);
			}
		}
		/* A run ends: count it when it is a whole power of two. */
		for (o = 0; run && o <= MAXORDER && (size_t)1 << o != run; o++)
			;
		if (run && o > MAXORDER) {
			errno = ERANGE;
			wl_die("page %zu: a folio of %zu pages", i - run, run);
		}
		if (run)
			count[o]++;
		run = i < npages && !out ? 1 : 0;
		if (run && KPF_TAIL(f)) {
			errno = EINVAL;
			wl_die("page %zu: a folio's tail without its head", i);
		}
	}
	close(pm);
	close(kf);
	printf("folios");
	for (o = 0; o <= MAXORDER; o++)
		if (count[o])
			printf(" %zu:%llu", (wl_pagesz << o) / 1024,
			    (unsigned long long)count[o]);
	printf("\nswapped %zu\n", swapped * wl_pagesz);
}

/* Child k's drop, pages [*d0, *d1), and the bytes it rewrites outside it. */
static size_t
plan(int k, size_t *d0, size_t *d1)
{
	size_t i, bytes = 0, npages = len / wl_pagesz;

	*d0 = npages * k / (n + 1);
	*d1 = *d0 + drop / wl_pagesz;
	for (i = (size_t)k - 1; i < npages; i += stride)
		if (i < *d0 || i >= *d1)
			bytes += wl_pagesz;
	return bytes;
}

static void
child(int k, void *arg)
{
	size_t i, d0, d1;

	(void)arg;
	plan(k, &d0, &d1);
	if (drop && madvise(p + d0 * wl_pagesz, drop, MADV_DONTNEED) == -1)
		wl_die("madvise MADV_DONTNEED");
	for (i = (size_t)k - 1; i < len / wl_pagesz; i += stride)
		if (i < d0 || i >= d1)	/* flip the bits: a true copy */
			wl_tag(p, i, ~*(uint64_t *)(p + i * wl_pagesz));
}

int
main(int argc, char **argv)
{
	long long skib = 96 * 1024, akib = 0, okib = 0, dkib = 0, pkib = 0, pk;
	static char path[PATH_MAX];		/* -F: the file's, to unlink */
	static unsigned char buf[1 << 20];	/* -F: its data, written */
	size_t align, off, i, d0, d1;
	int ch, fd, huge = 0;
	const char *dir = NULL;
	uintptr_t base;
	sigset_t stop;
	char *raw;

	wl_init("thpwork");
	wl_kids = kids;
	wl_path = path;
	pk = wl_pagesz / 1024;
	while ((ch = getopt(argc, argv, "Hn:s:a:o:r:D:O:F:")) != -1) {
		switch (ch) {
		case 'H': huge = 1; break;
		case 'n': n = wl_num(optarg, ch, 1, MAXCHILD, 1); break;
		case 's': skib = wl_num(optarg, ch, pk, MAXKIB, pk); break;
		case 'a': akib = wl_num(optarg, ch, 0, MAXKIB, pk); break;
		case 'o': okib = wl_num(optarg, ch, 0, MAXKIB, pk); break;
		case 'r': stride = wl_num(optarg, ch, 1, MAXKIB, 1); break;
		case 'D': dkib = wl_num(optarg, ch, 0, MAXKIB, pk); break;
		case 'O': pkib = wl_num(optarg, ch, 0, MAXKIB, pk); break;
		case 'F': dir = optarg; break;
		default: wl_usage(USAGE);
		}
	}
	if (optind != argc)
		wl_usage(USAGE);
	len = skib * 1024, align = akib ? (size_t)akib * 1024 : wl_pagesz;
	off = okib * 1024, drop = dkib * 1024;
	if ((size_t)n > stride) {
		fprintf(stderr, "%s: -n %d: more children than the stride "
		    "(-r %zu): two would rewrite the same pages\n", wl_prog, n,
		    stride);
		exit(2);
	}
	if (dkib > skib / (n + 1)) {
		fprintf(stderr, "%s: -D %lld: the children's drops would overlap "
		    "(at most %lld KiB for -s %lld -n %d)\n", wl_prog, dkib,
		    skib / (n + 1), skib, n);
		exit(2);
	}

	if (pkib > skib / 2 - pk) {
		fprintf(stderr, "%s: -O %lld: more than the region's second half "
		    "(at most %lld KiB for -s %lld)\n", wl_prog, pkib, skib / 2 - pk,
		    skib);
		exit(2);
	}

	wl_block(&stop);
	/* PROT_NONE around the region: it stays one mapping of exactly len. */
	raw = mmap(NULL, len + off + align + 2 * wl_pagesz, PROT_NONE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (raw == MAP_FAILED)
		wl_die("mmap %zu bytes", len + off + align + 2 * wl_pagesz);
	base = ((uintptr_t)raw + wl_pagesz + align - 1) / align * align;
	p = (char *)(base + off);
	if (dir) {
		fd = wl_mkfile(dir, len, buf, sizeof(buf), 0);
		if (mmap(p, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_FIXED,
		    fd, 0) == MAP_FAILED)
			wl_die("mmap %s", wl_path);
		close(fd);
	} else if (mprotect(p, len, PROT_READ | PROT_WRITE) == -1) {
		wl_die("mprotect");
	}
	if (huge && madvise(p, len, MADV_HUGEPAGE) == -1)
		wl_die("madvise MADV_HUGEPAGE");
	if (dir)
		wl_touch(p, len);
	else
		for (i = 0; i < len / wl_pagesz; i++)
			wl_tag(p, i, i + 1);
	if (pkib && madvise(p + len / 2 + wl_pagesz, pkib * 1024, MADV_PAGEOUT) == -1)
		wl_die("madvise MADV_PAGEOUT");

	wl_spawn(n, child, NULL);
	printf("region %zu\n", len);
	folios();
	for (i = 0; i < (size_t)n; i++)
		printf("child %d %zu %zu\n", (int)wl_kids[i], drop,
		    plan(i + 1, &d0, &d1));
	wl_ready();
	wl_wait(&stop);
	return 0;
}
