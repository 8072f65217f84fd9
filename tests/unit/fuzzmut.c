/* The fuzzers' mutations: lines dropped, repeated, swapped, cut, changed; checks made valid. */
/* fuzzlib.h says what they do and why. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "fuzzlib.h"
#include "wlog.h"

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max);

/* ---- lines ---- */

#define LINES_MAX	32768		/* lines a mutation sees; the rest stay as they are */
#define POOL		(1u << 20)	/* the text of lines made anew */

struct line {
	const uint8_t *p;
	uint32_t n;
};

static struct line ln[LINES_MAX + 1];
static uint32_t nln;
static uint8_t pool[POOL], copy[4u << 20];
static size_t npool;
static uint64_t rs;

static uint32_t rnd(uint32_t n)
{
	rs ^= rs << 13;
	rs ^= rs >> 7;
	rs ^= rs << 17;
	return n ? (uint32_t)(rs % n) : 0;
}

/* data as lines, in copy (the last, unended, as it is) */
static void split(const uint8_t *data, size_t size)
{
	size_t i = 0;

	if (size > sizeof(copy))
		size = sizeof(copy);
	memcpy(copy, data, size);
	nln = 0;
	npool = 0;
	while (i < size && nln < LINES_MAX) {
		const uint8_t *e = memchr(copy + i, '\n', size - i);
		size_t end = e ? (size_t)(e - copy) : size;

		ln[nln++] = (struct line){ copy + i, (uint32_t)(end - i) };
		i = end + 1;
	}
	if (i < size)	/* past LINES_MAX: one last piece */
		ln[nln++] = (struct line){ copy + i, (uint32_t)(size - i) };
}

/* A line made anew: n bytes in the pool, or NULL when it is full. */
static uint8_t *fresh(size_t n)
{
	uint8_t *p;

	if (n > POOL - npool)
		return NULL;
	p = pool + npool;
	npool += n;
	return p;
}

static size_t join(uint8_t *out, size_t max)
{
	size_t o = 0;
	uint32_t i;

	for (i = 0; i < nln; i++) {
		if (o + ln[i].n + 1 > max)
			break;
		memcpy(out + o, ln[i].p, ln[i].n);
		o += ln[i].n;
		out[o++] = '\n';
	}
	return o;
}

static int starts(const struct line *l, const char *s)
{
	size_t n = strlen(s);

	return l->n >= n && memcmp(l->p, s, n) == 0;
}

static void insert(uint32_t at, struct line l)
{
	if (nln > LINES_MAX || at > nln)
		return;
	memmove(&ln[at + 1], &ln[at], (nln - at) * sizeof(ln[0]));
	ln[at] = l;
	nln++;
}

static void drop(uint32_t at)
{
	memmove(&ln[at], &ln[at + 1], (nln - at - 1) * sizeof(ln[0]));
	nln--;
}

/* A line, mostly one of exmap-mini's (XM ...). */
static uint32_t pick(void)
{
	uint32_t i = rnd(nln), k;

	for (k = 0; k < 8 && !starts(&ln[i], "XM "); k++)
		i = rnd(nln);
	return i;
}

/* ---- a field changed ---- */

static int is_sep(uint8_t c)
{
	return c == ' ' || c == ',' || c == '=' || c == ':' || c == '*';
}

/* A number's text, in the base the old one seemed to be in. */
static size_t number(char *buf, size_t room, const uint8_t *old, size_t n)
{
	static const uint64_t odd[] = {
		0, 1, 2, 0x7f, 0x80, 0xff, 0x100, 0xfff, 0x1000, 0xffff, 0x10000, 0x7fffffff,
		0x80000000, 0xffffffff, 0x100000000, 0x7fffffffffffffff, 0x8000000000000000,
		0xffffffffffffffff, 0x3fffff, 0x400000, 0xfffffff, 0x10000000,
	};
	uint64_t v = 0;
	size_t i;
	int dec = 1;

	for (i = 0; i < n && i < 16; i++) {
		int c = old[i];
		int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;

		if (d < 0)
			break;
		dec &= d < 10;
		v = v * 16 + (uint64_t)d;
	}
	switch (rnd(6)) {
	case 0: v++; break;
	case 1: v--; break;
	case 2: v = odd[rnd(sizeof(odd) / sizeof(odd[0]))]; break;
	case 3: v ^= (uint64_t)1 << rnd(64); break;
	case 4: v = (uint64_t)rnd(64); break;
	default: v = (uint64_t)rnd(UINT32_MAX) << 32 | rnd(UINT32_MAX); break;
	}
	return (size_t)snprintf(buf, room, dec && rnd(2) ? "%llu" : "%llx", (unsigned long long)v);
}

