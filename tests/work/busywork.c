/* busywork: a busy machine's churn: processes that allocate much, briefly, and exit. */
/*
 * busywork - short-lived processes with large allocations, for the trend's
 * busy-machine test
 *
 * usage: busywork [-a min_mib] [-b max_mib] [-e min_ms] [-f max_ms]
 *                 [-g min_life_ms] [-h max_life_ms] [-s seed]
 *
 * From the moment it says "ready PID", it starts a child every MIN_MS to
 * MAX_MS (-e, -f: 1000 to 2000), until SIGTERM or SIGINT. Each child
 * execs this program again with a command line of its own ("busywork -c
 * SEQ MIB LIFE_MS": a compiler's way, every one a new name and command
 * line to the trend), writes MIB (-a, -b: 32 to 128) MiB of anonymous
 * memory at an even pace over LIFE_MS (-g, -h: 1000 to 4000) and exits: a
 * process seen in one to four samples a second, whose memory only rose.
 * The sizes, gaps and lives come from a fixed sequence (-s, 1), so two runs
 * churn alike. On SIGTERM the children are killed and reaped.
 */
#include <sys/mman.h>
#include <sys/wait.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "wl.h"

#define KIDS_MAX	64
#define USAGE		"[-a min_mib] [-b max_mib] [-e min_ms] [-f max_ms] " \
			"[-g min_life_ms] [-h max_life_ms] [-s seed]"

static pid_t kids[KIDS_MAX];

/* The child: MIB MiB written evenly over LIFE_MS, then exit. */
static void
brief(long long mib, long long life_ms)
{
	size_t len = (size_t)mib << 20, npage = len / wl_pagesz, done = 0;
	struct timespec t0, now, nap = { 0, 20 * 1000 * 1000 };
	char *p = wl_anon(len, wl_pagesz, PROT_READ | PROT_WRITE);
	double t;

	if (clock_gettime(CLOCK_MONOTONIC, &t0) == -1)
		wl_die("clock_gettime");
	for (;;) {
		size_t want;

		clock_gettime(CLOCK_MONOTONIC, &now);
		t = (now.tv_sec - t0.tv_sec) * 1000.0 + (now.tv_nsec - t0.tv_nsec) / 1e6;
		want = t >= life_ms ? npage : (size_t)(npage * t / life_ms) + 1;
		for (; done < want; done++)
			p[done * wl_pagesz] = 1;
		if (t >= life_ms)
			break;
		nanosleep(&nap, NULL);
	}
	_exit(0);
}

static long long
pick(unsigned *seed, long long lo, long long hi)
{
	return lo + rand_r(seed) % (hi - lo + 1);
}

/* The children that exited, reaped and their slots freed. */
static void
reap(void)
{
	pid_t pid;
	int i;

	while ((pid = waitpid(-1, NULL, WNOHANG)) > 0)
		for (i = 0; i < KIDS_MAX; i++)
			if (kids[i] == pid)
				kids[i] = 0;
}

int
main(int argc, char **argv)
{
	static char self[PATH_MAX];
	long long lo = 32, hi = 128, every = 1000, most = 2000, life0 = 1000,
	    life1 = 4000;
	unsigned seed = 1, seq = 0;
	struct timespec nap;
	sigset_t stop, none;
	siginfo_t si;
	ssize_t n;
	int ch, i;

	wl_init("busywork");
	if (argc == 5 && strcmp(argv[1], "-c") == 0)
		brief(wl_num(argv[3], 'c', 1, 1 << 20, 1),
		    wl_num(argv[4], 'c', 1, 86400000, 1));
	while ((ch = getopt(argc, argv, "a:b:e:f:g:h:s:")) != -1) {
		switch (ch) {
		case 'a': lo = wl_num(optarg, ch, 1, 1 << 20, 1); break;
		case 'b': hi = wl_num(optarg, ch, 1, 1 << 20, 1); break;
		case 'e': every = wl_num(optarg, ch, 10, 86400000, 1); break;
		case 'f': most = wl_num(optarg, ch, 10, 86400000, 1); break;
		case 'g': life0 = wl_num(optarg, ch, 10, 86400000, 1); break;
		case 'h': life1 = wl_num(optarg, ch, 10, 86400000, 1); break;
		case 's': seed = (unsigned)wl_num(optarg, ch, 0, UINT_MAX, 1); break;
		default: wl_usage(USAGE);
		}
	}
	if (optind != argc || hi < lo || most < every || life1 < life0)
		wl_usage(USAGE);
	if ((n = readlink("/proc/self/exe", self, sizeof(self) - 1)) < 0)
		wl_die("readlink /proc/self/exe");
	self[n] = '\0';
	wl_block(&stop);
	wl_ready();
	sigemptyset(&none);
	for (;;) {
		char a[16], b[16], c[16];
		long long gap = pick(&seed, every, most);
		pid_t pid;

		nap.tv_sec = gap / 1000;
		nap.tv_nsec = gap % 1000 * 1000000;
		if (sigtimedwait(&stop, &si, &nap) > 0)
			break;
		reap();
		for (i = 0; i < KIDS_MAX && kids[i]; i++)
			;
		if (i == KIDS_MAX)
			continue;	/* as many as it keeps: wait for one to end */
		snprintf(a, sizeof(a), "%u", ++seq);
		snprintf(b, sizeof(b), "%lld", pick(&seed, lo, hi));
		snprintf(c, sizeof(c), "%lld", pick(&seed, life0, life1));
		if ((pid = fork()) == -1)
			wl_die("fork");
		if (pid == 0) {
			sigprocmask(SIG_SETMASK, &none, NULL);
			execl(self, "busywork", "-c", a, b, c, (char *)NULL);
			_exit(127);
		}
		kids[i] = pid;
	}
	for (i = 0; i < KIDS_MAX; i++)
		if (kids[i])
			kill(kids[i], SIGKILL);
	while (waitpid(-1, NULL, 0) > 0 || errno == EINTR)
		;
	return 0;
}
