/* The html view: one self-contained page of a scan or a capture. */
/*
 * The page (src/report.html) draws what the data holds: the header (where,
 * when, with which source; what could not be read), the processes and files
 * with their eight figures, the tree of each process's part of each file
 * down to sections and symbols (tree.c), and the ram view's lines. A
 * section's HTML_SYMBOLS largest symbols are kept, and the rest are one node,
 * "[N other symbols]" (-a keeps every one), so that the page of a large
 * system stays small and still adds up.
 */
#include <string.h>

#include "dmabuf.h"
#include "cgroup.h"
#include "page.h"
#include "tree.h"

/* The largest symbols of a section kept whole; the rest, one node (not with -a). */
#define HTML_SYMBOLS	30

struct sym {
	const char *name;
	struct fig fig;
};

struct html {
	const uint32_t *fidx;	/* a file's row in D.files, by file index */
	int all;		/* -a: every symbol */
	uint64_t rows;
	struct sym top[HTML_SYMBOLS];	/* a min-heap by eff_resident */
	uint32_t ntop;
	struct sym nosym;	/* the section's [no symbol], when it has one */
	int have_nosym;
	struct fig rest;	/* the symbols not kept */
	uint32_t nrest;
};

static void row_start(struct html *h, int level)
{
	outf("%s[%d,", h->rows++ ? ",\n" : "", level);
}

static void put_row(struct html *h, int level, const char *name, const struct fig *f)
{
	row_start(h, level);
	js_cstr(name);
	outs(",");
	js_figs(f);
	outs("]");
}

static uint64_t eff(const struct sym *y)
{
	return y->fig.eff_resident.whole;
}

static int less_sym(const struct sym *a, const struct sym *b)
{
	return eff(a) != eff(b) ? eff(a) < eff(b) : a->fig.mapped < b->fig.mapped;
}

static void sift_down(struct html *h, uint32_t i)
{
	for (;;) {
		uint32_t l = 2 * i + 1, m = i;
		struct sym t;

		if (l < h->ntop && less_sym(&h->top[l], &h->top[m]))
			m = l;
		if (l + 1 < h->ntop && less_sym(&h->top[l + 1], &h->top[m]))
			m = l + 1;
		if (m == i)
			return;
		t = h->top[i];
		h->top[i] = h->top[m];
		h->top[m] = t;
		i = m;
	}
}

/* A symbol kept if among the section's largest, else added to the rest. */
static void keep(struct html *h, const char *name, const struct fig *f)
{
	struct sym y = { name, *f };
	uint32_t i;

	if (h->ntop < HTML_SYMBOLS) {
		h->top[h->ntop++] = y;
		for (i = h->ntop / 2; i-- > 0;)
			sift_down(h, i);
		return;
	}
	if (!less_sym(&h->top[0], &y)) {
		fig_add(&h->rest, f);
		h->nrest++;
		return;
	}
	fig_add(&h->rest, &h->top[0].fig);
	h->nrest++;
	h->top[0] = y;
	sift_down(h, 0);
}

/* The section's symbols that were kept, [no symbol], and the rest as one node. */
static void flush_symbols(struct html *h)
{
	char name[48];
	uint32_t i;

	for (i = 0; i < h->ntop; i++)
		put_row(h, TL_SYMBOL, h->top[i].name, &h->top[i].fig);
	if (h->have_nosym)
		put_row(h, TL_SYMBOL, h->nosym.name, &h->nosym.fig);
	if (h->nrest) {
		fmt_snprintf(name, sizeof(name), "[%u other symbol%s]", h->nrest,
			     h->nrest == 1 ? "" : "s");
		put_row(h, TL_SYMBOL, name, &h->rest);
	}
	h->ntop = h->nrest = 0;
	h->have_nosym = 0;
	memset(&h->rest, 0, sizeof(h->rest));
}

static void node(const struct tree_node *n, void *arg)
{
	struct html *h = arg;

	if (n->level == TL_SYMBOL) {
		if (h->all) {
			put_row(h, TL_SYMBOL, n->name, n->fig);
		} else if (strcmp(n->name, "[no symbol]") == 0) {
			h->nosym = (struct sym){ n->name, *n->fig };
			h->have_nosym = 1;
		} else {
			keep(h, n->name, n->fig);
		}
		return;
	}
	flush_symbols(h);
	if (n->level == TL_SECTION) {
		put_row(h, TL_SECTION, n->name, n->fig);
		return;
	}
	row_start(h, TL_FILE);
	out_dec(0, n->proc);
	out_dec(',', h->fidx[n->file]);
	outs(",");
	js_figs(n->fig);
	outs("]");
}

/* A command line as text: its arguments with spaces between. */
static void js_cmdline(const struct proc *p)
{
	static char buf[CMDLINE_MAX];
	uint32_t i, n = p->cmdlen < sizeof(buf) ? p->cmdlen : (uint32_t)sizeof(buf);

	for (i = 0; i < n; i++)
		buf[i] = p->cmdline[i] ? p->cmdline[i] : ' ';
	while (n && buf[n - 1] == ' ')
		n--;
	js_str(buf, p->cmdline ? n : 0);
}

