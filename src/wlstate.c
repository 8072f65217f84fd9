/* Watch logs read back: a sample closed (losses marked, a keyframe's ends, each entity given). */
/*
 * The reader's state (wlread.h) as wlog.c left it at a t line: the loss
 * ranges marked (a value unknown until written again or the next keyframe;
 * a definition lost: the id not given until defined again), a keyframe's
 * unmentioned entities ended, then every entity present given to the
 * caller, and the sample's marks cleared. A sample's work is over the ids
 * in use (their lists), whatever the tables' capacities.
 */
#include <string.h>

#include "capture.h"
#include "wlread.h"

/* ---- the run's tables ---- */

void wlr_tables(struct wlread *r)
{
	uint32_t slots = 16;
	uint64_t size;

	while (slots < 4 * r->nq)
		slots <<= 1;
	size = (uint64_t)r->np * (sizeof(struct rproc) + CMDLINE_MAX + 1 + PATH_BUF + 4) +
	       (uint64_t)r->nf * (sizeof(struct rfile) + PATH_BUF + 4) +
	       (uint64_t)slots * (sizeof(struct rpart) + 4) + r->nr * sizeof(struct rram) + (1u << 16);
	arena_release(&r->a);
	if (size != (size_t)size || arena_init(&r->a, (size_t)size) < 0)
		die("%s: cannot reserve %llu MiB to read the watch log (its h line's tables)",
		    r->w->path, (unsigned long long)(size >> 20));
	/* fresh memory is zero: nothing is touched until an id is used */
	r->proc = arena_alloc(&r->a, (size_t)r->np * sizeof(*r->proc), 8);
	r->file = arena_alloc(&r->a, (size_t)r->nf * sizeof(*r->file), 8);
	r->part = arena_alloc(&r->a, (size_t)slots * sizeof(*r->part), 8);
	r->ram = arena_alloc(&r->a, (size_t)r->nr * sizeof(*r->ram), 8);
	r->lp.id = arena_alloc(&r->a, (size_t)r->np * 4, 4);
	r->lf.id = arena_alloc(&r->a, (size_t)r->nf * 4, 4);
	r->inuse = arena_alloc(&r->a, (size_t)slots * 4, 4);
	r->cmds = arena_alloc(&r->a, (size_t)r->np * (CMDLINE_MAX + 1), 1);
	r->paths = arena_alloc(&r->a, (size_t)r->nf * PATH_BUF, 1);
	r->cgs = arena_alloc(&r->a, (size_t)r->np * PATH_BUF, 1);
	r->lp.n = r->lf.n = 0;
	r->qmask = slots - 1;
	r->nparts = 0;
	r->unsure_procs = r->unsure_files = 0;
}

/* ---- ids in use: sorted, so that a sample gives them in order ---- */

static uint32_t ids_at(const struct idlist *l, uint32_t id)
{
	uint32_t lo = 0, hi = l->n;

	while (lo < hi) {
		uint32_t m = lo + (hi - lo) / 2;

		if (l->id[m] < id)
			lo = m + 1;
		else
			hi = m;
	}
	return lo;
}

static void ids_add(struct idlist *l, uint32_t id)
{
	uint32_t i = ids_at(l, id);

	memmove(&l->id[i + 1], &l->id[i], (size_t)(l->n - i) * 4);
	l->id[i] = id;
	l->n++;
}

static void ids_del(struct idlist *l, uint32_t id)
{
	uint32_t i = ids_at(l, id);

	if (i < l->n && l->id[i] == id) {
		memmove(&l->id[i], &l->id[i + 1], (size_t)(l->n - i - 1) * 4);
		l->n--;
	}
}

/* The id's entry, made live (a new identity: nothing known of it yet). */
struct rproc *wlr_proc_take(struct wlread *r, uint32_t id)
{
	struct rproc *p = &r->proc[id];

	if (!p->live) {
		uint32_t gen = p->gen;

		memset(p, 0, sizeof(*p));
		p->gen = gen;
		p->pub.id = id;
		p->cmd = r->cmds + (size_t)id * (CMDLINE_MAX + 1);
		p->cg = r->cgs + (size_t)id * PATH_BUF;
		p->live = p->started = 1;
		ids_add(&r->lp, id);
	}
	return p;
}

