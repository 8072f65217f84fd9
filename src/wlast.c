/* A watch log's last sample, kept whole: one side of a diff when the closing capture never came. */
/*
 * A watch killed before its closing capture (SIGKILL, a power cut, the
 * console cut) leaves its opening capture and every sample up to the cut.
 * The last of them still says what changed, as far as samples say it:
 * each process's five figures and each file's eff_resident. The log is
 * walked twice through its reader (wlog.c): once to find that sample (the
 * last whose every value is known, after the last whole capture), once to
 * keep its values. The reader holds one sample; this keeps one more.
 */
#include <string.h>

#include "wlog.h"

static struct {
	const char *path;
	uint64_t after;
	uint64_t n, pick;	/* samples given; the one kept, from 1 (0: none) */
	uint32_t np, nf;	/* the sample's processes and files, counted */
	int pass;
	struct arena *a;
	struct wl_last *L;
} W;

static void on_sample(void *arg, const struct wl_sample *s)
{
	(void)arg;
	(void)s;
	W.n++;
	if (W.pass == 1)
		W.np = W.nf = 0;
}

static void on_value(void *arg, const struct wl_sample *s, const struct wl_value *v)
{
	struct wl_last *L = W.L;

	(void)arg;
	(void)s;
	if (W.pass == 1) {
		W.np += v->kind == WL_PROC;
		W.nf += v->kind == WL_FILE;
		return;
	}
	if (W.n != W.pick)
		return;
	if (v->kind == WL_PROC) {
		struct wl_lproc *p = &L->proc[L->nproc++];
		char *c = arena_alloc(W.a, v->proc->cmdlen + 1, 1);

		p->name = arena_strdup(W.a, v->proc->name, strlen(v->proc->name));
		memcpy(c, v->proc->cmdline, v->proc->cmdlen);
		c[v->proc->cmdlen] = '\0';
		p->cmd = c;
		p->cmdlen = v->proc->cmdlen;
		memcpy(p->v, v->v, sizeof(p->v));
	} else if (v->kind == WL_FILE) {
		L->file[L->nfile].path = arena_strdup(W.a, v->file->path, strlen(v->file->path));
		L->file[L->nfile++].eff = v->v[0];
	}
}

/* Pass 1: the last sample after the capture, of this file, every value known
 * and its owner named. */
static void on_sample_end(void *arg, const struct wl_sample *s)
{
	(void)arg;
	if (W.pass != 1 || s->unknown || s->unsure || strcmp(s->file, W.path) != 0 ||
	    s->line <= W.after)
		return;
	W.pick = W.n;
	W.L->s = *s;
	W.L->nproc = W.np;
	W.L->nfile = W.nf;
}

static const struct wl_ops last_ops = {
	.sample = on_sample, .value = on_value, .sample_end = on_sample_end,
};

static struct wlog w;

int wlog_last_find(const char *path, uint64_t after, struct wl_last *L)
{
	memset(&W, 0, sizeof(W));
	memset(L, 0, sizeof(*L));
	W.after = after;
	W.L = L;
	W.pass = 1;
	wlog_open(path, &w);
	W.path = w.path;
	wlog_read(&w, &last_ops, NULL);
	return W.pick ? 0 : -1;
}

void wlog_last(struct arena *a, const char *path, uint64_t after, struct wl_last *L)
{
	if (wlog_last_find(path, after, L) < 0)
		die("%s: no whole sample after its last capture (log line %llu): nothing to compare",
		    path, (unsigned long long)after);
	W.a = a;
	L->proc = arena_alloc(a, ((size_t)L->nproc + 1) * sizeof(*L->proc), 8);
	L->file = arena_alloc(a, ((size_t)L->nfile + 1) * sizeof(*L->file), 8);
	L->nproc = L->nfile = 0;
	W.pass = 2;
	W.n = 0;
	wlog_read(&w, &last_ops, NULL);
}
