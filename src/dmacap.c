/* Captures: the dma-bufs as lines (chunk 2's a lines, a process's f and e lines), and back. */
/*
 * Chunk 1, after the unreadable processes: "a scan WALK LIST COUNT BYTES
 * WHY" (the fds were read or not, and why; the kernel's list, "%" none, and
 * its own total), "a note PID FD WHY" (FD -1: the process's fds
 * unreadable). Chunk 2, after the ram view's lines: "a INODE SIZE FLAGS
 * EXPORTER NAME" a buffer (hex; FLAGS DB_*). A process's chunk, after its
 * mappings: "f INODE FDS MAPS" a hold, "e CLIENT HAVE TOTAL RESIDENT SHARED
 * DRIVER REGION" a DRM client's region (HAVE: which figures the driver
 * gave). Loading keeps each chunk's part only if it is whole; a hold names
 * its buffer by inode until then.
 */
#include <stdarg.h>
#include <string.h>

#include "capture.h"
#include "dmabuf.h"

/* Chunk 1's: how the fds were read, the kernel's list, the notes. */
void dmabuf_dump_scan(const struct scan *s, void (*line)(const char *, size_t))
{
	const struct dmatab *t = s->dma;
	static char e[3 * 256 + 8];
	uint32_t i;

	if (!t)
		return;
	cap_emit(line, "a scan %d %s %x %llx %s", t->walk, t->list ? t->list : "%", t->list_count,
	     (unsigned long long)t->list_bytes, cap_esc(e, sizeof(e), t->why));
	for (i = 0; i < t->nnote; i++)
		cap_emit(line, "a note %d %d %s", (int)t->note[i].pid, t->note[i].fd,
		     cap_esc(e, sizeof(e), t->note[i].why));
}

/* Chunk 2's: the buffers. */
void dmabuf_dump(const struct scan *s, void (*line)(const char *, size_t))
{
	const struct dmatab *t = s->dma;
	static char e1[3 * 256 + 8], e2[3 * 256 + 8];
	uint32_t i;

	for (i = 0; t && i < t->n; i++) {
		const struct dmabuf *b = t->sorted[i];

		cap_emit(line, "a %llx %llx %x %s %s", (unsigned long long)b->ino,
		     (unsigned long long)b->size, b->flags & DB_FLAGS, cap_esc(e1, 256, b->exp),
		     cap_esc(e2, sizeof(e2), b->name));
	}
}

void dmabuf_dump_proc(const struct proc *p, void (*line)(const char *, size_t))
{
	const struct dmahold *h;
	const struct drmuse *d;
	char e1[3 * 64 + 8], e2[3 * 64 + 8];

	for (h = p->dma ? p->dma->hold : NULL; h; h = h->next)
		cap_emit(line, "f %llx %x %x", (unsigned long long)h->buf->ino, h->fds, h->maps);
	for (d = p->dma ? p->dma->drm : NULL; d; d = d->next)
		cap_emit(line, "e %llx %x %llx %llx %llx %s %s %llx", (unsigned long long)d->client,
		     d->have, (unsigned long long)d->total, (unsigned long long)d->resident,
		     (unsigned long long)d->shared, cap_esc(e1, sizeof(e1), d->driver),
		     cap_esc(e2, sizeof(e2), d->region), (unsigned long long)d->dev);
}

/* ---- loading (host builds) ---- */

/* While a capture loads: chunk 1's table (its summary and notes) and chunk
 * 2's buffers, each with the log line its chunk opened at (a copy of a
 * chunk begins its own); kept once the capture is whole, if their chunk is. */
static struct {
	struct dmatab *t;
	uint64_t t_chunk;
	struct dmabuf *first, **tail;
	uint32_t n;
	uint64_t b_chunk;
} ld;

/* Up to max words of line (after its letter) into w: how many, or -1 if more. */
static int words(char *line, char **w, int max)
{
	char *p = line + 2;
	int n = 0;

	while (n < max && (w[n] = cap_field(&p)) != NULL)
		n++;
	return p ? -1 : n;
}

