/* exmap-mini: shared types, limits, exit codes and prototypes. */
#ifndef EXMAP_H
#define EXMAP_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * Offsets past 2 GiB (the module's: a virtual address) and 64-bit inode
 * numbers with every libc: the Makefile asks for them (_FILE_OFFSET_BITS).
 */
_Static_assert(sizeof(off_t) == 8 && sizeof(ino_t) == 8,
	       "32-bit off_t or ino_t: build with -D_FILE_OFFSET_BITS=64");

#define EXMAP_VERSION "0.1.0"

/* Exit codes: written down here once, documented in the manual page (EXIT STATUS). */
enum {
	EX_OK = 0,		/* report complete */
	EX_PARTIAL = 1,		/* some processes could not be read */
	EX_FATAL = 2,		/* usage error or fatal error */
	EX_BUDGET = 3,		/* a --budget was exceeded */
	EX_DAMAGED = 4,		/* a capture lost chunks: the report leaves them out */
};
/* Several apply: the highest but EX_FATAL (which exits at once) wins. */
void exit_at_least(int code);

/* Named limits. Hitting one is an error that names the option raising it. */
#define LINE_MAX_MAPS	4352	/* one /proc/PID/maps line: PATH_MAX + fields */
#define PAGEMAP_CHUNK	8192	/* pagemap entries per read: 64 KiB */
#define NAME_MAX_COMM	64	/* /proc/PID/comm, 16 on Linux, room to spare */
#define ELF_NAME_MAX	4096	/* a section or symbol name; longer ones are cut, marked */
#define RUN_PAGES_MAX	((1u << 28) - 1)	/* pages in one run record */
#define CMDLINE_MAX	4096	/* bytes of /proc/PID/cmdline kept for dump and diff */
#define PATH_BUF	4096	/* a path as the kernel gives one (PATH_MAX) */

/*
 * Effective sizes: a page of P bytes mapped by C scanned PTEs adds P/C. We add
 * floor(P * 2^32 / C) in fixed point, kept as whole bytes plus 2^-32 fractions,
 * so the per-page error is below 2^-32 bytes and no share is rounded away.
 */
struct eff {
	uint64_t whole;
	uint64_t frac;		/* < 2^32 after eff_norm() */
};

/* The figures every item carries: process, file, mapping (later section, symbol). */
struct fig {
	uint64_t vm;
	uint64_t mapped;
	uint64_t resident;
	struct eff eff_mapped;
	struct eff eff_resident;
	uint64_t sole;
	uint64_t writable;
	uint64_t swap;
};

enum field {
	F_VM, F_MAPPED, F_RESIDENT, F_EFF_MAPPED, F_EFF_RESIDENT,
	F_SOLE, F_WRITABLE, F_SWAP, NFIGS,
	F_PID = NFIGS, F_NAME, F_PATH, F_NPROC, F_ADDRESS,
	/* the cgroups view's own (cgroup.h) */
	F_CGROUP, F_PROCESSES, F_CHARGED, F_CHARGED_ANON, F_CHARGED_FILE, F_CHARGED_SHMEM,
	NFIELDS
};

extern const char *const field_names[NFIELDS];

/*
 * Page identities. Backends deliver one 64-bit entry per page in this layout
 * (pagemap's, so that backend passes its entries through untouched).
 */
#define PE_FRAME_MASK	((UINT64_C(1) << 55) - 1)	/* pfn, or swap type+offset */
#define PE_WRITE	(UINT64_C(1) << 55)	/* exact PTE write bit, if the source has it */
#define PE_EXCLUSIVE	(UINT64_C(1) << 56)	/* mapped by exactly one PTE */
#define PE_NOTRAM	(UINT64_C(1) << 59)	/* present but not RAM (zero page, no struct page) */
#define PE_FILE		(UINT64_C(1) << 61)	/* page cache or shared anon */
#define PE_SWAP		(UINT64_C(1) << 62)
#define PE_PRESENT	(UINT64_C(1) << 63)
/*
 * A cookie names a page: its pfn, or its swap entry tagged so the two never
 * meet, offset first so that neighbours in swap are neighbours here.
 */
