/* watch: a sample as watch lines, only what changed since the last one written. */
/*
 * The last sample's values are kept in fixed tables, sized at the first
 * sample (four times what it found, at least the *_MIN below) and never
 * grown: processes and files sorted by their key (pid and start time; path,
 * device and inode), each with the id the log knows it by, and the
 * processes' parts sorted by (process id, part, file id). A sample is
 * merged with them: what is new is defined, what changed written, what
 * went ended, and the tables take the sample's values. What a sample holds
 * beyond them is left out of the samples, and said once.
 */
#include <stdarg.h>
#include <string.h>

#include "capture.h"
#include "ram.h"
#include "ramsrc.h"
#include "wlog.h"

#define PROCS_MIN	256
#define FILES_MIN	1024
#define PARTS_MIN	4096
#define BODY_MAX	(WL_LINE_MAX - 5 - 10)	/* after "XM w ", before " CRC\n" */
#define USER_HZ		100	/* start times' ticks a second: 100 wherever Linux runs here */

struct wproc {			/* a process as last written, by (pid, start) */
	int32_t pid;
	uint32_t id;
	uint64_t start;
	uint64_t v[WL_NFIELD];	/* eff_resident in bytes, the rest in pages */
	const struct proc *p;	/* this sample's, while merging */
	uint32_t old;		/* its entry in the table, UINT32_MAX if new */
};

struct wfile {			/* a file as last written, by (hash, dev, inode, flags) */
	uint64_t hash;		/* of its path (FNV-1a, 64 bits) */
	uint64_t inode;
	uint32_t dev, flags;
	uint32_t id;
	uint32_t index;		/* in this sample's file table, while merging */
	uint32_t old;		/* its entry in the table, UINT32_MAX if new */
	uint64_t v;
};

struct wpart {			/* a process's part: id << 32 | part << 28 | file id */
	uint64_t key;
	uint64_t v;
};

struct wtab {
	void *e;		/* sorted by key */
	uint32_t n, cap;
	uint8_t *used;		/* by id: 1 in use, 2 ended this sample */
	uint32_t free_hint;	/* no free id below it */
	int full_said;
};

static struct {
	struct arena a;		/* the tables: fixed at the first sample */
	struct wtab proc, file, part;
	const char *ram_name[WL_RAM_MAX];
	int64_t ram[WL_RAM_MAX];
	uint8_t ram_depth[WL_RAM_MAX];
	uint32_t nram;
	uint64_t page_size;
	uint64_t id, interval_ms, peak;
	uint32_t seq, lines;	/* the next line's SEQ; the sample's lines so far */
	uint64_t n;		/* samples written */
} W;

/* ---- lines ---- */

static struct {
	char body[BODY_MAX + 1];	/* "SEQ C ITEM ITEM ..." */
	size_t len;
	int cls;		/* the open line's class; -1 none */
} L = { .cls = -1 };

static void line_end(void)
{
	char tail[16];

	if (L.cls < 0)
		return;
	out("XM w ", 5);
	out(L.body, L.len);
	out(tail, fmt_snprintf(tail, sizeof(tail), " %08x\n", cap_crc32(0, L.body, L.len)));
	W.seq = (W.seq + 1) % WL_SEQ_MOD;
	W.lines++;
	L.cls = -1;
}

static void line_start(int cls)
{
	line_end();
	L.len = fmt_snprintf(L.body, sizeof(L.body), "%x %c", W.seq,
			     cls == WC_N ? '+' : wl_class_char[cls]);
	L.cls = cls;
}

/* An item of class cls: on the open line of its class where it fits. */
static void item(int cls, const char *text, size_t n)
{
	if (L.cls != cls || L.len + 1 + n > BODY_MAX)
		line_start(cls);
	if (L.len + 1 + n > BODY_MAX)
		die("internal: a watch item of %zu bytes", n);
	L.body[L.len++] = ' ';
	memcpy(L.body + L.len, text, n);
	L.len += n;
}

static void itemf(int cls, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void itemf(int cls, const char *fmt, ...)
{
	char buf[128];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = fmt_vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(buf))
		die("internal: watch item too long");
	item(cls, buf, (size_t)n);
}

