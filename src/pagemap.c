/* The pagemap page source: /proc/PID/pagemap, where pages are. */
/*
 * The pagemap page source: /proc/PID/pagemap read in large chunks. Its entries
 * already have the PE_ layout; bit 55 (soft-dirty) is no write bit, so this
 * source is not exact_write.
 *
 * A scan should cost what the memory costs, not what the address space costs:
 * where a read ends in a long stretch of empty entries, the rest of that
 * mapping is read only where pages are, as the PAGEMAP_SCAN ioctl (6.7) lists
 * them; without it, a large mapping that smaps says holds nothing is skipped.
 * And where a read shows a PMD (a PMD-aligned PMD's worth of consecutive
 * frames from a PMD-aligned frame), the rest of the mapping is read as
 * PAGEMAP_SCAN lists its ranges too: a range it calls huge, in a mapping
 * with no hugetlb pages (thp_range), is PMDs, each one folio, whose entries
 * are its first one's and the next frames with its flags: one entry read
 * gives them all, a span, as long as that entry is a PMD's first (present,
 * at a PMD-aligned frame); else the PMD's entries are read.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "exmap.h"

/* PAGEMAP_SCAN's ABI (linux/fs.h from 6.7), for headers older than that. */
struct pm_region {
	uint64_t start, end, categories;
};
struct pm_scan_arg {
	uint64_t size, flags, start, end, walk_end, vec, vec_len, max_pages;
	uint64_t category_inverted, category_mask, category_anyof_mask, return_mask;
};
#define PM_SCAN_IOCTL	_IOWR('f', 16, struct pm_scan_arg)
#define PM_IS_PRESENT	(1u << 3)
#define PM_IS_SWAPPED	(1u << 4)
#define PM_IS_HUGE	(1u << 6)

#define SPARSE_TAIL	512	/* empty entries ending a read that make the rest "sparse" */
#define SPARSE_PEEK	512	/* a large mapping's first read: entries */
#define SCAN_REGIONS	256	/* populated ranges asked for at once */
#define SCAN_GAP	64	/* pages between two ranges read through, not skipped */
#define SMAPS_MIN	65536	/* pages left in a sparse mapping worth asking smaps about */
#define SMAPS_BIG	256	/* large mappings smaps is remembered for, per process */

/*
 * What the source knows of the process being read: where the next read may
 * skip (next, in the mapping ending at end), the populated ranges of
 * [lo, hi) from the last PAGEMAP_SCAN, and smaps' verdict on large mappings.
 */
enum { SCAN_UNTRIED, SCAN_WORKS, SCAN_NONE };
static struct {
	int scan;		/* PAGEMAP_SCAN here: SCAN_* */
	int piddir;
	uint64_t next, end;
	uint64_t cur_end;	/* the end of the mapping read last */
	uint64_t lo, hi;
	uint64_t pmd;		/* a PMD's bytes, where PMD spans are read; else 0 */
	uint32_t nr, ri;
	struct pm_region rv[SCAN_REGIONS];
	int smaps;		/* 1 read for this process, 0 not yet, -1 unreadable */
	uint32_t nbig;
	uint64_t big_end[SMAPS_BIG];	/* large mappings with no page, by end */
} pm;			/* all zero: bss, no file bytes */

static int pm_open(struct pagesrc *s, int piddir, pid_t pid)
{
	const char *env;

	(void)pid;
	if (pm.scan == SCAN_UNTRIED && (env = getenv("EXMAP_PAGEMAP_SCAN")) &&
	    strcmp(env, "0") == 0)
		pm.scan = SCAN_NONE;
	pm.piddir = piddir;
	pm.next = pm.end = pm.cur_end = 0;
	pm.lo = pm.hi = 0;
	pm.smaps = 0;
	s->fd = openat(piddir, "pagemap", O_RDONLY | O_CLOEXEC);
	return s->fd < 0 ? -errno : 0;
}

static uint64_t pm_buf[PAGEMAP_CHUNK];

