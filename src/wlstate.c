/* Watch logs read back: a sample closed (losses marked, a keyframe's ends, each entity given). */
/*
 * The reader's state (wlread.h) as wlog.c left it at a t line: the loss
 * ranges marked (a value unknown until written again or the next keyframe;
 * a definition lost: the id not given until defined again), a keyframe's
 * unmentioned entities ended, then every entity present given to the
 * caller, and the sample's marks cleared.
 */
#include <string.h>

#include "capture.h"
#include "wlread.h"

/* ---- the run's tables ---- */

void wlr_tables(struct wlread *r)
{
	uint32_t i, slots = 16;
	size_t size;

	while (slots < 4 * r->nq)
		slots <<= 1;
	size = (size_t)r->np * (sizeof(struct rproc) + CMDLINE_MAX + 1) +
	       (size_t)r->nf * (sizeof(struct rfile) + PATH_BUF) +
	       (size_t)slots * sizeof(struct rpart) + (size_t)r->nr * sizeof(struct rram) +
	       (1u << 16);
	arena_release(&r->a);
	if (arena_init(&r->a, size) < 0)
		die("%s: cannot reserve %zu MiB to read the watch log", r->w->path, size >> 20);
	r->proc = arena_alloc(&r->a, (size_t)r->np * sizeof(*r->proc), 8);
	r->file = arena_alloc(&r->a, (size_t)r->nf * sizeof(*r->file), 8);
	r->part = arena_alloc(&r->a, (size_t)slots * sizeof(*r->part), 8);
	r->ram = arena_alloc(&r->a, (size_t)r->nr * sizeof(*r->ram), 8);
	for (i = 0; i < r->np; i++) {
		r->proc[i].cmd = arena_alloc(&r->a, CMDLINE_MAX + 1, 1);
		r->proc[i].pub.id = i;
	}
	for (i = 0; i < r->nf; i++) {
		r->file[i].path = arena_alloc(&r->a, PATH_BUF, 1);
		r->file[i].pub.id = i;
	}
	r->qmask = slots - 1;
	r->nparts = 0;
}

/* A part's slot: where key is, or the empty one where it would go. */
struct rpart *wlr_part_slot(struct wlread *r, uint64_t k)
{
	uint32_t h = (uint32_t)((k * 0x9e3779b97f4a7c15u) >> 40) & r->qmask;

	while (r->part[h].key && r->part[h].key != k)
		h = (h + 1) & r->qmask;
	return &r->part[h];
}

/* Take a part out: the ones after it in its probe run move back (no tombstones). */
static void part_del(struct wlread *r, struct rpart *e)
{
	uint32_t i = (uint32_t)(e - r->part), j = i;

	r->part[i].key = 0;
	r->nparts--;
	for (;;) {
		uint32_t h;

		j = (j + 1) & r->qmask;
		if (!r->part[j].key)
			return;
		h = (uint32_t)((r->part[j].key * 0x9e3779b97f4a7c15u) >> 40) & r->qmask;
		/* j's home h lies cyclically in (i, j]: it stays */
		if (i <= j ? (i < h && h <= j) : (i < h || h <= j))
			continue;
		r->part[i] = r->part[j];
		r->part[j].key = 0;
		i = j;
	}
}

static void parts_of_proc_end(struct wlread *r, uint32_t id)
{
	uint32_t i;

	for (i = 0; i <= r->qmask; i++)
		while (r->part[i].key && r->part[i].key >> 32 == (uint64_t)id + 1)
			part_del(r, &r->part[i]);
}

void wlr_proc_end(struct wlread *r, struct rproc *p)
{
	parts_of_proc_end(r, p->pub.id);
	p->live = 0;
}

/* ---- a sample closed ---- */

