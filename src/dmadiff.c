/* diff: how the dma-bufs changed from one capture to another. */
/*
 * Each process key (name and command line, as diff matches processes) with
 * its eff_dmabuf in capture a and in b, where it changed (all with -a), the
 * largest change first; then the buffers held, held by none and the
 * kernel's total. A capture taken before dma-bufs were read holds none: not
 * compared, said.
 */
#include <string.h>

#include "capture.h"
#include "dmabuf.h"

struct drow {
	const struct proc *p;	/* the key: its name and command line */
	int64_t v[2];		/* eff_dmabuf in a and b */
};

static int same_key(const struct proc *x, const struct proc *y)
{
	return strcmp(x->name, y->name) == 0 && x->cmdlen == y->cmdlen &&
	       (x->cmdlen == 0 || memcmp(x->cmdline, y->cmdline, x->cmdlen) == 0);
}

static int64_t change(const struct drow *r)
{
	return r->v[1] - r->v[0];
}

static int by_change(const void *a, const void *b)
{
	int64_t x = change(a), y = change(b);

	x = x < 0 ? -x : x;
	y = y < 0 ? -y : y;
	if (x != y)
		return (x < y) - (x > y);
	return strcmp(((const struct drow *)a)->p->name, ((const struct drow *)b)->p->name);
}

/* held by processes, held by none (-1: unknown), the kernel's total (-1 unknown) */
static void sums(const struct scan *s, int64_t *v)
{
	const struct dmatab *t = s->dma;
	uint32_t i;

	v[0] = v[1] = 0;
	for (i = 0; i < t->n; i++)
		if (!(t->sorted[i]->flags & DB_GONE))
			v[t->sorted[i]->nholder ? 0 : 1] += (int64_t)t->sorted[i]->size;
	if (!t->list)
		v[1] = -1;
	v[2] = t->list ? (int64_t)t->list_bytes : -1;
}

static void put_line(const struct opts *o, const char *what, const struct proc *p,
		     int64_t a, int64_t b)
{
	char x[32], y[32], d[32], cmd[64];
	uint32_t i, n;

	if (o->csv) {
		outs("dmabuf,");
		csv_field(what, strlen(what));
		outs(",");
		if (p && p->cmdlen) {
			for (i = 0, n = p->cmdlen < sizeof(cmd) - 1 ? p->cmdlen : sizeof(cmd) - 1; i < n; i++)
				cmd[i] = p->cmdline[i] ? p->cmdline[i] : ' ';
			csv_field(cmd, n);
		}
		outf(",%lld,%lld\n", (long long)a, (long long)b);
		return;
	}
	if (a < 0 || b < 0) {
		strcpy(x, a < 0 ? "?" : "");
		strcpy(y, b < 0 ? "?" : "");
	}
	if (a >= 0)
		fmt_size(o, x, sizeof(x), (uint64_t)a);
	if (b >= 0)
		fmt_size(o, y, sizeof(y), (uint64_t)b);
	if (a < 0 || b < 0)
		strcpy(d, "?");
	else
		fmt_snprintf(d, sizeof(d), "%s", b >= a ? "+" : "-"),
		fmt_size(o, d + 1, sizeof(d) - 1, (uint64_t)(b >= a ? b - a : a - b));
	if (a >= 0 && b == a)
		strcpy(d, "0");
	put_text(what, 40, 1);
	outf(" %11s %11s %11s\n", x, y, d);
}

void diff_dmabuf(const struct scan *a, const struct scan *b, const struct opts *o,
		 struct arena *ar)
{
	const struct scan *side[2] = { a, b };
	struct drow *rows;
	const struct proc *p;
	uint32_t n = 0, i, k, same = 0;
	int64_t va[3], vb[3];

	if (!a->dma || !b->dma) {
		if (!o->csv && (a->dma || b->dma))
			outs("\ndma-buf: not compared: a capture was taken before dma-bufs were read\n");
		return;
	}
	if (!a->dma->n && !b->dma->n && !a->dma->walk && !b->dma->walk)
		return;	/* none could exist on either */
	rows = arena_alloc(ar, ((size_t)a->nproc + b->nproc + 1) * sizeof(*rows), 8);
	for (k = 0; k < 2; k++)
		for (p = side[k]->first; p; p = p->next) {
			for (i = 0; i < n && !same_key(rows[i].p, p); i++)
				;
			if (i == n)
				rows[n++] = (struct drow){ p, { 0, 0 } };
			rows[i].v[k] += p->dma ? (int64_t)eff_bytes(&p->dma->share) : 0;
		}
	sort(rows, n, sizeof(*rows), by_change);
	if (!o->csv)
		outf("\n%-40s %11s %11s %11s\n", "DMA-BUF (eff_dmabuf)", "A", "B", "CHANGE");
	for (i = 0, k = 0; i < n; i++) {
		if (!change(&rows[i]) && !(o->all && (rows[i].v[0] || rows[i].v[1]))) {
			same += rows[i].v[0] != 0;
			continue;
		}
		if (o->top && k++ >= o->top)
			break;
		put_line(o, rows[i].p->name, rows[i].p, rows[i].v[0], rows[i].v[1]);
	}
	sums(a, va);
	sums(b, vb);
	put_line(o, "held by processes", NULL, va[0], vb[0]);
	put_line(o, "held by none", NULL, va[1], vb[1]);
	put_line(o, "the kernel's total", NULL, va[2], vb[2]);
	if (same && !o->csv)
		outf("(%u holders' shares did not change; -a shows them)\n", same);
}
