/* Unit tests of exmap-mini's pieces, as tables of cases. */
/*
 * Unit tests for exmap-mini's pieces: the page table, maps parsing, CSV
 * quoting, number formatting, effective-size arithmetic, the arena, a
 * capture's wire format and console-log reading, and how the census of RAM
 * infers free blocks and settles with the kernel's counts. Cases are tables; the last
 * line is "N passed, N failed".
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "capture.h"
#include "census.h"
#include "cli.h"
#include "dmabuf.h"
#include "outside.h"
#include "cgroup.h"
#include "kowner.h"
#include "ramsrc.h"
#include "trend.h"
#include "wlog.h"
#ifndef EXMAP_NO_PICTURES
#include "page.h"
#endif

static int passed, failed;

static void check(int ok, const char *what, const char *detail)
{
	if (ok) {
		passed++;
		return;
	}
	failed++;
	printf("FAIL %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
}

/* Run fn with standard output going to a pipe; what it wrote, in buf. */
static size_t capture(void (*fn)(const void *), const void *arg, char *buf, size_t max)
{
	int p[2], saved = dup(1);
	ssize_t n;
	size_t len = 0;

	if (pipe(p) < 0 || saved < 0) {
		perror("pipe");
		_exit(2);
	}
	dup2(p[1], 1);
	fn(arg);
	out_flush();
	dup2(saved, 1);
	close(saved);
	close(p[1]);
	while ((n = read(p[0], buf + len, max - 1 - len)) > 0)
		len += n;
	close(p[0]);
	buf[len] = '\0';
	return len;
}

static void test_fmt_human(void)
{
	static const struct { uint64_t v; const char *want; } cases[] = {
		{ 0, "0" }, { 1, "1B" }, { 999, "999B" }, { 1000, "1.0K" },
		{ 1023, "1.0K" }, { 1024, "1.0K" }, { 1536, "1.5K" },
		{ 10188, "9.9K" }, { 10189, "10K" }, { 4096, "4.0K" },
		{ 1048575, "1.0M" }, { 1022976, "999K" }, { 1023487, "999K" },
		{ 1023488, "1.0M" }, { 5u << 20, "5.0M" }, { 700u << 20, "700M" },
		{ UINT64_C(3) << 30, "3.0G" }, { UINT64_C(1) << 40, "1.0T" },
		{ UINT64_MAX, "16E" },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char buf[32], what[64];
		size_t n = fmt_human(buf, sizeof(buf), cases[i].v);

		snprintf(what, sizeof(what), "fmt_human(%llu)", (unsigned long long)cases[i].v);
		check(strcmp(buf, cases[i].want) == 0 && n <= 4, what, buf);
	}
}

static void test_parse_numbers(void)
{
	static const struct { const char *s; uint64_t max; int ok; uint64_t v; } u[] = {
		{ "0", 10, 0, 0 }, { "10", 10, 0, 10 }, { "11", 10, -1, 0 },
		{ "", 10, -1, 0 }, { "1x", 10, -1, 0 }, { "-1", 10, -1, 0 },
		{ " 1", 10, -1, 0 }, { "18446744073709551615", UINT64_MAX, 0, UINT64_MAX },
		{ "18446744073709551616", UINT64_MAX, -1, 0 },
		{ "4294967296", UINT32_MAX, -1, 0 },
	};
	static const struct { const char *s; int ok; uint64_t v; } sz[] = {
		{ "1M", 0, 1 << 20 }, { "64k", 0, 65536 }, { "2G", 0, UINT64_C(2) << 30 },
		{ "100", 0, 100 }, { "M", -1, 0 }, { "1T", 0, UINT64_C(1) << 40 },
		{ "1MB", -2, 0 }, { "1kB", -2, 0 }, { "17179869184G", -1, 0 },
		/* as the reports print sizes, and with binary units spelled out */
		{ "1.5M", 0, 1572864 }, { "4.0K", 0, 4096 }, { "512B", 0, 512 },
		{ "0", 0, 0 }, { "10MiB", 0, 10 << 20 }, { "1.25GiB", 0, UINT64_C(5) << 28 },
		{ "0.1K", 0, 102 }, { "1.5", -1, 0 }, { "1.", -1, 0 }, { ".5M", -1, 0 },
		{ "1.0000001M", -1, 0 }, { "1Mi", -1, 0 }, { "1 M", -1, 0 }, { "1MiBs", -1, 0 },
		{ "16777216T", -1, 0 }, { "18446744073709551615", 0, UINT64_MAX },
	};
	size_t i;

	for (i = 0; i < sizeof(u) / sizeof(u[0]); i++) {
		uint64_t v = 0;
		int r = parse_u64(u[i].s, u[i].max, &v);

		check(r == u[i].ok && (r < 0 || v == u[i].v), "parse_u64", u[i].s);
	}
	for (i = 0; i < sizeof(sz) / sizeof(sz[0]); i++) {
		uint64_t v = 0;
		int r = parse_size(sz[i].s, &v);

		check(r == sz[i].ok && (r < 0 || v == sz[i].v), "parse_size", sz[i].s);
	}
}