/*
 * A definition: head, a comma, then text escaped. Where it does not fit a
 * line, as much as does, and the rest in "+" lines; an escape is never cut.
 */
static void def(int cls, const char *head, size_t hn, const char *text, size_t tn)
{
	static char esc[3 * PATH_BUF + 2], joined[BODY_MAX + 1];
	size_t en = wl_escape(esc, sizeof(esc), text, tn), at, room, k;

	if (hn + 1 + en <= BODY_MAX - 8) {
		memcpy(joined, head, hn);
		joined[hn] = ',';
		memcpy(joined + hn + 1, esc, en);
		item(cls, joined, hn + 1 + en);
		return;
	}
	line_start(cls);
	L.body[L.len++] = ' ';
	memcpy(L.body + L.len, head, hn);
	L.len += hn;
	L.body[L.len++] = ',';
	for (at = 0; at < en; at += k) {
		room = BODY_MAX - L.len;
		k = en - at < room ? en - at : room;
		/* not inside a %XX */
		if (at + k < en && k >= 1 && esc[at + k - 1] == '%')
			k -= 1;
		else if (at + k < en && k >= 2 && esc[at + k - 2] == '%')
			k -= 2;
		memcpy(L.body + L.len, esc + at, k);
		L.len += k;
		if (at + k < en) {
			line_start(WC_N);
			L.body[L.len++] = ' ';
		}
	}
	line_end();
}

/* ---- the tables ---- */

static uint64_t fnv64(const char *s)
{
	uint64_t h = 14695981039346656037u;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211u;
	return h;
}

static int proc_cmp(const void *a, const void *b)
{
	const struct wproc *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->start < y->start ? -1 : x->start > y->start;
}

static int file_cmp(const void *a, const void *b)
{
	const struct wfile *x = a, *y = b;

	if (x->hash != y->hash)
		return x->hash < y->hash ? -1 : 1;
	if (x->inode != y->inode)
		return x->inode < y->inode ? -1 : 1;
	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	return x->flags < y->flags ? -1 : x->flags > y->flags;
}

/* The lowest id not in use. */
static uint32_t id_take(struct wtab *t)
{
	uint32_t i;

	for (i = t->free_hint; i < t->cap && t->used[i]; i++)
		;
	t->used[i] = 1;
	t->free_hint = i + 1;
	return i;
}

/* Ids ended this sample are free from the next on. */
static void ids_settle(struct wtab *t)
{
	uint32_t i;

	for (i = 0; i < t->cap; i++)
		if (t->used[i] == 2) {
			t->used[i] = 0;
			if (i < t->free_hint)
				t->free_hint = i;
		}
}

/* More in a sample than the tables hold: the rest left out, said once. */
static uint32_t fit(struct wtab *t, uint32_t n, const char *what)
{
	if (n <= t->cap)
		return n;
	if (!t->full_said)
		warnx("watch: %u %s, more than the %u its tables hold (4 times the first "
		      "sample's): the rest are left out of the samples (the captures hold "
		      "them)", n, what, t->cap);
	t->full_said = 1;
	return t->cap;
}

/* ---- a sample ---- */

/* This sample, beside the tables: what each entry became. */
struct cur {
	struct wproc *proc;
	uint32_t nproc;
	struct wfile *file;
	uint32_t nfile;
	uint32_t *file_id;	/* by the scan's file index: the log's id, or UINT32_MAX */
	uint32_t *proc_at;	/* by id: the entry in proc, or UINT32_MAX */
	uint32_t *file_at;
	uint8_t *proc_new, *file_new;	/* by id: defined this sample */
	struct wpart *part;
	uint32_t npart;
};

static uint32_t *by_id(struct arena *a, uint32_t cap)
{
	uint32_t *v = arena_alloc(a, (size_t)cap * sizeof(*v), 4);

	memset(v, 0xff, (size_t)cap * sizeof(*v));
	return v;
}

static uint8_t *flags_by_id(struct arena *a, uint32_t cap)
{
	uint8_t *v = arena_alloc(a, cap, 1);

	memset(v, 0, cap);
	return v;
}

