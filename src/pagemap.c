/*
 * The pagemap page source: /proc/PID/pagemap read in large chunks. Its entries
 * already have the PE_ layout; bit 55 (soft-dirty) is no write bit, so this
 * source is not exact_write.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "exmap.h"

static int pm_open(struct pagesrc *s, int piddir, pid_t pid)
{
	(void)pid;
	s->fd = openat(piddir, "pagemap", O_RDONLY | O_CLOEXEC);
	return s->fd < 0 ? -errno : 0;
}

static ssize_t pm_read(struct pagesrc *s, uint64_t vaddr, uint64_t *pe, size_t n)
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

static void pm_close(struct pagesrc *s)
{
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
}

/*
 * pagemap shows a present entry for any PTE, also one that maps a frame with
 * no page behind it for the kernel (pte_special, as in a VM_MIXEDMAP driver
 * mapping), which Rss leaves out. VM_PFNMAP mappings it shows as holes
 * already. Such a frame is mapped by no page table as a page: kpagecount 0.
 */
static int pm_unmapped(struct pagesrc *s, uint64_t pfn)
{
	static int fd = -2;
	uint64_t n;
	ssize_t r;

	(void)s;
	if (fd == -2)
		fd = open("/proc/kpagecount", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	do
		r = pread(fd, &n, 8, (off_t)(pfn * 8));
	while (r < 0 && errno == EINTR);
	if (r != 8)
		return -1;
	return n == 0;
}

struct pagesrc pagemap_source = {
	.name = "pagemap",
	.exact_write = 0,
	.open = pm_open,
	.read = pm_read,
	.close = pm_close,
	.unmapped = pm_unmapped,
	.fd = -1,
};

/* Our own entry for addr, through the source. */
static int self_entry(struct pagesrc *src, const volatile void *addr, uint64_t *pe)
{
	ssize_t r = src->read(src, (uintptr_t)addr, pe, 1);

	if (r < 0)
		return (int)r;
	return r == 1 ? 0 : -EIO;
}

static uint64_t thp_size(void)
{
	char buf[64];
	uint64_t v;
	ssize_t n = read_small(AT_FDCWD,
			       "/sys/kernel/mm/transparent_hugepage/hpage_pmd_size",
			       buf, sizeof(buf));

	if (n <= 0)
		return 0;
	buf[strcspn(buf, "\n")] = '\0';
	return parse_u64(buf, UINT64_C(1) << 40, &v) == 0 ? v : 0;
}

/*
 * Whether the kernel itself calls pfn the zero page (or the huge zero page):
 * 1 yes, 0 no, -1 when /proc/kpageflags cannot tell (absent, not root).
 */
static int kpage_is_zero(uint64_t pfn)
{
	uint64_t flags;
	ssize_t r;
	int fd = open("/proc/kpageflags", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	do
		r = pread(fd, &flags, 8, (off_t)(pfn * 8));
	while (r < 0 && errno == EINTR);
	close(fd);
	if (r != 8)
		return -1;
	return (flags >> KPF_ZERO_PAGE) & 1;
}

/*
 * A page we only read: the zero page when the source shows it shared (a page
 * a read fault allocated is ours alone) and kpageflags, where readable, agrees.
 * Kernels that forbid the zero page (s390 KVM, pvm_no_zero_page=1) or the huge
 * one (use_zero_page 0) allocate instead, and then nothing is left out.
 */
static int read_zero(struct pagesrc *src, const volatile char *addr, uint64_t *pfn)
{
	uint64_t pe;

	(void)addr[0];
	if (self_entry(src, addr, &pe) < 0 || !(pe & PE_PRESENT) || (pe & PE_EXCLUSIVE))
		return 0;
	*pfn = pe & PE_FRAME_MASK;
	return kpage_is_zero(*pfn) != 0;
}

/*
 * Learn from our own pages, through the page source, whether pfns are visible
 * (root), and the pfns of the zero page and of the huge zero page, which are
 * not RAM to count. The pages read stay mapped until we exit: had we freed a
 * private page taken for the zero page, the allocator would hand it on, and
 * another process's real page would be counted as not RAM. 0; -EPERM when
 * pfns are hidden; -ENXIO when the source does not show a page we just
 * wrote; other -errno when it cannot be read.
 */
int source_probe(struct pagesrc *src, struct probe *p, uint64_t page_size)
{
	uint64_t pe, pfn, hsz = thp_size();
	volatile char *w;
	int dir, err;

	p->zero_pfn = UINT64_MAX;
	p->hzero_pfn = UINT64_MAX;
	p->hzero_n = 0;
	src->page_shift = __builtin_ctzll(page_size);
	if ((dir = openat(AT_FDCWD, "/proc/self", O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		return -errno;
	err = src->open(src, dir, getpid());
	close(dir);
	if (err < 0)
		return err;
	w = mmap(NULL, 2 * page_size, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (w == MAP_FAILED) {
		err = -errno;
		goto out;
	}
	w[0] = 1;
	if ((err = self_entry(src, w, &pe)) < 0)
		goto out_unmap;
	/* A page we just wrote must be present: if not, the pagemap we read is
	 * not our address space's (qemu-user passes the host's through). */
	if (!(pe & PE_PRESENT)) {
		err = -ENXIO;
		goto out_unmap;
	}
	if ((pe & PE_FRAME_MASK) == 0) {
		err = -EPERM;
		goto out_unmap;
	}
	if (read_zero(src, w + page_size, &pfn))
		p->zero_pfn = pfn;
	else
		munmap((void *)(w + page_size), page_size);
	munmap((void *)w, page_size);

	if (hsz > page_size) {
		char *h = mmap(NULL, 2 * hsz, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (h != MAP_FAILED) {
			char *a = (char *)(((uintptr_t)h + (uintptr_t)hsz - 1) &
					   ~((uintptr_t)hsz - 1));

			madvise(a, hsz, MADV_HUGEPAGE);
			if (read_zero(src, a, &pfn) && pfn != p->zero_pfn) {
				p->hzero_n = hsz / page_size;
				p->hzero_pfn = pfn & ~(p->hzero_n - 1);
				/* keep only the huge page's own range */
				if (a > h)
					munmap(h, (size_t)(a - h));
				munmap(a + hsz, (size_t)(h + 2 * hsz - (a + hsz)));
			} else {
				munmap(h, 2 * hsz);
			}
		}
	}
	goto out;
out_unmap:
	munmap((void *)w, 2 * page_size);
out:
	src->close(src);
	return err;
}