/* A word unescaped into the arena; NULL if malformed. */
static const char *text_of(struct arena *a, const char *w, size_t max)
{
	static char buf[CAP_LINE_MAX];
	size_t n;

	if (cap_unescape(w, buf, max + 1 < sizeof(buf) ? max + 1 : sizeof(buf), &n) < 0)
		return NULL;
	return arena_strdup(a, buf, n);
}

/* "a scan ..." or "a note ..." (chunk 1, opened at log line chunk). */
static int scan_line(struct scan *s, uint64_t chunk, char **w, int n)
{
	struct dmatab *t = ld.t_chunk == chunk ? ld.t : NULL;
	uint64_t v[3];
	int64_t fd;

	if (n == 6 && strcmp(w[0], "scan") == 0) {
		t = arena_alloc(s->arena, sizeof(*t), 8);
		memset(t, 0, sizeof(*t));
		t->tail = &t->first;
		if (parse_u64(w[1], 1, &v[0]) < 0 || hex_parse(w[3], UINT32_MAX, &v[1]) < 0 ||
		    hex_parse(w[4], UINT64_MAX, &v[2]) < 0 || !(t->why = text_of(s->arena, w[5], 200)))
			return -1;
		t->walk = (int)v[0];
		t->list = strcmp(w[2], "%") == 0 ? NULL : text_of(s->arena, w[2], 16);
		t->list_count = (uint32_t)v[1];
		t->list_bytes = v[2];
		ld.t = t;
		ld.t_chunk = chunk;
		return 0;
	}
	if (n != 4 || strcmp(w[0], "note") != 0 || !t || t->nnote == DMA_NOTE_MAX ||
	    parse_u64(w[1], INT32_MAX, &v[0]) < 0 ||
	    (strcmp(w[2], "-1") != 0 && parse_u64(w[2], INT32_MAX, &v[1]) < 0))
		return -1;	/* a note before its scan line, or malformed */
	fd = strcmp(w[2], "-1") == 0 ? -1 : (int64_t)v[1];
	t->note[t->nnote] = (struct dmanote){ (pid_t)v[0], (int)fd,
					      fd < 0 ? text_of(s->arena, w[3], 200) : NULL };
	return fd < 0 && !t->note[t->nnote++].why ? -1 : 0;
}

/* An "a" line of chunk 1 (chunk1) or chunk 2, which opened at log line
 * chunk: 0, or -1 malformed. */
int dmacap_table(struct scan *s, uint64_t chunk, int chunk1, char *line)
{
	struct dmabuf *b;
	uint64_t v[3];
	char *w[6];
	int n = words(line, w, 6);

	if (chunk1)
		return scan_line(s, chunk, w, n);
	if (n != 5 || hex_parse(w[0], UINT64_MAX, &v[0]) < 0 || hex_parse(w[1], UINT64_MAX, &v[1]) < 0 ||
	    hex_parse(w[2], DB_FLAGS, &v[2]) < 0)
		return -1;
	if (ld.b_chunk != chunk) {	/* this copy's buffers, not an earlier one's */
		ld.first = NULL;
		ld.tail = &ld.first;
		ld.n = 0;
		ld.b_chunk = chunk;
	}
	b = arena_alloc(s->arena, sizeof(*b), 8);
	memset(b, 0, sizeof(*b));
	b->ino = v[0];
	b->size = v[1];
	b->flags = (uint32_t)v[2];
	if (!(b->exp = text_of(s->arena, w[3], 255)) || !(b->name = text_of(s->arena, w[4], 255)))
		return -1;
	*ld.tail = b;
	ld.tail = &b->next;
	ld.n++;
	return 0;
}

/* A capture begins to load: nothing is held yet. */
void dmacap_begin(void)
{
	memset(&ld, 0, sizeof(ld));
}

/* The copy of chunk 1 or 2 that opened at log line chunk failed, and the
 * loader took back its memory: what it held is forgotten, never read. */
