/* The dmabuf view, the procs view's dma-buf columns, and what a report says of them. */
/*
 * One row per buffer: its inode, exporter, name, size and holders (pid:f
 * through an fd, :m a mapping); the buffers no process holds where the
 * kernel lists them, else said unknown; the DRM clients' memory by region.
 * The procs view gains CSV columns dmabuf and eff_dmabuf always, and a text
 * column EFDMA (the share) when a process it shows holds a buffer: its
 * name column gives way, so the report stays 80 columns.
 */
#include <string.h>

#include "capture.h"
#include "dmabuf.h"

#define HOLDERS_TEXT	400	/* a row's holders as text; the rest said "..." */

/* The procs view's text column: its width, 0 when no process shown holds a
 * buffer; in CSV 1 (the columns are always there). */
int dmabuf_shown(const struct scan *s, const struct opts *o)
{
	const struct proc *p;
	struct eff sum = { 0, 0 };
	char buf[32];
	int holds = 0;

	if (o->csv)
		return 1;
	for (p = s->first; p; p = p->next)
		if (p->shown && p->dma) {
			holds |= p->dma->hold != NULL;
			eff_sum(&sum, &p->dma->share);
		}
	if (!holds)
		return 0;
	fmt_size(o, buf, sizeof(buf), eff_bytes(&sum));	/* the widest: the total */
	return (int)strlen(buf) + 1 > fig_width(o) ? (int)strlen(buf) + 1 : fig_width(o);
}

void dmabuf_csv_head(const struct opts *o)
{
	if (o->csv)
		outs(",dmabuf,eff_dmabuf");
}

/* Process p's two figures (CSV) or its share (text, in width w); NULL: the
 * shown processes' total. Unknown (its fds unreadable, or the capture has
 * none): empty fields, "?". */
void dmabuf_put(const struct scan *s, const struct opts *o, const struct proc *p, int w)
{
	struct eff share = { 0, 0 };
	uint64_t held = 0;
	char buf[32];
	int unknown = !s->dma || (p && p->dma && p->dma->err);
	const struct proc *q;

	for (q = p ? p : s->first; q && !unknown; q = p ? NULL : q->next)
		if ((p || q->shown) && q->dma) {
			held += q->dma->held;
			eff_sum(&share, &q->dma->share);
		}
	if (o->csv) {
		if (unknown)
			outs(",,");
		else
			outf(",%llu,%llu", (unsigned long long)held,
			     (unsigned long long)eff_bytes(&share));
		return;
	}
	if (!w)
		return;
	if (unknown)
		strcpy(buf, "?");
	else
		fmt_size(o, buf, sizeof(buf), eff_bytes(&share));
	outf(" %*s", w - 1, buf);
}

/* A hold as the holders column gives it: PID:f, PID:m or PID:fm. */
static size_t hold_text(char *to, size_t room, pid_t pid, const struct dmahold *h)
{
	return (size_t)fmt_snprintf(to, room, "%d:%s%s", (int)pid, h->fds ? "f" : "",
				    h->maps ? "m" : "");
}

/* The holders of buffer b, space between them, cut to room with "...". */
static void holders(const struct scan *s, const struct dmabuf *b, char *buf, size_t room)
{
	const struct proc *p;
	const struct dmahold *h;
	size_t n = 0, k;
	char one[40];

	buf[0] = '\0';
	for (p = s->first; p; p = p->next)
		for (h = p->dma ? p->dma->hold : NULL; h; h = h->next) {
			if (h->buf != b)
				continue;
			k = hold_text(one, sizeof(one), p->pid, h);
			if (n + (n > 0) + k + 4 > room) {
				strcpy(buf + n, n ? " ..." : "...");
				return;
			}
			n += (size_t)fmt_snprintf(buf + n, room - n, "%s%s", n ? " " : "", one);
		}
}

/* Whether a -P process holds b. */
static int held_by_shown(const struct scan *s, const struct dmabuf *b)
{
	const struct proc *p;
	const struct dmahold *h;

	for (p = s->first; p; p = p->next)
		for (h = p->shown && p->dma ? p->dma->hold : NULL; h; h = h->next)
			if (h->buf == b)
				return 1;
	return 0;
}

