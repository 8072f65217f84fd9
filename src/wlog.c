/* Watch logs read back: lines into the reader's state, a log or FILE.1 and FILE walked. */
/*
 * The reader keeps one sample's state (wlread.h), in tables sized by the
 * run's h line (the writer's capacities), in memory of its own. Lines apply
 * as they come (values are whole, never differences); a gap in SEQ is a
 * loss: what lay between the lines on either side of it, in the sample's
 * class and id order, is unknown until written again or the next keyframe
 * (wlstate.c marks it when the t line closes the sample).
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "capture.h"
#include "wlread.h"

static int shex(const char *s, int64_t *v)
{
	uint64_t u;

	if (hex_parse(s + (*s == '-'), WL_VALUE_MAX, &u) < 0)
		return -1;
	*v = *s == '-' ? -(int64_t)u : (int64_t)u;
	return 0;
}

/* ---- records naming what the log has not defined: losses, said once an id ---- */

static void orphan(struct wlread *r, uint8_t *said, const char *what, uint32_t id)
{
	r->w->st.undefined++;
	if (*said)
		return;
	*said = 1;
	wlr_say(r, "%s id %x has no definition (lost?): what the log says of it is unknown "
		"until one comes", what, id);
}

static void orphan_proc(struct wlread *r, uint32_t id)
{
	r->orphan_procs = 1;
	orphan(r, &r->proc[id].said, "process", id);
}

static void orphan_file(struct wlread *r, uint32_t id)
{
	r->orphan_files = 1;
	orphan(r, &r->file[id].said, "file", id);
}

/* ---- definitions ---- */

