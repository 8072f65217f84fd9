/* watch: a sample as watch lines, only what changed since the last one written. */
/*
 * The last sample's values are kept in fixed tables, sized at the first
 * sample and never grown: processes and files sorted by their key (pid and
 * start time; path, device, inode), each with the id the log knows it by,
 * and the processes' parts sorted by (process id, part, file id). A sample
 * is merged with them: what is new is defined, what changed written, what
 * went ended, and the tables take the sample's values. What a sample holds
 * beyond them is left out of the samples, and said once.
 */
#include <string.h>

#include "capture.h"
#include "dmabuf.h"
#include "cgroup.h"
#include "kowner.h"
#include "ram.h"
#include "ramsrc.h"
#include "wlog.h"

#define PROCS_MIN	256
#define FILES_MIN	1024
#define PARTS_MIN	4096
#define USER_HZ		100	/* start times' ticks a second: 100 wherever Linux runs here */
#define NEW		UINT32_MAX

struct went {			/* first in each entry of the tables */
	uint32_t id;		/* the log's */
	uint32_t old;		/* while merging: its match in the table, or NEW */
};

struct wproc {			/* a process, by (pid, start) */
	struct went k;
	int32_t pid;
	uint64_t start;
	uint64_t v[WL_NFIELD];	/* eff_resident and eff_dmabuf in bytes, the rest in pages */
	struct proc *p;		/* while merging */
};

struct wfile {			/* a file, by (path's hash, inode, dev, flags) */
	struct went k;
	uint32_t dev, flags;
	uint32_t index;		/* while merging: in the scan's file table */
	uint64_t hash;		/* of its path (FNV-1a, 64 bits) */
	uint64_t inode;
	uint64_t v;
};

struct wpart {			/* a process's part: proc id << 32 | part << 28 | file id */
	uint64_t key;
	uint64_t v;
};

struct wtab {
	char *e;		/* entries, sorted by key */
	uint32_t n, cap, ids;	/* ids: twice cap, as an id that ended is held till the next sample */
	uint32_t top;		/* one past the highest id taken: the loops by id stop there */
	uint8_t *used;		/* by id: 1 in use, 2 ended this sample */
	uint32_t free_hint;	/* no free id below it */
	int full_said;
	/* this sample's */
	char *cur;
	uint32_t ncur;
	uint32_t *at;		/* by id: its entry in cur, or NEW */
	uint8_t *fresh;		/* by id: defined in this sample */
};

static struct {
	struct arena a;		/* the tables: fixed at the first sample */
	struct wtab proc, file, part;
	const char *ram_name[WL_RAM_MAX];	/* the ram view's own, constant */
	int64_t ram[WL_RAM_MAX];
	uint8_t ram_depth[WL_RAM_MAX];
	uint32_t nram;
	uint64_t page_size, id, interval_ms, peak;
	uint64_t n;		/* samples written */
} W;

/* ---- the tables ---- */

static uint64_t fnv64(const char *s)
{
	uint64_t h = 14695981039346656037u;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211u;
	return h;
}

#define CMP(a, b)	((a) < (b) ? -1 : (a) > (b))

static int proc_cmp(const void *a, const void *b)
{
	const struct wproc *x = a, *y = b;

	return x->pid != y->pid ? CMP(x->pid, y->pid) : CMP(x->start, y->start);
}

static int file_cmp(const void *a, const void *b)
{
	const struct wfile *x = a, *y = b;

	return x->hash != y->hash ? CMP(x->hash, y->hash) : x->inode != y->inode ?
	       CMP(x->inode, y->inode) : x->dev != y->dev ? CMP(x->dev, y->dev) :
	       CMP(x->flags, y->flags);
}

static int part_cmp(const void *a, const void *b)
{
	return CMP(*(const uint64_t *)a, *(const uint64_t *)b);
}

/* Four times want, at least least, at most WL_CAP_MAX. */
static uint32_t room_for(uint64_t want, uint32_t least)
{
	return want > least / 4 ? (want < WL_CAP_MAX / 4 ? 4 * (uint32_t)want : WL_CAP_MAX) : least;
}