static int cmp_size(const void *a, const void *b)
{
	const struct dmabuf *x = *(const struct dmabuf *const *)a;
	const struct dmabuf *y = *(const struct dmabuf *const *)b;

	if (x->size != y->size)
		return (x->size < y->size) - (x->size > y->size);
	return (x->ino > y->ino) - (x->ino < y->ino);
}

static void buffer_row(const struct scan *s, const struct opts *o, const struct dmabuf *b)
{
	static char who[HOLDERS_TEXT];
	char size[32];
	size_t used;

	if (o->csv) {
		holders(s, b, who, sizeof(who));
		outf("dmabuf,%llu,", (unsigned long long)b->ino);
		csv_field(b->exp, strlen(b->exp));
		outs(",");
		csv_field(b->name, strlen(b->name));
		outf(",%llu,,,%s\n", (unsigned long long)b->size, who);
		return;
	}
	fmt_size(o, size, sizeof(size), b->size);
	outf("%10llu ", (unsigned long long)b->ino);
	put_text(b->exp[0] ? b->exp : "?", 12, 1);
	outs(" ");
	put_text(b->name[0] ? b->name : "-", 16, 1);
	/* "+": at least, its size unknown but for its mappings */
	outf(" %*s%s%5u ", fig_width(o) - 1, size, b->flags & DB_SIZED ? " " : "+", b->nholder);
	used = 10 + 1 + 12 + 1 + 16 + (size_t)fig_width(o) + 7;
	holders(s, b, who, path_room(used) + 1 < sizeof(who) ? path_room(used) + 1 : sizeof(who));
	outs(b->nholder ? who : "-");
	outs("\n");
}

/* A region's figure, or "-" (CSV: empty) where the driver gives none. */
static void drm_fig(const struct opts *o, const struct drmuse *d, uint32_t bit, uint64_t v)
{
	char buf[32];

	if (o->csv) {
		if (d->have & bit)
			outf("%llu", (unsigned long long)v);
		return;
	}
	if (d->have & bit)
		fmt_size(o, buf, sizeof(buf), v);
	else
		strcpy(buf, "-");
	outf(" %*s", fig_width(o) - 1, buf);
}

/* Whether d and e are one client (its device and id); of one region too. */
static int same_client(const struct drmuse *d, const struct drmuse *e, int region)
{
	return d->dev == e->dev && d->client == e->client &&
	       (!region || strcmp(d->region, e->region) == 0);
}

/* Whether p holds d's client (in d's region too). */
static int holds(const struct proc *p, const struct drmuse *d, int region)
{
	const struct drmuse *e;

	for (e = p->dma ? p->dma->drm : NULL; e; e = e->next)
		if (same_client(d, e, region))
			return 1;
	return 0;
}

/*
 * Client d's holders: how many scanned processes hold it; *first the first
 * that has d's region, *shown whether a process shown holds it; their pids
 * into buf when given (room bytes), space between them, cut with "...".
 */
static uint32_t drm_holders(const struct scan *s, const struct drmuse *d,
			    const struct proc **first, int *shown, char *buf, size_t room)
{
	const struct proc *q;
	uint32_t n = 0;
	size_t k = 0;
	int cut = 0;
	char one[16];

	*first = NULL;
	*shown = 0;
	if (buf)
		buf[0] = '\0';
	for (q = s->first; q; q = q->next) {
		if (!holds(q, d, 0))
			continue;
		if (!*first && holds(q, d, 1))
			*first = q;
		n++;
		*shown |= q->shown;
		if (!buf || cut)
			continue;
		fmt_snprintf(one, sizeof(one), "%d", (int)q->pid);
		if (k + (k > 0) + strlen(one) + 4 > room) {	/* room for " ..." */
			strcpy(buf + k, k ? " ..." : "...");
			cut = 1;
		} else {
			k += (size_t)fmt_snprintf(buf + k, room - k, "%s%s", k ? " " : "", one);
		}
	}
	return n;
}

/* A figure of d's over its n holders: p's share (the first holder takes
 * what rounding down leaves); n 0 or p NULL: the client's own. */
