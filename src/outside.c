/* What the scan cannot see: pages others map too, by the kernel's map count. */
/*
 * A page is shared by every page table entry that maps it, seen or not: in
 * a PID namespace /proc lists the namespace's processes alone, and a
 * process that cannot be read is still there. Where either may be (cheap
 * facts: pidns.c's answer, and the scan's unreadable processes), each
 * shared page's count becomes the kernel's (kpagecount, or the module's),
 * which is what smaps divides its size by; the difference is the mappers
 * outside the view, whose share is said. Where pfns are hidden altogether
 * (no CAP_SYS_ADMIN in the init user namespace), smaps_rollup's figures
 * stand in for each process, sharing lost.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "outside.h"

#define COUNT_GAP	64		/* empty slots read through rather than a new read */

static uint64_t cbuf[COUNT_CHUNK];

/* Whether mappers may be hidden from this scan. */
static int hidden(const struct scan *s)
{
	return !(s->view & (OV_ONLY | OV_NOPFN)) && ((s->view & OV_PIDNS) || s->unreadable);
}

/* Why counts could not be read, said once; shares stay among those seen. */
static void no_counts(struct scan *s, int err)
{
	if (!(s->view & OV_NOCOUNT))
		warnerr(-err, "%s: no map counts: shares are among the processes seen",
			s->src->name);
	s->view = (s->view | OV_NOCOUNT) & ~OV_COUNTED;
	s->pt.hid = NULL;
}

/* The counts of frames [pfn, pfn + n) into cbuf, n <= COUNT_CHUNK: 0 or -errno. */
static int read_counts(struct scan *s, uint64_t pfn, size_t n)
{
	size_t got = 0;

	while (got < n) {
		ssize_t r = s->src->counts(s->src, pfn + got, cbuf + got, n - got);

		if (r < 0)
			return (int)r;
		if (r == 0)	/* past the end of memory: no page there */
			for (; got < n; got++)
				cbuf[got] = 0;
		got += (size_t)r;
	}
	return 0;
}

/*
 * Whether a frame of [frame, frame + n) is mapped more than once, where
 * mappers may be hidden: for an exclusive PMD whose first page alone was
 * asked (scan_settle).
 */
int outside_maps(struct scan *s, uint64_t frame, uint64_t n)
{
	uint64_t done, k;
	int err;

	if (!hidden(s) || !s->src->counts || (s->view & OV_NOCOUNT))
		return 0;
	for (done = 0; done < n; done += k) {
		k = n - done < COUNT_CHUNK ? n - done : COUNT_CHUNK;
		if ((err = read_counts(s, frame + done, (size_t)k)) < 0) {
			no_counts(s, err);
			return 0;
		}
		for (size_t j = 0; j < k; j++)
			if (cbuf[j] > 1)
				return 1;
	}
	return 0;
}

/* The slots [j0, j1) of the block at bucket b: their pages' counts raised to the kernel's. */
static int count_slots(struct scan *s, uint32_t b, uint64_t block, uint32_t j0, uint32_t j1)
{
	const uint32_t *slot = &s->pt.slot[(size_t)b * PT_BLOCK];
	uint32_t *count = s->pt.count, j;
	int err = read_counts(s, (block << PT_BLOCK_SHIFT) + j0, j1 - j0);

	if (err < 0)
		return err;
	for (j = j0; j < j1; j++) {
		uint32_t id = slot[j] - 1;
		uint64_t k = cbuf[j - j0];

		/* a page only a process that exited mapped is no one's now */
		if (!slot[j] || count[id] == 0 || k <= count[id])
			continue;
		if (k > UINT32_MAX / 2)
			k = UINT32_MAX / 2;
		s->pt.hid[id] = (uint32_t)k - count[id];
		count[id] = (uint32_t)k;
	}
	return 0;
}

/*
 * Where mappers may be hidden, each shared page in RAM counted as the
 * kernel counts it: its block's slots read in stretches, empty ones between
 * read through when few. Swap entries have no count to read: as seen.
 */
void outside_count(struct scan *s)
{
	struct ptab *t = &s->pt;
	uint32_t b;

	if (!hidden(s))
		return;
	if (!s->src->counts) {
		no_counts(s, -ENOTSUP);
		return;
	}
	s->view |= OV_COUNTED;
	t->hid = arena_alloc(s->arena, ((size_t)t->n + 1) * 4, 4);
	memset(t->hid, 0, ((size_t)t->n + 1) * 4);
	for (b = 0; b <= t->bmask; b++) {
		const uint32_t *slot = &t->slot[(size_t)b * PT_BLOCK];
		uint64_t block = t->bkey[b] - 1;
		uint32_t j = 0, j0, last;
		int err;

		if (!t->bkey[b] || block >= COOKIE_SWAP_TAG >> PT_BLOCK_SHIFT)
			continue;
		while (j < PT_BLOCK) {
			for (; j < PT_BLOCK && !slot[j]; j++)
				;
			if (j == PT_BLOCK)
				break;
			for (j0 = last = j; j < PT_BLOCK && j - last <= COUNT_GAP; j++)
				if (slot[j])
					last = j;
			if ((err = count_slots(s, b, block, j0, last + 1)) < 0) {
				no_counts(s, err);
				return;
			}
			j = last + 1;
		}
	}
}

