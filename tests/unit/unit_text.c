/* Unit tests of text in and out: numbers, maps lines, CSV, the page's texts. */
/*
 * Numbers formatted and parsed, /proc/PID/maps lines, the line buffer (a
 * long line consumed whole), CSV and JavaScript quoting, and the page's
 * packed texts unpacked (a damaged one refused). Cases are tables.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "exmap.h"
#ifndef EXMAP_NO_PICTURES
#include "page.h"
#endif
#include "unit.h"

void test_fmt_human(void)
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

void test_parse_numbers(void)
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

void test_maps_lines(void)
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
void test_linebuf(void)
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

void test_csv(void)
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
void test_js_str(void)
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
void test_page_unpack(void)
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