static uint64_t drm_share(uint64_t v, uint32_t n, const struct proc *p, const struct proc *first)
{
	return !p || n < 2 ? v : v / n + (p == first ? v % n : 0);
}

/* A row's driver, client and region (text). */
static void drm_names(const struct drmuse *d)
{
	put_text(d->driver, 10, 1);
	outf(" %6llu ", (unsigned long long)d->client);
	put_text(d->region[0] ? d->region : "(none)", 12, 1);
}

/* A row's three figures, p's share of them (NULL: the client's own); CSV's
 * kind, id, driver and region first, pids last. */
static void drm_figs(const struct opts *o, const char *kind, const struct drmuse *d, uint32_t n,
		     const struct proc *p, const struct proc *first, const char *pids)
{
	if (o->csv) {
		outf("%s,%llu,", kind, (unsigned long long)d->client);
		csv_field(d->driver, strlen(d->driver));
		outs(",");
		csv_field(d->region, strlen(d->region));
		outs(",");
	}
	drm_fig(o, d, DRM_TOTAL, drm_share(d->total, n, p, first));
	if (o->csv)
		outs(",");
	drm_fig(o, d, DRM_RESIDENT, drm_share(d->resident, n, p, first));
	if (o->csv)
		outs(",");
	drm_fig(o, d, DRM_SHARED, drm_share(d->shared, n, p, first));
	if (o->csv)
		outf(",%s\n", pids);
}

/*
 * The DRM clients the processes shown hold: each client's own figures
 * once, a row a region, with its holders (a client's fds in several
 * processes, inherited or sent, are one client); then each process's share
 * of them, its client's figures over the client's holders, so that what
 * the processes' rows add up to counts each client once.
 */
static void drm_rows(const struct scan *s, const struct opts *o)
{
	static char who[HOLDERS_TEXT];
	const struct proc *p, *first;
	const struct drmuse *d;
	uint64_t sum[3] = { 0, 0, 0 };
	int head = 0, shown, w = fig_width(o) - 1;
	uint32_t n, clients = 0;
	char buf[3][32];

	for (p = s->first; p; p = p->next)
		for (d = p->dma ? p->dma->drm : NULL; d; d = d->next) {
			n = drm_holders(s, d, &first, &shown, who, o->csv ? sizeof(who) :
					path_room(37 + 3 * (size_t)w + 3) + 1);
			if (first != p || !shown)
				continue;
			clients++;
			sum[0] += d->total;
			sum[1] += d->resident;
			sum[2] += d->shared;
			if (o->csv) {
				drm_figs(o, "drm", d, 0, NULL, NULL, who);
				continue;
			}
			if (!head++ && !o->noheader)
				outf("\n%-10s %6s %-12s %*s %*s %*s %5s %s\n", "DRIVER", "CLIENT",
				     "REGION", w, "TOTAL", w, "RESID", w, "SHARED", "NPROC", "HOLDERS");
			drm_names(d);
			drm_figs(o, NULL, d, 0, NULL, NULL, NULL);
			outf(" %5u %s\n", n, who);
		}
	if (clients && !o->csv && !o->noheader) {
		fmt_size(o, buf[0], sizeof(buf[0]), sum[0]);
		fmt_size(o, buf[1], sizeof(buf[1]), sum[1]);
		fmt_size(o, buf[2], sizeof(buf[2]), sum[2]);
		outf("%-30s %*s %*s %*s  (each client once)\n", "DRM clients", w, buf[0], w, buf[1],
		     w, buf[2]);
	}
	head = 0;
	for (p = s->first; p; p = p->next)
		for (d = p->shown && p->dma ? p->dma->drm : NULL; d; d = d->next) {
			char pid[16];

			n = drm_holders(s, d, &first, &shown, NULL, 0);
			if (o->csv) {
				fmt_snprintf(pid, sizeof(pid), "%d", (int)p->pid);
				drm_figs(o, "drm-share", d, n, p, first, pid);
				continue;
			}
			if (!head++ && !o->noheader)
				outf("\neach process's share: its clients' figures over their "
				     "holders\n%7s %-16s %-10s %6s %-12s %*s %*s %*s\n", "PID", "NAME",
				     "DRIVER", "CLIENT", "REGION", w, "TOTAL", w, "RESID", w, "SHARED");
			outf("%7d ", (int)p->pid);
			put_text(p->name, 16, 1);
			outs(" ");
			drm_names(d);
			drm_figs(o, NULL, d, n, p, first, NULL);
			outs("\n");
		}
}

