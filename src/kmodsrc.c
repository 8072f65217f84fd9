/* The kmod page source: /proc/exmap-mini, from the exmap_mini module. */
/*
 * The kmod page source: /proc/exmap-mini, from the exmap_mini kernel module
 * (kmod/), for kernels without pagemap. Its records are page entries in
 * pagemap's layout, with the PTE's own write bit; runs of empty pages and
 * spans (a huge entry's pages: a count, then the first one's entry) are
 * handed out as such. And the census of RAM from its frame mode, a byte a
 * frame, read into the same buffer, settled with the kernel's counts as
 * kpageflags' is (census.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "census.h"
#include "exmap.h"
#include "../kmod/exmap_mini_abi.h"

_Static_assert(PE_FRAME_MASK == EXMAP_MINI_FRAME && PE_WRITE == EXMAP_MINI_WRITE &&
	       PE_EXCLUSIVE == EXMAP_MINI_EXCL && PE_NOTRAM == EXMAP_MINI_NOTRAM &&
	       PE_FILE == EXMAP_MINI_FILE && PE_SWAP == EXMAP_MINI_SWAP &&
	       PE_PRESENT == EXMAP_MINI_PRESENT, "a record is a page entry");

_Static_assert(FK_NOPAGE == EXMAP_MINI_K_NOPAGE && FK_OFFLINE == EXMAP_MINI_K_OFFLINE &&
	       FK_BALLOON == EXMAP_MINI_K_BALLOON && FK_FREE == EXMAP_MINI_K_FREE &&
	       FK_ZERO == EXMAP_MINI_K_ZERO && FK_RESERVED == EXMAP_MINI_K_RESERVED &&
	       FK_HUGETLB == EXMAP_MINI_K_HUGETLB && FK_SLAB == EXMAP_MINI_K_SLAB &&
	       FK_PGTABLE == EXMAP_MINI_K_PGTABLE && FK_KSM == EXMAP_MINI_K_KSM &&
	       FK_ANON == EXMAP_MINI_K_ANON && FK_SHMEM == EXMAP_MINI_K_SHMEM &&
	       FK_FILE == EXMAP_MINI_K_FILE && FK_OTHER == EXMAP_MINI_K_OTHER &&
	       FK_N == EXMAP_MINI_K_N, "the module's kinds are the census's");

#define KM_RECS	8192	/* records per pread: 64 KiB, as many as pagemap reads */

/* The records of the last pread, served from rec[ri] on, which is for kaddr. */
static struct {
	struct exmap_mini_hdr h;
	exmap_mini_rec rec[KM_RECS];
	size_t nrec, ri;
	uint64_t kaddr;
} kbuf;

/* Write the process's pid, with the spans word; a module from before spans
 * refuses that (EINVAL), and is given the pid alone. */
static int km_open(struct pagesrc *s, int piddir, pid_t pid)
{
	char buf[24];
	int n = fmt_snprintf(buf, sizeof(buf), "%d %s", (int)pid, EXMAP_MINI_SPANS_WORD), err;

	(void)piddir;
	kbuf.nrec = kbuf.ri = 0;
	s->fd = openat(AT_FDCWD, "/proc/" EXMAP_MINI_ENTRY, O_RDWR | O_CLOEXEC);
	if (s->fd < 0)
		return -errno;
	if (write(s->fd, buf, n) != n &&
	    (errno != EINVAL || (n = fmt_snprintf(buf, sizeof(buf), "%d", (int)pid),
				 write(s->fd, buf, n) != n))) {
		err = errno;
		close(s->fd);
		s->fd = -1;
		return -err;
	}
	return 0;
}

