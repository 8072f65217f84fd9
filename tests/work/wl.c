/* wl.c: what the test workloads do alike: see wl.h. */
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/time.h>
#include <sys/wait.h>

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "wl.h"

const char	*wl_prog = "wl";
size_t		 wl_pagesz;
char		*wl_path;
pid_t		*wl_kids;
int		 wl_nkids;

void
wl_init(const char *prog)
{
	long ps;

	wl_prog = prog;
	if ((ps = sysconf(_SC_PAGESIZE)) == -1)
		wl_die("sysconf");
	wl_pagesz = ps;
}

void
wl_cleanup(void)
{
	int i;

	for (i = 0; i < wl_nkids; i++)
		if (kill(wl_kids[i], SIGKILL) == -1 && errno != ESRCH)
			fprintf(stderr, "%s: kill %d: %s\n", wl_prog,
			    (int)wl_kids[i], strerror(errno));
	for (i = 0; i < wl_nkids; i++)
		while (waitpid(wl_kids[i], NULL, 0) == -1)
			if (errno != EINTR) {
				fprintf(stderr, "%s: waitpid %d: %s\n", wl_prog,
				    (int)wl_kids[i], strerror(errno));
				break;
			}
	wl_nkids = 0;
	if (wl_path == NULL || wl_path[0] == '\0')
		return;
	if (unlink(wl_path) == -1)
		fprintf(stderr, "%s: unlink %s: %s\n", wl_prog, wl_path,
		    strerror(errno));
	wl_path[0] = '\0';
}

void
wl_die(const char *fmt, ...)
{
	int e = errno;
	va_list ap;

	fprintf(stderr, "%s: ", wl_prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, ": %s\n", strerror(e));
	wl_cleanup();
	exit(1);
}

void
wl_usage(const char *args)
{
	fprintf(stderr, "usage: %s %s\n", wl_prog, args);
	exit(2);
}

long long
wl_num(const char *s, char opt, long long lo, long long hi, long long mult)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno != 0 || end == s || *end != '\0' || v < lo || v > hi ||
	    v % mult != 0) {
		fprintf(stderr, "%s: -%c %s: want an integer in [%lld, %lld]"
		    "%s\n", wl_prog, opt, s, lo, hi,
		    mult > 1 ? ", a multiple of the page size in KiB" : "");
		exit(2);
	}
	return v;
}

void
wl_block(sigset_t *stop)
{
	sigemptyset(stop);
	sigaddset(stop, SIGTERM);
	sigaddset(stop, SIGINT);
	if (sigprocmask(SIG_BLOCK, stop, NULL) == -1)
		wl_die("sigprocmask");
}

void
wl_wait(const sigset_t *stop)
{
	int sig;

	while (sigwait(stop, &sig) != 0)
		;
	wl_cleanup();
}

static void __attribute__((noreturn))
child(pid_t ppid, int wfd, int k, void (*setup)(int, void *), void *arg)
{
	sigset_t none;

	/* Die with the parent, even if it went before prctl took effect. */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) == -1)
		wl_die("prctl");
	if (getppid() != ppid)
		_exit(1);
	sigemptyset(&none);
	if (sigprocmask(SIG_SETMASK, &none, NULL) == -1)
		wl_die("sigprocmask");
	setup(k, arg);
	/* Closing our end lets the parent see EOF once every child is done. */
	while (write(wfd, "r", 1) == -1)
		if (errno != EINTR)
			wl_die("write ready");
	if (close(wfd) == -1)
		wl_die("close");
	for (;;)
		pause();
}

/* Each child says "r" on the pipe when it is set up. */
void
wl_spawn(int n, void (*setup)(int k, void *arg), void *arg)
{
	pid_t ppid = getpid(), pid;
	int fds[2], got = 0;
	ssize_t r;
	char c;

	if (pipe(fds) == -1)
		wl_die("pipe");
	if (fflush(stdout) == EOF)
		wl_die("stdout");
	while (wl_nkids < n) {
		if ((pid = fork()) == -1)
			wl_die("fork (child %d of %d)", wl_nkids + 1, n);
		if (pid == 0) {
			int k = wl_nkids + 1;

			wl_nkids = 0;	/* the parent's to kill, not ours */
			if (wl_path != NULL)
				wl_path[0] = '\0';
			if (close(fds[0]) == -1)
				wl_die("close");
			child(ppid, fds[1], k, setup, arg);
		}
		wl_kids[wl_nkids++] = pid;
	}
	if (close(fds[1]) == -1)
		wl_die("close");
	while (got < n) {
		r = read(fds[0], &c, 1);
		if (r == -1 && errno == EINTR)
			continue;
		if (r == -1)
			wl_die("read ready");
		if (r == 0) {
			fprintf(stderr, "%s: %d of %d children died before "
			    "ready\n", wl_prog, n - got, n);
			wl_cleanup();
			exit(1);
		}
		got++;
	}
	if (close(fds[0]) == -1)
		wl_die("close");
}

void
wl_ready(void)
{
	int i;

	printf("ready %d", (int)getpid());
	for (i = 0; i < wl_nkids; i++)
		printf(" %d", (int)wl_kids[i]);
	printf("\n");
	if (fflush(stdout) == EOF || ferror(stdout))
		wl_die("stdout");
}

