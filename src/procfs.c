/* /proc reading with fixed buffers (every field checked), and a process's mapped files. */
#include <stdio.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "exmap.h"

#define HUGETLBFS_MAGIC	0x958458f6u	/* statfs's f_type of hugetlbfs (linux/magic.h) */

void lb_init(struct linebuf *lb, int fd)
{
	lb->fd = fd;
	lb->pos = 0;
	lb->len = 0;
	lb->eof = 0;
}

static int lb_fill(struct linebuf *lb)
{
	ssize_t r;

	do
		r = read(lb->fd, lb->buf, sizeof(lb->buf));
	while (r < 0 && errno == EINTR);
	if (r < 0)
		return -errno;
	lb->pos = 0;
	lb->len = r;
	if (r == 0)
		lb->eof = 1;
	return 0;
}

/*
 * Next line into line[max], NUL-terminated, without its newline. A line longer
 * than max - 1 is cut there, *toolong is set and the rest of it is consumed,
 * so it is never read again as a line of its own. 1: a line; 0: end; <0: -errno.
 */
int lb_next(struct linebuf *lb, char *line, size_t max, size_t *len, int *toolong)
{
	size_t n = 0;
	int got = 0, err;

	*toolong = 0;
	for (;;) {
		char *nl;
		size_t take, avail;

		if (lb->pos == lb->len) {
			if (lb->eof)
				break;
			if ((err = lb_fill(lb)) < 0)
				return err;
			if (lb->eof)
				break;
		}
		got = 1;
		avail = lb->len - lb->pos;
		nl = memchr(lb->buf + lb->pos, '\n', avail);
		take = nl ? (size_t)(nl - (lb->buf + lb->pos)) : avail;
		if (take > max - 1 - n) {
			*toolong = 1;
			memcpy(line + n, lb->buf + lb->pos, max - 1 - n);
			n = max - 1;
		} else {
			memcpy(line + n, lb->buf + lb->pos, take);
			n += take;
		}
		lb->pos += take;
		if (nl) {
			lb->pos++;
			break;
		}
	}
	line[n] = '\0';
	*len = n;
	return got;
}

/*
 * A whole small /proc file; its length, or -errno (-EFBIG if it did not fit).
 * A one-line file (READ_LINE) ends at its newline, without a read to meet
 * EOF; READ_CUT keeps what fits.
 */
enum { READ_WHOLE, READ_LINE, READ_CUT };
static ssize_t read_whole(int dirfd, const char *name, char *buf, size_t max, int how)
{
	size_t n = 0;
	int fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	for (;;) {
		ssize_t r = read(fd, buf + n, max - 1 - n);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int err = errno;

			close(fd);
			return -err;
		}
		if (r == 0)
			break;
		n += r;
		if ((how == READ_LINE && buf[n - 1] == '\n') || (how == READ_CUT && n == max - 1))
			break;
		if (n == max - 1) {
			close(fd);
			return -EFBIG;
		}
	}
	close(fd);
	buf[n] = '\0';
	return n;
}

ssize_t read_small(int dirfd, const char *name, char *buf, size_t max)
{
	return read_whole(dirfd, name, buf, max, READ_WHOLE);
}

ssize_t read_line(int dirfd, const char *name, char *buf, size_t max)
{
	return read_whole(dirfd, name, buf, max, READ_LINE);
}

/* A process's arguments, NUL between them, cut at max - 1 bytes: their
 * length (the NULs at the end left out), or -errno. */
ssize_t read_cmdline(int piddir, char *buf, size_t max)
{
	ssize_t n = read_whole(piddir, "cmdline", buf, max, READ_CUT);

	while (n > 0 && buf[n - 1] == '\0')
		n--;
	return n;
}

/*
 * A process's name (comm) and when it started, in clock ticks since boot,
 * from stat (the name in parentheses, which may hold anything, then field 3
 * on): with its pid, the start tells it from a later process of that pid.
 * 0, or -errno (-ESRCH: empty, the process gone; -EPROTO: not as expected).
 */
