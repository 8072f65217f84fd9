/* The kernel's own memory by owner: vmallocinfo's and allocinfo's lines read, dumped and loaded. */
/*
 * An owner is the core kernel or a module. /proc/vmallocinfo names each
 * area's caller ("func+0x1c/0x50 [module]"); /proc/allocinfo
 * (CONFIG_MEM_ALLOC_PROFILING, 6.10 on) each call site's bytes and calls
 * ("path:line [module] func:name"). The owners' figures are kept whole;
 * their callers and call sites, for the view and dump, in a table that is
 * merged (sorted by owner, source and name) when it fills, and past that
 * lists no more: their bytes stay in their owner's figure.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "capture.h"
#include "kowner.h"
#include "ramtext.h"

const char *const ko_source[KO_NSRC] = { "vmallocinfo", "allocinfo" };

static struct kowners live;
static uint32_t nnames, last;
#ifndef EXMAP_NO_KOWNVIEW
static struct ko_site live_site[KO_SITES];
static char names[KO_NAMES];	/* the live sites' names */
#endif

/* A reading begins: the owners alone, or with their sites (never in a
 * board's build without the view's owners, KOWNVIEW=0: its capture holds
 * the owners' figures). */
struct kowners *kown_begin(int sites)
{
	live.nowner = live.nsite = 0;
	live.lost = 0;
	live.have[KO_VMALLOC] = live.have[KO_ALLOC] = 0;
#ifdef EXMAP_NO_KOWNVIEW
	live.site = NULL;
	live.room = 0;
	(void)sites;
#else
	live.site = sites ? live_site : NULL;
	live.room = sites ? KO_SITES : 0;
#endif
	nnames = last = 0;
	return &live;
}

static int same(const char *s, const char *name, size_t len)
{
	return strncmp(s, name, len) == 0 && s[len] == '\0';
}

/* The owner of that name, made when first met; past KO_OWNERS - 1 of them, the last. */
static uint32_t owner_of(struct kowners *k, const char *name, size_t len)
{
	uint32_t i;

	if (len >= KO_NAME)
		len = KO_NAME - 1;
	if (last < k->nowner && same(k->owner[last].name, name, len))
		return last;
	for (i = 0; i < k->nowner; i++)
		if (same(k->owner[i].name, name, len))
			return last = i;
	if (k->nowner == KO_OWNERS)
		return KO_OWNERS - 1;
	i = k->nowner++;
	memset(&k->owner[i], 0, sizeof(k->owner[i]));
	if (k->nowner == KO_OWNERS)
		fmt_snprintf(k->owner[i].name, KO_NAME, "[owners past %u]", KO_OWNERS - 1);
	else
		memcpy(k->owner[i].name, name, len);
	return last = i;
}

static int site_cmp(const void *pa, const void *pb)
{
	const struct ko_site *a = pa, *b = pb;

	if (a->owner != b->owner)
		return a->owner < b->owner ? -1 : 1;
	if (a->src != b->src)
		return a->src < b->src ? -1 : 1;
	return strcmp(a->name, b->name);
}

/* Sorted by owner, source and name, each site once. */
static void merge(struct kowners *k)
{
	uint32_t i, m = 0;

	sort(k->site, k->nsite, sizeof(*k->site), site_cmp);
	for (i = 0; i < k->nsite; i++)
		if (m && site_cmp(&k->site[m - 1], &k->site[i]) == 0) {
			k->site[m - 1].bytes += k->site[i].bytes;
			k->site[m - 1].calls += k->site[i].calls;
		} else {
			k->site[m++] = k->site[i];
		}
	k->nsite = m;
}

