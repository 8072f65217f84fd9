/*
 * The kmod page source: /proc/exmap-mini, from the exmap_mini kernel module
 * (kmod/), for kernels without pagemap. Its records give the PTE's own write
 * bit and the page's map count; they are turned into PE_ entries here.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "exmap.h"
#include "../kmod/exmap_mini_abi.h"

#define KM_RECS	2048	/* records per pread: a 32 KiB buffer */
static unsigned char kbuf[EXMAP_MINI_HDR + KM_RECS * EXMAP_MINI_REC];

static int km_open(struct pagesrc *s, int piddir, pid_t pid)
{
	char buf[16];
	int n = snprintf(buf, sizeof(buf), "%d", (int)pid), err;

	(void)piddir;
	s->fd = openat(AT_FDCWD, "/proc/" EXMAP_MINI_ENTRY, O_RDWR | O_CLOEXEC);
	if (s->fd < 0)
		return -errno;
	if (write(s->fd, buf, n) != n) {
		err = errno;
		close(s->fd);
		s->fd = -1;
		return -err;
	}
	return 0;
}

static uint32_t get32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

static uint64_t get64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

/* One record as a page entry. */
static uint64_t km_entry(uint64_t frame, uint32_t count, uint32_t flags)
{
	uint64_t e = frame & PE_FRAME_MASK;

	if (flags & EXMAP_MINI_PRESENT) {
		e |= PE_PRESENT;
		if (count == 1)
			e |= PE_EXCLUSIVE;
		if (flags & EXMAP_MINI_FILE)
			e |= PE_FILE;
		if (flags & EXMAP_MINI_WRITE)
			e |= PE_WRITE;
		if (flags & (EXMAP_MINI_ZERO | EXMAP_MINI_NOPAGE))
			e |= PE_NOTRAM;
	} else if (flags & EXMAP_MINI_SWAP) {
		e |= PE_SWAP;
	}
	return e;
}

/*
 * Up to n entries from vaddr, in one pread of at most KM_RECS records. A hole
 * record that fits is spelled out as empty entries; one longer than the room
 * left ends the entries there, or, first, is returned as *hole.
 */
static ssize_t km_read_some(struct pagesrc *s, uint64_t vaddr, uint64_t *pe, size_t n,
			    uint64_t *hole)
{
	size_t want, got = 0, i;
	ssize_t r;

	if (n > KM_RECS)
		n = KM_RECS;
	want = EXMAP_MINI_HDR + n * EXMAP_MINI_REC;
	do
		r = pread(s->fd, kbuf, want, (off_t)vaddr);
	while (r < 0 && errno == EINTR);
	if (r < 0)
		return -errno;
	if (r == 0)
		return 0;
	if (r < EXMAP_MINI_HDR + EXMAP_MINI_REC || (r - EXMAP_MINI_HDR) % EXMAP_MINI_REC ||
	    get32(kbuf) != EXMAP_MINI_MAGIC || get64(kbuf + 16) != vaddr)
		return -EIO;
	if ((get32(kbuf + 4) & 0xffff) != EXMAP_MINI_VERSION ||
	    get32(kbuf + 4) >> 16 != EXMAP_MINI_REC || get32(kbuf + 8) != (uint32_t)s->page_shift)
		return -EPROTO;
	for (i = EXMAP_MINI_HDR; i < (size_t)r && got < n; i += EXMAP_MINI_REC) {
		uint64_t frame = get64(kbuf + i);
		uint32_t count = get32(kbuf + i + 8), flags = get32(kbuf + i + 12);

		if ((flags & EXMAP_MINI_KIND) == EXMAP_MINI_PAGE) {
			pe[got++] = km_entry(frame, count, flags);
			continue;
		}
		/* a hole, or device memory that has no struct page: no RAM */
		if (count > n - got) {
			if (got == 0)
				*hole = count;
			break;
		}
		memset(pe + got, 0, (size_t)count * sizeof(*pe));
		got += count;
	}
	return got;
}

static ssize_t km_read(struct pagesrc *s, uint64_t vaddr, uint64_t end, uint64_t *pe,
		       size_t n, uint64_t *hole)
{
	size_t got = 0;

	(void)end;	/* read_pages stops at the mapping's end */
	*hole = 0;
	/* Above 2^63 ([vsyscall]) an address is no file offset, and it is past
	 * every task size: nothing there, as the module would say. */
	if (vaddr > (uint64_t)INT64_MAX)
		return 0;
	while (got < n) {
		ssize_t r = km_read_some(s, vaddr + ((uint64_t)got << s->page_shift),
					 pe + got, n - got, hole);

		if (r < 0)
			return got ? (ssize_t)got : r;
		if (r == 0) {
			/* a hole after entries is the next read's */
			if (got)
				*hole = 0;
			break;
		}
		got += r;
	}
	return got;
}

static void km_close(struct pagesrc *s)
{
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
}

struct pagesrc kmod_source = {
	.name = "kmod",
	.exact_write = 1,
	.open = km_open,
	.read = km_read,
	.close = km_close,
	.fd = -1,
};
