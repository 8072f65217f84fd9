/* The sections and symbols views: a file's items placed on the scanned pages. */
/*
 * The sections and symbols views: a mapped ELF file's allocated sections (or
 * its symbols) placed on each scanning process's pages, byte by byte. Each
 * mapping's load bias comes from the PT_LOAD segment holding its file offset;
 * the anonymous mapping right after the file's last mapping holds the rest of
 * its .bss. Bytes of the file's mappings outside every section are holes, so
 * the sections plus the holes add up to the file's mappings.
 */
#include <elf.h>		/* constants only */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "capture.h"
#include "elfitems.h"

/* Could mapping m be segment ph, mapped at this bias? */
static int fits_segment(const struct elf_phdr *ph, const struct mapping *m, uint64_t bias,
			uint64_t ps)
{
	uint64_t end = (bias + ph->vaddr + ph->memsz + ps - 1) & ~(ps - 1);

	if ((m->flags & MF_EXEC) && !(ph->flags & PF_X))
		return 0;
	if ((m->flags & MF_WRITE) && !(ph->flags & PF_W))
		return 0;
	return m->end <= end;
}

/*
 * The PT_LOAD segment a file mapping comes from, and its bias: one whose
 * file range holds the mapping's offset and that the mapping fits. Segments
 * can share a file page (read-only data and the RELRO start of the data
 * segment, say), so one whose bias is *bias (the load's, when known) wins.
 * NULL if no segment holds the offset (an mmap of the file as data); *bad if
 * some segment holds it and none fits.
 */
static const struct elf_phdr *segment_of(const struct target *t, const struct mapping *m,
					 uint64_t ps, int known, uint64_t *bias, int *bad)
{
	const struct elf_phdr *first = NULL;
	uint64_t first_bias = 0;
	uint32_t i;

	*bad = 0;
	for (i = 0; i < t->nload; i++) {
		const struct elf_phdr *ph = &t->load[i];
		uint64_t b = m->start - ph->vaddr - m->offset + ph->offset;

		if (ph->filesz == 0 || m->offset < (ph->offset & ~(ps - 1)) ||
		    (m->offset >= ph->offset && m->offset - ph->offset >= ph->filesz))
			continue;
		if (!fits_segment(ph, m, b, ps)) {
			*bad = !first;
			continue;
		}
		if (known && b == *bias) {
			*bad = 0;	/* another segment sharing the page did not fit */
			return ph;
		}
		if (!first) {
			first = ph;
			first_bias = b;
		}
	}
	if (first) {
		*bad = 0;
		*bias = first_bias;	/* a new load of the file starts here */
	}
	return first;
}

/* Where in a mapping's runs the last placement started: placements ascend. */
struct cursor {
	uint64_t i;		/* run index */
	uint64_t pa;		/* address of its first page */
};

/* Figures of the bytes [a, z) of mapping m, added to f; a >= the cursor's. */
static void add_bytes(const struct scan *s, const struct mapping *m, struct cursor *cur,
		      uint64_t a, uint64_t z, struct fig *f)
{
	uint64_t ps = s->page_size, pa, i;

	f->vm += z - a;
	/* move the cursor to the run holding a */
	for (; cur->i < m->nrun; cur->i++) {
		uint32_t n = run_pages(scan_run(s, m->run0 + cur->i));

		if (cur->pa + (uint64_t)n * ps > a)
			break;
		cur->pa += (uint64_t)n * ps;
	}
	for (i = cur->i, pa = cur->pa; i < m->nrun && pa < z; i++) {
		const struct run *r = scan_run(s, m->run0 + i);
		uint32_t kind = run_kind(r), n = run_pages(r), j;
		uint64_t rend = pa + (uint64_t)n * ps;

		if (kind == RUN_HOLE || kind == RUN_NOTRAM) {
			pa = rend;
			continue;
		}
		for (j = (a > pa ? (a - pa) / ps : 0); j < n; j++) {
			uint64_t p0 = pa + (uint64_t)j * ps, lo, hi, c, share;

			if (p0 >= z)
				break;
			lo = a > p0 ? a : p0;
			hi = z < p0 + ps ? z : p0 + ps;
			c = kind == RUN_EXCL ? 1 : s->pt.count[r->id + j];
			share = ((hi - lo) << 32) / c;
			f->mapped += hi - lo;
			eff_add(&f->eff_mapped, share, 1);
			if (kind == RUN_SWAP) {
				f->swap += hi - lo;
			} else {
				f->resident += hi - lo;
				eff_add(&f->eff_resident, share, 1);
			}
			if (c == 1)
				f->sole += hi - lo;
			if (run_written(r))
				f->writable += hi - lo;
		}
		pa = rend;
	}
}

