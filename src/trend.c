/* trend: a watch log's processes, files and parts, and how fast each floor rises. */
/*
 * A row is a process by its name and command line (its pids and restarts
 * one row; the processes of one key at a sample summed, a daemon's workers
 * together), a file by its path, and with -P NAME-or-PID the chosen
 * processes' parts. Each sample adds one value to each row present in it,
 * to the row's lower envelope (slope.c); a value the log lost is left out,
 * never guessed. Rows live in the arena, a few hundred bytes each; samples
 * are never kept. Budgets (--budget NAME=SIZE/h) are rows of their own.
 */
#include <string.h>
#include <time.h>

#include "trend.h"

enum { TK_PROC, TK_FILE, TK_PART, TK_BUDGET_PROC, TK_BUDGET_FILE };

struct trow {
	const char *name;
	const char *cmd;	/* NUL between arguments; NULL but for a process */
	uint32_t cmdlen;
	uint8_t kind;
	uint8_t lost;		/* a value of this sample was lost */
	uint32_t touched;	/* the sample it was last added to, from 1 */
	struct trow *next;	/* the next row touched in this sample */
	uint64_t eff, sole;	/* this sample's sums */
	const char *path;	/* a file budget's first file, to tell two apart */
	int ambiguous;		/* a file budget matched files of two paths */
	struct envelope e_eff, e_sole;
};

/* -P: the processes picked, by name or by pid (the first one of that pid). */
struct pick {
	const char *name;
	int32_t pid;
	uint64_t start;		/* the one followed, once seen */
	int seen, reused;
	char reuser[NAME_MAX_COMM];
	uint32_t nproc;
};

static struct {
	struct arena *a;
	const struct trend_opts *to;
	struct trow **slot;
	uint32_t mask, n, most;	/* most: the load limit */
	struct trow *touched;	/* this sample's rows */
	struct trow *budget;	/* two a budget: processes, files */
	uint32_t sample;	/* samples begun */
	int64_t t, t0, t_first, t_last;	/* ms since boot */
	uint64_t real_first, real_last;
	int in_warmup;
	uint32_t used, skipped;	/* samples fitted, left out as warm-up */
	struct pick pick;
} T;

static uint32_t key_hash(int kind, const char *name, const char *cmd, uint32_t cmdlen)
{
	uint32_t h = hash_bytes(HASH_SEED + (uint32_t)kind, name, strlen(name));

	return cmd ? hash_bytes(h, cmd, cmdlen) : h;
}

static struct trow *row_new(int kind, const char *name, const char *cmd, uint32_t cmdlen)
{
	struct trow *r = arena_alloc(T.a, sizeof(*r), 8);

	memset(r, 0, sizeof(*r));
	r->kind = (uint8_t)kind;
	r->name = arena_strdup(T.a, name, strlen(name));
	if (cmd) {
		char *c = arena_alloc(T.a, cmdlen + 1, 1);

		memcpy(c, cmd, cmdlen);
		c[cmdlen] = '\0';
		r->cmd = c;
		r->cmdlen = cmdlen;
	}
	return r;
}

/* The row of a key, made when first met. */
static struct trow *row(int kind, const char *name, const char *cmd, uint32_t cmdlen)
{
	uint32_t h = key_hash(kind, name, cmd, cmdlen) & T.mask;
	struct trow *r;

	for (; (r = T.slot[h]) != NULL; h = (h + 1) & T.mask)
		if (r->kind == kind && strcmp(r->name, name) == 0 && r->cmdlen == cmdlen &&
		    (!cmd || memcmp(r->cmd, cmd, cmdlen) == 0))
			return r;
	if (T.n == T.most)
		die("trend: more than %u rows (processes by name and command line, files, "
		    "parts): raise the working memory with -m SIZE", T.most);
	T.n++;
	return T.slot[h] = row_new(kind, name, cmd, cmdlen);
}

/* A row's value at this sample, added to what its other processes gave. */
static void add(struct trow *r, uint64_t eff, uint64_t sole, int known)
{
	if (r->touched != T.sample) {
		r->touched = T.sample;
		r->eff = r->sole = 0;
		r->lost = 0;
		r->next = T.touched;
		T.touched = r;
	}
	r->eff += eff;
	r->sole += sole;
	r->lost |= !known;
}

/* The table: slots for a row each TREND_ROW_BYTES of the arena could hold,
 * twice over (the load limit is half). */
#define TREND_ROW_BYTES	(sizeof(struct trow) + 64)

