/* diff: how each figure changed from one capture to another. */
/*
 * diff: two captures side by side. Processes are grouped by name and command
 * line (pids differ between boots; a daemon's workers share a key), files by
 * path; each row is how every figure changed from a to b, largest change
 * first. A key on one side only shows its whole figures as added or removed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "cgroup.h"
#include "ram.h"
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

static int changed(const struct drow *r)
{
	int f;

	for (f = 0; f < NFIGS; f++)
		if (delta(r, f))
			return 1;
	return r->n[0] != r->n[1];
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
			int k = (int)delta_text(o, delta(v[i], f), buf, sizeof(buf));

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
		outs(procs ? "processes: change from a to b\n  COUNT" : "files: change from a to b\n  NPROC");
		for (f = 0; f < NFIGS; f++)
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
			outf(",%u,%u", r->n[0], r->n[1]);
			for (f = 0; f < NFIGS; f++)
				put_delta(o, delta(r, f), 0);
			outs("\n");
			continue;
		}
		outf(" %3u>%-2u", r->n[0], r->n[1]);
		for (f = 0; f < NFIGS; f++)
			put_delta(o, delta(r, f), w);
		used = 7 + NFIGS * (size_t)(w + 1) + 1;
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
			memcpy(line + room - 3, "...", 4);
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

void diff_captures(struct arena *a, const struct capfile *cfa, const struct capfile *cfb,
		   const struct opts *o)
{
	static struct scan s[2];
	struct totals t;
	struct dtab procs, files;
	struct file *fl[2];
	uint32_t nf[2], nproc = 0, nfile = 0, i;
	int k;

	load_capture(&s[0], a, cfa);
	load_capture(&s[1], a, cfb);
	for (k = 0; k < 2; k++) {
		account(&s[k], &t);
		fl[k] = files_build(&s[k], &nf[k]);
		nproc += s[k].nproc;
		nfile += nf[k];
	}
	dtab_init(&procs, a, nproc);
	dtab_init(&files, a, nfile);
	for (k = 0; k < 2; k++) {
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
	if (o->csv && !o->noheader) {
		outs("kind,name,cmdline,n_a,n_b");
		put_heads(o, NULL, 0);
		outs("\n");
	}
	put_rows(&procs, a, o, 1);
	if (!o->csv)
		outs("\n");
	put_rows(&files, a, o, 0);
	diff_cgroups(s, o, a);
	diff_ram(&s[0], &s[1], o, a);
	out_flush();
}
