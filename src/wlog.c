/* Watch logs read back: the state at each sample, what a loss took marked unknown. */
/*
 * The reader keeps one sample's state, in tables sized by the run's h line
 * (the writer's capacities), in memory of its own: processes and files by
 * id, parts in an open-addressing table keyed by (process, part, file),
 * the ram view's parts. Lines apply as they come (values are whole, never
 * differences); a gap in SEQ is a loss, and what lay between the lines on
 * either side of it, in the sample's class and id order, is unknown until
 * written again or the next keyframe. The t line closes a sample: losses
 * marked, a keyframe's unmentioned entities ended, then every entity given.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "capture.h"
#include "wlog.h"

#define GAPS_MAX	64	/* loss ranges in a sample; more: all of it unknown */
#define SAID_MAX	16	/* losses said one by one; the rest counted */
#define ALL_FIELDS	((1u << WL_NFIELD) - 1)

struct rproc {
	struct wl_proc pub;
	char *cmd;		/* CMDLINE_MAX + 1 */
	int live, doubt;	/* defined; its definition may have been lost */
	int64_t v[WL_NFIELD];
	uint32_t known, changed;
	uint8_t seen, started, ended, marked, parts_unknown;
};

struct rfile {
	struct wl_file pub;
	char *path;		/* PATH_BUF */
	int live, doubt;
	int64_t v;
	uint32_t known, changed;
	uint8_t seen, ended, marked;
};

struct rpart {
	uint64_t key;		/* proc id + 1 << 32 | part << 28 | file id: 0 empty */
	int64_t v;
	uint8_t known, changed, seen;
};

struct rram {
	char name[64];
	int depth, live, doubt;
	int64_t v;
	uint8_t known, changed, seen, marked;
};

struct gap {
	uint64_t from, to;	/* keys: class << 40 | sub << 32 | id */
};

/* What a definition needs while its text goes on in "+" lines. */
struct pend {
	int cls;		/* WC_N: none */
	uint32_t id;
	uint64_t a, b, c;	/* pid start flags; dev inode flags; depth */
	char name[NAME_MAX_COMM];
	size_t want, elen;
	char esc[3 * PATH_BUF + 8];
};

static struct {
	struct wlog *w;
	const struct wl_ops *ops;
	void *arg;
	struct arena a;
	/* the run */
	uint64_t id, ps, ivl;
	uint32_t np, nf, nq, nr;
	int have_run, synced;
	uint64_t last_n;
	int have_last;
	struct rproc *proc;
	struct rfile *file;
	struct rpart *part;	/* a power of two, at least 4 * nq slots */
	uint32_t qmask, nparts;
	struct rram *ram;
	/* the sample being read */
	uint32_t seq;
	int have_seq, gap_open, all_lost;
	uint64_t prev_key, gap_from;
	struct gap gaps[GAPS_MAX];
	uint32_t ngap, lines, lost_here;
	struct pend pend;
	/* notes */
	uint64_t unsynced;	/* watch lines read before the first keyframe */
	uint32_t run, said;
	const char *file_now;
	uint64_t at;		/* the line being read */
	struct wl_sample last_s;	/* the last one given */
} R;

static uint64_t key(int cls, int sub, uint32_t id)
{
	return (uint64_t)cls << 40 | (uint64_t)sub << 32 | id;
}

/* ---- parsing ---- */

/* s split at commas into f[0..max): how many. */
static int fields(char *s, char **f, int max)
{
	int n = 0;

	while (n < max) {
		f[n++] = s;
		if (!(s = strchr(s, ',')))
			break;
		*s++ = '\0';
	}
	return n;
}

static int shex(const char *s, int64_t *v)
{
	uint64_t u;

	if (hex_parse(s + (*s == '-'), INT64_MAX, &u) < 0)
		return -1;
	*v = *s == '-' ? -(int64_t)u : (int64_t)u;
	return 0;
}

/* ---- the run's tables ---- */