void trend_begin(struct arena *a, const struct trend_opts *to)
{
	uint64_t want = a->size / 2 / TREND_ROW_BYTES;
	uint32_t slots = 1024;
	size_t i;
	uint64_t v;

	memset(&T, 0, sizeof(T));
	T.a = a;
	T.to = to;
	while (slots < 2 * want && slots < (1u << 30))
		slots <<= 1;
	T.slot = arena_alloc(a, (size_t)slots * sizeof(*T.slot), 8);
	memset(T.slot, 0, (size_t)slots * sizeof(*T.slot));
	T.mask = slots - 1;
	T.most = slots / 2;
	if (to->nbudget) {
		T.budget = arena_alloc(a, 2 * to->nbudget * sizeof(*T.budget), 8);
		memset(T.budget, 0, 2 * to->nbudget * sizeof(*T.budget));
		for (i = 0; i < 2 * to->nbudget; i++) {
			T.budget[i].kind = i % 2 ? TK_BUDGET_FILE : TK_BUDGET_PROC;
			T.budget[i].name = to->budgets[i / 2].name;
		}
	}
	if (to->pick) {
		if (parse_u64(to->pick, INT32_MAX, &v) == 0 && v > 0)
			T.pick.pid = (int32_t)v;
		else
			T.pick.name = to->pick;
	}
}

void trend_sample(int64_t t, uint64_t realtime)
{
	T.sample++;
	T.touched = NULL;
	T.t = t;
	if (T.sample == 1)
		T.t0 = t;
	T.in_warmup = t - T.t0 < T.to->warmup;
	if (T.in_warmup)
		return;
	if (!T.used++) {
		T.t_first = t;
		T.real_first = realtime;
	}
	T.t_last = t;
	T.real_last = realtime;
}

/* The file budgets NAME matches: its path, or its basename for a name
 * without '/'. */
static int names_file(const char *name, const char *path)
{
	const char *b = strrchr(path, '/');

	if (strncmp(name, "proc:", 5) == 0 || strncmp(name, "ram:", 4) == 0)
		return 0;
	return strcmp(name, path) == 0 || (!strchr(name, '/') && b && strcmp(b + 1, name) == 0);
}

static int names_proc(const char *name, const char *comm)
{
	if (strncmp(name, "proc:", 5) == 0)
		name += 5;
	else if (strchr(name, '/') || strncmp(name, "ram:", 4) == 0)
		return 0;
	return strcmp(name, comm) == 0;
}

void trend_proc(int32_t pid, uint64_t start, const char *name, const char *cmd,
		uint32_t cmdlen, uint64_t eff, uint64_t sole, int known)
{
	size_t i;

	if (T.in_warmup)
		return;
	add(row(TK_PROC, name, cmd ? cmd : "", cmd ? cmdlen : 0), eff, sole, known);
	for (i = 0; i < T.to->nbudget; i++)
		if (names_proc(T.budget[2 * i].name, name))
			add(&T.budget[2 * i], eff, sole, known);
	(void)pid;
	(void)start;
}

void trend_file(const char *path, uint64_t eff, int known)
{
	size_t i;

	if (T.in_warmup)
		return;
	add(row(TK_FILE, path, NULL, 0), eff, 0, known);
	for (i = 0; i < T.to->nbudget; i++) {
		struct trow *b = &T.budget[2 * i + 1];

		if (!names_file(b->name, path))
			continue;
		if (!b->path)
			b->path = arena_strdup(T.a, path, strlen(path));
		else if (strcmp(b->path, path) != 0)
			b->ambiguous = 1;
		add(b, eff, 0, known);
	}
}

/* Is the process pid (started at start) named name among -P's? */
static int picked(int32_t pid, uint64_t start, const char *name)
{
	struct pick *p = &T.pick;

	if (p->name)
		return strcmp(p->name, name) == 0;
	if (!p->pid || pid != p->pid)
		return 0;
	if (!p->seen) {
		p->seen = 1;
		p->start = start;
	}
	if (start == p->start)
		return 1;
	if (!p->reused) {
		p->reused = 1;
		fmt_snprintf(p->reuser, sizeof(p->reuser), "%s", name);
	}
	return 0;
}

void trend_part(int32_t pid, uint64_t start, const char *name, const char *part,
		uint64_t eff, int known)
{
	if (T.in_warmup || (!T.pick.name && !T.pick.pid) || !picked(pid, start, name))
		return;
	add(row(TK_PART, part, NULL, 0), eff, 0, known);
}