int read_stat(int piddir, char name[NAME_MAX_COMM], uint64_t *start)
{
	char buf[1024], *q, *e;
	ssize_t n = read_small(piddir, "stat", buf, sizeof(buf));
	const char *open = memchr(buf, '(', n > 0 ? (size_t)n : 0);
	int field;

	if (n <= 0)
		return n ? (int)n : -ESRCH;
	q = strrchr(buf, ')');
	if (!open || !q || q - open - 1 >= NAME_MAX_COMM)
		return -EPROTO;
	memcpy(name, open + 1, q - open - 1);
	name[q - open - 1] = '\0';
	for (field = 2; q && field < 22; field++)
		q = strchr(q + 1, ' ');
	if (!q || !(e = strchr(q + 1, ' ')) || (*e = '\0', parse_u64(q + 1, UINT64_MAX, start)) < 0)
		return -EPROTO;
	return 0;
}

/* The name alone, from comm: cheaper for the kernel than stat, whose other
 * fields it computes (make bench's procs case shows the difference). 0, or
 * -errno (-ESRCH: empty, the process gone). */
int read_comm(int piddir, char name[NAME_MAX_COMM])
{
	ssize_t n = read_line(piddir, "comm", name, NAME_MAX_COMM);

	if (n <= 0)
		return n ? (int)n : -ESRCH;
	if (name[n - 1] == '\n')
		name[n - 1] = '\0';
	return 0;
}

/* Lowercase hex, as the kernel prints it: hot, so a digit costs few branches. */
static inline const char *hex_field(const char *p, const char *end, uint64_t *v)
{
	uint64_t x = 0;
	const char *s = p;

	for (; p < end; p++) {
		unsigned c = (unsigned char)*p, d = c - '0';

		if (d > 9 && (d = c - 'a' + 10) - 10 > 5)
			break;
		if (x >> 60)
			return NULL;
		x = x << 4 | d;
	}
	if (p == s)
		return NULL;
	*v = x;
	return p;
}

static inline const char *dec_field(const char *p, const char *end, uint64_t *v)
{
	uint64_t x = 0;
	const char *s = p;

	for (; p < end && *p >= '0' && *p <= '9'; p++) {
		unsigned d = *p - '0';

		if (x > (UINT64_MAX - d) / 10)
			return NULL;
		x = x * 10 + d;
	}
	if (p == s)
		return NULL;
	*v = x;
	return p;
}

static inline const char *expect(const char *p, const char *end, char c)
{
	return p && p < end && *p == c ? p + 1 : NULL;
}

/*
 * "start-end perms offset major:minor inode   path". The kernel pads before
 * the path, which never starts with a space (absolute, or a [pseudo] name),
 * so all spaces after the inode go. 0 on success, -1 if malformed.
 */
int parse_maps_line(const char *line, size_t len, struct mapping *m,
		    const char **path, size_t *pathlen)
{
	static const char deleted[] = " (deleted)";
	const char *p = line, *end = line + len;
	uint64_t major, minor;
	int i;

	memset(m, 0, sizeof(*m));
	p = expect(hex_field(p, end, &m->start), end, '-');
	p = p ? expect(hex_field(p, end, &m->end), end, ' ') : NULL;
	if (!p || m->end < m->start || end - p < 5)
		return -1;
	for (i = 0; i < 4; i++) {
		static const char want[4] = "rwx";
		char c = p[i];

		if (i < 3 && c == want[i])
			m->flags |= (uint32_t)MF_READ << i;
		else if (i == 3 && (c == 's' || c == 'p'))
			m->flags |= c == 's' ? MF_SHARED : 0;
		else if (c != '-')
			return -1;
	}
	p = expect(p + 4, end, ' ');
	p = p ? expect(hex_field(p, end, &m->offset), end, ' ') : NULL;
	p = p ? expect(hex_field(p, end, &major), end, ':') : NULL;
	p = p ? hex_field(p, end, &minor) : NULL;
	p = p ? expect(p, end, ' ') : NULL;
	p = p ? dec_field(p, end, &m->inode) : NULL;
	if (!p || major >= (1u << 12) || minor >= (1u << 20))
		return -1;
	m->dev = (uint32_t)major << 20 | (uint32_t)minor;
	if (p < end && *p != ' ')
		return -1;
	while (p < end && *p == ' ')
		p++;
	*path = p;
	*pathlen = end - p;
	if (*pathlen > sizeof(deleted) - 1 &&
	    memcmp(end - (sizeof(deleted) - 1), deleted, sizeof(deleted) - 1) == 0) {
		*pathlen -= sizeof(deleted) - 1;
		m->flags |= MF_DELETED;
	}
	return 0;
}