char *
wl_anon(size_t len, size_t align, int prot)
{
	char *p, *a;

	if (len == 0)
		return NULL;
	p = mmap(NULL, len + align + wl_pagesz, PROT_NONE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		wl_die("mmap %zu bytes", len + align + wl_pagesz);
	a = (char *)(((uintptr_t)p + wl_pagesz + align - 1) &
	    ~(uintptr_t)(align - 1));
	if (mprotect(a, len, prot) == -1)
		wl_die("mprotect");
	return a;
}

static void
fill(int fd, size_t len, unsigned char *buf, size_t bufsz)
{
	size_t i, n;
	ssize_t w;

	for (i = 0; i < bufsz; i++)
		buf[i] = i % 251 + 1;
	while (len > 0) {
		n = len < bufsz ? len : bufsz;
		w = write(fd, buf, n);
		if (w == -1 && errno == EINTR)
			continue;
		if (w == -1)
			wl_die("write %s", wl_path);
		len -= w;
	}
}

/* A new file DIR/PROG.XXXXXX, its path in wl_path: its fd. */
static int
temp_file(const char *dir)
{
	int fd;

	if (snprintf(wl_path, PATH_MAX, "%s/%s.XXXXXX", dir, wl_prog) >=
	    PATH_MAX) {
		wl_path[0] = '\0';
		errno = ENAMETOOLONG;
		wl_die("-d %s", dir);
	}
	if ((fd = mkstemp(wl_path)) == -1) {
		wl_path[0] = '\0';	/* nothing to unlink */
		wl_die("mkstemp %s/%s.XXXXXX", dir, wl_prog);
	}
	return fd;
}

char *
wl_file(const char *dir, size_t len, unsigned char *buf, size_t bufsz,
    int sync)
{
	char *p;
	int fd = temp_file(dir);

	fill(fd, len, buf, bufsz);
	if (sync && fdatasync(fd) == -1)
		wl_die("fdatasync %s", wl_path);
	p = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		wl_die("mmap %s", wl_path);
	if (close(fd) == -1)
		wl_die("close %s", wl_path);
	return p;
}

void
wl_tag(char *p, size_t i, uint64_t v)
{
	*(uint64_t *)(p + i * wl_pagesz) = v;
}

unsigned long
wl_touch(const char *p, size_t len)
{
	const volatile unsigned char *q = (const volatile unsigned char *)p;
	unsigned long sum = 0;
	size_t i;

	for (i = 0; i < len; i += wl_pagesz)
		sum += q[i];
	return sum;
}

int
wl_entry(int fd, uint64_t index, uint64_t *v)
{
	if (pread(fd, v, sizeof(*v), (off_t)(index * sizeof(*v))) !=
	    (ssize_t)sizeof(*v))
		return -1;
	return 0;
}

/* wl_pace's region and schedule, for its signal handler. */
static struct {
	char		*p;
	size_t		 npage, done;
	double		 rate;
	long long	 period_ms, cycle;
	struct timespec	 t0;
} pace;

static void
pace_tick(int sig)
{
	struct timespec now;
	double t;
	size_t want;
	long long cycle = 0;
	int e = errno;

	(void)sig;
	clock_gettime(CLOCK_MONOTONIC, &now);
	t = (now.tv_sec - pace.t0.tv_sec) + (now.tv_nsec - pace.t0.tv_nsec) / 1e9;
	if (pace.period_ms) {
		cycle = (long long)(t * 1000) / pace.period_ms;
		t -= cycle * pace.period_ms / 1000.0;
	}
	if (cycle != pace.cycle) {
		madvise(pace.p, pace.done * wl_pagesz, MADV_DONTNEED);
		pace.done = 0;
		pace.cycle = cycle;
	}
	want = (size_t)(pace.rate * t / wl_pagesz) + 1;
	if (want > pace.npage)
		want = pace.npage;
	for (; pace.done < want; pace.done++)
		pace.p[pace.done * wl_pagesz] = 1;
	errno = e;
}

void
wl_pace(char *p, size_t len, double rate, long long period_ms)
{
	struct itimerval it = { { 0, 10000 }, { 0, 10000 } };
	struct sigaction sa;

	pace.p = p;
	pace.npage = len / wl_pagesz;
	pace.done = 0;
	pace.rate = rate;
	pace.period_ms = period_ms;
	pace.cycle = 0;
	if (clock_gettime(CLOCK_MONOTONIC, &pace.t0) == -1)
		wl_die("clock_gettime");
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = pace_tick;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGALRM, &sa, NULL) == -1)
		wl_die("sigaction SIGALRM");
	pace_tick(SIGALRM);
	if (setitimer(ITIMER_REAL, &it, NULL) == -1)
		wl_die("setitimer");
}

char *
wl_sparse_file(const char *dir, size_t len)
{
	char *p;
	int fd = temp_file(dir);

	if (ftruncate(fd, (off_t)len) == -1)
		wl_die("ftruncate %s", wl_path);
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		wl_die("mmap %s", wl_path);
	if (close(fd) == -1)
		wl_die("close %s", wl_path);
	return p;
}