void trend_sample_end(void)
{
	struct trow *r;

	if (T.in_warmup) {
		T.skipped++;
		return;
	}
	for (r = T.touched; r; r = r->next) {
		if (r->lost)
			continue;
		env_add(&r->e_eff, T.t, r->eff);
		if (r->kind == TK_PROC || r->kind == TK_BUDGET_PROC)
			env_add(&r->e_sole, T.t, r->sole);
	}
	T.touched = NULL;
}

/* ---- the report ---- */

/* -w's DURATION: a number of seconds, or with s, m, h or d. */
int parse_duration(const char *s, int64_t *ms)
{
	static const struct { char unit; int64_t ms; } units[] = {
		{ 's', 1000 }, { 'm', 60000 }, { 'h', 3600000 }, { 'd', 86400000 },
	};
	char num[24];
	size_t n = strlen(s), i;
	int64_t mul = 1000;
	uint64_t v;

	for (i = 0; n && i < sizeof(units) / sizeof(units[0]); i++)
		if (s[n - 1] == units[i].unit) {
			mul = units[i].ms;
			n--;
			break;
		}
	if (n == 0 || n >= sizeof(num))
		return -1;
	memcpy(num, s, n);
	num[n] = '\0';
	if (parse_u64(num, (uint64_t)INT64_MAX / 86400000, &v) < 0)
		return -1;
	*ms = (int64_t)v * mul;
	return 0;
}

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

struct shown {
	struct trow *r;
	struct env_fit f, fs;
};

static int cmp_shown(const void *pa, const void *pb)
{
	const struct shown *a = pa, *b = pb;
	int c = (b->f.known > a->f.known) - (b->f.known < a->f.known);

	if (!c && a->f.known)
		c = (b->f.slope > a->f.slope) - (b->f.slope < a->f.slope);
	if (!c)
		c = strcmp(a->r->name, b->r->name);
	if (!c && a->r->cmd) {
		uint32_t n = a->r->cmdlen < b->r->cmdlen ? a->r->cmdlen : b->r->cmdlen;

		c = memcmp(a->r->cmd, b->r->cmd, n);
		if (!c)
			c = (a->r->cmdlen > b->r->cmdlen) - (a->r->cmdlen < b->r->cmdlen);
	}
	return c;
}

/* The rows of one kind that have a sample, fitted and sorted by slope. */
static struct shown *gather(int kind, uint32_t *n)
{
	struct shown *v = arena_alloc(T.a, ((size_t)T.n + 1) * sizeof(*v), 8);
	uint32_t i, k = 0;

	for (i = 0; i <= T.mask; i++) {
		struct trow *r = T.slot[i];

		if (!r || r->kind != kind || !r->e_eff.samples)
			continue;
		v[k].r = r;
		env_fit(&r->e_eff, &v[k].f);
		env_fit(&r->e_sole, &v[k].fs);
		k++;
	}
	sort(v, k, sizeof(*v), cmp_shown);
	*n = k;
	return v;
}

static const char *const kind_name[] = { "process", "file", "part" };

/* A command line for a person: its arguments with spaces between. */
static void cmd_text(const struct trow *r, char *buf, size_t len)
{
	uint32_t i, n = r->cmdlen < len - 1 ? r->cmdlen : (uint32_t)len - 1;

	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)r->cmd[i];

		buf[i] = c == '\0' ? ' ' : c < 0x20 || c == 0x7f ? '?' : (char)c;
	}
	while (n && buf[n - 1] == ' ')
		n--;
	buf[n] = '\0';
}

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
	const struct envelope *e = &s->r->e_eff;

	(void)o;
	outs(kind_name[s->r->kind]);
	outs(",");
	csv_field(s->r->name, strlen(s->r->name));
	outs(",");
	if (s->r->cmd) {
		cmd_text(s->r, cmd, sizeof(cmd));
		csv_field(cmd, strlen(cmd));
	}
	outf(",%u,%llu,%llu,%llu,%llu,", e->samples, (unsigned long long)e->first.v,
	     (unsigned long long)e->last.v, (unsigned long long)e->min,
	     (unsigned long long)e->max);
	if (s->f.known)
		outf("%lld", (long long)s->f.slope);
	outs(",");
	if (s->r->kind == TK_PROC && s->fs.known)
		outf("%lld", (long long)s->fs.slope);
	outf(",%d\n", env_grows(&s->f));
}