/* The processes, matched with the table's by (pid, start): their ids. */
static void merge_procs(struct scan *s, struct cur *c)
{
	struct wtab *t = &W.proc;
	struct wproc *old = t->e;
	uint32_t i, j = 0, n;

	c->proc = arena_alloc(s->arena, (size_t)s->nproc * sizeof(*c->proc) + 1, 8);
	for (i = 0; i < s->nproc; i++) {
		const struct proc *p = s->procs[i];
		struct wproc *w = &c->proc[i];

		w->pid = p->pid;
		w->start = p->start;
		w->p = p;
		w->v[WL_EFF_RESIDENT] = eff_bytes(&p->fig.eff_resident);
		w->v[WL_SOLE] = p->fig.sole / W.page_size;
		w->v[WL_RESIDENT] = p->fig.resident / W.page_size;
		w->v[WL_SWAP] = p->fig.swap / W.page_size;
		w->v[WL_WRITABLE] = p->fig.writable / W.page_size;
	}
	sort(c->proc, s->nproc, sizeof(*c->proc), proc_cmp);
	n = fit(t, s->nproc, "processes");
	c->proc_at = by_id(s->arena, t->cap);
	c->proc_new = flags_by_id(s->arena, t->cap);
	for (i = 0; i < n; i++) {
		struct wproc *w = &c->proc[i];
		int k = -1;

		while (j < t->n && (k = proc_cmp(&old[j], w)) < 0)
			t->used[old[j++].id] = 2;	/* exited */
		w->old = UINT32_MAX;
		if (j < t->n && k == 0) {
			w->old = j;
			w->id = old[j++].id;
		} else {
			w->id = id_take(t);
			c->proc_new[w->id] = 1;
		}
		c->proc_at[w->id] = i;
	}
	for (; j < t->n; j++)
		t->used[old[j].id] = 2;
	c->nproc = n;
}

/* The files, matched by (path, device, inode, deleted): their ids. */
static void merge_files(struct scan *s, struct cur *c)
{
	struct wtab *t = &W.file;
	struct wfile *old = t->e;
	uint32_t nf, i, j = 0, n;
	struct file *files = files_build(s, &nf);

	c->file = arena_alloc(s->arena, (size_t)nf * sizeof(*c->file) + 1, 8);
	for (i = 0; i < nf; i++) {
		struct wfile *w = &c->file[i];

		w->hash = fnv64(files[i].path);
		w->inode = files[i].inode;
		w->dev = files[i].dev;
		w->flags = files[i].flags & (MF_DELETED | MF_DEVICE);
		w->index = i;
		w->v = eff_bytes(&files[i].fig.eff_resident);
	}
	sort(c->file, nf, sizeof(*c->file), file_cmp);
	n = fit(t, nf, "files");
	c->file_id = by_id(s->arena, nf + 1);
	c->file_at = by_id(s->arena, t->cap);
	c->file_new = flags_by_id(s->arena, t->cap);
	for (i = 0; i < n; i++) {
		struct wfile *w = &c->file[i];
		int k = -1;

		while (j < t->n && (k = file_cmp(&old[j], w)) < 0)
			t->used[old[j++].id] = 2;	/* no longer mapped */
		w->old = UINT32_MAX;
		if (j < t->n && k == 0) {
			w->old = j;
			w->id = old[j++].id;
		} else {
			w->id = id_take(t);
			c->file_new[w->id] = 1;
		}
		c->file_at[w->id] = i;
		c->file_id[w->index] = w->id;
	}
	for (; j < t->n; j++)
		t->used[old[j].id] = 2;
	c->nfile = n;
}

/* The part of a process mapping m goes to, and how much of it is written. */
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

struct eff_part {
	uint64_t key;
	struct eff e;
};

static int eff_part_cmp(const void *a, const void *b)
{
	const struct eff_part *x = a, *y = b;

	return x->key < y->key ? -1 : x->key > y->key;
}