static void tables(void)
{
	uint32_t i, slots = 16;
	size_t size;

	while (slots < 4 * R.nq)
		slots <<= 1;
	size = (size_t)R.np * (sizeof(struct rproc) + CMDLINE_MAX + 1) +
	       (size_t)R.nf * (sizeof(struct rfile) + PATH_BUF) +
	       (size_t)slots * sizeof(struct rpart) + (size_t)R.nr * sizeof(struct rram) +
	       (1u << 16);
	arena_release(&R.a);
	if (arena_init(&R.a, size) < 0)
		die("%s: cannot reserve %zu MiB to read the watch log", R.w->path, size >> 20);
	R.proc = arena_alloc(&R.a, (size_t)R.np * sizeof(*R.proc), 8);
	R.file = arena_alloc(&R.a, (size_t)R.nf * sizeof(*R.file), 8);
	R.part = arena_alloc(&R.a, (size_t)slots * sizeof(*R.part), 8);
	R.ram = arena_alloc(&R.a, (size_t)R.nr * sizeof(*R.ram), 8);
	for (i = 0; i < R.np; i++) {
		R.proc[i].cmd = arena_alloc(&R.a, CMDLINE_MAX + 1, 1);
		R.proc[i].pub.id = i;
	}
	for (i = 0; i < R.nf; i++) {
		R.file[i].path = arena_alloc(&R.a, PATH_BUF, 1);
		R.file[i].pub.id = i;
	}
	R.qmask = slots - 1;
	R.nparts = 0;
}

/* A part's slot: where key is, or the empty one where it would go. */
static struct rpart *part_slot(uint64_t k)
{
	uint32_t h = (uint32_t)((k * 0x9e3779b97f4a7c15u) >> 40) & R.qmask;

	while (R.part[h].key && R.part[h].key != k)
		h = (h + 1) & R.qmask;
	return &R.part[h];
}

/* Take a part out: the ones after it in its probe run move back (no tombstones). */
static void part_del(struct rpart *e)
{
	uint32_t i = (uint32_t)(e - R.part), j = i;

	R.part[i].key = 0;
	R.nparts--;
	for (;;) {
		uint32_t h;

		j = (j + 1) & R.qmask;
		if (!R.part[j].key)
			return;
		h = (uint32_t)((R.part[j].key * 0x9e3779b97f4a7c15u) >> 40) & R.qmask;
		/* j's home h lies cyclically in (i, j]: it stays */
		if (i <= j ? (i < h && h <= j) : (i < h || h <= j))
			continue;
		R.part[i] = R.part[j];
		R.part[j].key = 0;
		i = j;
	}
}

static void parts_of_proc_end(uint32_t id)
{
	uint32_t i;

	for (i = 0; i <= R.qmask; i++)
		while (R.part[i].key && R.part[i].key >> 32 == (uint64_t)id + 1)
			part_del(&R.part[i]);
}


/* ---- notes ---- */

static void say_loss(uint32_t n)
{
	if (R.said++ < SAID_MAX)
		warnx("%s: line %llu: %u watch line%s lost before it: what %s carried is "
		      "unknown until written again or the next keyframe", R.file_now,
		      (unsigned long long)R.at, n, n == 1 ? "" : "s", n == 1 ? "it" : "they");
	else if (R.said == SAID_MAX + 1)
		warnx("%s: more watch lines lost: counted at the end", R.file_now);
}

/* ---- definitions ---- */

static void proc_end(struct rproc *p)
{
	parts_of_proc_end(p->pub.id);
	p->live = 0;
}

static void proc_define(const struct pend *d, const char *cmd, size_t n)
{
	struct rproc *p = &R.proc[d->id];

	/* the id another process's: its x was lost, it exited */
	if (p->live && (p->pub.pid != (int32_t)d->a || p->pub.start != d->b)) {
		if (R.synced && R.ops->exited)	/* after the last sample given, at the latest */
			R.ops->exited(R.arg, &R.last_s, &p->pub);
		proc_end(p);
	}
	if (!p->live) {
		memset(p->v, 0, sizeof(p->v));
		p->known = 0;
		p->started = 1;
	}
	p->live = 1;
	p->doubt = 0;
	p->seen = 1;
	p->pub.pid = (int32_t)d->a;
	p->pub.start = d->b;
	p->pub.born = (int)(d->c & 1);
	strcpy(p->pub.name, d->name);
	memcpy(p->cmd, cmd, n);
	p->cmd[n] = '\0';
	p->pub.cmdline = p->cmd;
	p->pub.cmdlen = (uint32_t)n;
}

