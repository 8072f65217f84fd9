/* The items of a mapped ELF file: its load segments, sections or symbols. */
/*
 * The items of a mapped ELF file: the file the view names (a path, or a
 * unique basename), its load segments, and its allocated sections or the
 * symbols with bytes in memory (.symtab, else .dynsym), in address order.
 */
#include <elf.h>		/* constants only */
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "elfitems.h"

/* The file is damaged: say so in e->err, for the caller to report. */
static int bad(struct target *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int bad(struct target *t, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fmt_vsnprintf(t->elf.err, sizeof(t->elf.err), fmt, ap);
	va_end(ap);
	return -1;
}

/*
 * A path as the kernel prints it in maps: relative paths and symbolic links
 * resolved (through the open file, as realpath would, but without malloc).
 */
static const char *kernel_path(const char *path)
{
	static char buf[PATH_BUF];
	char link[32];
	ssize_t n;
	int fd = openat(AT_FDCWD, path, O_PATH | O_CLOEXEC);

	if (fd < 0)
		return path;
	fmt_snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0 || (size_t)n >= sizeof(buf) - 1)
		return path;
	buf[n] = '\0';
	return buf;
}

/* A capture's paths are its board's: a path is matched as the capture names
 * it, not resolved through this machine's links (/bin to usr/bin). */
static int as_named;

void find_file_as_named(void)
{
	as_named = 1;
}

/*
 * The file the view names: a path (links resolved, but in a capture),
 * "PATH (deleted)", a unique basename, a name that links to a mapped file
 * from its directory (a soname), or a pseudo-file's name ("[heap]"). Its
 * index in the file table; or say why none, and exit.
 */
uint32_t find_file(struct file *files, uint32_t n, const char *want)
{
	return file_lookup(files, n, want, 0);
}

/* find_file's search; quiet: no message, UINT32_MAX for none and
 * FILE_AMBIGUOUS for more than one. */
uint32_t file_lookup(struct file *files, uint32_t n, const char *want, int quiet)
{
	uint32_t i, found = UINT32_MAX, matches = 0;
	size_t wl;

	/* a pseudo-file ([anon], [heap], [stack]) by the name the files view shows */
	for (i = 0; want[0] == '[' && i < n; i++)
		if (strcmp(files[i].path, want) == 0)
			return i;
	if (strchr(want, '/') && !as_named)
		want = kernel_path(want);
	wl = strlen(want);
	int want_deleted = wl > 10 && strcmp(want + wl - 10, " (deleted)") == 0;

	/* a file still on disk first; a deleted one when nothing else matches */
	for (i = 0; i < 2 * n && !(i == n && (matches || want_deleted)); i++) {
		const char *p = files[i % n].path, *base = strrchr(p, '/');
		int del = (files[i % n].flags & MF_DELETED) != 0;
		int hit;

		if (p[0] != '/' || (!want_deleted && del != (i >= n)))
			continue;
		if (want_deleted)
			hit = del && strlen(p) == wl - 10 && strncmp(p, want, wl - 10) == 0;
		else if (strchr(want, '/'))
			hit = strcmp(p, want) == 0;
		else
			hit = base && strcmp(base + 1, want) == 0;
		if (!hit)
			continue;
		if (matches++ == 0)
			found = i % n;
		else if (quiet)
			continue;
		else if (matches == 2)
			warnx("%s matches more than one mapped file:\n  %s%s\n  %s%s", want,
			      files[found].path, files[found].flags & MF_DELETED ? " (deleted)" : "",
			      p, del ? " (deleted)" : "");
		else
			warnx("  %s%s", p, del ? " (deleted)" : "");
	}
	/* a soname or another link (libstdc++.so.6): what it names in the
	 * directory of a mapped file, if that is the file */
	for (i = 0; matches == 0 && !strchr(want, '/') && i < n; i++) {
		static char link[PATH_BUF];
		const char *p = files[i].path, *base = strrchr(p, '/');

		if (p[0] != '/' || (files[i].flags & MF_DELETED) ||
		    (size_t)(base - p) + 1 + wl >= sizeof(link))
			continue;
		memcpy(link, p, base - p + 1);
		memcpy(link + (base - p + 1), want, wl + 1);
		if (strcmp(kernel_path(link), p) == 0) {
			found = i;
			matches = 1;
		}
	}
	if (matches == 0 && quiet)
		return UINT32_MAX;
	if (matches > 1 && quiet)
		return FILE_AMBIGUOUS;
	if (matches == 0 && as_named)
		die("%s: no process of the capture maps such a file (the files view lists "
		    "the paths it has)", want);
	if (matches == 0)
		die("%s: no scanned process maps such a file", want);
	if (matches > 1)
		die("%s: ambiguous: give the whole path (add \" (deleted)\" for a deleted one)",
		    want);
	return found;
}

