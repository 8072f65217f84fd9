/* The sanitizer build's command line served to many runs: one start-up, a fork each. */
/*
 * tests/suites/capture_corrupt.sh loads tens of thousands of damaged
 * captures through the sanitizer build, and each exec of it spent most of
 * its time starting ASan (its shadow, its globals' redzones, relocations),
 * not loading. This is the same objects, main renamed xm_main (objcopy,
 * tests/mk/capfuzz.mk), started once: each request forks a child that is a
 * run of the command line as exec would make it. Its stdin is /dev/null, its
 * stdout and stderr the files named, and it ends by exit(xm_main()), so a
 * sanitizer report, a signal or an exit code is its own.
 *
 * A request is one line on stdin, fields split by tabs:
 *	OUT ERR ARGV0 ARG...
 * and its answer one line on stdout:
 *	exit N | signal N | timeout | rss KIB
 * timeout: no exit within SERVE_SECONDS (killed); rss: the child's RSS rose
 * past SERVE_RSS_MIB (killed, or seen at its exit in its peak), as ASan's
 * hard_rss_limit_mb would stop an exec'd run (that check is a thread, and a
 * fork has none).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define SERVE_SECONDS	60
#define SERVE_RSS_MIB	512
#define SERVE_LINE	8192
#define SERVE_ARGS	64

int xm_main(int argc, char **argv);

static char line[SERVE_LINE];
static char *args[SERVE_ARGS + 1];

static void die(const char *what)
{
	dprintf(2, "sanserve: %s: %s\n", what, strerror(errno));
	exit(2);
}

/* a line from fd 0 into line, without its newline; 0 at the end of input */
static int get_line(void)
{
	static char buf[SERVE_LINE];
	static size_t have;
	char *nl;
	ssize_t n;

	while (!(nl = memchr(buf, '\n', have))) {
		if (have == sizeof(buf)) {
			errno = E2BIG;
			die("a request longer than SERVE_LINE");
		}
		n = read(0, buf + have, sizeof(buf) - have);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			die("reading a request");
		if (n == 0)
			return 0;
		have += (size_t)n;
	}
	*nl = 0;
	memcpy(line, buf, (size_t)(nl - buf) + 1);
	have -= (size_t)(nl - buf) + 1;
	memmove(buf, nl + 1, have);
	return 1;
}

static void answer(const char *fmt, long n)
{
	char a[64];
	int len = snprintf(a, sizeof(a), fmt, n);

	if (write(1, a, (size_t)len) != len)
		die("answering");
}

static void child(int argc)
{
	int in = open("/dev/null", O_RDONLY);
	int out = open(args[0], O_WRONLY | O_CREAT | O_TRUNC, 0644);
	int err = open(args[1], O_WRONLY | O_CREAT | O_TRUNC, 0644);
	sigset_t none;

	if (in < 0 || out < 0 || err < 0 || dup2(in, 0) < 0 || dup2(out, 1) < 0 ||
	    dup2(err, 2) < 0)
		_exit(126);
	close(in);
	close(out);
	close(err);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	exit(xm_main(argc - 2, args + 2));
}

static long rss_kib(pid_t pid)
{
	char path[64], buf[128];
	long pages = 0, size;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/statm", (int)pid);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = 0;
	if (sscanf(buf, "%ld %ld", &size, &pages) != 2)
		return 0;
	return pages * (sysconf(_SC_PAGESIZE) / 1024);
}

/* waits for pid, killing it past the time or the RSS (looked at on each
 * tick without an exit), and answers */
static void reap(pid_t pid, const sigset_t *chld)
{
	struct timespec tick = { 0, 20 * 1000 * 1000 }, t0, now;
	const char *killed = NULL;
	struct rusage ru;
	long rss = 0;
	int st;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		pid_t r = wait4(pid, &st, WNOHANG, &ru);

		if (r == pid)
			break;
		if (r < 0 && errno != EINTR)
			die("waiting for a run");
		if (sigtimedwait(chld, NULL, &tick) >= 0 || killed)
			continue;
		clock_gettime(CLOCK_MONOTONIC, &now);
		rss = rss_kib(pid);
		if (rss > SERVE_RSS_MIB * 1024L)
			killed = "rss %ld\n";
		else if (now.tv_sec - t0.tv_sec >= SERVE_SECONDS)
			killed = "timeout\n";
		if (killed)
			kill(pid, SIGKILL);
	}
	if (killed)
		answer(killed, rss);
	else if (ru.ru_maxrss > SERVE_RSS_MIB * 1024L)
		answer("rss %ld\n", ru.ru_maxrss);
	else if (WIFSIGNALED(st))
		answer("signal %ld\n", WTERMSIG(st));
	else
		answer("exit %ld\n", WEXITSTATUS(st));
}

int main(void)
{
	sigset_t chld;

	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, NULL);
	while (get_line()) {
		int argc = 0;
		char *s = line, *tab;
		pid_t pid;

		for (;;) {
			if (argc == SERVE_ARGS) {
				errno = E2BIG;
				die("a request of more than SERVE_ARGS fields");
			}
			args[argc++] = s;
			tab = strchr(s, '\t');
			if (!tab)
				break;
			*tab = 0;
			s = tab + 1;
		}
		args[argc] = NULL;
		if (argc < 3) {
			errno = EINVAL;
			die("a request without OUT, ERR and ARGV0");
		}
		pid = fork();
		if (pid < 0)
			die("fork");
		if (pid == 0)
			child(argc);
		reap(pid, &chld);
	}
	return 0;
}