/* Each process's parts, summed over its mappings, in key order. */
static void build_parts(struct scan *s, struct cur *c)
{
	uint64_t nmap = 0, k = 0, i, j;
	struct eff_part *e;

	for (i = 0; i < c->nproc; i++)
		nmap += 2 * (uint64_t)c->proc[i].p->nmap;
	e = arena_alloc(s->arena, nmap * sizeof(*e) + 1, 8);
	for (i = 0; i < c->nproc; i++) {
		uint64_t id = (uint64_t)c->proc[i].id << 32;
		const struct mapping *m;

		for (m = c->proc[i].p->map; m; m = m->next) {
			int part = part_of(m);
			uint64_t f = c->file_id[m->file];
			struct eff w = { 0, 0 }, rest = { 0, 0 };

			if (part == WL_PART_FILE || part == WL_PART_DATA) {
				if (f == UINT32_MAX)
					continue;	/* beyond the file table */
			} else {
				f = 0;
			}
			if (part == WL_PART_FILE && !(m->flags & MF_SHARED) && m->fig.writable) {
				eff_written(s, m, &w, &rest);
				e[k++] = (struct eff_part){ id | WL_PART_DATA << 28 | f, w };
			} else {
				rest = m->fig.eff_resident;
			}
			e[k++] = (struct eff_part){ id | (uint64_t)part << 28 | f, rest };
		}
	}
	sort(e, k, sizeof(*e), eff_part_cmp);
	c->part = (struct wpart *)e;	/* in place: an entry shrinks from 24 to 16 bytes */
	for (i = 0, j = 0; i < k; j++) {
		struct eff sum = e[i].e;
		uint64_t key = e[i].key;

		for (i++; i < k && e[i].key == key; i++)
			eff_sum(&sum, &e[i].e);
		c->part[j] = (struct wpart){ key, eff_bytes(&sum) };
		if (!c->part[j].v)
			j--;	/* nothing resident: no part */
	}
	c->npart = fit(&W.part, (uint32_t)j, "process parts");
}

/* The ram view's parts, read now: their ids by name, new ones defined. */
struct ramcur {
	int64_t v[WL_RAM_MAX];
	uint8_t depth[WL_RAM_MAX], seen[WL_RAM_MAX], fresh[WL_RAM_MAX];
};

static void ram_one(void *arg, const struct ram_line *l)
{
	struct ramcur *r = arg;
	uint32_t i;

	for (i = 0; i < W.nram && strcmp(W.ram_name[i], l->label) != 0; i++)
		;
	if (i == W.nram) {
		if (W.nram == WL_RAM_MAX)
			die("internal: more than %d parts of MemTotal", WL_RAM_MAX);
		W.ram_name[W.nram++] = l->label;	/* the ram view's own, constant */
		r->fresh[i] = 1;
	}
	r->v[i] = l->bytes;
	r->depth[i] = (uint8_t)l->depth;
	r->seen[i] = 1;
}

static void write_head(void)
{
	itemf(WC_HEAD, "%x,%016llx,%llx,%x,%llx,%x,%x,%x,%x,%x,%llx,%llx", WL_FORMAT,
	      (unsigned long long)W.id, (unsigned long long)W.page_size, USER_HZ,
	      (unsigned long long)W.interval_ms, WL_KEYFRAME, W.proc.cap, W.file.cap,
	      W.part.cap, WL_RAM_MAX, (unsigned long long)W.a.lo, (unsigned long long)W.peak);
}

static void write_defs(struct scan *s, const struct cur *c, const struct ramcur *r, int key)
{
	struct file *files = s->files;
	char head[256];
	uint32_t i;
	size_t n;

	for (i = 0; i < W.nram; i++)
		if (r->seen[i] && (key || r->fresh[i])) {
			n = fmt_snprintf(head, sizeof(head), "%x,%x", i, r->depth[i]);
			def(WC_RAMDEF, head, n, W.ram_name[i], strlen(W.ram_name[i]));
		}
	for (i = 0; i < W.file.cap; i++) {
		const struct wfile *w;
		const struct file *f;

		if (c->file_at[i] == UINT32_MAX || !(key || c->file_new[i]))
			continue;
		w = &c->file[c->file_at[i]];
		f = &files[w->index];
		n = fmt_snprintf(head, sizeof(head), "%x,%x,%llx,%x,%zx", i, w->dev,
				 (unsigned long long)w->inode, w->flags, strlen(f->path));
		def(WC_FILEDEF, head, n, f->path, strlen(f->path));
	}
	for (i = 0; i < W.proc.cap; i++) {
		static char name[3 * NAME_MAX_COMM + 2];
		const struct wproc *w;

		if (c->proc_at[i] == UINT32_MAX || !(key || c->proc_new[i]))
			continue;
		w = &c->proc[c->proc_at[i]];
		wl_escape(name, sizeof(name), w->p->name, strlen(w->p->name));
		/* flags 1: it started during the watch */
		n = fmt_snprintf(head, sizeof(head), "%x,%x,%llx,%x,%s,%x", i, (unsigned)w->pid,
				 (unsigned long long)w->start, c->proc_new[i] && W.n > 0, name,
				 w->p->cmdlen);
		def(WC_PROCDEF, head, n, w->p->cmdline ? w->p->cmdline : "", w->p->cmdlen);
	}
}