/* By address, the longest first where two start together, then by name. */
static int cmp_lo(const void *pa, const void *pb)
{
	const struct elf_item *a = pa, *b = pb;
	int c = (a->lo > b->lo) - (a->lo < b->lo);

	if (!c)
		c = (a->hi < b->hi) - (a->hi > b->hi);
	return c ? c : strcmp(a->name, b->name);
}

/* Which of two names for the same bytes to show first: fewer leading '_'. */
static int better_name(const char *a, const char *b)
{
	size_t ua = strspn(a, "_"), ub = strspn(b, "_");

	return ua != ub ? ua < ub : strlen(a) < strlen(b);
}

/*
 * Each byte counted once: symbols with the same bytes (aliases: strxfrm_l
 * and __strxfrm_l) become one item named "strxfrm_l,__strxfrm_l"; one that
 * begins inside the one before is counted from where that one ends, and one
 * wholly inside it is counted with it (t->nested says how many).
 */
static void merge_aliases(struct scan *s, struct target *t)
{
	static char joined[ELF_NAME_MAX];
	uint64_t cover = 0;
	uint32_t i, n = 0;

	for (i = 0; i < t->nitem; i++) {
		struct elf_item *it = &t->items[i], *last = n ? &t->items[n - 1] : NULL;

		if (last && it->lo == last->lo && it->hi == last->hi) {
			const char *first = last->name, *rest = "";
			size_t pl = last->plen ? last->plen : strlen(last->name);

			if (better_name(it->name, first)) {	/* the new one first */
				fmt_snprintf(joined, sizeof(joined), "%s,%s", it->name, first);
				last->plen = (uint32_t)strlen(it->name);
			} else {
				rest = it->name;
				fmt_snprintf(joined, sizeof(joined), "%s,%s", first, rest);
				last->plen = (uint32_t)pl;
			}
			last->name = arena_strdup(s->arena, joined, strlen(joined));
			continue;
		}
		if (last && it->lo < cover) {
			if (it->hi <= cover) {
				t->nested++;
				continue;
			}
			it->lo = cover;
		}
		t->items[n++] = *it;
		if (it->hi > cover)
			cover = it->hi;
	}
	t->nitem = n;
}

/* The allocated sections that occupy memory, with every section's name. */
static int load_sections(struct scan *s, struct target *t, int keep)
{
	struct elf *e = &t->elf;
	static char name[ELF_NAME_MAX];
	uint32_t i;

	t->secnames = arena_alloc(s->arena, (size_t)e->shnum * sizeof(char *) + 1, 8);
	if (keep)
		t->items = arena_alloc(s->arena, (size_t)e->shnum * sizeof(*t->items) + 1, 8);
	else	/* symbols: the sections they lie in, for [no symbol] */
		t->ranges = arena_alloc(s->arena, (size_t)e->shnum * sizeof(*t->ranges) + 1, 8);
	for (i = 0; i < e->shnum; i++) {
		struct elf_shdr sh;
		int cut;

		if (elf_shdr(e, i, &sh) < 0 || (cut = elf_secname(e, &sh, name, sizeof(name))) < 0)
			return -1;
		t->secnames[i] = arena_strdup(s->arena, name, strlen(name));
		/* .tbss is a template: it takes no place in the image. */
		if (!(sh.flags & SHF_ALLOC) || sh.size == 0 ||
		    ((sh.flags & SHF_TLS) && sh.type == SHT_NOBITS))
			continue;
		if (sh.addr > UINT64_MAX - sh.size)
			return bad(t, "section %s: address and size overflow", name);
		if (!keep) {
			if (!t->only || strcmp(name, t->only) == 0)
				t->ranges[t->nrange++] = (struct elf_item){ .lo = sh.addr,
					.hi = sh.addr + sh.size, .name = t->secnames[i] };
			continue;
		}
		memset(&t->items[t->nitem], 0, sizeof(t->items[0]));
		t->items[t->nitem].lo = sh.addr;
		t->items[t->nitem].hi = sh.addr + sh.size;
		t->items[t->nitem].name = t->secnames[i];
		t->nitem++;
	}
	return 0;
}

/* Does symbol sym occupy bytes in memory (and is it in the section asked for)? */
static int wanted(struct target *t, const struct elf_sym *sym, uint64_t i)
{
	uint32_t type = sym->info & 0xf;

	if (sym->size == 0 || sym->shndx == 0 || (sym->shndx & ELF_SHN_SPECIAL) ||
	    type == STT_SECTION || type == STT_FILE || type == STT_TLS)
		return 0;
	if (sym->shndx >= t->elf.shnum)
		return bad(t, "symbol %llu: section index %u is out of range",
			   (unsigned long long)i, sym->shndx);
	if (sym->value > UINT64_MAX - sym->size)
		return bad(t, "symbol %llu: value and size overflow", (unsigned long long)i);
	return !t->only || strcmp(t->secnames[sym->shndx], t->only) == 0;
}