static void file_define(const struct pend *d, const char *path, size_t n)
{
	struct rfile *f = &R.file[d->id];

	if (!f->live || f->pub.inode != d->b || f->pub.dev != (uint32_t)d->a ||
	    strcmp(f->path, path) != 0) {
		f->v = 0;
		f->known = 0;
	}
	f->live = 1;
	f->doubt = 0;
	f->seen = 1;
	f->ended = 0;
	f->pub.dev = (uint32_t)d->a;
	f->pub.inode = d->b;
	f->pub.flags = (uint32_t)d->c;
	memcpy(f->path, path, n + 1);
	f->pub.path = f->path;
}

/* The definition whose text is all in: unescaped, applied. */
static void pend_done(void)
{
	static char text[PATH_BUF + 1];
	struct pend *d = &R.pend;
	int cls = d->cls;
	size_t n;

	d->cls = WC_N;
	if (wl_unescape(d->esc, d->elen, text, sizeof(text), &n) < 0 || n != d->want)
		return;	/* not a definition: the id stays unknown */
	if (cls == WC_PROCDEF)
		proc_define(d, text, n);
	else
		file_define(d, text, n);
}

/* Escaped text for the definition waiting for it: applied once all of it is in. */
static void pend_add(const char *s)
{
	struct pend *d = &R.pend;
	size_t n = strlen(s), got = 0, i;

	if (n > sizeof(d->esc) - 1 - d->elen) {
		d->cls = WC_N;
		return;
	}
	memcpy(d->esc + d->elen, s, n + 1);
	d->elen += n;
	if (d->elen == 1 && d->esc[0] == '%') {
		if (d->want == 0)
			pend_done();
		return;
	}
	for (i = 0; i < d->elen; i++, got++)
		if (d->esc[i] == '%')
			i += 2;
	if (got >= d->want)
		pend_done();
}

/* P ID,PID,START,FLAGS,NAME,CMDLEN,CMDLINE and F ID,DEV,INODE,FLAGS,LEN,PATH */
static int define(int cls, char *it)
{
	struct pend *d = &R.pend;
	char *f[7];
	uint64_t v[4];
	size_t n;
	int k = cls == WC_PROCDEF ? 7 : 6, i;

	if (fields(it, f, k) != k)
		return -1;
	for (i = 0; i < 4; i++)
		if (hex_parse(f[i], i == 0 ? UINT32_MAX : UINT64_MAX, &v[i]) < 0)
			return -1;
	if (v[0] >= (cls == WC_PROCDEF ? R.np : R.nf) ||
	    hex_parse(f[k - 2], cls == WC_PROCDEF ? CMDLINE_MAX : PATH_BUF - 1, &d->want) < 0)
		return -1;
	if (cls == WC_PROCDEF && (wl_unescape(f[4], strlen(f[4]), d->name, sizeof(d->name), &n) < 0 ||
				  v[1] == 0 || v[1] > INT32_MAX))
		return -1;
	d->cls = cls;
	d->id = (uint32_t)v[0];
	d->a = v[1];
	d->b = v[2];
	d->c = v[3];
	d->elen = 0;
	pend_add(f[k - 1]);
	return (int)d->id;
}

/* R ID,DEPTH,NAME */
static int define_ram(char *it)
{
	char *f[3];
	uint64_t id, depth;
	size_t n;
	struct rram *r;

	if (fields(it, f, 3) != 3 || hex_parse(f[0], R.nr - 1, &id) < 0 ||
	    hex_parse(f[1], 16, &depth) < 0)
		return -1;
	r = &R.ram[id];
	if (wl_unescape(f[2], strlen(f[2]), r->name, sizeof(r->name), &n) < 0) {
		r->live = 0;
		return -1;
	}
	if (!r->live)
		r->known = 0;
	r->live = 1;
	r->doubt = 0;
	r->seen = 1;
	r->depth = (int)depth;
	return (int)id;
}