static void test_maps_lines(void)
{
	static const struct {
		const char *line;
		int ok;
		uint64_t start, end, offset, inode;
		uint32_t dev, flags;
		const char *path;
	} cases[] = {
		{ "7f0a1c000000-7f0a1c022000 r--p 00000000 08:01 1835053                    /usr/lib/x86_64-linux-gnu/libc.so.6",
		  0, 0x7f0a1c000000, 0x7f0a1c022000, 0, 1835053, 8 << 20 | 1, MF_READ,
		  "/usr/lib/x86_64-linux-gnu/libc.so.6" },
		{ "00400000-00452000 r-xp 00001000 fd:00 12   /opt/my app/bin with  spaces",
		  0, 0x400000, 0x452000, 0x1000, 12, 0xfdu << 20, MF_READ | MF_EXEC,
		  "/opt/my app/bin with  spaces" },
		{ "7ffd1000-7ffd2000 rw-s 00000000 00:05 99  /SYSV00000000 (deleted)",
		  0, 0x7ffd1000, 0x7ffd2000, 0, 99, 5, MF_READ | MF_WRITE | MF_SHARED | MF_DELETED,
		  "/SYSV00000000" },
		{ "55d0c8e2a000-55d0c8e4b000 rw-p 00000000 00:00 0                          [heap]",
		  0, 0x55d0c8e2a000, 0x55d0c8e4b000, 0, 0, 0, MF_READ | MF_WRITE, "[heap]" },
		{ "7fff5a6d8000-7fff5a6f9000 rw-p 00000000 00:00 0 [stack]",
		  0, 0x7fff5a6d8000, 0x7fff5a6f9000, 0, 0, 0, MF_READ | MF_WRITE, "[stack]" },
		{ "7f00000000-7f00001000 rw-p 00000000 00:00 0 ",
		  0, 0x7f00000000, 0x7f00001000, 0, 0, 0, MF_READ | MF_WRITE, "" },
		{ "7f00000000-7f00001000 rw-p 00000000 00:00 0",
		  0, 0x7f00000000, 0x7f00001000, 0, 0, 0, MF_READ | MF_WRITE, "" },
		{ "7f00000000-7f00001000 rw-p 00000000 00:00 0                  [anon:my arena]",
		  0, 0x7f00000000, 0x7f00001000, 0, 0, 0, MF_READ | MF_WRITE, "[anon:my arena]" },
		{ "ffffffffff600000-ffffffffff601000 --xp 00000000 00:00 0                  [vsyscall]",
		  0, 0xffffffffff600000, 0xffffffffff601000, 0, 0, 0, MF_EXEC, "[vsyscall]" },
		{ "10000-11000 r--p 00000000 103:0a 18446744073709551615 /x",
		  0, 0x10000, 0x11000, 0, UINT64_MAX, 0x103u << 20 | 0xa, MF_READ, "/x" },
		{ "10000-11000 r--p 00000000 00:00 0 /a (deleted) (deleted)",
		  0, 0x10000, 0x11000, 0, 0, 0, MF_READ | MF_DELETED, "/a (deleted)" },
		{ "11000-10000 r--p 00000000 00:00 0", -1, 0, 0, 0, 0, 0, 0, NULL },
		{ "10000-11000 r--q 00000000 00:00 0", -1, 0, 0, 0, 0, 0, 0, NULL },
		{ "10000-11000 rw 00000000 00:00 0", -1, 0, 0, 0, 0, 0, 0, NULL },
		{ "10000 11000 r--p 00000000 00:00 0", -1, 0, 0, 0, 0, 0, 0, NULL },
		{ "10000-11000 r--p 00000000 0000 0", -1, 0, 0, 0, 0, 0, 0, NULL },
		{ "10000-11000 r--p 00000000 00:00 x", -1, 0, 0, 0, 0, 0, 0, NULL },
		{ "10000-11000 r--p 00000000 00:00 12x /p", -1, 0, 0, 0, 0, 0, 0, NULL },
		{ "10000000000000000-1 r--p 0 00:00 0", -1, 0, 0, 0, 0, 0, 0, NULL },
		{ "10000-11000 r--p 00000000 00:00 18446744073709551616", -1, 0, 0, 0, 0, 0, 0, NULL },
		{ "", -1, 0, 0, 0, 0, 0, 0, NULL },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct mapping m;
		const char *path = NULL;
		size_t plen = 0;
		int r = parse_maps_line(cases[i].line, strlen(cases[i].line), &m, &path, &plen);
		int ok = r == cases[i].ok;

		if (ok && r == 0)
			ok = m.start == cases[i].start && m.end == cases[i].end &&
			     m.offset == cases[i].offset && m.inode == cases[i].inode &&
			     m.dev == cases[i].dev && m.flags == cases[i].flags &&
			     plen == strlen(cases[i].path) &&
			     memcmp(path, cases[i].path, plen) == 0;
		check(ok, "parse_maps_line", cases[i].line);
	}
}

/* Lines longer than the buffer are cut and consumed whole, never re-read. */
static void test_linebuf(void)
{
	static struct linebuf lb;
	static char big[200000];
	char line[64];
	size_t len;
	int p[2], toolong, r;

	memset(big, 'a', sizeof(big));
	memcpy(big, "L1 short\n", 9);
	big[100000] = '\n';		/* line 2: 99991 bytes of 'a' */
	memcpy(big + 100001, "L3 tail\nL4 no newline", 21);
	if (pipe(p) < 0 || fcntl(p[1], F_SETPIPE_SZ, 262144) < 0) {
		check(0, "linebuf pipe", strerror(errno));
		return;
	}
	if (write(p[1], big, 100022) != 100022) {
		check(0, "linebuf write", strerror(errno));
		return;
	}
	close(p[1]);
	lb_init(&lb, p[0]);
	r = lb_next(&lb, line, sizeof(line), &len, &toolong);
	check(r == 1 && !toolong && strcmp(line, "L1 short") == 0, "linebuf short line", line);
	r = lb_next(&lb, line, sizeof(line), &len, &toolong);
	check(r == 1 && toolong && len == sizeof(line) - 1 && line[0] == 'a',
	      "linebuf long line is cut", NULL);
	r = lb_next(&lb, line, sizeof(line), &len, &toolong);
	check(r == 1 && !toolong && strcmp(line, "L3 tail") == 0,
	      "linebuf: the rest of a long line is not a line", line);
	r = lb_next(&lb, line, sizeof(line), &len, &toolong);
	check(r == 1 && strcmp(line, "L4 no newline") == 0, "linebuf last line", line);
	r = lb_next(&lb, line, sizeof(line), &len, &toolong);
	check(r == 0, "linebuf end", NULL);
	close(p[0]);
}

static void csv_one(const void *s)
{
	csv_field(s, strlen(s));
}

static void test_csv(void)
{
	static const struct { const char *in, *want; } cases[] = {
		{ "plain", "plain" }, { "", "" }, { "a,b", "\"a,b\"" },
		{ "say \"hi\"", "\"say \"\"hi\"\"\"" }, { "two\nlines", "\"two\nlines\"" },
		{ "cr\rx", "\"cr\rx\"" }, { "=cmd()", "\"'=cmd()\"" }, { "+1", "\"'+1\"" },
		{ "-bash", "\"'-bash\"" }, { "@x", "\"'@x\"" }, { "\tx", "\"'\tx\"" },
		{ "a=b", "a=b" }, { "=\"", "\"'=\"\"\"" }, { "[heap]", "[heap]" },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char buf[256];

		capture(csv_one, cases[i].in, buf, sizeof(buf));
		check(strcmp(buf, cases[i].want) == 0, "csv_field", cases[i].in);
	}
}

#ifndef EXMAP_NO_PICTURES
static void js_one(const void *s)
{
	js_str(s, strlen(s));
}

/* A name in the html page: a string literal that no byte can end early. */
static void test_js_str(void)
{
	static const struct { const char *in, *want; } cases[] = {
		{ "plain", "\"plain\"" }, { "", "\"\"" },
		{ "a\"b\\c", "\"a\\\"b\\\\c\"" },
		{ "</script><!--", "\"\\u003c/script>\\u003c!--\"" },
		{ "tab\there\n", "\"tab\\u0009here\\u000a\"" }, { "\x7f", "\"\\u007f\"" },
		{ "caf\xc3\xa9", "\"caf\xc3\xa9\"" },			/* UTF-8 as it is */
		{ "\xf0\x9f\x98\x80!", "\"\xf0\x9f\x98\x80!\"" },
		{ "\xff", "\"\\\\xff\"" },				/* not UTF-8: the byte */
		{ "x\xc3", "\"x\\\\xc3\"" },				/* cut short */
		{ "\xc0\xaf", "\"\\\\xc0\\\\xaf\"" },		/* overlong */
		{ "\xed\xa0\x80", "\"\\\\xed\\\\xa0\\\\x80\"" },	/* a surrogate */
		{ "\xf4\x90\x80\x80", "\"\\\\xf4\\\\x90\\\\x80\\\\x80\"" },	/* past U+10FFFF */
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char buf[256];

		capture(js_one, cases[i].in, buf, sizeof(buf));
		check(strcmp(buf, cases[i].want) == 0, "js_str", buf);
	}
}