/*
 * Sized by the first sample, once: four times its processes, its files and
 * (at two a mapping at most) half its mappings, at least the *_MIN: the
 * bound that a week of samples stays in.
 */
static void tables_init(const struct scan *s)
{
	uint64_t nmap = 0;
	uint32_t i;
	size_t bytes;

	for (i = 0; i < s->nproc; i++)
		nmap += s->procs[i]->nmap;
	W.proc.ids = 2 * (W.proc.cap = room_for(s->nproc, PROCS_MIN));
	W.file.ids = 2 * (W.file.cap = room_for(s->nfile, FILES_MIN));
	W.part.cap = room_for(nmap / 2, PARTS_MIN);
	bytes = (size_t)W.proc.cap * (sizeof(struct wproc) + 2) +
		(size_t)W.file.cap * (sizeof(struct wfile) + 2) +
		(size_t)W.part.cap * sizeof(struct wpart) + 4096;
	if (arena_init(&W.a, bytes) < 0)
		die("watch: cannot reserve %zu KiB for the last sample's values", bytes >> 10);
	W.proc.e = arena_alloc(&W.a, (size_t)W.proc.cap * sizeof(struct wproc), 8);
	W.file.e = arena_alloc(&W.a, (size_t)W.file.cap * sizeof(struct wfile), 8);
	W.part.e = arena_alloc(&W.a, (size_t)W.part.cap * sizeof(struct wpart), 8);
	W.proc.used = arena_alloc(&W.a, W.proc.ids, 1);
	W.file.used = arena_alloc(&W.a, W.file.ids, 1);
}

/* More in a sample than the table holds: the rest left out, said once. */
static uint32_t fit(struct wtab *t, uint32_t n, const char *what)
{
	if (n <= t->cap)
		return n;
	if (!t->full_said)
		warnx("watch: %u %s, over the %u its tables hold (4 times the first sample's): "
		      "the rest left out of samples", n, what, t->cap);
	t->full_said = 1;
	return t->cap;
}

/* The lowest id not in use. */
static uint32_t id_take(struct wtab *t)
{
	uint32_t i;

	for (i = t->free_hint; t->used[i]; i++)
		;
	t->used[i] = 1;
	t->free_hint = i + 1;
	return i;
}

/*
 * This sample's entries t->cur[0..n) of size bytes, sorted as the table:
 * each takes the id of its match in the table, or a new one; the table's
 * entries no sample entry matched have ended (used 2).
 */
static void merge(struct scan *s, struct wtab *t, uint32_t n, size_t size,
		  int (*cmp)(const void *, const void *))
{
	uint32_t i, j = 0;
	int k = -1;

	sort(t->cur, n, size, cmp);
	t->ncur = n = fit(t, n, t == &W.proc ? "processes" : "files");
	/* set below top alone: an id from top on is taken here, and so set, or not looked at */
	t->at = arena_alloc(s->arena, (size_t)t->ids * sizeof(*t->at), 4);
	memset(t->at, 0xff, (size_t)t->top * sizeof(*t->at));
	t->fresh = arena_alloc(s->arena, t->ids, 1);
	memset(t->fresh, 0, t->top);
	for (i = 0; i < n; i++) {
		struct went *w = (struct went *)(t->cur + i * size), *o;

		while (j < t->n && (k = cmp(t->e + j * size, w)) < 0)
			t->used[((struct went *)(t->e + j++ * size))->id] = 2;
		o = (struct went *)(t->e + j * size);
		if (j < t->n && k == 0) {
			w->old = j++;
			w->id = o->id;
		} else {
			w->old = NEW;
			w->id = id_take(t);
			t->fresh[w->id] = 1;
			t->top += w->id == t->top;	/* the lowest free id: top at most */
		}
		t->at[w->id] = i;
	}
	for (; j < t->n; j++)
		t->used[((struct went *)(t->e + j * size))->id] = 2;
}