/* A summary line: what, how many buffers, their bytes, where from. */
static void sum_line(const struct opts *o, const char *what, uint32_t n, uint64_t bytes,
		     const char *from)
{
	char size[32];

	fmt_size(o, size, sizeof(size), bytes);
	outf("%-20s %6u buffer%s %8s  %s\n", what, n, n == 1 ? " " : "s", size, from);
}

static void summary(const struct scan *s, const struct opts *o)
{
	const struct dmatab *t = s->dma;
	uint64_t held = 0, none = 0;
	uint32_t nheld = 0, nnone = 0, i;

	for (i = 0; i < t->n; i++) {
		const struct dmabuf *b = t->sorted[i];

		if (b->flags & DB_GONE)
			continue;
		*(b->nholder ? &held : &none) += b->size;
		*(b->nholder ? &nheld : &nnone) += 1;
	}
	outs("\n");
	sum_line(o, "held by processes", nheld, held, t->walk ? "their fds and mappings" :
		 "their mappings (fds not read)");
	if (t->list) {
		sum_line(o, "held by none", nnone, none, t->list);
		sum_line(o, "the kernel's total", t->list_count, t->list_bytes, t->list);
	} else {
		outs("held by none         unknown: the kernel lists no buffers here\n"
		     "                     (debugfs's dma_buf/bufinfo, as root)\n");
	}
	outf("fds %s: %s\n", t->walk ? "read" : "not read", t->why);
	if (s->unreadable && t->list)
		outf("held by none holds those of the %u process%s that could not be read\n",
		     s->unreadable, s->unreadable == 1 ? "" : "es");
}

void view_dmabuf(struct scan *s, const struct opts *o)
{
	const struct dmatab *t = s->dma;
	const struct dmabuf **rows;
	size_t n = 0, i;

	if (!t)
		die("dmabuf: %s", s->cap ? "the capture holds no dma-bufs (taken before they were "
		    "read, or by a build without them)" : "not read");
	rows = (const struct dmabuf **)rows_alloc(s->arena, t->n);
	for (i = 0; i < t->n; i++) {
		const struct dmabuf *b = t->sorted[i];

		if (!(b->flags & DB_GONE) && (o->nrpid ? held_by_shown(s, b) : 1))
			rows[n++] = b;
	}
	sort(rows, n, sizeof(*rows), cmp_size);
	n = rows_shown(o, n);
	if (!o->noheader) {
		if (o->csv)
			outs("kind,id,exporter,name,size,resident,shared,holders\n");
		else
			outf("%10s %-12s %-16s %*s %5s %s\n", "INODE", "EXPORTER", "NAME",
			     fig_width(o) - 1, "SIZE", "NPROC", "HOLDERS");
	}
	for (i = 0; i < n; i++)
		buffer_row(s, o, rows[i]);
	if (!n && !o->csv && !o->noheader)
		outs(o->nrpid ? "(no dma-buf: the processes shown hold none)\n" :
		     "(no dma-buf held or listed)\n");
	if (!o->csv && !o->noheader)
		summary(s, o);
	drm_rows(s, o);
	dmabuf_notes(s, o);
}

/* One note: a line of the report (text), else on stderr. */
static void say(const struct opts *o, const char *line)
{
	if (o->csv || o->noheader)
		warnx("%s", line);
	else
		outf("%s\n", line);
}

/* What went wrong or is not whole: a process's fds, a closed fd, a buffer
 * gone, a size known only from mappings. One line each. */