/* Records from vaddr on, n at most: how many came, or -errno. */
static ssize_t km_pread(struct pagesrc *s, uint64_t vaddr, size_t n)
{
	ssize_t r;

	kbuf.nrec = kbuf.ri = 0;
	if (n > KM_RECS)
		n = KM_RECS;
	do
		r = pread(s->fd, &kbuf, sizeof(kbuf.h) + n * EXMAP_MINI_REC, (off_t)vaddr);
	while (r < 0 && errno == EINTR);
	if (r < 0)
		return -errno;
	if (r == 0)
		return 0;
	if ((size_t)r < sizeof(kbuf.h) + EXMAP_MINI_REC ||
	    (r - sizeof(kbuf.h)) % EXMAP_MINI_REC || kbuf.h.magic != EXMAP_MINI_MAGIC ||
	    kbuf.h.addr != vaddr)
		return -EIO;
	if (kbuf.h.version != EXMAP_MINI_VERSION || kbuf.h.rec_size != EXMAP_MINI_REC ||
	    kbuf.h.page_shift != (uint32_t)s->page_shift)
		return -EPROTO;
	kbuf.nrec = (r - sizeof(kbuf.h)) / EXMAP_MINI_REC;
	kbuf.kaddr = vaddr;
	return kbuf.nrec;
}

/*
 * The records are page entries already (pagemap's layout): handed out where
 * they lie, up to the next run of empty pages, which is handed out as a
 * hole, or span, handed out as one. A read goes on from the last one's
 * records while they last.
 */
static ssize_t km_read(struct pagesrc *s, uint64_t vaddr, uint64_t end, uint64_t **pe,
		       size_t n, uint64_t *span)
{
	static uint64_t first;	/* a span's first entry, as handed out */
	uint64_t pages = (end - vaddr) >> s->page_shift, *r0;
	size_t i;
	ssize_t r;

	*span = 0;
	*pe = NULL;
	/* Above 2^63 ([vsyscall]) an address is no file offset, and it is past
	 * every task size: nothing there, as the module would say. */
	if (vaddr > (uint64_t)INT64_MAX)
		return 0;
	if ((vaddr != kbuf.kaddr || kbuf.ri == kbuf.nrec) && (r = km_pread(s, vaddr, n)) <= 0)
		return r;
	r0 = &kbuf.rec[kbuf.ri];
	if (*r0 & EXMAP_MINI_RUN) {
		/* a hole, raw frames of a VM_PFNMAP mapping (no RAM), or a span */
		uint64_t count = *r0 & EXMAP_MINI_FRAME, step = 1;

		if (count == 0 || ((*r0 & EXMAP_MINI_PRESENT) && kbuf.ri + 1 == kbuf.nrec))
			return -EIO;
		*span = count < pages ? count : pages;
		if (*r0 & EXMAP_MINI_PRESENT) {
			first = r0[1];
			*pe = &first;
			r0[1] += *span;		/* the rest, if any, from the next frame */
			step = 2;
		}
		*r0 -= *span;
		if (*span == count)
			kbuf.ri += step;
		kbuf.kaddr += *span << s->page_shift;
		return 0;
	}
	if (n > pages)
		n = pages;
	for (i = kbuf.ri; i < kbuf.nrec && i - kbuf.ri < n && !(kbuf.rec[i] & EXMAP_MINI_RUN); i++)
		;
	*pe = r0;
	r = i - kbuf.ri;
	kbuf.ri = i;
	kbuf.kaddr += (uint64_t)r << s->page_shift;
	return r;
}

static void km_close(struct pagesrc *s)
{
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
}

#ifndef EXMAP_NO_OUTSIDE
/*
 * The map counts of n frames from pfn, from the module's counts (its own
 * file, read into kbuf, whose records the page source then reads afresh):
 * how many, 0 past the end of memory, or -errno; -EPROTONOSUPPORT from a
 * module older than counts.
 */
