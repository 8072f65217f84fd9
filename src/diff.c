/* diff: how each figure changed from one capture to another. */
/*
 * diff: two captures side by side. Processes are grouped by name and command
 * line (pids differ between boots; a daemon's workers share a key), files by
 * path; each row is how every figure changed from a to b, largest change
 * first. A key on one side only shows its whole figures as added or removed.
 * A side may be a watch log's last sample (its closing capture never came,
 * wlast.c): then only the figures a sample holds are compared.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "dmabuf.h"
#include "cgroup.h"
#include "ram.h"
#include "wlog.h"
#ifndef EXMAP_NO_PICTURES
#include "page.h"
#endif

struct drow {
	const char *name;
	const char *cmd;	/* NUL between arguments; NULL for a file */
	uint32_t cmdlen;
	uint32_t n[2];		/* processes in a and in b */
	struct fig fig[2];
};

struct dtab {
	struct drow *rows;
	uint32_t n, mask;
	uint32_t *slot;		/* row + 1 */
};

static uint32_t key_hash(const char *name, const char *cmd, uint32_t cmdlen)
{
	return hash_bytes(hash_bytes(HASH_SEED, name, strlen(name)), cmd, cmd ? cmdlen : 0);
}

static void dtab_init(struct dtab *t, struct arena *a, uint32_t most)
{
	uint32_t slots = 16;

	while (slots < 2 * most)
		slots <<= 1;
	t->slot = arena_alloc(a, (size_t)slots * 4, 4);
	memset(t->slot, 0, (size_t)slots * 4);
	t->mask = slots - 1;
	t->rows = arena_alloc(a, ((size_t)most + 1) * sizeof(*t->rows), 8);
	t->n = 0;
}

static void dtab_add(struct dtab *t, int side, const char *name, const char *cmd,
		     uint32_t cmdlen, uint32_t n, const struct fig *f)
{
	uint32_t h = key_hash(name, cmd, cmdlen) & t->mask;
	struct drow *r;

	for (; t->slot[h]; h = (h + 1) & t->mask) {
		r = &t->rows[t->slot[h] - 1];
		if (strcmp(r->name, name) == 0 && r->cmdlen == cmdlen &&
		    (!cmd || memcmp(r->cmd, cmd, cmdlen) == 0))
			break;
	}
	if (!t->slot[h]) {
		r = &t->rows[t->n];
		memset(r, 0, sizeof(*r));
		r->name = name;
		r->cmd = cmd;
		r->cmdlen = cmdlen;
		t->slot[h] = ++t->n;
	}
	r = &t->rows[t->slot[h] - 1];
	r->n[side] += n;
	fig_add(&r->fig[side], f);
}

static int64_t delta(const struct drow *r, int field)
{
	return (int64_t)(fig_get(&r->fig[1], field) - fig_get(&r->fig[0], field));
}

static int sort_field;

static int cmp_rows(const void *pa, const void *pb)
{
	const struct drow *a = *(const struct drow *const *)pa;
	const struct drow *b = *(const struct drow *const *)pb;
	int c = 0;

	if (sort_field < NFIGS) {
		int64_t x = delta(a, sort_field), y = delta(b, sort_field);
		uint64_t ax = x < 0 ? -(uint64_t)x : (uint64_t)x;
		uint64_t ay = y < 0 ? -(uint64_t)y : (uint64_t)y;

		c = (ax < ay) - (ax > ay);	/* largest change first */
	}
	if (!c)
		c = strcmp(a->name, b->name);
	if (!c && a->cmd) {
		uint32_t n = a->cmdlen < b->cmdlen ? a->cmdlen : b->cmdlen;

		c = memcmp(a->cmd, b->cmd, n);
		if (!c)
			c = (a->cmdlen > b->cmdlen) - (a->cmdlen < b->cmdlen);
	}
	return c;
}

/* The figures compared: all of them, or those a watch log's sample holds. */
#define ALL_FIGS	((1u << NFIGS) - 1)
#define SAMPLE_PROC	(1u << F_RESIDENT | 1u << F_EFF_RESIDENT | 1u << F_SOLE | \
			 1u << F_WRITABLE | 1u << F_SWAP)
#define SAMPLE_FILE	(1u << F_EFF_RESIDENT)
static uint32_t figs;		/* of the table being written */
static int counts;		/* its counts known (a sample's files have none) */

static int changed(const struct drow *r)
{
	int f;

	for (f = 0; f < NFIGS; f++)
		if ((figs & 1u << f) && delta(r, f))
			return 1;
	return counts && r->n[0] != r->n[1];
}

