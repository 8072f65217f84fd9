/* dma-bufs and DRM clients: the table of buffers, each process's holds. */
/*
 * A dma-buf is one file (its inode) that processes hold through fds and
 * /dmabuf: mappings; its pages are no page of theirs. A process's holds are
 * read from its maps (already read) and, where the scan walks them
 * (dmalist.c says whether), its fds: a dma-buf's fdinfo gives its size,
 * exporter and name, a DRM device's its client's memory by region.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "dmabuf.h"

#define FDINFO_MAX	16384	/* a DRM client's fdinfo: its engines and regions */

static char info[FDINFO_MAX];
static char dents[8192];

/* ---- the table, by inode ---- */

static uint32_t slot_of(const struct dmatab *t, uint64_t ino)
{
	return (uint32_t)((ino * 0x9e3779b97f4a7c15u) >> 32) & t->mask;
}

/* The table of slots made anew for t's buffers, with room to grow. */
void dmabuf_index(struct arena *a, struct dmatab *t)
{
	uint32_t cap = 64;
	struct dmabuf *b;

	while ((uint64_t)cap * 7 < (uint64_t)(t->n + 1) * 16)
		cap *= 2;
	t->slot = arena_alloc(a, cap * sizeof(*t->slot), 8);
	memset(t->slot, 0, cap * sizeof(*t->slot));
	t->mask = cap - 1;
	for (b = t->first; b; b = b->next) {
		uint32_t i = slot_of(t, b->ino);

		while (t->slot[i])
			i = (i + 1) & t->mask;
		t->slot[i] = b;
	}
}

/* The buffer of inode ino: found, or (add) a new one, nothing yet known. */
struct dmabuf *dmabuf_find(struct scan *s, uint64_t ino, int add)
{
	struct dmatab *t = s->dma;
	struct dmabuf *b;
	uint32_t i;

	for (i = t->slot ? slot_of(t, ino) : 0; t->slot && t->slot[i]; i = (i + 1) & t->mask)
		if (t->slot[i]->ino == ino)
			return t->slot[i];
	if (!add)
		return NULL;
	if (!t->slot || (uint64_t)(t->n + 1) * 8 > (uint64_t)(t->mask + 1) * 7) {
		dmabuf_index(s->arena, t);
		for (i = slot_of(t, ino); t->slot[i]; i = (i + 1) & t->mask)
			;
	}
	b = arena_alloc(s->arena, sizeof(*b), 8);
	memset(b, 0, sizeof(*b));
	b->ino = ino;
	b->exp = b->name = "";
	t->slot[i] = b;
	*t->tail = b;
	t->tail = &b->next;
	t->n++;
	return b;
}

/* Process p's hold of buffer b: its own, made the first time. */
struct dmahold *dmabuf_hold(struct scan *s, struct proc *p, struct dmabuf *b)
{
	struct dmahold *h;

	if (!p->dma) {
		p->dma = arena_alloc(s->arena, sizeof(*p->dma), 8);
		memset(p->dma, 0, sizeof(*p->dma));
	}
	if (b->lastpid == p->pid && b->last)
		return b->last;
	h = arena_alloc(s->arena, sizeof(*h), 8);
	memset(h, 0, sizeof(*h));
	h->buf = b;
	h->next = p->dma->hold;
	p->dma->hold = h;
	p->dma->nhold++;
	b->lastpid = p->pid;
	b->last = h;
	return h;
}

/* A process's fds unreadable (fd -1, why), or one of its dma-buf fds closed
 * while it was read (its name in /proc/PID/fd). */
static void note(struct dmatab *t, pid_t pid, const char *fd, int err)
{
	uint64_t n = 0;

	if (fd)
		parse_u64(fd, INT32_MAX, &n);
	if (t->nnote < DMA_NOTE_MAX)
		t->note[t->nnote++] = (struct dmanote){ pid, fd ? (int)n : -1, fd ? NULL : strerror(err) };
	else
		t->note_lost++;
}

/* ---- a process ---- */

/* A "key:\tvalue" line of fdinfo: its value, NUL-terminated; NULL if key's is not. */
static char *info_val(char *line, const char *key)
{
	size_t kl = strlen(key);

	if (strncmp(line, key, kl) != 0 || line[kl] != ':')
		return NULL;
	for (line += kl + 1; *line == '\t' || *line == ' '; line++)
		;
	return line;
}

/* fd's fdinfo into info, a NUL for each newline: its length, or -errno. */
static ssize_t fdinfo(int piddir, const char *fd)
{
	char name[40];
	ssize_t n, i;

	fmt_snprintf(name, sizeof(name), "fdinfo/%s", fd);
	if ((n = read_small(piddir, name, info, sizeof(info))) > 0)
		for (i = 0; i < n; i++)
			if (info[i] == '\n')
				info[i] = '\0';
	return n;
}

