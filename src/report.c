/*
 * The views: procs, files and maps, as 80-column text (human units, or KiB
 * with -k) or as CSV with bytes. Rows are sorted, cut to -n, then printed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exmap.h"

#define TEXT_COLS	80

const char *const text_head[NFIGS] = {
	"VM", "MAPPD", "RESID", "EFMAP", "EFRES", "SOLE", "WRITE", "SWAP",
};

/* The figures shown in the text maps view, to leave room for the path. */
static const int maps_text_figs[] = {
	F_VM, F_RESIDENT, F_EFF_RESIDENT, F_SOLE, F_WRITABLE, F_SWAP,
};

int field_lookup(const char *name)
{
	int i;

	for (i = 0; i < NFIELDS; i++)
		if (strcmp(field_names[i], name) == 0)
			return i;
	return -1;
}

static int sort_field;
static enum view sort_view;

static const struct fig *item_fig(const void *x)
{
	switch (sort_view) {
	case V_PROCS: return &((const struct proc *)x)->fig;
	case V_FILES: return &((const struct file *)x)->fig;
	case V_MAPS: return &((const struct mapping *)x)->fig;
	default: return &((const struct elf_item *)x)->fig;
	}
}

/* The address an item starts at: a mapping's, a section's or a symbol's. */
static uint64_t item_addr(const void *x)
{
	return sort_view == V_MAPS ? ((const struct mapping *)x)->start
				   : ((const struct elf_item *)x)->lo;
}

/* Ties fall back to the view's natural order, so output is deterministic. */
static int natural(const void *a, const void *b)
{
	switch (sort_view) {
	case V_PROCS: {
		pid_t x = ((const struct proc *)a)->pid, y = ((const struct proc *)b)->pid;
		return (x > y) - (x < y);
	}
	case V_FILES:
		return strcmp(((const struct file *)a)->path, ((const struct file *)b)->path);
	default: {
		uint64_t x = item_addr(a), y = item_addr(b);
		return (x > y) - (x < y);
	}
	}
}

static const char *item_text(const void *x)
{
	switch (sort_view) {
	case V_PROCS: return ((const struct proc *)x)->name;
	case V_FILES: return ((const struct file *)x)->path;
	case V_MAPS: return ((const struct mapping *)x)->path;
	default: return ((const struct elf_item *)x)->name;
	}
}

static int cmp_items(const void *pa, const void *pb)
{
	const void *a = *(const void *const *)pa, *b = *(const void *const *)pb;
	int c = 0;

	if (sort_field < NFIGS) {
		uint64_t x = fig_get(item_fig(a), sort_field);
		uint64_t y = fig_get(item_fig(b), sort_field);

		c = (x < y) - (x > y);	/* largest first */
	} else if (sort_field == F_NAME || sort_field == F_PATH) {
		c = strcmp(item_text(a), item_text(b));
	} else if (sort_field == F_ADDRESS) {
		uint64_t x = item_addr(a), y = item_addr(b);

		c = (x > y) - (x < y);
	} else if (sort_field == F_NPROC) {
		uint32_t x = ((const struct file *)a)->nproc;
		uint32_t y = ((const struct file *)b)->nproc;

		c = (x < y) - (x > y);
	}
	return c ? c : natural(a, b);
}

void sort_items(void **items, size_t n, enum view v, int field)
{
	sort_view = v;
	sort_field = field;
	qsort(items, n, sizeof(*items), cmp_items);
}

/* A size as text shows it: KiB with -k, else human units. */
void fmt_size(const struct opts *o, char *buf, size_t len, uint64_t bytes)
{
	if (o->kib)
		snprintf(buf, len, "%llu", (unsigned long long)((bytes + 512) / 1024));
	else
		fmt_human(buf, len, bytes);
}

static void put_value(const struct opts *o, uint64_t bytes, int width)
{
	char buf[32];

	if (o->csv) {
		out_dec(',', bytes);
		return;
	}
	fmt_size(o, buf, sizeof(buf), bytes);
	outf(" %*s", width - 1, buf);
}

static int fig_width(const struct opts *o)
{
	return o->kib ? 7 : 6;	/* human values: at most 4 characters */
}

static const int all_figs[NFIGS] = {
	F_VM, F_MAPPED, F_RESIDENT, F_EFF_MAPPED, F_EFF_RESIDENT,
	F_SOLE, F_WRITABLE, F_SWAP,
};

/* The figures which[0..n), or all eight when which is NULL, as columns. */
void put_figs(const struct opts *o, const struct fig *f, const int *which, int n)
{
	int i;

	if (!which) {
		which = all_figs;
		n = NFIGS;
	}
	for (i = 0; i < n; i++)
		put_value(o, fig_get(f, which[i]), fig_width(o));
}