static void field(uint32_t i)
{
	static const char *const words[] = {
		"", "%", "-", "k", "p", "f", "d", "h", "s", "a", "+", ".", "begin", "end", "w",
		"v1", "v2", "v3", "%00", "%zz", "%2", "[heap]", "/", "..", "crc=0",
	};
	const struct line *l = &ln[i];
	uint32_t nf = 0, k, a = 0, b;
	uint32_t at[128];
	char num[32];
	const uint8_t *with = (const uint8_t *)"";
	size_t wn = 0;
	uint8_t *p;

	/* the fields: between separators, after "XM " */
	for (k = 3; k <= l->n && nf < 128; k++)
		if (k == 3 || is_sep(l->p[k - 1]))
			at[nf++] = k;
	if (!nf)
		return;
	a = at[nf > 2 ? 1 + rnd(nf - 1) : rnd(nf)];
	for (b = a; b < l->n && !is_sep(l->p[b]); b++)
		;
	switch (rnd(5)) {
	case 0: case 1:
		wn = number(num, sizeof(num), l->p + a, b - a);
		with = (const uint8_t *)num;
		break;
	case 2: {	/* a field of another line */
		const struct line *o = &ln[pick()];
		uint32_t s = o->n ? rnd(o->n) : 0, e;

		while (s > 0 && !is_sep(o->p[s - 1]))
			s--;
		for (e = s; e < o->n && !is_sep(o->p[e]); e++)
			;
		with = o->p + s;
		wn = e - s;
		break;
	}
	case 3:
		with = (const uint8_t *)words[rnd(sizeof(words) / sizeof(words[0]))];
		wn = strlen((const char *)with);
		break;
	default:	/* the field and its separator gone, or doubled */
		if (rnd(2) && b < l->n)
			b++;
		else
			with = l->p + a, wn = b - a + (b < l->n);
		break;
	}
	if (!(p = fresh(l->n - (b - a) + wn + (with == l->p + a ? b - a : 0))))
		return;
	memcpy(p, l->p, a);
	memcpy(p + a, with, wn);
	if (with == l->p + a) {	/* doubled: the field again after its copy */
		memcpy(p + a + wn, l->p + a, l->n - a);
		ln[i] = (struct line){ p, (uint32_t)(l->n + wn) };
		return;
	}
	memcpy(p + a + wn, l->p + b, l->n - b);
	ln[i] = (struct line){ p, (uint32_t)(a + wn + l->n - b) };
}

/* ---- noise, as a console makes it ---- */

static const char *const kmsg[] = {
	"random: crng init done", "eth0: Link is Up - 100Mbps/Full - flow control off",
	"EXT4-fs (mmcblk0p2): re-mounted. Quota mode: none.", "XM", "XM w",
	"audit: type=1400 audit(1700000000.123:42): apparmor=\"STATUS\"",
};

static struct line printk_line(void)
{
	char buf[128];
	int n = snprintf(buf, sizeof(buf), "[%5u.%06u] %s", rnd(100000), rnd(1000000),
			 kmsg[rnd(sizeof(kmsg) / sizeof(kmsg[0]))]);
	uint8_t *p = fresh((size_t)n);

	if (!p)
		return (struct line){ (const uint8_t *)"", 0 };
	memcpy(p, buf, (size_t)n);
	return (struct line){ p, (uint32_t)n };
}

static void noise(uint32_t i)
{
	static const char *const junk[] = {
		"/ # ", "\r", "XM ", "XM w ", "XM 1 . 0 00000000 x", "XM w 0 t 0,0,0,1 00000000",
		"\x01\xff\xfe", "root@board:~# exmap-mini dump", "#fuzz-rotate",
	};
	struct line l;

	switch (rnd(4)) {
	case 0: {	/* a kernel message cuts the line; its rest on the next */
		uint32_t k = ln[i].n ? rnd(ln[i].n) : 0;
		struct line rest = { ln[i].p + k, ln[i].n - k }, m = printk_line();
		uint8_t *p = fresh(k + m.n);

		if (!p)
			return;
		memcpy(p, ln[i].p, k);
		memcpy(p + k, m.p, m.n);
		ln[i] = (struct line){ p, k + m.n };
		insert(i + 1, rest);
		return;
	}
	case 1:
		insert(i, printk_line());
		return;
	case 2: {	/* CR before the end, as a console's CRLF */
		uint8_t *p = fresh(ln[i].n + 1);

		if (!p)
			return;
		memcpy(p, ln[i].p, ln[i].n);
		p[ln[i].n] = '\r';
		ln[i] = (struct line){ p, ln[i].n + 1 };
		return;
	}
	default:
		l.p = (const uint8_t *)junk[rnd(sizeof(junk) / sizeof(junk[0]))];
		l.n = (uint32_t)strlen((const char *)l.p);
		insert(i, l);
	}
}