/* Bytes [a, z) between items: holes (sections); for symbols, each section's
 * bytes no symbol holds where they lie in a section shown, else outside. */
static void add_gap(const struct scan *s, struct target *t, const struct mapping *m,
		    struct cursor *cur, uint32_t *ri, uint64_t a, uint64_t z, uint64_t bias)
{
	uint64_t at = a;
	uint32_t i;

	if (t->sections) {
		add_bytes(s, m, cur, a, z, &t->holes.fig);
		return;
	}
	/* gaps come in address order: *ri, the first section not yet behind */
	while (*ri < t->nrange && t->ranges[*ri].hi + bias <= a)
		++*ri;
	for (i = *ri; i < t->nrange && at < z; i++) {
		uint64_t lo = t->ranges[i].lo + bias, hi = t->ranges[i].hi + bias;

		if (lo >= z)
			break;
		if (lo < at)
			lo = at;
		if (hi > z)
			hi = z;
		if (lo >= hi)
			continue;	/* within a section before it: each byte once */
		if (lo > at)
			add_bytes(s, m, cur, at, lo, &t->outside.fig);
		add_bytes(s, m, cur, lo, hi, &t->ranges[i].fig);
		at = hi;
	}
	if (at < z)
		add_bytes(s, m, cur, at, z, &t->outside.fig);
}

/* Place every item on the region [r0, r1) of mapping m, at bias; the gaps too. */
static void place(const struct scan *s, struct target *t, const struct mapping *m,
		  uint64_t r0, uint64_t r1, uint64_t bias)
{
	struct cursor cur = { 0, m->start };
	uint64_t cover = r0;	/* sections are placed in order: holes lie between */
	uint32_t lo = 0, hi = t->nitem, ri = 0;

	/* first item that may reach r0: lo + bias + maxlen > r0 */
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (t->items[mid].lo + bias + t->maxlen <= r0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < t->nitem && t->items[lo].lo + bias < r1; lo++) {
		struct elf_item *it = &t->items[lo];
		uint64_t a = it->lo + bias, z = it->hi + bias;

		if (a < r0)
			a = r0;
		if (z > r1)
			z = r1;
		if (a >= z)
			continue;
		if (a > cover)
			add_gap(s, t, m, &cur, &ri, cover, a, bias);
		if (a < cover)	/* sections overlap: each byte once */
			a = cover;
		if (a < z)
			add_bytes(s, m, &cur, a, z, &it->fig);
		if (z > cover)
			cover = z;
	}
	if (cover < r1)
		add_gap(s, t, m, &cur, &ri, cover, r1, bias);
}

/* Is the build-id the file has also what the process has in memory? */
static int same_build(const struct scan *s, const struct target *t, int piddir,
		      const struct mapping *m, uint64_t bias)
{
	unsigned char mem[ELF_BUILDID_MAX];
	uint64_t addr = 0, pi;
	uint32_t i;
	int fd, ok = 1;

	if (!t->buildid_len)
		return 1;
	for (i = 0; i < t->nload; i++) {
		const struct elf_phdr *ph = &t->load[i];

		if (t->elf.buildid_off >= ph->offset &&
		    t->elf.buildid_off - ph->offset < ph->filesz)
			addr = bias + ph->vaddr + (t->elf.buildid_off - ph->offset);
	}
	if (addr < m->start || addr + t->buildid_len > m->end)
		return 1;	/* not in this mapping: nothing to compare here */
	/* Only read what is resident: reading would fault the page in. */
	pi = (addr - m->start) / s->page_size;
	for (i = 0; i < m->nrun; i++) {
		const struct run *r = scan_run(s, m->run0 + i);
		uint32_t n = run_pages(r), kind = run_kind(r);

		if (pi < n) {
			if (kind != RUN_EXCL && kind != RUN_SHARED)
				return 1;
			break;
		}
		pi -= n;
	}
	if ((fd = openat(piddir, "mem", O_RDONLY | O_CLOEXEC)) < 0)
		return 1;
	if (pread(fd, mem, t->buildid_len, (off_t)addr) == (ssize_t)t->buildid_len)
		ok = memcmp(mem, t->buildid, t->buildid_len) == 0;
	close(fd);
	return ok;
}

