/* benchwork: the benchmark's sparse, ASan, many-process and shared-file workloads. */
/*
 * benchwork - the benchmark's workloads beyond tests/work/workload.c: sparse
 * address spaces, many small processes, a large shared file, an ASan process
 *
 * usage: benchwork [-m] [-n procs] [-r reserve_mib] [-a anon_kib]
 *                  [-t stride_kib] [-f file_kib] [-c cow_kib] [-d dir]
 *
 * The parent writes a FILE_KIB file (synced, so writeback does not run
 * under the timings) and maps it shared without touching it, writes COW_KIB
 * of private anonymous memory, then forks PROCS children. Each child
 *	reads every page of the file and of the cow memory: both stay shared
 *	reserves RESERVE_MIB of address space: PROT_NONE, MAP_NORESERVE, never
 *				populated
 *	writes one byte every STRIDE_KIB of ANON_KIB of its own anonymous
 *				memory, with THP off there so that only the
 *				pages written are populated
 * With -m the anonymous memory comes from malloc in 64 KiB blocks instead
 * of one mmap, so that an ASan build puts its allocator and shadow to use.
 * With -n 0 the parent sets itself up as a child would and forks nothing.
 * Once every process is set up the parent prints "file PATH" (with -f) and
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
#include <unistd.h>

#define MAXPROCS	4096
#define MAXKIB		(16LL * 1024 * 1024)	/* 16 GiB per region */
#define MAXRESMIB	(64LL * 1024 * 1024)	/* 64 TiB of reservation */
#define BLOCK		(64 * 1024)		/* -m: bytes per malloc */

struct shape {
	const char	*file;		/* the parent's file mapping, or NULL */
	size_t		 flen;
	char		*cow;		/* the parent's written anon, or NULL */
	size_t		 clen;
	size_t		 rlen;		/* PROT_NONE reservation */
	size_t		 alen;		/* own anonymous memory */
	size_t		 stride;	/* bytes between writes in it */
	int		 use_malloc;
};

static const char	*prog = "benchwork";
static char		 path[PATH_MAX];	/* file to unlink, if any */
static pid_t		*kids;
static int		 nkids;
static size_t		 pagesz;
static void		*blocks;	/* -m: the blocks, linked through */

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
	fprintf(stderr, "usage: %s [-m] [-n procs] [-r reserve_mib] "
	    "[-a anon_kib] [-t stride_kib] [-f file_kib] [-c cow_kib] "
	    "[-d dir]\n", prog);
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
		fprintf(stderr, "%s: -%c %s: want an integer in [%lld, %lld]",
		    prog, opt, s, lo, hi);
		if (mult > 1)
			fprintf(stderr, ", a multiple of %lld", mult);
		fprintf(stderr, "\n");
		exit(2);
	}
	return v;
}

