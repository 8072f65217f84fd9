/* The html page of a watch log: the largest growers over time, and all of RAM. */
/*
 * The page's template is the other views' (src/report.html, page.c); the
 * trend's drawing, src/trend.js, goes in after the data, into the same
 * script, as the template's data line is followed by its code. The data:
 * the log's span, every row with its slope (as -c trend gives them), the
 * growers' series (each bucket's least and most eff_resident: the floor
 * the slope is fitted to, and the tops above it) and MemTotal's parts in
 * the same buckets.
 */
#include <string.h>

#include "page.h"
#include "trend.h"

/* The drawing, with a NUL after it; global, as page.c's template. */
#ifndef TREND_SCRIPT
#define TREND_SCRIPT "src/trend.js"
#endif
__asm__(".pushsection .rodata.trend_script,\"a\"\n"
	".globl trend_script\n"
	"trend_script:\n"
	".incbin \"" TREND_SCRIPT "\"\n"
	".byte 0\n"
	".popsection\n");
extern const char trend_script[];

static const char *const kind_js[] = {
	[TK_PROC] = "process", [TK_FILE] = "file", [TK_PART] = "part", [TK_CGROUP] = "cgroup",
	[TK_DMABUF] = "dmabuf",
};

static void js_i64(int64_t v)
{
	if (v < 0)
		outs("-");
	out_dec(0, v < 0 ? -(uint64_t)v : (uint64_t)v);
}

static void js_slope(const struct env_fit *f)
{
	if (f->known)
		js_i64(f->slope);
	else
		outs("null");
}

static void js_cmd(const struct trow *r)
{
	static char cmd[CMDLINE_MAX + 1];

	if (!r->cmd) {
		outs("null");
		return;
	}
	cmd_words(r, cmd, sizeof(cmd));
	js_cstr(cmd);
}

/* [kind, name, cmd, samples, first, last, min, max, slope, sole_slope, grows,
 * life_ms, brief]: as -c trend has them */
static void js_row(const struct shown *s)
{
	const struct trow *r = s->r;
	const struct envelope *e = &r->e_eff;

	outf("[\"%s\",", kind_js[r->kind]);
	js_cstr(r->name);
	outs(",");
	js_cmd(r);
	outf(",%u,", e->samples);
	out_dec(0, r->first);
	out_dec(',', r->last);
	out_dec(',', r->min);
	out_dec(',', r->max);
	outs(",");
	if (s->brief)
		outs("null");
	else
		js_slope(&s->f);
	outs(",");
	if ((r->kind == TK_PROC || r->kind == TK_CGROUP) && !s->brief)
		js_slope(&s->fs);
	else
		outs("null");
	outf(",%d,", s->grows);
	js_i64(e->last.t - e->first.t);
	outf(",%d]", s->brief);
}

/* [kind, name, cmd, slope, [t], [lo], [hi]]: t in ms from the first sample */
static void js_series(const struct shown *s, int64_t t0)
{
	const struct series *z = s->r->ser;
	uint32_t i;

	outf("[\"%s\",", kind_js[s->r->kind]);
	js_cstr(s->r->name);
	outs(",");
	js_cmd(s->r);
	outs(",");
	js_slope(&s->f);
	outs(",[");
	for (i = 0; i < z->n; i++) {
		outs(i ? "," : "");
		js_i64(z->t[i] - t0);
	}
	outs("],[");
	for (i = 0; i < z->n; i++)
		out_dec(i ? ',' : 0, z->lo[i]);
	outs("],[");
	for (i = 0; i < z->n; i++)
		out_dec(i ? ',' : 0, z->hi[i]);
	outs("]]");
}

/* The brief rows of each kind: {"process": [count, peak row, longest row], ...} */
static void js_brief(const int *kinds, uint32_t nk)
{
	struct brief b;
	uint32_t k, n, i;

	outs("D.brief = {");
	for (k = 0; k < nk; k++) {
		struct shown *v = trend_rows(kinds[k], &n);

		trend_brief(v, n, &b);
		outf("%s\"%s\":[%u", k ? "," : "", kind_js[kinds[k]], b.n);
		for (i = 0; i < n && b.n; i++)
			if (v[i].r == b.peak) {
				outs(",");
				js_row(&v[i]);
			}
		for (i = 0; i < n && b.n; i++)
			if (v[i].r == b.longest) {
				outs(",");
				js_row(&v[i]);
			}
		outs("]");
	}
	outs("};\n");
}

void trend_page(const struct opts *o, const struct trend_opts *to)
{
	/* the table's rows: the cgroups' too (the growers' charts, the first two) */
	static const int all[] = { TK_PROC, TK_FILE, TK_CGROUP }, part[] = { TK_PART };
	const struct trend_sum *S = trend_summary();
	const int *kinds = S->pick ? part : all;
	uint32_t k, i, n, nser = 0, nrow = 0, b, nb = S->nbucket, nk = S->pick ? 1 : 3;

	(void)o;
	(void)to;
	if (S->pick && !S->pick_seen)
		die("-P %s: no process of that %s in the log", S->pick,
		    parse_u64(S->pick, INT32_MAX, &(uint64_t){ 0 }) == 0 ? "pid" : "name");
	page_begin();
	outs("D.kind = \"trend\";\nD.head = {\"log\":");
	js_cstr(S->log);
	outs(",\"pick\":");
	if (S->pick)
		js_cstr(S->pick);
	else
		outs("null");
	outf(",\"samples\":%u,\"skipped\":%u,\"span\":", S->used, S->skipped);
	js_i64(S->t_last - S->t_first);
	outs(",\"time\":");
	out_dec(0, S->real_first);
	outs(",\"until\":");
	out_dec(0, S->real_last);
	outf(",\"runs\":%llu,\"lost\":%llu,\"unknown\":%llu,\"grow_min\":%u,\"share\":%u,"
	     "\"min_ms\":%u,\"min_samples\":%u};\nD.rows = [",
	     (unsigned long long)S->runs, (unsigned long long)S->lost,
	     (unsigned long long)S->unknown, (unsigned)GROW_MIN_BYTES, TREND_SHARE,
	     TREND_MIN_MS, TREND_MIN_SAMPLES);
	for (k = 0; k < nk; k++) {
		struct shown *v = trend_rows(kinds[k], &n);

		for (i = 0; i < n; i++) {
			outs(nrow++ ? ",\n" : "");
			js_row(&v[i]);
		}
	}
	outs("];\n");
	js_brief(kinds, nk);
	outs("D.series = [");
	for (k = 0; k < nk; k++) {
		struct shown *v = trend_rows(kinds[k], &n);

		for (i = 0; i < n; i++) {
			if (!v[i].r->ser || !v[i].r->ser->n)
				continue;
			outs(nser++ ? ",\n" : "");
			js_series(&v[i], S->t_first);
		}
	}
	outs("];\nD.ram = [");
	for (i = 0; i < S->nram; i++) {
		outs(i ? ",\n[" : "[");
		js_cstr(S->ram[i].name);
		outf(",%d,[", S->ram[i].depth);
		for (b = 0; b < nb; b++) {
			outs(b ? "," : "");
			js_i64(S->ram[i].v[b]);
		}
		outs("]]");
	}
	outs("];\nD.ramt = [");
	for (b = 0; b < nb; b++) {
		outs(b ? "," : "");
		js_i64(S->ram_t[b] - S->t_first);
	}
	outs("];\n");
	page_notes_put();
	outs(trend_script);
	page_end();
}