static ssize_t pm_pread(struct pagesrc *s, uint64_t vaddr, uint64_t *pe, size_t n)
{
	off_t off = (off_t)(vaddr >> s->page_shift) * 8;
	ssize_t r;

	do
		r = pread(s->fd, pe, n * 8, off);
	while (r < 0 && errno == EINTR);
	if (r < 0)
		return -errno;
	if (r % 8)
		return -EIO;
	return r / 8;
}

/* The populated ranges of [vaddr, end) into pm.rv: 0, or -errno. */
static int pm_scan(struct pagesrc *s, uint64_t vaddr, uint64_t end)
{
	struct pm_scan_arg a = {
		.size = sizeof(a), .start = vaddr, .end = end,
		.vec = (uintptr_t)pm.rv, .vec_len = SCAN_REGIONS,
		.category_anyof_mask = PM_IS_PRESENT | PM_IS_SWAPPED,
		.return_mask = PM_IS_PRESENT | PM_IS_SWAPPED | PM_IS_HUGE,
	};
	int r;

	/* the raw call: musl's ioctl() carries 32-bit time conversions we do not need */
	do
		r = syscall(SYS_ioctl, s->fd, PM_SCAN_IOCTL, &a);
	while (r < 0 && errno == EINTR);
	if (r < 0)
		return -errno;
	pm.nr = (uint32_t)r;
	pm.ri = 0;
	pm.lo = vaddr;
	pm.hi = a.walk_end > vaddr && a.walk_end <= end ? a.walk_end : end;
	return 0;
}

/* Whether a PAGEMAP_SCAN range is present PMDs of THP. */
static int pmd_range(const struct pm_region *r)
{
	return pm.pmd && (r->categories & (PM_IS_HUGE | PM_IS_PRESENT | PM_IS_SWAPPED)) ==
			 (PM_IS_HUGE | PM_IS_PRESENT);
}

/*
 * Where the pages of [vaddr, end) begin, *from, and how far they go on with
 * gaps under SCAN_GAP, *to; *from == *to when there are none up to *to;
 * *pmds when they are PMDs (never joined to other ranges).
 * 0, -ENOTTY (or -EINVAL) where the kernel has no PAGEMAP_SCAN, or -errno.
 */
static int pm_populated(struct pagesrc *s, uint64_t vaddr, uint64_t end,
			uint64_t *from, uint64_t *to, int *pmds)
{
	uint64_t gap = (uint64_t)SCAN_GAP << s->page_shift;
	uint32_t i;
	int err;

	if ((vaddr < pm.lo || vaddr >= pm.hi) && (err = pm_scan(s, vaddr, end)) < 0)
		return err;
	while (pm.ri < pm.nr && pm.rv[pm.ri].end <= vaddr)
		pm.ri++;
	*pmds = 0;
	if (pm.ri == pm.nr) {
		*from = *to = pm.hi;
		return 0;
	}
	*from = pm.rv[pm.ri].start > vaddr ? pm.rv[pm.ri].start : vaddr;
	*to = pm.rv[pm.ri].end;
	if ((*pmds = pmd_range(&pm.rv[pm.ri])))
		return 0;
	for (i = pm.ri + 1; i < pm.nr && pm.rv[i].start - *to <= gap && !pmd_range(&pm.rv[i]); i++)
		*to = pm.rv[i].end;
	return 0;
}

/*
 * Whether the n entries read from vaddr hold a PMD: PMD-aligned, present,
 * its first frame PMD-aligned and its last that plus the PMD's pages less
 * one (the flags alike).
 */
static int shows_pmd(const struct pagesrc *s, uint64_t vaddr, const uint64_t *pe, size_t n)
{
	uint64_t hp = s->pmd_pages, vpn = vaddr >> s->page_shift;
	size_t a;

	for (a = (size_t)((hp - vpn % hp) % hp); a + hp <= n; a += hp)
		if ((pe[a] & (PE_PRESENT | PE_SWAP)) == PE_PRESENT &&
		    (pe[a] & PE_FRAME_MASK) % hp == 0 && pe[a + hp - 1] == pe[a] + hp - 1)
			return 1;
	return 0;
}

