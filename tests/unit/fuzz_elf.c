/* A libFuzzer harness for the ELF reader. */
/*
 * libFuzzer harness for the ELF reader (src/elf.c). Each input is opened
 * from memory with elf_open_mem and walked the way the elf view walks a file:
 * every section header and its name, every program header, both symbol
 * tables with every symbol, its name and its section, and the build-id.
 *
 * Beyond the sanitizers it checks what the reader promises: a failure leaves
 * a message, a string is terminated and cut only when it must be, and what a
 * successful call returns lies inside the input. Then the same bytes are
 * walked again through a file descriptor, the way the command line reads a
 * file (through the reader's fixed window), and both walks must see the same
 * things: the window must never change an answer. Only inputs larger than
 * the window (64 KiB) make it move, and fuzzed inputs stay smaller, so the
 * suite also runs the harness once over a few large files, given by name.
 *
 * build: clang -fsanitize=fuzzer,address,undefined -Isrc tests/unit/fuzz_elf.c src/elf.c
 */
#define _GNU_SOURCE
#include <elf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "elfread.h"

#define SMALL		8	/* a name buffer small enough to cut most names */

/* FNV-1a over everything one walk saw: two walks agree if their sums do. */
struct trace {
	uint64_t h;
	uint64_t steps;
};

/* The hash wraps on purpose: keep it quiet under -fsanitize=integer. */
#ifdef __clang__
__attribute__((no_sanitize("integer")))
#endif
static void mix(struct trace *t, const void *p, size_t n)
{
	const unsigned char *c = p;

	while (n--) {
		t->h ^= *c++;
		t->h *= UINT64_C(0x100000001b3);
	}
	t->steps++;
}

static void mixu(struct trace *t, uint64_t v)
{
	mix(t, &v, sizeof(v));
}

static _Noreturn void broken(const char *why)
{
	fprintf(stderr, "fuzz_elf: %s\n", why);
	abort();
}

/* A call failed: the reader must say why, in a terminated message. */
static void mixerr(struct trace *t, const struct elf *e)
{
	if (!memchr(e->err, '\0', sizeof(e->err)) || e->err[0] == '\0')
		broken("a call failed and left no message");
	mix(t, e->err, strlen(e->err));
}

/*
 * One string, read into a big buffer and into a small one. The two must
 * agree: both fail, or the small one holds the start of the big one's string
 * and says it was cut exactly when the string does not fit.
 */
static void name(struct trace *t, struct elf *e, const struct elf_shdr *sec, uint32_t strsec,
		 uint64_t off)
{
	static char big[ELF_NAME_MAX];
	char small[SMALL];
	size_t len;
	int rb, rs;

	memset(big, 0x55, sizeof(big));
	memset(small, 0x55, sizeof(small));
	rb = sec ? elf_secname(e, sec, big, sizeof(big)) : elf_str(e, strsec, off, big, sizeof(big));
	mixu(t, (uint64_t)rb);
	if (rb < 0) {
		mixerr(t, e);
	} else {
		if (rb > 1 || !memchr(big, '\0', sizeof(big)))
			broken("a name came back unterminated or with a bad code");
		len = strlen(big);
		if (rb == 1 && len != sizeof(big) - 1)
			broken("a name was cut though it fitted");
		mix(t, big, len);
	}
	rs = sec ? elf_secname(e, sec, small, sizeof(small)) :
		   elf_str(e, strsec, off, small, sizeof(small));
	if ((rs < 0) != (rb < 0))
		broken("a name failed in one buffer size and not in the other");
	if (rs < 0)
		return;
	if (!memchr(small, '\0', sizeof(small)))
		broken("a name came back unterminated in a small buffer");
	if (strncmp(small, big, sizeof(small) - 1) != 0)
		broken("a name read into a small buffer is not the start of the whole name");
	if ((rs == 1) != (strlen(big) >= sizeof(small)))
		broken("a name in a small buffer was cut wrongly");
}

static void walk_sections(struct trace *t, struct elf *e)
{
	uint32_t i;

	/* the headers in a row, then each with its name (see walk_symbols) */
	for (i = 0; i < e->shnum; i++) {
		struct elf_shdr sh;

		if (elf_shdr(e, i, &sh) < 0)
			mixerr(t, e);
		else
			mix(t, &sh, sizeof(sh));
	}
	for (i = 0; i < e->shnum; i++) {
		struct elf_shdr sh;
		int r = elf_shdr(e, i, &sh);

		mixu(t, (uint64_t)r);
		if (r < 0) {
			mixerr(t, e);
			continue;
		}
		mix(t, &sh, sizeof(sh));
		name(t, e, &sh, 0, 0);
	}
	/* one past the end must fail, not read */
	if (elf_shdr(e, e->shnum, &(struct elf_shdr){ 0 }) == 0)
		broken("elf_shdr accepted an index past the last section");
}

static void walk_segments(struct trace *t, struct elf *e)
{
	uint32_t i;

	for (i = 0; i < e->phnum; i++) {
		struct elf_phdr ph;
		int r = elf_phdr(e, i, &ph);

		mixu(t, (uint64_t)r);
		if (r < 0) {
			mixerr(t, e);
			continue;
		}
		mix(t, &ph, sizeof(ph));
	}
	if (elf_phdr(e, e->phnum, &(struct elf_phdr){ 0 }) == 0)
		broken("elf_phdr accepted an index past the last segment");
}