/*
 * An fd of a dma-buf: the buffer its inode names (fdinfo's ino from 5.14,
 * else the fd's own stat: the same), its size, exporter and name from its
 * fdinfo when not known yet. Closed meanwhile (no fdinfo, or another
 * inode's): said, left out.
 */
static void hold_fd(struct scan *s, struct proc *p, int piddir, int fddir, const char *fd)
{
	uint64_t size = 0, ino = 0;
	const char *exp = "", *name = "";
	struct dmabuf *b;
	struct stat st;
	ssize_t n, i;
	char *v;
	int sized = 0;

	/* another file by now (the fd closed and reused): not the buffers' device */
	if (fstatat(fddir, fd, &st, 0) < 0 || (s->dma->dev && s->dma->dev != st.st_dev + 1)) {
		note(s->dma, p->pid, fd, 0);
		return;
	}
	b = dmabuf_find(s, (uint64_t)st.st_ino, 0);
	if (!b || !(b->flags & DB_SIZED)) {
		if ((n = fdinfo(piddir, fd)) <= 0) {
			note(s->dma, p->pid, fd, 0);
			return;
		}
		ino = (uint64_t)st.st_ino;
		for (i = 0; i < n; i += (ssize_t)strlen(info + i) + 1) {
			if ((v = info_val(info + i, "size")))
				sized = parse_u64(v, UINT64_MAX, &size) == 0;
			else if ((v = info_val(info + i, "ino")) && parse_u64(v, UINT64_MAX, &ino) < 0)
				ino = 0;
			else if ((v = info_val(info + i, "exp_name")))
				exp = v;
			else if ((v = info_val(info + i, "name")))
				name = v;
		}
		if (!sized || ino != (uint64_t)st.st_ino) {
			note(s->dma, p->pid, fd, 0);
			return;
		}
		s->dma->dev = st.st_dev + 1;
		b = dmabuf_find(s, ino, 1);
		b->size = size;
		b->flags |= DB_SIZED;
		if (!b->exp[0])
			b->exp = arena_strdup(s->arena, exp, strlen(exp));
		if (!b->name[0])
			b->name = arena_strdup(s->arena, name, strlen(name));
	}
	dmabuf_hold(s, p, b)->fds++;
}

/* A size as DRM's fdinfo gives it: bytes, or with KiB or MiB after it. */
static int drm_size(const char *v, uint64_t *bytes)
{
	char num[24];
	size_t n = strspn(v, "0123456789");
	const char *unit = v + n + strspn(v + n, " \t");
	int shift = 0;

	if (n == 0 || n >= sizeof(num))
		return -1;
	if (strcmp(unit, "KiB") == 0)
		shift = 10;
	else if (strcmp(unit, "MiB") == 0)
		shift = 20;
	else if (*unit)
		return -1;
	memcpy(num, v, n);
	num[n] = '\0';
	return parse_u64(num, UINT64_MAX >> shift, bytes) < 0 ? -1 : (*bytes <<= shift, 0);
}

/*
 * One line of a DRM client's fdinfo: a figure of one of its regions
 * (drm-total-, drm-resident-, drm-memory-: resident, as before 6.x, and
 * drm-shared-) into the list at *u, the region's entry made when new. 1 a
 * figure, 0 another line, -1 a figure that does not parse.
 */
int drm_line(struct scan *s, struct drmuse **u, const char *line, uint64_t client,
	     const char *driver)
{
	static const char *const keys[] = { "drm-total-", "drm-resident-", "drm-memory-",
					    "drm-shared-" };
	static const uint32_t bit[] = { DRM_TOTAL, DRM_RESIDENT, DRM_RESIDENT, DRM_SHARED };
	const char *colon = strchr(line, ':'), *v;
	struct drmuse *d;
	uint64_t bytes;
	size_t k, rl;

	for (k = 0; k < 4 && strncmp(line, keys[k], strlen(keys[k])) != 0; k++)
		;
	if (k == 4 || !colon)
		return 0;
	line += strlen(keys[k]);
	rl = (size_t)(colon - line);
	for (v = colon + 1; *v == '\t' || *v == ' '; v++)
		;
	if (rl == 0 || drm_size(v, &bytes) < 0)
		return -1;
	for (d = *u; d; d = d->next)	/* this fd's (no device set yet) */
		if (!d->dev && d->client == client && strlen(d->region) == rl &&
		    !strncmp(d->region, line, rl))
			break;
	if (!d) {
		d = arena_alloc(s->arena, sizeof(*d), 8);
		memset(d, 0, sizeof(*d));
		d->client = client;
		d->driver = driver;
		d->region = arena_strdup(s->arena, line, rl);
		d->next = *u;
		*u = d;
	}
	*(k == 0 ? &d->total : k == 3 ? &d->shared : &d->resident) = bytes;
	d->have |= bit[k];
	return 1;
}