/* The page's packed texts (toolchain/lzpack.c's format): runs as they are,
 * copies from what is unpacked, one overlapping itself; a damaged one (a
 * copy from before the start, a run past the length, a length over the
 * buffer) stops the program with exit 2, said. */
static void test_page_unpack(void)
{
	static const struct { unsigned char in[16]; size_t n; const char *want; } cases[] = {
		{ { 9, 0, 0, 0, 2, 'a', 'b', 'c', 128 + 3, 3, 0 }, 11, "abcabcabc" },
		{ { 6, 0, 0, 0, 0, 'x', 128 + 2, 1, 0 }, 9, "xxxxxx" },
		{ { 0, 0, 0, 0 }, 4, "" },
		{ { 4, 0, 0, 0, 0, 'a', 128 + 0, 2, 0 }, 9, NULL },	/* from before the start */
		{ { 2, 0, 0, 0, 2, 'a', 'b', 'c' }, 8, NULL },		/* past the length */
		{ { 0, 0, 1, 0 }, 4, NULL },				/* over the buffer */
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char buf[64], msg[256] = "";
		int p[2], st;
		ssize_t n;
		pid_t pid;

		if (cases[i].want) {
			check(strcmp(page_unpack(cases[i].in, buf, sizeof(buf), "test"), cases[i].want) == 0,
			      "page_unpack", buf);
			continue;
		}
		if (pipe(p) < 0 || (pid = fork()) < 0) {
			check(0, "page_unpack: damaged", "fork");
			return;
		}
		if (pid == 0) {
			dup2(p[1], 2);
			page_unpack(cases[i].in, buf, sizeof(buf), "test");
			_exit(0);
		}
		close(p[1]);
		n = read(p[0], msg, sizeof(msg) - 1);
		msg[n > 0 ? n : 0] = '\0';
		close(p[0]);
		waitpid(pid, &st, 0);
		check(WIFEXITED(st) && WEXITSTATUS(st) == EX_FATAL && strstr(msg, "the packed test is"),
		      "page_unpack: damaged or too long, exit 2, said", msg);
	}
}
#endif

static void test_eff(void)
{
	struct eff e = { 0, 0 };
	uint64_t ps = 4096;
	uint32_t c;

	/* k pages each shared by k: k shares of 4096/k are one page, to a byte */
	for (c = 1; c <= 1000; c++) {
		memset(&e, 0, sizeof(e));
		eff_add(&e, (ps << 32) / c, c);
		if (eff_bytes(&e) != ps)
			break;
	}
	check(c == 1001, "eff: c shares of a page sum to the page", NULL);

	/* 5 or more sharers: KiB-per-page rounding loses these, we must not */
	memset(&e, 0, sizeof(e));
	eff_add(&e, (ps << 32) / 7, 1000);
	check(eff_bytes(&e) == (4096 * 1000 + 3) / 7, "eff: 1000 pages shared by 7", NULL);

	{
		struct eff a = { 10, UINT64_C(0xc0000000) }, b = { 5, UINT64_C(0x80000000) };

		eff_sum(&a, &b);
		check(a.whole == 16 && a.frac == 0x40000000 && eff_bytes(&a) == 16,
		      "eff: carry of the fraction", NULL);
	}
	memset(&e, 0, sizeof(e));
	eff_add(&e, UINT64_C(65536) << 32, UINT64_C(1) << 40);
	check(e.whole == UINT64_C(1) << 56 && e.frac == 0, "eff: large totals", NULL);
}

static void test_ptab(void)
{
	static struct arena a;
	struct ptab t;
	uint32_t i, id, ok = 1;

	if (arena_init(&a, ptab_bytes(1000, 100) + ptab_bytes(1000, 2) + 4096) < 0) {
		check(0, "ptab arena", NULL);
		return;
	}
	ptab_init(&t, &a, 1000, 100);
	check((uint64_t)(t.bmask + 1) * 7 / 8 >= 100 && ((t.bmask + 1) & t.bmask) == 0 &&
	      t.bshift == 64 - (unsigned)__builtin_ctz(t.bmask + 1) &&
	      ((uintptr_t)t.slot & (PT_PAGE - 1)) == 0,
	      "ptab: power of two buckets, load <= 7/8, slots page-aligned", NULL);
	/* cookie 0 is a valid key: emptiness is in the slot, not the key; ten
	 * blocks of pfns and ten of swap, cookies in and across blocks */
	for (i = 0; i < 1000; i++) {
		uint64_t cookie = ((uint64_t)(i % 100) * 512 + i / 100) |
				  (i / 100 & 1 ? COOKIE_SWAP_TAG : 0);

		ok &= ptab_ref(&t, cookie) == i;
	}
	check(ok && t.nblock == 2 * 50, "ptab: dense ids in insertion order, one bucket a block",
	      NULL);
	for (i = 0, ok = 1; i < 1000; i++) {
		uint64_t cookie = ((uint64_t)(i % 100) * 512 + i / 100) |
				  (i / 100 & 1 ? COOKIE_SWAP_TAG : 0);

		ok &= ptab_ref(&t, cookie) == i && ptab_find(&t, cookie) == i;
	}
	ptab_sum(&t);
	for (i = 0; i < 1000; i++)
		ok &= t.count[i] == 2;
	check(ok, "ptab: a second reference counts 2, found again", NULL);
	check(ptab_find(&t, 512 | COOKIE_SWAP_TAG) == UINT32_MAX && ptab_find(&t, 512) == 1 &&
	      ptab_find(&t, 1 | COOKIE_SWAP_TAG) == 100 && ptab_find(&t, 1) == UINT32_MAX,
	      "ptab: swap and pfn cookies never collide", NULL);
	check(ptab_find(&t, (uint64_t)1 << 40) == UINT32_MAX && ptab_find(&t, 1023) == UINT32_MAX,
	      "ptab: an absent cookie, in a new block or a known one, is not found", NULL);
	id = ptab_ref(&t, 999999);
	check(id == UINT32_MAX && t.n == 1000, "ptab: full table refuses, unchanged", NULL);
	check(ptab_ref(&t, 1024) == 2 && t.count[2] == 3, "ptab: full table still counts known pages", NULL);

	ptab_init(&t, &a, 1000, 2);
	check(ptab_ref(&t, 5) == 0 && ptab_ref(&t, PT_BLOCK + 5) == 1 &&
	      ptab_ref(&t, 6) == 2 && ptab_ref(&t, 2 * PT_BLOCK) == UINT32_MAX &&
	      t.nblock == 2 && t.n == 3 && ptab_ref(&t, PT_BLOCK + 6) == 3,
	      "ptab: past its blocks it refuses a new block, not a known one", NULL);
}

static void arena_overflow(void)
{
	static struct arena a;
	int i;

	if (arena_init(&a, 1 << 20) < 0)
		_exit(3);
	for (i = 0; i < 17; i++)
		arena_alloc(&a, 64 * 1024, 8);
	_exit(0);
}

