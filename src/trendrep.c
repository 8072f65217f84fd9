/* trend's report: the rows as text or CSV, the budgets on slopes. */
/*
 * Text: a table of processes and one of files (with -P, of the parts),
 * each by slope, the largest first, marked * where the floor grows; CSV:
 * one table, a row each, bytes and bytes an hour. Then the budgets: a
 * slope (NAME=SIZE/h) or the last value (NAME=SIZE) of what NAME names.
 */
#include <string.h>
#include <time.h>

#include "trend.h"

/* A span of time for a person: 45 s, 12.5 min, 3.2 h, 2.1 d. */
static void fmt_span(char *buf, size_t len, int64_t ms)
{
	uint64_t s = ms < 0 ? 0 : (uint64_t)ms / 1000;

	if (s < 120)
		fmt_snprintf(buf, len, "%llu s", (unsigned long long)s);
	else if (s < 7200)
		fmt_snprintf(buf, len, "%llu.%llu min", (unsigned long long)s / 60,
			     (unsigned long long)s % 60 / 6);
	else if (s < 172800)
		fmt_snprintf(buf, len, "%llu.%llu h", (unsigned long long)s / 3600,
			     (unsigned long long)s % 3600 / 360);
	else
		fmt_snprintf(buf, len, "%llu.%llu d", (unsigned long long)s / 86400,
			     (unsigned long long)s % 86400 / 8640);
}

static void fmt_when(char *buf, size_t len, uint64_t t)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (t < 946684800u || !gmtime_r(&tt, &tm))	/* before 2000: a board's unset clock */
		fmt_snprintf(buf, len, "clock not set");
	else
		fmt_snprintf(buf, len, "%04d-%02d-%02d %02d:%02d:%02d UTC", tm.tm_year + 1900,
			     tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
}

/* A signed size: "+4.0K", "-12M", "0"; "-" when unknown. */
static void fmt_signed(const struct opts *o, char *buf, size_t len, int64_t v, int known)
{
	char num[24];

	if (!known) {
		fmt_snprintf(buf, len, "-");
		return;
	}
	fmt_size(o, num, sizeof(num), v < 0 ? -(uint64_t)v : (uint64_t)v);
	fmt_snprintf(buf, len, "%s%s", v > 0 ? "+" : v < 0 ? "-" : "", num);
}

static const char *const kind_name[] = {
	[TK_PROC] = "process", [TK_FILE] = "file", [TK_PART] = "part", [TK_CGROUP] = "cgroup",
	[TK_DMABUF] = "dmabuf",
};

/* Where the arguments start in a command line's text: after its first word
 * when that is the program the name already says (its path, or the name). */
static size_t args_at(const struct trow *r)
{
	size_t n = strnlen(r->cmd, r->cmdlen), nl = strlen(r->name);
	const char *b = memrchr(r->cmd, '/', n);

	b = b ? b + 1 : r->cmd;
	if (n == r->cmdlen || strncmp(b, r->name, nl < (size_t)(r->cmd + n - b) ? nl :
				      (size_t)(r->cmd + n - b)) != 0)
		return 0;
	return n + 1;
}

static void put_csv(const struct opts *o, const struct shown *s)
{
	static char cmd[CMDLINE_MAX + 1];
	const struct trow *r = s->r;
	const struct envelope *e = &r->e_eff;

	(void)o;
	outs(kind_name[r->kind]);
	outs(",");
	csv_field(r->name, strlen(r->name));
	outs(",");
	if (r->cmd) {
		cmd_words(r, cmd, sizeof(cmd));
		csv_field(cmd, strlen(cmd));
	}
	outf(",%u,%llu,%llu,%llu,%llu,", e->samples, (unsigned long long)r->first,
	     (unsigned long long)r->last, (unsigned long long)r->min, (unsigned long long)r->max);
	if (!s->brief)
		outf("%lld", (long long)s->f.slope);
	outs(",");
	if ((r->kind == TK_PROC || r->kind == TK_CGROUP) && !s->brief && s->fs.known)
		outf("%lld", (long long)s->fs.slope);
	outf(",%d,%lld,%d\n", s->grows, (long long)(e->last.t - e->first.t), s->brief);
}

