/* Captures: capture lines out of a raw console log; finding the capture in it. */
/*
 * Captures: reading a raw console log. Its capture lines are picked out of
 * whatever else the console carried: CRLF line ends, prompts, kernel
 * messages between lines, and a printk that cut a line in two, even inside
 * its "XM " tag, whose rest is joined back on (the chunk's CRC vouches for
 * the join). And finding the capture to load in it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "capture.h"

static char raw[CAP_LINE_MAX], peek[CAP_LINE_MAX], joined[2 * CAP_LINE_MAX];

void caplog_start(struct caplog *g, const char *path, int fd)
{
	g->path = path;
	lb_init(&g->lb, fd);
	g->lineno = 0;
	g->have_peek = 0;
}

/* The next line of the log, CRs stripped; a line too long is cut (and marked by its length). */
int caplog_raw(struct caplog *g, char *buf, size_t *len)
{
	int toolong, r;

	if (g->have_peek) {
		g->have_peek = 0;
		memcpy(buf, peek, g->peek_len + 1);
		*len = g->peek_len;
		return 1;
	}
	r = lb_next(&g->lb, buf, CAP_LINE_MAX, len, &toolong);
	if (r < 0)
		dierr(-r, "%s: read error", g->path);
	if (r == 0)
		return 0;
	g->lineno++;
	while (*len && buf[*len - 1] == '\r')
		buf[--*len] = '\0';
	if (toolong)
		*len = CAP_LINE_MAX;	/* never a capture line: it fails its chunk */
	return 1;
}

/* A console timestamp, "[   12.345678] ": a kernel message starts here. */
int printk_at(const char *p)
{
	const char *q;

	if (*p++ != '[')
		return 0;
	while (*p == ' ')
		p++;
	for (q = p; *p >= '0' && *p <= '9'; p++)
		;
	if (p == q || *p++ != '.')
		return 0;
	for (q = p; *p >= '0' && *p <= '9'; p++)
		;
	return p - q == 6 && p[0] == ']' && p[1] == ' ';
}

/* The first kernel message at or after p, or NULL. */
static char *printk_in(char *p)
{
	for (; (p = strchr(p, '[')) != NULL; p++)
		if (printk_at(p))
			return p;
	return NULL;
}

/*
 * The next capture line, from "XM " on, and the log line it starts on. A
 * kernel message that cut it (even inside the "XM ") ends it early: the rest
 * of it is the next line that is not a kernel message.
 */
const char *caplog_next(struct caplog *g, uint64_t *at)
{
	char *t, *cut;
	size_t len, n;

	for (;;) {
		if (!caplog_raw(g, raw, &len))
			return NULL;
		if (len >= CAP_LINE_MAX)
			continue;
		if ((t = (char *)find_str(raw, "XM ")) != NULL) {
			cut = printk_in(t + 3);
		} else {
			if (!(cut = printk_in(raw + 1)))
				continue;
			if (cut - raw >= 2 && cut[-2] == 'X' && cut[-1] == 'M')
				t = cut - 2;
			else if (cut[-1] == 'X')
				t = cut - 1;
			else
				continue;
		}
		*at = g->lineno;
		n = cut ? (size_t)(cut - t) : len - (size_t)(t - raw);
		memcpy(joined, t, n);
		joined[n] = '\0';
		while (cut && caplog_raw(g, raw, &len)) {
			if (len >= CAP_LINE_MAX || printk_at(raw))
				continue;	/* more kernel messages */
			if (strncmp(raw, "XM ", 3) == 0) {
				/* the cut was at the line's end */
				memcpy(peek, raw, len + 1);
				g->peek_len = len;
				g->have_peek = 1;
				break;
			}
			if (n + len >= sizeof(joined))
				break;	/* no capture line is this long: its chunk fails */
			memcpy(joined + n, raw, len + 1);
			/* the rest may be cut again */
			if ((cut = printk_in(joined + n)) != NULL)
				*cut = '\0';
			n = strlen(joined);
		}
		if (strncmp(joined, "XM ", 3) == 0)
			return joined;
	}
}

/* A capture file, opened: a regular file, as it is read twice. -errno is dealt with here. */
#define SPOOL_MAX	((uint64_t)256 << 20)	/* a capture from a pipe, at most */

static int spool_fd = -1;	/* a capture from a pipe, in an unlinked file */

/* A temporary file of our own, already unlinked: in TMPDIR, else /tmp. */
static int spool_file(const char *path)
{
	static char name[PATH_BUF];
	const char *dir = getenv("TMPDIR");
	int fd;

	if (!dir || !*dir)
		dir = "/tmp";
	fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd >= 0)
		return fd;
	/* a kernel or filesystem without O_TMPFILE */
	/* our pid makes the name ours; O_EXCL refuses one left behind */
	fmt_snprintf(name, sizeof(name), "%s/exmap-mini.%d", dir, (int)getpid());
	if ((fd = open(name, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600)) < 0)
		dierr(errno, "%s: a capture from a pipe is kept in %s, which cannot be written",
		      path, dir);
	unlink(name);
	return fd;
}