/* A signed change as text: "+4.0K", "-12M", "0"; with -k, KiB. Its length. */
static size_t delta_text(const struct opts *o, int64_t d, char *buf, size_t len)
{
	uint64_t m = d < 0 ? -(uint64_t)d : (uint64_t)d;
	char num[24];

	fmt_size(o, num, sizeof(num), m);
	return fmt_snprintf(buf, len, "%s%s", d > 0 ? "+" : d < 0 ? "-" : "", num);
}

/* One change in a column of width w (CSV: the bytes). */
static void put_delta(const struct opts *o, int64_t d, int w)
{
	char buf[32];

	if (o->csv) {
		outf(",%lld", (long long)d);
		return;
	}
	delta_text(o, d, buf, sizeof(buf));
	outf(" %*s", w, buf);
}

/* The columns' width: the widest change shown, five at least (the heads). */
static int delta_width(const struct opts *o, struct drow **v, uint32_t n)
{
	char buf[32];
	uint32_t i;
	int f, w = 5;

	for (i = 0; i < n; i++)
		for (f = 0; f < NFIGS; f++) {
			int k = figs & 1u << f ? (int)delta_text(o, delta(v[i], f), buf, sizeof(buf)) : 0;

			if (k > w)
				w = k;
		}
	return w;
}

/* A command line for a person: its arguments with spaces between. */
static void cmd_text(const struct drow *r, char *buf, size_t len)
{
	uint32_t i, n = r->cmdlen < len - 1 ? r->cmdlen : (uint32_t)len - 1;

	for (i = 0; i < n; i++) {
		unsigned char c = r->cmd[i];

		buf[i] = c == '\0' ? ' ' : c < 0x20 || c == 0x7f ? '?' : (char)c;
	}
	buf[n] = '\0';
}

/* Character k of a process row's line as it prints: its name, a space, its
 * command line as cmd_text shows it; -1 past its end. */
static int line_char(const struct drow *r, size_t nl, size_t k)
{
	unsigned char c;

	if (k == nl)
		return ' ';
	if (k > nl && k - nl - 1 >= r->cmdlen)
		return -1;
	c = k < nl ? (unsigned char)r->name[k] : (unsigned char)r->cmd[k - nl - 1];
	return c == '\0' ? ' ' : c < 0x20 || c == 0x7f ? '?' : c;
}

/*
 * Where the line of row i (of the n shown) first differs from those of the
 * rows that print alike, cut to room (their first room - 3 characters and
 * "..."): the furthest such place, 0 if no row prints alike. Only rows of
 * the same name can (the name begins the line).
 */
static size_t tells_apart(struct drow **v, uint32_t n, uint32_t i, size_t room)
{
	size_t nl = strlen(v[i]->name), d = 0, k;
	uint32_t j;

	for (j = 0; j < n; j++) {
		if (j == i || strcmp(v[j]->name, v[i]->name) != 0 || line_char(v[j], nl, room) < 0)
			continue;
		for (k = 0; line_char(v[i], nl, k) == line_char(v[j], nl, k) &&
			    line_char(v[i], nl, k) >= 0; k++)
			;
		if (k >= room - 3 && k > d)
			d = k;
	}
	return d;
}

/* A process's line longer than room: cut on the right, or, where another
 * row would print alike, its name, "...", and the part from where it
 * differs (the word that does, as much as fits): "workload ...-f 128 -d". */
static void put_cut(char *line, size_t nl, size_t room, size_t d)
{
	size_t tail = room - nl - 4, s = d;

	if (d && room > nl + 12) {
		while (s > nl + 1 && line[s - 1] != ' ')
			s--;
		if (d - s + 4 > tail)
			s = d + 4 - tail;
		line[nl] = '\0';
		if (strlen(line + s) > tail)
			memcpy(line + s + tail - 3, "...", 4);
		outf("%s ...%s\n", line, line + s);
		return;
	}
	memcpy(line + room - 3, "...", 4);
	outf("%s\n", line);
}