/* Gone: its parts go stale (dropped as the parts are next walked). */
void wlr_proc_end(struct wlread *r, struct rproc *p)
{
	p->live = 0;
	p->gen++;
	ids_del(&r->lp, p->pub.id);
}

struct rfile *wlr_file_take(struct wlread *r, uint32_t id)
{
	struct rfile *f = &r->file[id];

	if (!f->live) {
		memset(f, 0, sizeof(*f));
		f->pub.id = id;
		f->path = r->paths + (size_t)id * PATH_BUF;
		f->pub.path = f->path;
		f->live = 1;
		ids_add(&r->lf, id);
	}
	return f;
}

static void file_end(struct wlread *r, struct rfile *f)
{
	f->live = 0;
	ids_del(&r->lf, f->pub.id);
}

/* ---- the parts: a hash table, and the list of its slots in use ---- */

static uint32_t part_home(const struct wlread *r, uint64_t k)
{
	return (uint32_t)((k * 0x9e3779b97f4a7c15u) >> 40) & r->qmask;
}

/* A part's slot: where key is, or the empty one where it would go. */
struct rpart *wlr_part_slot(struct wlread *r, uint64_t k)
{
	uint32_t h = part_home(r, k);

	while (r->part[h].key && r->part[h].key != k)
		h = (h + 1) & r->qmask;
	return &r->part[h];
}

/* An empty slot taken for k (the caller checked the load). */
void wlr_part_add(struct wlread *r, struct rpart *e, uint64_t k)
{
	memset(e, 0, sizeof(*e));
	e->key = k;
	e->at = r->nparts;
	r->inuse[r->nparts++] = (uint32_t)(e - r->part);
}

/* Take a part out: the ones after it in its probe run move back (no tombstones). */
static void part_del(struct wlread *r, struct rpart *e)
{
	uint32_t i = (uint32_t)(e - r->part), j = i, last = r->inuse[--r->nparts];

	r->inuse[e->at] = last;
	r->part[last].at = e->at;
	r->part[i].key = 0;
	for (;;) {
		uint32_t h;

		j = (j + 1) & r->qmask;
		if (!r->part[j].key)
			return;
		h = part_home(r, r->part[j].key);
		/* j's home h lies cyclically in (i, j]: it stays */
		if (i <= j ? (i < h && h <= j) : (i < h || h <= j))
			continue;
		r->part[i] = r->part[j];
		r->inuse[r->part[i].at] = i;
		r->part[j].key = 0;
		i = j;
	}
}

/* Its process, if the part is still that process's; NULL: stale. */
static struct rproc *part_proc(struct wlread *r, const struct rpart *e)
{
	struct rproc *p = &r->proc[(e->key >> 32) - 1];

	return p->live && p->gen == e->gen ? p : NULL;
}

/* A file's part whose file is not known (lost, or ended before it): not given. */
static int part_nameless(const struct wlread *r, const struct rpart *e)
{
	enum wl_part part = (enum wl_part)(e->key >> 28 & 15);
	const struct rfile *f = &r->file[e->key & 0xfffffff];

	return (part == WL_PART_FILE || part == WL_PART_DATA) && (!f->live || f->doubt);
}

/* ---- a sample closed ---- */

/* The open loss range, closed at key (GAPS_MAX of them; more: all unknown). */
void wlr_gap_to(struct wlread *r, uint64_t key)
{
	if (!r->gap_open)
		return;
	if (r->ngap < GAPS_MAX)
		r->gaps[r->ngap++] = (struct gap){ r->gap_from, key };
	else
		r->ngap = GAPS_MAX + 1;
	r->gap_open = 0;
}

/*
 * What a loss between keys a and b took: unknown, or of doubtful identity.
 * More than a line lost may have been a new process's (file's) definition
 * and its values both: some of the sample is then nobody's known. One line
 * alone cannot: a definition lost leaves its values naming nothing (said),
 * a value lost leaves its entity unknown.
 */