/* ---- the checks made valid again ---- */

static int hex8(const uint8_t *p)
{
	for (int i = 0; i < 8; i++)
		if (!((p[i] >= '0' && p[i] <= '9') || (p[i] >= 'a' && p[i] <= 'f')))
			return 0;
	return 1;
}

/* "XM w SEQ C ... CRC": the CRC, and with renumber the SEQ counting on. */
static void fix_watch(uint32_t i, int renumber, uint32_t *seq)
{
	const struct line *l = &ln[i];
	size_t body = 5, end = l->n, s;
	char head[16];
	uint8_t *p;
	int hn = 0;

	if (end >= 14 && l->p[end - 9] == ' ' && hex8(l->p + end - 8))
		end -= 9;
	if (renumber) {
		for (s = body; s < end && l->p[s] != ' '; s++)
			;
		hn = snprintf(head, sizeof(head), "%x", *seq % WL_SEQ_MOD);
		*seq += 1;
		body = s;
	}
	if (!(p = fresh(5 + (size_t)hn + (end - body) + 9)))
		return;
	memcpy(p, "XM w ", 5);
	memcpy(p + 5, head, (size_t)hn);
	memcpy(p + 5 + hn, l->p + body, end - body);
	s = 5 + (size_t)hn + (end - body);
	snprintf((char *)p + s, 10, " %08x", cap_crc32(0, (const char *)p + 5, s - 5));
	ln[i] = (struct line){ p, (uint32_t)(s + 9) };
}

/* "XM begin|end TEXT crc=C": C, and the chunk count the other fields make. */
static void fix_header(uint32_t i)
{
	const struct line *l = &ln[i];
	size_t t = starts(l, "XM begin ") ? 9 : 7, end = l->n, k;
	char text[1024], *c;
	uint64_t procs = 0, ids = 0;
	uint8_t *p;
	int n, v2 = end > t + 1 && l->p[t + 1] == '2';

	for (k = t; k + 5 <= end; k++)
		if (memcmp(l->p + k, " crc=", 5) == 0)
			end = k;
	if (end - t >= sizeof(text) - 64)
		return;
	memcpy(text, l->p + t, end - t);
	text[end - t] = '\0';
	if ((c = strstr(text, " procs=")))
		procs = strtoull(c + 7, NULL, 10);
	if ((c = strstr(text, " ids=")))
		ids = strtoull(c + 5, NULL, 10);
	if (rnd(4) && (c = strstr(text, " chunks="))) {	/* mostly, the count they make */
		char rest[1024];
		char *e = strchr(c + 1, ' ');

		snprintf(rest, sizeof(rest), "%s", e ? e : "");
		snprintf(c, sizeof(text) - (size_t)(c - text), " chunks=%llu%s",
			 (unsigned long long)(procs + ids / CAP_IDS_CHUNK + (ids % CAP_IDS_CHUNK != 0) +
					      1 + 2 * v2), rest);
	}
	n = (int)strlen(text);
	if (!(p = fresh(t + (size_t)n + 13)))
		return;
	memcpy(p, l->p, t);
	memcpy(p + t, text, (size_t)n);
	snprintf((char *)p + t + n, 14, " crc=%08x", cap_crc32(0, text, (size_t)n));
	ln[i] = (struct line){ p, (uint32_t)(t + (size_t)n + 13) };
}

/* Every chunk's close line "XM K . N C WHAT" made to count and sum the
 * lines of K before it, as the loader reads them. */