/* ---- values ---- */

/* p ID,MASK,VALUE...: the fields MASK names, eff_resident in bytes, the rest in pages */
static int proc_values(char *it)
{
	char *f[2 + WL_NFIELD];
	uint64_t id, mask, v;
	int n = fields(it, f, 2 + WL_NFIELD), i, k = 2;
	struct rproc *p;

	if (n < 3 || hex_parse(f[0], R.np - 1, &id) < 0 || hex_parse(f[1], ALL_FIELDS, &mask) < 0 ||
	    n != 2 + __builtin_popcount((unsigned)mask))
		return -1;
	p = &R.proc[id];
	for (i = 0; i < WL_NFIELD; i++) {
		if (!(mask & 1u << i))
			continue;
		if (hex_parse(f[k++], UINT64_MAX / R.ps, &v) < 0)
			return -1;
		if (p->live) {
			p->v[i] = (int64_t)(i == WL_EFF_RESIDENT ? v : v * R.ps);
			p->known |= 1u << i;
			p->changed |= 1u << i;
		}
	}
	p->seen |= p->live;
	return (int)id;
}

/* q PROCID,PART,VALUE: PART h, s, a, or f or d and a file id */
static int part_value(char *it)
{
	char *f[3];
	const char *c;
	uint64_t id, file = 0, v;
	struct rpart *e;
	uint64_t k;

	if (fields(it, f, 3) != 3 || hex_parse(f[0], R.np - 1, &id) < 0 || !f[1][0] ||
	    !(c = strchr(wl_part_char, f[1][0])) || hex_parse(f[2], INT64_MAX, &v) < 0)
		return -1;
	if ((*c == 'f' || *c == 'd') ? hex_parse(f[1] + 1, R.nf - 1, &file) < 0 : f[1][1] != '\0')
		return -1;
	if (!R.proc[id].live)
		return (int)id;	/* its process's definition was lost */
	k = (id + 1) << 32 | (uint64_t)(c - wl_part_char) << 28 | file;
	e = part_slot(k);
	if (!e->key) {
		if (R.nparts >= (R.qmask + 1) / 4 * 3)
			return -1;	/* more than the writer's tables hold: not its */
		R.nparts++;
		e->key = k;
	}
	e->v = (int64_t)v;
	e->known = e->changed = e->seen = 1;
	return (int)id;
}

/* f ID,VALUE and r ID,VALUE */
static int file_or_ram_value(int cls, char *it)
{
	char *f[2];
	uint64_t id;
	int64_t v;

	if (fields(it, f, 2) != 2 || hex_parse(f[0], (cls == WC_FILE ? R.nf : R.nr) - 1, &id) < 0 ||
	    shex(f[1], &v) < 0)
		return -1;
	if (cls == WC_FILE && R.file[id].live) {
		R.file[id].v = v;
		R.file[id].known = R.file[id].changed = R.file[id].seen = 1;
	} else if (cls == WC_RAM && R.ram[id].live) {
		R.ram[id].v = v;
		R.ram[id].known = R.ram[id].changed = R.ram[id].seen = 1;
	}
	return (int)id;
}

/* x pID, fID: the key's sub 0 for processes, 1 for files */
static int end_item(char *it, int *sub)
{
	uint64_t id;

	if ((it[0] != 'p' && it[0] != 'f') ||
	    hex_parse(it + 1, (it[0] == 'p' ? R.np : R.nf) - 1, &id) < 0)
		return -1;
	*sub = it[0] == 'f';
	if (it[0] == 'p' && R.proc[id].live)
		R.proc[id].ended = 1;
	else if (it[0] == 'f' && R.file[id].live)
		R.file[id].ended = 1;
	return (int)id;
}

/* ---- a sample closed ---- */