static void mark_range(struct wlread *r, uint64_t a, uint64_t b, int lines)
{
	uint32_t i;

#define IN(c, sub, id)	(wlr_key(c, sub, id) >= a && wlr_key(c, sub, id) <= b)
	r->unsure_procs |= lines > 1 && a <= wlr_key(WC_PROCDEF, 0, UINT32_MAX) &&
			   b >= wlr_key(WC_PROCDEF, 0, 0);
	r->unsure_files |= lines > 1 && a <= wlr_key(WC_FILEDEF, 0, UINT32_MAX) &&
			   b >= wlr_key(WC_FILEDEF, 0, 0);
	for (i = 0; i < r->lp.n; i++) {
		uint32_t id = r->lp.id[i];
		struct rproc *p = &r->proc[id];

		if (IN(WC_PROCDEF, 0, id))
			p->doubt = p->marked = 1;
		if (IN(WC_CGDEF, 0, id))	/* until its next G: a keyframe's at the latest */
			p->pub.cgroup_doubt = 1;
		if (IN(WC_PROC, 0, id))
			p->known = 0, p->marked = 1;
		/* its parts, and all of it where it may have exited */
		if (IN(WC_PART, 0, id) || IN(WC_END, 0, id))
			p->parts_unknown = p->marked = 1;
		if (IN(WC_END, 0, id))
			p->known = 0;
	}
	for (i = 0; i < r->lf.n; i++) {
		uint32_t id = r->lf.id[i];
		struct rfile *f = &r->file[id];

		if (IN(WC_FILEDEF, 0, id))
			f->doubt = f->marked = 1;
		if (IN(WC_FILE, 0, id) || IN(WC_END, 1, id))
			f->known = 0, f->marked = 1;
	}
	for (i = 0; i < r->nr; i++) {
		if (IN(WC_RAMDEF, 0, i))
			r->ram[i].doubt = r->ram[i].marked = 1;
		if (IN(WC_RAM, 0, i))
			r->ram[i].known = 0, r->ram[i].marked = 1;
	}
#undef IN
}

/* The losses of the sample marked; a keyframe's unmentioned entities ended. */
static void settle(struct wlread *r, int keyframe)
{
	uint32_t i;

	if (r->all_lost || r->ngap > GAPS_MAX)
		mark_range(r, 0, UINT64_MAX, 2);
	else
		for (i = 0; i < r->ngap; i++)
			mark_range(r, r->gaps[i].from, r->gaps[i].to, (int)r->lost_here);
	for (i = 0; i < r->nparts; i++) {
		struct rpart *e = &r->part[r->inuse[i]];
		const struct rproc *p = part_proc(r, e);

		if (p && p->parts_unknown)
			e->known = 0;
	}
	if (!keyframe)
		return;
	for (i = 0; i < r->lp.n; i++) {
		struct rproc *p = &r->proc[r->lp.id[i]];

		if (!p->seen && !p->marked)
			p->ended = 1;	/* its x was lost */
	}
	for (i = 0; i < r->lf.n; i++) {
		struct rfile *f = &r->file[r->lf.id[i]];

		if (!f->seen && !f->marked)
			f->ended = 1;
	}
	for (i = 0; i < r->nr; i++)
		if (r->ram[i].live && !r->ram[i].seen && !r->ram[i].marked)
			r->ram[i].live = 0;
	for (i = r->nparts; i-- > 0;) {
		struct rpart *e = &r->part[r->inuse[i]];
		const struct rproc *p = part_proc(r, e);

		/* not restated: gone, unless a loss may have taken it */
		if (!p || (!e->seen && !p->parts_unknown))
			part_del(r, e);
	}
}

static void give_value(struct wlread *r, const struct wl_sample *s, struct wl_value *v)
{
	if (r->ops->value)
		r->ops->value(r->arg, s, v);
}

