/* Captures: what a loaded capture lost, checked and named. */
/*
 * Captures: what a loaded capture lost. The share counts are checked against
 * the runs of the processes that loaded (and rebuilt from them where a count
 * chunk was lost), and every chunk that did not load is named on stderr with
 * the log lines it spans, why, and what that costs; then the exit status is 4.
 * The processes the board could not read are named too.
 * And a file's build-id, as the capture gives it (unknown if its chunk was lost).
 */
#include <stdio.h>
#include <string.h>

#include "capture.h"
#include "outside.h"

static void describe(const struct loader *L, uint32_t k, char *buf, size_t len)
{
	const struct chunkstate *c = &L->cs[k];
	uint32_t first;

	switch (cap_chunk_kind(&L->h, k)) {
	case CK_PROC:
		if (c->pid > 0)
			fmt_snprintf(buf, len, "pid %d", (int)c->pid);
		else
			fmt_snprintf(buf, len, "a process");
		break;
	case CK_ABSENT:
		fmt_snprintf(buf, len, "the unreadable processes");
		break;
	case CK_RAM:
		fmt_snprintf(buf, len, "the ram view");
		break;
	case CK_COUNT:
		first = (k - cap_first_count(&L->h)) * CAP_IDS_CHUNK;
		fmt_snprintf(buf, len, "share counts of pages %u-%u", first,
			     L->h.ids - first < CAP_IDS_CHUNK ? L->h.ids - 1 : first + CAP_IDS_CHUNK - 1);
		break;
	default:
		fmt_snprintf(buf, len, "build-ids");
	}
}

static int uses_lost(const struct loader *L, const struct proc *p, const uint8_t *lostc)
{
	const struct mapping *m;

	for (m = p->map; m; m = m->next)
		for (uint32_t i = 0; i < m->nrun; i++) {
			const struct run *r = scan_run(L->s, m->run0 + i);
			uint32_t kind = run_kind(r), n = run_pages(r);

			if (run_has_ids(kind))
				for (uint32_t j = 0; j < n; j++)
					if (lostc[(r->id + j) / CAP_IDS_CHUNK])
						return 1;
		}
	return 0;
}

/* Share counts: every PTE a loaded process holds must be in them. */
static void check_counts(struct loader *L, uint32_t lost_procs, uint8_t *lostc)
{
	struct scan *s = L->s;
	uint32_t *refs = arena_alloc(s->arena, (size_t)L->h.ids * 4 + 4, 4), i, seen;
	struct proc *p, **pp;
	int any_lost = 0;

	for (i = 0; i < cap_count_chunks(L->h.ids); i++)
		any_lost |= lostc[i];
	/*
	 * With pages of lost counts and lost processes, or mappers outside the
	 * view (in the counts, not in any process), shares cannot be known.
	 */
	if (any_lost && (lost_procs || s->pt.hid)) {
		for (pp = &s->first, s->last = NULL; (p = *pp) != NULL;) {
			if (uses_lost(L, p, lostc)) {
				warnx("%s: pid %d uses pages whose share counts are lost: left out",
				      L->path, (int)p->pid);
				*pp = p->next;
				s->nproc--;
				L->cap->lost++;
				continue;
			}
			s->last = p;
			pp = &p->next;
		}
	}
	arena_zero(s->arena, refs, (size_t)L->h.ids * 4);
	for (p = s->first; p; p = p->next)
		for (struct mapping *m = p->map; m; m = m->next)
			for (uint32_t k = 0; k < m->nrun; k++) {
				const struct run *r = scan_run(s, m->run0 + k);
				uint32_t n = run_pages(r);

				if (run_has_ids(run_kind(r)))
					for (uint32_t j = 0; j < n; j++)
						refs[r->id + j]++;
			}
	for (i = 0; i < L->h.ids; i++) {
		if (lostc[i / CAP_IDS_CHUNK]) {
			uint32_t c = lost_procs ? 0 : refs[i];

			if (s->pt.count[i] != c)	/* untouched pages stay untouched */
				s->pt.count[i] = c;
			if (s->pt.hid && s->pt.hid[i])
				s->pt.hid[i] = 0;
			continue;
		}
		/* mappers outside the view are in the count, not in the processes */
		seen = s->pt.count[i] - (s->pt.hid ? s->pt.hid[i] : 0);
		if (refs[i] > seen || (!L->cap->lost && refs[i] != seen) || seen > s->pt.count[i])
			die_status(EX_DAMAGED, "%s: inconsistent capture: page %u has a share count of %u, "
				    "but the processes map it %u times", L->path, i, seen, refs[i]);
	}
}