/* bytes and calls of a site (its name len bytes) to its owner, and listed. */
static void site_add(struct kowners *k, uint32_t owner, int src, const char *name, size_t len,
		     uint64_t bytes, uint64_t calls)
{
	struct ko_site *s;

	k->owner[owner].bytes[src] += bytes;
#ifdef EXMAP_NO_KOWNVIEW	/* the owners' figures alone */
	(void)name, (void)len, (void)calls, (void)s;
#else
	if (!k->site)
		return;
	s = k->nsite ? &k->site[k->nsite - 1] : NULL;
	if (s && s->owner == owner && s->src == (uint32_t)src && same(s->name, name, len)) {
		s->bytes += bytes;	/* vmallocinfo: a caller's areas often come together */
		s->calls += calls;
		return;
	}
	if (k->nsite == k->room)
		merge(k);
	if (k->nsite == k->room || len >= KO_NAMES - nnames) {
		k->lost++;
		return;
	}
	s = &k->site[k->nsite++];
	memcpy(names + nnames, name, len);
	names[nnames + len] = '\0';
	*s = (struct ko_site){ names + nnames, bytes, calls, owner, (uint32_t)src };
	nnames += (uint32_t)len + 1;
#endif
}

/* word as a whole word of s. */
static int has_word(const char *s, const char *word)
{
	size_t n = strlen(word);

	for (; (s = find_str(s, word)) != NULL; s += n)
		if (s[-1] == ' ' && (s[n] == ' ' || s[n] == '\0'))
			return 1;
	return 0;
}

/*
 * A line of /proc/vmallocinfo with pages= (bytes of them), not a kernel
 * stack's (ramsrc.c counts those as stacks): an area vmalloc allocated
 * (flag vmalloc) is its caller's owner's. The rest map memory that is
 * counted where it came from or is not RAM the kernel allocated: ioremap,
 * vmap (pages from another allocator), vm_map_ram.
 */
void kown_vmalloc(struct kowners *k, const char *line, uint64_t bytes)
{
	const char *c = line, *mod = NULL, *pg;
	size_t clen, flen, mlen = 0;
	int i;

	for (i = 0; i < 2; i++) {	/* past the range and the size */
		c += strcspn(c, " ");
		c += strspn(c, " ");
	}
	clen = strcspn(c, " ");
	flen = strcspn(c, "+ ");
	if (flen > clen)
		flen = clen;
	if (c[clen] == ' ' && c[clen + 1] == '[') {
		mod = c + clen + 2;
		mlen = strcspn(mod, " ]");
	}
	if (!(pg = find_str(c, " pages=")) || !has_word(pg + 1, "vmalloc") || !bytes)
		return;
	if (c[0] == '0' && c[1] == 'x')	/* no symbol: freed init code, no kallsyms */
		site_add(k, owner_of(k, KO_NOSYM, strlen(KO_NOSYM)), KO_VMALLOC, "addresses", 9,
			 bytes, 1);
	else
		site_add(k, mod ? owner_of(k, mod, mlen) : owner_of(k, KO_KERNEL, strlen(KO_KERNEL)),
			 KO_VMALLOC, c, flen, bytes, 1);
}

/* A signed decimal at *p, past it. */
static int sdec(char **p, int64_t *v)
{
	uint64_t u;
	int neg;

	*p += strspn(*p, " ");
	neg = **p == '-';
	*p += neg;
	if (ram_dec(p, &u) < 0 || u > INT64_MAX)
		return -1;
	*v = neg ? -(int64_t)u : (int64_t)u;
	return 0;
}

/* Whether the site counts pages whose objects are counted at their own
 * callers: the slab's pages (its objects at kmalloc's and
 * kmem_cache_alloc's callers), percpu chunks' (at alloc_percpu's). */
static int pages_of_objects(const char *path, size_t plen, const char *f, size_t flen)
{
	static const char *const sites[][2] = {
		{ "mm/slub.c:", "alloc_slab_page" }, { "mm/percpu-vm.c:", "pcpu_alloc_pages" },
	};
	size_t i, n;

	for (i = 0; i < sizeof(sites) / sizeof(sites[0]); i++) {
		n = strlen(sites[i][0]);
		if (plen > n && memcmp(path, sites[i][0], n) == 0 && strlen(sites[i][1]) == flen &&
		    memcmp(f, sites[i][1], flen) == 0)
			return 1;
	}
	return 0;
}