#define COOKIE_SWAP_TAG	(UINT64_C(1) << 63)
#define PE_SWAP_TYPE(e)	((e) & 31)		/* pagemap's swap entry: type, */
#define PE_SWAP_OFF(e)	(((e) & PE_FRAME_MASK) >> 5)	/* then offset */
#define SWAP_COOKIE(e)	(COOKIE_SWAP_TAG | PE_SWAP_TYPE(e) << 50 | PE_SWAP_OFF(e))

/*
 * Each mapping's pages are kept as run-length records in address order. A run
 * of SHARED or SWAP pages names consecutive cookie ids in the page table.
 */
enum run_kind {
	RUN_HOLE = 0,		/* not mapped: virtual size only */
	RUN_NOTRAM = 1,		/* zero page or device memory: not RAM */
	RUN_EXCL = 2,		/* present, mapped by this PTE alone */
	RUN_SHARED = 3,		/* present, id names the page */
	RUN_SWAP = 4,		/* swapped, id names the swap entry */
};
#define RUN_N_MASK	RUN_PAGES_MAX
#define RUN_KIND_SHIFT	28
#define RUN_WRITE	(1u << 31)

struct run {
	uint32_t id;
	uint32_t nk;		/* pages | kind << 28 | RUN_WRITE: run_nk() makes it */
};
/* A run's nk: its kind, whether written, its pages (0: a kind to begin one with). */
static inline uint32_t run_nk(uint32_t kind, int written, uint32_t pages)
{
	return kind << RUN_KIND_SHIFT | (written ? RUN_WRITE : 0) | pages;
}
static inline uint32_t nk_kind(uint32_t nk) { return nk >> RUN_KIND_SHIFT & 7; }
static inline uint32_t run_kind(const struct run *r) { return nk_kind(r->nk); }
static inline uint32_t run_pages(const struct run *r) { return r->nk & RUN_N_MASK; }
static inline int run_written(const struct run *r) { return (r->nk & RUN_WRITE) != 0; }
/* shared and swap runs name their pages' ids; the others do not */
static inline int run_has_ids(uint32_t kind) { return kind == RUN_SHARED || kind == RUN_SWAP; }

/* Mapping flags. */
#define MF_READ		0x01
#define MF_WRITE	0x02
#define MF_EXEC		0x04
#define MF_SHARED	0x08
#define MF_DEVICE	0x10	/* a character or block device's mapping */
#define MF_DELETED	0x20	/* the path ended in " (deleted)" */
#define MF_TRUNCATED	0x40	/* the maps line was longer than LINE_MAX_MAPS */
#define MF_RAWPFN	0x80	/* neither anonymous memory nor a regular file: may map
				   frames the kernel does not count (scan only) */
#define MF_BSS		0x100	/* the anonymous rest of the file mapping before it
				   (its .bss): counted as that file's (files_build) */
#define MF_SHOWN	0x200	/* in the report: -P and -F let it through */
#define MF_HUGETLB	0x400	/* a hugetlbfs file's (scan only) */

struct mapping {
	uint64_t start, end, offset, inode;
	uint32_t dev;		/* major << 20 | minor */
	uint32_t flags;
	uint32_t nrun;
	uint32_t file;		/* index into the file table, after aggregation */
	uint64_t run0;		/* index of the first run */
	const char *path;	/* "" for anonymous */
	struct mapping *next;	/* the process's next mapping, by address */
	struct fig fig;
	struct eff eff_written;	/* eff_resident of its written pages (watch's .data) */
};

struct proc {
	pid_t pid;
	uint32_t nmap;
	struct mapping *map;	/* first of a list in address order */
	struct proc *next;
	char name[NAME_MAX_COMM];
	const char *cmdline;	/* arguments, NUL between them; dump and diff */
	uint32_t cmdlen;
	uint64_t start;		/* when it started, clock ticks since boot (watch) */
	struct fig fig;		/* all its mappings */
	struct fig rfig;	/* the mappings the report shows (-P, -F) */
	int shown;		/* in the report */
	uint32_t files_gone;	/* files not read: it exited after the scan (said once) */
	struct dmaproc *dma;	/* its dma-bufs and DRM clients (dmabuf.h); NULL: none */
	struct cgproc *cg;	/* its cgroup (cgroup.h); NULL: not read */
};

