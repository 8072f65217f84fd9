/* Pass one: every process's maps and page entries, as runs in the page table. */
/*
 * Pass one: read each process's maps and page entries, count every page's
 * PTEs in the page table, and keep each mapping's pages as run records. A
 * process that exits while being read is taken back out, counts and all.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "dmabuf.h"
#include "cgroup.h"

static char line[LINE_MAX_MAPS];
static struct linebuf maps_lb;

void scan_init(struct scan *s, struct arena *a, struct pagesrc *src,
	       uint32_t table_cap, uint32_t block_cap, const struct probe *probe)
{
	memset(s, 0, sizeof(*s));
	s->arena = a;
	s->runtop = (struct run *)(a->base + a->size - a->hi);
	s->src = src;
	s->probe = *probe;
	s->page_size = (uint64_t)getpagesize();	/* sysconf() brings getrlimit along */
	s->page_shift = __builtin_ctzll(s->page_size);
	src->page_shift = s->page_shift;
	s->source = src->name;
	s->suspect_tail = &s->suspects;
	ptab_init(&s->pt, a, table_cap, block_cap);
}

static uint64_t now_ms(void)
{
	return clock_ns(CLOCK_MONOTONIC) / 1000000;
}

/* After a second of scanning, where it is: at most five times a second. */
static void progress_tick(struct scan *s, const struct proc *p)
{
	char line[160];
	uint64_t t;

	if (!s->progress)
		return;
	t = now_ms();
	if (t - s->t0 < 1000 || t - s->tshown < 200)
		return;
	s->tshown = t;
	fmt_snprintf(line, sizeof(line), "%s: %zu of %zu processes read; reading pid %d (%.20s)",
		     progname, s->done, s->total, (int)p->pid, p->name);
	progress_show(line);
}

static int last_err;	/* why the last process found unreadable was (errno) */

/* Why a process could not be read: gone (not an error), or unreadable. */
static const pid_t *hush;	/* unreadable processes said before: not again */
static size_t nhush;

/* A watch says each unreadable process once, not at every sample. */
void scan_hush(const pid_t *pids, size_t n)
{
	hush = pids;
	nhush = n;
}

static enum outcome gone_or_bad(pid_t pid, int err, const char *what)
{
	size_t i;

	if (err == 0 || err == -ENOENT || err == -ESRCH)
		return P_VANISHED;
	for (i = 0; i < nhush && hush[i] != pid; i++)
		;
	if (i == nhush)
		warnerr(-err, "pid %d: %s", (int)pid, what);
	last_err = -err;
	return P_UNREADABLE;
}

static void store_run(struct scan *s, struct mapping *m)
{
	struct run *r = arena_alloc_top(s->arena, sizeof(*r), sizeof(*r));

	*r = s->pend;
	s->pend.nk = 0;
	m->nrun++;
	s->nrun++;
}

static _Noreturn void table_full(const struct scan *s)
{
	if (s->pt.n == s->pt.cap)
		die("page table full at %u distinct shared pages; raise it with -t PAGES",
		    s->pt.cap);
	die("page table full at %u blocks of %u pages (the shared pages are spread wide); "
	    "raise it with -t PAGES", s->pt.bcap, PT_BLOCK);
}

/* A swap entry's id: one more reference to it in the table. */
static uint32_t swap_id(struct scan *s, uint64_t e)
{
	uint32_t id = ptab_ref(&s->pt, SWAP_COOKIE(e));

	if (id == UINT32_MAX)
		table_full(s);
	return id;
}

/*
 * n pages of one kind (run_nk's, no pages) after the pages before: onto the
 * run pending when it is of that kind and, for shared and swap pages, their
 * ids go on from its; else the pending run is stored and these begin one.
 */
static inline void put_run(struct scan *s, struct mapping *m, uint32_t kind, uint32_t id,
			   uint64_t n)
{
	int ids = run_has_ids(nk_kind(kind));

	/* the id the next page had where it was met first, if it was met so */
	s->hint = ids ? id + (uint32_t)n : s->hint + (uint32_t)n;
	while (n > 0) {
		uint32_t pn = run_pages(&s->pend), k;

		/* its nk less its pages: its kind and write bit */
		if (pn && s->pend.nk - pn == kind && pn < RUN_PAGES_MAX &&
		    (!ids || id == s->pend.id + pn)) {
			k = n < RUN_PAGES_MAX - pn ? (uint32_t)n : RUN_PAGES_MAX - pn;
			s->pend.nk += k;
		} else {
			if (pn)
				store_run(s, m);
			k = n < RUN_PAGES_MAX ? (uint32_t)n : RUN_PAGES_MAX;
			s->pend.id = id;
			s->pend.nk = kind | k;
		}
		if (ids)
			id += k;
		n -= k;
	}
}