/*
 * A captured file, on this machine: under the sysroot (or /), the file with
 * the build-id the capture recorded; the path alone when it recorded none.
 */
static int open_captured(struct scan *s, struct target *t)
{
#ifdef EXMAP_NO_LOAD
	(void)s, (void)t;
	return -1;	/* no capture is loaded in this build */
#else
	static char used[PATH_BUF], why[PATH_BUF + 512];
	const unsigned char *id = NULL;
	size_t len = 0;
	int r = capture_buildid(s->cap, t->file, &id, &len);

	if (r < 0) {
		fmt_snprintf(t->elf.err, sizeof(t->elf.err), "the capture's build-ids were lost "
			     "(see above): the file cannot be checked, so it is not used");
		t->status = EX_DAMAGED;
		return -1;
	}
	if (r == 0)
		len = 0;
	t->fd = sysroot_open(t->sysroot, t->file->path, id, len, &t->elf.size, used, sizeof(used),
			     why, sizeof(why));
	if (t->fd < 0) {
		fmt_snprintf(t->elf.err, sizeof(t->elf.err), "%s", why);
		t->status = EX_FATAL;
		return -1;
	}
	if (!len)
		warnx("%s: the capture has no build-id for it: %s is used on its path alone",
		      t->file->path, used);
	else if (t->sysroot)
		warnx("%s: from %s, whose build-id matches", t->file->path, used);
	return 0;
#endif
}

/* The processes that exited after the scan, before their files were read:
 * a line each, however many files they left out. */
void say_gone(struct scan *s)
{
	uint32_t i;

	for (i = 0; i < s->nproc; i++) {
		struct proc *p = s->procs[i];

		if (p->files_gone)
			warnx("pid %d (%s) exited before its files were read: %u file%s left out",
			      (int)p->pid, p->name, p->files_gone, p->files_gone == 1 ? "" : "s");
		p->files_gone = 0;
	}
}

/* Place the items on one process's mappings of the file. */
static void place_proc(struct scan *s, struct target *t, struct proc *p)
{
	uint64_t ps = s->page_size, bias = 0;
	const struct elf_phdr *ph;
	const struct mapping *m;
	int piddir = -1, bad, known;

	if (!s->cap && (piddir = open_pid_dir(p->pid)) < 0) {
		p->files_gone++;	/* said once for all its files: say_gone */
		t->skipped++;
		return;
	}
	if (t->fd < 0 && s->cap) {
		if (open_captured(s, t) < 0 || open_target(s, t) < 0) {
			t->broken = 1;
			return;
		}
	} else if (t->fd < 0) {
		const char *why = "";

		for (m = p->map; m->file != t->index; m = m->next)
			;
		if ((t->fd = open_mapped(piddir, m, &t->elf.size, &why)) < 0) {
			if (faccessat(piddir, "stat", F_OK, 0) < 0)
				p->files_gone++;	/* it exited just now */
			else
				warnx("%s: as pid %d maps it: %s: left out", t->file->path,
				      (int)p->pid, why);
			t->fd = -1;
			t->skipped++;
			close(piddir);
			return;
		}
		if (open_target(s, t) < 0) {
			close(piddir);
			t->broken = 1;
			return;
		}
	}
	/* Check every mapping first: a file changed since it was mapped must
	 * not have its pages given to the wrong sections. From a capture, the
	 * build-id was checked when the file was found. */
	known = 0;
	for (m = p->map; m; m = m->next) {
		if (m->file != t->index || (m->flags & MF_BSS))
			continue;
		ph = segment_of(t, m, ps, known, &bias, &bad);
		known |= ph != NULL;
		if (bad || (ph && piddir >= 0 && !same_build(s, t, piddir, m, bias))) {
			warnx("%s: pid %d maps it unlike its program headers or build-id "
			      "say (changed since it was mapped?): left out", t->file->path,
			      (int)p->pid);
			t->skipped++;
			if (piddir >= 0)
				close(piddir);
			return;
		}
	}
	if (piddir >= 0)
		close(piddir);
	known = 0;
	for (m = p->map; m; m = m->next) {
		const struct mapping *bss = m->next && (m->next->flags & MF_BSS) ? m->next : NULL;

		if (m->file != t->index || (m->flags & MF_BSS))
			continue;
		if (!(ph = segment_of(t, m, ps, known, &bias, &bad))) {
			struct cursor cur = { 0, m->start };

			/* not a loaded segment: all holes, outside every section */
			struct fig *f = t->sections ? &t->holes.fig : &t->outside.fig;

			add_bytes(s, m, &cur, m->start, m->end, f);
			if (bss) {
				cur = (struct cursor){ 0, bss->start };
				add_bytes(s, bss, &cur, bss->start, bss->end, f);
			}
			continue;
		}
		known = 1;
		place(s, t, m, m->start, m->end, bias);
		/* The anonymous mapping right after holds the .bss past the file's
		 * last page: all of it counts as the file's (files_build), and what
		 * lies past the image (a later mmap the kernel merged in) is holes. */
		if (bss)
			place(s, t, bss, bss->start, bss->end, bias);
	}
}

