/* diff's cgroups: how each cgroup's share and charge changed from capture a to capture b. */
/*
 * The cgroups of two captures matched by path: a row each that changed
 * (every one with -a), as the cgroups view names it, its process count and
 * the changes of its processes' eff_resident, sole and swap and of its
 * charge (? where a side does not know it). diff.c calls it after the
 * processes and files.
 */
#include <string.h>

#include "capture.h"
#include "cgroup.h"

enum { C_PROCS, C_EFF, C_SOLE, C_SWAP, C_CHARGED, C_ANON, C_FILE, C_SHMEM, NCOL };
static const char *const heads[NCOL] = {
	"PROCS", "EFRES", "SOLE", "SWAP", "CHRGD", "ANON", "FILE", "SHMEM",
};
static const int fields[C_CHARGED] = { F_PROCESSES, F_EFF_RESIDENT, F_SOLE, F_SWAP };

struct cgdiff {
	const char *path;
	uint32_t n[2];
	struct fig fig[2];
	struct cgcharge charge[2];
};

static int64_t cg_delta(const struct cgdiff *d, int k)
{
	if (k >= C_CHARGED) {
		k -= C_CHARGED;
		if (!(d->charge[0].known & d->charge[1].known & 1u << k))
			return INT64_MIN;	/* not known on a side */
		return (int64_t)(d->charge[1].v[k] - d->charge[0].v[k]);
	}
	if (k == C_PROCS)
		return (int64_t)d->n[1] - d->n[0];
	return (int64_t)(fig_get(&d->fig[1], fields[k]) - fig_get(&d->fig[0], fields[k]));
}

static int diff_field;

static int cmp_diffs(const void *pa, const void *pb)
{
	const struct cgdiff *a = *(const struct cgdiff *const *)pa;
	const struct cgdiff *b = *(const struct cgdiff *const *)pb;
	int f = diff_field < 0 ? F_EFF_RESIDENT : diff_field;
	int64_t x = (int64_t)(fig_get(&a->fig[1], f) - fig_get(&a->fig[0], f));
	int64_t y = (int64_t)(fig_get(&b->fig[1], f) - fig_get(&b->fig[0], f));
	uint64_t ax = x < 0 ? -(uint64_t)x : (uint64_t)x, ay = y < 0 ? -(uint64_t)y : (uint64_t)y;

	if (diff_field >= 0 && ax != ay)
		return ax < ay ? 1 : -1;	/* largest change first */
	return strcmp(a->path, b->path);
}

/* A change as text in a column of width w: +4.0K, -12M, 0; ? where a
 * side's charge is not known. */
static void delta_cell(const struct opts *o, int k, int64_t d, int w)
{
	char num[32], cell[40];
	uint64_t m = d < 0 ? -(uint64_t)d : (uint64_t)d;

	if (k == C_PROCS)
		fmt_snprintf(num, sizeof(num), "%llu", (unsigned long long)m);
	else
		fmt_size(o, num, sizeof(num), m);
	fmt_snprintf(cell, sizeof(cell), "%s%s", d > 0 ? "+" : d < 0 ? "-" : "", num);
	outf(" %*s", w, d == INT64_MIN ? "?" : cell);
}

static int diff_changed(const struct cgdiff *d)
{
	int k;

	for (k = 0; k < NCOL; k++)
		if (cg_delta(d, k) != 0 && cg_delta(d, k) != INT64_MIN)
			return 1;
	for (k = 0; k < NFIGS; k++)
		if (fig_get(&d->fig[0], k) != fig_get(&d->fig[1], k))
			return 1;
	return d->charge[0].known != d->charge[1].known;
}

/*
 * Text: a row per cgroup that changed (all with -a), as the cgroups view
 * names it. CSV: "cgroup,PATH,,N_A,N_B" and the eight figures' changes, as
 * diff's processes and files; then "charge,PATH:FIGURE,,A,B", A's and B's
 * bytes (empty where not known), as its ram lines.
 */