/* A process's name and arguments, or a path, for a person, in room columns. */
static void put_name(const struct trow *r, size_t room)
{
	static char cmd[CMDLINE_MAX + 1], line[NAME_MAX_COMM + CMDLINE_MAX + 2];

	if (!r->cmd) {		/* a path: cut from the left, as files and maps do */
		put_text(r->name, room, 0);
		outs("\n");
		return;
	}
	cmd_words(r, cmd, sizeof(cmd));
	fmt_snprintf(line, sizeof(line), "%s %s", r->name, cmd + args_at(r));
	for (char *c = line; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			*c = '?';
	if (strlen(line) > room)
		memcpy(line + room - 3, "...", 4);
	outf("%s\n", line);
}

/* Text: "* SLOPE/h SOLE/h SAMPL FIRST LAST MIN MAX NAME", cut to fit. */
#define W_SLOPE	8
#define W_SIZE	7
static void put_text_row(const struct opts *o, const struct shown *s)
{
	const struct trow *r = s->r;
	int proc = r->kind == TK_PROC || r->kind == TK_CGROUP || r->kind == TK_DMABUF;
	int w = o->kib ? W_SIZE + 2 : W_SIZE;
	char buf[32];
	uint64_t v[4] = { r->first, r->last, r->min, r->max };
	int k;

	outs(s->grows ? "*" : " ");
	fmt_signed(o, buf, sizeof(buf), s->f.slope, 1);
	outf("%*s", W_SLOPE, buf);
	if (r->kind == TK_PROC || r->kind == TK_CGROUP) {
		fmt_signed(o, buf, sizeof(buf), s->fs.slope, s->fs.known);
		outf("%*s", W_SLOPE, buf);
	} else if (proc) {
		outf("%*s", W_SLOPE, "");
	}
	outf(" %6u", r->e_eff.samples);
	for (k = 0; k < 4; k++) {
		fmt_size(o, buf, sizeof(buf), v[k]);
		outf(" %*s", w - 1, buf);
	}
	outs(" ");
	put_name(r, path_room(1 + W_SLOPE * (proc ? 2 : 1) + 7 + 4 * (size_t)w + 1));
}

static const char *const kind_plural[] = {
	[TK_PROC] = "processes", [TK_FILE] = "files", [TK_PART] = "parts", [TK_CGROUP] = "cgroups",
	[TK_DMABUF] = "dma-buf rows",
};

/* The brief rows of a table, apart: how many, the largest peak, the longest life. */
static void put_brief(const struct opts *o, const struct shown *v, uint32_t n, int kind)
{
	struct brief b;
	char size[24], life[24];

	trend_brief(v, n, &b);
	if (!b.n)
		return;
	fmt_size(o, size, sizeof(size), b.peak->max);
	fmt_span(life, sizeof(life), b.longest->e_eff.last.t - b.longest->e_eff.first.t);
	outf("brief: %u %s, no slope (in under a quarter of the samples,\n  or for under "
	     "%u s or %u samples)\n  the largest peak %s: ", b.n, b.n == 1 ? kind_name[kind] :
	     kind_plural[kind], TREND_MIN_MS / 1000, TREND_MIN_SAMPLES, size);
	put_name(b.peak, path_room(22 + strlen(size)));
	outf("  the longest life %s: ", life);
	put_name(b.longest, path_room(21 + strlen(life)));
}

static void put_table(const struct opts *o, int kind, const char *title)
{
	uint32_t n, i, shown, judged;
	struct shown *v = trend_rows(kind, &n);
	int w = o->kib ? W_SIZE + 2 : W_SIZE;

	for (judged = 0; judged < n && !v[judged].brief; judged++)
		;
	shown = (uint32_t)rows_shown(o, o->csv ? n : judged);
	if (kind == TK_DMABUF && !n)
		return;	/* no process held a dma-buf */
	if (!o->csv && !o->noheader) {
		outf("%s%s\n %*s", kind == TK_DMABUF ? "\n" : "", title, W_SLOPE, "SLOPE/h");
		if (kind == TK_PROC || kind == TK_CGROUP || kind == TK_DMABUF)
			outf("%*s", W_SLOPE, kind == TK_DMABUF ? "" : "SOLE/h");
		outf(" %6s %*s %*s %*s %*s %s\n", "SAMPL", w - 1, "FIRST", w - 1, "LAST",
		     w - 1, "MIN", w - 1, "MAX", kind == TK_PROC || kind == TK_DMABUF ? "NAME COMMAND" :
		     kind == TK_FILE ? "PATH" : kind == TK_CGROUP ? "CGROUP" : "PART");
	}
	for (i = 0; i < shown; i++) {
		if (o->csv)
			put_csv(o, &v[i]);
		else
			put_text_row(o, &v[i]);
	}
	if (o->csv || o->noheader)
		return;
	if (!judged)
		outs("  (none judged)\n");
	put_brief(o, v, n, kind);
}

/* A budget's row: proc:NAME the processes, file:NAME or a path the file, a
 * plain name the processes of that name if the log has any, else the file. */
static const struct trow *budget_row(const struct budget *b, const struct trow *pair)
{
	const struct trow *pr = &pair[0], *fr = &pair[1], *r;

	if (b->kind == BN_RAM)
		die("--budget %s: the ram view's lines are not in a trend (give it to a capture: "
		    "-l LOG@N)", b->name);
	r = b->kind == BN_PROC || (b->kind == BN_ANY && pr->e_eff.samples) ? pr : fr;
	if (r == fr && fr->ambiguous)
		die("--budget %s: more than one mapped file is named so: give the path", b->name);
	if (!r->e_eff.samples) {
		out_flush();
		die("--budget %s: no %s of that name in the log", b->name, b->kind == BN_PROC ?
		    "process" : b->kind == BN_FILE ? "mapped file" : "process or mapped file");
	}
	return r;
}

/* A budget: the slope (SIZE/h) or the last value of what NAME names; text
 * only for a text report (a page's budgets are said on stderr alone). */
static void check_one(const struct opts *o, const struct budget *b, const struct trow *pair,
		      int say)
{
	const struct trow *r = budget_row(b, pair);
	struct shown s;
	char got[40], lim[40], life[24];
	int64_t used;
	int over;

	trend_fit(r, &s);
	if (b->per_hour && s.brief) {
		fmt_span(life, sizeof(life), r->e_eff.last.t - r->e_eff.first.t);
		if (say)
			outf("budget %s: brief (%u samples over %s): no slope, not checked\n",
			     b->name, r->e_eff.samples, life);
		out_flush();
		warnx("budget %s: %u of the log's %u samples, over %s: too brief for a slope (a "
		      "quarter of the samples, %u s and %u samples at least): not checked", b->name,
		      r->e_eff.samples, trend_summary()->used, life, TREND_MIN_MS / 1000,
		      TREND_MIN_SAMPLES);
		exit_at_least(EX_PARTIAL);
		return;
	}
	used = b->per_hour ? s.f.slope : (int64_t)r->last;
	over = used > 0 && (uint64_t)used > b->size;
	budget_texts(o, b, used, b->per_hour, got, lim, sizeof(got));
	if (say)
		outf("budget %s: %s %s%s of %s%s: %s\n", b->name, b->per_hour ? "slope" :
		     "eff_resident at the last sample", got, b->per_hour ? "/h" : "", lim,
		     b->per_hour ? "/h" : "", over ? "EXCEEDED" : "ok");
	out_flush();
	if (over) {
		warnx("budget %s exceeded: %s is %lld bytes%s, the budget %llu", b->name,
		      b->per_hour ? "its slope" : "eff_resident", (long long)used,
		      b->per_hour ? " an hour" : "", (unsigned long long)b->size);
		exit_at_least(EX_BUDGET);
	}
}

void trend_budgets(const struct opts *o, const struct trend_opts *to)
{
	size_t i;

	for (i = 0; i < to->nbudget; i++)
		check_one(o, &to->budgets[i], &trend_summary()->budget[2 * i],
			  !o->csv && o->view != V_HTML);
}

void trend_report(const struct opts *o, const struct trend_opts *to)
{
	const struct trend_sum *S = trend_summary();
	char a[40], b[40], span[24], w[24];
	uint32_t ncg;

	if (!o->csv && !o->noheader) {
		fmt_when(a, sizeof(a), S->real_first);
		fmt_when(b, sizeof(b), S->real_last);
		fmt_span(span, sizeof(span), S->t_last - S->t_first);
		outf("trend of %s: %u sample%s over %s,\n  %s to %s\n", S->log, S->used,
		     S->used == 1 ? "" : "s", span, a, b);
		if (S->skipped) {
			fmt_span(w, sizeof(w), to->warmup);
			outf("warm-up (-w %s): the first %u samples left out\n", w, S->skipped);
		}
		if (S->unknown)
			outf("%llu samples with values the log lost: those values left out\n",
			     (unsigned long long)S->unknown);
		outs("slope: how fast the floor (each window's least eff_resident) rose, an hour;\n"
		     "  a row of several processes: the floor of their mean, times their count\n"
		     "  (a cgroup's: of their sum)\n\n");
	}
	if (o->csv && !o->noheader)
		outs("kind,name,cmdline,samples,first,last,min,max,slope,sole_slope,grows,"
		     "life_ms,brief\n");
	if (S->pick) {
		char title[NAME_MAX_COMM + 64];
		uint64_t v;
		int by_pid = parse_u64(S->pick, INT32_MAX, &v) == 0;

		if (!S->pick_seen)
			die("-P %s: no process %s %s in the log", S->pick, by_pid ? "with pid" :
			    "named", S->pick);
		fmt_snprintf(title, sizeof(title), "parts of %s%s, by slope:", by_pid ? "pid " :
			     "the processes named ", S->pick);
		put_table(o, TK_PART, title);
		if (S->pick_reused)
			warnx("-P %s: the pid was reused later, by %s: only the first process of "
			      "that pid is followed", S->pick, S->reuser);
	} else {
		put_table(o, TK_PROC, "processes (by name and command line), by slope:");
		if (!o->csv && !o->noheader)
			outs("\n");
		put_table(o, TK_FILE, "files, by slope:");
		put_table(o, TK_DMABUF, "dma-bufs held (each one's share, eff_dmabuf), by slope:");
		trend_rows(TK_CGROUP, &ncg);	/* a log before cgroups were written: none */
		if (ncg) {
			if (!o->csv && !o->noheader)
				outs("\n");
			put_table(o, TK_CGROUP, "cgroups (their processes summed), by slope:");
		}
	}
	if (!o->csv && !o->noheader)
		outf("\n* grows: the floor rose %lluK or more, and steadily (most windows above "
		     "the ones\n  before); slopes are Theil-Sen's over the windows' minima\n",
		     (unsigned long long)GROW_MIN_BYTES / 1024);
	out_flush();
	trend_budgets(o, to);
}

void view_trend(const char *log, const struct opts *o, const char *pick, const char *warmup,
		const struct budget *b, size_t nbudget, uint64_t cap_mem)
{
	static struct trend_opts to;

	trend_read(log, o, pick, warmup, b, nbudget, cap_mem, &to);
#ifndef EXMAP_NO_PICTURES
	if (o->view == V_HTML) {
		trend_page(o, &to);
		trend_budgets(o, &to);
		return;
	}
#endif
	trend_report(o, &to);
}
