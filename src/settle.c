/* The end of pass one: exclusive PMDs whose pages other processes map. */
/*
 * pagemap marks every page a PMD maps exclusive when its first page is
 * (Linux 6.15 to 6.18, and before 6.7), though a process that shared the
 * folio and then split its own mapping of it may still map the others. Such
 * a PMD was kept as a run of exclusive pages of its own and noted (a
 * suspect). Once every process is read, a suspect some of whose frames the
 * page table holds is counted there after all, page by page, and its record
 * becomes the shared runs that gives: the records after it move down to make
 * room, and the mappings' first runs with them.
 */
#include "exmap.h"

/* Whether a scanned process maps one of the frames [f, f + n) (not as a suspect). */
static int mapped_elsewhere(const struct scan *s, uint64_t f, uint64_t n)
{
	const uint32_t *slot = NULL;
	uint64_t j;

	for (j = 0; j < n; j++, f++) {
		if (j == 0 || (f & (PT_BLOCK - 1)) == 0)
			slot = ptab_slots(&s->pt, f);
		if (slot && slot[j & (PT_BLOCK - 1)] && s->pt.count[slot[j & (PT_BLOCK - 1)] - 1])
			return 1;
	}
	return 0;
}

void scan_settle(struct scan *s)
{
	uint64_t pages = 0, extra = 0, i, np = 0, ncut = 0, shift;
	struct suspect *x, **cut;
	struct run *piece;
	struct proc *p;

	ptab_sum(&s->pt);
	for (x = s->suspects; x; x = x->next)
		if (mapped_elsewhere(s, x->frame, x->n))
			pages += x->n, ncut++;
		else
			x->n = 0;	/* exclusive indeed */
	if (pages == 0)
		return;
	/* each record counted: its shared runs (x->frame: where they begin, x->n: how many) */
	piece = arena_alloc(s->arena, (size_t)pages * sizeof(*piece), 8);
	cut = arena_alloc(s->arena, (size_t)ncut * sizeof(*cut), 8);
	for (x = s->suspects, ncut = 0; x; x = x->next) {
		if (x->n == 0)
			continue;
		struct run *r = scan_run(s, x->run);
		uint64_t f = x->frame, left = x->n, first = np;
		uint32_t id, k;

		for (; left > 0; f += k, left -= k) {
			if ((k = ptab_run(&s->pt, f, left, UINT32_MAX, &id)) == 0)
				die("page table full at %u distinct shared pages; raise it with -t PAGES",
				    s->pt.cap);
			piece[np++] = (struct run){ id, run_nk(RUN_SHARED, run_written(r), k) };
		}
		x->frame = first;
		x->n = np - first;
		extra += x->n - 1;
		cut[ncut++] = x;
	}
	arena_alloc_top(s->arena, (size_t)extra * sizeof(struct run), sizeof(struct run));
	/*
	 * The records from the last, each down by the pieces added before it:
	 * where each goes is at or past where it is, and past every record not
	 * moved yet. Suspects counted are in record order.
	 */
	for (i = s->nrun, shift = extra; i-- > 0;) {
		if (ncut && (x = cut[ncut - 1])->run == i) {
			ncut--;
			shift -= x->n - 1;
			for (np = 0; np < x->n; np++)
				*scan_run(s, i + shift + np) = piece[x->frame + np];
		} else if (shift) {
			*scan_run(s, i + shift) = *scan_run(s, i);
		}
	}
	s->nrun += extra;
	/* each mapping's first run moves with the records before it, its count with its own */
	for (p = s->first, x = s->suspects, shift = 0; p; p = p->next) {
		struct mapping *m;

		for (m = p->map; m; m = m->next) {
			uint64_t end = m->run0 + m->nrun;

			for (; x && x->run < m->run0; x = x->next)
				shift += x->n ? x->n - 1 : 0;
			m->run0 += shift;
			for (; x && x->run < end; x = x->next)
				if (x->n) {
					m->nrun += x->n - 1;
					shift += x->n - 1;
				}
		}
	}
}
