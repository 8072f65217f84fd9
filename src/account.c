/* Pass two: each mapping's figures from its runs, the files view's table, the self-check. */
/*
 * Pass two: with every PTE counted, each mapping's runs give its figures; a
 * shared page adds page_size / count to the effective sizes. Then processes
 * and files sum their mappings, and the totals are checked against the table.
 */
#include <string.h>

#include "exmap.h"
#include "outside.h"

static void map_figures(struct scan *s, struct mapping *m)
{
	struct fig *f = &m->fig;
	uint64_t i, ps = s->page_size, share = 0;
	uint32_t lastc = 0;

	for (i = 0; i < m->nrun; i++) {
		struct run *r = scan_run(s, m->run0 + i);
		uint32_t kind = run_kind(r), n = run_pages(r), j;
		const uint32_t *count = s->pt.count + r->id;

		switch (kind) {
		case RUN_EXCL:
			f->mapped += n;
			f->resident += n;
			f->sole += n;
			f->eff_mapped.whole += (uint64_t)n * ps;
			f->eff_resident.whole += (uint64_t)n * ps;
			if (run_written(r))
				m->eff_written.whole += (uint64_t)n * ps;
			break;
		case RUN_SHARED:
		case RUN_SWAP: {
			uint64_t sole = 0;

			f->mapped += n;
			if (kind == RUN_SHARED)
				f->resident += n;
			else
				f->swap += n;
			for (j = 0; j < n;) {
				/* a share is at most ps << 32 (2^48 at 64 KiB pages):
				 * 2^12 of them cannot overflow the sum */
				uint32_t end = n - j > 4096 ? j + 4096 : n;
				uint64_t acc = 0;

				while (j < end) {
					/* pages of one count: neighbours mostly are */
					uint32_t c = count[j], j0 = j;

					while (++j < end && count[j] == c)
						;
					if (c != lastc) {
						share = (ps << 32) / c;
						lastc = c;
					}
					if (c == 1)
						sole += j - j0;
					acc += share * (j - j0);
				}
				eff_add(&f->eff_mapped, acc, 1);
				if (kind == RUN_SHARED)
					eff_add(&f->eff_resident, acc, 1);
				if (kind == RUN_SHARED && run_written(r))
					eff_add(&m->eff_written, acc, 1);
			}
			f->sole += sole;
			break;
		}
		default:
			continue;
		}
		if (run_written(r))
			f->writable += n;
	}
	f->mapped *= ps;
	f->resident *= ps;
	f->sole *= ps;
	f->writable *= ps;
	f->swap *= ps;
}

void account(struct scan *s, struct totals *t)
{
	struct proc *p;
	uint32_t i;

	memset(t, 0, sizeof(*t));
	s->procs = arena_alloc(s->arena, (size_t)s->nproc * sizeof(*s->procs) + 1,
			       sizeof(void *));
	for (i = 0, p = s->first; p; p = p->next, i++) {
		struct mapping *m;

		s->procs[i] = p;
		for (m = p->map; m; m = m->next) {
			map_figures(s, m);
			fig_add(&p->fig, &m->fig);
		}
		fig_add(&t->fig, &p->fig);
	}
	for (i = 0; i < s->pt.n; i++)
		t->distinct += s->pt.count[i] != 0;
	for (i = 0; i < s->nrun; i++) {
		struct run *r = scan_run(s, i);

		if (run_kind(r) == RUN_EXCL)
			t->distinct += run_pages(r);
	}
	outside_totals(s, t);
}

/*
 * Every distinct page is shared out whole among its PTEs, so the effective
 * mapped sizes of all processes, and the share of those outside the view,
 * add up to distinct pages x page size, less the fixed-point floor of each
 * share (under 2^-32 bytes a PTE). 0 if it holds.
 */
int self_check(const struct scan *s, const struct totals *t, struct eff *diff)
{
	uint64_t want = t->distinct * s->page_size;
	struct eff sum = t->fig.eff_mapped;
	const struct eff *got = &sum;

	eff_sum(&sum, &t->outside);
	eff_norm(&sum);

	if (got->whole >= want) {
		diff->whole = got->whole - want;
		diff->frac = got->frac;
		return diff->whole == 0 && diff->frac == 0 ? 0 : -1;
	}
	/* got < want: the deficit, which must stay under one byte */
	diff->whole = want - got->whole - (got->frac != 0);
	diff->frac = got->frac ? (UINT64_C(1) << 32) - got->frac : 0;
	return diff->whole == 0 ? 0 : -1;
}

static const char *file_name(const struct mapping *m)
{
	return m->path[0] ? m->path : "[anon]";
}

/*
 * Whether m is the .bss of the file mapping prev before it: anonymous,
 * private and writable, right after a private writable mapping of a regular
 * file, where a loader maps the zero-filled rest of a data segment. It is
 * that file's in every view (and whatever the kernel merged into it with it).
 */
