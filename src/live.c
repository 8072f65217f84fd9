/* A scan of this machine: the arena sized for it, the processes listed, read. */
#include <unistd.h>

#include "dmabuf.h"
#include "cgroup.h"

/* Count the processes: a first pass over /proc, for sizing. */
static int count_one(pid_t pid, void *arg)
{
	(void)pid;
	(*(size_t *)arg)++;
	return 0;
}

/* The pids, one after another in the arena. */
struct pid_list {
	struct arena *arena;
	pid_t *pids;
	size_t n;
};

static int list_one(pid_t pid, void *arg)
{
	struct pid_list *l = arg;
	pid_t *p = arena_alloc(l->arena, sizeof(pid_t), sizeof(pid_t));

	if (l->n++ == 0)
		l->pids = p;
	*p = pid;
	return 0;
}

/*
 * The arena holds the page table, RECORD_BYTES for each process's mappings
 * and names, a fixed base, ARENA_ELF for the sections and symbols views, and
 * a run record (8 bytes) for every run of pages of every process: as many as
 * their resident and swapped pages at worst, which nothing tells in advance
 * but reading them all. It is reserved without access and opened as it
 * fills, so a large reservation costs address space only: RUN_SPACE, or,
 * where the address space will not give that much, as much of it as it will.
 */
#define RECORD_BYTES	(128 * 1024)
#define ARENA_BASE	(8u << 20)
#define RUN_SPACE	(sizeof(size_t) > 4 ? UINT64_C(64) << 30 : UINT64_C(1) << 30)
#define RUN_SPACE_MIN	(UINT64_C(16) << 20)

void arena_or_die(struct arena *a, uint64_t fixed, uint64_t runs, uint64_t cap_mem)
{
	for (;;) {
		uint64_t size = cap_mem && fixed + runs > cap_mem ? cap_mem : fixed + runs;

		if (size == (size_t)size && arena_init(a, size) == 0)
			return;
		if (cap_mem || runs <= RUN_SPACE_MIN)
			die("cannot reserve an arena of %llu MiB: cap it with -m SIZE",
			    (unsigned long long)(size >> 20));
		runs /= 2;
	}
}

/* The views that read ELF files' sections and symbols: the arena has room for them. */
int reads_elf(enum view v)
{
	return v == V_SECTIONS || v == V_SYMBOLS || v == V_BROWSE || v == V_FOLDED || v == V_HTML;
}

/* A scan of this machine into s: the source, the arena, the pids (-p's, or all). */
void scan_live(struct scan *s, struct arena *arena, const struct opts *o, const char *backend,
	       uint64_t table, uint64_t cap_mem, const pid_t *pid_list, size_t npid_list)
{
	uint64_t page_size = (uint64_t)getpagesize();
	uint64_t bound = 0, ram_swap = 0, blocks;
	struct pagesrc *src = source_choose(backend);
	struct probe probe;
	const pid_t *pids;
	size_t npid = npid_list;
	int err;

	source_start(src, &probe, page_size);
	if (!npid_list && (err = pid_iter(count_one, &npid)) < 0)
		dierr(-err, "cannot list /proc");
	if ((err = meminfo_pages(page_size, &bound, &ram_swap)) < 0 && !table)
		dierr(-err, "cannot read /proc/meminfo");
	if (!table) {
		table = bound + bound / 4 + 4096;
		if (table > UINT32_MAX - 1)
			table = UINT32_MAX - 1;
	}
	/* The blocks RAM and swap fill, and room for pages scattered wider. */
	blocks = (err < 0 ? 0 : ram_swap / PT_BLOCK) + 256 + table / 64;
	if (blocks > table)
		blocks = table;
	arena_or_die(arena, ptab_bytes((uint32_t)table, (uint32_t)blocks) +
		     (npid + 64) * (RECORD_BYTES + sizeof(pid_t)) + ARENA_BASE +
		     (reads_elf(o->view) ? ARENA_ELF : 0),
		     RUN_SPACE, cap_mem);
	if (npid_list) {
		pids = pid_list;
		npid = npid_list;
	} else {
		struct pid_list l = { .arena = arena };

		if ((err = pid_iter(list_one, &l)) < 0)
			dierr(-err, "cannot list /proc");
		pids = l.pids;
		npid = l.n;
	}
	scan_init(s, arena, src, (uint32_t)table, (uint32_t)blocks, &probe);
	s->want_cmdline = o->view == V_DUMP || o->view == V_HTML || o->names;
	s->want_start = o->view == V_WATCH;
	/* captures and watch logs carry each process's cgroup: a read of
	 * /proc/PID/cgroup each (make bench's procs case); on a kernel with
	 * cgroups */
	s->want_cgroup = (o->view == V_CGROUPS || o->view == V_DUMP || o->view == V_WATCH ||
			  o->view == V_METRICS || o->view == V_HTML) && cg_hierarchy(NULL) >= 0;
	/* On a terminal only, and never beside CSV or a capture. */
	s->progress = !o->csv && o->view != V_DUMP && o->view != V_WATCH && is_terminal(2);
	dmabuf_start(s);	/* whether fds are read, before the processes are */
	scan_procs(s, pids, npid);
	dmabuf_settle(s);
}