struct file {
	const char *path;
	uint64_t inode;
	uint32_t dev;
	uint32_t flags;		/* MF_DELETED, MF_DEVICE */
	uint32_t nproc;
	pid_t lastpid;		/* while counting nproc */
	struct fig fig;		/* over every process */
	uint32_t rnproc;	/* over the processes the report shows (-P), */
	struct fig rfig;	/* their mappings of it */
};

/* fmt.c: snprintf for the conversions used here (musl's costs 8 KiB) */
int fmt_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
int fmt_snprintf(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* util.c: errors, output, numbers */
extern const char *progname;
extern int exit_status;
void warnx(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void warnerr(int err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
_Noreturn void die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
_Noreturn void dierr(int err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
_Noreturn void die_status(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void out(const char *s, size_t n);
void outs(const char *s);
void outf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
const char *find_str(const char *s, const char *needle);
char *fmt_dec(char *end, uint64_t v);
void out_dec(char sep, uint64_t v);
void out_flush(void);
void out_to(int fd, const char *name);
void on_write_error(int (*fn)(int err));
const char *admin_hint(void);
int is_terminal(int fd);
struct winsize;
int terminal_size(int fd, struct winsize *ws);
uint64_t clock_ns(int clk);
void on_fatal(void (*fn)(void));
void on_warning(void (*fn)(const char *msg));
void progress_show(const char *line);
void progress_clear(void);
int parse_u64(const char *s, uint64_t max, uint64_t *v);
int hex_parse(const char *s, uint64_t max, uint64_t *v);
char *hex_fmt(char *buf, const unsigned char *bytes, size_t n);
#define HASH_SEED	2166136261u
uint32_t hash_bytes(uint32_t h, const void *p, size_t n);
void sort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *));
int parse_size(const char *s, uint64_t *v);
size_t fmt_human(char *buf, size_t len, uint64_t bytes);
void eff_add(struct eff *e, uint64_t fixed, uint64_t pages);
void eff_sum(struct eff *to, const struct eff *from);
void eff_norm(struct eff *e);
uint64_t eff_bytes(const struct eff *e);
void fig_add(struct fig *to, const struct fig *from);
uint64_t fig_get(const struct fig *f, enum field k);

/* arena.c: the one region of working memory, mapped once */
struct arena {
	char *base;
	size_t size;
	size_t lo;		/* bytes used from the bottom */
	size_t hi;		/* bytes used from the top */
	size_t peak;		/* the most lo has been: zero above it */
	size_t lo_open, hi_open;	/* bytes open for use at the bottom, the top */
};
int arena_init(struct arena *a, size_t size);
void arena_release(struct arena *a);
void *arena_alloc(struct arena *a, size_t n, size_t align);
void *arena_alloc_top(struct arena *a, size_t n, size_t align);
void arena_zero(const struct arena *a, void *p, size_t n);
char *arena_strdup(struct arena *a, const char *s, size_t n);
_Noreturn void arena_full(const struct arena *a, size_t want);

/* outfile.c: -o FILE: the output written beside FILE, then renamed over it */
void outfile_open(const char *path);
void outfile_commit(void);

/* ptab.c: the fixed-size open-addressing table of page cookies, by blocks */
#define PT_BLOCK_SHIFT	10	/* cookies in a block: 4 MiB of RAM at 4 KiB pages */
#define PT_BLOCK	(1u << PT_BLOCK_SHIFT)
#define PT_PAGE		4096	/* a block's slots: one page, first touched by a write */
#define PT_RUN_MAX	(1u << 20)	/* ids counted in one step at most */
struct ptab {
	uint32_t *slot;		/* PT_BLOCK slots a bucket: id + 1, 0 when empty */
	uint64_t *bkey;		/* a bucket's block number + 1; 0 marks it empty */
	uint32_t *count;	/* PTEs among the scanned processes, by id; while
				   counting, the differences of neighbours' */
	struct pt_stretch {	/* ids given to cookies one after another */
		uint32_t id, cookie;	/* the first's; UINT32_MAX: no 32-bit cookie */
	} *str;
	uint64_t *brk;		/* bit i: id i begins a stretch */
	uint32_t *rank;		/* stretches begun by ids below 64 i */
	uint32_t nstr;
	uint64_t last_cookie;	/* id n - 1's */
	int summed;		/* count holds counts (ptab_sum) */
	uint32_t bmask;
	uint32_t bshift;	/* 64 - log2(buckets): hashes use the top bits */
	uint32_t nblock;	/* buckets in use */
	uint32_t bcap;		/* most buckets it may use: the load limit */
	uint32_t n;		/* ids handed out */
	uint32_t cap;		/* most ids it may hold */
	uint32_t last;		/* the bucket of the last cookie counted */
};
size_t ptab_bytes(uint32_t cap, uint32_t bcap);
void ptab_init(struct ptab *t, struct arena *a, uint32_t cap, uint32_t bcap);
uint32_t ptab_run(struct ptab *t, uint64_t cookie, uint64_t n, uint32_t hint, uint32_t *id);
uint32_t ptab_ref(struct ptab *t, uint64_t cookie);	/* UINT32_MAX when full */
void ptab_drop(struct ptab *t, uint32_t id, uint32_t k);
void ptab_sum(struct ptab *t);
uint32_t ptab_find(const struct ptab *t, uint64_t cookie);	/* UINT32_MAX if absent */
const uint32_t *ptab_slots(const struct ptab *t, uint64_t cookie);

/* procfs.c: /proc reading with fixed buffers; a process's mapped files */
#define LINEBUF_SIZE	65536	/* read at a time: a whole maps file of most processes */
struct linebuf {
	int fd;
	size_t pos, len;
	int eof;
	char buf[LINEBUF_SIZE];
};
void lb_init(struct linebuf *lb, int fd);
int lb_next(struct linebuf *lb, char *line, size_t max, size_t *len, int *toolong);
ssize_t read_small(int dirfd, const char *name, char *buf, size_t max);
ssize_t read_line(int dirfd, const char *name, char *buf, size_t max);
ssize_t read_cmdline(int piddir, char *buf, size_t max);
int read_stat(int piddir, char name[NAME_MAX_COMM], uint64_t *start);
int read_comm(int piddir, char name[NAME_MAX_COMM]);
int parse_maps_line(const char *line, size_t len, struct mapping *m,
		    const char **path, size_t *pathlen);
uint32_t map_kind(int piddir, const struct mapping *m, uint64_t pmd);
/* What getdents64 returns: read directories without opendir, which allocates. */
struct linux_dirent64 {
	uint64_t d_ino;
	int64_t d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};
int pid_iter(int (*fn)(pid_t pid, void *arg), void *arg);
int meminfo_pages(uint64_t page_size, uint64_t *distinct_bound, uint64_t *ram_swap);
int smaps_kb(const char *line, uint64_t *kb);
int open_pid_dir(pid_t pid);
int open_regular(int dirfd, const char *path, uint64_t *size);
int open_mapped(int piddir, const struct mapping *m, uint64_t *size, const char **why);

/* pagesrc.c: where page entries come from: pagemap.c, kmodsrc.c; the probe */
struct pagesrc {
	const char *name;
	int exact_write;	/* PE_WRITE is the PTE's bit */
	int excl_by_head;	/* a PMD's entries are all exclusive if its first
				   page is (pagemap's), not each page as it is */
	int (*open)(struct pagesrc *s, int piddir, pid_t pid);
	/*
	 * Entries for at most n pages from vaddr, in a mapping ending at end:
	 * how many, *pe pointing at them in the source's own buffer (good
	 * until its next call). Or 0 and *span pages the source knows are
	 * alike (up to end at most), so that they cost no entry each: with
	 * *pe NULL a hole; else pages one PMD maps, **pe the first's entry
	 * and the others the next frames with its flags. 0 and no span: past
	 * the task size, or the process has exited.
	 */
	ssize_t (*read)(struct pagesrc *s, uint64_t vaddr, uint64_t end, uint64_t **pe,
			size_t n, uint64_t *span);
	uint64_t keep;		/* the entry bits that tell pages apart (the rest vary) */
	void (*close)(struct pagesrc *s);
	/* 1 when no page table maps pfn as a page (a raw frame, not counted
	 * in Rss), 0 when one does, -1 when it cannot tell; NULL when the
	 * source marks such entries PE_NOTRAM itself */
	int (*unmapped)(struct pagesrc *s, uint64_t pfn);
	int fd;
	int page_shift;
	uint64_t pmd_pages;	/* the probe's */
	int thp_range;		/* the scan's, for each read: no hugetlb mapping
				   in it, so that a huge page is a THP's PMD */
};
extern struct pagesrc pagemap_source;
extern struct pagesrc kmod_source;	/* kmodsrc.c */
struct probe {
	uint64_t zero_pfn;
	uint64_t hzero_pfn;	/* first pfn of the huge zero page, or zero_pfn */
	uint64_t hzero_n;
	uint64_t pmd_pages;	/* pages a PMD maps where THP is, else 0 */
};
/* The zero page, or a page of the huge zero page: not RAM to count. */
static inline int zero_frame(const struct probe *p, uint64_t pfn)
{
	return pfn == p->zero_pfn || pfn - p->hzero_pfn < p->hzero_n;
}
struct pagesrc *source_choose(const char *how);
void source_start(struct pagesrc *src, struct probe *p, uint64_t page_size);

/* elf.c, with elfread.h: the ELF reader */
#define ELF_BUILDID_MAX	256	/* longest build-id accepted (SHA-1 is 20; ld --build-id=0x... any) */

/* scan.c: pass one, reading every process */
/* A process the scan left out, and why: its errno when unreadable. */
enum outcome { P_OK, P_EMPTY, P_VANISHED, P_UNREADABLE };
#define ABSENT_MAX	256
struct absent {
	pid_t pid;
	int why;		/* enum outcome */
	int err;
};

/* An exclusive PMD of a source whose exclusive bit is its first page's: n
 * pages from frame, run record run (scan_settle). */
struct suspect {
	struct suspect *next;
	uint64_t frame;
	uint64_t run;
	uint64_t n;
};

struct scan {
	struct arena *arena;
	struct ptab pt;
	struct pagesrc *src;
	struct probe probe;
	uint64_t page_size;
	int page_shift;
	struct proc *first, *last;	/* scanned processes, in scan order */
	struct proc **procs;		/* the same, as an array, after the scan */
	uint32_t nproc;
	struct run *runtop;	/* runs are stored down from here, at the arena's top */
	uint64_t nrun;
	struct run pend;	/* the run being extended, not yet stored */
	uint32_t hint;		/* the id the next shared page may have (ptab_run) */
	struct suspect *suspects, **suspect_tail;	/* in scan order */
	uint32_t vanished;	/* exited while or before being read */
	uint32_t empty;		/* no user memory: kernel threads, zombies */
	uint32_t unreadable;	/* could not be read: the run is partial */
	struct absent absent[ABSENT_MAX];	/* which, and why (live scans) */
	uint32_t nabsent, absent_lost;		/* those beyond ABSENT_MAX */
	int want_cmdline;	/* read each process's command line (dump) */
	int want_start;		/* read each process's start time (watch), from stat */
	int want_cgroup;	/* read each process's cgroup (cgroup.h) */
	int progress;		/* show progress on stderr after a second */
	uint64_t t0, tshown;	/* when the scan began, when progress was last shown (ms) */
	size_t done, total;	/* processes */
	struct capture *cap;	/* loaded from a capture, else NULL (capture.h) */
	struct file *files;	/* the file table, once built (files_build) */
	uint32_t nfile;
	struct cgroup *cgroups;	/* the cgroup table, once built (cgroups_build) */
	uint32_t ncgroup;
	const char *source;	/* the page source's name: its own, or the capture's */
	struct dmatab *dma;	/* the dma-bufs (dmabuf.h); NULL: not read */
};
static inline struct run *scan_run(const struct scan *s, uint64_t i)
{
	return s->runtop - 1 - i;
}
void scan_init(struct scan *s, struct arena *a, struct pagesrc *src,
	       uint32_t table_cap, uint32_t block_cap, const struct probe *probe);
void scan_procs(struct scan *s, const pid_t *pids, size_t n);
void scan_hush(const pid_t *pids, size_t n);
void scan_cmdline(struct scan *s, struct proc *p);
/* settle.c: the end of pass one: exclusive PMDs whose pages others map */
void scan_settle(struct scan *s);

/* account.c: pass two, the figures, files and the self-check */
struct totals {
	struct fig fig;
	uint64_t distinct;	/* distinct mapped pages (cookies) */
	struct fig shown;	/* what the report shows (report_filter) */
	uint32_t nshown;	/* processes it shows */
};
void account(struct scan *s, struct totals *t);
struct file *files_build(struct scan *s, uint32_t *nfile);
/* What the report shows: processes pids[0..npid) (all if none), and of them
 * the mappings of file index file (all if UINT32_MAX). */
int pid_in(pid_t pid, const pid_t *pids, size_t n);
void report_filter(struct scan *s, const pid_t *pids, size_t npid, uint32_t file,
		   struct fig *total, uint32_t *nshown);
int self_check(const struct scan *s, const struct totals *t, struct eff *diff);

/* table.c: rows of figures, as text or CSV, sorted and cut, for every view */
enum view { V_PROCS, V_FILES, V_MAPS, V_SECTIONS, V_SYMBOLS, V_ELF, V_DUMP, V_DIFF, V_BROWSE, V_RAM,
	    V_FOLDED, V_HTML, V_CAPTURES, V_WATCH, V_TREND, V_METRICS, V_DMABUF, V_CGROUPS };
struct opts {
	enum view view;
	pid_t view_pid;
	const char *view_file;	/* sections, symbols, elf */
	const char *view_section;	/* symbols FILE SECTION */
	int csv;
	int kib;
	int noheader;
	int all;		/* -a: diff's unchanged rows too */
	int html;		/* diff a b html: a page */
	int sort;		/* enum field, or -1 for the view's default */
	uint64_t top;		/* 0: every row */
	const char *sysroot;	/* -S: where a capture's ELF files are found */
	const pid_t *rpids;	/* -P: the processes reported (none: all) */
	size_t nrpid;
	const char *rfile;	/* -F: the file reported (NULL: all) */
	uint32_t rfile_index;	/* its index in the file table, or UINT32_MAX */
	int names;		/* read command lines (a watch's keyframes and ends) */
	int pids;		/* --pids: metrics by process, not by name alone */
};
/* live.c: a scan of this machine, the arena sized for it (-m caps it; -t sizes
 * the page table); ARENA_ELF more where a view reads ELF files */
#define ARENA_ELF	(UINT64_C(64) << 20)	/* sections, symbols and their names */
void arena_or_die(struct arena *a, uint64_t fixed, uint64_t runs, uint64_t cap_mem);
int reads_elf(enum view v);
void scan_live(struct scan *s, struct arena *arena, const struct opts *o, const char *backend,
	       uint64_t table, uint64_t cap_mem, const pid_t *pids, size_t npid);

/* A section or a symbol: what the sections and symbols views list. */
struct elf_item {
	uint64_t lo, hi;	/* link-time addresses [lo, hi) */
	const char *name;	/* a symbol's aliases follow it: "name,alias,..." */
	uint32_t plen;		/* the length of its own name in name; 0: all of it */
	const char *section;	/* a symbol's section */
	struct fig fig;
};
#define TEXT_COLS	80	/* a text report's width, but on a wider terminal */
#define TEXT_COLS_MAX	400
size_t text_cols(void);
extern const char *const text_head[NFIGS];
int field_lookup(const char *name);
void csv_field(const char *s, size_t n);
void sort_items(void **items, size_t n, enum view v, int field);
void fmt_size(const struct opts *o, char *buf, size_t len, uint64_t bytes);
int fig_width(const struct opts *o);
void figs_fit(const struct opts *o, const struct fig *f);
size_t figs_width(const struct opts *o, const int *which, int n);
size_t name_room(const struct opts *o, size_t w, size_t least);
void put_figs(const struct opts *o, const struct fig *f, const int *which, int n);
void put_heads(const struct opts *o, const int *which, int n);
void put_text(const char *s, size_t room, int pad);
size_t path_room(size_t used);
void **rows_alloc(struct arena *a, size_t n);
size_t rows_shown(const struct opts *o, size_t n);

/* report.c: the procs, files and maps views, and the notes after a report */
void view_procs(struct scan *s, const struct totals *t, const struct opts *o);
void view_files(struct scan *s, const struct opts *o);
void view_maps(struct scan *s, const struct opts *o);
void report_notes(const struct scan *s, const struct totals *t, const struct opts *o);

/* elfdump.c: the elf view, no scan */
void view_elf(const char *path, const struct opts *o);

/* term.c: a full-screen terminal, VT100 only, redrawing what changed */
#define TERM_ROWS_MAX	200
#define TERM_COLS_MAX	512
enum { K_UP = 0x100, K_DOWN, K_LEFT, K_RIGHT, K_PGUP, K_PGDN, K_HOME, K_END, K_RESIZE };
int term_open(void);
void term_close(void);
void term_size(int *rows, int *cols);
int term_key(int ms);
void term_line(int row, const char *text, int reverse);
void term_clear(void);
uint64_t term_flush(void);

/* browse.c: the drill-down, full screen; rescan scans again (NULL: a capture) */
void browse(struct scan *s, const struct opts *o, int (*rescan)(struct scan *s));

/* elfitems.c: the file a view or -F names, as an index in the file table */
uint32_t find_file(struct file *files, uint32_t n, const char *want);
void find_file_as_named(void);
#define FILE_AMBIGUOUS	(UINT32_MAX - 1)
uint32_t file_lookup(struct file *files, uint32_t n, const char *want, int quiet);

/* elfview.c: sections and symbols placed on the scanned pages */
void view_elf_items(struct scan *s, const struct opts *o);

/* folded.c: a line per leaf, process;file;section;symbol eff_resident; with
 * html.c, left out of board builds (PICTURES=0) */
void view_folded(struct scan *s, const struct opts *o);

/* html.c: one self-contained page */
void view_html(struct scan *s, const struct totals *t, const struct opts *o,
	       const char *census_how);

/*
 * sysroot.c: a capture's ELF file on the host, under SYSROOT: the file with
 * the same GNU build-id (SYSROOT/path first, then any under SYSROOT, one with
 * a symbol table preferred), else SYSROOT/path when the capture has no id.
 * A NULL root is this machine's /, where only the path is tried. Returns an
 * fd and its size, and the path used; -1 and why, if none is fit.
 */
int sysroot_open(const char *root, const char *path, const unsigned char *id,
		 size_t idlen, uint64_t *size, char *used, size_t usedlen,
		 char *why, size_t whylen);

/* diff.c: two captures, processes matched by name and command line */
struct capfile;
void diff_captures(struct arena *a, const struct capfile *cfa, const struct capfile *cfb,
		   const struct opts *o);

/* caplist.c: the captures a console log holds, one row each (left out with LOAD=0) */
void view_captures(const char *path, const struct opts *o);

/* trend.c: a watch log's rows and their slopes (left out with LOAD=0) */
struct budget;
void view_trend(const char *log, const struct opts *o, const char *pick, const char *warmup,
		const struct budget *b, size_t nbudget, uint64_t cap_mem);
/* metrics.c: the Prometheus text format; scan_ns, how long the scan took (live);
 * --label NAME=VALUE on every series (checked, kept; a host's: a capture's
 * series carry their board's host) */
void view_metrics(struct scan *s, const struct opts *o, uint64_t scan_ns);
#ifndef EXMAP_NO_LOAD
void metrics_label(const char *arg);
#endif

/* budget.c: --budget NAME=SIZE against eff_resident */
enum { BN_ANY, BN_PROC, BN_FILE, BN_RAM };	/* what a budget's name says it is */
struct budget {
	const char *name;	/* as given, for messages */
	const char *target;	/* the name without proc:, file: or ram: */
	int kind;		/* BN_ANY: processes of that name, else a file */
	uint64_t size;
	int per_hour;		/* NAME=SIZE/h: a slope, for the trend view */
};
void parse_budget(char *arg, struct budget *b);
/* A budget's figure and its limit as text, alike unless rounding makes them
 * so: then both in bytes. */
void budget_texts(const struct opts *o, const struct budget *b, int64_t used, int sign,
		  char *got, char *lim, size_t len);
void check_budgets(struct scan *s, const struct budget *b, size_t n,
		   const struct opts *o);

#endif