static void arena_top_overflow(void)
{
	static struct arena a;

	if (arena_init(&a, 1 << 20) < 0)
		_exit(3);
	arena_alloc(&a, 512 * 1024, 8);
	arena_alloc_top(&a, 512 * 1024, 8);
	arena_alloc_top(&a, 8, 8);
	_exit(0);
}

/* A child hits the limit: it must exit 2 with a message naming -m. */
static void expect_arena_full(void (*fn)(void), const char *what)
{
	int p[2], st;
	char msg[512] = "";
	ssize_t n;
	pid_t pid;

	if (pipe(p) < 0 || (pid = fork()) < 0) {
		check(0, what, "fork");
		return;
	}
	if (pid == 0) {
		dup2(p[1], 2);
		fn();
	}
	close(p[1]);
	n = read(p[0], msg, sizeof(msg) - 1);
	msg[n > 0 ? n : 0] = '\0';
	close(p[0]);
	waitpid(pid, &st, 0);
	check(WIFEXITED(st) && WEXITSTATUS(st) == EX_FATAL && strstr(msg, "arena full") &&
	      strstr(msg, "-m SIZE"), what, msg);
}

/* Runs of cookies: counted a stretch at a time, known from the id expected. */
static void test_ptab_run(void)
{
	static struct arena a;
	struct ptab t;
	uint32_t id, k, i, got = 0, ok = 1;

	if (arena_init(&a, ptab_bytes(10000, 16) + 4096) < 0) {
		check(0, "ptab_run arena", NULL);
		return;
	}
	ptab_init(&t, &a, 10000, 16);
	/* cookies 1000 to 2999 new: a block at a time, ids in order */
	while (got < 2000) {
		k = ptab_run(&t, 1000 + got, 2000 - got, UINT32_MAX, &id);
		ok &= k > 0 && id == got && (1000 + got) / PT_BLOCK == (1000 + got + k - 1) / PT_BLOCK;
		got += k ? k : 2000;
	}
	check(ok && t.n == 2000 && t.nblock == 3, "ptab_run: new cookies, a block at a time, ids in order",
	      NULL);
	k = ptab_run(&t, 1000, 2000, 0, &id);
	check(k == 2000 && id == 0, "ptab_run: met again in order: all 2000 in one step, across blocks",
	      NULL);
	k = ptab_run(&t, 1500, 100, 500, &id);
	check(k == 100 && id == 500, "ptab_run: part of them, from the id expected", NULL);
	k = ptab_run(&t, 1500, 10, 7, &id);
	check(k == 10 && id == 500, "ptab_run: another id expected: found through the block", NULL);
	ok = ptab_run(&t, 5000, 1, UINT32_MAX, &id) == 1 && id == 2000 &&
	     ptab_run(&t, 5001, 1, UINT32_MAX, &id) == 1 && id == 2001 &&
	     ptab_run(&t, 5000, 2, 2000, &id) == 2 && id == 2000 &&
	     ptab_run(&t, 7000, 1, UINT32_MAX, &id) == 1 && id == 2002;
	k = ptab_run(&t, 5000, 3, 2000, &id);
	check(ok && k == 2 && id == 2000,
	      "ptab_run: ids given apart whose cookies follow go on; a cookie that does not follow stops them",
	      NULL);
	ptab_drop(&t, 0, 2000);
	ptab_sum(&t);
	for (i = 0, ok = 1; i < 2003; i++)
		ok &= t.count[i] == (i >= 500 && i < 510 ? 3u : i >= 510 && i < 600 ? 2u :
				     i == 2000 || i == 2001 ? 3u : 1u);
	check(ok && t.count[2003] == 0, "ptab_run: counts kept as differences, summed; a drop taken back",
	      NULL);
}

static void test_arena(void)
{
	static struct arena a;
	char *x, *y, *z;

	if (arena_init(&a, 1 << 20) < 0) {
		check(0, "arena init", NULL);
		return;
	}
	x = arena_alloc(&a, 3, 1);
	y = arena_alloc(&a, 8, 8);
	z = arena_alloc_top(&a, 16, 8);
	check(x == a.base && y == a.base + 8 && ((uintptr_t)y & 7) == 0, "arena: aligned bottom", NULL);
	check(z == a.base + a.size - 16, "arena: top grows down", NULL);
	check(a.size == 1 << 20, "arena: size as asked", NULL);
	x = arena_alloc(&a, (1 << 20) - 16 - 16, 1);
	check(x == a.base + 16 && a.lo + a.hi == a.size, "arena: fills exactly", NULL);
	expect_arena_full(arena_overflow, "arena: bottom overflow is an error naming -m");
	expect_arena_full(arena_top_overflow, "arena: top overflow is an error naming -m");
}

