/* Unit tests of the census of RAM, the kernel's memory, DRM clients' memory. */
/*
 * How the census of RAM infers free blocks and settles with the kernel's
 * counts, the kernel's memory by owner (vmallocinfo, allocinfo, the
 * capture's lines), and a DRM client's fdinfo lines and capture lines.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture.h"
#include "census.h"
#include "dmabuf.h"
#include "kowner.h"
#include "ramsrc.h"
#include "unit.h"

/*
 * The census's inference, on frames written as letters from a pfn on: B a
 * free block's first frame (BUDDY), . a frame with no flag, S slab, M a
 * mapped frame with no other flag. Where only first frames are marked, the
 * flagless frames after one, within its alignment (and the largest order),
 * up to the largest power of two that fits, are counted free.
 */
void test_census_infer(void)
{
	static const struct {
		const char *frames;
		uint64_t pfn;
		int max_order;
		uint64_t marked, inferred, bare;
		const char *what;
	} cases[] = {
		{ "B...", 0, 10, 1, 3, 3, "an order-2 block at pfn 0" },
		{ "B..", 0, 10, 1, 1, 2, "3 flagless frames: an order-1 block, the third not free" },
		{ "B...B...", 8, 10, 2, 6, 6, "two order-2 blocks at 8 and 12" },
		{ "B.......", 2, 10, 1, 1, 7, "at pfn 2 a block is 2 frames at most" },
		{ "B...", 4, 10, 1, 3, 3, "an order-0 block before 3 allocated frames: overcounted by 3" },
		{ "B.S..", 0, 10, 1, 1, 3, "a slab frame ends the block" },
		{ "BM..", 0, 10, 1, 0, 2, "a mapped frame ends the block" },
		{ "B......", 0, 2, 1, 3, 6, "the largest order caps it" },
		{ "BBBB", 0, 10, 4, 0, 0, "every frame marked: nothing inferred" },
		{ "..B.", 15, 10, 1, 0, 3, "at pfn 17 a block is 1 frame" },
		{ "", 0, 10, 0, 0, 0, "no frames" },
	};
	size_t i, k;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t f[16];
		struct census c;
		char got[96];
		size_t n = strlen(cases[i].frames);

		memset(&c, 0, sizeof(c));
		for (k = 0; k < n; k++) {
			char ch = cases[i].frames[k];

			f[k] = ch == 'B' ? UINT64_C(1) << KPF_BUDDY : ch == 'S' ? UINT64_C(1) << KPF_SLAB :
			       ch == 'M' ? UINT64_C(1) << KPF_MMAP : 0;
		}
		census_flags(&c, f, n, cases[i].pfn, cases[i].max_order);
		snprintf(got, sizeof(got), "marked %llu inferred %llu bare %llu frames %llu",
			 (unsigned long long)c.kind[FK_FREE], (unsigned long long)c.inferred,
			 (unsigned long long)c.bare, (unsigned long long)c.frames);
		check(c.kind[FK_FREE] == cases[i].marked && c.inferred == cases[i].inferred &&
		      c.bare == cases[i].bare && c.frames == n, cases[i].what, got);
	}
}

/*
 * Settling: buddyinfo tells whether only first frames were marked (marked
 * frames nearer its blocks than its frames); MemFree beyond the zones' free
 * pages, where MemTotal is beyond what they manage, goes on flagless frames.
 */
