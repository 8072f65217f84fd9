/* The cgroups view: each cgroup's fair share of what its processes map, beside the kernel's charge. */
/*
 * A row per cgroup that holds scanned processes: what the cgroup's path
 * names (a systemd unit, a container), its processes, their eff_resident,
 * sole and swap (shares of every page among all its mappers), then what
 * the kernel charges the cgroup: a page is charged whole to the cgroup
 * that touched it first, however many map it. A totals line; notes say
 * where the charges came from and which are not known, and why.
 */
#include <stdarg.h>
#include <string.h>

#include "capture.h"
#include "cgroup.h"

#define NAME_MIN	12	/* the name column gives way to wider figures down to this */

enum { C_PROCS, C_EFF, C_SOLE, C_SWAP, C_CHARGED, C_ANON, C_FILE, C_SHMEM, NCOL };
static const char *const heads[NCOL] = {
	"PROCS", "EFRES", "SOLE", "SWAP", "CHRGD", "ANON", "FILE", "SHMEM",
};
static const int csv_fields[NCOL] = {
	F_PROCESSES, F_EFF_RESIDENT, F_SOLE, F_SWAP, F_CHARGED, F_CHARGED_ANON, F_CHARGED_FILE,
	F_CHARGED_SHMEM,
};

/* A row's value in column k; -1 when not known (a charge). */
static int64_t value(const struct cgroup *r, int k)
{
	if (k >= C_CHARGED) {
		k -= C_CHARGED;
		return r->charge.known & 1u << k ? (int64_t)r->charge.v[k] : -1;
	}
	switch (k) {
	case C_PROCS: return r->rnproc;
	case C_EFF: return (int64_t)eff_bytes(&r->rfig.eff_resident);
	case C_SOLE: return (int64_t)r->rfig.sole;
	default: return (int64_t)r->rfig.swap;
	}
}

static int sort_col;

static int cmp_rows(const void *pa, const void *pb)
{
	const struct cgroup *a = *(const struct cgroup *const *)pa;
	const struct cgroup *b = *(const struct cgroup *const *)pb;
	int64_t x, y;

	if (sort_col >= 0) {
		x = value(a, sort_col);
		y = value(b, sort_col);
		if (x != y)
			return x < y ? 1 : -1;	/* largest first; not known last */
	}
	return strcmp(a->path, b->path);
}

/* The column -s names (-1: the path's order). */
static int sort_column(int field)
{
	int k;

	for (k = 0; k < NCOL; k++)
		if (csv_fields[k] == field)
			return k;
	return -1;
}

static int colw[NCOL];

static void cell(const struct opts *o, int k, int64_t v)
{
	char buf[32];

	if (o->csv) {
		if (v >= 0)
			out_dec(',', (uint64_t)v);
		else
			outs(",");
		return;
	}
	if (v < 0)
		strcpy(buf, "-");
	else if (k == C_PROCS)
		fmt_snprintf(buf, sizeof(buf), "%llu", (unsigned long long)v);
	else
		fmt_size(o, buf, sizeof(buf), (uint64_t)v);
	outf(" %*s", colw[k] - 1, buf);
}

/* Each column as wide as its widest value, a space before it. */
static void fit(const struct opts *o, const int64_t *v)
{
	char buf[32];
	int k, w;

	for (k = 0; k < NCOL; k++) {
		if (v[k] < 0)
			w = 2;
		else if (k == C_PROCS)
			w = fmt_snprintf(buf, sizeof(buf), " %llu", (unsigned long long)v[k]);
		else {
			fmt_size(o, buf, sizeof(buf), (uint64_t)v[k]);
			w = (int)strlen(buf) + 1;
		}
		if (w < fig_width(o))
			w = fig_width(o);
		if (w > colw[k])
			colw[k] = w;
	}
}

static void row_values(const struct cgroup *r, int64_t *v)
{
	int k;

	for (k = 0; k < NCOL; k++)
		v[k] = value(r, k);
}

/* Why a charge is not known, for the notes. */
static const char *const state_why[CG_NSTATE] = {
	[CG_ROOT] = "v2's root cgroup has no memory.current",
	[CG_NOMEM] = "no memory controller there",
	[CG_GONE] = "removed during the scan",
	[CG_OUTSIDE] = "outside the cgroup mount",
	[CG_NOMOUNT] = "no cgroup file system is mounted",
	[CG_UNREADABLE] = "its files could not be read",
};

/* A note, cut to the text's width. */
static void note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void note(const char *fmt, ...)
{
	char line[TEXT_COLS_MAX + 8];
	size_t cols = text_cols();
	va_list ap;

	va_start(ap, fmt);
	if ((size_t)fmt_vsnprintf(line, sizeof(line), fmt, ap) > cols)
		strcpy(line + cols - 3, "...");
	va_end(ap);
	outs(line);
	outs("\n");
}

