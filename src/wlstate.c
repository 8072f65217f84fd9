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

struct wlread wlr;

/* ---- the run's tables ---- */

void wlr_tables(void)
{
	uint32_t i, slots = 16;
	size_t size;

	while (slots < 4 * wlr.nq)
		slots <<= 1;
	size = (size_t)wlr.np * (sizeof(struct rproc) + CMDLINE_MAX + 1 + PATH_BUF) +
	       (size_t)wlr.nf * (sizeof(struct rfile) + PATH_BUF) +
	       (size_t)slots * sizeof(struct rpart) + (size_t)wlr.nr * sizeof(struct rram) +
	       (1u << 16);
	arena_release(&wlr.a);
	if (arena_init(&wlr.a, size) < 0)
		die("%s: cannot reserve %zu MiB to read the watch log", wlr.w->path, size >> 20);
	wlr.proc = arena_alloc(&wlr.a, (size_t)wlr.np * sizeof(*wlr.proc), 8);
	wlr.file = arena_alloc(&wlr.a, (size_t)wlr.nf * sizeof(*wlr.file), 8);
	wlr.part = arena_alloc(&wlr.a, (size_t)slots * sizeof(*wlr.part), 8);
	wlr.ram = arena_alloc(&wlr.a, (size_t)wlr.nr * sizeof(*wlr.ram), 8);
	for (i = 0; i < wlr.np; i++) {
		wlr.proc[i].cmd = arena_alloc(&wlr.a, CMDLINE_MAX + 1, 1);
		wlr.proc[i].cg = arena_alloc(&wlr.a, PATH_BUF, 1);
		wlr.proc[i].pub.id = i;
	}
	for (i = 0; i < wlr.nf; i++) {
		wlr.file[i].path = arena_alloc(&wlr.a, PATH_BUF, 1);
		wlr.file[i].pub.id = i;
	}
	wlr.qmask = slots - 1;
	wlr.nparts = 0;
}

/* A part's slot: where key is, or the empty one where it would go. */
struct rpart *wlr_part_slot(uint64_t k)
{
	uint32_t h = (uint32_t)((k * 0x9e3779b97f4a7c15u) >> 40) & wlr.qmask;

	while (wlr.part[h].key && wlr.part[h].key != k)
		h = (h + 1) & wlr.qmask;
	return &wlr.part[h];
}

/* Take a part out: the ones after it in its probe run move back (no tombstones). */
static void part_del(struct rpart *e)
{
	uint32_t i = (uint32_t)(e - wlr.part), j = i;

	wlr.part[i].key = 0;
	wlr.nparts--;
	for (;;) {
		uint32_t h;

		j = (j + 1) & wlr.qmask;
		if (!wlr.part[j].key)
			return;
		h = (uint32_t)((wlr.part[j].key * 0x9e3779b97f4a7c15u) >> 40) & wlr.qmask;
		/* j's home h lies cyclically in (i, j]: it stays */
		if (i <= j ? (i < h && h <= j) : (i < h || h <= j))
			continue;
		wlr.part[i] = wlr.part[j];
		wlr.part[j].key = 0;
		i = j;
	}
}

static void parts_of_proc_end(uint32_t id)
{
	uint32_t i;

	for (i = 0; i <= wlr.qmask; i++)
		while (wlr.part[i].key && wlr.part[i].key >> 32 == (uint64_t)id + 1)
			part_del(&wlr.part[i]);
}

void wlr_proc_end(struct rproc *p)
{
	parts_of_proc_end(p->pub.id);
	p->live = 0;
}

/* ---- a sample closed ---- */

/* What a loss between keys a and b took: unknown, or of doubtful identity. */
static void mark_range(uint64_t a, uint64_t b)
{
	uint32_t i;

#define IN(c, sub, id)	(wlr_key(c, sub, id) >= a && wlr_key(c, sub, id) <= b)
	for (i = 0; i < wlr.np; i++) {
		struct rproc *p = &wlr.proc[i];

		if (IN(WC_PROCDEF, 0, i))
			p->doubt = p->marked = 1;
		if (IN(WC_CGDEF, 0, i))	/* until its next G: a keyframe's at the latest */
			p->pub.cgroup_doubt = 1;
		if (IN(WC_PROC, 0, i))
			p->known = 0, p->marked = 1;
		/* its parts, and all of it where it may have exited */
		if (IN(WC_PART, 0, i) || IN(WC_END, 0, i))
			p->parts_unknown = p->marked = 1;
		if (IN(WC_END, 0, i))
			p->known = 0;
	}
	for (i = 0; i < wlr.nf; i++) {
		struct rfile *f = &wlr.file[i];

		if (IN(WC_FILEDEF, 0, i))
			f->doubt = f->marked = 1;
		if (IN(WC_FILE, 0, i) || IN(WC_END, 1, i))
			f->known = 0, f->marked = 1;
	}
	for (i = 0; i < wlr.nr; i++) {
		if (IN(WC_RAMDEF, 0, i))
			wlr.ram[i].doubt = wlr.ram[i].marked = 1;
		if (IN(WC_RAM, 0, i))
			wlr.ram[i].known = 0, wlr.ram[i].marked = 1;
	}
#undef IN
}

