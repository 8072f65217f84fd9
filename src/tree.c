/* The scan as a tree for pictures: process, file, section, symbol. */
/*
 * Each process's part of each file it maps, then, for an ELF file, that part
 * in sections and each section in symbols, as exmap's GUI drilled down.
 * File by file: an ELF file is read once and its symbols placed on one
 * process's pages at a time (elfview.c), so a library mapped by every
 * process costs one read. What cannot be shown deeper (anonymous memory, a
 * file that is not ELF or could not be read) stays whole at the file.
 */
#include <string.h>
#include <unistd.h>

#include "capture.h"
#include "elfitems.h"
#include "tree.h"

/* A process's mapping of a file: sorted by file, then process. */
struct pair {
	uint32_t file, proc;
	const struct mapping *m;
};

static int cmp_pair(const void *pa, const void *pb)
{
	const struct pair *a = pa, *b = pb;

	if (a->file != b->file)
		return (a->file > b->file) - (a->file < b->file);
	if (a->proc != b->proc)
		return (a->proc > b->proc) - (a->proc < b->proc);
	return (a->m->start > b->m->start) - (a->m->start < b->m->start);
}

/* The file's symbols by section: order[] lists them section after section. */
struct bysec {
	uint32_t *sec;		/* each symbol's section: a range, or nrange + k */
	uint32_t *first;	/* a section's first place in order */
	uint32_t *order;
	const char **extra;	/* sections that hold symbols but are no range */
	uint32_t nextra;
};

static void group_symbols(struct scan *s, const struct target *t, struct bysec *b)
{
	uint32_t i, r, n = t->nitem, nsec;

	b->sec = arena_alloc(s->arena, (size_t)n * 4 + 4, 4);
	b->extra = arena_alloc(s->arena, (size_t)n * sizeof(char *) + 1, 8);
	b->nextra = 0;
	for (i = 0; i < n; i++) {
		const char *sec = t->items[i].section;

		for (r = 0; r < t->nrange && t->ranges[r].name != sec; r++)
			;
		if (r == t->nrange) {	/* a symbol outside the sections: by its own */
			for (r = 0; r < b->nextra && strcmp(b->extra[r], sec); r++)
				;
			if (r == b->nextra)
				b->extra[b->nextra++] = sec;
			r += t->nrange;
		}
		b->sec[i] = r;
	}
	nsec = t->nrange + b->nextra;
	b->first = arena_alloc(s->arena, ((size_t)nsec + 1) * 4, 4);
	memset(b->first, 0, ((size_t)nsec + 1) * 4);
	for (i = 0; i < n; i++)
		b->first[b->sec[i] + 1]++;
	for (r = 0; r < nsec; r++)
		b->first[r + 1] += b->first[r];
	b->order = arena_alloc(s->arena, (size_t)n * 4 + 4, 4);
	{
		uint32_t *at = arena_alloc(s->arena, ((size_t)nsec + 1) * 4, 4);

		memcpy(at, b->first, ((size_t)nsec + 1) * 4);
		for (i = 0; i < n; i++)	/* in address order within a section */
			b->order[at[b->sec[i]]++] = i;
	}
}

/* One process's part of an ELF file, placed: its sections and their symbols. */
static void put_sections(const struct target *t, const struct bysec *b, struct tree_node *n,
			 void (*fn)(const struct tree_node *, void *), void *arg)
{
	uint32_t r, k, nsec = t->nrange + b->nextra;
	struct fig sec;

	for (r = 0; r < nsec; r++) {
		const struct elf_item *nosym = r < t->nrange ? &t->ranges[r] : NULL;

		memset(&sec, 0, sizeof(sec));
		if (nosym)
			sec = nosym->fig;
		for (k = b->first[r]; k < b->first[r + 1]; k++)
			fig_add(&sec, &t->items[b->order[k]].fig);
		if (!sec.vm)
			continue;	/* not in this process's mappings */
		n->level = TL_SECTION;
		n->name = nosym ? nosym->name : b->extra[r - t->nrange];
		n->fig = &sec;
		n->leaf = b->first[r] == b->first[r + 1];
		fn(n, arg);
		if (n->leaf)
			continue;
		n->level = TL_SYMBOL;
		n->leaf = 1;
		for (k = b->first[r]; k < b->first[r + 1]; k++) {
			const struct elf_item *it = &t->items[b->order[k]];

			if (!it->fig.vm)
				continue;
			n->name = it->name;
			n->fig = &it->fig;
			fn(n, arg);
		}
		if (nosym && nosym->fig.vm) {
			n->name = "[no symbol]";
			n->fig = &nosym->fig;
			fn(n, arg);
		}
	}
	if (t->outside.fig.vm) {
		n->level = TL_SECTION;
		n->name = t->outside.name;
		n->fig = &t->outside.fig;
		n->leaf = 1;
		fn(n, arg);
	}
}