/* Name every chunk that did not load, what it held, and what that costs. */
static void report_lost(struct loader *L, uint32_t lost_procs)
{
	uint32_t k, lost = 0;
	char what[64], where[96];

	for (k = 1; k <= L->h.chunks; k++) {
		struct chunkstate *c = &L->cs[k];
		const char *cost;

		if (c->state == CS_OK)
			continue;
		lost++;
		describe(L, k, what, sizeof(what));
		switch (cap_chunk_kind(&L->h, k)) {
		case CK_PROC:
			cost = "that process is left out of every view";
			break;
		case CK_RAM:
			cost = "the ram view cannot be shown";
			break;
		case CK_ABSENT:
			/* and chunk 1's dma-bufs' line: without it, whether they were read */
			cost = L->h.unreadable ? "which processes could not be read, and the "
			       "processes' dma-bufs, are not known" :
			       "it named none; the processes' dma-bufs are not known";
			break;
		case CK_COUNT:
			cost = lost_procs || L->s->pt.hid ? "processes that use those pages are left out" :
			       "recomputed from the pages of the processes, which all loaded";
			break;
		default:
			cost = "files cannot be checked against a sysroot (-S)";
		}
		if (c->state == CS_UNSEEN) {
			uint32_t e = k;	/* missing chunks of a kind in a row: one line */

			while (e < L->h.chunks && L->cs[e + 1].state == CS_UNSEEN &&
			       cap_chunk_kind(&L->h, e + 1) == cap_chunk_kind(&L->h, k))
				e++;
			if (e == k) {
				warnx("%s: chunk %u of %u (%s): missing from the log: %s", L->path,
				      k, L->h.chunks, what, cost);
				continue;
			}
			if (cap_chunk_kind(&L->h, k) == CK_PROC)
				warnx("%s: chunks %u-%u of %u (processes): missing from the log: "
				      "those processes are left out of every view", L->path, k, e,
				      L->h.chunks);
			else
				warnx("%s: chunks %u-%u of %u (share counts): missing from the log: "
				      "%s", L->path, k, e, L->h.chunks, cost);
			lost += e - k;
			k = e;
			continue;
		}
		where[0] = '\0';
		if (c->want && c->got != c->want)
			fmt_snprintf(where, sizeof(where), ": %u of its %u arrived", c->got, c->want);
		if (c->line)
			fmt_snprintf(where + strlen(where), sizeof(where) - strlen(where),
				     "; line %llu does not parse", (unsigned long long)c->line);
		warnx("%s: chunk %u of %u (%s), log lines %llu-%llu: %s%s: %s", L->path, k,
		      L->h.chunks, what, (unsigned long long)c->first, (unsigned long long)c->last,
		      c->why, where, cost);
	}
	if (lost) {
		warnx("%s: %u of %u chunks lost; %u of %u processes loaded", L->path, lost,
		      L->h.chunks, L->h.procs - L->cap->lost, L->h.procs);
		exit_at_least(EX_DAMAGED);
	}
}

/* The processes the board could not read, each named with its reason. */
static void name_unreadable(struct loader *L)
{
	struct capabsent *a, *next, *rev = NULL;
	uint32_t n = L->h.unreadable;

	for (a = L->cap->absent; a; a = next) {	/* into the dump's order */
		next = a->next;
		a->next = rev;
		rev = a;
	}
	L->cap->absent = rev;
	for (a = rev; a; a = a->next)
		warnx("%s: pid %d could not be read when the capture was taken: %s", L->path,
		      (int)a->pid, a->why);
	if (!n || L->cap->nabsent == n)
		return;
	if (L->h.version == 1)
		warnx("%s: %u process%s could not be read when the capture was taken (a v1 "
		      "capture does not name them)", L->path, n, n == 1 ? "" : "es");
	else if (L->cap->absent_lost)
		warnx("%s: %u process%s could not be read when the capture was taken (which, "
		      "the chunk that named them was to say)", L->path, n, n == 1 ? "" : "es");
	else
		warnx("%s: and %u more that could not be read (a capture names %d at most)",
		      L->path, n - L->cap->nabsent, ABSENT_MAX);
}

/* After the chunks are read: the counts checked, the losses and the unreadable named. */
void capture_check(struct loader *L)
{
	const struct cap_header *h = &L->h;
	uint32_t k, lost_procs, nc = cap_count_chunks(h->ids);
	uint8_t *lostc = arena_alloc(L->s->arena, nc + 1, 1);

	for (k = 0; k < nc; k++)
		lostc[k] = L->cs[cap_first_count(h) + k].state != CS_OK;
	L->cap->bid_lost = L->cs[h->chunks].state != CS_OK;
	L->cap->absent_lost = h->version != 1 && L->cs[1].state != CS_OK;
	L->cap->ram_lost = h->version != 1 && L->cs[2].state != CS_OK;
	lost_procs = h->procs - L->loaded_procs;
	L->cap->lost = lost_procs;
	/* mappers outside the view counted: as chunk 1 says, or, it lost, as the counts do */
	if (L->s->view & OV_COUNTED || (L->cap->absent_lost && L->xseen)) {
		L->s->view |= OV_COUNTED;
		L->s->pt.hid = L->hid;
		for (k = nc; k-- > 0;)
			if (lostc[k])
				L->cap->counts_lost = cap_first_count(h) + k;
	}
	check_counts(L, lost_procs, lostc);
	report_lost(L, lost_procs);
	name_unreadable(L);
}

/* A mapped file's build-id in the capture (its build-id chunk lost: -1). */
int capture_buildid(const struct capture *c, const struct file *f,
		    const unsigned char **id, size_t *len)
{
	const struct capbid *b;

	for (b = c->bid; b; b = b->next)
		if (b->inode == f->inode && b->dev == f->dev &&
		    (b->flags & MF_DELETED) == (f->flags & MF_DELETED) &&
		    strcmp(b->path, f->path) == 0) {
			*id = b->id;
			*len = b->len;
			return 1;
		}
	return c->bid_lost ? -1 : 0;
}
