/* The ram view: installed RAM down to named consumers, unexplained always shown. */
/*
 * From installed RAM: what was reserved at boot, and MemTotal split into
 * parts that add up to it exactly: free, the scanned processes (their
 * eff_resident: anonymous, file-backed, shmem), what no scanned process
 * maps (anonymous, page cache, shmem), the kernel's own (slab, stacks, page
 * tables, vmalloc, percpu, zram, zswap, the hugetlb pool) and unexplained:
 * MemTotal less all of those, never hidden. Then swap, and the census of
 * every frame where kpageflags or the module gives one, beside the counters.
 */
#include <errno.h>
#include <string.h>

#include "capture.h"
#include "dmabuf.h"
#include "kowner.h"
#include "ram.h"
#include "ramsrc.h"

enum { L_HEAD, L_PART, L_DETAIL, L_RESERVED, L_SWAP, L_CENSUS, L_DMABUF, L_OWNER };

static const char *const csv_cat[] = {
	[L_HEAD] = NULL, [L_PART] = "part", [L_DETAIL] = "detail", [L_RESERVED] = "reserved",
	[L_SWAP] = "swap", [L_CENSUS] = "census", [L_DMABUF] = "dmabuf",
	[L_OWNER] = "owner",
};

struct rline {
	uint8_t depth, kind;
	const char *sub;	/* the CSV's subcategory, and the text's label */
	const char *name;	/* a named consumer's, else NULL */
	int64_t bytes;
	const char *source;
};

#define RLINES	256
static struct rline lines[RLINES];
static size_t nlines;

static void add(int depth, int kind, const char *sub, const char *name, int64_t bytes,
		const char *source)
{
	if (nlines < RLINES)
		lines[nlines++] = (struct rline){ (uint8_t)depth, (uint8_t)kind, sub, name, bytes, source };
}

static void add_top(int depth, const char *sub, const struct ramtop *t, const char *source)
{
	for (uint32_t i = 0; i < t->n; i++)
		add(depth, L_DETAIL, sub, t->top[i].name, (int64_t)t->top[i].bytes, source);
}

/* The scanned processes' eff_resident: anonymous, file-backed, shmem, hugetlb. */
struct procsplit {
	uint64_t anon, file, shmem, huge;
};

static int dev_in(uint32_t dev, const uint32_t *devs, uint32_t n)
{
	while (n--)
		if (devs[n] == dev)
			return 1;
	return 0;
}

static void split_procs(const struct scan *s, const struct ramsrc *r, struct procsplit *ps)
{
	const struct proc *p;
	const struct mapping *m;

	memset(ps, 0, sizeof(*ps));
	for (p = s->first; p; p = p->next)
		for (m = p->map; m; m = m->next) {
			uint64_t eff = eff_bytes(&m->fig.eff_resident), w;
			const char *path = m->path;

			if (path[0] != '/') {	/* anonymous, [heap], [stack] */
				*(m->flags & MF_SHARED ? &ps->shmem : &ps->anon) += eff;
			} else if (strncmp(path, "/anon_hugepage", 14) == 0 ||
				   dev_in(m->dev, r->files.huge_dev, r->files.nhuge_dev)) {
				ps->huge += eff;
			} else {
				int shm = strncmp(path, "/dev/zero", 9) == 0 ||
					  strncmp(path, "/SYSV", 5) == 0 ||
					  strncmp(path, "/memfd:", 7) == 0 ||
					  dev_in(m->dev, r->files.shm_dev, r->files.nshm_dev);

				/* a private mapping's written pages are anonymous copies,
				 * of a tmpfs file's too */
				w = m->flags & MF_SHARED ? 0 : m->fig.writable < eff ? m->fig.writable : eff;
				ps->anon += w;
				*(shm ? &ps->shmem : &ps->file) += eff - w;
			}
		}
}

/* What MemTotal's parts so far leave: unexplained, at the end. */
static int64_t left;

/* A part of MemTotal: a line, taken from what is left. */
static void part(int depth, const char *sub, int64_t v, const char *source)
{
	add(depth, L_PART, sub, NULL, v, source);
	left -= v;
}