/*
 * An exclusive page's kind: written as the PTE says, or, without the PTE's
 * bit, when it is a private anonymous page in a writable mapping.
 */
static inline uint32_t excl_kind(const struct scan *s, uint64_t e, uint64_t wrote_mask)
{
	int w = s->src->exact_write ? (e & PE_WRITE) != 0 : !(e & wrote_mask);

	return run_nk(RUN_EXCL, w, 0);
}

/*
 * n present pages whose frames follow one another from entry e's, with e's
 * flags: a large folio, or frames that happen to lie together. Each stretch
 * of one kind is taken whole: shared pages block by block of the page table,
 * the zero pages' frames apart (not RAM).
 */
static void add_present(struct scan *s, struct mapping *m, uint64_t e, uint64_t n,
			uint64_t wrote_mask)
{
	const struct probe *pr = &s->probe;
	int w = s->src->exact_write && (e & PE_WRITE);

	while (n > 0) {
		uint64_t frame = e & PE_FRAME_MASK, k = n;
		uint32_t id;

		if ((e & PE_NOTRAM) || zero_frame(pr, frame)) {
			if (frame == pr->zero_pfn && !(e & PE_NOTRAM))
				k = 1;
			else if (!(e & PE_NOTRAM) && k > pr->hzero_pfn + pr->hzero_n - frame)
				k = pr->hzero_pfn + pr->hzero_n - frame;
			put_run(s, m, run_nk(RUN_NOTRAM, w, 0), 0, k);
		} else {
			/* up to the zero pages' frames, if they lie ahead */
			if (frame < pr->zero_pfn && k > pr->zero_pfn - frame)
				k = pr->zero_pfn - frame;
			if (frame < pr->hzero_pfn && k > pr->hzero_pfn - frame)
				k = pr->hzero_pfn - frame;
			if (e & PE_EXCLUSIVE) {
				put_run(s, m, excl_kind(s, e, wrote_mask), 0, k);
			} else {
				/* pfn 0 means hidden pfns: grouping by it would merge pages */
				if (frame == 0)
					die("pagemap reads page frame number 0: pfns are hidden "
					    "without CAP_SYS_ADMIN: %s", admin_hint());
				if ((k = ptab_run(&s->pt, frame, k, s->hint, &id)) == 0)
					table_full(s);
				put_run(s, m, run_nk(RUN_SHARED, w, 0), id, k);
			}
		}
		e += k;
		n -= k;
	}
}

/*
 * n exclusive pages a PMD maps, from frame f on: a run record of their own
 * (scan_settle may cut it in pieces), and noted for scan_settle.
 */
static void suspect_pmd(struct scan *s, struct mapping *m, uint32_t kind, uint64_t f, uint64_t n)
{
	struct suspect *x = arena_alloc(s->arena, sizeof(*x), 8);

	if (s->pend.nk)
		store_run(s, m);
	put_run(s, m, kind, 0, n);
	x->next = NULL;
	x->frame = f;
	x->run = s->nrun;
	x->n = (uint32_t)n;
	*s->suspect_tail = x;
	s->suspect_tail = &x->next;
	store_run(s, m);
}

/*
 * k exclusive pages of alike entries from pe on, the first at virtual page
 * vpn. Where the source's exclusive bit of a PMD mapping is its first
 * page's (pagemap's), the others' may be wrong: a stretch that is one, a
 * PMD-aligned PMD's worth of consecutive frames from a PMD-aligned frame,
 * is noted for scan_settle, which counts its pages in the page table if
 * another process maps some of them.
 */
static void add_excl(struct scan *s, struct mapping *m, uint32_t kind, const uint64_t *pe,
		     size_t k, uint64_t vpn)
{
	uint64_t hp = s->probe.pmd_pages, f;
	size_t j = 0, a, t;

	if (s->src->excl_by_head && hp && k >= hp)
		for (a = (size_t)((hp - vpn % hp) % hp); a + hp <= k; a += hp) {
			f = pe[a] & PE_FRAME_MASK;
			for (t = 1; t < hp && (pe[a + t] & PE_FRAME_MASK) == f + t; t++)
				;
			if (f % hp || t < hp)
				continue;
			put_run(s, m, kind, 0, a - j);
			suspect_pmd(s, m, kind, f, hp);
			j = a + hp;
		}
	put_run(s, m, kind, 0, k - j);
}

