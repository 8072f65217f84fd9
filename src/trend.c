/* trend: a watch log's processes, files and parts, and how fast each floor rises. */
/*
 * A row is a process by its name and command line (its pids and restarts
 * one row; the processes of one key at a sample summed, a daemon's workers
 * together), a file by its path, and with -P NAME-or-PID the chosen
 * processes' parts. The log is walked through its reader (wlog.c), which
 * gives every value known at every sample; each sample adds one value to
 * each row present in it, to the row's lower envelope (slope.c); a value
 * the log lost is left out, never guessed. Rows live in the arena, a few
 * hundred bytes each; samples are never kept. The page walks the log twice:
 * the second time it keeps the largest growers' series, in SERIES_POINTS
 * buckets each, and the ram view's parts.
 */
#include <string.h>

#include "trend.h"
#include "wlog.h"

/* -P: the processes picked, by name or by pid (the first one of that pid). */
struct pick {
	const char *name;
	int32_t pid;
	uint64_t start;		/* the one followed, once seen */
};

static struct {
	struct arena *a;
	const struct trend_opts *to;
	struct trend_sum sum;
	struct trow **slot;
	uint32_t mask, n, most;	/* most: the load limit */
	struct trow *touched;	/* this sample's rows */
	uint32_t sample;	/* samples begun */
	int cg_doubt;		/* a process's cgroup is in doubt: no cgroup row this sample */
	int64_t t, t0;		/* ms since boot: this sample's, the log's first */
	int in_warmup, pass;	/* pass 2: the page's series */
	uint32_t bucket;	/* pass 2: this sample's */
	int unsure;		/* WL_UNSURE_*: an owner not named, so a row's sum may lack it */
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

/* The row of a key, made when first met if make (the page's walk makes none). */
static struct trow *row(int kind, const char *name, const char *cmd, uint32_t cmdlen, int make)
{
	uint32_t h = key_hash(kind, name, cmd, cmdlen) & T.mask;
	struct trow *r;