void dmacap_drop(uint64_t chunk)
{
	if (ld.t_chunk == chunk)
		ld.t = NULL, ld.t_chunk = 0;
	if (ld.b_chunk == chunk)
		ld.first = NULL, ld.tail = &ld.first, ld.n = 0, ld.b_chunk = 0;
}

/* An "f" or "e" line of process p's chunk: 0, or -1 malformed. */
int dmacap_proc(struct scan *s, struct proc *p, char *line)
{
	uint64_t v[5], dev = 0;
	char *w[8];
	int n = words(line, w, 8), i;

	if (!p)
		return -1;
	if (!p->dma) {
		p->dma = arena_alloc(s->arena, sizeof(*p->dma), 8);
		memset(p->dma, 0, sizeof(*p->dma));
	}
	if (line[0] == 'f') {
		struct dmahold *h = arena_alloc(s->arena, sizeof(*h), 8);
		struct dmabuf *ref = arena_alloc(s->arena, sizeof(*ref), 8);

		if (n != 3 || hex_parse(w[0], UINT64_MAX, &v[0]) < 0 ||
		    hex_parse(w[1], UINT32_MAX, &v[1]) < 0 || hex_parse(w[2], UINT32_MAX, &v[2]) < 0)
			return -1;
		memset(ref, 0, sizeof(*ref));
		ref->ino = v[0];
		ref->flags = DB_REF;
		*h = (struct dmahold){ p->dma->hold, ref, (uint32_t)v[1], (uint32_t)v[2] };
		p->dma->hold = h;
		p->dma->nhold++;
		return 0;
	}
	if (n == 7 || n == 8) {	/* 7: before the device (0) */
		struct drmuse *d = arena_alloc(s->arena, sizeof(*d), 8);

		if (n == 8 && hex_parse(w[7], UINT64_MAX, &dev) < 0)
			return -1;
		for (i = 0; i < 5; i++)
			if (hex_parse(w[i], i == 1 ? DRM_TOTAL | DRM_RESIDENT | DRM_SHARED : UINT64_MAX,
				      &v[i]) < 0)
				return -1;
		*d = (struct drmuse){ p->dma->drm, v[0], text_of(s->arena, w[5], 64),
				      text_of(s->arena, w[6], 64), v[2], v[3], v[4], (uint32_t)v[1],
				      dev };
		if (!d->driver || !d->region)
			return -1;
		p->dma->drm = d;
		return 0;
	}
	return -1;
}

/*
 * The capture loaded: chunk 1's table, if whole, as the scan's, with chunk
 * 2's buffers if that is whole (else the holders' figures are not known);
 * each hold's buffer found by its inode (one chunk 2 did not name: its size
 * unknown). None at all: a capture from before dma-bufs were read.
 */
void dmacap_take(struct scan *s, int whole1, int whole2)
{
	struct dmatab *t = whole1 ? ld.t : NULL;
	struct dmahold *h;
	struct proc *p;
	int holds = 0;

	for (p = s->first; p; p = p->next)
		holds |= p->dma != NULL;
	if (t || holds || (whole2 && ld.n)) {
		if (!t) {
			t = arena_alloc(s->arena, sizeof(*t), 8);
			memset(t, 0, sizeof(*t));
			t->walk = 1;
			t->why = "the capture's chunk 1, which says how they were read, was lost";
		}
		t->tail = &t->first;
		if (whole2 && ld.b_chunk) {
			t->first = ld.first;
			t->tail = ld.n ? ld.tail : &t->first;
			t->n = ld.n;
		}
		t->lost = !whole2;
		s->dma = t;
		dmabuf_index(s->arena, t);
		for (p = s->first; p; p = p->next) {
			for (h = p->dma ? p->dma->hold : NULL; h; h = h->next)
				if (h->buf->flags & DB_REF)
					h->buf = dmabuf_find(s, h->buf->ino, 1);
			if (t->lost && p->dma && p->dma->hold)
				p->dma->err = 1;	/* its buffers' sizes went with chunk 2 */
		}
	}
	memset(&ld, 0, sizeof(ld));
}