/* Their column heads: snake_case names in CSV, short ones in text. */
void put_heads(const struct opts *o, const int *which, int n)
{
	int i;

	if (!which) {
		which = all_figs;
		n = NFIGS;
	}
	for (i = 0; i < n; i++) {
		if (o->csv)
			outf(",%s", field_names[which[i]]);
		else
			outf(" %*s", fig_width(o) - 1, text_head[which[i]]);
	}
}

/* Text: control characters shown as '?'; cut from the left to fit in room. */
static void put_text(const char *s, size_t room, int pad)
{
	size_t n = strlen(s), i;
	char buf[TEXT_COLS + 1];

	if (room < 4)
		room = 4;
	if (room > TEXT_COLS)
		room = TEXT_COLS;
	if (n > room) {
		memcpy(buf, "...", 3);
		memcpy(buf + 3, s + n - (room - 3), room - 3);
		n = room;
	} else {
		memcpy(buf, s, n);
	}
	for (i = 0; i < n; i++)
		if ((unsigned char)buf[i] < 0x20 || buf[i] == 0x7f)
			buf[i] = '?';
	if (pad)
		outf("%-*.*s", (int)room, (int)n, buf);
	else
		out(buf, n);
}

/* What is left of 80 columns for a path; with -k, at least 12. */
static size_t path_room(size_t used)
{
	return used + 12 <= TEXT_COLS ? TEXT_COLS - used :
	       used < TEXT_COLS - 4 ? TEXT_COLS - used : 12;
}

static void **top_rows(struct arena *a, size_t n)
{
	return arena_alloc(a, n * sizeof(void *) + 1, sizeof(void *));
}

static size_t limit(const struct opts *o, size_t n)
{
	return o->top && o->top < n ? o->top : n;
}

static void view_procs(struct scan *s, const struct totals *t, const struct opts *o)
{
	void **rows = top_rows(s->arena, s->nproc);
	size_t i, n;

	memcpy(rows, s->procs, s->nproc * sizeof(void *));
	sort_items(rows, s->nproc, V_PROCS, o->sort < 0 ? F_EFF_RESIDENT : o->sort);
	if (!o->noheader) {
		outs(o->csv ? "pid,name" : "    PID NAME            ");
		put_heads(o, NULL, 0);
		outs("\n");
	}
	n = limit(o, s->nproc);
	for (i = 0; i < n; i++) {
		const struct proc *p = rows[i];

		if (o->csv) {
			out_dec(0, (uint64_t)p->pid);
			outs(",");
			csv_field(p->name, strlen(p->name));
		} else {
			outf("%7d ", (int)p->pid);
			put_text(p->name, 16, 1);
		}
		put_figs(o, &p->fig, NULL, 0);
		outs("\n");
	}
	if (!o->csv) {
		char label[24];

		snprintf(label, sizeof(label), "%u process%s", s->nproc,
			 s->nproc == 1 ? "" : "es");
		outf("%7s %-16s", "", label);
		put_figs(o, &t->fig, NULL, 0);
		outs("\n");
	}
}

static void view_files(struct scan *s, const struct opts *o)
{
	uint32_t nfile, i;
	struct file *files = files_build(s, &nfile);
	void **rows = top_rows(s->arena, nfile);
	size_t n;

	for (i = 0; i < nfile; i++)
		rows[i] = &files[i];
	sort_items(rows, nfile, V_FILES, o->sort < 0 ? F_EFF_RESIDENT : o->sort);
	if (!o->noheader) {
		if (o->csv)
			outs("path,nproc");
		put_heads(o, NULL, 0);
		outs(o->csv ? ",deleted\n" : " NPROC PATH\n");
	}
	n = limit(o, nfile);
	for (i = 0; i < n; i++) {
		const struct file *f = rows[i];
		int del = (f->flags & MF_DELETED) != 0;

		if (o->csv) {
			csv_field(f->path, strlen(f->path));
			outf(",%u", f->nproc);
			put_figs(o, &f->fig, NULL, 0);
			outf(",%d\n", del);
			continue;
		}
		put_figs(o, &f->fig, NULL, 0);
		outf(" %5u ", f->nproc);
		put_text(f->path, path_room(NFIGS * fig_width(o) + 7 + (del ? 10 : 0)), 0);
		outs(del ? " (deleted)\n" : "\n");
	}
}