static int is_bss(const struct mapping *prev, const struct mapping *m)
{
	uint32_t rw = MF_READ | MF_WRITE | MF_SHARED;

	return prev && prev->end == m->start && m->inode == 0 && m->path[0] == '\0' &&
	       (m->flags & rw) == (MF_READ | MF_WRITE) && (prev->flags & rw) == (MF_READ | MF_WRITE) &&
	       prev->path[0] == '/' && prev->inode != 0 && !(prev->flags & MF_DEVICE);
}

/*
 * One file per distinct (path, device, inode, deleted); pseudo-files by name;
 * a file's .bss mapping is the file's. Built once; every mapping then names
 * its file (m->file).
 */
struct file *files_build(struct scan *s, uint32_t *nfile)
{
	uint64_t nmap = 0, slots = 16;
	uint32_t *tab, mask, n = 0, i;
	struct file *files;

	if (s->files) {
		*nfile = s->nfile;
		return s->files;
	}
	for (i = 0; i < s->nproc; i++)
		nmap += s->procs[i]->nmap;
	while (slots < 2 * nmap)
		slots <<= 1;
	tab = arena_alloc(s->arena, slots * 4, 4);
	memset(tab, 0, slots * 4);
	mask = slots - 1;
	files = arena_alloc(s->arena, (nmap + 1) * sizeof(*files), 8);
	for (i = 0; i < s->nproc; i++) {
		struct proc *p = s->procs[i];
		struct mapping *m, *prev = NULL;

		for (m = p->map; m; prev = m, m = m->next) {
			const char *name = file_name(m);
			uint32_t fl = m->flags & (MF_DELETED | MF_DEVICE);
			uint32_t h = hash_bytes(HASH_SEED ^ (uint32_t)m->inode ^ m->dev, name,
						strlen(name)) & mask;
			struct file *f;

			if (is_bss(prev, m)) {
				m->flags |= MF_BSS;
				m->file = prev->file;
				fig_add(&files[m->file].fig, &m->fig);
				continue;
			}
			for (; tab[h]; h = (h + 1) & mask) {
				f = &files[tab[h] - 1];
				if (f->inode == m->inode && f->dev == m->dev &&
				    (f->flags & MF_DELETED) == (fl & MF_DELETED) &&
				    strcmp(f->path, name) == 0)
					break;
			}
			if (!tab[h]) {
				f = &files[n];
				memset(f, 0, sizeof(*f));
				f->path = name;
				f->inode = m->inode;
				f->dev = m->dev;
				f->flags = fl;
				tab[h] = ++n;
			}
			f = &files[tab[h] - 1];
			m->file = tab[h] - 1;
			fig_add(&f->fig, &m->fig);
			if (f->lastpid != p->pid || f->nproc == 0) {
				f->nproc++;
				f->lastpid = p->pid;
			}
		}
	}
	s->files = files;
	s->nfile = n;
	*nfile = n;
	return files;
}

/* pid is in the list (an empty list: every pid is). */
int pid_in(pid_t pid, const pid_t *pids, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (pids[i] == pid)
			return 1;
	return n == 0;
}

/*
 * Mark what the report shows and sum it: a process's rfig over its shown
 * mappings, a file's over the shown processes' mappings of it, and the
 * total. The shares are the scan's: who maps a page is not filtered.
 */
void report_filter(struct scan *s, const pid_t *pids, size_t npid, uint32_t file,
		   struct fig *total, uint32_t *nshown)
{
	struct file *files;
	uint32_t nf, i;

	files = files_build(s, &nf);
	for (i = 0; i < nf; i++) {
		memset(&files[i].rfig, 0, sizeof(files[i].rfig));
		files[i].rnproc = 0;
		files[i].lastpid = 0;
	}
	memset(total, 0, sizeof(*total));
	*nshown = 0;
	for (i = 0; i < s->nproc; i++) {
		struct proc *p = s->procs[i];
		struct mapping *m;
		int any = 0;

		memset(&p->rfig, 0, sizeof(p->rfig));
		p->shown = pid_in(p->pid, pids, npid);
		for (m = p->map; m; m = m->next) {
			struct file *f = &files[m->file];

			m->flags &= ~MF_SHOWN;
			if (!p->shown || (file != UINT32_MAX && m->file != file))
				continue;
			m->flags |= MF_SHOWN;
			any = 1;
			fig_add(&p->rfig, &m->fig);
			fig_add(&f->rfig, &m->fig);
			if (f->lastpid != p->pid || f->rnproc == 0) {
				f->rnproc++;
				f->lastpid = p->pid;
			}
		}
		/* pfns hidden: smaps_rollup's figures, no mapping */
		if (!p->map && p->shown && file == UINT32_MAX)
			fig_add(&p->rfig, &p->fig);
		/* with -F, a process that does not map the file is not in it */
		if (file != UINT32_MAX && !any)
			p->shown = 0;
		if (p->shown) {
			fig_add(total, &p->rfig);
			(*nshown)++;
		}
	}
}