/* p, q, f and r: what differs from the tables (all of it at a keyframe). */
static void write_values(const struct cur *c, const struct ramcur *r, int key)
{
	const struct wproc *oldp = W.proc.e;
	const struct wfile *oldf = W.file.e;
	const struct wpart *oldq = W.part.e;
	char buf[128];
	uint32_t i, j, f, mask;
	size_t n;

	for (i = 0; i < W.proc.cap; i++) {
		const struct wproc *w;

		if (c->proc_at[i] == UINT32_MAX)
			continue;
		w = &c->proc[c->proc_at[i]];
		for (f = 0, mask = 0; f < WL_NFIELD; f++)
			if (key || w->old == UINT32_MAX || oldp[w->old].v[f] != w->v[f])
				mask |= 1u << f;
		if (!mask)
			continue;
		n = fmt_snprintf(buf, sizeof(buf), "%x,%x", i, mask);
		for (f = 0; f < WL_NFIELD; f++)
			if (mask & 1u << f)
				n += fmt_snprintf(buf + n, sizeof(buf) - n, ",%llx",
						  (unsigned long long)w->v[f]);
		item(WC_PROC, buf, n);
	}
	/* q: both lists in key order; a part gone is written as 0 */
	for (i = 0, j = 0; i < c->npart || j < W.part.n;) {
		const struct wpart *e;
		uint64_t v;

		if (j == W.part.n || (i < c->npart && c->part[i].key < oldq[j].key)) {
			e = &c->part[i++];
			v = e->v;
		} else if (i == c->npart || oldq[j].key < c->part[i].key) {
			e = &oldq[j++];
			if (W.proc.used[e->key >> 32] == 2)
				continue;	/* its process exited: the x says it */
			v = 0;
		} else {
			e = &c->part[i++];
			v = e->v;
			if (!key && oldq[j++].v == v)
				continue;
		}
		f = (uint32_t)(e->key >> 28 & 15);
		if (f == WL_PART_FILE || f == WL_PART_DATA)
			n = fmt_snprintf(buf, sizeof(buf), "%x,%c%x,%llx", (uint32_t)(e->key >> 32),
					 wl_part_char[f], (uint32_t)(e->key & 0xfffffff),
					 (unsigned long long)v);
		else
			n = fmt_snprintf(buf, sizeof(buf), "%x,%c,%llx", (uint32_t)(e->key >> 32),
					 wl_part_char[f], (unsigned long long)v);
		item(WC_PART, buf, n);
	}
	for (i = 0; i < W.file.cap; i++) {
		const struct wfile *w;

		if (c->file_at[i] == UINT32_MAX)
			continue;
		w = &c->file[c->file_at[i]];
		if (key || w->old == UINT32_MAX || oldf[w->old].v != w->v)
			itemf(WC_FILE, "%x,%llx", i, (unsigned long long)w->v);
	}
	for (i = 0; i < W.nram; i++)
		if (r->seen[i] && (key || r->fresh[i] || W.ram[i] != r->v[i]))
			itemf(WC_RAM, "%x,%s%llx", i, r->v[i] < 0 ? "-" : "",
			      (unsigned long long)(r->v[i] < 0 ? -r->v[i] : r->v[i]));
}

/* x: the processes that exited, the files no longer mapped, by id. */
static void write_ends(void)
{
	uint32_t i;

	for (i = 0; i < W.proc.cap; i++)
		if (W.proc.used[i] == 2)
			itemf(WC_END, "p%x", i);
	for (i = 0; i < W.file.cap; i++)
		if (W.file.used[i] == 2)
			itemf(WC_END, "f%x", i);
}