/* Every entity present, to the caller. */
static void give(struct wlread *r, const struct wl_sample *s)
{
	struct wl_value v;
	uint32_t i;

	if (r->ops->sample)
		r->ops->sample(r->arg, s);
	for (i = 0; i < r->lp.n; i++) {
		const struct rproc *p = &r->proc[r->lp.id[i]];

		if (!p->doubt && p->started && r->ops->started)
			r->ops->started(r->arg, s, &p->pub);
	}
	for (i = 0; i < r->lp.n; i++) {
		const struct rproc *p = &r->proc[r->lp.id[i]];

		if (p->doubt || p->ended)
			continue;
		memset(&v, 0, sizeof(v));
		v.kind = WL_PROC;
		v.proc = &p->pub;
		memcpy(v.v, p->v, sizeof(v.v));
		v.known = p->known;
		v.changed = p->changed;
		give_value(r, s, &v);
	}
	for (i = 0; i < r->lf.n; i++) {
		const struct rfile *f = &r->file[r->lf.id[i]];

		if (f->doubt || f->ended)
			continue;
		memset(&v, 0, sizeof(v));
		v.kind = WL_FILE;
		v.file = &f->pub;
		v.v[0] = f->v;
		v.known = f->known;
		v.changed = f->changed;
		give_value(r, s, &v);
	}
	for (i = 0; i < r->nparts; i++) {
		const struct rpart *e = &r->part[r->inuse[i]];
		const struct rproc *p = part_proc(r, e);

		if (!p || p->doubt || p->ended || part_nameless(r, e))
			continue;
		memset(&v, 0, sizeof(v));
		v.kind = WL_PARTOF;
		v.proc = &p->pub;
		v.part = (enum wl_part)(e->key >> 28 & 15);
		if (v.part == WL_PART_FILE || v.part == WL_PART_DATA)
			v.file = &r->file[e->key & 0xfffffff].pub;
		v.v[0] = e->v;
		v.known = e->known;
		v.changed = e->changed;
		give_value(r, s, &v);
	}
	for (i = 0; i < r->nr; i++) {
		const struct rram *m = &r->ram[i];

		if (!m->live || m->doubt)
			continue;
		memset(&v, 0, sizeof(v));
		v.kind = WL_RAM;
		v.ram = m->name;
		v.ram_depth = m->depth;
		v.v[0] = m->v;
		v.known = m->known;
		v.changed = m->changed;
		give_value(r, s, &v);
	}
	for (i = 0; i < r->lp.n; i++) {
		const struct rproc *p = &r->proc[r->lp.id[i]];

		if (p->ended && r->ops->exited)
			r->ops->exited(r->arg, s, &p->pub);
	}
	if (r->ops->sample_end)
		r->ops->sample_end(r->arg, s);
}

/* Values of the sample that are not known (given so, or not given at all:
 * a part whose file is not known): the sample's count of them. */
static uint32_t count_unknown(struct wlread *r)
{
	uint32_t i, n = 0;

	for (i = 0; i < r->lp.n; i++) {
		const struct rproc *p = &r->proc[r->lp.id[i]];

		n += !p->doubt && !p->ended && p->known != ALL_FIELDS;
	}
	for (i = 0; i < r->lf.n; i++) {
		const struct rfile *f = &r->file[r->lf.id[i]];

		n += !f->doubt && !f->ended && !f->known;
	}
	for (i = 0; i < r->nparts; i++) {
		const struct rpart *e = &r->part[r->inuse[i]];
		const struct rproc *p = part_proc(r, e);

		n += p && !p->doubt && !p->ended && (!e->known || part_nameless(r, e));
	}
	for (i = 0; i < r->nr; i++)
		n += r->ram[i].live && !r->ram[i].doubt && !r->ram[i].known;
	return n;
}

/* After the sample: the ended ones go, and every per-sample mark is cleared. */
void wlr_clear(struct wlread *r)
{
	uint32_t i;

	for (i = r->lp.n; i-- > 0;) {
		struct rproc *p = &r->proc[r->lp.id[i]];
		int ended = p->ended;

		p->seen = p->started = p->ended = p->marked = p->parts_unknown = 0;
		p->changed = 0;
		if (ended)
			wlr_proc_end(r, p);
	}
	for (i = r->lf.n; i-- > 0;) {
		struct rfile *f = &r->file[r->lf.id[i]];
		int ended = f->ended;

		f->seen = f->ended = f->marked = 0;
		f->changed = 0;
		if (ended)
			file_end(r, f);
	}
	for (i = r->nparts; i-- > 0;) {
		struct rpart *e = &r->part[r->inuse[i]];

		/* stale, or written 0: ended */
		if (!part_proc(r, e) || (e->changed && e->known && e->v == 0))
			part_del(r, e);
		else
			e->changed = e->seen = 0;
	}
	for (i = 0; i < r->nr; i++)
		r->ram[i].seen = r->ram[i].changed = r->ram[i].marked = 0;
	r->ngap = r->lines = r->lost_here = 0;
	r->all_lost = r->gap_open = 0;
	r->orphan_procs = r->orphan_files = 0;
	r->prev_key = 0;
}

