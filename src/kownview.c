/* The kernel's memory by owner as the views show it: the ram view's lines and CSV, diff, metrics. */
/*
 * Each reading is a section of the ram view: vmalloc by owner
 * (vmallocinfo), allocations by owner (allocinfo). The text shows the
 * largest owners, each with its largest callers or call sites, and what is
 * left as "and N more"; the CSV every one of them.
 */
#include <string.h>

#include "kowner.h"

#define KO_SHOW		6	/* owners a section of the text shows */
#define KO_SHOW_SITES	4	/* callers or call sites each of them shows */

static const char *const head[KO_NSRC] = { "vmalloc by owner", "allocations by owner" };
static const char *const sites_are[KO_NSRC] = { "caller", "call site" };

static const struct kowners *K;
static int S;
static uint32_t oo[KO_OWNERS], so[KO_SITES];	/* owners and sites, in order */

static int owner_cmp(const void *pa, const void *pb)
{
	const struct ko_owner *a = &K->owner[*(const uint32_t *)pa], *b = &K->owner[*(const uint32_t *)pb];

	if (a->bytes[S] != b->bytes[S])
		return a->bytes[S] > b->bytes[S] ? -1 : 1;
	return strcmp(a->name, b->name);
}

static int site_cmp(const void *pa, const void *pb)
{
	const struct ko_site *a = &K->site[*(const uint32_t *)pa], *b = &K->site[*(const uint32_t *)pb];

	if (a->bytes != b->bytes)
		return a->bytes > b->bytes ? -1 : 1;
	return strcmp(a->name, b->name);
}

/* The owners holding something of src, largest first: how many. */
static uint32_t owners_by(const struct kowners *k, int src, uint32_t *order)
{
	uint32_t i, n = 0;

	for (i = 0; i < k->nowner; i++)
		if (k->owner[i].bytes[src])
			order[n++] = i;
	K = k;
	S = src;
	sort(order, n, sizeof(*order), owner_cmp);
	return n;
}

/* Owner's sites of src, largest first: how many. */
static uint32_t sites_by(const struct kowners *k, uint32_t owner, int src, uint32_t *order)
{
	uint32_t i, n = 0;

	for (i = 0; i < k->nsite; i++)
		if (k->site[i].owner == owner && k->site[i].src == (uint32_t)src)
			order[n++] = i;
	K = k;
	sort(order, n, sizeof(*order), site_cmp);
	return n;
}

/* A call site as the text names it: "func path/file.c:12" as "func file.c:12". */
static const char *short_name(char *buf, size_t len, const char *name)
{
	const char *sp = strchr(name, ' '), *slash;

	if (!sp || !(slash = strrchr(sp, '/')))
		return name;
	fmt_snprintf(buf, len, "%.*s %s", (int)(sp - name), name, slash + 1);
	return buf;
}

/* The sections' lines, for the ram view: the largest few, the rest as "and N more". */
void kown_lines(const struct kowners *k, void (*add)(int depth, const char *label, const char *name,
						    int64_t bytes, const char *source))
{
	static char text[KO_NSRC * (KO_SHOW * (KO_SHOW_SITES + 1) + 1)][64];
	uint32_t nt = 0, n, m, i, j;
	int src;

	for (src = 0; src < KO_NSRC; src++) {
		uint64_t total = 0, shown = 0;

		if (!k->have[src])
			continue;
		n = owners_by(k, src, oo);
		for (i = 0; i < n; i++)
			total += k->owner[oo[i]].bytes[src];
		add(0, head[src], NULL, (int64_t)total, ko_source[src]);
		for (i = 0; i < n && i < KO_SHOW; i++) {
			const struct ko_owner *o = &k->owner[oo[i]];
			uint64_t sum = 0;

			add(1, "owner", o->name, (int64_t)o->bytes[src], ko_source[src]);
			shown += o->bytes[src];
			m = sites_by(k, oo[i], src, so);
			for (j = 0; j < m && j < KO_SHOW_SITES; j++) {
				add(2, src == KO_ALLOC ? "call site" : "caller",
				    short_name(text[nt++], sizeof(text[0]), k->site[so[j]].name),
				    (int64_t)k->site[so[j]].bytes, ko_source[src]);
				sum += k->site[so[j]].bytes;
			}
			if (o->bytes[src] > sum) {	/* more, or past the table */
				if (o->sites[src] > j)
					fmt_snprintf(text[nt], sizeof(text[0]), "and %u more %s%s",
						     o->sites[src] - j, sites_are[src],
						     o->sites[src] - j == 1 ? "" : "s");
				else
					fmt_snprintf(text[nt], sizeof(text[0]), "and %ss not listed",
						     sites_are[src]);
				add(2, "more", text[nt++], (int64_t)(o->bytes[src] - sum), ko_source[src]);
			}
		}
		if (n > i) {
			fmt_snprintf(text[nt], sizeof(text[0]), "and %u more owner%s", n - i,
				     n - i == 1 ? "" : "s");
			add(1, "more", text[nt++], (int64_t)(total - shown), ko_source[src]);
		}
	}
}