static void view_maps(struct scan *s, const struct opts *o)
{
	const int nf = sizeof(maps_text_figs) / sizeof(maps_text_figs[0]);
	struct proc *p = NULL;
	struct mapping *m;
	void **rows;
	size_t i, n, aw = 8;
	uint32_t k;

	for (k = 0; k < s->nproc && !p; k++)
		if (s->procs[k]->pid == o->view_pid)
			p = s->procs[k];
	if (!p && s->cap)
		die("maps: pid %d is not in the capture (or its chunk was lost)",
		    (int)o->view_pid);
	if (!p)
		die("maps: pid %d was not scanned (it exited, or -p left it out)",
		    (int)o->view_pid);
	rows = top_rows(s->arena, p->nmap);
	/* Width from user addresses; one above 2^48 ([vsyscall]) takes more. */
	for (i = 0, m = p->map; m; m = m->next, i++) {
		rows[i] = m;
		while (aw < 12 && m->start >> (4 * aw))
			aw++;
	}
	sort_items(rows, p->nmap, V_MAPS, o->sort < 0 ? F_ADDRESS : o->sort);
	if (!o->noheader) {
		if (o->csv) {
			outs("pid,address,end,perms,offset,dev,inode,path");
			put_heads(o, NULL, 0);
			outs(",deleted,device\n");
		} else {
			outf("%-*s PERM OFFSET ", (int)aw, "ADDRESS");
			put_heads(o, maps_text_figs, nf);
			outs(" PATH\n");
		}
	}
	n = limit(o, p->nmap);
	for (i = 0; i < n; i++) {
		char perms[5], lead[64];
		const char *path;
		size_t used;

		m = rows[i];
		perms[0] = m->flags & MF_READ ? 'r' : '-';
		perms[1] = m->flags & MF_WRITE ? 'w' : '-';
		perms[2] = m->flags & MF_EXEC ? 'x' : '-';
		perms[3] = m->flags & MF_SHARED ? 's' : 'p';
		perms[4] = '\0';
		path = m->path[0] ? m->path : "[anon]";
		if (o->csv) {
			outf("%d,0x%llx,0x%llx,%s,%llu,%x:%x,%llu,", (int)p->pid,
			     (unsigned long long)m->start, (unsigned long long)m->end,
			     perms, (unsigned long long)m->offset, m->dev >> 20,
			     m->dev & 0xfffff, (unsigned long long)m->inode);
			csv_field(path, strlen(path));
			put_figs(o, &m->fig, NULL, 0);
			outf(",%d,%d\n", !!(m->flags & MF_DELETED), !!(m->flags & MF_DEVICE));
			continue;
		}
		used = snprintf(lead, sizeof(lead), "%0*llx %s %-7llx", (int)aw,
				(unsigned long long)m->start, perms,
				(unsigned long long)m->offset);
		outs(lead);
		put_figs(o, &m->fig, maps_text_figs, nf);
		outs(" ");
		put_text(path, path_room(used + nf * fig_width(o) + 1), 0);
		outs("\n");
	}
}

static void notes(const struct scan *s, const struct totals *t, const struct opts *o)
{
	struct eff diff;
	uint32_t lost = s->cap ? s->cap->lost : 0;
	/* without some processes' PTEs, the shares cannot add up */
	int bad = lost ? 0 : self_check(s, t, &diff);

	if (!o->csv && o->view == V_PROCS) {
		if (lost)
			outf("check: not made: %u process%s of the capture did not load\n",
			     lost, lost == 1 ? "" : "es");
		else
			outf("check: eff_mapped total = %llu distinct pages x %llu B: %s\n",
			     (unsigned long long)t->distinct, (unsigned long long)s->page_size,
			     bad ? "FAILED" : "ok");
		outf("source: %s\n", s->src->name);
		if (s->empty)
			outf("no user memory: %u process%s (kernel threads, zombies)\n",
			     s->empty, s->empty == 1 ? "" : "es");
		if (s->vanished)
			outf("vanished: %u process%s exited before or while being read\n",
			     s->vanished, s->vanished == 1 ? "" : "es");
	}
	if (bad) {
		warnx("self-check failed: eff_mapped total is off by %llu bytes",
		      (unsigned long long)diff.whole);
		exit_at_least(EX_PARTIAL);
	}
	if (s->unreadable)
		warnx("%u process%s could not be read: figures are partial",
		      s->unreadable, s->unreadable == 1 ? "" : "es");
}

void report(struct scan *s, const struct totals *t, const struct opts *o)
{
	switch (o->view) {
	case V_PROCS:
		view_procs(s, t, o);
		break;
	case V_FILES:
		view_files(s, o);
		break;
	case V_MAPS:
		view_maps(s, o);
		break;
	case V_SECTIONS:
	case V_SYMBOLS:
		view_elf_items(s, o);
		break;
	case V_ELF:
	case V_DUMP:
	case V_DIFF:
		break;
	}
	notes(s, t, o);
	out_flush();
}