/*
 * Symbols with bytes in memory, from .symtab, else .dynsym. Counted first, so
 * the items are one array and their names follow it.
 */
static int load_symbols(struct scan *s, struct target *t)
{
	struct elf *e = &t->elf;
	static char name[ELF_NAME_MAX];
	struct elf_symtab tab;
	struct elf_sym sym;
	uint64_t i, n = 0;
	int r = elf_symtab(e, SHT_SYMTAB, &tab), w;

	if (r == 1)
		r = elf_symtab(e, SHT_DYNSYM, &tab);
	if (r < 0)
		return -1;
	if (r == 1) {
		t->nosyms = 1;
		if (!t->quiet)
			warnx("%s has no symbol table (stripped)", t->file->path);
		return 0;
	}
	for (i = 0; i < tab.count; i++) {
		if (elf_sym(e, &tab, i, &sym) < 0 || (w = wanted(t, &sym, i)) < 0)
			return -1;
		n += w;
	}
	t->items = arena_alloc(s->arena, n * sizeof(*t->items) + 1, 8);
	for (i = 0; i < tab.count && t->nitem < n; i++) {
		struct elf_item *it = &t->items[t->nitem];
		int cut;

		if (elf_sym(e, &tab, i, &sym) < 0 || (w = wanted(t, &sym, i)) < 0)
			return -1;
		if (!w)
			continue;
		if ((cut = elf_str(e, tab.strsec, sym.name, name, sizeof(name))) < 0)
			return -1;
		if (cut)
			memcpy(name + sizeof(name) - 4, "...", 4);
		memset(it, 0, sizeof(*it));
		it->lo = sym.value;
		it->hi = sym.value + sym.size;
		it->section = t->secnames[sym.shndx];
		t->nitem++;
		it->name = arena_strdup(s->arena, name, strlen(name));
	}
	return 0;
}

/* Is there a section t->only? Else t->elf.err names those there are. */
static int has_section(struct target *t)
{
	size_t at;
	uint32_t i;

	for (i = 0; i < t->elf.shnum; i++)
		if (strcmp(t->secnames[i], t->only) == 0)
			return 1;
	at = fmt_snprintf(t->elf.err, sizeof(t->elf.err), "no section %s; it has", t->only);
	for (i = 1; i < t->elf.shnum && at < sizeof(t->elf.err); i++)
		at += fmt_snprintf(t->elf.err + at, sizeof(t->elf.err) - at, " %s",
				   t->secnames[i]);
	if (at >= sizeof(t->elf.err))	/* cut: say so */
		memcpy(t->elf.err + sizeof(t->elf.err) - 5, " ...", 5);
	return 0;
}

/* The file's load segments, and its sections or symbols in address order. */
int open_target(struct scan *s, struct target *t)
{
	struct elf *e = &t->elf;
	uint32_t i;

	if (elf_open_fd(e, t->fd, t->elf.size) < 0)
		return -1;
	t->load = arena_alloc(s->arena, (size_t)e->phnum * sizeof(*t->load) + 1, 8);
	for (i = 0; i < e->phnum; i++) {
		struct elf_phdr ph;

		if (elf_phdr(e, i, &ph) < 0)
			return -1;
		if (ph.type != PT_LOAD)
			continue;
		if (ph.filesz > ph.memsz || ph.vaddr > UINT64_MAX - ph.memsz ||
		    ph.offset > UINT64_MAX - ph.filesz)
			return bad(t, "a PT_LOAD segment has impossible sizes");
		t->load[t->nload++] = ph;
	}
	if (load_sections(s, t, t->sections) < 0)
		return -1;
	if (t->only && !has_section(t)) {
		t->status = EX_FATAL;	/* a request no file of this kind can meet */
		return -1;
	}
	if ((!t->sections && load_symbols(s, t) < 0) ||
	    elf_buildid(e, t->buildid, &t->buildid_len) < 0)
		return -1;
	sort(t->items, t->nitem, sizeof(*t->items), cmp_lo);
	if (!t->sections) {
		merge_aliases(s, t);
		sort(t->ranges, t->nrange, sizeof(*t->ranges), cmp_lo);
	}
	for (i = 0; i < t->nitem; i++)
		if (t->items[i].hi - t->items[i].lo > t->maxlen)
			t->maxlen = t->items[i].hi - t->items[i].lo;
	return 0;
}