/* One allocinfo line, "BYTES CALLS path:line [module] func:name ...", to
 * its owner, but pages of objects counted at their callers. */
void kown_alloc_line(struct kowners *k, char *p)
{
	char name[320];
	const char *path, *f, *mod = NULL;
	size_t plen, flen, mlen = 0;
	int64_t bytes;
	uint64_t calls;

	if (sdec(&p, &bytes) < 0 || bytes <= 0 || ram_dec(&p, &calls) < 0)
		return;	/* the head, or nothing held */
	path = p + strspn(p, " ");
	plen = strcspn(path, " ");
	f = path + plen + strspn(path + plen, " ");
	if (*f == '[') {
		mod = f + 1;
		mlen = strcspn(mod, "] ");
		f = mod + mlen + strcspn(mod + mlen, " ");
		f += strspn(f, " ");
	}
	if (strncmp(f, "func:", 5) != 0 || !plen)
		return;
	f += 5;
	flen = strcspn(f, " ");
	if (flen + plen + 2 > sizeof(name) || (!mod && pages_of_objects(path, plen, f, flen)))
		return;
#ifndef EXMAP_NO_KOWNVIEW	/* sites named */
	memcpy(name, f, flen);
	name[flen] = ' ';
	memcpy(name + flen + 1, path, plen);
#endif
	site_add(k, mod ? owner_of(k, mod, mlen) : owner_of(k, KO_KERNEL, strlen(KO_KERNEL)),
		 KO_ALLOC, name, flen + 1 + plen, (uint64_t)bytes, calls);
}

/* /proc/allocinfo (root), where the kernel has it and profiling is on,
 * through lb (the caller's: vmallocinfo's before it). */
int kown_alloc(struct kowners *k, struct linebuf *lb)
{
	static char buf[512];
	char on[8];
	size_t len;
	int fd, toolong;

	if ((fd = open("/proc/allocinfo", O_RDONLY | O_CLOEXEC)) < 0)
		return errno == ENOENT ? KO_ABSENT : KO_DENIED;
	/* counters stop while it is off: what they say then is stale */
	if (read_small(AT_FDCWD, "/proc/sys/vm/mem_profiling", on, sizeof(on)) > 0 && on[0] == '0') {
		close(fd);
		return KO_OFF;
	}
	lb_init(lb, fd);
	while (lb_next(lb, buf, sizeof(buf), &len, &toolong) > 0)
		if (!toolong)
			kown_alloc_line(k, buf);
	close(fd);
	k->have[KO_ALLOC] = 1;
	return KO_READ;
}

/* The reading done: each site once, and how many each owner has. */
void kown_end(struct kowners *k)
{
	uint32_t i;

	if (!k->site)
		return;
	merge(k);
	for (i = 0; i < k->nsite; i++)
		k->owner[k->site[i].owner].sites[k->site[i].src]++;
}

/* What owner i holds: its allocations where allocinfo was read, else its vmalloc areas. */
uint64_t kown_held(const struct kowners *k, uint32_t i, int *src)
{
	int s = k->have[KO_ALLOC] ? KO_ALLOC : KO_VMALLOC;

	if (src)
		*src = s;
	return k->owner[i].bytes[s];
}

/* fn(arg, name, what it holds) for each owner that holds something (watch's samples). */
void kown_each_held(const struct kowners *k, void (*fn)(void *arg, const char *name, int64_t held),
		    void *arg)
{
	uint32_t i;

	for (i = 0; k && i < k->nowner; i++)
		if (kown_held(k, i, NULL))
			fn(arg, k->owner[i].name, (int64_t)kown_held(k, i, NULL));
}

/* ---- the capture's lines (capram.c's chunk) ---- */

/*
 * "z VMALLOC ALLOC LOST" what was read, "j OWNER VBYTES ABYTES VSITES
 * ASITES" an owner, "q v|a OWNER BYTES CALLS NAME" a caller (v) or call
 * site (a) of the owner of that place among the j lines.
 */
