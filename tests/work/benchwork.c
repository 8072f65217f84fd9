/* benchwork: the benchmark's sparse, ASan, many-process and shared-file workloads. */
/*
 * benchwork - the benchmark's workloads beyond tests/work/workload.c: sparse
 * address spaces, many small processes, a large shared file, an ASan process
 *
 * usage: benchwork [-mHT] [-n procs] [-r reserve_mib] [-a anon_kib]
 *                  [-t stride_kib] [-f file_kib] [-c cow_kib] [-w cow_stride]
 *                  [-d dir]
 *
 * The parent writes a FILE_KIB file (synced, so writeback does not run
 * under the timings) and maps it shared without touching it, writes COW_KIB
 * of private anonymous memory, then forks PROCS children. Each child
 *	reads every page of the file and of the cow memory: both stay shared
 *	writes one page in COW_STRIDE of the cow memory (-w), child k
 *				from page (k - 1) * COW_STRIDE / PROCS on:
 *				copies of its own, no two children's alike
 *	reserves RESERVE_MIB of address space: PROT_NONE, MAP_NORESERVE, never
 *				populated
 *	writes one byte every STRIDE_KIB of ANON_KIB of its own anonymous
 *				memory, with THP off there so that only the
 *				pages written are populated
 * With -m the anonymous memory comes from malloc in 64 KiB blocks instead
 * of one mmap, so that an ASan build puts its allocator and shadow to use.
 * With -H the file comes in PMD-size folios where the kernel makes them:
 * it is written in pieces of the PMD size, its cache dropped after the
 * sync and read again through a mapping the kernel is asked to map with
 * PMDs (MADV_HUGEPAGE: read-ahead then fills PMD-size folios, on ext4 and
 * xfs). With -T the cow memory is transparent huge pages: aligned to the
 * PMD size and MADV_HUGEPAGE, so that a child's write splits one huge
 * page's mapping in that child alone. Whether either worked is the
 * kernel's to say (smaps: FilePmdMapped, AnonHugePages).
 * With -n 0 the parent sets itself up as a child would and forks nothing.
 * Once every process is set up the parent prints "file PATH" (with -f) and
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
#include <string.h>
#include <unistd.h>

#include "wl.h"

#define MAXPROCS	4096
#define MAXKIB		(16LL * 1024 * 1024)	/* 16 GiB per region */
#define MAXRESMIB	(64LL * 1024 * 1024)	/* 64 TiB of reservation */
#define BLOCK		(64 * 1024)		/* -m: bytes per malloc */
#define MAXSTRIDE	(1LL << 30)		/* -w: pages */
#define USAGE		"[-mHT] [-n procs] [-r reserve_mib] [-a anon_kib] " \
			"[-t stride_kib] [-f file_kib] [-c cow_kib] " \
			"[-w cow_stride] [-d dir]"

struct shape {
	const char	*file;		/* the parent's file mapping, or NULL */
	size_t		 flen;
	char		*cow;		/* the parent's written anon, or NULL */
	size_t		 clen;
	size_t		 rlen;		/* PROT_NONE reservation */
	size_t		 alen;		/* own anonymous memory */
	size_t		 stride;	/* bytes between writes in it */
	size_t		 cstride;	/* pages between a child's cow writes */
	int		 nproc;
	int		 use_malloc;
};

static void		*blocks;	/* -m: the blocks, linked through */

/* The PMD size: what a huge page of THP is here. */
static size_t
pmdsize(void)
{
	unsigned long long v;
	FILE *f;

	f = fopen("/sys/kernel/mm/transparent_hugepage/hpage_pmd_size", "r");
	if (f == NULL)
		wl_die("-H, -T: no transparent huge pages here: "
		    "/sys/kernel/mm/transparent_hugepage/hpage_pmd_size");
	if (fscanf(f, "%llu", &v) != 1 || v < wl_pagesz || v & (v - 1)) {
		errno = EINVAL;
		wl_die("hpage_pmd_size: not a power of two of pages");
	}
	fclose(f);
	return v;
}

/* The file of len bytes, in PMD-size folios where the kernel makes them. */
static char *
hugefile(const char *dir, size_t len, unsigned char *buf, size_t bufsz)
{
	size_t hp = pmdsize();
	char *p;
	int fd;

	if (hp > bufsz) {
		errno = EFBIG;
		wl_die("-H: a PMD of %zu bytes is more than the %zu written "
		    "at once", hp, bufsz);
	}
	p = wl_file(dir, len, buf, hp, 1);
	if ((fd = open(wl_path, O_RDONLY)) == -1)
		wl_die("open %s", wl_path);
	if ((errno = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED)) != 0)
		wl_die("posix_fadvise %s", wl_path);
	close(fd);
	if (madvise((void *)p, len, MADV_HUGEPAGE) == -1)
		wl_die("madvise MADV_HUGEPAGE %s", wl_path);
	return p;
}

/* Private anonymous memory, each page written with a distinct word; with
 * thp, in transparent huge pages where the kernel makes them. */