/* The capture format: escapes both ways, CRC-32, the header line. */
static void test_capwire(void)
{
	static const struct { const char *in; size_t n; const char *esc; } esc[] = {
		{ "", 0, "%" },
		{ "plain", 5, "plain" },
		{ "a b", 3, "a%20b" },
		{ "100%", 4, "100%25" },
		{ "x\0y", 3, "x%00y" },
		{ "\xff\x7f~!", 4, "%ff%7f~!" },
		{ "/usr/lib/libc.so.6 (deleted)", 28, "/usr/lib/libc.so.6%20(deleted)" },
	};
	static const char *const bad[] = { "%4", "%zz", "%g0", "abc%" };
	struct cap_header h = { .version = 1, .ps = 4096, .chunks = 3, .ids = 5, .procs = 1,
				.id = 0x1234, .src = "pagemap", .uname = "x86_64%206.1" }, back;
	/* the chunks of 2 processes and 8193 pages (two count chunks), by format */
	static const struct {
		int version;
		uint32_t k, kind;
	} kinds[] = {
		{ 1, 1, CK_PROC }, { 1, 2, CK_PROC }, { 1, 3, CK_COUNT }, { 1, 4, CK_COUNT },
		{ 1, 5, CK_BID },
		{ 2, 1, CK_ABSENT }, { 2, 2, CK_RAM }, { 2, 3, CK_COUNT }, { 2, 4, CK_COUNT },
		{ 2, 5, CK_PROC }, { 2, 6, CK_PROC }, { 2, 7, CK_BID },
	};
	char buf[256], line[512];
	size_t i, n;
	int v;

	for (i = 0; i < sizeof(esc) / sizeof(esc[0]); i++) {
		n = cap_escape(buf, sizeof(buf), esc[i].in, esc[i].n);
		check(n == strlen(esc[i].esc) && strcmp(buf, esc[i].esc) == 0, "cap_escape", buf);
		check(cap_unescape(esc[i].esc, line, sizeof(line), &n) == 0 && n == esc[i].n &&
		      memcmp(line, esc[i].in, n) == 0, "cap_unescape undoes it", esc[i].esc);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		check(cap_unescape(bad[i], line, sizeof(line), &n) < 0, "cap_unescape refuses", bad[i]);
	check(cap_unescape("abcdef", line, 4, &n) < 0, "cap_unescape: no room is an error", NULL);
	check(cap_crc32(0, "123456789", 9) == 0xcbf43926u, "cap_crc32: the check value", NULL);
	check(cap_crc32(cap_crc32(0, "1234", 4), "56789", 5) == 0xcbf43926u,
	      "cap_crc32 goes on from a part", NULL);
	n = cap_header_text(buf, sizeof(buf), &h);
	snprintf(line, sizeof(line), "%s crc=%08x", buf, cap_crc32(0, buf, n));
	check(cap_parse_header(line, &back, &v) == 0 && v == 1 &&
	      memcmp(&h, &back, sizeof(h)) == 0, "cap_parse_header reads what was written", line);
	h.version = 2;
	h.chunks = 5;	/* and the chunks of the unreadable processes and of ram */
	n = cap_header_text(buf, sizeof(buf), &h);
	snprintf(line, sizeof(line), "%s crc=%08x", buf, cap_crc32(0, buf, n));
	check(cap_parse_header(line, &back, &v) == 0 && v == 2 &&
	      memcmp(&h, &back, sizeof(h)) == 0, "cap_parse_header reads v2", line);
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		struct cap_header k = { .version = kinds[i].version, .ids = 8193, .procs = 2 };

		snprintf(buf, sizeof(buf), "v%d chunk %u", kinds[i].version, kinds[i].k);
		check(cap_nchunks(&k) == (kinds[i].version == 1 ? 5u : 7u) &&
		      cap_chunk_kind(&k, kinds[i].k) == (int)kinds[i].kind, "cap_chunk_kind", buf);
	}
	line[5] ^= 1;
	check(cap_parse_header(line, &back, &v) < 0, "cap_parse_header: a changed byte fails its CRC",
	      line);
	snprintf(line, sizeof(line), "v3 ps=4096 crc=%08x", cap_crc32(0, "v3 ps=4096", 10));
	check(cap_parse_header(line, &back, &v) < 0 && v == 3,
	      "cap_parse_header: another version is refused, and named", line);
	h.chunks = 3;
	n = cap_header_text(buf, sizeof(buf), &h);
	snprintf(line, sizeof(line), "%s crc=%08x", buf, cap_crc32(0, buf, n));
	check(cap_parse_header(line, &back, &v) < 0,
	      "cap_parse_header: chunks that do not add up are refused", line);
}

#ifndef EXMAP_NO_CGROUPS
/* What a cgroup's path names; a y line written and read back, and refused. */
static void test_cgroups(void)
{
#define ID64 "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
	static const struct { const char *path, *name; } names[] = {
		{ "/", "/" },
		{ "/system.slice/nginx.service", "nginx.service" },
		{ "/user.slice/user-1000.slice/session-2.scope", "session-2.scope" },
		{ "/system.slice/docker-" ID64 ".scope", "docker 0123456789ab" },
		{ "/machine.slice/libpod-" ID64 ".scope/container", "podman 0123456789ab" },
		{ "/machine.slice/libpod-conmon-" ID64 ".scope", "conmon 0123456789ab" },
		{ "/docker/" ID64, "docker 0123456789ab" },
		{ "/libpod_parent/libpod-" ID64, "podman 0123456789ab" },
		{ "/kubepods/burstable/pod1234-5678/" ID64, "k8s 0123456789ab" },
		{ "/kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod12.slice/"
		  "cri-containerd-" ID64 ".scope", "containerd 0123456789ab" },
		{ "/lxc.payload.web", "lxc web" },
		{ "/lxc/web", "lxc web" },
		{ "/process_api/12e289ff5e76c66a2d42829f3c021cad",
		  "/process_api/12e289ff5e76c66a2d42829f3c021cad" },
		{ "/system.slice/docker-0123.scope", "docker-0123.scope" },
	};
	static const char *const bad[] = {
		"1 ok 10 - - - /a b", "3 ok 10 - - - /a", "1 fine 10 - - - /a", "1 ok 10 - - /a",
		"1 ok 10 - - - %zz", "1 ok x - - - /a",
	};
	static struct arena a;
	struct cgcharge c = { .hier = CG_V2, .state = CG_OK, .known = 0xb,
			      .v = { 8 << 20, 4096, 0, 8 << 20 } };
	struct cgproc *p;
	char buf[PATH_BUF], line[PATH_BUF];
	size_t i, n;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		n = cg_name(names[i].path, buf, sizeof(buf));
		check(n == strlen(names[i].name) && strcmp(buf, names[i].name) == 0, "cg_name", buf);
	}
	if (arena_init(&a, 1 << 20) < 0) {
		check(0, "cgroups: an arena", NULL);
		return;
	}
	n = cap_cgroup_text(buf, sizeof(buf), "/machine.slice/a b", &c);
	check(n == strlen(buf) && strcmp(buf, "y 2 ok 800000 1000 - 800000 /machine.slice/a%20b") == 0,
	      "cap_cgroup_text", buf);
	strcpy(line, buf + 2);
	check(cap_cgroup_parse(line, &a, &p) == 0 && p->loaded && strcmp(p->path, "/machine.slice/a b") == 0 &&
	      p->charge.hier == CG_V2 && p->charge.state == CG_OK && p->charge.known == 0xb &&
	      p->charge.v[CH_CHARGED] == 8 << 20 && p->charge.v[CH_ANON] == 4096 &&
	      p->charge.v[CH_SHMEM] == 8 << 20, "cap_cgroup_parse reads what was written", buf);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		strcpy(line, bad[i]);
		check(cap_cgroup_parse(line, &a, &p) < 0, "cap_cgroup_parse refuses", bad[i]);
	}
	arena_release(&a);
#undef ID64
}
#endif