static void mark_all(void)
{
	mark_range(0, UINT64_MAX);
}

/* The losses of the sample marked; a keyframe's unmentioned entities ended. */
static void settle(int keyframe)
{
	uint32_t i;

	if (wlr.all_lost || wlr.ngap > GAPS_MAX)
		mark_all();
	else
		for (i = 0; i < wlr.ngap; i++)
			mark_range(wlr.gaps[i].from, wlr.gaps[i].to);
	for (i = 0; i <= wlr.qmask; i++) {
		struct rpart *e = &wlr.part[i];

		if (e->key && wlr.proc[(e->key >> 32) - 1].parts_unknown)
			e->known = 0;
	}
	if (!keyframe)
		return;
	for (i = 0; i < wlr.np; i++)
		if (wlr.proc[i].live && !wlr.proc[i].seen && !wlr.proc[i].marked)
			wlr.proc[i].ended = 1;	/* its x was lost */
	for (i = 0; i < wlr.nf; i++)
		if (wlr.file[i].live && !wlr.file[i].seen && !wlr.file[i].marked)
			wlr.file[i].ended = 1;
	for (i = 0; i < wlr.nr; i++)
		if (wlr.ram[i].live && !wlr.ram[i].seen && !wlr.ram[i].marked)
			wlr.ram[i].live = 0;
	for (i = 0; i <= wlr.qmask; i++) {
		struct rpart *e = &wlr.part[i];

		/* not restated: gone, unless a loss may have taken it */
		while (e->key && !e->seen && !wlr.proc[(e->key >> 32) - 1].parts_unknown)
			part_del(e);
	}
}

static void give_value(const struct wl_sample *s, struct wl_value *v)
{
	if (wlr.ops->value)
		wlr.ops->value(wlr.arg, s, v);
}

/* Every entity present, to the caller. */
static void give(const struct wl_sample *s)
{
	struct wl_value v;
	uint32_t i;

	if (wlr.ops->sample)
		wlr.ops->sample(wlr.arg, s);
	for (i = 0; i < wlr.np; i++)
		if (wlr.proc[i].live && !wlr.proc[i].doubt && wlr.proc[i].started && wlr.ops->started)
			wlr.ops->started(wlr.arg, s, &wlr.proc[i].pub);
	for (i = 0; i < wlr.np; i++) {
		const struct rproc *p = &wlr.proc[i];

		if (!p->live || p->doubt || p->ended)
			continue;
		memset(&v, 0, sizeof(v));
		v.kind = WL_PROC;
		v.proc = &p->pub;
		memcpy(v.v, p->v, sizeof(v.v));
		v.known = p->known;
		v.changed = p->changed;
		give_value(s, &v);
	}
	for (i = 0; i < wlr.nf; i++) {
		const struct rfile *f = &wlr.file[i];

		if (!f->live || f->doubt || f->ended)
			continue;
		memset(&v, 0, sizeof(v));
		v.kind = WL_FILE;
		v.file = &f->pub;
		v.v[0] = f->v;
		v.known = f->known;
		v.changed = f->changed;
		give_value(s, &v);
	}
	for (i = 0; i <= wlr.qmask; i++) {
		const struct rpart *e = &wlr.part[i];
		const struct rproc *p;
		uint32_t file = (uint32_t)(e->key & 0xfffffff);

		if (!e->key)
			continue;
		p = &wlr.proc[(e->key >> 32) - 1];
		if (!p->live || p->doubt || p->ended)
			continue;
		memset(&v, 0, sizeof(v));
		v.kind = WL_PARTOF;
		v.proc = &p->pub;
		v.part = (enum wl_part)(e->key >> 28 & 15);
		if ((v.part == WL_PART_FILE || v.part == WL_PART_DATA) && wlr.file[file].live &&
		    !wlr.file[file].doubt)
			v.file = &wlr.file[file].pub;
		v.v[0] = e->v;
		v.known = e->known;
		v.changed = e->changed;
		give_value(s, &v);
	}
	for (i = 0; i < wlr.nr; i++) {
		const struct rram *r = &wlr.ram[i];

		if (!r->live || r->doubt)
			continue;
		memset(&v, 0, sizeof(v));
		v.kind = WL_RAM;
		v.ram = r->name;
		v.ram_depth = r->depth;
		v.v[0] = r->v;
		v.known = r->known;
		v.changed = r->changed;
		give_value(s, &v);
	}
	for (i = 0; i < wlr.np; i++)
		if (wlr.proc[i].live && wlr.proc[i].ended && wlr.ops->exited)
			wlr.ops->exited(wlr.arg, s, &wlr.proc[i].pub);
	if (wlr.ops->sample_end)
		wlr.ops->sample_end(wlr.arg, s);
}