static char *
cowmem(size_t len, int thp)
{
	char *p;
	size_t i;

	if (thp) {
		p = wl_anon(len, pmdsize(), PROT_READ | PROT_WRITE);
		if (madvise(p, len, MADV_HUGEPAGE) == -1)
			wl_die("madvise MADV_HUGEPAGE");
	} else {
		p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			wl_die("mmap %zu bytes", len);
	}
	for (i = 0; i < len / wl_pagesz; i++)
		wl_tag(p, i, i + 1);
	return p;
}

/* One byte every stride of [p, p + len), counted from p. */
static void
touch(char *p, size_t len, size_t stride)
{
	size_t off;

	for (off = 0; off < len; off += stride)
		p[off] = 1;
}

/* The anonymous memory of one process, written at the stride. */
static void
own(const struct shape *s)
{
	size_t done;
	char *p;

	if (s->alen == 0)
		return;
	if (s->use_malloc) {
		for (done = 0; done < s->alen; done += BLOCK) {
			if ((p = malloc(BLOCK)) == NULL)
				wl_die("malloc");
			touch(p, BLOCK, s->stride);
			/* Still reachable at exit: no leak report from ASan. */
			memcpy(p, &blocks, sizeof(blocks));
			blocks = p;
		}
		return;
	}
	p = mmap(NULL, s->alen, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED)
		wl_die("mmap %zu bytes", s->alen);
	/* A huge page would populate the whole 2 MiB around each write. */
	if (madvise(p, s->alen, MADV_NOHUGEPAGE) == -1 && errno != EINVAL)
		wl_die("madvise MADV_NOHUGEPAGE");
	touch(p, s->alen, s->stride);
}

/* Everything a process holds, file and cow read so they stay shared. */
static void
setup(int k, void *arg)
{
	const struct shape *s = arg;
	size_t i;

	wl_touch(s->file, s->flen);
	wl_touch(s->cow, s->clen);
	if (s->cstride > 0)
		for (i = (size_t)(k > 0 ? k - 1 : 0) * s->cstride / s->nproc;
		    i < s->clen / wl_pagesz; i += s->cstride)
			wl_tag(s->cow, i, ~(uint64_t)i);
	if (s->rlen > 0 && mmap(NULL, s->rlen, PROT_NONE,
	    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0) == MAP_FAILED)
		wl_die("mmap %zu bytes PROT_NONE", s->rlen);
	own(s);
}

int
main(int argc, char **argv)
{
	static char path[PATH_MAX];		/* the file's, to unlink */
	static unsigned char buf[4 << 20];	/* the file's data, written */
	struct shape s = { 0 };
	long long n = 1, fkib = 0, ckib = 0, akib = 0, rmib = 0, tkib, pk;
	const char *dir = "/tmp";
	sigset_t stop;
	int ch, hfile = 0, thp = 0;

	wl_init("benchwork");
	wl_path = path;
	pk = wl_pagesz / 1024;
	tkib = pk;
	while ((ch = getopt(argc, argv, "mHTn:r:a:t:f:c:w:d:")) != -1) {
		switch (ch) {
		case 'm': s.use_malloc = 1; break;
		case 'H': hfile = 1; break;
		case 'T': thp = 1; break;
		case 'n': n = wl_num(optarg, ch, 0, MAXPROCS, 1); break;
		case 'r': rmib = wl_num(optarg, ch, 0, MAXRESMIB, 1); break;
		case 'a': akib = wl_num(optarg, ch, 0, MAXKIB, pk); break;
		case 't': tkib = wl_num(optarg, ch, pk, MAXKIB, pk); break;
		case 'f': fkib = wl_num(optarg, ch, 0, MAXKIB, pk); break;
		case 'c': ckib = wl_num(optarg, ch, 0, MAXKIB, pk); break;
		case 'w': s.cstride = wl_num(optarg, ch, 1, MAXSTRIDE, 1); break;
		case 'd': dir = optarg; break;
		default: wl_usage(USAGE);
		}
	}
	if (optind != argc)
		wl_usage(USAGE);
	if ((unsigned long long)rmib > SIZE_MAX >> 20) {
		fprintf(stderr, "%s: -r %lld: more than this address space\n",
		    wl_prog, rmib);
		exit(2);
	}
	if (s.use_malloc && akib % (BLOCK / 1024) != 0) {
		fprintf(stderr, "%s: -m: -a %lld is not a multiple of %d "
		    "(the malloc block, KiB)\n", wl_prog, akib, BLOCK / 1024);
		exit(2);
	}
	s.flen = fkib * 1024;
	s.clen = ckib * 1024;
	s.rlen = (size_t)rmib << 20;
	s.alen = akib * 1024;
	s.stride = tkib * 1024;
	s.nproc = n > 0 ? n : 1;

	wl_block(&stop);
	if ((wl_kids = calloc(n + 1, sizeof(*wl_kids))) == NULL)
		wl_die("calloc");
	if (s.flen > 0 && hfile)
		s.file = hugefile(dir, s.flen, buf, sizeof(buf));
	else if (s.flen > 0)
		s.file = wl_file(dir, s.flen, buf, 1024 * 1024, 1);
	if (s.clen > 0)
		s.cow = cowmem(s.clen, thp);
	if (n == 0)
		setup(0, &s);
	else
		wl_spawn(n, setup, &s);
	if (path[0] != '\0')
		printf("file %s\n", path);
	wl_ready();
	wl_wait(&stop);
	return 0;
}