/* A console log: which capture lines come out of it, joined, and from which line. */
static void test_caplog(void)
{
	static const struct {
		const char *what, *log;
		const char *want[3];
		uint64_t at[3];
	} cases[] = {
		{ "plain lines", "XM 1 p a\nXM 1 r b\n", { "XM 1 p a", "XM 1 r b" }, { 1, 2 } },
		{ "CRLF and CRCRLF", "XM 1 a\r\nXM 1 b\r\r\n", { "XM 1 a", "XM 1 b" }, { 1, 2 } },
		{ "a prompt before the tag", "/ # XM begin v1\n", { "XM begin v1" }, { 1 } },
		{ "other lines are not capture lines", "hello\n[    1.000000] eth0: up\nXM 2 x\n",
		  { "XM 2 x" }, { 3 } },
		{ "a printk cut the line: joined", "XM 1 m 10[   12.345678] eth0: up\n 20 r-xp\n",
		  { "XM 1 m 10 20 r-xp" }, { 1 } },
		{ "cut inside the tag", "X[    0.100000] msg\nM 3 c 0\n", { "XM 3 c 0" }, { 1 } },
		{ "cut between X and M", "XM[    0.100000] msg\n 4 n 1\n", { "XM 4 n 1" }, { 1 } },
		{ "cut twice", "XM 1 a[    1.000000] x\nb[    2.000000] y\nc\n", { "XM 1 abc" }, { 1 } },
		{ "messages between the parts",
		  "XM 1 a[    1.000000] x\n[    1.100000] more\n[    1.200000] more\nb\n",
		  { "XM 1 ab" }, { 1 } },
		{ "cut at the line's end: the next line is its own",
		  "XM 1 a[    1.000000] x\nXM 1 b\n", { "XM 1 a", "XM 1 b" }, { 1, 2 } },
		{ "not a timestamp is no cut", "XM 1 a[1.5] b\n", { "XM 1 a[1.5] b" }, { 1 } },
	};
	static struct caplog g;
	const char *t;
	char path[] = "/tmp/exmap-unit-log.XXXXXX";
	uint64_t at;
	size_t i, k;
	int fd;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int ok = 1;

		if ((fd = mkstemp(path)) < 0 ||
		    write(fd, cases[i].log, strlen(cases[i].log)) != (ssize_t)strlen(cases[i].log) ||
		    lseek(fd, 0, SEEK_SET) != 0) {
			check(0, "caplog: temporary file", strerror(errno));
			return;
		}
		unlink(path);
		memcpy(path + strlen(path) - 6, "XXXXXX", 6);
		caplog_start(&g, "test", fd);
		for (k = 0; k < 3 && cases[i].want[k]; k++) {
			t = caplog_next(&g, &at);
			ok &= t && strcmp(t, cases[i].want[k]) == 0 && at == cases[i].at[k];
		}
		ok &= caplog_next(&g, &at) == NULL;
		close(fd);
		check(ok, "caplog", cases[i].what);
	}
	check(printk_at("[   12.345678] x") && printk_at("[0.000001] ") &&
	      !printk_at("[12.34567] x") && !printk_at("[ .123456] x") && !printk_at("[1.123456]x"),
	      "printk_at: a console timestamp, exactly", NULL);
}

/*
 * The census's inference, on frames written as letters from a pfn on: B a
 * free block's first frame (BUDDY), . a frame with no flag, S slab, M a
 * mapped frame with no other flag. Where only first frames are marked, the
 * flagless frames after one, within its alignment (and the largest order),
 * up to the largest power of two that fits, are counted free.
 */
static void test_census_infer(void)
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
static void test_census_settle(void)
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

/*
 * The floor's slope (slope.c) on series whose shape is built here: each
 * case's samples come from a rule over sample i at t = 100 ms * i, and its
 * slope (bytes an hour) must come within tol of what was built, growing or
 * not as said.
 */
struct env_case {
	const char *what;
	uint32_t n;		/* samples */
	uint64_t (*v)(uint32_t i);
	int64_t slope, tol;
	int grows, known;
};

/* 10 bytes a ms from 1 MiB: 36,000,000 bytes an hour */
static uint64_t v_leak(uint32_t i) { return (1u << 20) + 1000u * i; }
static uint64_t v_flat(uint32_t i) { (void)i; return 8u << 20; }
/* a page-sized jitter on a flat 8 MiB, from a fixed sequence */
static uint64_t v_jitter(uint32_t i) { return (8u << 20) + (hash_bytes(HASH_SEED, &i, 4) % 3) * 4096; }
/* a sawtooth: 2 MiB a tooth of 37 samples, rising, then dropped at once */
static uint64_t v_saw(uint32_t i) { return (4u << 20) + (i % 37) * ((2u << 20) / 37); }
static uint64_t v_saw_leak(uint32_t i) { return v_saw(i) + 1000u * i; }
/* every 7th sample 100 MiB higher: a burst, never the floor */
static uint64_t v_spikes(uint32_t i) { return v_leak(i) + (i % 7 == 3 ? 100u << 20 : 0); }
/* one window's worth of samples (of 16) far below: Theil-Sen shrugs */
static uint64_t v_dip(uint32_t i) { return i >= 900 && i < 960 ? 4096 : v_leak(i); }
/* pages of 4 KiB leaked a few at a time: a staircase */
static uint64_t v_stairs(uint32_t i) { return (1u << 20) + (i / 4) * 4096; }

static void test_envelope(void)
{
	static const struct env_case cases[] = {
		{ "steady leak", 1000, v_leak, 36000000, 1, 1, 1 },
		{ "steady leak, 100,000 samples", 100000, v_leak, 36000000, 1, 1, 1 },
		{ "flat", 1000, v_flat, 0, 0, 0, 1 },
		{ "flat with a page of jitter", 1000, v_jitter, 0, 150000, 0, 1 },
		{ "sawtooth, flat floor", 2000, v_saw, 0, 100000, 0, 1 },
		{ "sawtooth on a leak", 2000, v_saw_leak, 36000000, 1800000, 1, 1 },
		{ "leak with bursts every 7th sample", 1000, v_spikes, 36000000, 1, 1, 1 },
		{ "leak with a dip of a window", 1000, v_dip, 36000000, 720000, 1, 1 },
		{ "a leak in page steps", 1000, v_stairs, 36864000, 400000, 1, 1 },
		{ "three samples: no slope", 3, v_leak, 0, 0, 0, 0 },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct env_case *c = &cases[i];
		struct envelope e;
		struct env_fit f;
		char what[128], detail[160];
		uint64_t min = UINT64_MAX, max = 0;
		uint32_t k;
		int64_t d;

		memset(&e, 0, sizeof(e));
		for (k = 0; k < c->n; k++) {
			uint64_t v = c->v(k);

			env_add(&e, (int64_t)k * 100, v);
			min = v < min ? v : min;
			max = v > max ? v : max;
		}
		env_fit(&e, &f);
		d = f.slope - c->slope;
		fmt_snprintf(what, sizeof(what), "envelope: %s", c->what);
		fmt_snprintf(detail, sizeof(detail), "slope %lld, want %lld +- %lld; known %d, grows %d; "
			     "%u windows", (long long)f.slope, (long long)c->slope, (long long)c->tol,
			     f.known, env_grows(&f), f.points);
		check(f.known == c->known && (d < 0 ? -d : d) <= c->tol &&
		      env_grows(&f) == c->grows && f.points <= ENV_WIN + 1 && e.samples == c->n &&
		      e.min == min && e.max == max, what, detail);
	}
}

#ifndef EXMAP_NO_LOAD
/*
 * The trend's rows (trend.c) from samples built here, 200 a second apart: a
 * leak (one value lost on the way), a family of three that leaks together,
 * a steady process restarted under a new pid, a pid reused by another
 * program, a file, a process of 4 samples rising 100 MiB (brief: no slope),
 * a second process joining a key (not growth), two with no command line
 * (a row each, by pid); and with -P the family's parts. The CSV rows must say each one's samples and slope as built.
 */