static void put_rows(struct dtab *t, struct arena *a, const struct opts *o, int procs)
{
	struct drow **v = arena_alloc(a, ((size_t)t->n + 1) * sizeof(*v), 8);
	static char cmd[CMDLINE_MAX + 1], line[NAME_MAX_COMM + CMDLINE_MAX + 2];
	uint32_t i, n, hidden;
	int w, f;

	/* unchanged rows (the same count, every figure the same) only with -a */
	for (i = n = 0; i < t->n; i++)
		if (o->all || changed(&t->rows[i]))
			v[n++] = &t->rows[i];
	hidden = t->n - n;
	sort_field = o->sort < 0 ? F_EFF_RESIDENT : o->sort;
	sort(v, n, sizeof(*v), cmp_rows);
	if (o->top && o->top < n)
		n = (uint32_t)o->top;
	w = delta_width(o, v, n);
	if (!o->csv && !o->noheader) {
		outs(procs ? "processes: change from a to b\n" : "files: change from a to b\n");
		outs(!counts ? "" : procs ? "  COUNT" : "  NPROC");
		for (f = 0; f < NFIGS; f++)
			if (figs & 1u << f)
				outf(" %*s", w, text_head[f]);
		outs(procs ? " NAME COMMAND\n" : " PATH\n");
	}
	for (i = 0; i < n; i++) {
		const struct drow *r = v[i];
		size_t used, room;

		cmd_text(r, cmd, sizeof(cmd));
		if (o->csv) {
			outs(procs ? "proc," : "file,");
			csv_field(r->name, strlen(r->name));
			out(",", 1);
			csv_field(cmd, strlen(cmd));
			if (counts)
				outf(",%u,%u", r->n[0], r->n[1]);
			else
				outs(",,");
			for (f = 0; f < NFIGS; f++)
				if (figs & 1u << f)
					put_delta(o, delta(r, f), 0);
				else
					outs(",");
			outs("\n");
			continue;
		}
		if (counts)
			outf(" %3u>%-2u", r->n[0], r->n[1]);
		for (f = used = 0; f < NFIGS; f++)
			if (figs & 1u << f) {
				put_delta(o, delta(r, f), w);
				used += (size_t)w + 1;
			}
		used += (counts ? 7 : 0) + 1;
		room = path_room(used);
		outs(" ");
		if (!procs) {		/* a path: cut from the left, as files and maps do */
			put_text(r->name, room, 0);
			outs("\n");
			continue;
		}
		/* a process: its name first, the command line cut on the right */
		fmt_snprintf(line, sizeof(line), "%s%s%s", r->name, r->cmd ? " " : "", cmd);
		for (char *c = line; *c; c++)
			if ((unsigned char)*c < 0x20 || *c == 0x7f)
				*c = '?';
		if (strlen(line) > room)
			put_cut(line, strlen(r->name), room, tells_apart(v, n, i, room));
		else
			outf("%s\n", line);
	}
	if (hidden && !o->csv && !o->noheader)
		outf("  (%u unchanged %s not shown: -a shows them)\n", hidden,
		     procs ? (hidden == 1 ? "process" : "processes") : (hidden == 1 ? "file" : "files"));
}

#ifndef EXMAP_NO_PICTURES
/* diff's page: [name, command, n_a, n_b, a's eight figures, b's], a row each. */
static void html_rows(const struct dtab *t)
{
	static char cmd[CMDLINE_MAX + 1];
	uint32_t i;

	outs("[");
	for (i = 0; i < t->n; i++) {
		const struct drow *r = &t->rows[i];

		outs(i ? ",\n[" : "[");
		js_cstr(r->name);
		outs(",");
		if (r->cmd) {
			cmd_text(r, cmd, sizeof(cmd));
			js_cstr(cmd);
		} else {
			outs("null");
		}
		outf(",%u,%u,", r->n[0], r->n[1]);
		js_figs(&r->fig[0]);
		outs(",");
		js_figs(&r->fig[1]);
		outs("]");
	}
	outs("]");
}

static void html_diff(const struct scan *s, const struct dtab *procs, const struct dtab *files)
{
	page_begin();
	outs("D.kind = \"diff\";\nD.a = ");
	js_head(&s[0]);
	outs(";\nD.b = ");
	js_head(&s[1]);
	outs(";\nD.figs = ");
	js_fignames();
	outs(";\nD.procs = ");
	html_rows(procs);
	outs(";\nD.files = ");
	html_rows(files);
	outs(";\nD.ramA = ");
	js_ram(&s[0], "auto");
	outs(";\nD.ramB = ");
	js_ram(&s[1], "auto");
	outs(";\n");
	page_notes_put();
	page_end();
}
#endif