/*
 * Classify n entries of mapping m, the first at virtual page vpn, into runs:
 * the hot loop of a scan. Present entries go in runs of consecutive frames;
 * exclusive pages and holes in runs of alike entries, whatever their frames.
 */
static __attribute__((hot)) void add_pages(struct scan *s, struct mapping *m, const uint64_t *pe,
					   size_t n, uint64_t vpn)
{
	/* private anonymous memory, where an exclusive page was written */
	uint64_t wrote_mask = (m->flags & (MF_WRITE | MF_SHARED)) == MF_WRITE ? PE_FILE : ~0ull;
	uint64_t keep = s->src->keep;
	size_t i, k;

	for (i = 0; i < n; i += k) {
		uint64_t e = pe[i] & keep;

		if ((e & (PE_PRESENT | PE_EXCLUSIVE | PE_NOTRAM)) == (PE_PRESENT | PE_EXCLUSIVE) &&
		    !zero_frame(&s->probe, e & PE_FRAME_MASK)) {
			/* exclusive pages: whatever their frames, alike */
			for (k = 1; i + k < n && !(((pe[i + k] & keep) ^ e) & ~PE_FRAME_MASK); k++)
				;
			add_excl(s, m, excl_kind(s, e, wrote_mask), pe + i, k, vpn + i);
		} else if (e & PE_PRESENT) {
			for (k = 1; i + k < n && (pe[i + k] & keep) == e + k; k++)
				;
			add_present(s, m, e, k, wrote_mask);
		} else if (e & PE_SWAP) {
			k = 1;
			put_run(s, m, run_nk(RUN_SWAP, 0, 0), swap_id(s, e), 1);
		} else {
			for (k = 1; i + k < n && !(((pe[i + k] & keep) ^ e) & ~PE_FRAME_MASK); k++)
				;
			put_run(s, m, run_nk(RUN_HOLE, 0, 0), 0, k);
		}
	}
}

/*
 * k pages of mapping m as one PMD maps them (the source says so): entry e's,
 * then the next frames with its flags. Their frames are one folio's, or raw
 * frames all (the first tells). Where the source's exclusive bit is the
 * first page's, an exclusive PMD is noted for scan_settle.
 */
static void add_span(struct scan *s, struct mapping *m, uint64_t e, uint64_t k)
{
	uint64_t wrote_mask = (m->flags & (MF_WRITE | MF_SHARED)) == MF_WRITE ? PE_FILE : ~0ull;

	e &= s->src->keep;
	if ((m->flags & MF_RAWPFN) && s->src->unmapped && (e & (PE_PRESENT | PE_NOTRAM)) == PE_PRESENT &&
	    s->src->unmapped(s->src, e & PE_FRAME_MASK) == 1)
		e |= PE_NOTRAM;
	if ((e & (PE_EXCLUSIVE | PE_NOTRAM)) == PE_EXCLUSIVE && s->src->excl_by_head &&
	    !zero_frame(&s->probe, e & PE_FRAME_MASK))
		suspect_pmd(s, m, excl_kind(s, e, wrote_mask), e & PE_FRAME_MASK, k);
	else
		add_present(s, m, e, k, wrote_mask);
}

/* Present entries whose frame no page table maps as a page are not RAM. */
static void mark_raw(struct scan *s, uint64_t *pe, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if ((pe[i] & (PE_PRESENT | PE_NOTRAM)) == PE_PRESENT &&
		    s->src->unmapped(s->src, pe[i] & PE_FRAME_MASK) == 1)
			pe[i] |= PE_NOTRAM;
}

/*
 * Read the page entries of mappings first to last, which lie end to end, in
 * chunks into runs: one read serves neighbouring mappings (a library's
 * segments), and a hole costs one step.
 */