/* A dma-buf line (dmabuf_ram): a part, or one of the lines after swap. */
static void dma_line(int depth, int is_part, const char *label, const char *name, int64_t v,
		     const char *source)
{
	if (is_part && !name)
		part(depth, label, v, source);
	else
		add(depth, is_part ? L_DETAIL : L_DMABUF, label, name, v, source);
}

#if !defined(EXMAP_NO_KOWNVIEW) && !defined(EXMAP_NO_KOWNERS)
/* A line of the kernel's memory by owner (kownview.c). */
static void owner_line(int depth, const char *label, const char *name, int64_t bytes,
		       const char *source)
{
	add(depth, L_OWNER, label, name, bytes, source);
}
#endif

/* a - b, as a signed figure: a counter less what the scan found of it */
static int64_t less(uint64_t a, uint64_t b)
{
	return (int64_t)a - (int64_t)b;
}

static void build(const struct scan *s, const struct ramsrc *r)
{
	const uint64_t *mi = r->mi;
	struct procsplit ps;
	int64_t reserved = less(r->installed, mi[MI_TOTAL]), other;
	uint64_t vmalloc = mi[MI_VMALLOC];
	const char *vsrc = "meminfo";
	uint32_t i;
	int fw;

	split_procs(s, r, &ps);
	nlines = 0;
	add(0, L_HEAD, "installed", NULL, (int64_t)r->installed, r->installed_src);
	/* reserved at boot: installed less MemTotal */
	add(1, L_HEAD, "reserved at boot", NULL, reserved, "derived");
	other = reserved;
	fw = r->have_iomem && r->installed > r->sysram;
	if (fw) {
		add(2, L_RESERVED, "firmware", NULL, less(r->installed, r->sysram), "iomem");
		other -= less(r->installed, r->sysram);
	}
	for (i = 0; i < r->nregion; i++) {
		if (r->region_reusable[i])
			continue;	/* CMA: lent to movable pages, within MemTotal */
		/* a no-map region is outside System RAM: within iomem's firmware */
		add(fw && r->region_nomap[i] ? 3 : 2, L_RESERVED, "region", r->region[i].name,
		    (int64_t)r->region[i].bytes, "devicetree");
		if (!(r->have_iomem && r->region_nomap[i]))
			other -= (int64_t)r->region[i].bytes;
	}
	if (r->kimage_src) {
		add(2, L_RESERVED, "kernel code", NULL, (int64_t)r->kcode, r->kimage_src);
		/* arm's iomem holds bss within its data */
		add(2, L_RESERVED, r->kbss ? "kernel data" : "kernel data and bss", NULL,
		    (int64_t)r->kdata, r->kimage_src);
		if (r->kbss)
			add(2, L_RESERVED, "kernel bss", NULL, (int64_t)r->kbss, r->kimage_src);
		other -= (int64_t)(r->kcode + r->kdata + r->kbss);
	}
	add(2, L_RESERVED, "other", NULL, other, "derived");
	for (i = 0; i < r->nregion; i++)
		if (r->region_reusable[i])
			add(2, L_RESERVED, "reusable region (within MemTotal)", r->region[i].name,
			    (int64_t)r->region[i].bytes, "devicetree");
	if (mi[MI_CMATOTAL]) {
		add(2, L_RESERVED, "cma (within MemTotal)", NULL, (int64_t)mi[MI_CMATOTAL], "meminfo");
		add(3, L_RESERVED, "cma free (within MemTotal)", NULL, (int64_t)mi[MI_CMAFREE], "meminfo");
		add(3, L_RESERVED, "cma used (within MemTotal)", NULL, less(mi[MI_CMATOTAL],
		    mi[MI_CMAFREE]), "meminfo");
#ifndef EXMAP_NO_DMABUF	/* read with dma-bufs */
		for (i = 0; i < r->cma.n; i++) {	/* each area: its pages, those given out */
			uint32_t j;

			add(3, L_RESERVED, "cma area (within MemTotal)", r->cma.top[i].name,
			    (int64_t)r->cma.top[i].bytes, "sysfs");
			for (j = 0; j < r->cma_used.n; j++)
				if (strcmp(r->cma_used.top[j].name, r->cma.top[i].name) == 0)
					add(4, L_RESERVED, "cma area allocated (within MemTotal)",
					    r->cma.top[i].name, (int64_t)r->cma_used.top[j].bytes, "sysfs");
		}
#endif
	}

	add(1, L_HEAD, "MemTotal", NULL, (int64_t)mi[MI_TOTAL], "meminfo");
	left = (int64_t)mi[MI_TOTAL];
	part(2, "free", (int64_t)mi[MI_FREE], "meminfo");
	add(2, L_HEAD, "processes (eff_resident)", NULL, (int64_t)(ps.anon + ps.file + ps.shmem), "scan");
	part(3, "process anonymous", (int64_t)ps.anon, "scan");
	part(3, "process file", (int64_t)ps.file, "scan");
	part(3, "process shmem", (int64_t)ps.shmem, "scan");
	part(2, "unmapped anonymous", less(mi[MI_ANON], ps.anon), "meminfo-scan");
	part(2, "unmapped page cache", less(mi[MI_CACHED] + mi[MI_BUFFERS],
						       mi[MI_SHMEM] + ps.file), "meminfo-scan");
	add_top(3, "ramfs", &r->files.ramfs, "ramfs");
	part(2, "unmapped shmem", less(mi[MI_SHMEM], ps.shmem), "meminfo-scan");
	add_top(3, "tmpfs", &r->files.tmpfs, "tmpfs");
	add_top(3, "sysv", &r->files.sysv, "sysvipc");
	add(2, L_HEAD, "kernel", NULL, 0, "meminfo");
	{
		size_t kernel = nlines - 1;
		int64_t k0 = left;

		part(3, "slab reclaimable", (int64_t)mi[MI_SRECLAIM], "meminfo");
		part(3, "slab unreclaimable", (int64_t)mi[MI_SUNRECLAIM], "meminfo");
		add_top(4, "slab", &r->slab, "slabinfo");
		if (mi[MI_KRECLAIM] > mi[MI_SRECLAIM])
			part(3, "other reclaimable", less(mi[MI_KRECLAIM], mi[MI_SRECLAIM]), "meminfo");
		part(3, "kernel stacks", (int64_t)mi[MI_STACK], "meminfo");
		part(3, "page tables", (int64_t)mi[MI_PGTABLE], "meminfo");
		if (r->mi_have & 1u << MI_SECPGTABLE)
			part(3, "secondary page tables", (int64_t)mi[MI_SECPGTABLE], "meminfo");
		if (!vmalloc && r->have_vmallocinfo)
			vmalloc = r->vmalloc_info, vsrc = "vmallocinfo";
		/* vmalloc'ed kernel stacks are counted as stacks */
		if (vmalloc >= r->vmalloc_stacks)
			vmalloc -= r->vmalloc_stacks;	/* said in a note */
		part(3, "vmalloc", (int64_t)vmalloc, vsrc);
		add_top(4, "module", &r->modules, "modules");
		part(3, "percpu", (int64_t)mi[MI_PERCPU], "meminfo");
		if (r->nzram)
			part(3, "zram", (int64_t)r->zram_used, "zram");
		if (mi[MI_ZSWAP])
			part(3, "zswap", (int64_t)mi[MI_ZSWAP], "meminfo");
		if (mi[MI_HUGETLB])
			part(3, "hugetlb pool", (int64_t)mi[MI_HUGETLB], "meminfo");
		lines[kernel].bytes = k0 - left;
	}
	dmabuf_ram(s, 1, dma_line);	/* what no meminfo counter holds: unexplained shrinks */
	add(2, L_PART, "unexplained", NULL, left, "derived");

	add(0, L_SWAP, "swap", NULL, (int64_t)mi[MI_SWAPTOTAL], "meminfo");
	add(1, L_SWAP, "swap used", NULL, less(mi[MI_SWAPTOTAL], mi[MI_SWAPFREE]), "meminfo");
	if (r->nzram) {
		add(1, L_SWAP, "zram stored", NULL, (int64_t)r->zram_orig, "zram");
		add(1, L_SWAP, "zram compressed", NULL, (int64_t)r->zram_compr, "zram");
		add(1, L_SWAP, "zram in RAM", NULL, (int64_t)r->zram_used, "zram");
	}
	dmabuf_ram(s, 0, dma_line);
#if !defined(EXMAP_NO_KOWNVIEW) && !defined(EXMAP_NO_KOWNERS)	/* a board's: on a host */
	if (r->kown)
		kown_lines(r->kown, owner_line);
#endif
	if (!r->census_err) {
		add(0, L_CENSUS, "census", NULL, (int64_t)(r->census.frames * s->page_size), r->census.source);
		for (i = 0; i < FK_N; i++) {
			if (r->census.kind[i])
				add(1, L_CENSUS, frame_kind_name[i], NULL,
				    (int64_t)(r->census.kind[i] * s->page_size), r->census.source);
			/* MemFree's pages outside the buddy allocator: zoneinfo's count */
			if (i == FK_FREE && r->census.outside)
				add(1, L_CENSUS, CENSUS_OUTSIDE, NULL,
				    (int64_t)(r->census.outside * s->page_size), "zoneinfo");
		}
		/* what runs across the kinds */
		add(1, L_CENSUS, "mapped by a process (across kinds)", NULL,
		    (int64_t)(r->census.mapped * s->page_size), r->census.source);
		add(1, L_CENSUS, "in transparent huge pages (across kinds)", NULL,
		    (int64_t)(r->census.thp * s->page_size), r->census.source);
	}
}