/* Call fn for each numeric entry of /proc, in the kernel's (pid) order. */
int pid_iter(int (*fn)(pid_t pid, void *arg), void *arg)
{
	static char buf[32768];
	int fd = openat(AT_FDCWD, "/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	long r;
	int err = 0;

	if (fd < 0)
		return -errno;
	while (err == 0 && (r = syscall(SYS_getdents64, fd, buf, sizeof(buf))) > 0) {
		long off = 0;

		while (err == 0 && off < r) {
			struct linux_dirent64 *d = (void *)(buf + off);
			uint64_t pid;

			off += d->d_reclen;
			if (parse_u64(d->d_name, INT32_MAX, &pid) == 0 && pid > 0)
				err = fn((pid_t)pid, arg);
		}
	}
	if (err == 0 && r < 0)
		err = -errno;
	close(fd);
	return err;
}

/* The value in kB of a "Name:   123 kB" line of a /proc status-like file. */
static int kb_field(const char *text, const char *name, uint64_t *kb)
{
	size_t nl = strlen(name);
	const char *p = text;

	for (; p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		if (strncmp(p, name, nl) == 0 && p[nl] == ':') {
			p += nl + 1;
			while (*p == ' ' || *p == '\t')
				p++;
			return dec_field(p, p + 24, kb) ? 0 : -1;
		}
	}
	return -1;
}

/* The kB of an smaps line that counts pages (Rss, Swap, hugetlb), or -1. */
int smaps_kb(const char *line, uint64_t *kb)
{
	static const char *const names[] = {
		"Rss", "Swap", "Shared_Hugetlb", "Private_Hugetlb",
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (line[0] == names[i][0])
			if (kb_field(line, names[i], kb) == 0)
				return 0;
	return -1;
}

/*
 * A bound on the distinct pages mapped system-wide, from the kernel's own
 * counters: anonymous and file pages mapped, swap in use and hugetlb pages in
 * use. THP counters are added again in case a kernel keeps them apart. And
 * the pages of RAM and swap there are.
 */
int meminfo_pages(uint64_t page_size, uint64_t *bound, uint64_t *ram_swap)
{
	static const char *const add[] = {
		"AnonPages", "Mapped", "AnonHugePages", "ShmemPmdMapped",
		"FilePmdMapped", "SwapTotal",
	};
	static char buf[8192];
	uint64_t kb = 0, v, swfree = 0, hp_total = 0, hp_free = 0, hp_kb = 0;
	size_t i;
	ssize_t n = read_small(AT_FDCWD, "/proc/meminfo", buf, sizeof(buf));

	if (n < 0)
		return (int)n;
	for (i = 0; i < sizeof(add) / sizeof(add[0]); i++)
		if (kb_field(buf, add[i], &v) == 0)
			kb += v;
	if (kb_field(buf, "SwapFree", &swfree) == 0 && swfree <= kb)
		kb -= swfree;
	if (kb_field(buf, "HugePages_Total", &hp_total) == 0 &&
	    kb_field(buf, "HugePages_Free", &hp_free) == 0 &&
	    kb_field(buf, "Hugepagesize", &hp_kb) == 0 && hp_free <= hp_total)
		kb += (hp_total - hp_free) * hp_kb;
	*bound = kb / (page_size / 1024);
	/* every page a process maps is in RAM or swap: their blocks are few */
	kb = 0;
	if (kb_field(buf, "MemTotal", &v) == 0)
		kb += v;
	if (kb_field(buf, "SwapTotal", &v) == 0)
		kb += v;
	*ram_swap = kb / (page_size / 1024);
	return 0;
}

/* /proc/PID as a directory, to open its files by name: an fd, or -errno. */
int open_pid_dir(pid_t pid)
{
	char dir[32], *path;
	int fd;

	dir[sizeof(dir) - 1] = '\0';
	path = fmt_dec(dir + sizeof(dir) - 1, (uint64_t)pid) - 6;
	memcpy(path, "/proc/", 6);
	/* openat, not open: musl's open adds an fcntl for O_CLOEXEC */
	fd = openat(AT_FDCWD, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

/* Open a path as a regular file, without blocking on a FIFO or device. */
int open_regular(int dirfd, const char *path, uint64_t *size)
{
	struct stat st;
	int fd = openat(dirfd, path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0) {
		int err = errno;

		close(fd);
		return -err;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return -EINVAL;
	}
	*size = (uint64_t)st.st_size;
	return fd;
}

/*
 * Open the file p maps: through map_files (the very inode mapped, even
 * deleted or in another mount namespace), else through the process's root,
 * checked against the inode and device the mapping names. An fd, or
 * -errno and why.
 */
int open_mapped(int piddir, const struct mapping *m, uint64_t *size, const char **why)
{
	static char name[64 + PATH_BUF];
	struct stat st;
	int fd;

	fmt_snprintf(name, sizeof(name), "map_files/%llx-%llx", (unsigned long long)m->start,
		     (unsigned long long)m->end);
	fd = open_regular(piddir, name, size);
	if (fd >= 0 || fd == -EINVAL) {
		*why = "not a regular file";
		return fd;
	}
	if (m->flags & MF_DELETED) {
		*why = "deleted, and /proc/PID/map_files cannot be read";
		return -ENOENT;
	}
	fmt_snprintf(name, sizeof(name), "root%s", m->path);
	if ((fd = open_regular(piddir, name, size)) < 0) {
		*why = "cannot be opened";
		return fd;
	}
	if (fstat(fd, &st) < 0 || st.st_ino != m->inode ||
	    major(st.st_dev) != m->dev >> 20 || minor(st.st_dev) != (m->dev & 0xfffff)) {
		close(fd);
		*why = "the file at that path is no longer the one mapped";
		return -ESTALE;
	}
	return fd;
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
 * Whether a file mapping that can hold a PMD is a hugetlbfs file's (an
 * anonymous MAP_HUGETLB mapping is one too): its huge pages are no THP's,
 * and may be smaller than a PMD. When it cannot be told, taken as one.
 */
static int is_hugetlb(int piddir, const struct mapping *m, uint64_t pmd)
{
	uint64_t a = (m->start + pmd - 1) & ~(pmd - 1);
	struct statfs st;
	char name[64];
	int fd, r;

	if (!pmd || m->inode == 0 || a < m->start || a > m->end || m->end - a < pmd)
		return 0;
	fmt_snprintf(name, sizeof(name), "map_files/%llx-%llx",
		     (unsigned long long)m->start, (unsigned long long)m->end);
	if ((fd = openat(piddir, name, O_PATH | O_CLOEXEC)) < 0)
		return 1;
	r = fstatfs(fd, &st);
	close(fd);
	return r < 0 || (unsigned long)st.f_type == HUGETLBFS_MAGIC;
}

/*
 * Whether a mapping may hold frames the kernel maps without a page (which
 * Rss leaves out): not anonymous memory and not a regular file, so a device,
 * or a mapping the kernel named ([vvar], [vdso], anon_inode:...). What is RAM
 * there is the kernel's to say, page by page (pagesrc's unmapped).
 */
static int may_map_raw(const char *p, uint32_t flags)
{
	if (flags & MF_DEVICE)
		return 1;
	if (p[0] == '\0' || (p[0] == '/' && strncmp(p, "/dev/", 5) != 0))
		return 0;
	return strcmp(p, "[heap]") != 0 && strncmp(p, "[stack", 6) != 0 &&
	       strncmp(p, "[anon", 5) != 0;
}

/*
 * What a mapping is beyond its maps line (pmd: a PMD's bytes, 0 if none):
 * MF_DEVICE, MF_HUGETLB and MF_RAWPFN as they apply.
 */
uint32_t map_kind(int piddir, const struct mapping *m, uint64_t pmd)
{
	uint32_t f = m->flags;

	if (m->inode != 0 && is_device(piddir, m, m->path))
		f |= MF_DEVICE;
	if (is_hugetlb(piddir, m, pmd))
		f |= MF_HUGETLB;
	if (may_map_raw(m->path, f))
		f |= MF_RAWPFN;
	return f & (MF_DEVICE | MF_HUGETLB | MF_RAWPFN);
}
