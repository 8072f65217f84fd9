/* afterprobe: a process that allocates right after exmap-mini's probe. */
/*
 * afterprobe - a process that allocates right after exmap-mini's probe
 *
 * usage: afterprobe [-m MIB] OUT ERR EXMAP [ARG...]
 *
 * exmap-mini learns the zero pages' frames at start by reading fresh
 * anonymous memory of its own. On a kernel that allocates on read faults
 * those are ordinary pages: were they freed, the allocator would hand them
 * at once to the next process that asks, and exmap-mini would count that
 * process's pages as "not RAM" (up to a huge page and a page). This runs
 * that race on purpose:
 *  1. it forks the allocator, which waits on a pipe;
 *  2. it runs EXMAP ARG... -p ALLOCPID (stdout to OUT, stderr to ERR) under
 *     ptrace and stops it as it first opens a path under /proc/ALLOCPID:
 *     the probe is then over (it opens only /proc/self, /sys and
 *     /proc/kpageflags) and the allocator not yet looked at;
 *  3. the allocator maps MIB (64) MiB, PMD-aligned, with MADV_HUGEPAGE,
 *     writes every page and says so;
 *  4. EXMAP runs on to its end; the allocator, idle, is then ended.
 * All three run on one CPU, whose lists of free pages the allocator then
 * draws on first. stdout:
 *	allocator PID
 *	stopped PATH		(the open EXMAP was stopped at)
 *	rss BYTES		(the allocator's Rss, from smaps_rollup or else
 *				statm, once allocated)
 *	rss BYTES		(again, after EXMAP ended)
 *	exit STATUS		(EXMAP's)
 * The test compares the allocator's resident in OUT with its rss.
 * Exit status: EXMAP's; 2 on bad usage or when the run could not be made
 * (named on stderr).
 */
#define _GNU_SOURCE
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAXARG	60
#define MAXMIB	1024
#define PATHMAX	256

static const char	*prog = "afterprobe";
static pid_t		 alloc_pid = -1, exmap_pid = -1;

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
	if (exmap_pid > 0)
		kill(exmap_pid, SIGKILL);
	if (alloc_pid > 0)
		kill(alloc_pid, SIGKILL);
	exit(2);
}

static void __attribute__((noreturn))
usage(void)
{
	fprintf(stderr, "usage: %s [-m mib] out err exmap [arg...]\n", prog);
	exit(2);
}

/* The PMD size (THP's huge page), or the page size without THP. */
static size_t
huge_size(void)
{
	size_t ps = (size_t)sysconf(_SC_PAGESIZE);
	unsigned long long v = 0;
	FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/hpage_pmd_size", "r");

	if (f != NULL) {
		if (fscanf(f, "%llu", &v) != 1)
			v = 0;
		fclose(f);
	}
	return v > ps && (v & (v - 1)) == 0 ? (size_t)v : ps;
}

/* The allocator: wait for a byte on go, map mib MiB with MADV_HUGEPAGE,
 * write every page, say so on done, then wait to be killed. */
static void __attribute__((noreturn))
allocator(int go, int done, size_t mib)
{
	size_t len = mib << 20, hp = huge_size(), ps = (size_t)sysconf(_SC_PAGESIZE), i;
	char c, *p, *a;

	if (read(go, &c, 1) != 1)
		_exit(1);
	p = mmap(NULL, len + hp, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
	    -1, 0);
	if (p == MAP_FAILED)
		_exit(1);
	a = (char *)(((uintptr_t)p + hp - 1) & ~(uintptr_t)(hp - 1));
	madvise(a, len, MADV_HUGEPAGE);	/* EINVAL without THP: pages still */
	for (i = 0; i < len; i += ps)
		a[i] = 1;
	if (write(done, &c, 1) != 1)
		_exit(1);
	for (;;)
		pause();
}

/* The allocator's Rss in bytes, as the kernel counts it. */
static unsigned long long
rss(pid_t pid)
{
	char path[64], line[256];
	unsigned long long v = 0, kib;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/smaps_rollup", (int)pid);
	if ((f = fopen(path, "r")) != NULL) {
		while (fgets(line, sizeof(line), f))
			if (sscanf(line, "Rss: %llu kB", &kib) == 1)
				v = kib * 1024;
		fclose(f);
		if (v)
			return v;
	}
	snprintf(path, sizeof(path), "/proc/%d/statm", (int)pid);
	if ((f = fopen(path, "r")) == NULL)
		die("%s", path);
	if (fscanf(f, "%*u %llu", &v) != 1) {
		errno = EIO;
		die("%s: no resident count", path);
	}
	fclose(f);
	return v * (unsigned long long)sysconf(_SC_PAGESIZE);
}

/* The NUL-terminated string at addr in the stopped tracee, cut at n - 1. */
static void
peek_string(pid_t pid, uint64_t addr, char *buf, size_t n)
{
	size_t i = 0, k;
	long w;

	while (i < n - 1) {
		errno = 0;
		w = ptrace(PTRACE_PEEKDATA, pid, (void *)(uintptr_t)(addr + i), NULL);
		if (w == -1 && errno)
			break;
		for (k = 0; k < sizeof(w) && i < n - 1; k++, i++) {
			buf[i] = ((char *)&w)[k];
			if (buf[i] == '\0')
				return;
		}
	}
	buf[i] = '\0';
}

