/* -o FILE: a view's output written beside FILE, then renamed over it. */
/*
 * Whoever reads FILE (node_exporter's textfile collector, say) never sees
 * half of it: the output goes to .NAME.PID in FILE's directory, is
 * fsync'd and renamed over FILE, and the directory fsync'd. A fatal error
 * (a full disk, a file size limit), or SIGINT, SIGTERM or SIGHUP before the
 * rename, removes that file: FILE stays as it was and nothing else is left.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "exmap.h"

static char tmp[PATH_BUF + 16];
static const char *target;
static volatile sig_atomic_t pending;	/* tmp exists, not yet renamed */
static int tfd = -1;

/* A fatal error: the file half written goes. */
static void drop(void)
{
	if (pending)
		unlink(tmp);
	pending = 0;
}

static void on_signal(int sig)
{
	if (pending)
		unlink(tmp);
	signal(sig, SIG_DFL);
	raise(sig);
}

/* Ours only where nobody took the signal (watch takes SIGINT and SIGTERM). */
static void catch_default(int sig)
{
	struct sigaction old;

	if (sigaction(sig, NULL, &old) == 0 && old.sa_handler == SIG_DFL)
		signal(sig, on_signal);
}

/* From now on, the output goes to a new file beside path. */
void outfile_open(const char *path)
{
	const char *slash = strrchr(path, '/');
	size_t dlen = slash ? (size_t)(slash - path) + 1 : 0;
	struct sigaction old;
	struct stat st;

	if (strlen(path) >= PATH_BUF)
		die("-o: a path of more than %d bytes: %.40s...", PATH_BUF - 1, path);
	if (slash && !slash[1])
		die("-o %s: names a directory: give a file in it", path);
	if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode))
		die("-o %s: not a regular file (%s): a rename would replace it", path,
		    S_ISDIR(st.st_mode) ? "a directory" : S_ISLNK(st.st_mode) ? "a symbolic link" :
		    "a device, fifo or socket");
	/* DIR/.NAME.PID: no other process has this pid; one killed before us left it */
	fmt_snprintf(tmp, sizeof(tmp), "%.*s.%s.%d", (int)dlen, path, path + dlen, (int)getpid());
	if ((tfd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666)) < 0 && errno == EEXIST &&
	    unlink(tmp) == 0)
		tfd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
	if (tfd < 0)
		dierr(errno, "-o %s: cannot create %s", path, tmp);
	pending = 1;
	target = path;
	on_fatal(drop);
	catch_default(SIGINT);
	catch_default(SIGTERM);
	catch_default(SIGHUP);
	if (sigaction(SIGXFSZ, NULL, &old) == 0 && old.sa_handler == SIG_DFL)
		signal(SIGXFSZ, SIG_IGN);	/* past a file size limit: EFBIG, said */
	out_to(tfd, path);
}

/* The file written whole, renamed over FILE; the output back on stdout. */
void outfile_commit(void)
{
	int dfd;

	out_flush();
	if (fsync(tfd) < 0 || close(tfd) < 0)
		dierr(errno, "-o %s: cannot write it", target);
	tfd = -1;
	if (rename(tmp, target) < 0)
		dierr(errno, "-o %s: cannot rename %s over it", target, tmp);
	pending = 0;
	on_fatal(NULL);
	/* the rename itself on disk (a file system may not sync directories) */
	*(strrchr(tmp, '/') ? strrchr(tmp, '/') + 1 : tmp) = '\0';
	if ((dfd = open(tmp[0] ? tmp : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)) >= 0) {
		(void)fsync(dfd);
		close(dfd);
	}
	out_to(1, "standard output");
}