static enum outcome read_pages(struct scan *s, struct proc *p, struct mapping *first,
			       const struct mapping *last)
{
	struct mapping *m = first;
	uint64_t va = m->start, end = last->end;

	/* a huge page is a THP's PMD, unless a hugetlbfs file is among these */
	s->src->thp_range = 1;
	for (m = first; m != last->next; m = m->next)
		if (m->flags & MF_HUGETLB)
			s->src->thp_range = 0;
	m = first;
	m->run0 = s->nrun;
	while (va < end) {
		uint64_t left = (end - va) >> s->page_shift, hp = s->probe.pmd_pages;
		size_t want = left < PAGEMAP_CHUNK ? left : PAGEMAP_CHUNK;
		uint64_t *pe, n, span, e = 0;
		ssize_t got;

		/* a read short of the end ends where a PMD would, so that none
		 * is cut in two (one that reaches it reads as before) */
		if (hp && want > hp && want < left)
			want -= ((va >> s->page_shift) + want) % hp;
		got = s->src->read(s->src, va, end, &pe, want, &span);
		if (got < 0)
			return gone_or_bad(p->pid, (int)got, "reading page entries");
		if (got == 0 && span == 0) {
			ssize_t r;

			/* Nothing at va: past the task size ([vsyscall], above
			 * 2^63 always) if address 0 still reads, else the
			 * process has exited. */
			r = va > (uint64_t)INT64_MAX ? 1 :
			    s->src->read(s->src, 0, (uint64_t)1 << s->page_shift, &pe, 1, &span);
			if (r != 1 && !(r == 0 && span > 0))
				return P_VANISHED;
			span = left;
			pe = NULL;
		}
		if (got == 0 && pe)
			e = *pe;
		/* hand the pages (a hole, or a PMD) out to the mappings they are in */
		for (n = got ? (uint64_t)got : span < left ? span : left; n > 0;) {
			uint64_t k = (m->end - va) >> s->page_shift;

			if (k > n)
				k = n;
			if (got) {
				if ((m->flags & MF_RAWPFN) && s->src->unmapped)
					mark_raw(s, pe, k);
				add_pages(s, m, pe, k, va >> s->page_shift);
				pe += k;
			} else if (pe) {
				add_span(s, m, e, k);
				e += k;
			} else {
				put_run(s, m, run_nk(RUN_HOLE, 0, 0), 0, k);
			}
			va += k << s->page_shift;
			n -= k;
			if (va == m->end) {
				if (s->pend.nk)
					store_run(s, m);
				if (m != last) {
					m = m->next;
					m->run0 = s->nrun;
				}
			}
		}
		progress_tick(s, p);
	}
	return P_OK;
}

static enum outcome read_maps(struct scan *s, struct proc *p, int piddir)
{
	struct mapping **tail = &p->map;
	int fd = openat(piddir, "maps", O_RDONLY | O_CLOEXEC), r, toolong;
	unsigned lineno = 0;
	size_t len;

	if (fd < 0)
		return gone_or_bad(p->pid, -errno, "opening maps");
	lb_init(&maps_lb, fd);
	while ((r = lb_next(&maps_lb, line, sizeof(line), &len, &toolong)) > 0) {
		struct mapping *m = arena_alloc(s->arena, sizeof(*m), 8);
		const char *path;
		size_t plen;

		lineno++;
		if (parse_maps_line(line, len, m, &path, &plen) < 0) {
			close(fd);
			warnx("pid %d: maps line %u is malformed: %.80s", (int)p->pid,
			      lineno, line);
			return P_UNREADABLE;
		}
		if (toolong) {
			m->flags |= MF_TRUNCATED;
			warnx("pid %d: maps line %u is longer than %d bytes: its path is shown cut",
			      (int)p->pid, lineno, LINE_MAX_MAPS - 1);
		}
		m->path = arena_strdup(s->arena, path, plen);
		m->flags |= map_kind(piddir, m, s->probe.pmd_pages << s->page_shift);
		m->fig.vm = m->end - m->start;
		*tail = m;
		tail = &m->next;
		p->nmap++;
	}
	close(fd);
	if (r < 0)
		return gone_or_bad(p->pid, r, "reading maps");
	return p->nmap ? P_OK : P_EMPTY;
}

/* The arguments, NUL between them; cut at CMDLINE_MAX bytes, which diff says. */
static enum outcome get_cmdline(struct scan *s, struct proc *p, int piddir)
{
	static char buf[CMDLINE_MAX + 1];
	ssize_t n = read_cmdline(piddir, buf, sizeof(buf));

	if (n < 0)
		return gone_or_bad(p->pid, (int)n, "reading cmdline");
	p->cmdline = arena_strdup(s->arena, buf, (size_t)n);
	p->cmdlen = (uint32_t)n;
	return P_OK;
}