/* The table takes the sample's entries; ids ended are free from the next sample. */
static void keep(struct wtab *t, size_t size)
{
	uint32_t i;

	memcpy(t->e, t->cur, (size_t)t->ncur * size);
	t->n = t->ncur;
	for (i = 0; t->used && i < t->top; i++)
		if (t->used[i] == 2) {
			t->used[i] = 0;
			if (i < t->free_hint)
				t->free_hint = i;
		}
}

/* ---- a sample ---- */

static void procs_now(struct scan *s)
{
	struct wproc *c = arena_alloc(s->arena, (size_t)s->nproc * sizeof(*c) + 1, 8);
	uint32_t i;

	for (i = 0; i < s->nproc; i++) {
		struct proc *p = s->procs[i];

		c[i] = (struct wproc){ .pid = p->pid, .start = p->start, .p = p };
		c[i].v[WL_EFF_RESIDENT] = eff_bytes(&p->fig.eff_resident);
		c[i].v[WL_SOLE] = p->fig.sole / W.page_size;
		c[i].v[WL_RESIDENT] = p->fig.resident / W.page_size;
		c[i].v[WL_SWAP] = p->fig.swap / W.page_size;
		c[i].v[WL_WRITABLE] = p->fig.writable / W.page_size;
		c[i].v[WL_EFF_DMABUF] = p->dma ? eff_bytes(&p->dma->share) : 0;
	}
	W.proc.cur = (char *)c;
	merge(s, &W.proc, s->nproc, sizeof(*c), proc_cmp);
}

/* The files, and by the scan's file index the log's id (NEW beyond the table). */
static uint32_t *files_now(struct scan *s)
{
	uint32_t nf, i, *id;
	struct file *files = files_build(s, &nf);
	struct wfile *c = arena_alloc(s->arena, (size_t)nf * sizeof(*c) + 1, 8);

	for (i = 0; i < nf; i++)
		c[i] = (struct wfile){ .hash = fnv64(files[i].path), .inode = files[i].inode,
				       .dev = files[i].dev, .index = i,
				       .flags = files[i].flags & (MF_DELETED | MF_DEVICE),
				       .v = eff_bytes(&files[i].fig.eff_resident) };
	W.file.cur = (char *)c;
	merge(s, &W.file, nf, sizeof(*c), file_cmp);
	id = arena_alloc(s->arena, ((size_t)nf + 1) * sizeof(*id), 4);
	memset(id, 0xff, ((size_t)nf + 1) * sizeof(*id));
	for (i = 0; i < W.file.ncur; i++)
		id[c[i].index] = c[i].k.id;
	return id;
}

/* The part of a process that mapping m goes to. */
static int part_of(const struct mapping *m)
{
	if (m->flags & MF_BSS)
		return WL_PART_DATA;
	if (strcmp(m->path, "[heap]") == 0)
		return WL_PART_HEAP;
	if (strncmp(m->path, "[stack", 6) == 0)
		return WL_PART_STACK;
	if (m->path[0] == '\0' || strncmp(m->path, "[anon", 5) == 0)
		return WL_PART_ANON;
	return WL_PART_FILE;
}

struct eff_part { uint64_t key; struct eff e; };

