/* watch: a sample every INTERVAL between two captures; -o FILE, rotated at --max. */
/*
 * vmstat's convention: a sample now, then one every interval (on a fixed
 * grid: a late sample does not shift the rest), COUNT in all or until
 * SIGINT or SIGTERM. The log begins with a capture of the first sample's
 * scan and ends with one of the last's. With -o FILE the log goes to FILE;
 * with --max SIZE, once FILE has reached SIZE at a sample's end it is
 * fsync'd and renamed FILE.1 (the older one replaced) and a new FILE begins
 * with a keyframe. A full disk: FILE.1 goes, to keep the newest samples.
 * With a sample writer (watch ... metrics) it writes each sample: no log.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "capture.h"
#include "wlog.h"

static int stop;		/* SIGINT or SIGTERM, once one came */
static sigset_t stop_set;	/* they are blocked: taken when the loop waits */

static struct {
	const char *path;	/* -o's FILE, or NULL: stdout */
	char older[PATH_BUF];	/* FILE.1 */
	char dir[PATH_BUF];
	int fd;
	uint64_t max;
	int key;		/* the next sample is a keyframe */
} O;

static void sync_dir(void)
{
	int fd = open(O.dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd >= 0) {
		(void)fsync(fd);	/* a file system may not sync directories */
		close(fd);
	}
}

static void open_log(void)
{
	O.fd = open(O.path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0666);
	if (O.fd < 0)
		dierr(errno, "watch: -o %s", O.path);
	out_to(O.fd, O.path);
}

/*
 * A full disk: FILE.1 removed, which keeps the newest samples (and says so),
 * and the writing goes on; without a FILE.1, the watch stops.
 */
static int no_room(int err)
{
	if (err != ENOSPC && err != EDQUOT)
		return 0;
	if (unlink(O.older) == 0) {
		warnx("watch: %s: %s: %s removed to keep the newest samples", O.path,
		      strerror(err), O.older);
		sync_dir();
		exit_at_least(EX_PARTIAL);
		O.key = 1;
		return 1;
	}
	die("watch: %s: %s, and no %s left to remove: the watch stops", O.path, strerror(err),
	    O.older);
}

/* FILE at SIZE or more: renamed FILE.1, on disk, and a new FILE begun. */
static void rotate(void)
{
	struct stat st;

	out_flush();
	if (!O.max || fstat(O.fd, &st) < 0 || (uint64_t)st.st_size < O.max)
		return;
	if (fsync(O.fd) < 0)
		dierr(errno, "watch: %s: fsync", O.path);
	if (rename(O.path, O.older) < 0)
		dierr(errno, "watch: renaming %s to %s", O.path, O.older);
	sync_dir();
	close(O.fd);
	open_log();
	O.key = 1;
}

static void setup_output(const struct watch_opts *w)
{
	const char *slash;
	size_t n;

	O.path = w->out;
	O.max = w->max;
	if (!O.path)
		return;
	if (fmt_snprintf(O.older, sizeof(O.older), "%s.1", O.path) >= (int)sizeof(O.older))
		die("watch: -o %s: a path longer than PATH_MAX (%d)", O.path, PATH_BUF);
	slash = strrchr(O.path, '/');
	n = slash ? (size_t)(slash - O.path) + (slash == O.path) : 1;
	memcpy(O.dir, slash ? O.path : ".", n);
	O.dir[n] = '\0';
	open_log();
	on_write_error(no_room);
}

/*
 * Until the monotonic clock reads deadline (ns), or SIGINT or SIGTERM comes
 * (one that came during a sample waited, blocked: the sample is whole).
 */
static void sleep_until(uint64_t deadline)
{
	uint64_t now = clock_ns(CLOCK_MONOTONIC);

	do {
		uint64_t left = deadline > now ? deadline - now : 0;
		struct timespec ts = { (time_t)(left / 1000000000u), (long)(left % 1000000000u) };
		int sig = sigtimedwait(&stop_set, NULL, &ts);

		if (sig > 0)
			stop = sig;
	} while (!stop && (now = clock_ns(CLOCK_MONOTONIC)) < deadline);
}

/* The processes this scan could not read, said now: not again in later samples. */
static void hush_unreadable(const struct scan *s)
{
	static pid_t said[ABSENT_MAX];
	static size_t n;
	uint32_t i;
	size_t j;

	for (i = 0; i < s->nabsent && n < ABSENT_MAX; i++) {
		for (j = 0; j < n && said[j] != s->absent[i].pid; j++)
			;
		if (j == n && s->absent[i].why == P_UNREADABLE)
			said[n++] = s->absent[i].pid;
	}
	scan_hush(said, n);
}

/*
 * A sample reads command lines (o->names) when a capture or a keyframe
 * needs all of them: the first, every keyframe and the last, which on
 * SIGINT or SIGTERM is one more sample taken at once (unless the one just
 * taken read them). Between, a new process's is read alone.
 */
void watch(struct scan *s, struct opts *o, const struct watch_opts *w,
	   int (*rescan)(struct scan *s))
{
	uint64_t ivl = w->interval_ms * 1000000u, t0, n = 0, since_key = 0, now, ticks;
	const char *why = "count";

	sigemptyset(&stop_set);
	sigaddset(&stop_set, SIGINT);
	sigaddset(&stop_set, SIGTERM);
	sigaddset(&stop_set, SIGXFSZ);	/* past a file size limit: EFBIG, said, not killed */
	sigprocmask(SIG_BLOCK, &stop_set, NULL);
	sigdelset(&stop_set, SIGXFSZ);
	if (!w->sample) {
		setup_output(w);
		/* the time and our pid: no two runs share the id */
		wsample_begin(clock_ns(CLOCK_REALTIME) << 8 ^ (uint64_t)getpid(), w->interval_ms);
	}
	t0 = clock_ns(CLOCK_MONOTONIC);
	for (;;) {
		uint64_t real = clock_ns(CLOCK_REALTIME) / 1000000u;
		uint64_t up = clock_ns(CLOCK_BOOTTIME) / 1000000u;
		int key = n == 0 || O.key || since_key == WL_KEYFRAME;
		int last = stop || (w->count && n + 1 == w->count);

		o->names = key || last;
		now = clock_ns(CLOCK_MONOTONIC);
		rescan(s);
		hush_unreadable(s);
		if (w->sample) {
			w->sample(s, clock_ns(CLOCK_MONOTONIC) - now);
		} else {
			if (n == 0)
				dump_capture(s);
			wsample_write(s, real, up, key);
			since_key = key ? 1 : since_key + 1;
			O.key = 0;
			out_flush();
			if (O.path)
				rotate();
		}
		n++;
		if (last)
			break;
		/* the next tick of the grid still ahead: a slow sample skips ticks */
		now = clock_ns(CLOCK_MONOTONIC);
		ticks = ivl ? (now - t0) / ivl + 1 : 0;
		sleep_until(t0 + ticks * ivl);
		if (stop && o->names)
			break;	/* the sample just taken is the last one's */
	}
	if (w->sample)
		return;
	if (stop)
		why = stop == SIGINT ? "sigint" : "sigterm";
	wsample_end(why);
	if (n > 1)
		dump_capture(s);
	out_flush();
	if (O.path && fsync(O.fd) < 0)
		dierr(errno, "watch: %s: fsync", O.path);
}