/* The dma-bufs, [inode, exporter, name, size, holders, "PID:fm ..."], and each
 * holder's [pid, name, held, share]: none where the scan has none. */
static void js_dmabuf(const struct scan *s)
{
#ifndef EXMAP_NO_DMABUF
	const struct dmatab *t = s->dma;
	const struct dmahold *h;
	const struct proc *p;
	uint32_t i, k = 0;
	const char *sep;

	outs("D.dmabuf = [");
	for (i = 0; t && i < t->n; i++) {
		const struct dmabuf *b = t->sorted[i];

		if (b->flags & DB_GONE)
			continue;
		outf("%s[%llu,", k++ ? ",\n" : "", (unsigned long long)b->ino);
		js_cstr(b->exp);
		outs(",");
		js_cstr(b->name);
		outf(",%llu,%u,\"", (unsigned long long)b->size, b->nholder);
		for (sep = "", p = s->first; p; p = p->next)
			for (h = p->dma ? p->dma->hold : NULL; h; h = h->next)
				if (h->buf == b) {
					outf("%s%d:%s%s", sep, (int)p->pid, h->fds ? "f" : "",
					     h->maps ? "m" : "");
					sep = " ";
				}
		outs("\"]");
	}
	outs("];\nD.dmaprocs = [");
	for (k = 0, p = s->first; p; p = p->next)
		if (p->shown && p->dma && p->dma->hold) {
			outf("%s[%d,", k++ ? "," : "", (int)p->pid);
			js_cstr(p->name);
			outf(",%llu,%llu]", (unsigned long long)p->dma->held,
			     (unsigned long long)eff_bytes(&p->dma->share));
		}
	outs("];\n");
#else
	(void)s;
	outs("D.dmabuf = [];\nD.dmaprocs = [];\n");
#endif
}

/* [path, name, charged, anon, file, shmem] a cgroup (null: not known), in
 * the table's order; the processes name their row. */
static void js_cgroups(struct scan *s)
{
	char name[PATH_BUF];
	uint32_t n, i, k;
	struct cgroup *rows = cgroups_build(s, &n);

	for (i = 0; i < n; i++) {
		outs(i ? ",\n[" : "[");
		js_cstr(rows[i].path);
		outs(",");
		cg_name(rows[i].path, name, sizeof(name));
		js_cstr(name);
		for (k = 0; k < CH_N; k++)
			if (rows[i].charge.known & 1u << k)
				out_dec(',', rows[i].charge.v[k]);
			else
				outs(",null");
		outs("]");
	}
}

void view_html(struct scan *s, const struct totals *t, const struct opts *o,
	       const char *census_how)
{
	uint32_t nf, i, k = 0;
	struct file *files = files_build(s, &nf);
	uint32_t *fidx = arena_alloc(s->arena, (size_t)nf * 4 + 4, 4);
	static struct html h;
	struct tree_stats st;

	h.fidx = fidx;
	h.all = o->all;
	cgroups_build(s, &i);	/* each process's row, for D.procs */
	page_begin();
	outs("D.kind = \"scan\";\nD.head = ");
	js_head(s);
	outs(";\nD.figs = ");
	js_fignames();
	outf(";\nD.sort = %d;\nD.filtered = %d;\nD.total = [", o->sort < NFIGS ? o->sort : -1,
	     o->nrpid || o->rfile);
	js_figs(&t->shown);
	outs("];\nD.procs = [");
	for (i = 0; i < s->nproc; i++) {
		const struct proc *p = s->procs[i];

		/* every process, so that the tree's indexes are the scan's */
		outf("%s[%d,", i ? ",\n" : "", (int)p->pid);
		js_cstr(p->name);
		outs(",");
		js_cmdline(p);
		outf(",%d,", p->shown);
		js_figs(&p->rfig);
		outf(",%d]", p->cg ? (int)p->cg->row : -1);	/* its row in D.cgroups */
	}
	outs("];\nD.files = [");
	for (i = 0; i < nf; i++) {
		if (!files[i].rnproc)
			continue;
		fidx[i] = k;
		outs(k++ ? ",\n[" : "[");
		js_cstr(files[i].path);
		out_dec(',', files[i].rnproc);
		outs(",");
		js_figs(&files[i].rfig);
		outs("]");
	}
	outs("];\nD.cgroups = [");
	js_cgroups(s);
	outs("];\nD.tree = [");
	tree_walk(s, o, node, &h, &st);
	flush_symbols(&h);
	outf("];\nD.stats = {\"elf\":%u,\"nosyms\":%u,\"other\":%u,\"unread\":%u,\"left_out\":%u};\n",
	     st.elf, st.nosyms, st.other, st.unread, st.left_out);
	outs("D.ram = ");
	js_ram(s, census_how);
	outs(";\n");
	js_dmabuf(s);
	if (s->unreadable)
		warnx("%u process%s could not be read: figures are partial", s->unreadable,
		      s->unreadable == 1 ? "" : "es");
	page_notes_put();
	page_end();
}