/* Write len bytes of non-zero data so every page is real page cache. */
static void
fill(int fd, size_t len)
{
	static unsigned char buf[1024 * 1024];
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

static char *
mkfile(const char *dir, size_t len)
{
	char *p;
	int fd;

	if (snprintf(path, sizeof(path), "%s/benchwork.XXXXXX", dir) >=
	    (int)sizeof(path)) {
		path[0] = '\0';
		errno = ENAMETOOLONG;
		die("-d %s", dir);
	}
	if ((fd = mkstemp(path)) == -1) {
		path[0] = '\0';	/* nothing to unlink */
		die("mkstemp %s/benchwork.XXXXXX", dir);
	}
	fill(fd, len);
	if (fdatasync(fd) == -1)
		die("fdatasync %s", path);
	p = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		die("mmap %s", path);
	if (close(fd) == -1)
		die("close %s", path);
	return p;
}

/* Private anonymous memory, each page written with a distinct word. */
static char *
cowmem(size_t len)
{
	char *p;
	size_t i;

	p = mmap(NULL, len, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		die("mmap %zu bytes", len);
	for (i = 0; i < len / pagesz; i++)
		*(uint64_t *)(p + i * pagesz) = i + 1;
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
				die("malloc");
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
		die("mmap %zu bytes", s->alen);
	/* A huge page would populate the whole 2 MiB around each write. */
	if (madvise(p, s->alen, MADV_NOHUGEPAGE) == -1 && errno != EINVAL)
		die("madvise MADV_NOHUGEPAGE");
	touch(p, s->alen, s->stride);
}

/* Everything a process holds, file and cow read so they stay shared. */
static void
setup(const struct shape *s)
{
	volatile unsigned long sum = 0;
	size_t i;

	for (i = 0; i < s->flen; i += pagesz)
		sum += (unsigned char)s->file[i];
	for (i = 0; i < s->clen; i += pagesz)
		sum += (unsigned char)s->cow[i];
	if (s->rlen > 0 && mmap(NULL, s->rlen, PROT_NONE,
	    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0) == MAP_FAILED)
		die("mmap %zu bytes PROT_NONE", s->rlen);
	own(s);
}

static void __attribute__((noreturn))
child(pid_t ppid, int wfd, const struct shape *s)
{
	sigset_t none;

	/* Die with the parent, even if it went before prctl took effect. */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) == -1)
		die("prctl");
	if (getppid() != ppid)
		_exit(1);
	sigemptyset(&none);
	if (sigprocmask(SIG_SETMASK, &none, NULL) == -1)
		die("sigprocmask");
	setup(s);
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
spawn(int n, const struct shape *s)
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
			die("fork (child %d of %d)", nkids + 1, n);
		if (pid == 0) {
			nkids = 0;	/* the parent's to kill, not ours */
			path[0] = '\0';
			if (close(fds[0]) == -1)
				die("close");
			child(ppid, fds[1], s);
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

	if (path[0] != '\0')
		printf("file %s\n", path);
	printf("ready %d", (int)getpid());
	for (i = 0; i < nkids; i++)
		printf(" %d", (int)kids[i]);
	printf("\n");
	if (fflush(stdout) == EOF || ferror(stdout))
		die("stdout");
}

int
main(int argc, char **argv)
{
	struct shape s = { 0 };
	long long n = 1, fkib = 0, ckib = 0, akib = 0, rmib = 0, tkib, pk;
	const char *dir = "/tmp";
	sigset_t set;
	long ps;
	int ch, sig;

	if ((ps = sysconf(_SC_PAGESIZE)) == -1)
		die("sysconf");
	pagesz = ps;
	pk = ps / 1024;
	tkib = pk;
	while ((ch = getopt(argc, argv, "mn:r:a:t:f:c:d:")) != -1) {
		switch (ch) {
		case 'm': s.use_malloc = 1; break;
		case 'n': n = num(optarg, ch, 0, MAXPROCS, 1); break;
		case 'r': rmib = num(optarg, ch, 0, MAXRESMIB, 1); break;
		case 'a': akib = num(optarg, ch, 0, MAXKIB, pk); break;
		case 't': tkib = num(optarg, ch, pk, MAXKIB, pk); break;
		case 'f': fkib = num(optarg, ch, 0, MAXKIB, pk); break;
		case 'c': ckib = num(optarg, ch, 0, MAXKIB, pk); break;
		case 'd': dir = optarg; break;
		default: usage();
		}
	}
	if (optind != argc)
		usage();
	if ((unsigned long long)rmib > SIZE_MAX >> 20) {
		fprintf(stderr, "%s: -r %lld: more than this address space\n",
		    prog, rmib);
		exit(2);
	}
	if (s.use_malloc && akib % (BLOCK / 1024) != 0) {
		fprintf(stderr, "%s: -m: -a %lld is not a multiple of %d "
		    "(the malloc block, KiB)\n", prog, akib, BLOCK / 1024);
		exit(2);
	}
	s.flen = fkib * 1024;
	s.clen = ckib * 1024;
	s.rlen = (size_t)rmib << 20;
	s.alen = akib * 1024;
	s.stride = tkib * 1024;

	/* Block the stop signals now so one arriving during setup waits. */
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	if (sigprocmask(SIG_BLOCK, &set, NULL) == -1)
		die("sigprocmask");
	if ((kids = calloc(n + 1, sizeof(*kids))) == NULL)
		die("calloc");

	if (s.flen > 0)
		s.file = mkfile(dir, s.flen);
	if (s.clen > 0)
		s.cow = cowmem(s.clen);
	if (n == 0)
		setup(&s);
	else
		spawn(n, &s);
	report();

	while (sigwait(&set, &sig) != 0)
		;
	cleanup();
	return 0;
}