/* Text: "* SLOPE/h SOLE/h SAMPL FIRST LAST MIN MAX NAME", cut to fit. */
#define W_SLOPE	8
#define W_SIZE	7
static void put_text_row(const struct opts *o, const struct shown *s)
{
	static char cmd[CMDLINE_MAX + 1], line[NAME_MAX_COMM + CMDLINE_MAX + 2];
	const struct envelope *e = &s->r->e_eff;
	int proc = s->r->kind == TK_PROC, w = o->kib ? W_SIZE + 2 : W_SIZE;
	char buf[32];
	size_t used, room;
	uint64_t v[4] = { e->first.v, e->last.v, e->min, e->max };
	int k;

	outs(env_grows(&s->f) ? "*" : " ");
	fmt_signed(o, buf, sizeof(buf), s->f.slope, s->f.known);
	outf("%*s", W_SLOPE, buf);
	if (proc) {
		fmt_signed(o, buf, sizeof(buf), s->fs.slope, s->fs.known);
		outf("%*s", W_SLOPE, buf);
	}
	outf(" %6u", e->samples);
	for (k = 0; k < 4; k++) {
		fmt_size(o, buf, sizeof(buf), v[k]);
		outf(" %*s", w - 1, buf);
	}
	used = 1 + W_SLOPE * (proc ? 2 : 1) + 7 + 4 * (size_t)w + 1;
	room = path_room(used);
	outs(" ");
	if (!proc) {		/* a path: cut from the left, as files and maps do */
		put_text(s->r->name, room, 0);
		outs("\n");
		return;
	}
	cmd_text(s->r, cmd, sizeof(cmd));
	fmt_snprintf(line, sizeof(line), "%s %s", s->r->name, cmd + args_at(s->r));
	for (char *c = line; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			*c = '?';
	if (strlen(line) > room)
		memcpy(line + room - 3, "...", 4);
	outf("%s\n", line);
}

static void put_table(const struct opts *o, int kind, const char *title)
{
	uint32_t n, i, shown;
	struct shown *v = gather(kind, &n);
	int w = o->kib ? W_SIZE + 2 : W_SIZE;

	shown = (uint32_t)rows_shown(o, n);
	if (!o->csv && !o->noheader) {
		outf("%s\n %*s", title, W_SLOPE, o->kib ? "SLOPE K/h" : "SLOPE/h");
		if (kind == TK_PROC)
			outf("%*s", W_SLOPE, "SOLE/h");
		outf(" %6s %*s %*s %*s %*s %s\n", "SAMPL", w - 1, "FIRST", w - 1, "LAST",
		     w - 1, "MIN", w - 1, "MAX", kind == TK_PROC ? "NAME COMMAND" :
		     kind == TK_FILE ? "PATH" : "PART");
	}
	for (i = 0; i < shown; i++) {
		if (o->csv)
			put_csv(o, &v[i]);
		else
			put_text_row(o, &v[i]);
	}
	if (!n && !o->csv && !o->noheader)
		outs("  (none)\n");
}

/* A budget: the slope (SIZE/h) or the last value of what NAME names, as
 * --budget's rule has it for a capture: a file by path or name, else the
 * processes of that name, summed. */
static void check_one(const struct opts *o, size_t i)
{
	const struct budget *b = &T.to->budgets[i];
	struct trow *pr = &T.budget[2 * i], *fr = &T.budget[2 * i + 1], *r;
	struct env_fit f;
	char got[32], lim[32];
	int64_t used;
	int over;

	if (strncmp(b->name, "ram:", 4) == 0)
		die("--budget %s: the ram view's lines are not in a trend (give it to a capture: "
		    "-l LOG@N)", b->name);
	if (fr->ambiguous)
		die("--budget %s: more than one mapped file is named so: give the path", b->name);
	if (fr->e_eff.samples && pr->e_eff.samples)
		die("--budget %s: the name of processes and of the mapped file %s: write "
		    "proc:%s=SIZE for the processes, or the path for the file", b->name,
		    fr->path, b->name);
	r = fr->e_eff.samples ? fr : pr;
	if (!r->e_eff.samples) {
		if (!o->csv)
			outf("budget %s: no %s of that name in the log: not checked\n", b->name,
			     strchr(b->name, '/') ? "mapped file" : "process or mapped file");
		out_flush();
		warnx("budget %s: no process or mapped file of that name in the log: not checked",
		      b->name);
		exit_at_least(EX_PARTIAL);
		return;
	}
	env_fit(&r->e_eff, &f);
	if (b->per_hour && !f.known) {
		if (!o->csv)
			outf("budget %s: too few samples for a slope: not checked\n", b->name);
		out_flush();
		warnx("budget %s: %u samples, too few for a slope: not checked", b->name,
		      r->e_eff.samples);
		exit_at_least(EX_PARTIAL);
		return;
	}
	used = b->per_hour ? f.slope : (int64_t)r->e_eff.last.v;
	over = used > 0 && (uint64_t)used > b->size;
	fmt_signed(o, got, sizeof(got), used, 1);
	fmt_size(o, lim, sizeof(lim), b->size);
	if (!o->csv)
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

void trend_report(const char *log, const struct opts *o)
{
	char a[40], b[40], span[24], w[24];
	size_t i;

	if (!T.used)
		die("%s: no sample%s: nothing to fit (a watch log has samples between "
		    "its captures)", log, T.skipped ? " after the warm-up (-w)" : "");
	if (!o->csv && !o->noheader) {
		fmt_when(a, sizeof(a), T.real_first);
		fmt_when(b, sizeof(b), T.real_last);
		fmt_span(span, sizeof(span), T.t_last - T.t_first);
		outf("trend of %s: %u samples over %s, %s to %s\n", log, T.used, span, a, b);
		if (T.skipped) {
			fmt_span(w, sizeof(w), T.to->warmup);
			outf("warm-up (-w %s): the first %u samples left out\n", w, T.skipped);
		}
		outs("slope: how fast the floor (each window's least eff_resident) rose, an hour\n\n");
	}
	if (o->csv && !o->noheader)
		outs("kind,name,cmdline,samples,first,last,min,max,slope,sole_slope,grows\n");
	if (T.pick.name || T.pick.pid) {
		char title[NAME_MAX_COMM + 64];

		fmt_snprintf(title, sizeof(title), "parts of %s%s, by slope:", T.pick.name ?
			     "the processes named " : "pid ", T.to->pick);
		if (!T.pick.name && !T.pick.seen)
			die("-P %s: no such process in the log", T.to->pick);
		put_table(o, TK_PART, title);
		if (T.pick.reused)
			warnx("-P %d: the pid was reused later, by %s: only the first process of "
			      "that pid is followed", (int)T.pick.pid, T.pick.reuser);
	} else {
		put_table(o, TK_PROC, "processes (by name and command line), by slope:");
		if (!o->csv && !o->noheader)
			outs("\n");
		put_table(o, TK_FILE, "files, by slope:");
	}
	if (!o->csv && !o->noheader)
		outf("\n* grows: the floor rose %lluK or more, and steadily (most windows above "
		     "the ones\n  before); slopes are Theil-Sen's over the windows' minima\n",
		     (unsigned long long)GROW_MIN_BYTES / 1024);
	out_flush();
	for (i = 0; i < T.to->nbudget; i++)
		check_one(o, i);
}

/* The arena for the rows when -m does not say: address space, opened as it
 * fills (a row is TREND_ROW_BYTES and its names). */
#define TREND_ARENA	(UINT64_C(256) << 20)

void view_trend(const char *log, const struct opts *o, const char *pick, const char *warmup,
		const struct budget *b, size_t nbudget, uint64_t cap_mem)
{
	static struct arena a;
	static struct trend_opts to;
	uint64_t size = cap_mem ? cap_mem : TREND_ARENA;

	if (!log)
		die("trend: give the watch log with -l LOG");
	if (o->all || o->sort >= 0 || o->rfile || o->sysroot)
		die("-%c: not with the trend view (its rows are by slope, every one)",
		    o->all ? 'a' : o->sort >= 0 ? 's' : o->rfile ? 'F' : 'S');
	if (pick && strchr(pick, ','))
		die("-P %s: trend follows one process's parts: give one name or pid", pick);
	if (warmup && parse_duration(warmup, &to.warmup) < 0)
		die("-w: not a duration (seconds, or with s, m, h, d: 90, 15m, 2h): %s", warmup);
	to.pick = pick;
	to.budgets = b;
	to.nbudget = nbudget;
	if (size != (size_t)size || arena_init(&a, (size_t)size) < 0)
		die("cannot reserve an arena of %llu MiB: cap it with -m SIZE",
		    (unsigned long long)(size >> 20));
	trend_begin(&a, &to);
	trend_walk(log);
	trend_report(log, o);
}
