/* The kernel's own memory by owner: the core kernel or a module (kowner.c, kownview.c). */
#ifndef KOWNER_H
#define KOWNER_H

#include <stdint.h>

#include "exmap.h"

#define KO_OWNERS	256		/* owners: the core kernel and modules; the last
					   one sums those past it */
#define KO_SITES	8192		/* callers and call sites a live reading lists */
#define KO_NAMES	(512u << 10)	/* their names' bytes */
#define KO_NAME		64		/* an owner's name (a module's is at most 55) */
#define KO_KERNEL	"[kernel]"	/* the core kernel: built in, not a module */
#define KO_NOSYM	"[no symbol]"	/* a caller vmallocinfo gives as an address */

/* What a figure is read from: vmallocinfo's areas, allocinfo's allocations. */
enum ko_src { KO_VMALLOC, KO_ALLOC, KO_NSRC };
extern const char *const ko_source[KO_NSRC];	/* "vmallocinfo", "allocinfo" */

/* allocinfo, as read: its note says which (ramsrc.c) */
enum ko_state { KO_ABSENT, KO_READ, KO_OFF, KO_DENIED };

struct ko_owner {
	char name[KO_NAME];
	uint64_t bytes[KO_NSRC];
	uint32_t sites[KO_NSRC];	/* its callers or call sites, listed or not */
};

struct ko_site {
	const char *name;	/* vmallocinfo: the function; allocinfo: "function path:line" */
	uint64_t bytes, calls;	/* calls: allocinfo's */
	uint32_t owner;
	uint32_t src;
};

struct kowners {
	struct ko_owner owner[KO_OWNERS];
	uint32_t nowner;
	struct ko_site *site;	/* NULL: the owners' figures alone */
	uint32_t nsite, room;
	uint64_t lost;		/* sites past room: in their owners' figures, not listed */
	int have[KO_NSRC];	/* read */
};

/* kowner.c: reading, and the capture's lines */
struct kowners *kown_begin(int sites);
void kown_vmalloc(struct kowners *k, const char *line, uint64_t bytes);
int kown_alloc(struct kowners *k, struct linebuf *lb);
void kown_alloc_line(struct kowners *k, char *line);
void kown_end(struct kowners *k);
uint64_t kown_held(const struct kowners *k, uint32_t i, int *src);
void kown_each_held(const struct kowners *k, void (*fn)(void *arg, const char *name, int64_t held),
		    void *arg);
void kown_dump(const struct kowners *k, void (*line)(const char *, size_t));
int kown_parse(struct kowners **kp, char **w, size_t n, int letter, struct arena *a);

/* kownview.c: the ram view's lines, its CSV, diff */
void kown_lines(const struct kowners *k, void (*add)(int depth, const char *label, const char *name,
						    int64_t bytes, const char *source));
void kown_csv(const struct kowners *k);
const char *kown_note(const struct kowners *k);
void kown_diff(const struct kowners *a, const struct kowners *b, const struct opts *o);

#endif
