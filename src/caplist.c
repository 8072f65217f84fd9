/* The captures view: the captures a console log holds, one row each. */
/*
 * The captures view (-l LOG captures): each capture of a log in the log's
 * order, as LOG@N loads it: its place, id, when it was taken (v2 records
 * the time and the uptime in its ram chunk), the log lines it spans, its
 * processes, and whether every chunk checks out. No arena: nothing is
 * loaded, the log is read once. A watch killed before its closing capture
 * has its last sample listed as a place after the captures (diff reads it).
 */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "capture.h"
#include "wlog.h"

#define CLOCK_SET	946684800u	/* 2000-01-01: an earlier time is a board's unset clock */

struct listing {
	const struct opts *o;
	uint64_t rows;
	uint32_t damaged;
};

/* Its header, whichever of the begin and end lines is whole; NULL if neither. */
static const struct cap_header *header_of(const struct capinfo *c)
{
	return c->bok == 0 ? &c->hb : c->eok == 0 ? &c->he : NULL;
}

/* An uptime as a person reads it, as the html page says it. */
static void fmt_uptime(char *buf, size_t len, uint64_t s)
{
	if (s < 120)
		fmt_snprintf(buf, len, "%llu s", (unsigned long long)s);
	else if (s < 7200)
		fmt_snprintf(buf, len, "%llu min", (unsigned long long)(s + 30) / 60);
	else if (s < 172800)
		fmt_snprintf(buf, len, "%llu.%llu h", (unsigned long long)(s / 3600),
			     (unsigned long long)(s % 3600 * 10 / 3600));
	else
		fmt_snprintf(buf, len, "%llu d", (unsigned long long)(s + 43200) / 86400);
}

static void fmt_taken(char *buf, size_t len, uint64_t t)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (!t)
		fmt_snprintf(buf, len, "-");
	else if (t < CLOCK_SET || (uint64_t)tt != t || !gmtime_r(&tt, &tm))
		fmt_snprintf(buf, len, "clock not set");
	else
		fmt_snprintf(buf, len, "%04d-%02d-%02d %02d:%02d:%02d", tm.tm_year + 1900,
			     tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
}

/* What a capture that is not whole lacks, for its note. */
static void fmt_damage(char *buf, size_t len, const struct capinfo *c, const struct cap_header *h)
{
	size_t n = 0;

	if (!h) {
		fmt_snprintf(buf, len, "its begin and end lines are both damaged or missing");
		return;
	}
	if (c->bok == 0 && c->eok == 0 && memcmp(&c->hb, &c->he, sizeof(c->hb)) != 0) {
		fmt_snprintf(buf, len, "its begin and end lines disagree (two captures mixed?)");
		return;
	}
	if (c->bok < 0)
		n = fmt_snprintf(buf, len, "its begin line is %s; ", c->begin_line ? "damaged" : "missing");
	else if (c->eok < 0)
		n = fmt_snprintf(buf, len, "its end line is %s; ", c->end_line ? "damaged" : "missing");
	fmt_snprintf(buf + n, len - n, "%u of its %u chunks check out", c->chunks_ok, h->chunks);
}

static void row(const struct capinfo *c, void *arg)
{
	struct listing *l = arg;
	const struct cap_header *h = header_of(c);
	int whole = capinfo_whole(c);
	char id[20] = "-", procs[12] = "-", taken[24], up[16] = "-", lines[48];

	if (l->o->top && l->rows >= l->o->top)
		return;
	l->damaged += !whole;
	if (!l->rows++ && !l->o->noheader)
		outs(l->o->csv ? "place,id,time,uptime,first_line,last_line,procs,chunks,"
		     "chunks_ok,state\n" : "   @ ID               TAKEN (UTC)          UPTIME "
		     "LOG LINES       PROCS STATE\n");
	if (h) {
		fmt_snprintf(id, sizeof(id), "%016llx", (unsigned long long)h->id);
		fmt_snprintf(procs, sizeof(procs), "%u", h->procs);
	}
	if (l->o->csv) {
		outf("%u,%s,", c->place, h ? id : "");
		if (c->time_s)
			outf("%llu,%llu", (unsigned long long)c->time_s,
			     (unsigned long long)c->uptime_s);
		else
			outs(",");
		outf(",%llu,%llu,%s,", (unsigned long long)c->first, (unsigned long long)c->last,
		     h ? procs : "");
		if (h)
			outf("%u", h->chunks);
		outf(",%u,%s\n", c->chunks_ok, whole ? "whole" : "damaged");
		return;
	}
	fmt_taken(taken, sizeof(taken), c->time_s);
	if (c->time_s)
		fmt_uptime(up, sizeof(up), c->uptime_s);
	fmt_snprintf(lines, sizeof(lines), "%llu-%llu", (unsigned long long)c->first,
		     (unsigned long long)c->last);
	outf("%4u %-16s %-19s %7s %-15s %5s %s\n", c->place, id, taken, up, lines, procs,
	     whole ? "whole" : "damaged");
}