/* The name column: the width's, less what wider figures take. */
#define name_width(o, symbols)	name_room(o, (symbols ? 24 : 18) + text_cols() - TEXT_COLS, 8)

/* A row: with -c, the process (when -P names one) and the file come last. */
static void put_item(const struct opts *o, const struct elf_item *it, int symbols,
		     const char *path)
{
	if (o->csv) {	/* a symbol's own name; its aliases in the last column */
		csv_field(it->name, it->plen ? it->plen : strlen(it->name));
		if (symbols) {
			out(",", 1);
			csv_field(it->section, strlen(it->section));
		}
		if (it->hi > it->lo)
			outf(",0x%llx,%llu", (unsigned long long)it->lo,
			     (unsigned long long)(it->hi - it->lo));
		else
			outs(",,");
	} else {
		static char name[TEXT_COLS_MAX + 1];
		size_t w = name_width(o, symbols);

		fmt_snprintf(name, sizeof(name), "%.*s", (int)w, it->name);
		if (strlen(it->name) > w)	/* cut on the right, and say so */
			memcpy(name + w - 3, "...", 4);
		outf("%-*s", (int)w, name);
	}
	put_figs(o, &it->fig, NULL, 0);
	if (o->csv) {
		out(",", 1);
		if (o->nrpid == 1)
			out_dec(0, (uint64_t)o->rpids[0]);
		out(",", 1);
		csv_field(path, strlen(path));
		if (symbols) {	/* the aliases, a space between two */
			static char al[ELF_NAME_MAX];
			size_t k, n = it->plen ? strlen(it->name + it->plen + 1) : 0;

			for (k = 0; k < n && k < sizeof(al) - 1; k++)
				al[k] = it->name[it->plen + 1 + k] == ',' ? ' ' :
					it->name[it->plen + 1 + k];
			out(",", 1);
			csv_field(al, k);
		}
	}
	outs("\n");
}

/* symbols: [no symbol] is the bytes no symbol holds in every section shown */
static void gap_total(struct target *t)
{
	uint32_t i;

	if (t->sections)
		return;
	memset(&t->holes.fig, 0, sizeof(t->holes.fig));
	for (i = 0; i < t->nrange; i++)
		fig_add(&t->holes.fig, &t->ranges[i].fig);
}

/* A target for file index, its sections or symbols, not yet opened. */
void target_init(struct scan *s, const struct opts *o, uint32_t index, int sections,
		 struct target *t)
{
	uint32_t nfile;
	struct file *files = files_build(s, &nfile);

	memset(t, 0, sizeof(*t));
	t->fd = -1;
	t->index = index;
	t->file = &files[index];
	t->sections = sections;
	t->only = o->view_section;
	t->sysroot = o->sysroot;
	t->holes.name = sections ? "[holes]" : "[no symbol]";
	t->holes.section = o->view_section ? o->view_section : "";
	t->outside.name = "[holes]";
	t->outside.section = "";
}

/*
 * The items placed on process p's pages alone (the target opened at its
 * first use): 0; -1 when p was left out (t->skipped counts it, a warning
 * said why) or the file is damaged (t->broken, t->elf.err).
 */
int place_alone(struct scan *s, struct target *t, struct proc *p)
{
	uint32_t i, skipped = t->skipped;

	for (i = 0; i < t->nitem; i++)
		memset(&t->items[i].fig, 0, sizeof(t->items[i].fig));
	for (i = 0; i < t->nrange; i++)
		memset(&t->ranges[i].fig, 0, sizeof(t->ranges[i].fig));
	memset(&t->holes.fig, 0, sizeof(t->holes.fig));
	memset(&t->outside.fig, 0, sizeof(t->outside.fig));
	place_proc(s, t, p);
	gap_total(t);
	return t->broken || t->skipped != skipped ? -1 : 0;
}