/* "12.3%" of whole; "-" when whole is 0, or the share is past saying (a
 * damaged capture's figures): computed without overflow, rounded. */
static void share(char *buf, size_t len, int64_t part, uint64_t whole)
{
	uint64_t a = part < 0 ? -(uint64_t)part : (uint64_t)part, pm;

	if (!whole || whole > UINT64_MAX / 1000 || a / whole > UINT32_MAX) {
		fmt_snprintf(buf, len, "-");
		return;
	}
	pm = a / whole * 1000 + (a % whole * 1000 + whole / 2) / whole;
	fmt_snprintf(buf, len, "%s%llu.%llu%%", part < 0 && pm ? "-" : "",
		     (unsigned long long)pm / 10, (unsigned long long)pm % 10);
}

static void put_size(const struct opts *o, char *buf, size_t len, int64_t v)
{
	buf[0] = '-';
	fmt_size(o, buf + (v < 0), len - 1, (uint64_t)(v < 0 ? -v : v));
}


static void print_csv(const struct ramsrc *r)
{
	size_t i;

	outs("category,subcategory,name,bytes,source\n");
	for (i = 0; i < nlines; i++) {
		const struct rline *l = &lines[i];
		const char *cat = csv_cat[l->kind];
		int64_t v = l->bytes;

		if (l->kind == L_OWNER)
			continue;	/* the largest few: kown_csv gives all */
		if (l->kind == L_HEAD) {
			if (strcmp(l->sub, "installed") && strcmp(l->sub, "MemTotal"))
				continue;	/* sums of the parts below them */
			cat = l->sub[0] == 'i' ? "installed" : "memtotal";
		}
		outs(cat);
		outs(",");
		if (l->kind != L_HEAD)
			csv_field(l->sub, strlen(l->sub));
		outs(",");
		if (l->name)
			csv_field(l->name, strlen(l->name));
		outf(",%s%llu,%s\n", v < 0 ? "-" : "", (unsigned long long)(v < 0 ? -v : v), l->source);
	}
#if !defined(EXMAP_NO_KOWNVIEW) && !defined(EXMAP_NO_KOWNERS)
	if (r->kown)
		kown_csv(r->kown);
#else
	(void)r;
#endif
}