/*
 * An fd of a DRM device: its client's memory by region, once a client (a
 * client's fds are one file, dup'd or inherited; a client is its device
 * and drm-client-id). A driver that gives no figure still names the client
 * (region "").
 */
static void drm_fd(struct scan *s, struct proc *p, int piddir, int fddir, const char *fd)
{
	const char *driver = NULL;
	uint64_t client = 0, dev;
	struct drmuse *d, *mine;
	int have_client = 0, figures = 0;
	struct stat st;
	ssize_t n, i;
	char *v;

	if (fstatat(fddir, fd, &st, 0) < 0 || (n = fdinfo(piddir, fd)) <= 0)
		return;
	dev = (uint64_t)st.st_rdev + 1;
	for (i = 0; i < n; i += (ssize_t)strlen(info + i) + 1) {
		if ((v = info_val(info + i, "drm-client-id")))
			have_client = parse_u64(v, UINT64_MAX, &client) == 0;
		else if ((v = info_val(info + i, "drm-driver")))
			driver = v;
	}
	if (!have_client || !driver)
		return;	/* before drm-client-id (5.19): nothing to tell clients apart */
	if (!p->dma) {
		p->dma = arena_alloc(s->arena, sizeof(*p->dma), 8);
		memset(p->dma, 0, sizeof(*p->dma));
	}
	mine = p->dma->drm;
	for (d = mine; d; d = d->next)
		if (d->client == client && d->dev == dev)
			return;
	driver = arena_strdup(s->arena, driver, strlen(driver));
	for (i = 0; i < n; i += (ssize_t)strlen(info + i) + 1)
		figures += drm_line(s, &p->dma->drm, info + i, client, driver) > 0;
	if (!figures) {
		d = arena_alloc(s->arena, sizeof(*d), 8);
		memset(d, 0, sizeof(*d));
		d->client = client;
		d->driver = driver;
		d->region = "";
		d->next = p->dma->drm;
		p->dma->drm = d;
	}
	for (d = p->dma->drm; d != mine; d = d->next)
		d->dev = dev;
}

/* Every fd of the process: dma-bufs and DRM clients. */
static void walk_fds(struct scan *s, struct proc *p, int piddir)
{
	int dir = openat(piddir, "fd", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	char link[64];
	long n, off;

	if (dir < 0) {
		if (errno != ENOENT)	/* gone: it exited after its pages were read */
			note(s->dma, p->pid, NULL, errno);
		return;
	}
	while ((n = syscall(SYS_getdents64, dir, dents, sizeof(dents))) > 0)
		for (off = 0; off < n;) {
			struct linux_dirent64 *d = (void *)(dents + off);
			ssize_t k;

			off += d->d_reclen;
			if (d->d_name[0] == '.' ||
			    (k = readlinkat(dir, d->d_name, link, sizeof(link) - 1)) < 0)
				continue;	/* closed since the directory was read */
			link[k] = '\0';
			if (strncmp(link, "/dmabuf:", 8) == 0 || strcmp(link, "anon_inode:dmabuf") == 0)
				hold_fd(s, p, piddir, dir, d->d_name);
			else if (strncmp(link, "/dev/dri/", 9) == 0)
				drm_fd(s, p, piddir, dir, d->d_name);
		}
	if (n < 0)
		note(s->dma, p->pid, NULL, errno);
	close(dir);
}

/*
 * Process p, read whole (its pages too): its /dmabuf: mappings, and its
 * fds where the scan walks them or it maps a buffer.
 */
void dmabuf_proc(struct scan *s, struct proc *p, int piddir)
{
	const struct mapping *m;
	int maps_one = 0;

	for (m = p->map; m; m = m->next) {
		struct dmabuf *b;

		if (strncmp(m->path, "/dmabuf:", 8) != 0)
			continue;
		b = dmabuf_find(s, m->inode, 1);
		if (!b->name[0] && m->path[8])
			b->name = m->path + 8;
		/* its size, until something says it: at least what is mapped (not
		 * from the offset: a DRM export's mapping has a fake one) */
		if (!(b->flags & DB_SIZED) && m->end - m->start > b->size)
			b->size = m->end - m->start;
		dmabuf_hold(s, p, b)->maps++;
		maps_one = 1;
	}
	if (s->dma->walk || (maps_one && !s->dma->never))
		walk_fds(s, p, piddir);
}