/*
 * The items of file index (its sections, or the symbols of o->view_section
 * or all) on the pages of the processes the report shows, into t: 0, or -1
 * when the file is damaged (t->elf.err says how). t->skipped counts the
 * processes left out. The caller closes t->fd.
 */
int elf_items(struct scan *s, const struct opts *o, uint32_t index, int sections,
	      struct target *t)
{
	uint32_t i;

	target_init(s, o, index, sections, t);
	for (i = 0; i < s->nproc; i++) {
		const struct mapping *m;

		for (m = s->procs[i]->map; m && m->file != index; m = m->next)
			;
		if (m && s->procs[i]->shown)
			place_proc(s, t, s->procs[i]);
		if (t->broken)
			break;
	}
	say_gone(s);
	if (t->broken)
		return -1;
	gap_total(t);
	return 0;
}

void view_elf_items(struct scan *s, const struct opts *o)
{
	int sections = o->view == V_SECTIONS;
	struct elf_item total = { .name = sections ? "(file total)" :
				  o->view_section ? "(section total)" : "(total)" };
	struct target t;
	uint32_t nfile, i, index;
	struct file *files = files_build(s, &nfile);
	void **rows;
	size_t n, hidden = 0;

	index = find_file(files, nfile, o->view_file);
	if (o->rfile_index != UINT32_MAX && o->rfile_index != index)
		die("-F %s: %s shows the file it names, %s", o->rfile,
		    sections ? "sections" : "symbols", files[index].path);
	/* No rows rather than rows made up from a damaged file: a request that
	 * cannot be met (exit 2, as the elf view's for a file that is no ELF),
	 * but a capture's build-ids lost (exit 4). */
	if (elf_items(s, o, index, sections, &t) < 0)
		die_status(t.status ? t.status : EX_FATAL, "%s: %s", t.file->path, t.elf.err);
	if (t.fd < 0)
		die("%s: no scanned process could be read", o->view_file);
	rows = arena_alloc(s->arena, (t.nitem + 1) * sizeof(void *), 8);
	for (n = 0; n < t.nitem; n++)
		rows[n] = &t.items[n];
	if (o->sort >= 0 || !sections)
		sort_items(rows, n, sections ? V_SECTIONS : V_SYMBOLS,
			   o->sort >= 0 ? o->sort : F_EFF_RESIDENT);
	/* text: symbols with nothing resident only with -a */
	if (!sections && !o->csv && !o->all) {
		size_t k = 0;

		for (i = 0; i < n; i++)
			if (((struct elf_item *)rows[i])->fig.resident)
				rows[k++] = rows[i];
		hidden = n - k;
		n = k;
	}
	if (o->top && o->top < n)
		n = o->top;
	for (i = 0; i < t.nitem; i++)
		fig_add(&total.fig, &t.items[i].fig);
	fig_add(&total.fig, &t.holes.fig);
	for (i = 0; i < n; i++)
		figs_fit(o, &((struct elf_item *)rows[i])->fig);
	figs_fit(o, &t.holes.fig);
	if (!o->noheader) {
		figs_fit(o, &total.fig);
		if (o->csv)
			outs(sections ? "section,addr,size" : "symbol,section,addr,size");
		else
			outf("%-*s", (int)name_width(o, !sections), sections ? "SECTION" : "SYMBOL");
		put_heads(o, NULL, 0);
		outs(o->csv ? (sections ? ",pid,path\n" : ",pid,path,aliases\n") : "\n");
	}
	for (i = 0; i < n; i++)
		put_item(o, rows[i], !sections, t.file->path);
	put_item(o, &t.holes, !sections, t.file->path);
	if (!o->csv && !o->noheader) {
		put_item(o, &total, !sections, t.file->path);
		if (hidden)
			outf("(%zu symbol%s with nothing resident not shown: -a shows them)\n",
			     hidden, hidden == 1 ? "" : "s");
	}
	if (t.nested)
		warnx("%s: %u symbol%s wholly inside another: %s bytes are counted with it",
		      t.file->path, t.nested, t.nested == 1 ? "" : "s",
		      t.nested == 1 ? "its" : "their");
	if (t.skipped) {
		warnx("%s: %u process%s left out: figures are partial", t.file->path, t.skipped,
		      t.skipped == 1 ? "" : "es");
		exit_at_least(EX_PARTIAL);
	}
	close(t.fd);
}
