/* Unit tests of the capture's wire format and of console logs. */
/*
 * The capture format (escapes, CRC-32, the header line, chunk kinds), a
 * cgroup's name and its y line, and which capture lines a console log
 * gives (joined where a kernel message cut one). Cases are tables.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture.h"
#include "cgroup.h"
#include "unit.h"

/* The capture format: escapes both ways, CRC-32, the header line. */
void test_capwire(void)
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
void test_cgroups(void)
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
void test_caplog(void)
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