/* The tables take the sample's values, in their key order. */
static void keep(const struct cur *c, const struct ramcur *r)
{
	struct wproc *p = W.proc.e;
	struct wfile *f = W.file.e;
	uint32_t i;

	for (i = 0; i < c->nproc; i++) {
		p[i] = c->proc[i];
		p[i].p = NULL;
	}
	W.proc.n = c->nproc;
	for (i = 0; i < c->nfile; i++)
		f[i] = c->file[i];
	W.file.n = c->nfile;
	memcpy(W.part.e, c->part, (size_t)c->npart * sizeof(*c->part));
	W.part.n = c->npart;
	for (i = 0; i < W.nram; i++)
		if (r->seen[i])
			W.ram[i] = r->v[i];
	ids_settle(&W.proc);
	ids_settle(&W.file);
}

/*
 * Sized by the first sample, once: four times its processes and files, and
 * twice its mappings for the parts (a mapping makes two at most), at least
 * the *_MIN: the bound a week of samples stays in.
 */
static void tables_init(const struct scan *s)
{
	uint32_t np = s->nproc, nf = s->nfile, i;
	uint64_t nmap = 0;
	size_t bytes;

	for (i = 0; i < s->nproc; i++)
		nmap += s->procs[i]->nmap;
	W.proc.cap = np > PROCS_MIN / 4 ? (np < WL_CAP_MAX / 4 ? 4 * np : WL_CAP_MAX) : PROCS_MIN;
	W.file.cap = nf > FILES_MIN / 4 ? (nf < WL_CAP_MAX / 4 ? 4 * nf : WL_CAP_MAX) : FILES_MIN;
	W.part.cap = nmap > PARTS_MIN / 2 ? (nmap < WL_CAP_MAX / 2 ? 2 * (uint32_t)nmap :
					     WL_CAP_MAX) : PARTS_MIN;
	bytes = (size_t)W.proc.cap * (sizeof(struct wproc) + 1) +
		(size_t)W.file.cap * (sizeof(struct wfile) + 1) +
		(size_t)W.part.cap * sizeof(struct wpart) + 4096;
	if (arena_init(&W.a, bytes) < 0)
		die("watch: cannot reserve %zu KiB for the last sample's values", bytes >> 10);
	W.proc.e = arena_alloc(&W.a, (size_t)W.proc.cap * sizeof(struct wproc), 8);
	W.file.e = arena_alloc(&W.a, (size_t)W.file.cap * sizeof(struct wfile), 8);
	W.part.e = arena_alloc(&W.a, (size_t)W.part.cap * sizeof(struct wpart), 8);
	W.proc.used = arena_alloc(&W.a, W.proc.cap, 1);
	W.file.used = arena_alloc(&W.a, W.file.cap, 1);
}

/* The run's parameters: its id, its interval. */
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
	static struct ramcur r;
	struct cur c;
	uint64_t used;
	uint32_t i;

	files_build(s, &i);
	if (!W.a.base) {
		W.page_size = s->page_size;
		tables_init(s);
	}
	merge_procs(s, &c);
	merge_files(s, &c);
	build_parts(s, &c);
	memset(&r, 0, sizeof(r));
	ram_read_parts(&rs, s->page_size);
	ram_parts(s, &rs, ram_one, &r);
	for (i = 0; i < W.nram; i++) {
		if (!r.seen[i])	/* a part the view shows only when it is not 0 */
			r.seen[i] = 1, r.v[i] = 0, r.depth[i] = W.ram_depth[i];
		W.ram_depth[i] = r.depth[i];
	}
	used = (uint64_t)s->arena->peak + s->arena->hi;
	if (used > W.peak)
		W.peak = used;
	W.lines = 0;
	if (key)
		write_head();
	write_defs(s, &c, &r, key);
	write_values(&c, &r, key);
	write_ends();
	line_end();
	itemf(WC_TIME, "%llx,%llx,%llx,%x%s", (unsigned long long)W.n,
	      (unsigned long long)real_ms, (unsigned long long)up_ms, W.lines + 1,
	      key ? ",k" : "");
	line_end();
	keep(&c, &r);
	W.n++;
}

/* The watch ends: why (count, sigint, sigterm). */
void wsample_end(const char *why)
{
	item(WC_STOP, why, strlen(why));
	line_end();
}