static void walk_symbols(struct trace *t, struct elf *e, uint32_t type)
{
	uint64_t ent = e->is64 ? 24 : 16, i;
	struct elf_symtab tab;
	int r = elf_symtab(e, type, &tab);

	mixu(t, (uint64_t)r);
	if (r < 0) {
		mixerr(t, e);
		return;
	}
	if (r > 0)
		return;
	/* what the table says it holds must lie in the file */
	if (tab.sec == 0 || tab.sec >= e->shnum || tab.strsec >= e->shnum ||
	    tab.offset > e->size || tab.count > (e->size - tab.offset) / ent)
		broken("elf_symtab returned a table that is not in the file");
	if (tab.has_shndx && (tab.shndx_off > e->size ||
			      tab.count > (e->size - tab.shndx_off) / 4))
		broken("elf_symtab returned an index table that is not in the file");
	mix(t, &tab, sizeof(tab));
	/*
	 * Every symbol alone first: read in a row, they run through the file
	 * window to its end, where reading each name would move it away.
	 */
	for (i = 0; i < tab.count; i++) {
		struct elf_sym s;

		memset(&s, 0, sizeof(s));
		if (elf_sym(e, &tab, i, &s) < 0)
			mixerr(t, e);
		else
			mix(t, &s, sizeof(s));
	}
	for (i = 0; i < tab.count; i++) {
		struct elf_sym s;

		memset(&s, 0, sizeof(s));
		if ((r = elf_sym(e, &tab, i, &s)) < 0) {
			mixerr(t, e);
			continue;
		}
		mix(t, &s, sizeof(s));
		name(t, e, NULL, tab.strsec, s.name);
		/* the symbol's section, as the elf view names it */
		if (s.shndx != 0 && !(s.shndx & ELF_SHN_SPECIAL)) {
			struct elf_shdr sh;

			r = elf_shdr(e, s.shndx, &sh);
			mixu(t, (uint64_t)r);
			if (r < 0)
				mixerr(t, e);
			else
				name(t, e, &sh, 0, 0);
		}
	}
	if (elf_sym(e, &tab, tab.count, &(struct elf_sym){ 0 }) == 0)
		broken("elf_sym accepted an index past the last symbol");
}

static void walk_buildid(struct trace *t, struct elf *e)
{
	unsigned char id[ELF_BUILDID_MAX];
	size_t n = SIZE_MAX;
	int r = elf_buildid(e, id, &n);

	mixu(t, (uint64_t)r);
	if (r < 0)
		mixerr(t, e);
	if (r == 0 && (n == 0 || n > ELF_BUILDID_MAX))
		broken("a build-id of an impossible length");
	if (r != 0 && n != 0)
		broken("no build-id, but a length");
	if (r == 0) {
		if (e->buildid_off > e->size || n > e->size - e->buildid_off)
			broken("the build-id's offset is not in the file");
		mix(t, id, n);
	}
}

/* Open, then walk everything; the trace is what was seen. */
static void walk(struct trace *t, struct elf *e, int r)
{
	uint64_t hdr[6];

	t->h = UINT64_C(0xcbf29ce484222325);
	t->steps = 0;
	mixu(t, (uint64_t)r);
	if (r < 0) {
		mixerr(t, e);
		return;
	}
	if (e->phnum && (e->phoff > e->size ||
			 e->phnum > (e->size - e->phoff) / e->phentsize))
		broken("elf_open accepted program headers that are not in the file");
	if (e->shnum && (e->shoff > e->size ||
			 e->shnum > (e->size - e->shoff) / e->shentsize))
		broken("elf_open accepted section headers that are not in the file");
	if (e->shstrndx != 0 && e->shstrndx >= e->shnum)
		broken("elf_open accepted a section name table index out of range");
	hdr[0] = (uint64_t)e->is64 << 1 | (uint64_t)e->be;
	hdr[1] = (uint64_t)e->type << 16 | e->machine;
	hdr[2] = e->entry;
	hdr[3] = (uint64_t)e->phnum << 32 | e->shnum;
	hdr[4] = e->shstrndx;
	hdr[5] = e->phoff ^ e->shoff << 1;
	mix(t, hdr, sizeof(hdr));
	walk_sections(t, e);
	walk_segments(t, e);
	walk_symbols(t, e, SHT_SYMTAB);
	walk_symbols(t, e, SHT_DYNSYM);
	walk_buildid(t, e);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1;
	struct trace tm, tf;
	struct elf e;
	size_t done = 0;

	walk(&tm, &e, elf_open_mem(&e, data, size));

	/* The same bytes as a file, read through the window. */
	if (fd < 0 && (fd = memfd_create("fuzz_elf", 0)) < 0) {
		perror("fuzz_elf: memfd_create");
		abort();
	}
	if (ftruncate(fd, 0) < 0) {
		perror("fuzz_elf: ftruncate");
		abort();
	}
	while (done < size) {
		ssize_t w = pwrite(fd, data + done, size - done, (off_t)done);

		if (w <= 0) {
			perror("fuzz_elf: pwrite");
			abort();
		}
		done += (size_t)w;
	}
	walk(&tf, &e, elf_open_fd(&e, fd, size));
	if (tm.h != tf.h || tm.steps != tf.steps)
		broken("read from memory and read through the file window, the input differs");
	return 0;
}