static void trend_feed(const void *arg)
{
	static const char leaky[] = "leaky\0-r\0", fam[] = "fam", steady[] = "steady";
	const struct trend_opts *to = arg;
	static struct arena a;
	uint32_t i, k;

	if (!a.base && arena_init(&a, 64u << 20) < 0)
		_exit(2);
	a.lo = a.hi = 0;
	trend_begin(&a, to);
	for (i = 0; i < 200; i++) {
		trend_sample((int64_t)i * 1000, 1700000000u + i);
		trend_proc(100, 1, "leaky", leaky, sizeof(leaky) - 1, (1u << 20) + 10240u * i,
			   10240u * i, i != 50);
		for (k = 0; k < 3; k++) {
			trend_proc(200 + k, 2, "fam", fam, 3, (1u << 20) + 1024u * i, 0, 1);
			trend_part(200 + k, 2, "fam", "[heap]", 100u << 10, 1);
			trend_part(200 + k, 2, "fam", "/lib/libx.so .data .bss", 1024u * i, 1);
		}
		if (i != 100)
			trend_proc(i < 100 ? 300 : 301, i < 100 ? 5 : 105, "steady", steady, 6,
				   2u << 20, 0, 1);
		if (i < 100)
			trend_proc(400, 7, "first", "first", 5, 1u << 20, 0, 1);
		else if (i > 100)
			trend_proc(400, 110, "second", "second", 6, 5u << 20, 0, 1);
		if (i >= 10 && i < 14)	/* brief: 4 samples, rising 100 MiB */
			trend_proc(500, 9, "brief", "brief", 5, (25u << 20) * (i - 10), 0, 1);
		/* no command line (read when it had exited): a row a pid */
		if (i % 100 >= 20 && i % 100 < 24)
			trend_proc(700 + i / 100, 11, "late", NULL, 0, 1u << 20, 0, 1);
		/* one process, then two of one key: a join, not growth */
		for (k = 0; k < 1 + (i >= 100); k++)
			trend_proc(600 + k, 3 + k, "make", "make", 4, 1u << 20, 0, 1);
		trend_file("/dev/shm/x", 4096u * i, 1);
		trend_sample_end();
	}
	trend_report(&(struct opts){ .csv = 1 }, to);
}

static void test_trend(void)
{
	static const struct { const char *pick, *row; } cases[] = {
		{ NULL, "kind,name,cmdline,samples,first,last,min,max,slope,sole_slope,grows,life_ms,"
			"brief\n" },
		{ NULL, "\nprocess,leaky,leaky -r,199,1048576,3086336,1048576,3086336,36864000,36864000,1,"
			"199000,0\n" },
		{ NULL, "\nfile,/dev/shm/x,,200,0,815104,0,815104,14745600,,1,199000,0\n" },
		{ NULL, "\nprocess,fam,fam,200,3145728,3757056,3145728,3757056,11059200,0,1,199000,0\n" },
		{ NULL, "\nprocess,steady,steady,199,2097152,2097152,2097152,2097152,0,0,0,199000,0\n" },
		{ NULL, "\nprocess,first,first,100,1048576,1048576,1048576,1048576,0,0,0,99000,0\n" },
		{ NULL, "\nprocess,second,second,99,5242880,5242880,5242880,5242880,0,0,0,98000,0\n" },
		{ NULL, "\nprocess,make,make,200,1048576,2097152,1048576,2097152,0,0,0,199000,0\n" },
		{ NULL, "\nprocess,brief,brief,4,0,78643200,0,78643200,,,0,3000,1\n" },
		{ NULL, "\nprocess,late,[pid 700],4,1048576,1048576,1048576,1048576,,,0,3000,1\n" },
		{ NULL, "\nprocess,late,[pid 701],4,1048576,1048576,1048576,1048576,,,0,3000,1\n" },
		{ "fam", "\npart,/lib/libx.so .data .bss,,200,0,611328,0,611328,11059200,,1,199000,0\n" },
		{ "fam", "\npart,[heap],,200,307200,307200,307200,307200,0,,0,199000,0\n" },
		{ "201", "\npart,[heap],,200,102400,102400,102400,102400,0,,0,199000,0\n" },
	};
	static char buf[8192];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct trend_opts to = { .log = "built", .pick = cases[i].pick };
		char what[160];

		capture(trend_feed, &to, buf, sizeof(buf));
		fmt_snprintf(what, sizeof(what), "trend%s%s: %.*s", cases[i].pick ? " -P " : "",
			     cases[i].pick ? cases[i].pick : "", (int)strcspn(cases[i].row + 1, ","),
			     cases[i].row + 1);
		check(strstr(buf, cases[i].row) != NULL, what, buf);
	}
}
#endif

/*
 * A long definition (a command line past a line's room) written after
 * another of its class on the open line, its head ending at every place up
 * to the line's end: each line a whole watch line of at most WL_LINE_MAX
 * bytes that checks, and the text read back from its line and the "+"
 * lines after it as it was (a head that left no room for its comma once
 * wrote the text over the writer's own state).
 */
struct wldef_case { size_t fill; char text[400]; };

static void wldef_write(const void *arg)
{
	const struct wldef_case *c = arg;
	char fill[WL_LINE_MAX];

	memset(fill, 'x', c->fill);
	wl_count();
	wl_item(WC_PROCDEF, fill, c->fill);
	wl_def(WC_PROCDEF, "7,1f,2", 6, c->text, sizeof(c->text));
	wl_count();
}

static void test_wldef(void)
{
	static struct wldef_case c;
	static char buf[8192], esc[2048], back[1024];
	size_t i, f, n, en;
	int bad = 0, seen;

	for (i = 0; i < sizeof(c.text); i++)
		c.text[i] = i % 7 == 0 ? '\0' : i % 11 == 0 ? '%' : (char)('a' + i % 26);
	for (f = 1; f < WL_LINE_MAX - 20 && !bad; f++) {
		char *line, *next, *items, *sp;
		uint32_t seq;
		int cls;

		c.fill = f;
		capture(wldef_write, &c, buf, sizeof(buf));
		en = 0;
		seen = 0;
		for (line = buf; *line && !bad; line = next) {
			next = strchr(line, '\n');
			if (!next || next - line + 1 > WL_LINE_MAX || strncmp(line, "XM w ", 5) != 0) {
				bad = 1;
				break;
			}
			*next++ = '\0';
			if (wl_line_check(line + 5, &seq, &cls, &items) < 0) {
				bad = 2;
				break;
			}
			sp = cls == WC_PROCDEF ? strstr(items, "7,1f,2,") : NULL;
			if (cls == WC_PROCDEF && !sp && !seen)
				continue;	/* the filler's line alone */
			if (cls == WC_PROCDEF && sp && !seen++)
				items = sp + 7;
			else if (cls != WC_N || !seen)
				items = NULL;
			if (!items || en + strlen(items) >= sizeof(esc)) {
				bad = 3;
				break;
			}
			memcpy(esc + en, items, strlen(items));
			en += strlen(items);
		}
		if (!bad && (wl_unescape(esc, en, back, sizeof(back), &n) < 0 || n != sizeof(c.text) ||
			     memcmp(back, c.text, n) != 0))
			bad = 4;
	}
	fmt_snprintf(esc, sizeof(esc), "the head after %zu bytes of the line: %s", f - 1,
		     bad == 1 ? "a line too long or not a watch line" : bad == 2 ?
		     "a line that does not check" : bad == 3 ? "the text not where it belongs" :
		     "the text read back is not the text");
	check(!bad, "wl_def: a long definition on an open line", bad ? esc : NULL);
}