/* The path an open or openat at its syscall-entry stop names, or NULL. */
static const char *
open_path(pid_t pid, char *buf, size_t n)
{
	struct __ptrace_syscall_info si;

	if (ptrace(PTRACE_GET_SYSCALL_INFO, pid, (void *)sizeof(si), &si) <= 0)
		die("PTRACE_GET_SYSCALL_INFO");
	if (si.op != PTRACE_SYSCALL_INFO_ENTRY)
		return NULL;
#ifdef SYS_open
	if (si.entry.nr == SYS_open) {
		peek_string(pid, si.entry.args[0], buf, n);
		return buf;
	}
#endif
	if (si.entry.nr == SYS_openat) {
		peek_string(pid, si.entry.args[1], buf, n);
		return buf;
	}
	return NULL;
}

int
main(int argc, char **argv)
{
	static char *args[MAXARG + 4], path[PATHMAX], prefix[64], pidarg[16];
	int go[2], done[2], o, e, c, status, nargs = 0, i, sig, stopped = 0;
	size_t mib = 64;
	const char *p;
	cpu_set_t one;
	char *end;

	while ((c = getopt(argc, argv, "+m:")) != -1) {
		switch (c) {
		case 'm':
			errno = 0;
			mib = (size_t)strtoul(optarg, &end, 10);
			if (errno || end == optarg || *end != '\0' || mib == 0 ||
			    mib > MAXMIB) {
				fprintf(stderr, "%s: -m %s: want MiB in [1, %d]\n",
				    prog, optarg, MAXMIB);
				exit(2);
			}
			break;
		default:
			usage();
		}
	}
	if (argc - optind < 3 || argc - optind - 2 > MAXARG)
		usage();
	for (i = optind + 2; i < argc; i++)
		args[nargs++] = argv[i];
	if ((o = open(argv[optind], O_WRONLY | O_CREAT | O_TRUNC, 0644)) == -1)
		die("%s", argv[optind]);
	if ((e = open(argv[optind + 1], O_WRONLY | O_CREAT | O_TRUNC, 0644)) == -1)
		die("%s", argv[optind + 1]);

	/* One CPU for all: its free lists are where the race is. */
	CPU_ZERO(&one);
	CPU_SET(sched_getcpu() < 0 ? 0 : sched_getcpu(), &one);
	if (sched_setaffinity(0, sizeof(one), &one) == -1)
		die("sched_setaffinity");
	if (pipe(go) == -1 || pipe(done) == -1)
		die("pipe");
	fflush(stdout);
	if ((alloc_pid = fork()) == -1)
		die("fork");
	if (alloc_pid == 0)
		allocator(go[0], done[1], mib);
	printf("allocator %d\n", (int)alloc_pid);
	snprintf(pidarg, sizeof(pidarg), "%d", (int)alloc_pid);
	snprintf(prefix, sizeof(prefix), "/proc/%d", (int)alloc_pid);
	args[nargs++] = "-p";
	args[nargs++] = pidarg;
	args[nargs] = NULL;

	fflush(stdout);
	if ((exmap_pid = fork()) == -1)
		die("fork");
	if (exmap_pid == 0) {
		if (dup2(o, 1) == -1 || dup2(e, 2) == -1 ||
		    ptrace(PTRACE_TRACEME, 0, NULL, NULL) == -1)
			_exit(127);
		execv(args[0], args);
		_exit(127);
	}
	/* stopped at the exec; then from one syscall stop to the next */
	if (waitpid(exmap_pid, &status, 0) != exmap_pid || !WIFSTOPPED(status))
		die("%s: did not start under ptrace", args[0]);
	if (ptrace(PTRACE_SETOPTIONS, exmap_pid, NULL,
	    (void *)(PTRACE_O_TRACESYSGOOD | PTRACE_O_EXITKILL)) == -1)
		die("PTRACE_SETOPTIONS");
	for (sig = 0;;) {
		if (ptrace(PTRACE_SYSCALL, exmap_pid, NULL, (void *)(intptr_t)sig) == -1)
			die("PTRACE_SYSCALL");
		sig = 0;
		if (waitpid(exmap_pid, &status, 0) != exmap_pid)
			die("waitpid");
		if (!WIFSTOPPED(status))
			break;	/* it ended before opening the allocator's files */
		if (WSTOPSIG(status) != (SIGTRAP | 0x80)) {
			sig = WSTOPSIG(status);	/* a signal for it: delivered */
			continue;
		}
		p = open_path(exmap_pid, path, sizeof(path));
		if (p != NULL && strncmp(p, prefix, strlen(prefix)) == 0 &&
		    (p[strlen(prefix)] == '/' || p[strlen(prefix)] == '\0')) {
			stopped = 1;
			break;
		}
	}
	if (!stopped) {
		errno = ESRCH;
		die("%s ended without opening %s (status 0x%x)", args[0], prefix,
		    (unsigned)status);
	}
	printf("stopped %s\n", path);
	if (write(go[1], "g", 1) != 1 || read(done[0], &c, 1) != 1)
		die("the allocator did not allocate");
	printf("rss %llu\n", rss(alloc_pid));
	if (ptrace(PTRACE_DETACH, exmap_pid, NULL, NULL) == -1)
		die("PTRACE_DETACH");
	if (waitpid(exmap_pid, &status, 0) != exmap_pid)
		die("waitpid");
	exmap_pid = -1;
	printf("rss %llu\n", rss(alloc_pid));
	kill(alloc_pid, SIGKILL);
	waitpid(alloc_pid, NULL, 0);
	status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	printf("exit %d\n", status);
	if (fflush(stdout) == EOF)
		die("stdout");
	return status;
}