void test_census_settle(void)
{
	static const struct {
		uint64_t marked, inferred, bare, other;
		uint64_t heads, frames;			/* buddyinfo */
		uint64_t total, managed, memfree, zfree;
		uint64_t free, outside, want, left_other;
		const char *what;
	} cases[] = {
		{ 10, 30, 50, 60, 10, 40, 1000, 1000, 40, 40, 40, 0, 0, 30,
		  "first frames only: 10 marked, 10 blocks of 40 frames: inferred" },
		{ 40, 5, 50, 60, 10, 40, 1000, 1000, 40, 40, 40, 0, 0, 60,
		  "every frame marked (40): what looked inferred is not" },
		{ 10, 0, 50, 60, 10, 10, 1000, 1000, 10, 10, 10, 0, 0, 60,
		  "order-0 blocks only: one figure either way" },
		{ 40, 0, 100, 120, 10, 40, 1000, 800, 500, 320, 40, 100, 180, 20,
		  "MemFree 180 over the zones', 200 unmanaged, 100 flagless: 100 outside" },
		{ 40, 0, 300, 320, 10, 40, 1000, 800, 500, 320, 40, 180, 180, 140,
		  "180 outside, on 180 of 300 flagless frames" },
		{ 40, 0, 300, 320, 10, 40, 1000, 1000, 500, 320, 40, 0, 0, 320,
		  "MemTotal what the zones manage (mainline): nothing outside" },
		{ 40, 0, 300, 320, 10, 40, 1000, 990, 500, 320, 40, 10, 10, 310,
		  "at most what the zones do not manage" },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct census c;
		struct census_counts k;
		char got[128];

		memset(&c, 0, sizeof(c));
		memset(&k, 0, sizeof(k));
		c.kind[FK_FREE] = cases[i].marked;
		c.inferred = cases[i].inferred;
		c.bare = cases[i].bare;
		c.kind[FK_OTHER] = cases[i].other;
		k.have_buddy = k.have_zone = 1;
		k.buddy_heads = cases[i].heads;
		k.buddy_frames = cases[i].frames;
		k.memtotal = cases[i].total;
		k.zone_managed = cases[i].managed;
		k.memfree = cases[i].memfree;
		k.zone_free = cases[i].zfree;
		census_settle(&c, &k, &k);
		snprintf(got, sizeof(got), "free %llu outside %llu want %llu other %llu",
			 (unsigned long long)c.kind[FK_FREE], (unsigned long long)c.outside,
			 (unsigned long long)c.outside_want, (unsigned long long)c.kind[FK_OTHER]);
		check(c.kind[FK_FREE] == cases[i].free && c.outside == cases[i].outside &&
		      c.outside_want == cases[i].want && c.kind[FK_OTHER] == cases[i].left_other,
		      cases[i].what, got);
	}
}

#ifndef EXMAP_NO_KOWNERS
/* The kernel's memory by owner: vmallocinfo's and allocinfo's lines, and
 * the capture's lines read back (a KOWNVIEW=0 build's: the owners' figures,
 * no sites). */
#ifdef EXMAP_NO_KOWNVIEW
#define SITES(n)	0
#else
#define SITES(n)	(n)
#endif
static struct kowners *kown_back;

static void kown_dump_line(const char *s, size_t n)
{
	static struct arena a;
	char line[1024], *p = line, *w[6];
	size_t k = 0;

	if (!a.base && arena_init(&a, 64 << 20) < 0)
		_exit(2);
	memcpy(line, s, n);
	line[n] = '\0';
	while (k < 6 && (w[k] = cap_field(&p)) != NULL)
		k++;
	check(!p && kown_parse(&kown_back, w, k, w[0][0], &a) == 0, "kowners: a dumped line loads",
	      line);
}