/* Identities not known at this sample: a definition lost, a record naming
 * what was not defined, and so on until a keyframe restates them whole. */
static int unsure(struct wlread *r, int whole_keyframe)
{
	uint32_t i;
	int dp = 0, df = 0;

	for (i = 0; i < r->lp.n && !dp; i++)
		dp = r->proc[r->lp.id[i]].doubt;
	for (i = 0; i < r->lf.n && !df; i++)
		df = r->file[r->lf.id[i]].doubt;
	if (whole_keyframe && !r->all_lost && r->ngap == 0)
		r->unsure_procs = r->unsure_files = 0;
	r->unsure_procs |= dp || r->orphan_procs;
	r->unsure_files |= df || r->orphan_files;
	return (r->unsure_procs ? WL_UNSURE_PROCS : 0) | (r->unsure_files ? WL_UNSURE_FILES : 0);
}

/* t N,TIME,UPTIME,LINES[,k]: the sample closed, given if the reader is in step. */
int wlr_close_sample(struct wlread *r, char *it)
{
	struct wl_sample s;
	char *f[5];
	uint64_t v[4];
	int n = wl_fields(it, f, 5), i, u;

	if (n < 4 || (n == 5 && strcmp(f[4], "k") != 0))
		return -1;
	for (i = 0; i < 4; i++)
		if (hex_parse(f[i], i == 1 || i == 2 ? WL_TIME_MAX : UINT64_MAX, &v[i]) < 0)
			return -1;
	wlr_gap_to(r, wlr_key(WC_TIME, 0, 0));
	if (r->have_last && (v[0] <= r->last_n || v[2] < r->last_up)) {
		/* a sample again, or one of before: its lines are not this one's */
		r->w->st.unordered++;
		wlr_say(r, "sample %llu after sample %llu%s: out of order, not given; what its "
			"lines wrote is unknown", (unsigned long long)v[0],
			(unsigned long long)r->last_n, v[0] > r->last_n ? " (its time before)" : "");
		r->all_lost = 1;
		settle(r, 0);
		unsure(r, 0);
		wlr_clear(r);
		return 0;
	}
	/*
	 * Samples missing: where the lines lost since the last t are as many,
	 * they were those samples' t lines, and nothing else was lost (their
	 * values came, only their times did not); else anything may have been.
	 * No sample missing: the lines lost and read are the sample's count,
	 * or lines went that SEQ's wrap hid.
	 */
	if (r->have_last && v[0] != r->last_n + 1) {
		if (r->lost_here == v[0] - r->last_n - 1)
			r->ngap = 0;
		else
			r->all_lost = 1;
	} else if (r->lines + r->lost_here != v[3]) {
		r->all_lost = 1;
	}
	settle(r, n == 5);
	u = unsure(r, n == 5);
	if (n == 5 && !r->all_lost && !r->synced) {
		r->synced = 1;
		if (r->unsynced)
			warnx("%s: %llu watch lines before the first keyframe (line %llu) skipped: "
			      "the log starts mid-way", r->file_now, (unsigned long long)r->unsynced,
			      (unsigned long long)r->at);
	}
	r->last_n = v[0];
	r->last_up = v[2];
	r->have_last = 1;
	if (r->synced) {
		memset(&s, 0, sizeof(s));
		s.n = v[0];
		s.time_ms = v[1];
		s.uptime_ms = v[2];
		s.keyframe = n == 5;
		s.run = r->run;
		s.run_id = r->id;
		s.interval_ms = r->ivl;
		s.page_size = r->ps;
		s.line = r->at;
		s.file = r->file_now;
		s.unknown = count_unknown(r);
		s.unsure = u;
		r->w->st.samples++;
		r->w->st.keyframes += s.keyframe;
		r->w->st.unknown += s.unknown != 0 || s.unsure != 0;
		give(r, &s);
		r->last_s = s;
	} else {
		r->w->st.skipped++;
		r->unsynced += r->lines;
	}
	wlr_clear(r);
	return 0;
}