/*
 * Whether the large mapping ending at end holds no page, as the process's
 * smaps says (read once a process, and only for one with such a mapping).
 */
static int big_and_empty(uint64_t end, int page_shift)
{
	static struct linebuf lb;
	static char line[LINE_MAX_MAPS];
	uint64_t mend = 0, pages = 0, kb;
	int fd, r, toolong, big = 0;
	uint32_t i;
	size_t len;

	if (pm.smaps == 0) {
		pm.smaps = -1;
		pm.nbig = 0;
		if ((fd = openat(pm.piddir, "smaps", O_RDONLY | O_CLOEXEC)) < 0)
			return 0;
		lb_init(&lb, fd);
		while ((r = lb_next(&lb, line, sizeof(line), &len, &toolong)) > 0) {
			struct mapping m;
			const char *path;
			size_t plen;

			if ((line[0] >= '0' && line[0] <= '9') || (line[0] >= 'a' && line[0] <= 'f')) {
				if (parse_maps_line(line, len, &m, &path, &plen) < 0)
					break;
				big = (m.end - m.start) >> page_shift >= SMAPS_MIN;
				mend = m.end;
				pages = 0;
			} else if (big && smaps_kb(line, &kb) == 0) {
				pages += kb;
			} else if (big && strncmp(line, "VmFlags:", 8) == 0) {
				if (pages == 0 && pm.nbig < SMAPS_BIG)
					pm.big_end[pm.nbig++] = mend;
				big = 0;
			}
		}
		close(fd);
		if (r == 0)
			pm.smaps = 1;
	}
	if (pm.smaps < 0)
		return 0;
	for (i = 0; i < pm.nbig; i++)
		if (pm.big_end[i] == end)
			return 1;
	return 0;
}

/*
 * The PMD at vaddr as a span, from its first entry, when it is one (in a
 * range of PMDs up to to): 1, 0 when its entries are to be read, or -errno.
 */
static int pmd_span(struct pagesrc *s, uint64_t vaddr, uint64_t to, uint64_t *span)
{
	ssize_t r;

	if (vaddr & (pm.pmd - 1) || to - vaddr < pm.pmd)
		return 0;
	if ((r = pm_pread(s, vaddr, pm_buf, 1)) < 0)
		return (int)r;
	/* split since PAGEMAP_SCAN looked, or no folio's first page: read them */
	if (r != 1 || (pm_buf[0] & (PE_PRESENT | PE_SWAP)) != PE_PRESENT ||
	    (pm_buf[0] & PE_FRAME_MASK) % s->pmd_pages)
		return 0;
	*span = s->pmd_pages;
	pm.next = vaddr + pm.pmd;
	return 1;
}

/* n entries from vaddr cut to end where a PMD does, if one lies within. */
static size_t pmd_cut(const struct pagesrc *s, uint64_t vaddr, size_t n)
{
	uint64_t hp = s->pmd_pages, over = hp ? ((vaddr >> s->page_shift) + n) % hp : 0;

	return over < n ? n - over : n;
}