/* What a reading could not list, as a note of the view; NULL: nothing. */
const char *kown_note(const struct kowners *k)
{
	static char text[96];

	if (!k || !k->lost)
		return NULL;
	fmt_snprintf(text, sizeof(text), "%llu callers or call sites past the %u listed: in their "
		     "owners' figures", (unsigned long long)k->lost, KO_SITES);
	return text;
}

static void csv_row(const char *owner, const char *site, uint64_t bytes, int src)
{
	outs("owner,");
	csv_field(owner, strlen(owner));
	outs(",");
	if (site)
		csv_field(site, strlen(site));
	outf(",%llu,%s\n", (unsigned long long)bytes, ko_source[src]);
}

/* The ram view's CSV: every owner (its name the subcategory) and every site listed. */
void kown_csv(const struct kowners *k)
{
	uint32_t n, m, i, j;
	int src;

	for (src = 0; src < KO_NSRC; src++) {
		if (!k->have[src])
			continue;
		n = owners_by(k, src, oo);
		for (i = 0; i < n; i++) {
			const struct ko_owner *o = &k->owner[oo[i]];

			csv_row(o->name, NULL, o->bytes[src], src);
			m = sites_by(k, oo[i], src, so);
			for (j = 0; j < m; j++)
				csv_row(o->name, k->site[so[j]].name, k->site[so[j]].bytes, src);
		}
	}
}

/* ---- diff ---- */

struct drow {
	const char *name;
	int src;
	int64_t a, b;
};

static int drow_cmp(const void *pa, const void *pb)
{
	const struct drow *x = pa, *y = pb;
	int64_t dx = x->b - x->a, dy = y->b - y->a;

	dx = dx < 0 ? -dx : dx;
	dy = dy < 0 ? -dy : dy;
	if (dx != dy)
		return dx > dy ? -1 : 1;
	return x->src != y->src ? x->src - y->src : strcmp(x->name, y->name);
}

static const struct ko_owner *find(const struct kowners *k, const char *name)
{
	uint32_t i;

	for (i = 0; i < k->nowner; i++)
		if (strcmp(k->owner[i].name, name) == 0)
			return &k->owner[i];
	return NULL;
}

static void signed_size(const struct opts *o, char *buf, size_t len, int64_t v, int sign)
{
	buf[0] = v < 0 ? '-' : '+';
	fmt_size(o, buf + (v < 0 || sign), len - 1, (uint64_t)(v < 0 ? -v : v));
}

/*
 * diff: each owner's figure from each reading both captures hold, where it
 * changed (all of them with -a), the largest change first; an owner on one
 * side only counts 0 on the other (a module loaded, or unloaded).
 */
void kown_diff(const struct kowners *a, const struct kowners *b, const struct opts *o)
{
	static struct drow rows[2 * KO_OWNERS * KO_NSRC];
	uint32_t n = 0, i, same = 0, pass;
	int src;

	if (!a || !b)
		return;
	for (src = 0; src < KO_NSRC; src++) {
		if (!a->have[src] || !b->have[src])
			continue;
		for (pass = 0; pass < 2; pass++) {
			const struct kowners *x = pass ? a : b, *y = pass ? b : a;

			for (i = 0; i < x->nowner; i++) {
				const struct ko_owner *w = &x->owner[i], *v = find(y, w->name);

				if (pass && v)
					continue;	/* in both: the first pass's */
				rows[n++] = (struct drow){ w->name, src,
					(int64_t)(pass ? w->bytes[src] : v ? v->bytes[src] : 0),
					(int64_t)(pass ? 0 : w->bytes[src]) };
			}
		}
	}
	sort(rows, n, sizeof(*rows), drow_cmp);
	if (n && !o->csv)
		outf("\n%-40s %11s %11s %11s\n", "KERNEL OWNER", "A", "B", "CHANGE");
	for (i = 0; i < n; i++) {
		const struct drow *r = &rows[i];
		char x[32], y[32], d[32], label[96];

		if (r->a == r->b && (!o->all || (!r->a && !r->b))) {
			same += r->a || r->b;
			continue;
		}
		fmt_snprintf(label, sizeof(label), "%s (%s)", r->name, ko_source[r->src]);
		if (o->csv) {
			fmt_snprintf(label, sizeof(label), "owner:%s:%s", r->name, ko_source[r->src]);
			outs("ram,");
			csv_field(label, strlen(label));
			outf(",,%lld,%lld\n", (long long)r->a, (long long)r->b);
			continue;
		}
		signed_size(o, x, sizeof(x), r->a, 0);
		signed_size(o, y, sizeof(y), r->b, 0);
		signed_size(o, d, sizeof(d), r->b - r->a, 1);
		put_text(label, 40, 1);
		outf(" %11s %11s %11s\n", x, y, d);
	}
	if (same && !o->csv)
		outf("(%u kernel owners did not change; -a shows them)\n", same);
}