void dmabuf_notes(const struct scan *s, const struct opts *o)
{
	const struct dmatab *t = s->dma;
	char line[200], size[32];
	uint32_t i;

	if (!t)
		return;
	if (t->lost)
		say(o, "dma-buf: the capture's chunk 2, which sized its buffers, was lost: the "
		    "holders' figures are not known");
	for (i = 0; i < t->nnote; i++) {
		const struct dmanote *x = &t->note[i];

		if (x->fd < 0)
			fmt_snprintf(line, sizeof(line), "dma-buf: pid %d: its fds cannot be read (%s): "
				     "its dma-bufs and DRM memory are not known", (int)x->pid, x->why);
		else
			fmt_snprintf(line, sizeof(line), "dma-buf: pid %d: fd %d closed while it was "
				     "read: left out", (int)x->pid, x->fd);
		say(o, line);
	}
	if (t->note_lost) {
		fmt_snprintf(line, sizeof(line), "dma-buf: and %u more such (%d are said)",
			     t->note_lost, DMA_NOTE_MAX);
		say(o, line);
	}
	for (i = 0; i < t->n; i++) {
		const struct dmabuf *b = t->sorted[i];

		fmt_size(o, size, sizeof(size), b->size);
		if (b->flags & DB_GONE)
			fmt_snprintf(line, sizeof(line), "dma-buf: inode %llu (%s, %s) went while the "
				     "scan ran (%s no longer lists it): left out", (unsigned long long)b->ino,
				     size, b->exp[0] ? b->exp : "exporter unknown", t->list);
		else if (!(b->flags & DB_SIZED))
			fmt_snprintf(line, sizeof(line), "dma-buf: inode %llu: mapped, with no fd and no "
				     "list to size it: at least %s (its mappings)",
				     (unsigned long long)b->ino, size);
		else
			continue;
		say(o, line);
	}
}

/* Bytes by exporter, the largest first: at most EXP_ROWS named, the rest "other". */
#define EXP_ROWS	8
struct by_exp {
	const char *exp[EXP_ROWS + 1];
	uint64_t bytes[EXP_ROWS + 1];
	uint32_t n;
};

static void exp_add(struct by_exp *x, const char *exp, uint64_t bytes)
{
	uint32_t i;

	for (i = 0; i < x->n && strcmp(x->exp[i], exp) != 0; i++)
		;
	if (i == x->n) {
		if (x->n == EXP_ROWS)
			i = EXP_ROWS, exp = "other";
		else
			x->n++;
		x->exp[i] = exp;
	}
	x->bytes[i] += bytes;
}

/*
 * The ram view's dma-buf lines, through fn. parts: the part of MemTotal
 * that DMA-BUF heaps' buffers hold (pages no meminfo counter has: it comes
 * out of unexplained), by heap; else, after swap, every dma-buf: held by
 * processes, by none (where the kernel lists them), by exporter. The
 * buffers the kernel lists, else those held (what none holds is unknown).
 */
void dmabuf_ram(const struct scan *s, int parts, void (*fn)(int depth, int is_part,
		const char *label, const char *name, int64_t bytes, const char *source))
{
	static struct by_exp x;
	const struct dmatab *t = s->dma;
	const char *src = t && t->list ? t->list : "scan";
	uint64_t all = 0, held = 0;
	uint32_t i;

	if (!t || (!t->n && (parts || !t->list)))
		return;
	memset(&x, 0, sizeof(x));
	for (i = 0; i < t->n; i++) {
		const struct dmabuf *b = t->sorted[i];

		if ((b->flags & DB_GONE) || (parts && !(b->flags & DB_HEAP)))
			continue;
		all += b->size;
		held += b->nholder ? b->size : 0;
		exp_add(&x, b->exp[0] ? b->exp : "?", b->size);
	}
	if (parts && !all)
		return;
	fn(parts ? 2 : 0, parts, parts ? "dma-buf heaps" : "dma-buf", NULL, (int64_t)all, src);
	if (!parts) {
		fn(1, 0, "held by processes", NULL, (int64_t)held, "scan");
		if (t->list)
			fn(1, 0, "held by none", NULL, (int64_t)(all - held), t->list);
	}
	for (i = 0; i <= EXP_ROWS; i++)
		if (x.bytes[i])
			fn(parts ? 3 : 1, parts, parts ? "heap" : "exporter", x.exp[i],
			   (int64_t)x.bytes[i], src);
}