static ssize_t km_counts(struct pagesrc *s, uint64_t pfn, uint64_t *c, size_t n)
{
	static const char word[] = EXMAP_MINI_COUNTS_WORD;
	static int err;
	ssize_t r;

	if (s->cfd < 0 && !err) {
		if ((s->cfd = open("/proc/" EXMAP_MINI_ENTRY, O_RDWR | O_CLOEXEC)) < 0)
			err = errno;
		else if (write(s->cfd, word, sizeof(word) - 1) != (ssize_t)sizeof(word) - 1)
			err = errno == EINVAL ? EPROTONOSUPPORT : errno;
	}
	if (err)
		return -err;
	if (n > KM_RECS)
		n = KM_RECS;
	kbuf.nrec = kbuf.ri = 0;
	do
		r = pread(s->cfd, &kbuf, sizeof(kbuf.h) + n * EXMAP_MINI_REC, (off_t)pfn);
	while (r < 0 && errno == EINTR);
	if (r <= 0)
		return r < 0 ? -errno : 0;
	if ((size_t)r < sizeof(kbuf.h) + EXMAP_MINI_REC || (r - sizeof(kbuf.h)) % EXMAP_MINI_REC ||
	    kbuf.h.magic != EXMAP_MINI_MAGIC || kbuf.h.addr != pfn)
		return -EIO;
	if (kbuf.h.version != EXMAP_MINI_VERSION || kbuf.h.rec_size != EXMAP_MINI_REC)
		return -EPROTO;
	r = (r - sizeof(kbuf.h)) / EXMAP_MINI_REC;
	memcpy(c, kbuf.rec, (size_t)r * 8);
	return r;
}
#endif

struct pagesrc kmod_source = {
	.name = "kmod",
	.exact_write = 1,
	.open = km_open,
	.read = km_read,
	.keep = ~(EXMAP_MINI_DIRTY | EXMAP_MINI_YOUNG),
	.close = km_close,
#ifndef EXMAP_NO_OUTSIDE
	.counts = km_counts,
#endif
	.fd = -1,
	.cfd = -1,
};

/*
 * Frames [pfn, end) of the module's frame mode (fd) into c, read into kbuf
 * (its records are the frames' bytes then): 0, or -errno.
 */
static int km_frames(int fd, struct census *c, uint64_t pfn, uint64_t end, int page_shift)
{
	uint8_t *f = (uint8_t *)kbuf.rec;

	while (pfn < end) {
		size_t want = end - pfn < sizeof(kbuf.rec) ? (size_t)(end - pfn) : sizeof(kbuf.rec), k;
		ssize_t got = pread(fd, &kbuf, sizeof(kbuf.h) + want, (off_t)pfn);

		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			return -errno;
		/* 0 bytes: past the end of memory the module knows, which holds these ranges */
		if ((size_t)got <= sizeof(kbuf.h) || kbuf.h.magic != EXMAP_MINI_MAGIC ||
		    kbuf.h.addr != pfn)
			return -EIO;
		if (kbuf.h.version != EXMAP_MINI_VERSION || kbuf.h.rec_size != 1 ||
		    kbuf.h.page_shift != (uint32_t)page_shift)
			return -EPROTO;
		got -= sizeof(kbuf.h);
		for (k = 0; k < (size_t)got; k++) {
			unsigned kind = f[k] & EXMAP_MINI_FKIND;

			if (kind >= FK_N)
				return -EIO;
			c->kind[kind]++;
			c->mapped += (f[k] & EXMAP_MINI_FMAPPED) != 0;
			c->thp += (f[k] & EXMAP_MINI_FTHP) != 0;
			c->bare += (f[k] & EXMAP_MINI_FBARE) != 0;
		}
		c->frames += (uint64_t)got;
		pfn += (uint64_t)got;
	}
	return 0;
}

int census_kmod(struct census *c, const struct ramrange *r, size_t n, int page_shift)
{
	static const char word[] = EXMAP_MINI_FRAMES_WORD;
	struct census_counts before, after;
	size_t i;
	int err = 0, fd = open("/proc/" EXMAP_MINI_ENTRY, O_RDWR | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	memset(c, 0, sizeof(*c));
	c->source = "kmod";
	census_counts(&before, page_shift);
	/* a module from before frame mode takes the word for a bad pid */
	if (write(fd, word, sizeof(word) - 1) != (ssize_t)sizeof(word) - 1)
		err = errno == EINVAL ? -EPROTONOSUPPORT : -errno;
	for (i = 0; i < n && !err; i++)
		err = km_frames(fd, c, r[i].start >> page_shift, r[i].end >> page_shift, page_shift);
	/* kbuf held frames: the page source reads its records afresh */
	kbuf.nrec = kbuf.ri = 0;
	close(fd);
	if (!err) {
		census_counts(&after, page_shift);
		census_settle(c, &before, &after);
	}
	return err;
}