/* Each process's parts, summed over its mappings, in key order; none of 0 bytes. */
static void parts_now(struct scan *s, const uint32_t *file_id)
{
	const struct wproc *c = (const struct wproc *)W.proc.cur;
	uint64_t nmap = 0, k = 0, i, j;
	struct eff_part *e;
	struct wpart *q;

	for (i = 0; i < W.proc.ncur; i++)
		nmap += 2 * (uint64_t)c[i].p->nmap;
	e = arena_alloc(s->arena, nmap * sizeof(*e) + 1, 8);
	/* by process id, each process's few sorted: the whole in key order */
	for (i = 0; i < W.proc.top; i++) {
		uint64_t id = i << 32, k0 = k;
		const struct mapping *m;

		if (W.proc.at[i] == NEW)
			continue;
		for (m = c[W.proc.at[i]].p->map; m; m = m->next) {
			uint64_t part = (uint64_t)part_of(m), f = file_id[m->file];
			struct eff rest = m->fig.eff_resident;
			const struct eff *w = &m->eff_written;

			if (part != WL_PART_FILE && part != WL_PART_DATA)
				f = 0;
			else if (f == NEW)
				continue;	/* beyond the file table */
			if (part == WL_PART_FILE && !(m->flags & MF_SHARED)) {
				/* its written pages are anonymous copies: the file's .data */
				rest.whole -= w->whole + (rest.frac < w->frac);
				rest.frac = (rest.frac - w->frac) & 0xffffffffu;
				e[k++] = (struct eff_part){ id | (uint64_t)WL_PART_DATA << 28 | f, *w };
			}
			e[k++] = (struct eff_part){ id | part << 28 | f, rest };
		}
		sort(e + k0, k - k0, sizeof(*e), part_cmp);
	}
	q = (struct wpart *)e;	/* in place: an entry shrinks from 24 bytes to 16 */
	for (i = 0, j = 0; i < k;) {
		struct eff sum = e[i].e;
		uint64_t key = e[i].key;

		for (i++; i < k && e[i].key == key; i++)
			eff_sum(&sum, &e[i].e);
		q[j] = (struct wpart){ key, eff_bytes(&sum) };
		j += q[j].v != 0;
	}
	W.part.cur = (char *)q;
	W.part.ncur = fit(&W.part, (uint32_t)j, "process parts");
}

/* The ram view's parts, read now: their ids by name. */
struct ramnow {
	int64_t v[WL_RAM_MAX];
	uint8_t fresh[WL_RAM_MAX];
};

#ifndef EXMAP_NO_KOWNERS
/* A kernel owner's name, kept here: its reading's is gone at the next. */
static const char *owner_name(uint32_t id, const char *name)
{
	static char names[WL_RAM_MAX][RAM_NAME];

	fmt_snprintf(names[id], RAM_NAME, "%s", name);
	return names[id];
}
#define IS_OWNER(l)	((l)->depth == WL_RAM_OWNER)
#else
#define owner_name(id, name)	(name)
#define IS_OWNER(l)	0
#endif

/* A ram part, or a kernel owner (depth WL_RAM_OWNER); owners past the table left out. */
static void ram_one(void *arg, const struct ram_line *l)
{
	static int said;
	int owner = IS_OWNER(l);
	struct ramnow *r = arg;
	uint32_t i;

	for (i = 0; i < W.nram && ((W.ram_depth[i] == WL_RAM_OWNER) != owner ||
				   strcmp(W.ram_name[i], l->label)); i++)
		;
	if (i == WL_RAM_MAX && !owner)
		die("internal: more than %d parts of MemTotal", WL_RAM_MAX);
	if (i == WL_RAM_MAX) {
		if (!said++)
			warnx("watch: over %d ram parts and kernel owners: %s and later ones "
			      "left out of samples", WL_RAM_MAX, l->label);
		return;
	}
	if (i == W.nram) {
		W.ram_name[W.nram++] = owner ? owner_name(i, l->label) : l->label;
		r->fresh[i] = 1;
	}
	r->v[i] = l->bytes;	/* a part the view shows only when not 0 stays 0 */
	W.ram_depth[i] = (uint8_t)l->depth;
}

#ifndef EXMAP_NO_KOWNERS
/* A kernel owner's figure, as a ram entry of depth WL_RAM_OWNER. */
static void owner_one(void *arg, const char *name, int64_t held)
{
	struct ram_line l = { WL_RAM_OWNER, "owner", name, NULL, held, NULL };

	ram_one(arg, &l);
}
#endif

/* ---- the lines ---- */

