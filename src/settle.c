/* The end of pass one: exclusive PMDs whose pages other processes map. */
/*
 * pagemap marks every page a PMD maps exclusive when its first page is
 * (Linux 6.15 to 6.18, and before 6.7), though a process that shared the
 * folio and then split its own mapping of it may still map the others. Such
 * a PMD was kept as exclusive pages and noted (a suspect). Once every
 * process is read, a suspect some of whose frames the page table holds is
 * counted there after all, page by page, and its run record is cut into
 * shared runs and the exclusive pages around them: the records after it
 * move down to make room, and the mappings' first runs with them.
 */
#include "exmap.h"

/* A record cut in pieces: its index, and where its pieces are. */
struct cut {
	uint64_t run;
	uint64_t first;		/* in the pieces */
	uint32_t n;
};

/* Whether a scanned process maps one of the frames [f, f + n) (other than as the suspect). */
static int mapped_elsewhere(const struct scan *s, uint64_t f, uint64_t n)
{
	while (n > 0) {
		const uint32_t *slot = ptab_slots(&s->pt, f);
		uint64_t k = PT_BLOCK - (f & (PT_BLOCK - 1)), j;

		if (k > n)
			k = n;
		for (j = 0; slot && j < k; j++)
			if (slot[j] && s->pt.count[slot[j] - 1])
				return 1;
		f += k;
		n -= k;
	}
	return 0;
}

/* A suspect's pages counted in the page table, as shared runs of kind into out: how many. */
static uint64_t count_pages(struct scan *s, const struct suspect *x, uint32_t kind,
			    struct run *out)
{
	uint64_t f = x->frame, left = x->n, nout = 0;
	uint32_t id, k;

	while (left > 0) {
		if ((k = ptab_run(&s->pt, f, left, UINT32_MAX, &id)) == 0)
			die("page table full at %u distinct shared pages; raise it with -t PAGES",
			    s->pt.cap);
		if (nout && out[nout - 1].id + run_pages(&out[nout - 1]) == id)
			out[nout - 1].nk += k;
		else
			out[nout++] = (struct run){ id, kind | k };
		f += k;
		left -= k;
	}
	return nout;
}

/* The pieces of the records with suspects counted: the cuts, how many. */
static uint64_t cut_records(struct scan *s, struct cut *cut, struct run *piece)
{
	struct suspect *x = s->suspects, *y;
	uint64_t ncut = 0, np = 0;

	for (; x; x = y) {
		struct run r = *scan_run(s, x->run);
		uint32_t at = 0, head = r.nk & ~RUN_N_MASK;
		uint64_t first = np;

		for (y = x; y && y->run == x->run; y = y->next) {
			if (y->n == 0)
				continue;
			if (y->off > at)
				piece[np++] = (struct run){ r.id, head | (y->off - at) };
			np += count_pages(s, y, RUN_SHARED << RUN_KIND_SHIFT | (r.nk & RUN_WRITE),
					  piece + np);
			at = y->off + y->n;
		}
		if (np == first)
			continue;	/* none counted in this record */
		if (at < run_pages(&r))
			piece[np++] = (struct run){ r.id, head | (run_pages(&r) - at) };
		cut[ncut++] = (struct cut){ x->run, first, (uint32_t)(np - first) };
	}
	return ncut;
}

void scan_settle(struct scan *s)
{
	uint64_t pages = 0, nsus = 0, ncut, extra = 0, i, d, shift;
	struct suspect *x;
	struct cut *cut;
	struct run *piece;
	struct proc *p;

	ptab_sum(&s->pt);
	for (x = s->suspects; x; x = x->next, nsus++)
		if (mapped_elsewhere(s, x->frame, x->n))
			pages += x->n;
		else
			x->n = 0;	/* exclusive indeed */
	if (pages == 0)
		return;
	cut = arena_alloc(s->arena, (size_t)nsus * sizeof(*cut), 8);
	piece = arena_alloc(s->arena, (size_t)(pages + 2 * nsus) * sizeof(*piece), 8);
	ncut = cut_records(s, cut, piece);
	for (d = 0; d < ncut; d++)
		extra += cut[d].n - 1;
	arena_alloc_top(s->arena, (size_t)extra * sizeof(struct run), sizeof(struct run));
	/*
	 * The records from the last, each down by the pieces added before it:
	 * where each goes is at or past where it is, and past every record not
	 * moved yet.
	 */
	shift = extra;
	d = ncut;
	for (i = s->nrun; i-- > 0;) {
		if (d > 0 && cut[d - 1].run == i) {
			uint32_t j;

			d--;
			shift -= cut[d].n - 1;
			for (j = 0; j < cut[d].n; j++)
				*scan_run(s, i + shift + j) = piece[cut[d].first + j];
		} else if (shift) {
			*scan_run(s, i + shift) = *scan_run(s, i);
		}
	}
	s->nrun += extra;
	/* each mapping's first run moves with the records before it, its count with its own */
	for (p = s->first, d = 0, shift = 0; p; p = p->next) {
		struct mapping *m;

		for (m = p->map; m; m = m->next) {
			uint64_t end = m->run0 + m->nrun;

			while (d < ncut && cut[d].run < m->run0)
				shift += cut[d++].n - 1;
			m->run0 += shift;
			for (; d < ncut && cut[d].run < end; d++) {
				m->nrun += cut[d].n - 1;
				shift += cut[d].n - 1;
			}
		}
	}
}