/* What a loss between keys a and b took: unknown, or of doubtful identity. */
static void mark_range(struct wlread *r, uint64_t a, uint64_t b)
{
	uint32_t i;

#define IN(c, sub, id)	(wlr_key(c, sub, id) >= a && wlr_key(c, sub, id) <= b)
	for (i = 0; i < r->np; i++) {
		struct rproc *p = &r->proc[i];

		if (IN(WC_PROCDEF, 0, i))
			p->doubt = p->marked = 1;
		if (IN(WC_PROC, 0, i))
			p->known = 0, p->marked = 1;
		/* its parts, and all of it where it may have exited */
		if (IN(WC_PART, 0, i) || IN(WC_END, 0, i))
			p->parts_unknown = p->marked = 1;
		if (IN(WC_END, 0, i))
			p->known = 0;
	}
	for (i = 0; i < r->nf; i++) {
		struct rfile *f = &r->file[i];

		if (IN(WC_FILEDEF, 0, i))
			f->doubt = f->marked = 1;
		if (IN(WC_FILE, 0, i) || IN(WC_END, 1, i))
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

static void mark_all(struct wlread *r)
{
	mark_range(r, 0, UINT64_MAX);
}

/* The losses of the sample marked; a keyframe's unmentioned entities ended. */
static void settle(struct wlread *r, int keyframe)
{
	uint32_t i;

	if (r->all_lost || r->ngap > GAPS_MAX)
		mark_all(r);
	else
		for (i = 0; i < r->ngap; i++)
			mark_range(r, r->gaps[i].from, r->gaps[i].to);
	for (i = 0; i <= r->qmask; i++) {
		struct rpart *e = &r->part[i];

		if (e->key && r->proc[(e->key >> 32) - 1].parts_unknown)
			e->known = 0;
	}
	if (!keyframe)
		return;
	for (i = 0; i < r->np; i++)
		if (r->proc[i].live && !r->proc[i].seen && !r->proc[i].marked)
			r->proc[i].ended = 1;	/* its x was lost */
	for (i = 0; i < r->nf; i++)
		if (r->file[i].live && !r->file[i].seen && !r->file[i].marked)
			r->file[i].ended = 1;
	for (i = 0; i < r->nr; i++)
		if (r->ram[i].live && !r->ram[i].seen && !r->ram[i].marked)
			r->ram[i].live = 0;
	for (i = 0; i <= r->qmask; i++) {
		struct rpart *e = &r->part[i];

		/* not restated: gone, unless a loss may have taken it */
		while (e->key && !e->seen && !r->proc[(e->key >> 32) - 1].parts_unknown)
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
	for (i = 0; i < r->np; i++)
		if (r->proc[i].live && !r->proc[i].doubt && r->proc[i].started && r->ops->started)
			r->ops->started(r->arg, s, &r->proc[i].pub);
	for (i = 0; i < r->np; i++) {
		const struct rproc *p = &r->proc[i];

		if (!p->live || p->doubt || p->ended)
			continue;
		memset(&v, 0, sizeof(v));
		v.kind = WL_PROC;
		v.proc = &p->pub;
		memcpy(v.v, p->v, sizeof(v.v));
		v.known = p->known;
		v.changed = p->changed;
		give_value(r, s, &v);
	}
	for (i = 0; i < r->nf; i++) {
		const struct rfile *f = &r->file[i];

		if (!f->live || f->doubt || f->ended)
			continue;
		memset(&v, 0, sizeof(v));
		v.kind = WL_FILE;
		v.file = &f->pub;
		v.v[0] = f->v;
		v.known = f->known;
		v.changed = f->changed;
		give_value(r, s, &v);
	}
	for (i = 0; i <= r->qmask; i++) {
		const struct rpart *e = &r->part[i];
		const struct rproc *p;
		uint32_t file = (uint32_t)(e->key & 0xfffffff);

		if (!e->key)
			continue;
		p = &r->proc[(e->key >> 32) - 1];
		if (!p->live || p->doubt || p->ended)
			continue;
		memset(&v, 0, sizeof(v));
		v.kind = WL_PARTOF;
		v.proc = &p->pub;
		v.part = (enum wl_part)(e->key >> 28 & 15);
		if ((v.part == WL_PART_FILE || v.part == WL_PART_DATA) && r->file[file].live &&
		    !r->file[file].doubt)
			v.file = &r->file[file].pub;
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
	for (i = 0; i < r->np; i++)
		if (r->proc[i].live && r->proc[i].ended && r->ops->exited)
			r->ops->exited(r->arg, s, &r->proc[i].pub);
	if (r->ops->sample_end)
		r->ops->sample_end(r->arg, s);
}

/* Values given that are not known: the sample's count of them. */
static uint32_t count_unknown(struct wlread *r)
{
	uint32_t i, n = 0;

	for (i = 0; i < r->np; i++)
		n += r->proc[i].live && !r->proc[i].doubt && !r->proc[i].ended &&
		     r->proc[i].known != ALL_FIELDS;
	for (i = 0; i < r->nf; i++)
		n += r->file[i].live && !r->file[i].doubt && !r->file[i].ended && !r->file[i].known;
	for (i = 0; i <= r->qmask; i++)
		n += r->part[i].key && !r->part[i].known;
	for (i = 0; i < r->nr; i++)
		n += r->ram[i].live && !r->ram[i].doubt && !r->ram[i].known;
	return n;
}

/* After the sample: the ended ones go, and every per-sample mark is cleared. */
void wlr_clear(struct wlread *r)
{
	uint32_t i;

	for (i = 0; i < r->np; i++) {
		struct rproc *p = &r->proc[i];

		if (p->live && p->ended)
			wlr_proc_end(r, p);
		p->seen = p->started = p->ended = p->marked = p->parts_unknown = 0;
		p->changed = 0;
	}
	for (i = 0; i < r->nf; i++) {
		struct rfile *f = &r->file[i];

		if (f->ended)
			f->live = 0;
		f->seen = f->ended = f->marked = 0;
		f->changed = 0;
	}
	for (i = 0; i <= r->qmask; i++) {
		struct rpart *e = &r->part[i];

		/* a part written 0 has ended */
		while (e->key && e->changed && e->known && e->v == 0)
			part_del(r, e);
		e->changed = e->seen = 0;
	}
	for (i = 0; i < r->nr; i++)
		r->ram[i].seen = r->ram[i].changed = r->ram[i].marked = 0;
	r->ngap = r->lines = r->lost_here = 0;
	r->all_lost = r->gap_open = 0;
	r->prev_key = 0;
}

/* t N,TIME,UPTIME,LINES[,k]: the sample closed, given if the reader is in step. */
int wlr_close_sample(struct wlread *r, char *it)
{
	struct wl_sample s;
	char *f[5];
	uint64_t v[4];
	int n = wl_fields(it, f, 5), i;

	if (n < 4 || (n == 5 && strcmp(f[4], "k") != 0))
		return -1;
	for (i = 0; i < 4; i++)
		if (hex_parse(f[i], UINT64_MAX, &v[i]) < 0)
			return -1;
	if (r->gap_open && r->ngap < GAPS_MAX)
		r->gaps[r->ngap++] = (struct gap){ r->gap_from, wlr_key(WC_TIME, 0, 0) };
	r->gap_open = 0;
	/*
	 * Samples missing: where the lines lost since the last t are as many,
	 * they were those samples' t lines, and nothing else was lost (their
	 * values came, only their times did not); else anything may have been.
	 * No sample missing: the lines lost and read are the sample's count,
	 * or lines went that SEQ's wrap hid.
	 */
	if (r->have_last && v[0] != r->last_n + 1) {
		if (v[0] > r->last_n && r->lost_here == v[0] - r->last_n - 1)
			r->ngap = 0;
		else
			r->all_lost = 1;
	} else if (r->lines + r->lost_here != v[3]) {
		r->all_lost = 1;
	}
	settle(r, n == 5);
	if (n == 5 && !r->all_lost && !r->synced) {
		r->synced = 1;
		if (r->unsynced)
			warnx("%s: %llu watch lines before the first keyframe (line %llu) skipped: "
			      "the log starts mid-way", r->file_now, (unsigned long long)r->unsynced,
			      (unsigned long long)r->at);
	}
	r->last_n = v[0];
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
		r->w->st.samples++;
		r->w->st.keyframes += s.keyframe;
		r->w->st.unknown += s.unknown != 0;
		give(r, &s);
		r->last_s = s;
	} else {
		r->w->st.skipped++;
		r->unsynced += r->lines;
	}
	wlr_clear(r);
	return 0;
}