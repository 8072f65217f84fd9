/* dma-bufs: whether any can exist, the kernel's list of them, the shares. */
/*
 * Reading every process's fds is dear (make bench's procs case), so a scan
 * does it only where a buffer can exist: the kernel's list (sysfs stats,
 * or debugfs's bufinfo) holds one, or a device that exports them to
 * processes is registered (a DRM device too: its clients' memory is read
 * through the same walk). After the walk the list is read again: what no
 * process holds, and which buffers went while the scan ran. Then each
 * buffer's size is shared equally among the processes holding it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "capture.h"
#include "dmabuf.h"

#define BUFINFO		"/sys/kernel/debug/dma_buf/bufinfo"
#define SYSFS_BUFS	"/sys/kernel/dmabuf/buffers"

static char text[8192];		/* bufinfo, a piece at a time */
static char dents[4096];
static int found;		/* the gate's: the list holds a buffer */

/* A decimal number at *p, *p moved past it. */
static int dec_at(const char **p, uint64_t *v)
{
	char num[24];
	size_t n = strspn(*p, "0123456789");

	if (n == 0 || n >= sizeof(num))
		return -1;
	memcpy(num, *p, n);
	num[n] = '\0';
	*p += n;
	return parse_u64(num, UINT64_MAX, v);
}

/*
 * bufinfo's buffer lines (size, flags, mode, count, exporter, inode, name,
 * tab-separated; its other lines start with a tab or a word), each given to
 * fn; stopped early when fn returns 1. "Total N objects, B bytes" into *n
 * and *bytes. -errno if it cannot be read.
 */
static int bufinfo_read(int (*fn)(struct scan *, char **), struct scan *s,
			uint32_t *n, uint64_t *bytes)
{
	int fd = openat(AT_FDCWD, BUFINFO, O_RDONLY | O_CLOEXEC);
	size_t have = 0;
	ssize_t r;
	int skip = 0;		/* the rest of a line too long for text: not a line */

	if (fd < 0)
		return -errno;
	for (;;) {
		char *line, *nl;

		r = read(fd, text + have, sizeof(text) - 1 - have);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		have += (size_t)r;
		text[have] = '\0';
		for (line = text; (nl = strchr(line, '\n')) != NULL; line = nl + 1) {
			const char *q = line + 6;
			char *f[7], *p = line;
			uint64_t v;
			int k;

			*nl = '\0';
			if (skip) {
				skip = 0;
				continue;
			}
			if (strncmp(line, "Total ", 6) == 0 && dec_at(&q, &v) == 0 &&
			    strncmp(q, " objects, ", 10) == 0 && (q += 10, dec_at(&q, bytes) == 0)) {
				*n = v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
				continue;
			}
			if (line[0] < '0' || line[0] > '9')
				continue;
			for (k = 0; k < 7 && p; k++) {
				f[k] = p;
				if ((p = strchr(p, '\t')) != NULL && k < 6)
					*p++ = '\0';
			}
			if (k == 7 && fn(s, f)) {
				close(fd);
				return 0;
			}
		}
		have = strlen(line);
		memmove(text, line, have);
		if (have == sizeof(text) - 1)
			have = 0, skip = 1;	/* not one of its lines: dropped, to its end */
	}
	close(fd);
	return r < 0 ? -errno : 0;
}

static int any_line(struct scan *s, char **f)
{
	(void)s;
	(void)f;
	return found = 1;
}

/* A bufinfo line into the table: listed, with its size, exporter and name. */
static int list_line(struct scan *s, char **f)
{
	uint64_t size, ino;
	struct dmabuf *b;

	if (parse_u64(f[0], UINT64_MAX, &size) < 0 || parse_u64(f[5], UINT64_MAX, &ino) < 0)
		return 0;
	b = dmabuf_find(s, ino, 1);
	b->flags |= DB_LISTED | DB_SIZED;
	b->size = size;
	if (!b->exp[0])
		b->exp = arena_strdup(s->arena, f[4], strlen(f[4]));
	if (!b->name[0] && strcmp(f[6], "<none>") != 0)
		b->name = arena_strdup(s->arena, f[6], strlen(f[6]));
	return 0;
}

/* The sysfs stats' buffers (a directory each, by inode): fn for each,
 * stopped early when it returns 1. -errno if there is none to read. */
static int sysfs_read(struct scan *s, int (*fn)(struct scan *, int, uint64_t))
{
	int dir = openat(AT_FDCWD, SYSFS_BUFS, O_RDONLY | O_DIRECTORY | O_CLOEXEC), stop = 0;
	long n, off;

	if (dir < 0)
		return -errno;
	while (!stop && (n = syscall(SYS_getdents64, dir, dents, sizeof(dents))) > 0)
		for (off = 0; !stop && off < n;) {
			struct linux_dirent64 *d = (void *)(dents + off);
			uint64_t ino;

			off += d->d_reclen;
			if (parse_u64(d->d_name, UINT64_MAX, &ino) == 0)
				stop = fn(s, dir, ino);
		}
	close(dir);
	return 0;
}