static void print_text(const struct ramsrc *r, const struct opts *o)
{
	char label[96], size[32], pct[16];
	size_t i;

	if (!o->noheader)
		outf("%-48s %8s %7s  %s\n", "RAM", o->kib ? "KIB" : "SIZE", "SHARE", "SOURCE");
	for (i = 0; i < nlines; i++) {
		const struct rline *l = &lines[i];
		int w = 48 - 2 * l->depth;

		/* a named consumer by its name: the source says what it is */
		fmt_snprintf(label, sizeof(label), "%s", l->name ? l->name : l->sub);
		put_size(o, size, sizeof(size), l->bytes);
		share(pct, sizeof(pct), l->bytes, r->installed);
		outf("%*s", 2 * l->depth, "");
		put_text(label, (size_t)w, 1);
		outf(" %8s %7s  %.16s\n", size, pct, l->source);
	}
}

/* The ram view's figures: read now, or the capture's (refused when it has none). */
static const struct ramsrc *figures(const struct scan *s, const char *census_how)
{
	static struct ramsrc live;
	static int have;

	if (!s->cap) {	/* read once: the view and its budgets see the same */
		if (!have)
			ram_read(&live, census_how, s->page_size);
		have = 1;
		return &live;
	}
	if (!s->cap->ram)
		die("%s: a v1 capture does not hold the ram view", s->cap->file);
	if (s->cap->ram_lost)
		die_status(EX_DAMAGED, "%s: the ram view's chunk was lost: it cannot be shown",
			   s->cap->file);
	return s->cap->ram;
}