static void notes(const struct scan *s, struct cgroup **rows, uint32_t n)
{
	static const char *const hier_text[] = { "", "v1's memory controller", "v2" };
	uint32_t count[CG_NSTATE] = { 0 }, nested = 0, i;
	const char *first[CG_NSTATE] = { 0 }, *dir;
	int hier = -1, st;

	for (i = 0; i < n; i++) {
		st = rows[i]->charge.state;
		if (!count[st]++)
			first[st] = rows[i]->path;
		if (st == CG_OK)
			hier = rows[i]->charge.hier;
		nested += rows[i]->nested;
	}
	if (hier > 0 && s->cap)
		note("charge: the kernel's, cgroup %s, when the capture was taken", hier_text[hier]);
	else if (hier > 0 && cg_hierarchy(&dir) == hier)
		note("charge: the kernel's, cgroup %s at %s", hier_text[hier], dir);
	for (st = CG_OK + 1; st < CG_NSTATE; st++)
		if (count[st] == 1)
			note("charge: not known, %s: %s", state_why[st], first[st]);
		else if (count[st])
			note("charge: not known for %u cgroups, %s: %s, ...", count[st],
			     state_why[st], first[st]);
	if (nested)
		note("charge: %u cgroup%s below another row: the total counts %s charge once",
		     nested, nested == 1 ? "" : "s", nested == 1 ? "its" : "their");
	note("charge: a page is charged whole to the cgroup that first touched it");
	if (s->vanished)
		note("vanished: %u process%s exited before or while being read", s->vanished,
		     s->vanished == 1 ? "" : "es");
}

void view_cgroups(struct scan *s, const struct opts *o)
{
	uint32_t n, i, k, nr = 0, without = 0;
	struct cgroup *rows = cgroups_build(s, &n), **r = (struct cgroup **)rows_alloc(s->arena, n);
	struct cgroup total = { .path = "" };
	int64_t v[NCOL];
	size_t w, shown, used;
	char name[TEXT_COLS_MAX + 1];

	if (!s->cap && cg_hierarchy(NULL) < 0)
		die("cgroups: this kernel has none (no /proc/self/cgroup: built without "
		    "CONFIG_CGROUPS)");
	for (i = 0; i < n; i++) {
		memset(&rows[i].rfig, 0, sizeof(rows[i].rfig));
		rows[i].rnproc = 0;
	}
	for (i = 0; i < s->nproc; i++) {
		const struct proc *p = s->procs[i];

		if (!p->cg)
			without++;
		else if (p->shown) {
			rows[p->cg->row].rnproc++;
			fig_add(&rows[p->cg->row].rfig, &p->rfig);
		}
	}
	if (s->nproc && without == s->nproc)
		die("cgroups: %s holds no process's cgroup (a capture made before captures "
		    "carried them)", s->cap ? s->cap->file : "the scan");
	for (i = 0; i < n; i++) {
		if (!rows[i].rnproc)
			continue;
		r[nr++] = &rows[i];
		total.rnproc += rows[i].rnproc;
		fig_add(&total.rfig, &rows[i].rfig);
		for (k = 0; k < CH_N && !rows[i].nested; k++)
			total.charge.v[k] += rows[i].charge.v[k];
	}
	total.charge.known = (1u << CH_N) - 1;
	for (i = 0; i < nr; i++)	/* a total knows a figure when every row counted does */
		if (!r[i]->nested)
			total.charge.known &= r[i]->charge.known;
	sort_col = o->sort < 0 ? C_EFF : sort_column(o->sort);
	sort(r, nr, sizeof(*r), cmp_rows);
	shown = rows_shown(o, nr);
	memset(colw, 0, sizeof(colw));
	for (i = 0; i < shown; i++) {
		row_values(r[i], v);
		fit(o, v);
	}
	row_values(&total, v);
	if (!o->noheader)
		fit(o, v);
	for (w = 0, k = 0; k < NCOL; k++)
		w += (size_t)colw[k];
	w = w + NAME_MIN < text_cols() ? text_cols() - w : NAME_MIN;
	if (!o->noheader) {
		if (o->csv)
			outs("cgroup");
		else
			outf("%-*s", (int)w, "CGROUP");
		for (k = 0; k < NCOL; k++)
			if (o->csv)
				outf(",%s", field_names[csv_fields[k]]);
			else
				outf(" %*s", colw[k] - 1, heads[k]);
		outs(o->csv ? ",unit\n" : "\n");
	}
	for (i = 0; i < shown; i++) {
		used = cg_name(r[i]->path, name, sizeof(name));
		if (o->csv)
			csv_field(r[i]->path, strlen(r[i]->path));
		else
			put_text(name, w, 1);
		row_values(r[i], v);
		for (k = 0; k < NCOL; k++)
			cell(o, (int)k, v[k]);
		if (o->csv) {
			outs(",");
			csv_field(name, used);
		}
		outs("\n");
	}
	if (o->csv || o->noheader)
		return;
	fmt_snprintf(name, sizeof(name), "%u cgroup%s", nr, nr == 1 ? "" : "s");
	put_text(name, w, 1);
	row_values(&total, v);
	for (k = 0; k < NCOL; k++)
		cell(o, (int)k, v[k]);
	outs("\n");
	notes(s, r, nr);
}
