/* Page sources: choosing one, and the probe every scan starts with. */
/*
 * Page sources: choosing one (the module if loaded, else pagemap), and the
 * probe every scan starts with, which learns through it whether pfns are
 * visible and which frames are the zero pages, not RAM to count.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "census.h"
#include "exmap.h"


/* Our own entry for addr, through the source. */
static int self_entry(struct pagesrc *src, const volatile void *addr, uint64_t *pe)
{
	uint64_t span, *got, va = (uintptr_t)addr & ~(((uint64_t)1 << src->page_shift) - 1);
	ssize_t r = src->read(src, va, va + ((uint64_t)1 << src->page_shift), &got, 1, &span);

	if (r < 0)
		return (int)r;
	if (r == 0 && span == 1 && got)
		r = 1;		/* a page of a PMD */
	if (r != 1)
		return -EIO;
	*pe = *got & src->keep;
	return 0;
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
static int source_probe(struct pagesrc *src, struct probe *p, uint64_t page_size)
{
	uint64_t pe, pfn, hsz = thp_size();
	volatile char *w;
	int dir, err;

	p->zero_pfn = UINT64_MAX;
	p->hzero_pfn = UINT64_MAX;
	p->hzero_n = 0;
	p->pmd_pages = hsz > page_size ? hsz / page_size : 0;
	src->pmd_pages = p->pmd_pages;
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

/*
 * The page source: -b kmod, -b pagemap, or auto: the module when its entry
 * exists, else pagemap. With neither, say what to load or enable.
 */
struct pagesrc *source_choose(const char *b)
{
	int have_kmod = access("/proc/exmap-mini", F_OK) == 0;
	int have_pagemap = access("/proc/self/pagemap", F_OK) == 0;

	if (strcmp(b, "kmod") == 0 || (strcmp(b, "auto") == 0 && have_kmod)) {
		if (!have_kmod)
			die("-b kmod: /proc/exmap-mini does not exist: load the module "
			    "(insmod exmap_mini.ko; see kmod/README.md)");
		return &kmod_source;
	}
	if (strcmp(b, "pagemap") != 0 && strcmp(b, "auto") != 0)
		die("-b: not auto, kmod or pagemap: %s", b);
	if (!have_pagemap)
		die("no page source: this kernel has no /proc/PID/pagemap "
		    "(CONFIG_PROC_PAGE_MONITOR is off) and the exmap-mini module is not "
		    "loaded: build it (make kmod KDIR=...) and insmod exmap_mini.ko");
	return &pagemap_source;
}

/* The source probed (source_probe), or the reason it cannot be used, and exit. */
void source_start(struct pagesrc *src, struct probe *pr, uint64_t page_size)
{
	int err = source_probe(src, pr, page_size);

	if (err == -EPERM || (err == -EACCES && src == &kmod_source))
		die("%s: page frame numbers are hidden without CAP_SYS_ADMIN: %s", src->name,
		    admin_hint());
	if (err == -ENXIO)
		die("%s does not show a page this process just wrote: is it running under "
		    "an emulator such as qemu-user?", src->name);
	if (err == -EPROTO)
		die("kmod: /proc/exmap-mini speaks another version of the protocol: "
		    "load the exmap_mini.ko built with this exmap-mini");
	if (err < 0)
		dierr(-err, "%s: cannot read our own pages", src->name);
}