static int any_dir(struct scan *s, int dir, uint64_t ino)
{
	(void)s;
	(void)dir;
	(void)ino;
	return found = 1;
}

static int list_dir(struct scan *s, int dir, uint64_t ino)
{
	char path[48], val[256];
	struct dmabuf *b;
	uint64_t size;
	ssize_t n;

	fmt_snprintf(path, sizeof(path), "%llu/size", (unsigned long long)ino);
	if ((n = read_line(dir, path, val, sizeof(val))) <= 0 ||
	    (val[n - 1] = '\0', parse_u64(val, UINT64_MAX, &size)) < 0)
		return 0;	/* freed since the directory was read */
	b = dmabuf_find(s, ino, 1);
	b->flags |= DB_LISTED | DB_SIZED;
	b->size = size;
	s->dma->list_count++;
	s->dma->list_bytes += size;
	fmt_snprintf(path, sizeof(path), "%llu/exporter_name", (unsigned long long)ino);
	if (!b->exp[0] && (n = read_line(dir, path, val, sizeof(val))) > 0)
		b->exp = arena_strdup(s->arena, val, (size_t)n - (val[n - 1] == '\n'));
	return 0;
}

/* A registered device that exports dma-bufs to processes, by its name in
 * /proc/devices' character devices or /proc/misc: 2 DRM's (whose clients'
 * memory the walk reads too), 1 another's, 0 none. */
static int exporter_registered(void)
{
	static const char *const majors[] = {
		"drm", "dma_heap", "video4linux", "accel", "galcore", "kgsl",
	};
	static const char *const misc[] = { "udmabuf", "ion", "nvmap", "mali", "fastrpc" };
	int pass;

	for (pass = 0; pass < 2; pass++) {
		const char *w = text;
		size_t i, n;

		if (read_small(AT_FDCWD, pass ? "/proc/misc" : "/proc/devices", text,
			       sizeof(text)) < 0)
			continue;
		for (; (n = strcspn(w += strspn(w, " \n"), " \n")) > 0; w += n) {
			if (n == 5 && strncmp(w, "Block", 5) == 0)
				break;	/* /proc/devices: the block devices follow */
			for (i = 0; !pass && i < sizeof(majors) / sizeof(majors[0]); i++)
				if (strlen(majors[i]) == n && strncmp(w, majors[i], n) == 0)
					return i == 0 ? 2 : 1;
			for (i = 0; pass && i < sizeof(misc) / sizeof(misc[0]); i++)
				if (strncmp(w, misc[i], strlen(misc[i])) == 0)
					return 1;
		}
	}
	return 0;
}

/* Before the processes are read: the table, and whether to walk their fds. */
void dmabuf_start(struct scan *s)
{
	struct dmatab *t = arena_alloc(s->arena, sizeof(*t), 8);
	const char *env = getenv("EXMAP_DMABUF");
	uint64_t bytes;
	uint32_t n;
	int listed = 0, dev;

	memset(t, 0, sizeof(*t));
	t->tail = &t->first;
	s->dma = t;
	found = 0;
	if (env && strcmp(env, "0") != 0 && strcmp(env, "1") != 0)
		die("EXMAP_DMABUF: 1 (read every process's fds) or 0 (never): %s", env);
	/* the list the holds are checked against, read again after the walk */
	if (access(SYSFS_BUFS, F_OK) == 0) {
		t->list = "sysfs";
		listed = !env && sysfs_read(s, any_dir) == 0 && found;
	} else if (access(BUFINFO, R_OK) == 0) {
		t->list = "bufinfo";
		listed = !env && bufinfo_read(any_line, s, &n, &bytes) == 0 && found;
	}
	if (env) {
		t->walk = env[0] == '1';
		t->never = !t->walk;
		t->why = t->walk ? "EXMAP_DMABUF=1" : "EXMAP_DMABUF=0";
		return;
	}
	dev = exporter_registered();
	t->walk = listed || (dev && !t->list) || dev == 2;
	t->why = listed ? "the kernel lists dma-bufs" : dev == 2 ? "a DRM device is registered" :
		 dev ? "a device that exports dma-bufs is registered" : t->list ?
		 "the kernel lists no dma-buf, and no DRM device is registered" :
		 "no device that exports dma-bufs is registered";
}