#ifndef EXMAP_NO_OUTSIDE
/* The kernel's map counts of a fake source: 3 for pfns 100-104, 1 above,
 * 2 for pfn 2000; or an error. */
static int fake_err;
static ssize_t fake_counts(struct pagesrc *src, uint64_t pfn, uint64_t *c, size_t n)
{
	size_t i;

	(void)src;
	if (fake_err)
		return -fake_err;
	for (i = 0; i < n; i++)
		c[i] = pfn + i >= 100 && pfn + i < 105 ? 3 : pfn + i == 2000 ? 2 : 1;
	return (ssize_t)n;
}

/*
 * outside_count: where mappers may be hidden (a PID namespace, an
 * unreadable process) and not with -p, each shared page's count is raised
 * to the kernel's, the difference kept as hidden; swap is left as seen; a
 * count that cannot be read leaves the shares as seen and says so.
 */
static void test_outside(void)
{
	static const struct {
		uint32_t view, unreadable;
		int err;
		int counted;	/* hid kept, counts raised */
	} cases[] = {
		{ OV_PIDNS, 0, 0, 1 },
		{ 0, 1, 0, 1 },
		{ 0, 0, 0, 0 },			/* nothing hidden: nothing read */
		{ OV_PIDNS | OV_ONLY, 1, 0, 0 },	/* -p: among those named */
		{ OV_PIDNS, 0, EACCES, 0 },	/* no counts: as seen, said */
	};
	static struct arena a;
	struct pagesrc src = { .name = "fake", .counts = fake_counts };
	struct scan s;
	size_t k;

	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		uint32_t i, id, ok = 1;
		char what[64];

		/* a fresh arena each case: the table's memory starts zero */
		if (k)
			arena_release(&a);
		if (arena_init(&a, 2 * ptab_bytes(64, 8) + 65536) < 0) {
			check(0, "outside arena", NULL);
			return;
		}
		memset(&s, 0, sizeof(s));
		s.arena = &a;
		s.src = &src;
		s.page_size = 4096;
		ptab_init(&s.pt, &a, 64, 8);
		for (i = 100; i < 110; i++)
			ptab_run(&s.pt, i, 1, UINT32_MAX, &id);
		ptab_run(&s.pt, 2000, 1, UINT32_MAX, &id);
		ptab_run(&s.pt, 2000, 1, UINT32_MAX, &id);
		ptab_run(&s.pt, 7 | COOKIE_SWAP_TAG, 1, UINT32_MAX, &id);
		ptab_sum(&s.pt);
		s.view = cases[k].view;
		s.unreadable = cases[k].unreadable;
		fake_err = cases[k].err;
		outside_count(&s);
		for (i = 0; i < 10; i++)
			ok &= s.pt.count[i] == (cases[k].counted && i < 5 ? 3u : 1u) &&
			      (!s.pt.hid || s.pt.hid[i] == (i < 5 ? 2u : 0u));
		ok &= s.pt.count[10] == 2 && s.pt.count[11] == 1 && (!s.pt.hid || !s.pt.hid[11]);
		ok &= (s.pt.hid != NULL) == cases[k].counted;
		ok &= !cases[k].err || (s.view & OV_NOCOUNT);
		fmt_snprintf(what, sizeof(what), "outside: case %zu", k);
		check(ok, what, NULL);
	}
	fake_err = 0;
	s.view = OV_PIDNS;
	check(outside_maps(&s, 100, 10) == 1 && outside_maps(&s, 105, 5) == 0,
	      "outside: an exclusive PMD another maps, by the kernel's count", NULL);
}
#endif

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

static void test_kowners(void)
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


/*
 * The tables of views and options hold together: a variant follows its
 * view; the option a view needs is one it takes; a view has fields to sort
 * by exactly when it takes -s; a view has its function where the build
 * has it; every option a view takes is in the table, with help where the
 * build has it; an option needs, or does not go with, another.
 */
static void test_tables(void)
{
	char what[80];
	size_t i;
	int j;

	for (i = 0; i < nviews; i++) {
		const struct viewdef *v = &views[i];

		fmt_snprintf(what, sizeof(what), "views[%zu] (%s)", i, v->text);
		check(v->as == AS_NAME || (i > 0 && strcmp(views[i - 1].text, v->text) == 0), what,
		      "a variant follows its view");
		check(v->needs < 0 || (v->opts >> v->needs & 1), what, "it takes the option it needs");
		check(!(v->opts & OPT(s)) == !v->sorts, what, "fields to sort by, and -s, or neither");
		check(v->min <= v->max && v->forms && v->view <= V_CGROUPS, what, "words, forms, view");
		check(!(v->build & ~BUILT) == (v->run != NULL), what,
		      "a function where the build has it, none where it leaves it out");
		check(!(v->opts >> NOPT), what, "its options are in the table");
	}
	for (j = 0; j < NOPT; j++) {
		const char *name = cli_opts[j].text;

		fmt_snprintf(what, sizeof(what), "cli_opts[%d] (%s)", j, name);
		check(*name && ((cli_opts[j].build & ~BUILT) || j == O_s || *field(name, T_HELP)), what,
		      "a name, and help where the build has it");
		check(cli_opts[j].needs != j && cli_opts[j].not != j && cli_opts[j].needs < NOPT &&
		      cli_opts[j].not < NOPT, what, "needs or refuses another option");
		check((cli_opts[j].needs < 0 && cli_opts[j].not < 0) ||
		      *field(cli_opts[cli_opts[j].needs >= 0 ? j : cli_opts[j].not].text, T_WHY) ||
		      (cli_opts[j].build & ~BUILT), what, "why, where it needs or refuses another");
	}
}

#ifndef EXMAP_NO_DMABUF
/* A DRM client's fdinfo lines (Documentation/gpu/drm-usage-stats.rst's keys)
 * into regions: each figure where its key and unit say, others ignored. */
static void test_drm_lines(void)
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
static void test_drm_capture(void)
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

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	test_fmt_human();
	test_parse_numbers();
	test_maps_lines();
	test_linebuf();
	test_csv();
#ifndef EXMAP_NO_PICTURES
	test_js_str();
	test_page_unpack();
#endif
	test_eff();
	test_ptab();
	test_ptab_run();
#ifndef EXMAP_NO_OUTSIDE
	test_outside();
#endif
	test_arena();
	test_capwire();
#ifndef EXMAP_NO_CGROUPS
	test_cgroups();
#endif
	test_caplog();
	test_census_infer();
	test_census_settle();
	test_envelope();
#ifndef EXMAP_NO_LOAD
	test_trend();
#endif
	test_wldef();
#ifndef EXMAP_NO_KOWNERS
	test_kowners();
#endif
	test_tables();
#ifndef EXMAP_NO_DMABUF
	test_drm_lines();
	test_drm_capture();
#endif
	printf("%d passed, %d failed\n", passed, failed);
	return failed != 0;
}