static void fix_chunks(void)
{
	uint32_t i, cur = 0, count = 0, crc = 0;

	for (i = 0; i < nln; i++) {
		const struct line *l = &ln[i];
		uint32_t k = 0;
		size_t j = 3;
		char tail[256];
		uint8_t *p;
		int n;

		if (!starts(l, "XM ") || starts(l, "XM begin ") || starts(l, "XM end ") ||
		    starts(l, "XM w "))
			continue;
		for (; j < l->n && l->p[j] >= '0' && l->p[j] <= '9' && k < 100000000; j++)
			k = k * 10 + (uint32_t)(l->p[j] - '0');
		if (j == 3 || j >= l->n || l->p[j] != ' ')
			continue;
		if (k != cur)
			cur = k, count = 0, crc = 0;
		if (l->n - j - 1 < 2 || l->p[j + 1] != '.' || l->p[j + 2] != ' ') {
			uint8_t nl = '\n';

			crc = cap_crc32(crc, (const char *)l->p + j + 1, l->n - j - 1);
			crc = cap_crc32(crc, (const char *)&nl, 1);
			count++;
			continue;
		}
		/* the close line's last field, WHAT, kept */
		{
			size_t w = l->n;

			while (w > j + 3 && l->p[w - 1] != ' ')
				w--;
			n = snprintf(tail, sizeof(tail), "%.*s", (int)(l->n - w), l->p + w);
		}
		if (!(p = fresh(j + 64 + (size_t)n)))
			return;
		n = snprintf((char *)p, j + 64 + (size_t)n, "%.*s . %u %08x %s", (int)j, l->p, count,
			     crc, tail);
		ln[i] = (struct line){ p, (uint32_t)n };
		cur = 0;
	}
}

static void fix(void)
{
	uint32_t i, seq = 0;
	int renumber = rnd(2), first = 1;

	for (i = 0; i < nln; i++) {
		if (starts(&ln[i], "XM w ")) {
			if (first && renumber) {	/* counting on from the first line's */
				char s[8] = "";

				memcpy(s, ln[i].p + 5, ln[i].n - 5 < 7 ? ln[i].n - 5 : 7);
				seq = (uint32_t)strtoul(s, NULL, 16);
			}
			first = 0;
			fix_watch(i, renumber, &seq);
		} else if (starts(&ln[i], "XM begin ") || starts(&ln[i], "XM end ")) {
			fix_header(i);
		}
	}
	fix_chunks();
}

/* ---- the mutators ---- */

size_t fz_mutate(uint8_t *data, size_t size, size_t max, unsigned seed)
{
	uint32_t steps, s;

	rs = (uint64_t)seed * 0x9e3779b97f4a7c15u + 1;
	if (size == 0 || rnd(4) == 0)	/* bytes, as libFuzzer changes them */
		return LLVMFuzzerMutate(data, size, max);
	split(data, size);
	for (steps = 1 + rnd(3), s = 0; s < steps && nln; s++) {
		uint32_t i = pick(), j = rnd(nln), k;

		switch (rnd(9)) {
		case 0: drop(i); break;
		case 1: insert(rnd(2) ? i + 1 : j, ln[i]); break;
		case 2: {	/* two swapped, mostly neighbours */
			struct line t = ln[i];

			j = rnd(2) && i + 1 < nln ? i + 1 : j;
			ln[i] = ln[j];
			ln[j] = t;
			break;
		}
		case 3:	/* a run of lines moved */
			for (k = 1 + rnd(8); k-- > 0 && i < nln;) {
				struct line t = ln[i];

				drop(i);
				insert(j < nln ? j : nln, t);
			}
			break;
		case 4:	/* cut short, or the log cut after it */
			if (rnd(3))
				ln[i].n = ln[i].n ? rnd(ln[i].n) : 0;
			else
				nln = i + 1;
			break;
		default: field(i); break;
		}
	}
	if (rnd(4))	/* mostly, the checks made to pass: the readers' logic is what is tried */
		fix();
	for (steps = rnd(4) ? 0 : 1 + rnd(2), s = 0; s < steps && nln; s++)
		noise(pick());	/* then what a console does, which the checks do not see */
	return join(data, max);
}

size_t fz_cross(const uint8_t *a, size_t na, const uint8_t *b, size_t nb, uint8_t *out,
		size_t max, unsigned seed)
{
	size_t ka, kb, o;

	rs = (uint64_t)seed * 0x9e3779b97f4a7c15u + 7;
	/* a's head and b's tail, each cut after a line: two logs joined */
	ka = na ? rnd((uint32_t)na) : 0;
	while (ka < na && a[ka] != '\n')
		ka++;
	ka += ka < na;
	kb = nb ? rnd((uint32_t)nb) : 0;
	while (kb > 0 && b[kb - 1] != '\n')
		kb--;
	if (ka > max)
		ka = max;
	memcpy(out, a, ka);
	o = nb - kb < max - ka ? nb - kb : max - ka;
	memcpy(out + ka, b + kb, o);
	return ka + o;
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max, unsigned seed)
{
	return fz_mutate(data, size, max, seed);
}

size_t LLVMFuzzerCustomCrossOver(const uint8_t *a, size_t na, const uint8_t *b, size_t nb,
				 uint8_t *out, size_t max, unsigned seed)
{
	return fz_cross(a, na, b, nb, out, max, seed);
}