/*
 * --budget ram:NAME: the bytes of the parts of MemTotal whose name is NAME
 * or begins with NAME and a space (ram:slab is both slab parts), else of the
 * named consumers called NAME. How many lines that was: 0, none.
 */
uint32_t ram_budget(const struct scan *s, const char *name, uint64_t *bytes)
{
	size_t i, n = strlen(name);
	uint32_t hits = 0;
	int pass;

	build(s, figures(s, "auto"));
	*bytes = 0;
	for (pass = 0; pass < 2 && !hits; pass++)
		for (i = 0; i < nlines; i++) {
			const struct rline *l = &lines[i];

			if (pass == 0 ? l->kind == L_PART && strncmp(l->sub, name, n) == 0 &&
					(l->sub[n] == '\0' || l->sub[n] == ' ') :
					l->kind == L_DETAIL && strcmp(l->name, name) == 0) {
				*bytes += l->bytes > 0 ? (uint64_t)l->bytes : 0;
				hits++;
			}
		}
	return hits;
}

/*
 * The ram view's lines, for a picture, in the view's order: fn for each,
 * with its kind ("head", "part", "detail", "reserved", "swap", "census").
 * The figures are read now, or the capture's. 0; -1 when a capture holds
 * none (v1, or its chunk lost: said when it was loaded).
 */
static void each_line(const struct scan *s, const struct ramsrc *r, int parts_only,
		      void (*fn)(void *arg, const struct ram_line *l), void *arg)
{
	static const char *const kind[] = {
		[L_HEAD] = "head", [L_PART] = "part", [L_DETAIL] = "detail",
		[L_RESERVED] = "reserved", [L_SWAP] = "swap", [L_CENSUS] = "census",
		[L_DMABUF] = "dmabuf",
		[L_OWNER] = "owner",
	};
	size_t i;

	build(s, r);
	for (i = 0; i < nlines; i++) {
		struct ram_line l = { lines[i].depth, kind[lines[i].kind], lines[i].sub,
				      lines[i].name, lines[i].bytes, lines[i].source };

		if (!parts_only || lines[i].kind == L_PART)
			fn(arg, &l);
	}
}

int ram_lines(const struct scan *s, const char *census_how,
	      void (*fn)(void *arg, const struct ram_line *l), void *arg)
{
	if (s->cap && (!s->cap->ram || s->cap->ram_lost))
		return -1;
	each_line(s, figures(s, census_how), 0, fn, arg);
	return 0;
}

/* The parts of MemTotal, which add up to it, from figures r and scan s. */
void ram_parts(const struct scan *s, const struct ramsrc *r,
	       void (*fn)(void *arg, const struct ram_line *l), void *arg)
{
	each_line(s, r, 1, fn, arg);
}

/* When the figures were read: seconds since 1970 and since boot (0: unknown). */
void ram_when(const struct scan *s, uint64_t *time_s, uint64_t *uptime_s)
{
	const struct ramsrc *r = s->cap ? s->cap->ram : NULL;

	*time_s = r ? r->time_s : 0;
	*uptime_s = r ? r->uptime_s : 0;
}

/*
 * diff: each line of the ram view in capture a and in capture b, where it
 * changed (all of them with -a). Lines are matched by their kind, label and
 * name; a line on one side only counts as 0 on the other.
 */