void kown_dump(const struct kowners *k, void (*line)(const char *, size_t))
{
	char buf[512], e[3 * 320 + 8];
	uint32_t i;
	int n;

	n = fmt_snprintf(buf, sizeof(buf), "z %d %d %llu", k->have[KO_VMALLOC], k->have[KO_ALLOC],
			 (unsigned long long)k->lost);
	line(buf, (size_t)n);
	for (i = 0; i < k->nowner; i++) {
		const struct ko_owner *o = &k->owner[i];

		cap_escape(e, sizeof(e), o->name, strlen(o->name));
		n = fmt_snprintf(buf, sizeof(buf), "j %s %llu %llu %u %u", e,
				 (unsigned long long)o->bytes[KO_VMALLOC],
				 (unsigned long long)o->bytes[KO_ALLOC], o->sites[KO_VMALLOC],
				 o->sites[KO_ALLOC]);
		line(buf, (size_t)n);
	}
#ifndef EXMAP_NO_KOWNVIEW	/* a board's lists none: the owners' figures alone */
	for (i = 0; i < k->nsite; i++) {
		const struct ko_site *s = &k->site[i];

		cap_escape(e, sizeof(e), s->name, strlen(s->name));
		n = fmt_snprintf(buf, sizeof(buf), "q %c %u %llu %llu %s", "va"[s->src], s->owner,
				 (unsigned long long)s->bytes, (unsigned long long)s->calls, e);
		line(buf, (size_t)n < sizeof(buf) ? (size_t)n : sizeof(buf) - 1);
	}
#endif
}

/* A z, j or q line's words w[0..n) into *kp (made in a at the first): 0, or -1. */
int kown_parse(struct kowners **kp, char **w, size_t n, int letter, struct arena *a)
{
	struct kowners *k = *kp;
	char name[3 * 320 + 8];
	uint64_t v[4];
	size_t len, i;

	if (!k) {
		k = *kp = arena_alloc(a, sizeof(*k), 8);
		memset(k, 0, sizeof(*k));
		k->site = arena_alloc(a, KO_SITES * sizeof(*k->site), 8);
		k->room = KO_SITES;
	}
	if (letter == 'z')
		return n == 4 && parse_u64(w[1], 1, &v[0]) == 0 && parse_u64(w[2], 1, &v[1]) == 0 &&
		       parse_u64(w[3], UINT64_MAX, &k->lost) == 0 ?
		       (k->have[KO_VMALLOC] = (int)v[0], k->have[KO_ALLOC] = (int)v[1], 0) : -1;
	if (n != 6 || cap_unescape(w[letter == 'j' ? 1 : 5], name, sizeof(name), &len) < 0 ||
	    memchr(name, '\0', len))
		return -1;
	if (letter == 'j') {
		struct ko_owner *o = &k->owner[k->nowner];

		if (k->nowner == KO_OWNERS || len >= KO_NAME)
			return -1;
		for (i = 0; i < 4; i++)
			if (parse_u64(w[2 + i], i < 2 ? UINT64_MAX : UINT32_MAX, &v[i]) < 0)
				return -1;
		memcpy(o->name, name, len);
		o->name[len] = '\0';
		o->bytes[KO_VMALLOC] = v[0];
		o->bytes[KO_ALLOC] = v[1];
		o->sites[KO_VMALLOC] = (uint32_t)v[2];
		o->sites[KO_ALLOC] = (uint32_t)v[3];
		k->nowner++;
		return 0;
	}
	if (k->nsite == k->room || (strcmp(w[1], "v") && strcmp(w[1], "a")) ||
	    parse_u64(w[2], k->nowner ? k->nowner - 1 : 0, &v[0]) < 0 || !k->nowner ||
	    parse_u64(w[3], UINT64_MAX, &v[1]) < 0 || parse_u64(w[4], UINT64_MAX, &v[2]) < 0)
		return -1;
	k->site[k->nsite++] = (struct ko_site){ arena_strdup(a, name, len), v[1], v[2], (uint32_t)v[0],
						w[1][0] == 'a' ? KO_ALLOC : KO_VMALLOC };
	return 0;
}