/* The notes: what each damaged capture shown lacks. */
static void note(const struct capinfo *c, void *arg)
{
	const struct listing *l = arg;
	char why[160];

	if (capinfo_whole(c) || (l->o->top && c->place > l->o->top))
		return;
	fmt_damage(why, sizeof(why), c, header_of(c));
	outf("@%u: %s\n", c->place, why);
}

/* A killed watch's last sample: its row, its place after the captures. */
static void sample_row(struct listing *l, const struct capsum *sum, const struct wl_last *L)
{
	char taken[24], up[16], lines[48];
	uint64_t t = L->s.time_ms / 1000, u = L->s.uptime_ms / 1000;

	if (l->o->top && l->rows >= l->o->top)
		return;
	l->rows++;	/* after the captures' rows: the head is out */
	if (l->o->csv) {
		outf("%u,,%llu,%llu,%llu,%llu,%u,,,sample\n", sum->ncap + 1, (unsigned long long)t,
		     (unsigned long long)u, (unsigned long long)sum->whole_last + 1,
		     (unsigned long long)L->s.line, L->nproc);
		return;
	}
	fmt_taken(taken, sizeof(taken), t);
	fmt_uptime(up, sizeof(up), u);
	fmt_snprintf(lines, sizeof(lines), "%llu-%llu", (unsigned long long)sum->whole_last + 1,
		     (unsigned long long)L->s.line);
	outf("%4u %-16s %-19s %7s %-15s %5u %s\n", sum->ncap + 1, "-", taken, up, lines, L->nproc,
	     "sample");
}

static void nothing(const struct capinfo *c, void *arg)
{
	(void)c, (void)arg;
}

/* The log read once to check it holds captures (nothing is said before
 * that), once for the rows, once more for the damaged ones' notes. */
void view_captures(const char *path, const struct opts *o)
{
	static struct capfile cf;
	static struct wl_last last;
	struct listing l = { .o = o };
	struct capsum sum;
	int fd, sample;

	if (caplog_open(path, &cf, &fd) != -1 || cf.chosen)
		die("captures: lists every capture of a log: give -l %s, without @N", cf.file);
	caplog_list(&cf, fd, nothing, NULL, &sum);
	close(fd);
	caplog_check(&cf, &sum);
	fd = capture_reopen(&cf);
	caplog_list(&cf, fd, row, &l, &sum);
	close(fd);
	sample = CAPSUM_SAMPLES(&sum) && wlog_last_find(cf.file, sum.whole_last, &last) == 0;
	if (sample)
		sample_row(&l, &sum, &last);
	if (o->csv || o->noheader) {
		out_flush();
		return;
	}
	if (l.damaged) {
		fd = capture_reopen(&cf);
		caplog_list(&cf, fd, note, &l, &sum);
		close(fd);
	}
	if (sum.stray)
		outf("%llu capture line%s belong%s to no capture (its begin and end lines lost?)\n",
		     (unsigned long long)sum.stray, sum.stray == 1 ? "" : "s",
		     sum.stray == 1 ? "s" : "");
	if (sample)
		outf("@%u: the last sample of a watch whose closing capture never came: diff LOG@1 "
		     "LOG@%u\n  (or @-1) compares it with the first capture\n", sum.ncap + 1,
		     sum.ncap + 1);
	outf("%u capture%s; -l LOG@N loads the Nth (@-1 the last, the default)\n", sum.ncap,
	     sum.ncap == 1 ? "" : "s");
	out_flush();
}