static void write_defs(struct scan *s, const struct ramnow *r, int key)
{
	const struct wproc *cp = (const struct wproc *)W.proc.cur;
	const struct wfile *cf = (const struct wfile *)W.file.cur;
	char head[256];
	uint32_t i;

	if (key)
		wl_itemf(WC_HEAD, "%x,%016llx,%llx,%x,%llx,%x,%x,%x,%x,%x,%zx,%llx", WL_FORMAT,
			 (unsigned long long)W.id, (unsigned long long)W.page_size, USER_HZ,
			 (unsigned long long)W.interval_ms, WL_KEYFRAME, W.proc.ids, W.file.ids,
			 W.part.cap, WL_RAM_MAX, W.a.lo, (unsigned long long)W.peak);
	for (i = 0; i < W.nram; i++)
		if (key || r->fresh[i])
			wl_def(WC_RAMDEF, head, fmt_snprintf(head, sizeof(head), "%x,%x", i,
							     W.ram_depth[i]),
			       W.ram_name[i], strlen(W.ram_name[i]));
	for (i = 0; i < W.file.top; i++) {
		const struct wfile *w;
		const char *path;

		if (W.file.at[i] == NEW || !(key || W.file.fresh[i]))
			continue;
		w = &cf[W.file.at[i]];
		path = s->files[w->index].path;
		wl_def(WC_FILEDEF, head, fmt_snprintf(head, sizeof(head), "%x,%x,%llx,%x,%zx", i,
						      w->dev, (unsigned long long)w->inode,
						      w->flags, strlen(path)),
		       path, strlen(path));
	}
	for (i = 0; i < W.proc.top; i++) {
		const struct wproc *w;
		size_t n;

		if (W.proc.at[i] == NEW || !(key || W.proc.fresh[i]))
			continue;
		w = &cp[W.proc.at[i]];
		if (!s->want_cmdline)	/* a new process, between keyframes */
			scan_cmdline(s, w->p);
		/* FLAGS 1: it started during the watch */
		n = fmt_snprintf(head, sizeof(head), "%x,%x,%llx,%x,", i, (unsigned)w->pid,
				 (unsigned long long)w->start, W.proc.fresh[i] && W.n > 0);
		n += cap_escape(head + n, sizeof(head) - n, w->p->name, strlen(w->p->name));
		n += fmt_snprintf(head + n, sizeof(head) - n, ",%x", w->p->cmdlen);
		wl_def(WC_PROCDEF, head, n, w->p->cmdline ? w->p->cmdline : "", w->p->cmdlen);
	}
#ifndef EXMAP_NO_CGROUPS
	for (i = 0; i < W.proc.top; i++) {	/* G: each one's cgroup, after P */
		const struct wproc *w;

		if (W.proc.at[i] == NEW || !(key || W.proc.fresh[i]) || !cp[W.proc.at[i]].p->cg)
			continue;
		w = &cp[W.proc.at[i]];
		wl_def(WC_CGDEF, head, fmt_snprintf(head, sizeof(head), "%x,%zx", i,
						    strlen(w->p->cg->path)),
		       w->p->cg->path, strlen(w->p->cg->path));
	}
#endif
}

/* q: the parts that differ from the table's, both lists in key order; a part
 * gone is written 0, but for a process that exited (its x says it). */
static void write_parts(int key)
{
	const struct wpart *c = (const struct wpart *)W.part.cur, *o = (const void *)W.part.e;
	uint32_t i = 0, j = 0, f;

	while (i < W.part.ncur || j < W.part.n) {
		const struct wpart *e;
		uint64_t v;

		if (j == W.part.n || (i < W.part.ncur && c[i].key < o[j].key)) {
			e = &c[i++];
			v = e->v;
		} else if (i == W.part.ncur || o[j].key < c[i].key) {
			e = &o[j++];
			if (W.proc.used[e->key >> 32] == 2)
				continue;
			v = 0;
		} else {
			e = &c[i++];
			v = e->v;
			if (o[j++].v == v && !key)
				continue;
		}
		f = (uint32_t)(e->key >> 28 & 15);
		if (f == WL_PART_FILE || f == WL_PART_DATA)
			wl_itemf(WC_PART, "%x,%c%x,%llx", (uint32_t)(e->key >> 32), wl_part_char[f],
				 (uint32_t)(e->key & 0xfffffff), (unsigned long long)v);
		else
			wl_itemf(WC_PART, "%x,%c,%llx", (uint32_t)(e->key >> 32), wl_part_char[f],
				 (unsigned long long)v);
	}
}