static ssize_t pm_read(struct pagesrc *s, uint64_t vaddr, uint64_t end, uint64_t **pep,
		       size_t n, uint64_t *span)
{
	uint64_t from, to, left = (end - vaddr) >> s->page_shift, *pe = pm_buf;
	ssize_t r, i;
	int err, pmds;

	*pep = pm_buf;
	*span = 0;
	if (n > PAGEMAP_CHUNK)
		n = PAGEMAP_CHUNK;
	pm.pmd = s->thp_range && s->pmd_pages ? s->pmd_pages << s->page_shift : 0;
	if (vaddr == pm.next && end == pm.end && pm.scan != SCAN_NONE) {
		err = pm_populated(s, vaddr, end, &from, &to, &pmds);
		if (err == -ENOTTY || err == -EINVAL) {
			pm.scan = SCAN_NONE;
		} else if (err < 0) {
			return err;
		} else {
			pm.scan = SCAN_WORKS;
			pm.next = from;
			if (from > vaddr) {
				*span = (from - vaddr) >> s->page_shift;
				*pep = NULL;
				return 0;
			}
			if (pmds && (err = pmd_span(s, vaddr, to, span)) != 0)
				return err < 0 ? err : 0;
			if (pmds && to > ((vaddr | (pm.pmd - 1)) + 1))
				to = (vaddr | (pm.pmd - 1)) + 1;	/* this PMD's entries */
			if (n > (to - vaddr) >> s->page_shift)
				n = (to - vaddr) >> s->page_shift;
		}
	}
	if (vaddr == pm.next && end == pm.end && pm.scan == SCAN_NONE && left >= SMAPS_MIN &&
	    big_and_empty(end, s->page_shift)) {
		*span = left;
		*pep = NULL;
		return 0;
	}
	/* A large mapping is first peeked at: a sparse one costs little then. */
	if (end != pm.cur_end) {
		pm.cur_end = end;
		if (left >= PAGEMAP_CHUNK && n > SPARSE_PEEK)
			n = pmd_cut(s, vaddr, SPARSE_PEEK);
	}
	if ((r = pm_pread(s, vaddr, pe, n)) <= 0)
		return r;
	/* Ending in a long empty stretch (half of a peek), with more to come:
	 * skip from here on. */
	for (i = r; i > 0 && !(pe[i - 1] & (PE_PRESENT | PE_SWAP)); i--)
		if ((r - i + 1 >= SPARSE_TAIL || 2 * (r - i + 1) >= r) && (uint64_t)r < left) {
			pm.next = vaddr + ((uint64_t)r << s->page_shift);
			pm.end = end;
			break;
		}
	/* Holding a PMD, with more to come: the rest read as PAGEMAP_SCAN lists it. */
	if (pm.pmd && pm.scan != SCAN_NONE && (uint64_t)r < left && !(pm.next == vaddr && pm.end == end) &&
	    shows_pmd(s, vaddr, pe, (size_t)r)) {
		pm.next = vaddr;
		pm.end = end;
	}
	if (pm.next == vaddr && pm.end == end)
		pm.next += (uint64_t)r << s->page_shift;
	return r;
}

static void pm_close(struct pagesrc *s)
{
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
}

/*
 * The kernel's map count of n frames from pfn, as smaps divides a page's
 * size by: /proc/kpagecount (page_mapcount() to 6.11, the folio's precise
 * count of the page from 6.12, its average per page with
 * CONFIG_NO_PAGE_MAPCOUNT: smaps' own rule each time). How many, 0 past the
 * end of memory, or -errno.
 */
static ssize_t pm_counts(struct pagesrc *s, uint64_t pfn, uint64_t *c, size_t n)
{
	static int err;		/* why it could not be opened */
	ssize_t r;

	if (s->cfd < 0 && !err && (s->cfd = open("/proc/kpagecount", O_RDONLY | O_CLOEXEC)) < 0)
		err = errno;
	if (err)
		return -err;
	do
		r = pread(s->cfd, c, n * 8, (off_t)(pfn * 8));
	while (r < 0 && errno == EINTR);
	return r < 0 ? -errno : r / 8;
}

/*
 * pagemap shows a present entry for any PTE, also one that maps a frame with
 * no page behind it for the kernel (pte_special, as in a VM_MIXEDMAP driver
 * mapping), which Rss leaves out. VM_PFNMAP mappings it shows as holes
 * already. Such a frame is mapped by no page table as a page: kpagecount 0.
 */
static int pm_unmapped(struct pagesrc *s, uint64_t pfn)
{
	uint64_t n;

	return pm_counts(s, pfn, &n, 1) == 1 ? n == 0 : -1;
}

struct pagesrc pagemap_source = {
	.name = "pagemap",
	.exact_write = 0,
	.excl_by_head = 1,
	.open = pm_open,
	.read = pm_read,
	.keep = ~UINT64_C(0),
	.close = pm_close,
	.unmapped = pm_unmapped,
	.counts = pm_counts,
	.fd = -1,
	.cfd = -1,
};