void test_kowners(void)
{
	static const char *const vmi[] = {
		"0xa-0xb   20480 xm_vmalloc_fixed+0x1c/0x50 [xmkmem] pages=4 vmalloc N0=4",
		"0xb-0xc   20480 xm_vmalloc_fixed+0x1c/0x50 [xmkmem] pages=4 vmalloc vpages N0=4",
		"0xc-0xd   20480 xm_map+0x1c/0x50 [xmkmem] pages=4 vmap",
		"0xd-0xe    8192 acpi_os_map_iomem+0x1bc/0x1e0 phys=0x00000000000a0000 ioremap",
		"0xe-0xf   20480 kernel_clone+0x94/0x3e0 pages=4 vmalloc N0=4",
		"0xf-0x10  20480 dup_task_struct+0x94/0x3e0 pages=4 vmalloc N0=4",
		"0x10-0x11 266240 0xffffffffc031911f pages=64 vmalloc N0=64",
		"0x11-0x12 12288 n_tty_open+0x1c/0x50 pages=2 vmalloc user N0=2",
		"0x12-0x13 12288 __vmalloc_node+0x1c/0x50 [xmkmem 0123abcd] pages=2 vmalloc",
		"0x13-0x14   8192 unpurged vm_area",
	};
	static const int stack[] = { 0, 0, 0, 0, 1, 1, 0, 0, 0, 0 };
	static const char *const ai[] = {
		"allocinfo - version: 1.0",
		"#     <size>  <calls> <tag info>",
		"           0        0 init/main.c:1310 func:do_initcalls",
		"       65536       16 tests/kmod/xmkmem.c:51 [xmkmem] func:xm_kmalloc_fixed",
		"      262656        2 tests/kmod/xmkmem.c:61 [xmkmem] func:xm_vmalloc_fixed",
		"        4096        1 include/linux/x.h:9 func:inlined accurate:no",
		"        8192        2 include/linux/x.h:9 func:inlined",
		"          -8        1 mm/y.c:3 func:negative",
		"     1048576       32 mm/slub.c:2478 func:alloc_slab_page",
		"      131072       32 mm/percpu-vm.c:95 func:pcpu_alloc_pages",
	};
	char line[256];
	struct kowners *k = kown_begin(1);
	uint32_t i, j;
	int ok = 1;

	for (i = 0; i < sizeof(vmi) / sizeof(vmi[0]); i++) {
		const char *pg = strstr(vmi[i], "pages=");

		strcpy(line, vmi[i]);
		if (ram_vmalloc_stack(line) != stack[i])
			check(0, "kowners: the fork path's areas are kernel stacks", vmi[i]);
		else if (!stack[i])
			kown_vmalloc(k, line, pg ? strtoull(pg + 6, NULL, 10) * 4096 : 0);
	}
	k->have[KO_VMALLOC] = 1;
	for (i = 0; i < sizeof(ai) / sizeof(ai[0]); i++) {
		strcpy(line, ai[i]);
		kown_alloc_line(k, line);
	}
	k->have[KO_ALLOC] = 1;
	kown_end(k);
	/* [xmkmem]: 2 vmalloc areas of one caller and one past a build id; [kernel]:
	 * n_tty_open's; [no symbol]: the bare address; allocinfo's sites */
	check(k->nowner == 3, "kowners: xmkmem, [kernel], [no symbol]", NULL);
	for (i = 0; i < k->nowner; i++) {
		const struct ko_owner *o = &k->owner[i];

		if (!strcmp(o->name, "xmkmem"))
			ok &= o->bytes[KO_VMALLOC] == 10 * 4096 && o->bytes[KO_ALLOC] == 65536 + 262656 &&
			      o->sites[KO_VMALLOC] == SITES(2) && o->sites[KO_ALLOC] == SITES(2);
		else if (!strcmp(o->name, KO_KERNEL))
			ok &= o->bytes[KO_VMALLOC] == 2 * 4096 && o->bytes[KO_ALLOC] == 12288 &&
			      o->sites[KO_VMALLOC] == SITES(1) && o->sites[KO_ALLOC] == SITES(1);
		else
			ok &= !strcmp(o->name, KO_NOSYM) && o->bytes[KO_VMALLOC] == 64 * 4096;
	}
	check(ok, "kowners: each owner's bytes and sites (vmalloc areas only; allocinfo's "
	      "held, a site once, not the slab's and percpu's pages)", NULL);
	for (i = 0, ok = 0; i < k->nsite; i++)
		ok += k->site[i].src == KO_ALLOC && !strcmp(k->site[i].name, "inlined include/linux/x.h:9") &&
		      k->site[i].bytes == 12288 && k->site[i].calls == 3;
	check(ok == SITES(1), "kowners: an allocinfo site twice (a header's inline) is one, summed",
	      NULL);
	kown_back = NULL;
	kown_dump(k, kown_dump_line);
	ok = kown_back && kown_back->nowner == k->nowner && kown_back->nsite == k->nsite &&
	     kown_back->have[KO_ALLOC] && kown_back->have[KO_VMALLOC];
	for (i = 0; ok && i < k->nowner; i++)
		ok = !memcmp(&kown_back->owner[i], &k->owner[i], sizeof(k->owner[i]));
	for (j = 0; ok && j < k->nsite; j++)
		ok = !strcmp(kown_back->site[j].name, k->site[j].name) &&
		     kown_back->site[j].bytes == k->site[j].bytes &&
		     kown_back->site[j].owner == k->site[j].owner && kown_back->site[j].src == k->site[j].src;
	check(ok, "kowners: the capture's z, j and q lines load as dumped", NULL);
}
#endif