/* A process's command line read after its scan (a watch's new process):
 * none if it cannot be opened now (it exited). */
void scan_cmdline(struct scan *s, struct proc *p)
{
	int piddir = open_pid_dir(p->pid);

	if (piddir < 0)
		return;
	if (get_cmdline(s, p, piddir) != P_OK)
		p->cmdline = NULL, p->cmdlen = 0;
	close(piddir);
}

static enum outcome read_proc(struct scan *s, struct proc *p, int piddir)
{
	/* the name; for a watch, when it started, from stat */
	int err = s->want_start ? read_stat(piddir, p->name, &p->start) : read_comm(piddir, p->name);
	enum outcome o;
	struct mapping *m, *last;

	if (err < 0)
		return gone_or_bad(p->pid, err, s->want_start ? "reading stat" : "reading comm");
	if (s->want_cmdline && (o = get_cmdline(s, p, piddir)) != P_OK)
		return o;
	if (s->want_cgroup && (err = cg_read(s->arena, p, piddir)) <= 0)
		return gone_or_bad(p->pid, err, "reading cgroup");
	if ((o = read_maps(s, p, piddir)) != P_OK)
		return o;
	if ((err = s->src->open(s->src, piddir, p->pid)) < 0)
		return gone_or_bad(p->pid, err, "opening page entries");
	progress_tick(s, p);
	for (m = p->map; m; m = last->next) {
		uint64_t pages = (m->end - m->start) >> s->page_shift;

		/* small neighbours are read together */
		for (last = m; last->next && last->next->start == last->end &&
		     pages + ((last->next->end - last->next->start) >> s->page_shift) <=
		     PAGEMAP_CHUNK; last = last->next)
			pages += (last->next->end - last->next->start) >> s->page_shift;
		if ((o = read_pages(s, p, m, last)) != P_OK)
			break;
	}
	s->src->close(s->src);
	if (o == P_OK)	/* read whole: its dma-bufs and DRM clients (dmabuf.h) */
		dmabuf_proc(s, p, piddir);
	return o;
}

static void uncount(struct scan *s, const struct run *r)
{
	if (run_has_ids(run_kind(r)) && run_pages(r))
		ptab_drop(&s->pt, r->id, run_pages(r));
}

/* Take back the page counts of a process that could not be read whole. */
static void unwind(struct scan *s, uint64_t nrun0)
{
	uint64_t i;

	uncount(s, &s->pend);		/* a mapping cut short */
	s->pend.nk = 0;
	for (i = nrun0; i < s->nrun; i++)
		uncount(s, scan_run(s, i));
	s->nrun = nrun0;
}

static void scan_one(struct scan *s, pid_t pid)
{
	size_t lo = s->arena->lo, hi = s->arena->hi;
	uint64_t nrun0 = s->nrun;
	struct suspect **tail0 = s->suspect_tail;
	enum outcome o;
	struct proc *p = NULL;
	int piddir = open_pid_dir(pid);

	if (piddir < 0) {
		o = gone_or_bad(pid, piddir, "opening its /proc directory");
	} else {
		p = arena_alloc(s->arena, sizeof(*p), 8);
		memset(p, 0, sizeof(*p));
		p->pid = pid;
		o = read_proc(s, p, piddir);
		close(piddir);
	}
	if (o == P_OK) {
		if (s->last)
			s->last->next = p;
		else
			s->first = p;
		s->last = p;
		s->nproc++;
		return;
	}
	unwind(s, nrun0);
	*tail0 = NULL;		/* its suspects go with its runs */
	s->suspect_tail = tail0;
	s->arena->lo = lo;
	s->arena->hi = hi;
	if (o == P_VANISHED)
		s->vanished++;
	else if (o == P_UNREADABLE)
		s->unreadable++;
	else
		s->empty++;
	if (s->nabsent < ABSENT_MAX)
		s->absent[s->nabsent++] = (struct absent){ pid, o, o == P_UNREADABLE ? last_err : 0 };
	else
		s->absent_lost++;
}

void scan_procs(struct scan *s, const pid_t *pids, size_t n)
{
	pid_t self = getpid();
	size_t i;

	s->total = n;
	if (s->progress)
		s->t0 = now_ms();
	for (i = 0; i < n; i++, s->done++)
		if (pids[i] != self)
			scan_one(s, pids[i]);
	scan_settle(s);
	progress_clear();
	if (s->unreadable)
		exit_at_least(EX_PARTIAL);
}