/* What a loss between keys a and b took: unknown, or of doubtful identity. */
static void mark_range(uint64_t a, uint64_t b)
{
	uint32_t i;

#define IN(c, sub, id)	(key(c, sub, id) >= a && key(c, sub, id) <= b)
	for (i = 0; i < R.np; i++) {
		struct rproc *p = &R.proc[i];

		if (IN(WC_PROCDEF, 0, i))
			p->doubt = p->marked = 1;
		if (IN(WC_PROC, 0, i) || IN(WC_END, 0, i))
			p->known = 0, p->marked = 1;
		if (IN(WC_PART, 0, i))
			p->parts_unknown = p->marked = 1;
	}
	for (i = 0; i < R.nf; i++) {
		struct rfile *f = &R.file[i];

		if (IN(WC_FILEDEF, 0, i))
			f->doubt = f->marked = 1;
		if (IN(WC_FILE, 0, i) || IN(WC_END, 1, i))
			f->known = 0, f->marked = 1;
	}
	for (i = 0; i < R.nr; i++) {
		if (IN(WC_RAMDEF, 0, i))
			R.ram[i].doubt = R.ram[i].marked = 1;
		if (IN(WC_RAM, 0, i))
			R.ram[i].known = 0, R.ram[i].marked = 1;
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

	if (R.all_lost || R.ngap > GAPS_MAX)
		mark_all();
	else
		for (i = 0; i < R.ngap; i++)
			mark_range(R.gaps[i].from, R.gaps[i].to);
	for (i = 0; i <= R.qmask; i++) {
		struct rpart *e = &R.part[i];

		if (e->key && R.proc[(e->key >> 32) - 1].parts_unknown)
			e->known = 0;
	}
	if (!keyframe)
		return;
	for (i = 0; i < R.np; i++)
		if (R.proc[i].live && !R.proc[i].seen && !R.proc[i].marked)
			R.proc[i].ended = 1;	/* its x was lost */
	for (i = 0; i < R.nf; i++)
		if (R.file[i].live && !R.file[i].seen && !R.file[i].marked)
			R.file[i].ended = 1;
	for (i = 0; i < R.nr; i++)
		if (R.ram[i].live && !R.ram[i].seen && !R.ram[i].marked)
			R.ram[i].live = 0;
	for (i = 0; i <= R.qmask; i++) {
		struct rpart *e = &R.part[i];

		/* not restated: gone, unless a loss may have taken it */
		while (e->key && !e->seen && !R.proc[(e->key >> 32) - 1].parts_unknown)
			part_del(e);
	}
}

static void give_value(const struct wl_sample *s, struct wl_value *v)
{
	if (R.ops->value)
		R.ops->value(R.arg, s, v);
}

/* Every entity present, to the caller. */
static void give(const struct wl_sample *s)
{
	struct wl_value v;
	uint32_t i;

	if (R.ops->sample)
		R.ops->sample(R.arg, s);
	for (i = 0; i < R.np; i++)
		if (R.proc[i].live && !R.proc[i].doubt && R.proc[i].started && R.ops->started)
			R.ops->started(R.arg, s, &R.proc[i].pub);
	for (i = 0; i < R.np; i++) {
		const struct rproc *p = &R.proc[i];

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
	for (i = 0; i < R.nf; i++) {
		const struct rfile *f = &R.file[i];

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
	for (i = 0; i <= R.qmask; i++) {
		const struct rpart *e = &R.part[i];
		const struct rproc *p;
		uint32_t file = (uint32_t)(e->key & 0xfffffff);

		if (!e->key)
			continue;
		p = &R.proc[(e->key >> 32) - 1];
		if (!p->live || p->doubt || p->ended)
			continue;
		memset(&v, 0, sizeof(v));
		v.kind = WL_PARTOF;
		v.proc = &p->pub;
		v.part = (enum wl_part)(e->key >> 28 & 15);
		if ((v.part == WL_PART_FILE || v.part == WL_PART_DATA) && R.file[file].live &&
		    !R.file[file].doubt)
			v.file = &R.file[file].pub;
		v.v[0] = e->v;
		v.known = e->known;
		v.changed = e->changed;
		give_value(s, &v);
	}
	for (i = 0; i < R.nr; i++) {
		const struct rram *r = &R.ram[i];

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
	for (i = 0; i < R.np; i++)
		if (R.proc[i].live && R.proc[i].ended && R.ops->exited)
			R.ops->exited(R.arg, s, &R.proc[i].pub);
	if (R.ops->sample_end)
		R.ops->sample_end(R.arg, s);
}

/* Values given that are not known: the sample's count of them. */
static uint32_t count_unknown(void)
{
	uint32_t i, n = 0;

	for (i = 0; i < R.np; i++)
		n += R.proc[i].live && !R.proc[i].doubt && !R.proc[i].ended &&
		     R.proc[i].known != ALL_FIELDS;
	for (i = 0; i < R.nf; i++)
		n += R.file[i].live && !R.file[i].doubt && !R.file[i].ended && !R.file[i].known;
	for (i = 0; i <= R.qmask; i++)
		n += R.part[i].key && !R.part[i].known;
	for (i = 0; i < R.nr; i++)
		n += R.ram[i].live && !R.ram[i].doubt && !R.ram[i].known;
	return n;
}

/* After the sample: the ended ones go, and every per-sample mark is cleared. */
static void clear(void)
{
	uint32_t i;

	for (i = 0; i < R.np; i++) {
		struct rproc *p = &R.proc[i];

		if (p->live && p->ended)
			proc_end(p);
		p->seen = p->started = p->ended = p->marked = p->parts_unknown = 0;
		p->changed = 0;
	}
	for (i = 0; i < R.nf; i++) {
		struct rfile *f = &R.file[i];

		if (f->ended)
			f->live = 0;
		f->seen = f->ended = f->marked = 0;
		f->changed = 0;
	}
	for (i = 0; i <= R.qmask; i++) {
		struct rpart *e = &R.part[i];

		/* a part written 0 has ended */
		while (e->key && e->changed && e->known && e->v == 0)
			part_del(e);
		e->changed = e->seen = 0;
	}
	for (i = 0; i < R.nr; i++)
		R.ram[i].seen = R.ram[i].changed = R.ram[i].marked = 0;
	R.ngap = R.lines = R.lost_here = 0;
	R.all_lost = R.gap_open = 0;
	R.prev_key = 0;
}

/* t N,TIME,UPTIME,LINES[,k]: the sample closed, given if the reader is in step. */
static int close_sample(char *it)
{
	struct wl_sample s;
	char *f[5];
	uint64_t v[4];
	int n = fields(it, f, 5), i;

	if (n < 4 || (n == 5 && strcmp(f[4], "k") != 0))
		return -1;
	for (i = 0; i < 4; i++)
		if (hex_parse(f[i], UINT64_MAX, &v[i]) < 0)
			return -1;
	if (R.gap_open && R.ngap < GAPS_MAX)
		R.gaps[R.ngap++] = (struct gap){ R.gap_from, key(WC_TIME, 0, 0) };
	R.gap_open = 0;
	/* a sample lost whole, or lines lost that SEQ's wrap hid */
	if ((R.have_last && v[0] != R.last_n + 1) || R.lines + R.lost_here != v[3])
		R.all_lost = 1;
	settle(n == 5);
	if (n == 5 && !R.all_lost && !R.synced) {
		R.synced = 1;
		if (R.unsynced)
			warnx("%s: %llu watch lines before the first keyframe (line %llu) skipped: "
			      "the log starts mid-way", R.file_now, (unsigned long long)R.unsynced,
			      (unsigned long long)R.at);
	}
	R.last_n = v[0];
	R.have_last = 1;
	if (R.synced) {
		memset(&s, 0, sizeof(s));
		s.n = v[0];
		s.time_ms = v[1];
		s.uptime_ms = v[2];
		s.keyframe = n == 5;
		s.run = R.run;
		s.run_id = R.id;
		s.interval_ms = R.ivl;
		s.page_size = R.ps;
		s.line = R.at;
		s.file = R.file_now;
		s.unknown = count_unknown();
		R.w->st.samples++;
		R.w->st.keyframes += s.keyframe;
		R.w->st.unknown += s.unknown != 0;
		give(&s);
		R.last_s = s;
	} else {
		R.w->st.skipped++;
		R.unsynced += R.lines;
	}
	clear();
	return 0;
}

/* ---- lines ---- */

/* h 1,ID,PS,HZ,IVL,KEY,NP,NF,NQ,NR,MEM,PEAK: 1 when it begins a new run (ID
 * new), 0 when it is a keyframe's of the run, -1 when it is not understood. */
static int head(char *it)
{
	char *f[12];
	uint64_t v[12];
	int i;

	if (fields(it, f, 12) != 12)
		return -1;
	for (i = 0; i < 12; i++)
		if (hex_parse(f[i], UINT64_MAX, &v[i]) < 0)
			return -1;
	if (v[0] != WL_FORMAT)
		die("%s: line %llu: a watch log in format %llu: this exmap-mini reads %d",
		    R.file_now, (unsigned long long)R.at, (unsigned long long)v[0], WL_FORMAT);
	for (i = 6; i < 10; i++)
		if (v[i] == 0 || v[i] > (i == 9 ? WL_RAM_MAX : WL_CAP_MAX))
			return -1;
	if (v[2] < 1024 || v[2] > (1u << 30) || (v[2] & (v[2] - 1)))
		return -1;
	R.w->st.writer_mem = v[10];
	R.w->st.writer_peak = v[11];
	if (R.have_run && v[1] == R.id)
		return 0;	/* a keyframe's */
	/* a new run: whatever the last one was in the middle of is over */
	R.have_run = 1;
	R.id = v[1];
	R.ps = v[2];
	R.ivl = v[4];
	R.np = (uint32_t)v[6];
	R.nf = (uint32_t)v[7];
	R.nq = (uint32_t)v[8];
	R.nr = (uint32_t)v[9];
	R.run++;
	R.w->st.runs++;
	R.synced = R.have_last = 0;
	R.pend.cls = WC_N;
	tables();
	clear();
	return 1;
}

/* One item of class cls; its key's id (and sub) for the loss ranges, or -1. */
static int one_item(int cls, char *it, int *sub)
{
	*sub = 0;
	switch (cls) {
	case WC_RAMDEF: return define_ram(it);
	case WC_FILEDEF: case WC_PROCDEF: return define(cls, it);
	case WC_PROC: return proc_values(it);
	case WC_PART: return part_value(it);
	case WC_FILE: case WC_RAM: return file_or_ram_value(cls, it);
	case WC_END: return end_item(it, sub);
	default: return -1;
	}
}

/* A watch line's body, checked; applied in its run. */
static void on_line(char *body)
{
	uint32_t seq;
	int cls, id, sub;
	char *items, *it;

	if (wl_line_check(body, &seq, &cls, &items) < 0) {
		R.w->st.bad++;
		return;
	}
	R.w->st.lines++;
	if (cls == WC_HEAD && (id = head(items)) != 0) {
		if (id < 0 && R.have_run)
			R.all_lost = 1;	/* checked out, yet not understood */
		R.have_seq = 0;	/* a run's first line: SEQ starts again */
	}
	if (!R.have_run) {
		R.unsynced++;
		return;
	}
	if (R.have_seq && seq != (R.seq + 1) % WL_SEQ_MOD) {
		uint32_t n = (seq - R.seq - 1) % WL_SEQ_MOD;

		R.w->st.lost += n;
		R.lost_here += n;
		say_loss(n);
		R.pend.cls = WC_N;	/* a definition's rest went with them */
		if (!R.gap_open)
			R.gap_from = R.prev_key;
		R.gap_open = 1;
	}
	R.seq = seq;
	R.have_seq = 1;
	R.lines++;
	if (cls == WC_N) {	/* the rest of a definition's text */
		if (R.pend.cls != WC_N && !strchr(items, ' '))
			pend_add(items);
		return;
	}
	R.pend.cls = WC_N;	/* a definition not all in is lost (its id stays unknown) */
	if (cls == WC_TIME || cls == WC_STOP || cls == WC_HEAD) {
		if (R.gap_open && cls != WC_HEAD && R.ngap < GAPS_MAX)
			R.gaps[R.ngap++] = (struct gap){ R.gap_from, key(cls, 0, 0) };
		R.gap_open &= cls == WC_HEAD;
		if (cls == WC_TIME && close_sample(items) < 0)
			R.all_lost = 1;	/* whole, yet not a sample's close: its sample is in doubt */
		if (cls == WC_STOP)
			clear();
		return;
	}
	while ((it = cap_field(&items)) != NULL) {
		if ((id = one_item(cls, it, &sub)) < 0) {
			R.all_lost = 1;	/* checked out, yet not understood: trust none of it */
			continue;
		}
		if (R.gap_open && R.ngap < GAPS_MAX)
			R.gaps[R.ngap++] = (struct gap){ R.gap_from, key(cls, sub, (uint32_t)id) };
		R.ngap += R.gap_open && R.ngap == GAPS_MAX;
		R.gap_open = 0;
		R.prev_key = key(cls, sub, (uint32_t)id);
	}
}

/* One file of the log, line by line. */
static void walk(const char *path)
{
	static struct caplog log;
	const char *t;
	uint64_t at;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		dierr(errno, "%s", path);
	R.file_now = path;
	caplog_start(&log, path, fd);
	while ((t = caplog_next(&log, &at)) != NULL) {
		if (strncmp(t, "XM w ", 5) != 0)
			continue;	/* a capture's line */
		R.at = at;
		on_line((char *)t + 5);
	}
	close(fd);
}

/* 1 when the log at path (a regular file) holds a watch line, 0 when not
 * (or it is no regular file: a pipe is read once, by the capture's loader),
 * -1 when it cannot be read (errno). It stops at the first. */
int wlog_holds(const char *path)
{
	static struct caplog log;
	struct stat st;
	const char *t;
	uint64_t at;
	int fd = open(path, O_RDONLY | O_CLOEXEC), r = 0;

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return 0;
	}
	caplog_start(&log, path, fd);
	while (!r && (t = caplog_next(&log, &at)) != NULL)
		r = strncmp(t, "XM w ", 5) == 0;
	close(fd);
	return r;
}

void wlog_open(const char *path, struct wlog *w)
{
	struct stat st;

	memset(w, 0, sizeof(*w));
	w->path = path;
	if (stat(path, &st) < 0)
		dierr(errno, "%s", path);
	if (!S_ISREG(st.st_mode))
		die("%s: not a watch log: %s", path, S_ISDIR(st.st_mode) ? "a directory" :
		    "not a regular file (save the log to a file first)");
	w->size = (uint64_t)st.st_size;
	if (fmt_snprintf(w->older, sizeof(w->older), "%s.1", path) < (int)sizeof(w->older) &&
	    stat(w->older, &st) == 0 && S_ISREG(st.st_mode))
		w->size += (uint64_t)st.st_size;
	else
		w->older[0] = '\0';
}

int wlog_read(struct wlog *w, const struct wl_ops *ops, void *arg)
{
	struct arena keep = R.a;

	memset(&R, 0, sizeof(R));
	R.a = keep;
	R.w = w;
	R.ops = ops;
	R.arg = arg;
	R.pend.cls = WC_N;
	memset(&w->st, 0, sizeof(w->st));
	if (w->older[0])
		walk(w->older);
	walk(w->path);
	if (!w->st.lines && !w->st.bad)
		die("%s: no watch samples in it (no \"XM w\" line): take them with exmap-mini "
		    "watch", w->path);
	if (w->st.lost || w->st.bad)
		warnx("%s: %llu watch line%s lost (%llu of them damaged): %llu sample%s given with "
		      "values unknown", w->path, (unsigned long long)w->st.lost,
		      w->st.lost == 1 ? "" : "s", (unsigned long long)w->st.bad,
		      (unsigned long long)w->st.unknown, w->st.unknown == 1 ? "" : "s");
	return w->st.samples ? 0 : -1;
}