	for (; (r = T.slot[h]) != NULL; h = (h + 1) & T.mask)
		if (r->kind == kind && strcmp(r->name, name) == 0 && r->cmdlen == cmdlen &&
		    (!cmd || memcmp(r->cmd, cmd, cmdlen) == 0))
			return r;
	if (T.pass == 2 || !make)
		return NULL;
	if (T.n == T.most)
		die("trend: more than %u rows (processes by name and command line, files, "
		    "parts): raise the working memory with -m SIZE", T.most);
	T.n++;
	return T.slot[h] = row_new(kind, name, cmd, cmdlen);
}

/* A row's value at this sample, added to what its other processes gave. */
static void add(struct trow *r, uint64_t eff, uint64_t sole, int known)
{
	if (!r)
		return;
	if (r->touched != T.sample) {
		r->touched = T.sample;
		r->eff = r->sole = r->count = r->lost = 0;
		r->next = T.touched;
		T.touched = r;
	}
	/* past 64 bits: only a damaged log's values add up so far */
	r->lost |= !known || __builtin_add_overflow(r->eff, eff, &r->eff) ||
		   __builtin_add_overflow(r->sole, sole, &r->sole);
	r->count++;
}

/* The table: slots for as many rows of TREND_ROW_BYTES as the arena holds,
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
	T.pass = 1;
	while (slots < 2 * want && slots < (1u << 30))
		slots <<= 1;
	T.slot = arena_alloc(a, (size_t)slots * sizeof(*T.slot), 8);
	memset(T.slot, 0, (size_t)slots * sizeof(*T.slot));
	T.mask = slots - 1;
	T.most = slots / 2;
	T.sum.pick = to->pick;
	T.sum.log = to->log;
	if (to->nbudget) {
		T.sum.budget = arena_alloc(a, 2 * to->nbudget * sizeof(*T.sum.budget), 8);
		memset(T.sum.budget, 0, 2 * to->nbudget * sizeof(*T.sum.budget));
		for (i = 0; i < 2 * to->nbudget; i++) {
			T.sum.budget[i].kind = i % 2 ? TK_BUDGET_FILE : TK_BUDGET_PROC;
			T.sum.budget[i].name = to->budgets[i / 2].name;
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
	T.cg_doubt = 0;
	T.t = t;
	if (T.sample == 1)
		T.t0 = t;
	T.in_warmup = t - T.t0 < T.to->warmup;
	if (T.in_warmup)
		return;
	if (T.pass == 2) {
		T.bucket = (T.sample - 1 - T.sum.skipped) / T.sum.width;
		if (T.bucket >= SERIES_POINTS)
			T.bucket = SERIES_POINTS - 1;
		if (T.bucket >= T.sum.nbucket) {
			T.sum.ram_t[T.bucket] = t;
			T.sum.nbucket = T.bucket + 1;
		}
		return;
	}
	if (!T.sum.used++) {
		T.sum.t_first = t;
		T.sum.real_first = realtime;
	}
	T.sum.t_last = t;
	T.sum.real_last = realtime;
}

/* What a budget covers: a file by its path, or its basename for a name
 * without '/'; processes by their name (the report picks which, trendrep.c). */
static int names_file(const struct budget *b, const char *path)
{
	const char *base = strrchr(path, '/');

	if (b->kind != BN_ANY && b->kind != BN_FILE)
		return 0;
	return strcmp(b->target, path) == 0 ||
	       (!strchr(b->target, '/') && base && strcmp(base + 1, b->target) == 0);
}

static int names_proc(const struct budget *b, const char *comm)
{
	return (b->kind == BN_ANY || b->kind == BN_PROC) && strcmp(b->target, comm) == 0;
}

void trend_proc(int32_t pid, uint64_t start, const char *name, const char *cmd,
		uint32_t cmdlen, uint64_t eff, uint64_t sole, int known)
{
	static char alone[32];
	size_t i;

	(void)start;
	if (T.in_warmup)
		return;
	/* No command line: read after its scan, when it had exited (a watch reads
	 * a new process's then), or cleared. Its own row, by its pid: not every
	 * such process of its name as one, present at every sample. */
	if (!cmd || !cmdlen) {
		cmdlen = (uint32_t)fmt_snprintf(alone, sizeof(alone), "[pid %d]", (int)pid);
		cmd = alone;
	}
	add(row(TK_PROC, name, cmd, cmdlen, 1), eff, sole, known);
	for (i = 0; T.pass == 1 && i < T.to->nbudget; i++)
		if (names_proc(&T.to->budgets[i], name))
			add(&T.sum.budget[2 * i], eff, sole, known);
}

/* A process's dma-bufs' share: its row made once it holds one. */
void trend_dmabuf(const char *name, const char *cmd, uint32_t cmdlen, uint64_t eff, int known)
{
	if (!T.in_warmup)
		add(row(TK_DMABUF, name, cmd ? cmd : "", cmd ? cmdlen : 0, eff > 0), eff, 0, known);
}

void trend_file(const char *path, uint64_t eff, int known)
{
	size_t i;

	if (T.in_warmup)
		return;
	add(row(TK_FILE, path, NULL, 0, 1), eff, 0, known);
	for (i = 0; T.pass == 1 && i < T.to->nbudget; i++) {
		struct trow *b = &T.sum.budget[2 * i + 1];

		if (!names_file(&T.to->budgets[i], path))
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
		return strcmp(p->name, name) == 0 && (T.sum.pick_seen = 1);
	if (pid != p->pid)
		return 0;
	if (!T.sum.pick_seen) {
		T.sum.pick_seen = 1;
		p->start = start;
	}
	if (start == p->start)
		return 1;
	if (!T.sum.pick_reused) {
		T.sum.pick_reused = 1;
		fmt_snprintf(T.sum.reuser, sizeof(T.sum.reuser), "%s", name);
	}
	return 0;
}

void trend_part(int32_t pid, uint64_t start, const char *name, const char *part,
		uint64_t eff, int known)
{
	if (T.in_warmup || !T.to->pick || !picked(pid, start, name))
		return;
	add(row(TK_PART, part, NULL, 0, 1), eff, 0, known);
}

/* A process's value added to its cgroup's row; doubt: its cgroup may have
 * changed in a line the log lost, so no cgroup's sum at this sample is known. */
void trend_cgroup(const char *path, int doubt, uint64_t eff, uint64_t sole, int known)
{
	if (T.in_warmup)
		return;
	T.cg_doubt |= doubt;
	if (path)
		add(row(TK_CGROUP, path, NULL, 0, 1), eff, sole, known);
}

/* Pass 2: the value into the row's series: a point a bucket the row is in
 * (none for the buckets it is absent from). */
static void to_series(struct series *s, int64_t t, uint64_t v)
{
	uint32_t k = s->n - 1;

	if (!s->n || T.bucket != s->bucket) {
		k = s->n++;
		s->bucket = T.bucket;
		s->t[k] = t;
		s->lo[k] = s->hi[k] = v;
		return;
	}
	if (v < s->lo[k])
		s->lo[k] = v;
	if (v > s->hi[k])
		s->hi[k] = v;
}

void trend_sample_end(void)
{
	struct trow *r;

	if (T.in_warmup) {
		T.sum.skipped += T.pass == 1;
		return;
	}
	for (r = T.touched; r; r = r->next) {
		uint32_t per = r->kind == TK_CGROUP ? 1 : r->count;	/* a cgroup's: the sum */

		if (r->lost || (r->kind == TK_CGROUP && T.cg_doubt))
			continue;
		if (T.pass == 2) {
			if (r->ser)
				to_series(r->ser, T.t, r->eff);
			continue;
		}
		if (!r->e_eff.samples)
			r->first = r->min = r->max = r->eff;
		r->last = r->eff;
		r->min = r->eff < r->min ? r->eff : r->min;
		r->max = r->eff > r->max ? r->eff : r->max;
		r->nlast = per;
		env_add(&r->e_eff, T.t, (r->eff + per / 2) / per);
		if (r->kind == TK_PROC || r->kind == TK_CGROUP || r->kind == TK_BUDGET_PROC)
			env_add(&r->e_sole, T.t, (r->sole + per / 2) / per);
	}
	T.touched = NULL;
}

/* Pass 2: a part of MemTotal at this sample, into its series. */
static void ram_value(const char *name, int depth, int64_t v)
{
	struct trend_sum *S = &T.sum;
	uint32_t i;

	for (i = 0; i < S->nram && strcmp(S->ram[i].name, name) != 0; i++)
		;
	if (i == S->nram) {
		if (S->nram == WL_RAM_MAX)
			return;
		S->ram[i].name = arena_strdup(T.a, name, strlen(name));
		S->ram[i].depth = depth;
		S->nram++;
	}
	S->ram[i].v[T.bucket] = v;
}

/* ---- the reader's calls ---- */

static void on_sample(void *arg, const struct wl_sample *s)
{
	(void)arg;
	T.unsure = s->unsure;
	trend_sample((int64_t)s->uptime_ms, s->time_ms / 1000);
}

static void on_value(void *arg, const struct wl_value *v)
{
	static char part[PATH_BUF + 16];
	const struct wl_proc *p = v->proc;
	int procs = !(T.unsure & WL_UNSURE_PROCS), files = !(T.unsure & WL_UNSURE_FILES);

	(void)arg;
	switch (v->kind) {
	case WL_PROC:
		trend_proc(p->pid, p->start, p->name, p->cmdline, p->cmdlen,
			   (uint64_t)v->v[WL_EFF_RESIDENT], (uint64_t)v->v[WL_SOLE],
			   (v->known & 3) == 3 && procs);
		trend_dmabuf(p->name, p->cmdline, p->cmdlen, (uint64_t)v->v[WL_EFF_DMABUF],
			     ((v->known >> WL_EFF_DMABUF) & 1) && procs);
		trend_cgroup(p->cgroup, p->cgroup_doubt, (uint64_t)v->v[WL_EFF_RESIDENT],
			     (uint64_t)v->v[WL_SOLE], (v->known & 3) == 3 && procs);
		break;
	case WL_FILE:
		trend_file(v->file->path, (uint64_t)v->v[0], (v->known & 1) && files);
		break;
	case WL_PARTOF:
		if (v->part == WL_PART_FILE || v->part == WL_PART_DATA)
			fmt_snprintf(part, sizeof(part), "%s%s", v->file->path,
				     v->part == WL_PART_DATA ? " .data/.bss" : "");
		else	/* [anon], as the files view names anonymous memory */
			fmt_snprintf(part, sizeof(part), "%s", v->part == WL_PART_ANON ? "[anon]" :
				     wl_part_name[v->part]);
		trend_part(p->pid, p->start, p->name, part, (uint64_t)v->v[0],
			   (v->known & 1) && procs && files);
		break;
	case WL_RAM:
		if (v->ram_depth == WL_RAM_OWNER && !T.in_warmup)	/* a kernel owner's */
			add(row(TK_KOWN, v->ram, NULL, 0, 1), (uint64_t)v->v[0], 0, v->known & 1);
		else if (v->ram_depth != WL_RAM_OWNER && T.pass == 2 && !T.in_warmup && (v->known & 1))
			ram_value(v->ram, v->ram_depth, v->v[0]);
		break;
	}
}

static void on_value_cb(void *arg, const struct wl_sample *s, const struct wl_value *v)
{
	(void)s;
	on_value(arg, v);
}

static void on_sample_end(void *arg, const struct wl_sample *s)
{
	(void)arg;
	(void)s;
	trend_sample_end();
}

static const struct wl_ops trend_ops = {
	.sample = on_sample, .value = on_value_cb, .sample_end = on_sample_end,
};

/* Judged rows by slope, the largest first; then the brief, the largest peak first. */
static int cmp_shown(const void *pa, const void *pb)
{
	const struct shown *a = pa, *b = pb;
	int c = (a->brief > b->brief) - (a->brief < b->brief);

	if (!c && !a->brief)
		c = (b->f.slope > a->f.slope) - (b->f.slope < a->f.slope);
	if (!c && a->brief)
		c = (b->r->max > a->r->max) - (b->r->max < a->r->max);
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

/* Present long enough, in enough of the log's samples, to be judged on a slope. */
static int evidence(const struct envelope *e)
{
	return e->samples >= TREND_MIN_SAMPLES && e->last.t - e->first.t >= TREND_MIN_MS &&
	       (uint64_t)e->samples * TREND_SHARE >= T.sum.used;
}

void trend_fit(const struct trow *r, struct shown *s)
{
	s->r = (struct trow *)r;
	env_fit(&r->e_eff, &s->f);
	env_fit(&r->e_sole, &s->fs);
	s->f.slope *= r->nlast;
	s->fs.slope *= r->nlast;
	s->brief = !s->f.known || !evidence(&r->e_eff);
	s->grows = !s->brief && env_grows(&s->f);
}

struct shown *trend_rows(int kind, uint32_t *n)
{
	struct shown *v = arena_alloc(T.a, ((size_t)T.n + 1) * sizeof(*v), 8);
	uint32_t i, k = 0;

	for (i = 0; i <= T.mask; i++) {
		struct trow *r = T.slot[i];

		if (!r || r->kind != kind || !r->e_eff.samples)
			continue;
		trend_fit(r, &v[k++]);
	}
	sort(v, k, sizeof(*v), cmp_shown);
	*n = k;
	return v;
}

void trend_brief(const struct shown *v, uint32_t n, struct brief *b)
{
	uint32_t i;

	memset(b, 0, sizeof(*b));
	for (i = 0; i < n; i++) {
		const struct trow *r = v[i].r;

		if (!v[i].brief)
			continue;
		b->n++;
		if (!b->peak || r->max > b->peak->max)
			b->peak = r;
		if (!b->longest || r->e_eff.last.t - r->e_eff.first.t >
				   b->longest->e_eff.last.t - b->longest->e_eff.first.t)
			b->longest = r;
	}
}

const struct trend_sum *trend_summary(void)
{
	return &T.sum;
}

#ifndef EXMAP_NO_PICTURES
/* The page: the growers of each kind get a series, and the walk goes again. */
#define PAGE_GROWERS	8

static void walk_series(struct wlog *w)
{
	static const int kinds[] = { TK_PROC, TK_FILE, TK_PART, TK_KOWN };
	uint32_t k, i, n;

	for (k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		struct shown *v = trend_rows(kinds[k], &n);

		for (i = 0; i < n && i < PAGE_GROWERS && !v[i].brief; i++) {
			v[i].r->ser = arena_alloc(T.a, sizeof(struct series), 8);
			memset(v[i].r->ser, 0, sizeof(struct series));
		}
	}
	T.sum.ram = arena_alloc(T.a, WL_RAM_MAX * sizeof(*T.sum.ram), 8);
	memset(T.sum.ram, 0, WL_RAM_MAX * sizeof(*T.sum.ram));
	T.sum.width = (T.sum.used + SERIES_POINTS - 1) / SERIES_POINTS;
	T.pass = 2;
	T.sample = 0;
	if (wlog_read(w, &trend_ops, NULL) < 0)
		die("%s: it held samples, and now none: did it change?", w->path);
}
#endif

/* A command line for a person: its arguments with spaces between. */
void cmd_words(const struct trow *r, char *buf, size_t len)
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

/* The arena for the rows when -m does not say: address space, opened as it
 * fills (a row is TREND_ROW_BYTES and its names). */
#define TREND_ARENA	(UINT64_C(256) << 20)

void trend_read(const char *log, const struct opts *o, const char *pick, const char *warmup,
		const struct budget *b, size_t nbudget, uint64_t cap_mem, struct trend_opts *to)
{
	static struct arena a;
	static struct wlog w;
	uint64_t size = cap_mem ? cap_mem : TREND_ARENA;

	if (pick && strchr(pick, ','))
		die("-P %s: trend follows one process's parts: give one name or pid", pick);
	if (warmup && parse_duration(warmup, &to->warmup) < 0)
		die("-w: not a duration (seconds, or with s, m, h, d: 90, 15m, 2h): %s", warmup);
	to->pick = pick;
	to->budgets = b;
	to->nbudget = nbudget;
	arena_release(&a);	/* a walk before, or a fatal error's (the fuzzers') */
	if (size != (size_t)size || arena_init(&a, (size_t)size) < 0)
		die("cannot reserve an arena of %llu MiB: cap it with -m SIZE",
		    (unsigned long long)(size >> 20));
	to->log = log;
	wlog_open(log, &w);
	trend_begin(&a, to);
	if (wlog_read(&w, &trend_ops, NULL) < 0)
		die("%s: a watch log with no sample: nothing to fit", log);
	T.sum.runs = w.st.runs;
	T.sum.lost = w.st.lost;
	T.sum.unknown = w.st.unknown;
	if (!T.sum.used)
		die("%s: no sample after the warm-up (-w %s): nothing to fit", log, warmup);
#ifdef EXMAP_NO_PICTURES
	(void)o;	/* the page's alone */
#else
	if (o->view == V_HTML)
		walk_series(&w);
#endif
	wlog_close(&w);
}