void diff_cgroups(struct scan *s, const struct opts *o, struct arena *a)
{
	static const char *const chname[CH_N] = { "charged", "charged_anon", "charged_file",
						  "charged_shmem" };
	uint32_t nr[2], i, k, n = 0, shown = 0, hidden;
	struct cgroup *rows[2];
	struct cgdiff *d, **v;
	char name[TEXT_COLS_MAX + 1];
	int side, w = 5;

	for (side = 0; side < 2; side++)
		rows[side] = cgroups_build(&s[side], &nr[side]);
	if (!nr[0] || !nr[1]) {
		if (!o->csv)
			outs("\ncgroups: not compared: a capture holds none (made before captures "
			     "carried them)\n");
		return;
	}
	d = arena_alloc(a, ((size_t)nr[0] + nr[1]) * sizeof(*d), 8);
	v = arena_alloc(a, ((size_t)nr[0] + nr[1]) * sizeof(*v), 8);
	for (side = 0; side < 2; side++)
		for (i = 0; i < nr[side]; i++) {
			const struct cgroup *r = &rows[side][i];

			for (k = 0; k < n && strcmp(d[k].path, r->path) != 0; k++)
				;
			if (k == n)
				memset(&d[n++], 0, sizeof(*d));
			d[k].path = r->path;
			d[k].n[side] = r->nproc;
			d[k].fig[side] = r->fig;
			d[k].charge[side] = r->charge;
		}
	for (i = 0; i < n; i++)
		if (o->all || diff_changed(&d[i]))
			v[shown++] = &d[i];
	hidden = n - shown;
	diff_field = o->sort < 0 ? F_EFF_RESIDENT : o->sort < NFIGS ? o->sort : -1;
	sort(v, shown, sizeof(*v), cmp_diffs);
	if (o->top && o->top < shown)
		shown = (uint32_t)o->top;
	for (i = 0; i < shown; i++)
		for (k = 1; k < NCOL; k++) {
			int64_t x = cg_delta(v[i], (int)k);
			uint64_t m = x < 0 ? -(uint64_t)x : (uint64_t)x;

			fmt_size(o, name, sizeof(name), m);
			if ((int)strlen(name) + 1 > w)
				w = (int)strlen(name) + 1;
		}
	if (!o->csv && !o->noheader) {
		outs("\ncgroups: change from a to b\n  COUNT");
		for (k = 1; k < NCOL; k++)
			outf(" %*s", w, heads[k]);
		outs(" CGROUP\n");
	}
	for (i = 0; i < shown; i++) {
		const struct cgdiff *x = v[i];

		if (o->csv) {
			outs("cgroup,");
			csv_field(x->path, strlen(x->path));
			outf(",,%u,%u", x->n[0], x->n[1]);
			for (k = 0; k < NFIGS; k++)
				outf(",%lld", (long long)(fig_get(&x->fig[1], k) - fig_get(&x->fig[0], k)));
			outs("\n");
			continue;
		}
		outf(" %3u>%-2u", x->n[0], x->n[1]);
		for (k = 1; k < NCOL; k++)
			delta_cell(o, (int)k, cg_delta(x, (int)k), w);
		outs(" ");
		cg_name(x->path, name, sizeof(name));
		put_text(name, path_room(7 + (NCOL - 1) * (size_t)(w + 1) + 1), 0);
		outs("\n");
	}
	for (i = 0; o->csv && i < shown; i++)
		for (k = 0; k < CH_N; k++) {
			const struct cgdiff *x = v[i];
			char key[PATH_BUF + 32];

			if (!o->all && x->charge[0].v[k] == x->charge[1].v[k] &&
			    !((x->charge[0].known ^ x->charge[1].known) & 1u << k))
				continue;
			fmt_snprintf(key, sizeof(key), "%s:%s", x->path, chname[k]);
			outs("charge,");
			csv_field(key, strlen(key));
			outs(",,");
			if (x->charge[0].known & 1u << k)
				out_dec(0, x->charge[0].v[k]);
			outs(",");
			if (x->charge[1].known & 1u << k)
				out_dec(0, x->charge[1].v[k]);
			outs("\n");
		}
	if (hidden && !o->csv && !o->noheader)
		outf("  (%u unchanged cgroup%s not shown: -a shows them)\n", hidden,
		     hidden == 1 ? "" : "s");
}