/*
 * Each process's pages in RAM that processes outside the view map too, and
 * in all: the outside's share of them, and how many.
 */
void outside_totals(struct scan *s, struct totals *t)
{
	const uint32_t *hid = s->pt.hid, *count = s->pt.count;
	uint32_t i;

	if (!hid)
		return;
	for (i = 0; i < s->pt.n; i++)
		if (hid[i]) {
			eff_add(&t->outside, ((s->page_size << 32) / count[i]) * hid[i], 1);
			t->outside_pages++;
		}
	eff_norm(&t->outside);
	for (i = 0; i < s->nproc; i++) {
		struct proc *p = s->procs[i];
		const struct mapping *m;

		p->outside = 0;
		for (m = p->map; m; m = m->next)
			for (uint64_t r = 0; r < m->nrun; r++) {
				const struct run *x = scan_run(s, m->run0 + r);
				uint32_t n = run_pages(x), j;

				if (run_kind(x) != RUN_SHARED)
					continue;
				for (j = 0; j < n; j++)
					p->outside += hid[x->id + j] ? s->page_size : 0;
			}
	}
}

/*
 * Pfns hidden: each process as smaps_rollup gives it (Rss, Pss, Swap,
 * SwapPss, its private pages) and statm its size; no mapping, no page.
 */
static int rollup_one(struct scan *s, struct proc *p, int dir)
{
	static char buf[4096];
	static const char *const name[] = {
		"Rss", "Pss", "Swap", "SwapPss", "Private_Clean", "Private_Dirty",
	};
	uint64_t kb[6], vm;
	char comm[NAME_MAX_COMM], *sp;
	ssize_t n;
	size_t i;

	if ((n = read_line(dir, "comm", comm, sizeof(comm))) <= 0)
		return n < 0 ? (int)n : -ENOENT;
	comm[strcspn(comm, "\n")] = '\0';
	memcpy(p->name, comm, strlen(comm) + 1);
	if ((n = read_line(dir, "statm", buf, sizeof(buf))) <= 0 || !(sp = strchr(buf, ' ')))
		return n < 0 ? (int)n : -EPROTO;
	*sp = '\0';
	if (parse_u64(buf, UINT64_MAX >> 32, &vm) < 0)
		return -EPROTO;
	if (vm == 0)
		return 1;	/* no user memory: a kernel thread, a zombie */
	if ((n = read_small(dir, "smaps_rollup", buf, sizeof(buf))) < 0)
		return (int)n;
	if (n == 0)
		return 1;
	for (i = 0; i < 6; i++)
		if (kb_field(buf, name[i], &kb[i]) < 0)
			kb[i] = 0;
	p->fig.vm = vm * s->page_size;
	p->fig.resident = kb[0] << 10;
	p->fig.mapped = (kb[0] + kb[2]) << 10;
	p->fig.swap = kb[2] << 10;
	p->fig.eff_resident.whole = kb[1] << 10;
	p->fig.eff_mapped.whole = (kb[1] + kb[3]) << 10;
	p->fig.sole = (kb[4] + kb[5]) << 10;
	return 0;
}

void scan_rollups(struct scan *s, const pid_t *pids, size_t n)
{
	pid_t self = getpid();
	size_t i;

	s->view |= OV_NOPFN;
	s->source = "smaps_rollup";
	for (i = 0; i < n; i++) {
		struct proc *p;
		int dir, r = -ENOENT, why;

		if (pids[i] == self)
			continue;
		p = arena_alloc(s->arena, sizeof(*p), 8);
		memset(p, 0, sizeof(*p));
		p->pid = pids[i];
		if ((dir = open_pid_dir(pids[i])) >= 0) {
			r = rollup_one(s, p, dir);
			close(dir);
		}
		if (r == 0) {
			if (s->last)
				s->last->next = p;
			else
				s->first = p;
			s->last = p;
			s->nproc++;
			continue;
		}
		why = r == 1 ? P_EMPTY : r == -ENOENT || r == -ESRCH ? P_VANISHED : P_UNREADABLE;
		if (why == P_UNREADABLE) {
			warnerr(-r, "pid %d: reading smaps_rollup", (int)pids[i]);
			s->unreadable++;
		} else if (why == P_EMPTY) {
			s->empty++;
		} else {
			s->vanished++;
		}
		if (s->nabsent < ABSENT_MAX)
			s->absent[s->nabsent++] = (struct absent){ pids[i], why, -r };
		else
			s->absent_lost++;
	}
	if (s->unreadable)
		exit_at_least(EX_PARTIAL);
}