/* p, f and r: what differs from the tables (all of it at a keyframe). */
static void write_values(const struct ramnow *r, int key)
{
	const struct wproc *cp = (const struct wproc *)W.proc.cur, *op = (const void *)W.proc.e;
	const struct wfile *cf = (const struct wfile *)W.file.cur, *of = (const void *)W.file.e;
	char buf[160];
	uint32_t i, f, mask;
	size_t n;

	for (i = 0; i < W.proc.top; i++) {
		const struct wproc *w;

		if (W.proc.at[i] == NEW)
			continue;
		w = &cp[W.proc.at[i]];
		for (f = 0, mask = 0; f < WL_NFIELD; f++)
			if (key || w->k.old == NEW || op[w->k.old].v[f] != w->v[f])
				mask |= 1u << f;
		n = fmt_snprintf(buf, sizeof(buf), "%x,%x", i, mask);
		for (f = 0; f < WL_NFIELD; f++)
			if (mask & 1u << f)
				n += fmt_snprintf(buf + n, sizeof(buf) - n, ",%llx",
						  (unsigned long long)w->v[f]);
		if (mask)
			wl_item(WC_PROC, buf, n);
	}
	write_parts(key);
	for (i = 0; i < W.file.top; i++) {
		const struct wfile *w;

		if (W.file.at[i] == NEW)
			continue;
		w = &cf[W.file.at[i]];
		if (key || w->k.old == NEW || of[w->k.old].v != w->v)
			wl_itemf(WC_FILE, "%x,%llx", i, (unsigned long long)w->v);
	}
	for (i = 0; i < W.nram; i++)
		if (key || r->fresh[i] || W.ram[i] != r->v[i])
			wl_itemf(WC_RAM, "%x,%s%llx", i, r->v[i] < 0 ? "-" : "",
				 (unsigned long long)(r->v[i] < 0 ? -r->v[i] : r->v[i]));
}

/* x: the processes (c p) that exited, the files (f) no longer mapped, by id. */
static void write_ends(const struct wtab *t, char c)
{
	uint32_t i;

	for (i = 0; i < t->top; i++)
		if (t->used[i] == 2)
			wl_itemf(WC_END, "%c%x", c, i);
}

/* The run's id and interval, for its h lines. */
void wsample_begin(uint64_t id, uint64_t interval_ms)
{
	W.id = id;
	W.interval_ms = interval_ms;
}

/*
 * One sample of scan s, taken at real_ms (since 1970) and up_ms (since
 * boot), as watch lines on out(): a keyframe if key. The tables then hold it.
 */
void wsample_write(struct scan *s, uint64_t real_ms, uint64_t up_ms, int key)
{
	static struct ramsrc rs;
	static struct ramnow r;
	uint64_t used;
	uint32_t *file_id, i;

	files_build(s, &i);
	if (!W.a.base) {
		W.page_size = s->page_size;
		tables_init(s);
	}
	procs_now(s);
	file_id = files_now(s);
	parts_now(s, file_id);
	memset(&r, 0, sizeof(r));
	ram_read_parts(&rs, s->page_size);
	ram_parts(s, &rs, ram_one, &r);
#ifndef EXMAP_NO_KOWNERS
	kown_each_held(rs.kown, owner_one, &r);
#endif
	used = (uint64_t)s->arena->peak + s->arena->hi;
	if (used > W.peak)
		W.peak = used;
	wl_count();
	write_defs(s, &r, key);
	write_values(&r, key);
	write_ends(&W.proc, 'p');
	write_ends(&W.file, 'f');
	wl_itemf(WC_TIME, "%llx,%llx,%llx,%x%s", (unsigned long long)W.n,
		 (unsigned long long)real_ms, (unsigned long long)up_ms, wl_flush() + 1,
		 key ? ",k" : "");
	wl_flush();
	keep(&W.proc, sizeof(struct wproc));
	keep(&W.file, sizeof(struct wfile));
	keep(&W.part, sizeof(struct wpart));
	memcpy(W.ram, r.v, sizeof(W.ram));
	W.n++;
}

/* The watch ends: why (count, sigint, sigterm). */
void wsample_end(const char *why)
{
	wl_item(WC_STOP, why, strlen(why));
	wl_flush();
}
