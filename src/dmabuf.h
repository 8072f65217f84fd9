/* dma-bufs and DRM clients: memory processes hold that no page of theirs shows. */
/*
 *	dmabuf.c	reading them: whether any can exist, each process's fds
 *			and /dmabuf: mappings, the kernel's list; the shares
 *	dmaview.c	the dmabuf view, the procs view's columns, the notes
 *	dmacap.c	their capture lines, written and read back
 */
#ifndef DMABUF_H
#define DMABUF_H

#include "exmap.h"

/* What is known of a buffer. */
#define DB_LISTED	0x1	/* in the kernel's list (bufinfo, sysfs) */
#define DB_SIZED	0x2	/* its size is known (fdinfo, the list); else at
				   least its mappings' extent */
#define DB_HEAP		0x4	/* a DMA-BUF heap's (/dev/dma_heap/EXPORTER): pages
				   no meminfo counter holds */
#define DB_GONE		0x8	/* held when its process was read, not in the list
				   read after: freed (or made) while the scan ran */
#define DB_FLAGS	0xf	/* those a capture carries */
#define DB_REF		0x10	/* a loading capture's hold's placeholder: the inode
				   alone, its buffer found when the capture is whole */

struct dmahold;

struct dmabuf {
	struct dmabuf *next;	/* in the order found */
	uint64_t ino;		/* the dma-buf file's inode: one buffer */
	uint64_t size;		/* bytes */
	const char *exp;	/* its exporter (exp_name); "" unknown */
	const char *name;	/* DMA_BUF_SET_NAME's, "" none */
	uint32_t flags;		/* DB_* */
	uint32_t nholder;	/* scanned processes holding it */
	pid_t lastpid;		/* while a process is read: its hold of this */
	struct dmahold *last;
};

struct dmahold {		/* a process's hold of one buffer */
	struct dmahold *next;
	struct dmabuf *buf;
	uint32_t fds;		/* its fds to the buffer */
	uint32_t maps;		/* its /dmabuf: mappings of it */
};

/* A DRM client's memory in one region, as its driver's fdinfo gives it. */
#define DRM_TOTAL	0x1
#define DRM_RESIDENT	0x2	/* drm-resident-, or the older drm-memory- */
#define DRM_SHARED	0x4
struct drmuse {
	struct drmuse *next;
	uint64_t client;	/* drm-client-id */
	const char *driver;	/* drm-driver */
	const char *region;	/* "" when the driver gives no figure */
	uint64_t total, resident, shared;
	uint32_t have;		/* DRM_*: the keys given */
	uint64_t dev;		/* its fd's device (st_rdev) + 1; 0 while its
				   fd is read, and in older captures */
};

struct dmaproc {		/* a process's: proc->dma */
	struct dmahold *hold;	/* by inode, after dmabuf_settle */
	struct drmuse *drm;
	uint32_t nhold;
	int err;		/* its fds could not be read: errno; 0 */
	uint64_t held;		/* the bytes of the buffers it holds */
	struct eff share;	/* each one's size over its holders */
};

/* A process whose fds could not be read, or a buffer's fd closed while read. */
#define DMA_NOTE_MAX	64
struct dmanote {
	pid_t pid;
	int fd;			/* the fd closed; -1: all its fds unreadable, */
	const char *why;	/* why (strerror), the board's in a capture */
};

struct dmatab {
	struct dmabuf *first, **tail;
	uint32_t n;
	struct dmabuf **slot;	/* by inode: open addressing, at most 7/8 full */
	uint32_t mask;
	struct dmabuf **sorted;	/* after dmabuf_settle: by inode */
	uint64_t dev;		/* the dma-buf files' device, once one is seen (+1) */
	int walk;		/* every process's fds read (else its mappings';
				   a process mapping one has its fds read too) */
	int never;		/* EXMAP_DMABUF=0: no fd read, not even those */
	const char *why;	/* why (not): the gate's reason */
	const char *list;	/* the kernel's list: "bufinfo", "sysfs"; NULL none */
	uint32_t list_count;	/* its own total: buffers, */
	uint64_t list_bytes;	/* bytes */
	struct dmanote note[DMA_NOTE_MAX];
	uint32_t nnote, note_lost;
	int lost;		/* a capture's buffers (chunk 2) were lost */
};

#ifdef EXMAP_NO_DMABUF
#define dmabuf_start(s)		((void)(s))
#define dmabuf_proc(s, p, d)	((void)(p))
#define dmabuf_settle(s)	((void)(s))
#define dmabuf_shown(s, o)	0
#define dmabuf_notes(s, o)	((void)(s))
#define dmabuf_dump(s, line)	((void)(s))
#define dmabuf_dump_scan(s, line)	((void)(s))
#define dmabuf_dump_proc(p, line)	((void)(p))
#define dmacap_table(s, k, c1, l)	(-1)
#define dmacap_proc(s, p, l)	(-1)
#define dmacap_drop(k)		((void)(k))
#define dmacap_begin()		((void)0)
#define dmabuf_csv_head(o)	((void)(o))
#define dmabuf_ram(s, parts, fn)	((void)(s), (void)(fn))
#define diff_dmabuf(a, b, o, ar)	((void)(a))
#define dmabuf_put(s, o, p, w)	((void)(p))
#else
/* dmabuf.c */
void dmabuf_start(struct scan *s);
void dmabuf_proc(struct scan *s, struct proc *p, int piddir);
void dmabuf_settle(struct scan *s);
struct dmabuf *dmabuf_find(struct scan *s, uint64_t ino, int add);
struct dmahold *dmabuf_hold(struct scan *s, struct proc *p, struct dmabuf *b);
void dmabuf_index(struct arena *a, struct dmatab *t);
int drm_line(struct scan *s, struct drmuse **u, const char *line, uint64_t client,
	     const char *driver);
/* dmacap.c: capture lines; chunk 2's (the buffers), a process chunk's */
void dmabuf_dump_scan(const struct scan *s, void (*line)(const char *, size_t));
void dmabuf_dump(const struct scan *s, void (*line)(const char *, size_t));
void dmabuf_dump_proc(const struct proc *p, void (*line)(const char *, size_t));
int dmacap_table(struct scan *s, uint64_t chunk, int chunk1, char *line);
int dmacap_proc(struct scan *s, struct proc *p, char *line);
void dmacap_begin(void);
void dmacap_drop(uint64_t chunk);
void dmacap_take(struct scan *s, int whole1, int whole2);
/* dmaview.c: the dmabuf view; the procs view's columns and notes */
void view_dmabuf(struct scan *s, const struct opts *o);
int dmabuf_shown(const struct scan *s, const struct opts *o);
void dmabuf_csv_head(const struct opts *o);
void dmabuf_put(const struct scan *s, const struct opts *o, const struct proc *p, int w);
void dmabuf_notes(const struct scan *s, const struct opts *o);
void dmabuf_ram(const struct scan *s, int parts, void (*fn)(int depth, int is_part,
		const char *label, const char *name, int64_t bytes, const char *source));
/* dmadiff.c: diff's dma-buf lines (host builds) */
void diff_dmabuf(const struct scan *a, const struct scan *b, const struct opts *o,
		 struct arena *ar);
#endif

#endif