/* A capture's file with no build-id: it was no ELF file on the board, or
 * one without an id; either way not one to say is missing. */
static int no_id(const struct scan *s, const struct file *f)
{
#ifdef EXMAP_NO_LOAD
	(void)s, (void)f;
	return 0;
#else
	const unsigned char *id;
	size_t len;

	return s->cap && capture_buildid(s->cap, f, &id, &len) == 0;
#endif
}

/*
 * Every shown process's part of every file, in preorder, to fn: file by
 * file, each process in scan order. -P and -F apply as report_filter set
 * them. Files whose sections could not be read are said, one line each.
 */
void tree_walk(struct scan *s, const struct opts *o,
	       void (*fn)(const struct tree_node *n, void *arg), void *arg,
	       struct tree_stats *st)
{
	struct opts to = *o;
	uint32_t nf, i, j, k, npair = 0;
	struct file *files = files_build(s, &nf);
	struct pair *pairs;
	size_t mark;
	uint64_t nmap = 0;

	memset(st, 0, sizeof(*st));
	to.view_section = NULL;
	for (i = 0; i < s->nproc; i++)
		nmap += s->procs[i]->nmap;
	pairs = arena_alloc(s->arena, (size_t)nmap * sizeof(*pairs) + 1, 8);
	for (i = 0; i < s->nproc; i++) {
		const struct mapping *m;

		if (!s->procs[i]->shown)
			continue;
		for (m = s->procs[i]->map; m; m = m->next)
			if (m->flags & MF_SHOWN)
				pairs[npair++] = (struct pair){ m->file, i, m };
	}
	sort(pairs, npair, sizeof(*pairs), cmp_pair);
	mark = s->arena->lo;
	for (i = 0; i < npair; i = j) {
		const struct file *f = &files[pairs[i].file];
		int elf = f->path[0] == '/' && !(f->flags & MF_DEVICE), placed_any = 0;
		struct target t;
		struct bysec b;

		for (j = i; j < npair && pairs[j].file == pairs[i].file; j++)
			;
		if (elf) {
			target_init(s, &to, pairs[i].file, 0, &t);
			t.quiet = 1;
		}
		for (k = i; k < j;) {
			struct proc *p = s->procs[pairs[k].proc];
			struct tree_node n = { TL_FILE, p, pairs[k].proc, pairs[k].file, f->path, NULL,
					       NULL, 1 };
			struct fig part;

			memset(&part, 0, sizeof(part));
			for (; k < j && s->procs[pairs[k].proc] == p; k++)
				fig_add(&part, &pairs[k].m->fig);
			n.fig = &part;
			if (!elf || t.broken || place_alone(s, &t, p) < 0) {
				st->left_out += elf && !t.broken;
				fn(&n, arg);
				continue;
			}
			if (!placed_any++)
				group_symbols(s, &t, &b);
			n.leaf = 0;
			fn(&n, arg);
			put_sections(&t, &b, &n, fn, arg);
		}
		if (elf && t.broken) {
			/* too short for an ELF header, or not one: a file of data; from
			 * a capture, one it names with no build-id and is not here */
			if (find_str(t.elf.err, "ELF identification") ||
			    find_str(t.elf.err, "not an ELF file") || no_id(s, f)) {
				st->other++;
			} else if (t.status == EX_DAMAGED) {
				st->unread++;	/* the capture's build-ids lost: said once, below */
				st->no_ids++;
			} else {
				st->unread++;
				warnx("%s: %s: shown whole, without its sections", f->path, t.elf.err);
			}
		} else if (elf && placed_any) {
			st->elf++;
			st->nosyms += t.nosyms;
		}
		if (elf && t.fd >= 0)
			close(t.fd);
		s->arena->lo = mark;	/* the file's items, given back */
	}
	if (st->no_ids)
		warnx("the capture's build-ids were lost: %u file%s shown whole, without %s sections",
		      st->no_ids, st->no_ids == 1 ? "" : "s", st->no_ids == 1 ? "its" : "their");
	say_gone(s);
}