/* The buffers a DMA-BUF heap exported: their exporter is a heap's name. */
static void mark_heaps(struct scan *s)
{
	int dir = openat(AT_FDCWD, "/dev/dma_heap", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	struct dmabuf *b;
	long n, off;

	if (dir < 0)
		return;
	while ((n = syscall(SYS_getdents64, dir, dents, sizeof(dents))) > 0)
		for (off = 0; off < n;) {
			struct linux_dirent64 *d = (void *)(dents + off);

			off += d->d_reclen;
			for (b = s->dma->first; b; b = b->next)
				if (d->d_name[0] != '.' && strcmp(b->exp, d->d_name) == 0)
					b->flags |= DB_HEAP;
		}
	close(dir);
}

/* After the walk: the kernel's list again, for what no process holds and
 * what went meanwhile; heaps' buffers marked. */
static void list_after(struct scan *s)
{
	struct dmatab *t = s->dma;
	struct dmabuf *b;
	int err;

	for (b = t->first; b; b = b->next)
		b->flags &= ~DB_LISTED;
	t->list_count = 0;
	t->list_bytes = 0;
	err = strcmp(t->list, "sysfs") == 0 ? sysfs_read(s, list_dir) :
	      bufinfo_read(list_line, s, &t->list_count, &t->list_bytes);
	if (err < 0) {
		warnerr(-err, "%s: the dma-bufs no process holds are not known",
			strcmp(t->list, "sysfs") == 0 ? SYSFS_BUFS : BUFINFO);
		t->list = NULL;
		return;
	}
	for (b = t->first; b; b = b->next)
		if (!(b->flags & DB_LISTED))
			b->flags |= DB_GONE;
}

static int cmp_buf(const void *a, const void *b)
{
	uint64_t x = (*(struct dmabuf *const *)a)->ino, y = (*(struct dmabuf *const *)b)->ino;

	return (x > y) - (x < y);
}

static int cmp_hold(const void *a, const void *b)
{
	return cmp_buf(&(*(struct dmahold *const *)a)->buf, &(*(struct dmahold *const *)b)->buf);
}

/* A process's holds in inode order, its figures from its buffers' holders. */
static void proc_holds(struct scan *s, struct proc *p, int pass)
{
	struct dmaproc *d = p->dma;
	struct dmahold **v, *h;
	uint32_t i = 0;

	if (!d)
		return;
	if (pass == 0) {
		v = arena_alloc(s->arena, (d->nhold + 1) * sizeof(*v), 8);
		for (h = d->hold; h; h = h->next)
			v[i++] = h;
		sort(v, d->nhold, sizeof(*v), cmp_hold);
		for (d->hold = NULL; i > 0; i--) {
			v[i - 1]->next = d->hold;
			d->hold = v[i - 1];
		}
		for (h = d->hold; h; h = h->next)
			h->buf->nholder += !(h->buf->flags & DB_GONE);
		return;
	}
	d->held = 0;
	memset(&d->share, 0, sizeof(d->share));
	for (h = d->hold; h; h = h->next) {
		const struct dmabuf *b = h->buf;
		uint64_t n = b->nholder;

		if (b->flags & DB_GONE)
			continue;
		d->held += b->size;
		eff_sum(&d->share, &(struct eff){ b->size / n, ((b->size % n) << 32) / n });
	}
}

/*
 * The end of a scan, or of loading a capture: the list read again (live),
 * each buffer's holders counted, each process's holds in inode order and
 * its figures, the buffers in inode order.
 */
void dmabuf_settle(struct scan *s)
{
	struct dmatab *t;
	struct dmabuf *b;
	struct proc *p;
	uint32_t i = 0;
	int pass;

	if (s->cap)
		dmacap_take(s, !s->cap->absent_lost, s->cap->ram && !s->cap->ram_lost);
	if (!(t = s->dma))
		return;
	if (!s->cap) {
		if (t->list && (t->walk || t->n))
			list_after(s);
		mark_heaps(s);
	}
	for (i = 0; i < t->nnote; i++)	/* a process whose fds could not be read */
		for (p = s->first; p && t->note[i].fd < 0; p = p->next)
			if (p->pid == t->note[i].pid) {
				if (!p->dma) {
					p->dma = arena_alloc(s->arena, sizeof(*p->dma), 8);
					memset(p->dma, 0, sizeof(*p->dma));
				}
				p->dma->err = 1;
			}
	for (b = t->first; b; b = b->next)
		b->nholder = 0;
	for (pass = 0; pass < 2; pass++)
		for (p = s->first; p; p = p->next)
			proc_holds(s, p, pass);
	t->sorted = arena_alloc(s->arena, (t->n + 1) * sizeof(*t->sorted), 8);
	for (i = 0, b = t->first; b; b = b->next)
		t->sorted[i++] = b;
	sort(t->sorted, t->n, sizeof(*t->sorted), cmp_buf);
}
