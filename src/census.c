/* The census of RAM from /proc/kpageflags: every frame once, by its flags. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "census.h"

const char *const frame_kind_name[FK_N] = {
	[FK_NOPAGE] = "no struct page", [FK_OFFLINE] = "offline", [FK_BALLOON] = "balloon",
	[FK_FREE] = "free", [FK_ZERO] = "zero page", [FK_RESERVED] = "reserved",
	[FK_HUGETLB] = "hugetlb", [FK_SLAB] = "slab", [FK_PGTABLE] = "page tables",
	[FK_KSM] = "ksm", [FK_ANON] = "anonymous", [FK_SHMEM] = "shmem",
	[FK_FILE] = "page cache", [FK_OTHER] = "other kernel",
};

#define F(b)	(UINT64_C(1) << (b))

/*
 * A frame's kind from its flags: the first of census.h's order that applies.
 * No bit says balloon: 23, KPF_BALLOON until 5.0, is KPF_OFFLINE, which
 * balloon drivers set since; 33 is KPF_MLOCKED.
 */
static int kind_of(uint64_t f)
{
	if (f & F(KPF_NOPAGE))
		return FK_NOPAGE;
	if (f & F(KPF_OFFLINE))
		return FK_OFFLINE;
	if (f & F(KPF_BUDDY))
		return FK_FREE;
	if (f & F(KPF_ZERO_PAGE))
		return FK_ZERO;
	if (f & F(KPF_RESERVED))
		return FK_RESERVED;
	if (f & F(KPF_HUGE))
		return FK_HUGETLB;
	if (f & F(KPF_SLAB))
		return FK_SLAB;
	if (f & F(KPF_PGTABLE))
		return FK_PGTABLE;
	if (f & F(KPF_KSM))
		return FK_KSM;
	if (f & F(KPF_ANON))
		return FK_ANON;
	if (f & F(KPF_SWAPBACKED))
		return FK_SHMEM;
	if (f & F(KPF_LRU))
		return FK_FILE;
	return FK_OTHER;
}

int census_kpageflags(struct census *c, const struct ramrange *r, size_t n, int page_shift)
{
	static uint64_t buf[8192];	/* 64 KiB: 32 MiB of 4 KiB frames a read */
	size_t i;
	int fd = open("/proc/kpageflags", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	memset(c, 0, sizeof(*c));
	c->source = "kpageflags";
	for (i = 0; i < n; i++) {
		uint64_t pfn = r[i].start >> page_shift, end = r[i].end >> page_shift;

		while (pfn < end) {
			size_t want = end - pfn < 8192 ? (size_t)(end - pfn) : 8192, k;
			ssize_t got = pread(fd, buf, want * 8, (off_t)(pfn * 8));

			if (got < 0 && errno == EINTR)
				continue;
			if (got <= 0 || got % 8) {
				int err = got < 0 ? errno : EIO;

				close(fd);
				return -err;
			}
			for (k = 0; k < (size_t)got / 8; k++) {
				uint64_t f = buf[k];

				c->kind[kind_of(f)]++;
				c->mapped += (f >> KPF_MMAP) & 1;
				c->thp += (f >> KPF_THP) & 1;
			}
			c->frames += (uint64_t)got / 8;
			pfn += (uint64_t)got / 8;
		}
	}
	close(fd);
	/*
	 * 6.12's kpageflags sets KSM on every anonymous page: it tests mapping &
	 * PAGE_MAPPING_KSM, which the anon bit alone passes (7.x tests for both
	 * bits). Where no anonymous frame goes without it, none is KSM's.
	 */
	if (c->kind[FK_ANON] == 0) {
		c->kind[FK_ANON] = c->kind[FK_KSM];
		c->kind[FK_KSM] = 0;
	}
	return 0;
}