void diff_ram(const struct scan *a, const struct scan *b, const struct opts *o, struct arena *ar)
{
	struct rline *la;
	size_t na, i, j, same = 0;
	char x[32], y[32], d[32];

	if (!a->cap->ram || a->cap->ram_lost || !b->cap->ram || b->cap->ram_lost) {
		if (!o->csv)
			outs("\nram: not compared: a capture holds no ram view (v1, or its chunk lost)\n");
		return;
	}
	build(a, a->cap->ram);
	na = nlines;
	la = arena_alloc(ar, na * sizeof(*la) + 1, 8);
	memcpy(la, lines, na * sizeof(*la));
	build(b, b->cap->ram);
	if (!o->csv)
		outf("\n%-40s %11s %11s %11s\n", "RAM", "A", "B", "CHANGE");
	for (i = 0; i < nlines; i++) {
		const struct rline *l = &lines[i];
		int64_t va = 0;

		if (l->kind == L_OWNER)
			continue;	/* kown_diff's, owner by owner */
		for (j = 0; j < na; j++)
			if (la[j].kind == l->kind && !strcmp(la[j].sub, l->sub) &&
			    (la[j].name && l->name ? !strcmp(la[j].name, l->name) : la[j].name == l->name)) {
				va = la[j].bytes;
				break;
			}
		if (va == l->bytes && !o->all && (o->csv || l->depth > 0)) {
			same++;
			continue;
		}
		if (o->csv) {	/* the line as the ram view's CSV names it: category:sub[:name] */
			char key[160];

			if (l->kind == L_HEAD && strcmp(l->sub, "installed") && strcmp(l->sub, "MemTotal"))
				continue;
			fmt_snprintf(key, sizeof(key), "%s:%s%s%s", l->kind == L_HEAD ?
				     (l->sub[0] == 'i' ? "installed" : "memtotal") : csv_cat[l->kind],
				     l->kind == L_HEAD ? "" : l->sub, l->name ? ":" : "",
				     l->name ? l->name : "");
			outs("ram,");
			csv_field(key, strlen(key));
			outf(",,%lld,%lld\n", (long long)va, (long long)l->bytes);
			continue;
		}
		put_size(o, x, sizeof(x), va);
		put_size(o, y, sizeof(y), l->bytes);
		put_size(o, d + 1, sizeof(d) - 1, l->bytes - va);
		d[0] = l->bytes >= va ? '+' : ' ';
		outf("%*s", 2 * l->depth, "");
		put_text(l->name ? l->name : l->sub, (size_t)(40 - 2 * l->depth), 1);
		outf(" %11s %11s %11s\n", x, y, d[1] == '-' ? d + 1 : d);
	}
	if (same && !o->csv)
		outf("(%zu ram lines did not change; -a shows them)\n", same);
#ifndef EXMAP_NO_KOWNERS
	kown_diff(a->cap->ram->kown, b->cap->ram->kown, o);
#endif
}

void view_ram(struct scan *s, const struct opts *o, const char *census_how)
{
	const struct ramsrc *rp = figures(s, census_how);
#ifdef EXMAP_NO_KOWNERS
	const char *kn = NULL;
#elif defined(EXMAP_NO_KOWNVIEW)
	const char *kn = rp->kown ? "the kernel's memory by owner: in a capture (dump), on a host" :
			 NULL;
#else
	const char *kn = kown_note(rp->kown);
#endif
	uint32_t i;

	build(s, rp);
	if (o->csv) {
		print_csv(rp);
	} else {
		print_text(rp, o);
		if (!o->noheader) {
			compare_census(rp, s->page_size);
			for (i = 0; i < rp->nnotes; i++)
				outf("note: %s\n", rp->notes[i]);
			if (rp->census_err)
				outf("note: no census of frames: %s\n", rp->census_err == -ENODATA ?
				     "no System RAM ranges (iomem)" : rp->census_err == -EPROTONOSUPPORT ?
				     CENSUS_KMOD_OLD : "no kpageflags, no module");
			if (kn)
				outf("note: %s\n", kn);
		}
	}
	if (o->csv || o->noheader) {
		for (i = 0; i < rp->nnotes; i++)
			warnx("%s", rp->notes[i]);
		if (kn)
			warnx("%s", kn);
	}
}
