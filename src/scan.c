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
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "exmap.h"

static char line[LINE_MAX_MAPS];
static struct linebuf maps_lb;

struct run *scan_run(const struct scan *s, uint64_t i)
{
	return s->runtop - 1 - i;
}

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

/* A page's id, found in the block of the last one counted when it is there. */
static inline __attribute__((always_inline)) uint32_t page_id(struct scan *s, uint64_t cookie)
{
	struct ptab *t = &s->pt;
	uint32_t b = t->last, slot, id;

	if (t->bkey[b] == (cookie >> PT_BLOCK_SHIFT) + 1 &&
	    (slot = t->slot[(size_t)b * PT_BLOCK + (cookie & (PT_BLOCK - 1))]) != 0) {
		t->count[slot - 1]++;
		return slot - 1;
	}
	if ((id = ptab_ref(t, cookie)) == UINT32_MAX)
		table_full(s);
	return id;
}

/*
 * Classify n entries of mapping m into runs: the hot loop of a scan. The run
 * being extended lives in locals (nk, id) and goes back to s->pend at the
 * end; kinds are compared in the record's packed form (kind << 28 | write).
 */
static __attribute__((hot)) void add_pages(struct scan *s, struct mapping *m, const uint64_t *pe, size_t n)
{
	const struct probe *pr = &s->probe;
	const uint32_t EXCL = RUN_EXCL << RUN_KIND_SHIFT, SHARED = RUN_SHARED << RUN_KIND_SHIFT;
	const uint32_t HOLE = RUN_HOLE << RUN_KIND_SHIFT, SWAP = RUN_SWAP << RUN_KIND_SHIFT;
	const uint32_t NOTRAM = RUN_NOTRAM << RUN_KIND_SHIFT;
	int exact = s->src->exact_write;
	/* Without the PTE's bit: a private anonymous page this process alone
	 * maps in a writable mapping is one it wrote. */
	uint64_t wrote_mask = (m->flags & (MF_WRITE | MF_SHARED)) == MF_WRITE ? PE_FILE : ~0ull;
	uint32_t nk = s->pend.nk, pid = s->pend.id;
	uint64_t keep = s->src->keep;
	size_t i;

	for (i = 0; i < n; i++) {
		uint64_t e = pe[i] & keep, frame = e & PE_FRAME_MASK;
		uint32_t kind, id = 0;

		if (e & PE_PRESENT) {
			uint32_t w = exact ? (e & PE_WRITE ? RUN_WRITE : 0) : 0;

			if ((e & PE_NOTRAM) || frame == pr->zero_pfn ||
			    frame - pr->hzero_pfn < pr->hzero_n) {
				kind = NOTRAM | w;
			} else if (e & PE_EXCLUSIVE) {
				kind = EXCL | (exact ? w : !(e & wrote_mask) ? RUN_WRITE : 0);
			} else {
				/* pfn 0 means hidden pfns: grouping by it would merge pages */
				if (frame == 0)
					die("pagemap reads page frame number 0: pfns are hidden "
					    "from this user; run exmap-mini as root");
				kind = SHARED | w;
				id = page_id(s, frame);
			}
		} else if (e & PE_SWAP) {
			kind = SWAP;
			id = page_id(s, SWAP_COOKIE(e));
		} else {
			kind = HOLE;
		}
		/* extend the run: same kind, and for shared and swap the next id */
		if ((nk & ~RUN_N_MASK) == kind && (nk & RUN_N_MASK) &&
		    (nk & RUN_N_MASK) < RUN_PAGES_MAX &&
		    ((kind & ~RUN_WRITE) < SHARED || id == pid + (nk & RUN_N_MASK))) {
			nk++;
		} else {
			if (nk & RUN_N_MASK) {
				s->pend.nk = nk;
				s->pend.id = pid;
				store_run(s, m);
			}
			nk = kind | 1;
			pid = id;
		}
		/*
		 * The pages that follow mostly go on as this one did: the same
		 * flags, and a shared page the next frame with the next id
		 * (other processes met them in this order first). Take them
		 * without classifying each again.
		 */
		if ((kind & ~RUN_WRITE) == SHARED) {
			const uint32_t *sp = &s->pt.slot[(size_t)s->pt.last * PT_BLOCK +
							 (frame & (PT_BLOCK - 1))];

			while (i + 1 < n && (pe[i + 1] & keep) == e + 1 && ((frame + 1) & (PT_BLOCK - 1)) &&
			       sp[1] == pid + (nk & RUN_N_MASK) + 1 &&
			       (nk & RUN_N_MASK) < RUN_PAGES_MAX) {
				s->pt.count[pid + (nk & RUN_N_MASK)]++;
				nk++;
				sp++;
				e++;
				frame++;
				i++;
			}
		} else if ((kind & ~RUN_WRITE) == EXCL || kind == HOLE) {
			uint64_t flags = e & ~PE_FRAME_MASK;

			while (i + 1 < n && (pe[i + 1] & keep & ~PE_FRAME_MASK) == flags &&
			       (nk & RUN_N_MASK) < RUN_PAGES_MAX) {
				nk++;
				i++;
			}
		}
	}
	s->pend.nk = nk;
	s->pend.id = pid;
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

/* n pages of a hole: onto a hole pending, else in runs of at most RUN_PAGES_MAX. */
static void add_hole(struct scan *s, struct mapping *m, uint64_t n)
{
	const uint32_t HOLE = RUN_HOLE << RUN_KIND_SHIFT;
	struct run *p = &s->pend;

	while (n > 0) {
		uint32_t pn = run_pages(p), k;

		if (pn && (p->nk & ~RUN_N_MASK) == HOLE && pn < RUN_PAGES_MAX) {
			k = n < RUN_PAGES_MAX - pn ? (uint32_t)n : RUN_PAGES_MAX - pn;
			p->nk += k;
		} else {
			if (pn)
				store_run(s, m);
			k = n < RUN_PAGES_MAX ? (uint32_t)n : RUN_PAGES_MAX;
			p->id = 0;
			p->nk = HOLE | k;
		}
		n -= k;
	}
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
	uint64_t va = m->start, end = last->end, hole;

	m->run0 = s->nrun;
	while (va < end) {
		uint64_t left = (end - va) >> s->page_shift;
		size_t want = left < PAGEMAP_CHUNK ? left : PAGEMAP_CHUNK;
		uint64_t *pe, n;
		ssize_t got = s->src->read(s->src, va, end, &pe, want, &hole);

		if (got < 0)
			return gone_or_bad(p->pid, (int)got, "reading page entries");
		if (got == 0 && hole == 0) {
			ssize_t r;

			/* Nothing at va: past the task size ([vsyscall], above
			 * 2^63 always) if address 0 still reads, else the
			 * process has exited. */
			r = va > (uint64_t)INT64_MAX ? 1 :
			    s->src->read(s->src, 0, (uint64_t)1 << s->page_shift, &pe, 1, &hole);
			if (r != 1 && !(r == 0 && hole > 0))
				return P_VANISHED;
			hole = left;
		}
		/* hand the pages (or the hole) out to the mappings they are in */
		for (n = got ? (uint64_t)got : hole < left ? hole : left; n > 0;) {
			uint64_t k = (m->end - va) >> s->page_shift;

			if (k > n)
				k = n;
			if (got) {
				if ((m->flags & MF_RAWPFN) && s->src->unmapped)
					mark_raw(s, pe, k);
				add_pages(s, m, pe, k);
				pe += k;
			} else {
				add_hole(s, m, k);
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

/* A character or block device's mapping (a label: its pages are read as any others). */
static int is_device(int piddir, const struct mapping *m, const char *path)
{
	char name[64];
	struct stat st;

	if (strncmp(path, "/dev/", 5) != 0 || strncmp(path, "/dev/shm/", 9) == 0)
		return 0;
	fmt_snprintf(name, sizeof(name), "map_files/%llx-%llx",
		     (unsigned long long)m->start, (unsigned long long)m->end);
	if (fstatat(piddir, name, &st, 0) < 0)
		return 0;
	return S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode);
}

/*
 * Whether a mapping may hold frames the kernel maps without a page (which
 * Rss leaves out): not anonymous memory and not a regular file, so a device,
 * or a mapping the kernel named ([vvar], [vdso], anon_inode:...). What is RAM
 * there is the kernel's to say, page by page (pagesrc's unmapped).
 */
static int may_map_raw(const struct mapping *m)
{
	const char *p = m->path;

	if (m->flags & MF_DEVICE)
		return 1;
	if (p[0] == '\0' || (p[0] == '/' && strncmp(p, "/dev/", 5) != 0))
		return 0;
	return strcmp(p, "[heap]") != 0 && strncmp(p, "[stack", 6) != 0 &&
	       strncmp(p, "[anon", 5) != 0;
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
		if (m->inode != 0 && is_device(piddir, m, m->path))
			m->flags |= MF_DEVICE;
		if (may_map_raw(m))
			m->flags |= MF_RAWPFN;
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
static enum outcome read_cmdline(struct scan *s, struct proc *p, int piddir)
{
	static char buf[CMDLINE_MAX];
	int fd = openat(piddir, "cmdline", O_RDONLY | O_CLOEXEC);
	size_t n = 0;
	ssize_t r;

	if (fd < 0)
		return gone_or_bad(p->pid, -errno, "opening cmdline");
	while (n < sizeof(buf) && (r = read(fd, buf + n, sizeof(buf) - n)) != 0) {
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int err = errno;

			close(fd);
			return gone_or_bad(p->pid, -err, "reading cmdline");
		}
		n += r;
	}
	close(fd);
	while (n && buf[n - 1] == '\0')
		n--;
	p->cmdline = arena_strdup(s->arena, buf, n);
	p->cmdlen = n;
	return P_OK;
}

/* When the process started, in clock ticks since boot: with its pid, what
 * tells it from a later process given the same pid (stat's 22nd field). */
static enum outcome read_start(struct proc *p, int piddir)
{
	char buf[1024], *q, *e;
	ssize_t n = read_small(piddir, "stat", buf, sizeof(buf));
	int field;

	if (n <= 0)
		return gone_or_bad(p->pid, (int)n, "reading stat");
	/* after the name in parentheses, which may hold anything: field 3 on */
	q = strrchr(buf, ')');
	for (field = 2; q && field < 22; field++)
		q = strchr(q + 1, ' ');
	if (!q || !(e = strchr(q + 1, ' ')) || (*e = '\0', parse_u64(q + 1, UINT64_MAX, &p->start)) < 0)
		return gone_or_bad(p->pid, -EPROTO, "reading stat");
	return P_OK;
}

static enum outcome read_proc(struct scan *s, struct proc *p, int piddir)
{
	char comm[NAME_MAX_COMM];
	ssize_t n = read_line(piddir, "comm", comm, sizeof(comm));
	enum outcome o = P_OK;
	struct mapping *m, *last;
	int err;

	if (n <= 0)
		return gone_or_bad(p->pid, (int)n, "reading comm");
	if (comm[n - 1] == '\n')
		comm[--n] = '\0';
	memcpy(p->name, comm, n + 1);
	if (s->want_cmdline && (o = read_cmdline(s, p, piddir)) != P_OK)
		return o;
	if (s->want_start && (o = read_start(p, piddir)) != P_OK)
		return o;
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
	return o;
}

static void uncount(struct scan *s, const struct run *r)
{
	uint32_t k = run_kind(r), n = run_pages(r), j;

	if (run_has_ids(k))
		for (j = 0; j < n; j++)
			s->pt.count[r->id + j]--;
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
	progress_clear();
	if (s->unreadable)
		exit_at_least(EX_PARTIAL);
}
