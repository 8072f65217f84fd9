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
 * again, the same capture a second time (a pipe's from where it was kept).
 * Standard input gives one log: two captures of it only when one is
 * chosen by its place (diff -@1 -@2). */
static int open_capture(const char *path, uint64_t *size, int again, int chosen)
{
	static int spool_chosen;
	struct stat st;
	int fd;

	if (!again && spool_fd >= 0 && !chosen && !spool_chosen &&
	    (strcmp(path, "-") == 0 || strcmp(path, "/dev/stdin") == 0))
		die("%s: only one capture can come from standard input (-@N picks one of its "
		    "captures)", path);
	if (spool_fd < 0) {
		fd = strcmp(path, "-") == 0 ? dup(0) : openat(AT_FDCWD, path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			dierr(errno, "%s", path);
		if (fstat(fd, &st) < 0)
			dierr(errno, "%s", path);
		if (S_ISREG(st.st_mode)) {	/* standard input too: from its start */
			if (lseek(fd, 0, SEEK_SET) < 0)
				dierr(errno, "%s", path);
			*size = st.st_size;
			return fd;
		}
		if (S_ISDIR(st.st_mode))
			die("%s: not a capture: a directory", path);
		spool(fd, path);	/* a pipe, a terminal, /dev/stdin */
		spool_chosen = chosen;
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
 * LOG@N: the log and the place of the capture wanted in it, N from 1 (-1
 * the last, the default). A path that exists is a path, @ or not: only when
 * it does not and the part before its last @ does is the rest a place.
 * Returns the place; cf->file is the log, opened (the fd returned in *fd).
 */
int caplog_open(const char *path, struct capfile *cf, int *fd)
{
	const char *at = strrchr(path, '@');
	size_t n = at ? (size_t)(at - path) : 0;
	uint64_t v;
	int place = -1;

	memset(cf, 0, sizeof(*cf));
	cf->path = path;
	if (n && n < sizeof(cf->file) && strcmp(path, "-") != 0 && access(path, F_OK) != 0) {
		memcpy(cf->file, path, n);
		cf->file[n] = '\0';
		if (strcmp(cf->file, "-") == 0 || access(cf->file, F_OK) == 0) {
			cf->chosen = 1;
			if (parse_u64(at + 1 + (at[1] == '-'), INT32_MAX, &v) < 0 || v == 0)
				die("%s: not a capture's place in %s: @1 is its first, @-1 its last",
				    path, cf->file);
			place = at[1] == '-' ? -(int)v : (int)v;
		}
	}
	if (!cf->chosen && fmt_snprintf(cf->file, sizeof(cf->file), "%s", path) >= (int)sizeof(cf->file))
		die("%s: a path longer than PATH_MAX (%d)", path, PATH_BUF);
	*fd = open_capture(cf->file, &cf->size, 0, cf->chosen);
	return place;
}

/* ---- the captures a log holds ---- */

struct lister {
	struct capsum *sum;
	void (*fn)(const struct capinfo *, void *);
	void *arg;
	struct capinfo cur;	/* the capture being read: begun by its begin line
				   (open), or capture lines no begin line came before */
	struct capinfo pend;	/* the last one closed by its end line, not yet given */
	int open, have_pend;
};

static void fresh(struct capinfo *c, uint64_t start)
{
	memset(c, 0, sizeof(*c));
	c->bok = c->eok = -1;
	c->start = start;
}

static void give(struct lister *g, struct capinfo *c)
{
	if (capinfo_whole(c) && c->last > g->sum->whole_last)
		g->sum->whole_last = c->last;
	c->place = ++g->sum->ncap;
	g->fn(c, g->arg);
}

/* The id a capture's whole begin or end line gives it: 0 and *id, or -1. */
static int cap_id(const struct capinfo *c, uint64_t *id)
{
	*id = c->bok == 0 ? c->hb.id : c->he.id;
	return c->bok == 0 || c->eok == 0 ? 0 : -1;
}

/* A line of chunk k (after "XM K ") checked as loading checks it: the line
 * count and CRC-32 of its end line. v2's chunk 2 says when it was taken. */
static void frame_line(struct lister *g, struct capinfo *c, uint32_t k, char *p)
{
	uint64_t n, crc;
	size_t len;
	char *f;

	if (k != c->frame_k) {
		c->frame_k = k;
		c->frame_lines = c->frame_crc = 0;
		c->time_try = c->uptime_try = 0;
	}
	if (p[0] == '.' && p[1] == ' ') {
		p += 2;
		if ((f = cap_field(&p)) && parse_u64(f, UINT32_MAX, &n) == 0 &&
		    (f = cap_field(&p)) && hex_parse(f, UINT32_MAX, &crc) == 0 &&
		    n == c->frame_lines && crc == c->frame_crc) {
			g->sum->checked++;
			if (k == c->chunks_ok + 1 && ++c->chunks_ok == 2) {
				c->time_s = c->time_try;
				c->uptime_s = c->uptime_try;
			}
		}
		c->frame_k = 0;
		return;
	}
	len = strlen(p);
	p[len] = '\n';
	c->frame_crc = cap_crc32(c->frame_crc, p, len + 1);
	p[len] = '\0';
	c->frame_lines++;
	if (k == 2 && strncmp(p, "v time ", 7) == 0)
		parse_u64(p + 7, UINT64_MAX, &c->time_try);
	else if (k == 2 && strncmp(p, "v uptime ", 9) == 0)
		parse_u64(p + 9, UINT64_MAX, &c->uptime_try);
}

static void on_begin(struct lister *g, const char *text, uint64_t at)
{
	struct cap_header h;
	uint64_t id;
	int v, ok = cap_parse_header(text, &h, &v);

	g->sum->checked += ok == 0;
	if (v > g->sum->newer)
		g->sum->newer = v;
	/* the begin line again: the same capture */
	if (g->open && ok == 0 && cap_id(&g->cur, &id) == 0 && id == h.id)
		return;
	if (g->open) {
		give(g, &g->cur);	/* cut short: no end line before this */
	} else if (g->have_pend) {
		g->pend.stray_after = g->cur.nxm;
		give(g, &g->pend);
	}
	g->sum->stray += g->open ? 0 : g->cur.nxm;
	g->have_pend = 0;
	fresh(&g->cur, at);
	g->cur.begin_line = g->cur.first = g->cur.last = at;
	g->cur.bok = ok;
	g->cur.hb = h;
	g->cur.vb = v;
	g->open = 1;
}

static void on_end(struct lister *g, const char *text, uint64_t at)
{
	struct cap_header h;
	uint64_t id;
	int v, ok = cap_parse_header(text, &h, &v);

	g->sum->checked += ok == 0;
	if (v > g->sum->newer)
		g->sum->newer = v;
	/* the end line again, nothing between: the same capture */
	if (!g->open && g->have_pend && !g->cur.nxm && ok == 0 && cap_id(&g->pend, &id) == 0 &&
	    id == h.id) {
		g->cur.start = at;
		return;
	}
	/* else the end of the capture begun, or of the lines since the last
	 * end line, whose begin line was lost */
	if (!g->open && g->have_pend)
		give(g, &g->pend);
	g->cur.end_line = g->cur.last = at;
	if (!g->cur.first)
		g->cur.first = at;
	g->cur.eok = ok;
	g->cur.he = h;
	g->cur.ve = v;
	g->pend = g->cur;
	g->have_pend = 1;
	g->open = 0;
	fresh(&g->cur, at);
}

/*
 * Every capture of the log at fd to fn, in the log's order, each as the
 * lines and checksums it holds say; what the log holds in all in *sum.
 */
void caplog_list(struct capfile *cf, int fd, void (*fn)(const struct capinfo *, void *),
		 void *arg, struct capsum *sum)
{
	static struct caplog log;
	static struct lister G;
	struct lister *g = &G;
	const char *t;
	uint64_t at, k;

	memset(g, 0, sizeof(*g));
	memset(sum, 0, sizeof(*sum));
	g->sum = sum;
	g->fn = fn;
	g->arg = arg;
	fresh(&g->cur, 0);
	caplog_start(&log, cf->file, fd);
	while ((t = caplog_next(&log, &at)) != NULL) {
		char *p = (char *)t + 3, *sp;

		if (p[0] == 'w' && p[1] == ' ') {	/* a watch's sample, between captures */
			sum->watch++;
			sum->watch_last = at;
			continue;
		}
		sum->xm++;
		if (strncmp(p, "begin ", 6) == 0) {
			on_begin(g, p + 6, at);
			continue;
		}
		if (strncmp(p, "end ", 4) == 0) {
			on_end(g, p + 4, at);
			continue;
		}
		g->cur.nxm++;
		if (!g->cur.first)
			g->cur.first = at;
		g->cur.last = at;
		if ((sp = strchr(p, ' ')) == NULL)
			continue;
		*sp = '\0';
		if (parse_u64(p, UINT32_MAX, &k) == 0 && k > 0)
			frame_line(g, &g->cur, (uint32_t)k, sp + 1);
	}
	if (g->open) {
		give(g, &g->cur);
	} else {
		sum->stray += g->cur.nxm;
		if (g->have_pend) {
			g->pend.stray_after = g->cur.nxm;
			give(g, &g->pend);
		}
	}
}

/* The header a capture goes by: its begin line's, else its end line's. */
static const struct cap_header *capinfo_header(const struct capinfo *c)
{
	return c->bok == 0 ? &c->hb : c->eok == 0 ? &c->he : NULL;
}

/* Whole: begin and end lines that agree, and every chunk checked out. */
int capinfo_whole(const struct capinfo *c)
{
	return c->bok == 0 && c->eok == 0 && memcmp(&c->hb, &c->he, sizeof(c->hb)) == 0 &&
	       c->chunks_ok == c->hb.chunks;
}

/* Listing for capture_open: the one at place want (> 0), or the last, and
 * the begin line of the one after it. */
struct pick {
	int want;
	int have;
	struct capinfo sel;
	uint64_t next_begin;
	struct capinfo whole;	/* the last whole one, for a watch log */
	uint64_t whole_next;
	int have_whole;
};

static void pick_one(const struct capinfo *c, void *arg)
{
	struct pick *k = arg;

	if (k->have && c->place == k->sel.place + 1)
		k->next_begin = c->begin_line;
	if (k->have_whole && c->place == k->whole.place + 1)
		k->whole_next = c->begin_line;
	if (k->want < 0 || (int)c->place == k->want) {
		k->sel = *c;
		k->have = 1;
		k->next_begin = 0;
	}
	if (capinfo_whole(c)) {
		k->whole = *c;
		k->have_whole = 1;
		k->whole_next = 0;
	}
}

/* A file no line of which checks out: not a capture (one with as much as a
 * chunk that does is a damaged capture). */
void caplog_check(const struct capfile *cf, const struct capsum *sum)
{
	if (!sum->xm && sum->watch)
		die("%s: a watch log's samples and no capture: its captures were in the "
		    "file before it (FILE.1, rotated away?)", cf->file);
	if (!sum->xm)
		die("%s: no capture in it (no \"XM \" line): take one with exmap-mini dump",
		    cf->file);
	if (!sum->checked && sum->newer <= CAP_VERSION)
		die("%s: not a capture: %llu line%s start%s with XM, none of %s checks out",
		    cf->file, (unsigned long long)sum->xm, sum->xm == 1 ? "" : "s",
		    sum->xm == 1 ? "s" : "", sum->xm == 1 ? "it" : "them");
	if (!sum->ncap)
		die_status(EX_DAMAGED, "%s: the capture's begin and end lines are both "
			   "damaged or missing: its parameters are lost", cf->file);
}

/*
 * Find the capture path names in its log: LOG@N's, or the last. The room
 * loading it can take: far more than it can name.
 */
uint64_t capture_open(const char *path, struct capfile *cf)
{
	struct pick k = { 0 };
	struct capsum sum;
	const struct capinfo *c = &k.sel;
	uint32_t places;
	int fd, want;

	k.want = caplog_open(path, cf, &fd);
	caplog_list(cf, fd, pick_one, &k, &sum);
	close(fd);
	caplog_check(cf, &sum);
	/* a place given: the captures', and a killed watch's last sample after them */
	places = sum.ncap + (cf->chosen && CAPSUM_SAMPLES(&sum));
	want = k.want < 0 && -k.want <= (int)places ? k.want + (int)places + 1 : k.want;
	if (want == (int)sum.ncap + 1 && places > sum.ncap) {
		cf->sample = 1;
		cf->sample_after = sum.whole_last;
		cf->place = places;
		cf->ncap = sum.ncap;
		return (8u << 20) + cf->size * 4;
	}
	if (k.want < 0 && want > 0 && want != (int)sum.ncap) {	/* counted from the last: again */
		k.want = want;
		k.have = 0;
		caplog_list(cf, capture_reopen(cf), pick_one, &k, &sum);
	}
	if (!k.have || want < 1)
		die("%s: %s holds %u capture%s%s: @1 to @%u, or @-1 (the last) to @-%u", path,
		    cf->file, sum.ncap, sum.ncap == 1 ? "" : "s", places > sum.ncap ?
		    " and a watch's last sample after them" : "", places, places);
	/* a watch log: its last whole capture, unless a place was given */
	if (sum.watch && !cf->chosen && k.have_whole) {
		k.sel = k.whole;
		k.next_begin = k.whole_next;
		warnx("%s: a watch log: its capture @%u of %u, the last whole one", path,
		      k.sel.place, sum.ncap);
	}
	cf->place = c->place;
	cf->ncap = sum.ncap;
	cf->start = c->begin_line ? c->begin_line : c->start;
	cf->end_line = c->end_line;
	cf->first = c->first;
	cf->stop = c->end_line ? c->end_line : k.next_begin;
	cf->stray_after = c->stray_after;
	if (c->bok < 0 && c->eok < 0 && (c->vb > CAP_VERSION || c->ve > CAP_VERSION))
		die("%s: a capture in format v%d: this exmap-mini reads v1 to v%d", path,
		    c->vb > c->ve ? c->vb : c->ve, CAP_VERSION);
	if (c->bok < 0 && c->eok < 0)
		die_status(EX_DAMAGED, "%s: the capture's begin and end lines are both "
			   "damaged or missing: its parameters are lost", path);
	if (c->bok == 0 && c->eok == 0 && memcmp(&c->hb, &c->he, sizeof(c->hb)) != 0)
		die_status(EX_DAMAGED, "%s: the capture's begin and end lines disagree (two "
			   "captures mixed?)", path);
	cf->h = *capinfo_header(c);
	/* a chunk takes two lines of 8 bytes at the least */
	if ((uint64_t)cf->h.chunks * 16 > cf->size)
		die_status(EX_DAMAGED, "%s: the capture declares %u chunks, more than %llu "
			   "bytes can hold", path, cf->h.chunks, (unsigned long long)cf->size);
	cf->begin_bad = c->bok < 0;
	return (8u << 20) + cf->size * 48 + (uint64_t)cf->h.ids * 2 * sizeof(uint32_t) +
	       ((uint64_t)cf->h.chunks + 1) * sizeof(struct chunkstate);
}

/* The capture's log again, from its start, for loading (a log may have grown since). */
int capture_reopen(const struct capfile *cf)
{
	uint64_t size;

	if (cf->sample)		/* loading it: a view other than diff's */
		die("%s: a watch's last sample (its closing capture never came): diff %s@1 %s "
		    "compares it with the first capture; the other views need a capture",
		    cf->path, cf->file, cf->path);

	return open_capture(cf->file, &size, 1, cf->chosen);
}