/* Read a pipe's capture whole into a file, since loading reads it twice. */
static void spool(int in, const char *path)
{
	static char buf[65536];
	uint64_t total = 0;
	ssize_t n;

	if (spool_fd >= 0)
		die("%s: only one capture can come from standard input", path);
	spool_fd = spool_file(path);
	while ((n = read(in, buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			dierr(errno, "%s: reading the capture", path);
		if ((total += (uint64_t)n) > SPOOL_MAX)
			die("%s: more than %llu MiB: save the capture to a file and give its path",
			    path, (unsigned long long)(SPOOL_MAX >> 20));
		if (write(spool_fd, buf, (size_t)n) != n)
			dierr(errno, "%s: keeping the capture in a temporary file", path);
	}
}

/* The capture at path (- is standard input): a file read from its start;
 * again, the same capture a second time (a pipe's from where it was kept). */
static int open_capture(const char *path, uint64_t *size, int again)
{
	struct stat st;
	int fd;

	if (!again && spool_fd >= 0 && (strcmp(path, "-") == 0 || strcmp(path, "/dev/stdin") == 0))
		die("%s: only one capture can come from standard input", path);
	if (spool_fd < 0) {
		fd = strcmp(path, "-") == 0 ? dup(0) : openat(AT_FDCWD, path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			dierr(errno, "%s", path);
		if (fstat(fd, &st) < 0)
			dierr(errno, "%s", path);
		if (S_ISREG(st.st_mode)) {
			*size = st.st_size;
			return fd;
		}
		if (S_ISDIR(st.st_mode))
			die("%s: not a capture: a directory", path);
		spool(fd, path);	/* a pipe, a terminal, /dev/stdin */
		close(fd);
	} else if (strcmp(path, "-") != 0 && strcmp(path, "/dev/stdin") != 0) {
		fd = openat(AT_FDCWD, path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			dierr(errno, "%s", path);
		if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
			die("%s: only one capture can come from a pipe", path);
		*size = st.st_size;
		return fd;
	}
	if (fstat(spool_fd, &st) < 0 || lseek(spool_fd, 0, SEEK_SET) < 0 || (fd = dup(spool_fd)) < 0)
		dierr(errno, "%s: the capture kept from the pipe", path);
	*size = st.st_size;
	return fd;
}

/*
 * Find the capture in the log at path: the last begin line and its end line,
 * either standing in for the other. The room loading it can take: far more
 * than it can name.
 */
uint64_t capture_open(const char *path, struct capfile *cf)
{
	static struct caplog g;
	struct cap_header hb, he;
	int bok = -1, eok = -1, end_seen = 0, vb = 0, ve = 0;
	const char *t;
	uint64_t at;
	int fd;

	memset(cf, 0, sizeof(*cf));
	cf->path = path;
	fd = open_capture(path, &cf->size, 0);
	caplog_start(&g, path, fd);
	while ((t = caplog_next(&g, &at)) != NULL) {
		if (strncmp(t + 3, "begin ", 6) == 0) {
			cf->nbegin++;
			cf->begin_line = at;
			bok = cap_parse_header(t + 9, &hb, &vb);
			end_seen = 0;
			eok = -1;
		} else if (strncmp(t + 3, "end ", 4) == 0 && !end_seen) {
			end_seen = 1;
			eok = cap_parse_header(t + 7, &he, &ve);
		}
	}
	close(fd);
	if (bok < 0 && eok < 0 && (vb > CAP_VERSION || ve > CAP_VERSION))
		die("%s: a capture in format v%d: this exmap-mini reads v1 to v%d", path,
		    vb > ve ? vb : ve, CAP_VERSION);
	if (bok < 0 && eok < 0) {
		if (!cf->nbegin && !end_seen)
			die("%s: no capture in it (no \"XM begin\" line): take one with "
			    "exmap-mini dump", path);
		die_status(EX_DAMAGED, "%s: the capture's begin and end lines are both "
			   "damaged or missing: its parameters are lost", path);
	}
	if (bok == 0 && eok == 0 && memcmp(&hb, &he, sizeof(hb)) != 0)
		die_status(EX_DAMAGED, "%s: the capture's begin and end lines disagree (two "
			   "captures mixed?)", path);
	cf->h = bok == 0 ? hb : he;
	/* a chunk takes two lines of 8 bytes at the least */
	if ((uint64_t)cf->h.chunks * 16 > cf->size)
		die_status(EX_DAMAGED, "%s: the capture declares %u chunks, more than %llu "
			   "bytes can hold", path, cf->h.chunks, (unsigned long long)cf->size);
	cf->begin_bad = bok < 0;
	return (8u << 20) + cf->size * 48 + (uint64_t)cf->h.ids * 2 * sizeof(uint32_t) +
	       ((uint64_t)cf->h.chunks + 1) * sizeof(struct chunkstate);
}

/* The capture's file again, from its start, for loading (a log may have grown since). */
int capture_reopen(const struct capfile *cf)
{
	uint64_t size;

	return open_capture(cf->path, &size, 1);
}
