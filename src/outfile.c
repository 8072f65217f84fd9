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

/* From now on, the output goes to a new file beside path. */
void outfile_open(const char *path)
{
	const char *slash = strrchr(path, '/');
	size_t dlen = slash ? (size_t)(slash - path) + 1 : 0;
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGXFSZ };
	void (*old)(int);
	struct stat st;
	int i;

	if (strlen(path) >= PATH_BUF)
		die("-o: a path longer than %d bytes", PATH_BUF - 1);
	if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode))
		die("-o %s: not a regular file: a rename would replace it", path);
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
	/* ours only where nobody took them (watch blocks them and waits for them);
	 * past a file size limit: EFBIG, said */
	for (i = 0; i < 4; i++)
		if ((old = signal(sigs[i], i < 3 ? on_signal : SIG_IGN)) != SIG_DFL)
			signal(sigs[i], old);
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