#ifndef EXMAP_NO_DMABUF
/* A DRM client's fdinfo lines (Documentation/gpu/drm-usage-stats.rst's keys)
 * into regions: each figure where its key and unit say, others ignored. */
void test_drm_lines(void)
{
	static const struct {
		const char *line;
		int ret;
	} lines[] = {
		{ "drm-total-memory:	4 KiB", 1 }, { "drm-resident-memory:	1 MiB", 1 },
		{ "drm-memory-vram:	2048 KiB", 1 },	/* before drm-resident-: resident */
		{ "drm-shared-system:	123", 1 }, { "drm-engine-gfx:	12345 ns", 0 },
		{ "drm-purgeable-memory:	4 KiB", 0 }, { "drm-client-id:	7", 0 },
		{ "drm-total-:	5", -1 }, { "drm-total-memory:	5 GiB", -1 },
		{ "drm-total-memory:	x", -1 }, { "drm-shared-memory:	99999999999999999999", -1 },
	};
	static const struct {
		const char *region;
		uint64_t total, resident, shared;
		uint32_t have;
	} want[] = {
		{ "memory", 4096, 1 << 20, 0, DRM_TOTAL | DRM_RESIDENT },
		{ "vram", 0, 2 << 20, 0, DRM_RESIDENT },
		{ "system", 0, 0, 123, DRM_SHARED },
	};
	static struct arena a;
	static struct scan s;
	struct drmuse *u = NULL, *d;
	char why[160];
	size_t i, n = 0;

	if (arena_init(&a, 1 << 20) < 0) {
		check(0, "drm lines: an arena", NULL);
		return;
	}
	s.arena = &a;
	for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		int r = drm_line(&s, &u, lines[i].line, 7, "xe");

		fmt_snprintf(why, sizeof(why), "%s: %d, want %d", lines[i].line, r, lines[i].ret);
		check(r == lines[i].ret, "drm lines: what each line is", why);
	}
	for (d = u; d; d = d->next, n++) {
		for (i = 0; i < 3 && strcmp(want[i].region, d->region) != 0; i++)
			;
		fmt_snprintf(why, sizeof(why), "%s: %llu %llu %llu have %x", d->region,
			     (unsigned long long)d->total, (unsigned long long)d->resident,
			     (unsigned long long)d->shared, d->have);
		check(i < 3 && d->client == 7 && strcmp(d->driver, "xe") == 0 &&
		      d->total == want[i].total && d->resident == want[i].resident &&
		      d->shared == want[i].shared && d->have == want[i].have,
		      "drm lines: a region's figures", why);
	}
	check(n == 3, "drm lines: three regions", NULL);
	arena_release(&a);
}

/* A capture's DRM lines: with the fd's device, and as before it (device 0). */
void test_drm_capture(void)
{
	static struct arena a;
	static struct scan s;
	static struct proc p;
	char with[] = "e 7 7 1c0000 100000 80000 xmkgem memory e201";
	char before[] = "e 2 1 a0000 0 0 xe vram";
	char more[] = "e 2 1 a0000 0 0 xe vram 1 2";
	const struct drmuse *d;

	if (arena_init(&a, 1 << 20) < 0) {
		check(0, "drm capture: an arena", NULL);
		return;
	}
	s.arena = &a;
	check(dmacap_proc(&s, &p, with) == 0, "drm capture: a line with the device loads", NULL);
	d = p.dma ? p.dma->drm : NULL;
	check(d && d->client == 7 && d->dev == 0xe201 && d->total == 0x1c0000 &&
	      d->resident == 0x100000 && d->shared == 0x80000 && !strcmp(d->driver, "xmkgem") &&
	      !strcmp(d->region, "memory"), "drm capture: its figures and device", NULL);
	check(dmacap_proc(&s, &p, before) == 0, "drm capture: an older line loads", NULL);
	d = p.dma ? p.dma->drm : NULL;
	check(d && d->client == 2 && d->dev == 0 && d->total == 0xa0000 &&
	      !strcmp(d->region, "vram"), "drm capture: the older line's device is 0", NULL);
	check(dmacap_proc(&s, &p, more) < 0, "drm capture: a line with a word too many", NULL);
	arena_release(&a);
}
#endif