static void proc_define(struct wlread *r, const struct pend *d, const char *cmd, size_t n)
{
	struct rproc *p = &r->proc[d->id];

	/* the id another process's: its x was lost, it exited */
	if (p->live && (p->pub.pid != (int32_t)d->a || p->pub.start != d->b)) {
		if (r->synced && r->ops->exited)	/* after the last sample given, at the latest */
			r->ops->exited(r->arg, &r->last_s, &p->pub);
		wlr_proc_end(r, p);
	}
	p = wlr_proc_take(r, d->id);
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

static void file_define(struct wlread *r, const struct pend *d, const char *path, size_t n)
{
	struct rfile *f = wlr_file_take(r, d->id);

	if (f->pub.inode != d->b || f->pub.dev != (uint32_t)d->a || strcmp(f->path, path) != 0) {
		f->v = 0;
		f->known = 0;
	}
	f->doubt = 0;
	f->seen = 1;
	f->ended = 0;
	f->said = 0;
	f->pub.dev = (uint32_t)d->a;
	f->pub.inode = d->b;
	f->pub.flags = (uint32_t)d->c;
	memcpy(f->path, path, n + 1);
}

/* The definition whose text is all in: unescaped, applied. */
static void pend_done(struct wlread *r)
{
	static char text[PATH_BUF + 1];
	struct pend *d = &r->pend;
	int cls = d->cls;
	size_t n;

	d->cls = WC_N;
	if (wl_unescape(d->esc, d->elen, text, sizeof(text), &n) < 0 || n != d->want)
		return;	/* not a definition: the id stays unknown */
	if (cls == WC_PROCDEF) {
		proc_define(r, d, text, n);
	} else if (cls == WC_CGDEF) {
		struct rproc *p = &r->proc[d->id];

		if (!p->live) {
			orphan_proc(r, d->id);	/* its P was lost */
			return;
		}
		memcpy(p->cg, text, n + 1);
		p->pub.cgroup = p->cg;
		p->pub.cgroup_doubt = 0;
	} else {
		file_define(r, d, text, n);
	}
}

/* Escaped text for the definition waiting for it: applied once all of it is in. */
static void pend_add(struct wlread *r, const char *s)
{
	struct pend *d = &r->pend;
	size_t n = strlen(s), got = 0, i;

	if (n > sizeof(d->esc) - 1 - d->elen) {
		d->cls = WC_N;
		return;
	}
	memcpy(d->esc + d->elen, s, n + 1);
	d->elen += n;
	if (d->elen == 1 && d->esc[0] == '%') {
		if (d->want == 0)
			pend_done(r);
		return;
	}
	for (i = 0; i < d->elen; i++, got++)
		if (d->esc[i] == '%')
			i += 2;
	if (got >= d->want)
		pend_done(r);
}

/* P ID,PID,START,FLAGS,NAME,CMDLEN,CMDLINE and F ID,DEV,INODE,FLAGS,LEN,PATH */
static int define(struct wlread *r, int cls, char *it)
{
	struct pend *d = &r->pend;
	char *f[7];
	uint64_t v[4];
	size_t n;
	int k = cls == WC_PROCDEF ? 7 : 6, i;

	if (wl_fields(it, f, k) != k)
		return -1;
	for (i = 0; i < 4; i++)
		if (hex_parse(f[i], i == 0 ? UINT32_MAX : UINT64_MAX, &v[i]) < 0)
			return -1;
	if (v[0] >= (cls == WC_PROCDEF ? r->np : r->nf) ||
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
	pend_add(r, f[k - 1]);
	return (int)d->id;
}

/* G ID,LEN,PATH: process ID's cgroup */
static int define_cg(struct wlread *r, char *it)
{
	struct pend *d = &r->pend;
	char *f[3];
	uint64_t id;

	if (wl_fields(it, f, 3) != 3 || hex_parse(f[0], r->np - 1, &id) < 0 ||
	    hex_parse(f[1], PATH_BUF - 1, &d->want) < 0)
		return -1;
	d->cls = WC_CGDEF;
	d->id = (uint32_t)id;
	d->elen = 0;
	pend_add(r, f[2]);
	return (int)id;
}

/* R ID,DEPTH,NAME */
static int define_ram(struct wlread *r, char *it)
{
	char *f[3];
	uint64_t id, depth;
	size_t n;
	struct rram *m;

	if (wl_fields(it, f, 3) != 3 || hex_parse(f[0], r->nr - 1, &id) < 0 ||
	    hex_parse(f[1], 16, &depth) < 0)
		return -1;
	m = &r->ram[id];
	if (wl_unescape(f[2], strlen(f[2]), m->name, sizeof(m->name), &n) < 0) {
		m->live = 0;
		return -1;
	}
	if (!m->live)
		m->known = 0;
	m->live = 1;
	m->doubt = 0;
	m->seen = 1;
	m->depth = (int)depth;
	return (int)id;
}

/* ---- values ---- */

/* p ID,MASK,VALUE...: the fields MASK names, eff_resident and eff_dmabuf in
 * bytes, the rest in pages */
static int proc_values(struct wlread *r, char *it)
{
	char *f[2 + WL_NFIELD];
	uint64_t id, mask, v[WL_NFIELD];
	int n = wl_fields(it, f, 2 + WL_NFIELD), i, k = 2;
	struct rproc *p;

	if (n < 3 || hex_parse(f[0], r->np - 1, &id) < 0 || hex_parse(f[1], ALL_FIELDS, &mask) < 0 ||
	    n != 2 + __builtin_popcount((unsigned)mask))
		return -1;
	for (i = 0; i < WL_NFIELD; i++)
		if ((mask & 1u << i) && hex_parse(f[k++], i == WL_EFF_RESIDENT ? WL_VALUE_MAX :
						 WL_VALUE_MAX / r->ps, &v[i]) < 0)
			return -1;
	p = &r->proc[id];
	if (!p->live) {
		orphan_proc(r, (uint32_t)id);
		return (int)id;
	}
	for (i = 0; i < WL_NFIELD; i++) {
		if (!(mask & 1u << i))
			continue;
		p->v[i] = (int64_t)(i == WL_EFF_RESIDENT || i == WL_EFF_DMABUF ? v[i] : v[i] * r->ps);
		p->known |= 1u << i;
		p->changed |= 1u << i;
	}
	if (r->format == 1)	/* written before dma-bufs were read */
		p->v[WL_EFF_DMABUF] = 0, p->known |= 1u << WL_EFF_DMABUF;
	p->seen = 1;
	return (int)id;
}

/* q PROCID,PART,VALUE: PART h, s, a, or f or d and a file id */
static int part_value(struct wlread *r, char *it)
{
	char *f[3];
	const char *c;
	uint64_t id, file = 0, v;
	struct rproc *p;
	struct rpart *e;
	uint64_t k;

	if (wl_fields(it, f, 3) != 3 || hex_parse(f[0], r->np - 1, &id) < 0 || !f[1][0] ||
	    !(c = strchr(wl_part_char, f[1][0])) || hex_parse(f[2], WL_VALUE_MAX, &v) < 0)
		return -1;
	if ((*c == 'f' || *c == 'd') ? hex_parse(f[1] + 1, r->nf - 1, &file) < 0 : f[1][1] != '\0')
		return -1;
	p = &r->proc[id];
	if (!p->live) {
		orphan_proc(r, (uint32_t)id);
		return (int)id;
	}
	if ((*c == 'f' || *c == 'd') && !r->file[file].live) {
		orphan_file(r, (uint32_t)file);
		return (int)id;
	}
	k = (id + 1) << 32 | (uint64_t)(c - wl_part_char) << 28 | file;
	e = wlr_part_slot(r, k);
	if (!e->key) {
		if (r->nparts >= (r->qmask + 1) / 4 * 3)
			return -1;	/* more than the writer's tables hold: not its */
		wlr_part_add(r, e, k);
	}
	e->gen = p->gen;
	e->v = (int64_t)v;
	e->known = e->changed = e->seen = 1;
	return (int)id;
}

/* f ID,VALUE and r ID,VALUE */
static int file_or_ram_value(struct wlread *r, int cls, char *it)
{
	char *f[2];
	uint64_t id;
	int64_t v;

	if (wl_fields(it, f, 2) != 2 || hex_parse(f[0], (cls == WC_FILE ? r->nf : r->nr) - 1, &id) < 0 ||
	    shex(f[1], &v) < 0)
		return -1;
	if (cls == WC_FILE && r->file[id].live) {
		r->file[id].v = v;
		r->file[id].known = r->file[id].changed = r->file[id].seen = 1;
	} else if (cls == WC_FILE) {
		orphan_file(r, (uint32_t)id);
	} else if (r->ram[id].live) {
		r->ram[id].v = v;
		r->ram[id].known = r->ram[id].changed = r->ram[id].seen = 1;
	} else {
		orphan(r, &r->ram[id].said, "ram part", (uint32_t)id);
	}
	return (int)id;
}

/* x pID, fID: the key's sub 0 for processes, 1 for files */
static int end_item(struct wlread *r, char *it, int *sub)
{
	uint64_t id;

	if ((it[0] != 'p' && it[0] != 'f') ||
	    hex_parse(it + 1, (it[0] == 'p' ? r->np : r->nf) - 1, &id) < 0)
		return -1;
	*sub = it[0] == 'f';
	if (it[0] == 'p' && r->proc[id].live)
		r->proc[id].ended = 1;
	else if (it[0] == 'f' && r->file[id].live)
		r->file[id].ended = 1;
	else if (it[0] == 'p')
		orphan_proc(r, (uint32_t)id);
	else
		orphan_file(r, (uint32_t)id);
	return (int)id;
}

/* ---- lines ---- */

/* h 1,ID,PS,HZ,IVL,KEY,NP,NF,NQ,NR,MEM,PEAK: 1 when it begins a new run (ID
 * new), 0 when it is a keyframe's of the run, -1 when it is not understood. */
static int head(struct wlread *r, char *it)
{
	char *f[12];
	uint64_t v[12];
	int i;

	if (wl_fields(it, f, 12) != 12)
		return -1;
	for (i = 0; i < 12; i++)
		if (hex_parse(f[i], UINT64_MAX, &v[i]) < 0)
			return -1;
	if (v[0] == 0 || v[0] > WL_FORMAT)
		die("%s: line %llu: a watch log in format %llu: this exmap-mini reads 1 to %d",
		    r->file_now, (unsigned long long)r->at, (unsigned long long)v[0], WL_FORMAT);
	r->format = (uint32_t)v[0];
	for (i = 6; i < 10; i++)
		if (v[i] == 0 || v[i] > (i == 9 ? WL_RAM_MAX : WL_CAP_MAX))
			return -1;
	if (v[2] < 1024 || v[2] > (1u << 30) || (v[2] & (v[2] - 1)))
		return -1;
	r->w->st.writer_mem = v[10];
	r->w->st.writer_peak = v[11];
	if (r->have_run && v[1] == r->id)
		return 0;	/* a keyframe's */
	/* a new run: whatever the last one was in the middle of is over */
	r->have_run = 1;
	r->id = v[1];
	r->ps = v[2];
	r->ivl = v[4];
	r->np = (uint32_t)v[6];
	r->nf = (uint32_t)v[7];
	r->nq = (uint32_t)v[8];
	r->nr = (uint32_t)v[9];
	r->run++;
	r->w->st.runs++;
	r->synced = r->have_last = 0;
	r->pend.cls = WC_N;
	wlr_tables(r);
	wlr_clear(r);
	return 1;
}

/* One item of class cls; its key's id (and sub) for the loss ranges, or -1. */
static int one_item(struct wlread *r, int cls, char *it, int *sub)
{
	*sub = 0;
	switch (cls) {
	case WC_RAMDEF: return define_ram(r, it);
	case WC_FILEDEF: case WC_PROCDEF: return define(r, cls, it);
	case WC_CGDEF: return define_cg(r, it);
	case WC_PROC: return proc_values(r, it);
	case WC_PART: return part_value(r, it);
	case WC_FILE: case WC_RAM: return file_or_ram_value(r, cls, it);
	case WC_END: return end_item(r, it, sub);
	default: return -1;
	}
}

/* A line that checks out yet is not one a watch writes: its sample in doubt. */
static void garbled(struct wlread *r, int cls)
{
	r->all_lost = 1;
	r->w->st.garbled++;
	wlr_say(r, "a watch line (class %c) that checks out but is not understood: its sample's "
		"values are unknown", cls == WC_N ? '+' : wl_class_char[cls]);
}

/* A watch line's body, checked; applied in its run. */
static void on_line(struct wlread *r, char *body)
{
	uint32_t seq, n;
	int cls, id, sub, bad = 0;
	char *items, *it;

	if (wl_line_check(body, &seq, &cls, &items) < 0) {
		r->w->st.bad++;
		if (r->have_run && r->bad_run++ < WL_SEQ_MOD / 2)
			wlr_say(r, "a watch line damaged (its check fails): what it carried is "
				"unknown until written again or the next keyframe");
		return;
	}
	r->w->st.lines++;
	n = (seq - r->seq - 1) % WL_SEQ_MOD;
	if (cls == WC_HEAD && (id = head(r, items)) != 0) {
		if (id < 0 && r->have_run)
			garbled(r, cls);
		r->have_seq = 0;	/* a run's first line: SEQ starts again */
	} else if (r->have_run && r->have_seq && n >= WL_SEQ_MOD / 2) {
		/* behind the last line: a console that repeated it, or lines out of order */
		r->w->st.repeated++;
		wlr_say(r, "a watch line again, or out of order (number %x after %x): ignored",
			seq, r->seq);
		return;
	}
	if (!r->have_run) {
		r->unsynced++;
		return;
	}
	if (r->have_seq && n) {
		uint32_t said = n > r->bad_run ? n - r->bad_run : 0;	/* the damaged ones were */

		r->w->st.lost += n;
		r->w->st.damaged += r->bad_run < n ? r->bad_run : n;
		r->lost_here += n;
		if (said)
			wlr_say(r, "%u watch line%s lost before it: what %s carried is unknown "
				"until written again or the next keyframe", said, said == 1 ? "" : "s",
				said == 1 ? "it" : "they");
		r->pend.cls = WC_N;	/* a definition's rest went with them */
		if (!r->gap_open)
			r->gap_from = r->prev_key;
		r->gap_open = 1;
	}
	r->seq = seq;
	r->have_seq = 1;
	r->bad_run = 0;
	r->lines++;
	if (cls == WC_N) {	/* the rest of a definition's text */
		if (r->pend.cls != WC_N && !strchr(items, ' '))
			pend_add(r, items);
		return;
	}
	r->pend.cls = WC_N;	/* a definition not all in is lost (its id stays unknown) */
	if (cls == WC_TIME || cls == WC_STOP || cls == WC_HEAD) {
		if (cls != WC_HEAD)
			wlr_gap_to(r, wlr_key(cls, 0, 0));
		if (cls == WC_TIME && wlr_close_sample(r, items) < 0)
			garbled(r, cls);	/* whole, yet not a sample's close: its sample is in doubt */
		if (cls == WC_STOP)
			wlr_clear(r);
		return;
	}
	while ((it = cap_field(&items)) != NULL) {
		if ((id = one_item(r, cls, it, &sub)) < 0) {
			bad = 1;	/* checked out, yet not understood: trust none of it */
			continue;
		}
		wlr_gap_to(r, wlr_key(cls, sub, (uint32_t)id));
		r->prev_key = wlr_key(cls, sub, (uint32_t)id);
	}
	if (bad)
		garbled(r, cls);
}

/* One file of the log, line by line. */
static void walk(struct wlread *r, const char *path)
{
	static struct caplog log;
	const char *t;
	uint64_t at;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		dierr(errno, "%s", path);
	r->file_now = path;
	caplog_start(&log, path, fd);
	while ((t = caplog_next(&log, &at)) != NULL) {
		if (strncmp(t, "XM w ", 5) != 0)
			continue;	/* a capture's line */
		r->at = at;
		on_line(r, (char *)t + 5);
	}
	close(fd);
}

/* 1 when path (a regular file) is a watch log: a watch line in it checks out,
 * or it holds watch lines alone (all damaged); a capture whose damaged tag
 * reads "XM w" stays one. 0 when not or no regular file, -1 if unreadable. */
int wlog_holds(const char *path)
{
	static struct caplog log;
	static char body[WL_LINE_MAX];
	struct stat st;
	const char *t;
	char *items;
	uint64_t at;
	uint32_t seq;
	int fd = open(path, O_RDONLY | O_CLOEXEC), cls, good = 0, watch = 0, other = 0;

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return 0;
	}
	caplog_start(&log, path, fd);
	while (!good && (t = caplog_next(&log, &at)) != NULL) {
		if (strncmp(t, "XM w ", 5) != 0) {
			other = 1;
		} else {
			watch = 1;
			if (strlen(t + 5) < sizeof(body))
				good = wl_line_check(strcpy(body, t + 5), &seq, &cls, &items) == 0;
		}
	}
	close(fd);
	return good || (watch && !other);
}

void wlog_open(const char *path, struct wlog *w)
{
	struct stat st;

	wlog_close(w);	/* what an earlier reading of it held */
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

/* The reader's state, in memory of its own (kept for the next walk, with
 * its tables), until wlog_close. */
int wlog_read(struct wlog *w, const struct wl_ops *ops, void *arg)
{
	struct wlread *r = w->rd;
	struct arena keep;

	if (!r) {
		if (arena_init(&w->mem, sizeof(*r)) < 0)
			die("%s: cannot reserve memory to read the watch log", w->path);
		r = w->rd = arena_alloc(&w->mem, sizeof(*r), 8);
		memset(r, 0, sizeof(*r));
	}
	keep = r->a;
	memset(r, 0, sizeof(*r));
	r->a = keep;
	r->w = w;
	r->ops = ops;
	r->arg = arg;
	r->pend.cls = WC_N;
	memset(&w->st, 0, sizeof(w->st));
	if (w->older[0])
		walk(r, w->older);
	walk(r, w->path);
	if (!w->st.lines && !w->st.bad)
		die("%s: no watch samples in it (no \"XM w\" line): take them with exmap-mini "
		    "watch", w->path);
	/* damaged lines after the last whole one: lost, and no gap after them says so */
	w->st.lost += r->bad_run;
	w->st.damaged += r->bad_run;
	wlr_say_losses(w);
	return w->st.samples ? 0 : -1;
}

void wlog_close(struct wlog *w)
{
	if (w->rd)
		arena_release(&w->rd->a);
	arena_release(&w->mem);
	w->rd = NULL;
}