/* A watch log's last sample as a side: its processes' figures and its files'. */
static void add_sample(struct dtab *procs, struct dtab *files, int k, const struct wl_last *L)
{
	struct fig f;
	uint32_t i;

	for (i = 0; i < L->nproc; i++) {
		const struct wl_lproc *p = &L->proc[i];

		memset(&f, 0, sizeof(f));
		f.resident = (uint64_t)p->v[WL_RESIDENT];
		f.eff_resident.whole = (uint64_t)p->v[WL_EFF_RESIDENT];
		f.sole = (uint64_t)p->v[WL_SOLE];
		f.writable = (uint64_t)p->v[WL_WRITABLE];
		f.swap = (uint64_t)p->v[WL_SWAP];
		dtab_add(procs, k, p->name, p->cmd, p->cmdlen, 1, &f);
	}
	for (i = 0; i < L->nfile; i++) {
		memset(&f, 0, sizeof(f));
		f.eff_resident.whole = (uint64_t)L->file[i].eff;
		dtab_add(files, k, L->file[i].path, NULL, 0, 0, &f);
	}
}

/* What a sample side leaves out, said before the tables. */
static void sample_note(const struct capfile *cf, const struct wl_last *L, int side)
{
	outf("%c: %s is the last sample of a watch whose closing capture never came\n"
	     "   (log line %llu, %llu s after boot): processes' resident, eff_resident, sole,\n"
	     "   writable and swap, files' eff_resident; the other figures, sections and\n"
	     "   symbols, and the ram view need a closing capture\n\n", 'a' + side, cf->path,
	     (unsigned long long)L->s.line, (unsigned long long)(L->s.uptime_ms / 1000));
}

void diff_captures(struct arena *a, const struct capfile *cfa, const struct capfile *cfb,
		   const struct opts *o)
{
	static struct scan s[2];
	static struct wl_last last[2];
	const struct capfile *cf[2] = { cfa, cfb };
	struct totals t;
	struct dtab procs, files;
	struct file *fl[2] = { NULL, NULL };
	uint32_t nf[2] = { 0, 0 }, nproc = 0, nfile = 0, i;
	int k, sample = cfa->sample || cfb->sample;

	if (sample && o->html)
		die("diff ... html: %s is a watch's last sample, not a capture: its page needs two "
		    "captures (the text or -c compares it)", cfa->sample ? cfa->path : cfb->path);
	if (sample && o->sort >= 0 && o->sort < NFIGS && !(SAMPLE_PROC & 1u << o->sort))
		die("-s: a watch's last sample holds resident, eff_resident, sole, writable and swap, "
		    "not the field asked for");
	for (k = 0; k < 2; k++) {
		if (cf[k]->sample) {
			wlog_last(a, cf[k]->file, cf[k]->sample_after, &last[k]);
			nproc += last[k].nproc;
			nfile += last[k].nfile;
			continue;
		}
		load_capture(&s[k], a, cf[k]);
		account(&s[k], &t);
		fl[k] = files_build(&s[k], &nf[k]);
		nproc += s[k].nproc;
		nfile += nf[k];
	}
	dtab_init(&procs, a, nproc);
	dtab_init(&files, a, nfile);
	for (k = 0; k < 2; k++) {
		if (cf[k]->sample) {
			add_sample(&procs, &files, k, &last[k]);
			continue;
		}
		for (i = 0; i < s[k].nproc; i++) {
			const struct proc *p = s[k].procs[i];

			dtab_add(&procs, k, p->name, p->cmdline ? p->cmdline : "", p->cmdlen, 1,
				 &p->fig);
		}
		for (i = 0; i < nf[k]; i++)
			dtab_add(&files, k, fl[k][i].path, NULL, 0, fl[k][i].nproc, &fl[k][i].fig);
	}
#ifndef EXMAP_NO_PICTURES
	if (o->html) {
		html_diff(s, &procs, &files);
		return;
	}
#endif
	for (k = 0; k < 2 && !o->csv && !o->noheader; k++)
		if (cf[k]->sample)
			sample_note(cf[k], &last[k], k);
	if (o->csv && !o->noheader) {
		outs("kind,name,cmdline,n_a,n_b");
		put_heads(o, NULL, 0);
		outs("\n");
	}
	figs = sample ? SAMPLE_PROC : ALL_FIGS;
	counts = 1;
	put_rows(&procs, a, o, 1);
	if (!o->csv)
		outs("\n");
	figs = sample ? SAMPLE_FILE : ALL_FIGS;
	counts = !sample;
	put_rows(&files, a, o, 0);
	if (!sample) {	/* a watch's last sample holds neither */
		diff_cgroups(s, o, a);
		diff_ram(&s[0], &s[1], o, a);
		diff_dmabuf(&s[0], &s[1], o, a);
	}
	out_flush();
}