/* Values given that are not known: the sample's count of them. */
static uint32_t count_unknown(void)
{
	uint32_t i, n = 0;

	for (i = 0; i < wlr.np; i++)
		n += wlr.proc[i].live && !wlr.proc[i].doubt && !wlr.proc[i].ended &&
		     wlr.proc[i].known != ALL_FIELDS;
	for (i = 0; i < wlr.nf; i++)
		n += wlr.file[i].live && !wlr.file[i].doubt && !wlr.file[i].ended && !wlr.file[i].known;
	for (i = 0; i <= wlr.qmask; i++)
		n += wlr.part[i].key && !wlr.part[i].known;
	for (i = 0; i < wlr.nr; i++)
		n += wlr.ram[i].live && !wlr.ram[i].doubt && !wlr.ram[i].known;
	return n;
}

/* After the sample: the ended ones go, and every per-sample mark is cleared. */
void wlr_clear(void)
{
	uint32_t i;

	for (i = 0; i < wlr.np; i++) {
		struct rproc *p = &wlr.proc[i];

		if (p->live && p->ended)
			wlr_proc_end(p);
		p->seen = p->started = p->ended = p->marked = p->parts_unknown = 0;
		p->changed = 0;
	}
	for (i = 0; i < wlr.nf; i++) {
		struct rfile *f = &wlr.file[i];

		if (f->ended)
			f->live = 0;
		f->seen = f->ended = f->marked = 0;
		f->changed = 0;
	}
	for (i = 0; i <= wlr.qmask; i++) {
		struct rpart *e = &wlr.part[i];

		/* a part written 0 has ended */
		while (e->key && e->changed && e->known && e->v == 0)
			part_del(e);
		e->changed = e->seen = 0;
	}
	for (i = 0; i < wlr.nr; i++)
		wlr.ram[i].seen = wlr.ram[i].changed = wlr.ram[i].marked = 0;
	wlr.ngap = wlr.lines = wlr.lost_here = 0;
	wlr.all_lost = wlr.gap_open = 0;
	wlr.prev_key = 0;
}

/* t N,TIME,UPTIME,LINES[,k]: the sample closed, given if the reader is in step. */
int wlr_close_sample(char *it)
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
	if (wlr.gap_open && wlr.ngap < GAPS_MAX)
		wlr.gaps[wlr.ngap++] = (struct gap){ wlr.gap_from, wlr_key(WC_TIME, 0, 0) };
	wlr.gap_open = 0;
	/*
	 * Samples missing: where the lines lost since the last t are as many,
	 * they were those samples' t lines, and nothing else was lost (their
	 * values came, only their times did not); else anything may have been.
	 * No sample missing: the lines lost and read are the sample's count,
	 * or lines went that SEQ's wrap hid.
	 */
	if (wlr.have_last && v[0] != wlr.last_n + 1) {
		if (v[0] > wlr.last_n && wlr.lost_here == v[0] - wlr.last_n - 1)
			wlr.ngap = 0;
		else
			wlr.all_lost = 1;
	} else if (wlr.lines + wlr.lost_here != v[3]) {
		wlr.all_lost = 1;
	}
	settle(n == 5);
	if (n == 5 && !wlr.all_lost && !wlr.synced) {
		wlr.synced = 1;
		if (wlr.unsynced)
			warnx("%s: %llu watch lines before the first keyframe (line %llu) skipped: "
			      "the log starts mid-way", wlr.file_now, (unsigned long long)wlr.unsynced,
			      (unsigned long long)wlr.at);
	}
	wlr.last_n = v[0];
	wlr.have_last = 1;
	if (wlr.synced) {
		memset(&s, 0, sizeof(s));
		s.n = v[0];
		s.time_ms = v[1];
		s.uptime_ms = v[2];
		s.keyframe = n == 5;
		s.run = wlr.run;
		s.run_id = wlr.id;
		s.interval_ms = wlr.ivl;
		s.page_size = wlr.ps;
		s.line = wlr.at;
		s.file = wlr.file_now;
		s.unknown = count_unknown();
		wlr.w->st.samples++;
		wlr.w->st.keyframes += s.keyframe;
		wlr.w->st.unknown += s.unknown != 0;
		give(&s);
		wlr.last_s = s;
	} else {
		wlr.w->st.skipped++;
		wlr.unsynced += wlr.lines;
	}
	wlr_clear();
	return 0;
}