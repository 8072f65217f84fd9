/* Captures: the wire format that dump and load share (escapes, CRC-32, the header line). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "capture.h"
#include "cgroup.h"

const char cap_run_letter[] = "hzesw";

static uint32_t crc_tab[256];

uint32_t cap_crc32(uint32_t crc, const char *p, size_t n)
{
	size_t i;

	if (!crc_tab[1]) {
		for (uint32_t k = 0; k < 256; k++) {
			uint32_t c = k;

			for (int j = 0; j < 8; j++)
				c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
			crc_tab[k] = c;
		}
	}
	crc = ~crc;
	for (i = 0; i < n; i++)
		crc = crc_tab[(crc ^ (unsigned char)p[i]) & 0xff] ^ (crc >> 8);
	return ~crc;
}

uint32_t cap_count_chunks(uint32_t ids)
{
	return ids / CAP_IDS_CHUNK + (ids % CAP_IDS_CHUNK != 0);
}

/* The chunk numbers where the share counts and the processes start. */
uint32_t cap_first_count(const struct cap_header *h)
{
	return h->version == 1 ? h->procs + 1 : 3;
}

uint32_t cap_first_proc(const struct cap_header *h)
{
	return h->version == 1 ? 1 : 3 + cap_count_chunks(h->ids);
}

/* How many chunks a capture of these parameters has. */
uint32_t cap_nchunks(const struct cap_header *h)
{
	uint64_t n = (uint64_t)h->procs + cap_count_chunks(h->ids) + 1 + 2 * (h->version != 1);

	return n > UINT32_MAX ? UINT32_MAX : (uint32_t)n;
}

int cap_chunk_kind(const struct cap_header *h, uint32_t k)
{
	uint32_t c = cap_first_count(h), p = cap_first_proc(h);

	if (k >= c && k - c < cap_count_chunks(h->ids))
		return CK_COUNT;
	if (k >= p && k - p < h->procs)
		return CK_PROC;
	if (h->version != 1 && k <= 2)
		return k == 1 ? CK_ABSENT : CK_RAM;
	return CK_BID;
}

size_t cap_header_text(char *buf, size_t len, const struct cap_header *h)
{
	return fmt_snprintf(buf, len, "v%d ps=%llu chunks=%u ids=%u procs=%u vanished=%u "
			    "empty=%u unreadable=%u id=%016llx src=%s uname=%s", h->version,
			    (unsigned long long)h->ps, h->chunks, h->ids, h->procs, h->vanished,
			    h->empty, h->unreadable, (unsigned long long)h->id, h->src, h->uname);
}

/* Bytes outside '!'..'~', '%' and ',' (a watch log's separator), as %XX; the
 * empty string as a lone %. */
size_t cap_escape(char *to, size_t room, const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	size_t o = 0, i;

	if (n == 0 && room > 1) {
		to[o++] = '%';
	}
	for (i = 0; i < n && o + 4 < room; i++) {
		unsigned char c = s[i];

		if (c > ' ' && c < 0x7f && c != '%' && c != ',') {
			to[o++] = c;
		} else {
			to[o++] = '%';
			to[o++] = hex[c >> 4];
			to[o++] = hex[c & 15];
		}
	}
	if (i < n)
		die("internal: capture field too long to escape");
	to[o] = '\0';
	return o;
}

/* s escaped into buf ("%" when empty or NULL). */
const char *cap_esc(char *buf, size_t len, const char *s)
{
	cap_escape(buf, len, s ? s : "", s ? strlen(s) : 0);
	return buf;
}

/* One capture line made from fmt, given to line (cut at the buffer's end). */
void cap_emit(void (*line)(const char *, size_t), const char *fmt, ...)
{
	static char buf[2048];	/* the longest: a dma-buf's, its names escaped */
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = fmt_vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	line(buf, (size_t)n < sizeof(buf) ? (size_t)n : sizeof(buf) - 1);
}

/* Undo cap_escape(): into to[room], NUL-terminated; -1 if malformed. */
int cap_unescape(const char *s, char *to, size_t room, size_t *n)
{
	size_t o = 0;

	if (strcmp(s, "%") == 0) {
		*to = '\0';
		*n = 0;
		return 0;
	}
	for (; *s; s++) {
		uint64_t v;
		char h[3];

		if (o + 1 >= room)
			return -1;
		if (*s != '%') {
			to[o++] = *s;
			continue;
		}
		if (!s[1] || !s[2])
			return -1;
		h[0] = s[1];
		h[1] = s[2];
		h[2] = '\0';
		if (hex_parse(h, 255, &v) < 0)
			return -1;
		to[o++] = (char)v;
		s += 2;
	}
	to[o] = '\0';
	*n = o;
	return 0;
}

/* Split off the next space-separated field; NULL when there is none. */
char *cap_field(char **p)
{
	char *s = *p, *e;

	if (!s || !*s)
		return NULL;
	e = strchr(s, ' ');
	if (e) {
		*e = '\0';
		*p = e + 1;
	} else {
		*p = NULL;
	}
	return s;
}

/* "v2 ps=4096 ... crc=<8 hex digits>": the header, if the line is whole (v1 or v2). */
int cap_parse_header(const char *text, struct cap_header *h, int *version)
{
	static const char *const keys[] = {
		"ps", "chunks", "ids", "procs", "vanished", "empty", "unreadable",
	};
	static char buf[1024];
	const char *crc = find_str(text, " crc=");
	char *p = buf, *f;
	uint64_t v, want;
	size_t i, n;

	*version = 0;
	for (i = 1; text[0] == 'v' && text[i] >= '0' && text[i] <= '9' && i < 6; i++)
		*version = *version * 10 + text[i] - '0';
	if (!crc || (n = crc - text) >= sizeof(buf) || hex_parse(crc + 5, UINT32_MAX, &want) < 0 ||
	    cap_crc32(0, text, n) != want)
		return -1;
	memcpy(buf, text, n);
	buf[n] = '\0';
	memset(h, 0, sizeof(*h));
	if (!(f = cap_field(&p)) || (strcmp(f, "v1") != 0 && strcmp(f, "v2") != 0))
		return -1;
	h->version = f[1] - '0';
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		size_t kl = strlen(keys[i]);

		if (!(f = cap_field(&p)) || strncmp(f, keys[i], kl) != 0 || f[kl] != '=' ||
		    parse_u64(f + kl + 1, i == 0 ? UINT64_MAX : UINT32_MAX - 1, &v) < 0)
			return -1;
		switch (i) {
		case 0: h->ps = v; break;
		case 1: h->chunks = v; break;
		case 2: h->ids = v; break;
		case 3: h->procs = v; break;
		case 4: h->vanished = v; break;
		case 5: h->empty = v; break;
		case 6: h->unreadable = v; break;
		}
	}
	if (!(f = cap_field(&p)) || strncmp(f, "id=", 3) != 0 || strlen(f + 3) != 16 ||
	    hex_parse(f + 3, UINT64_MAX, &h->id) < 0)
		return -1;
	if (!(f = cap_field(&p)) || strncmp(f, "src=", 4) != 0 || strlen(f + 4) >= sizeof(h->src))
		return -1;
	strcpy(h->src, f + 4);
	if (!(f = cap_field(&p)) || strncmp(f, "uname=", 6) != 0 ||
	    strlen(f + 6) >= sizeof(h->uname) || p)
		return -1;
	strcpy(h->uname, f + 6);
	if (h->ps < 1024 || h->ps > CAP_PS_MAX || (h->ps & (h->ps - 1)) ||
	    cap_nchunks(h) != h->chunks)
		return -1;
	return 0;
}

#ifndef EXMAP_NO_CGROUPS
const char *const cg_state_word[CG_NSTATE] = {
	"ok", "root", "nomem", "gone", "outside", "nomount", "unreadable",
};

/*
 * "y HIER STATE CHARGED ANON FILE SHMEM PATH": a process's cgroup, in its
 * chunk after its p line, with that cgroup's charge at the dump (bytes in
 * hex, - where not known): the charge of a cgroup goes with each of its
 * processes, so that a chunk lost takes nothing else with it.
 */
size_t cap_cgroup_text(char *buf, size_t room, const char *path, const struct cgcharge *c)
{
	size_t n = (size_t)fmt_snprintf(buf, room, "y %u %s", c->hier, cg_state_word[c->state]);
	int k;

	for (k = 0; k < CH_N; k++)
		n += (size_t)fmt_snprintf(buf + n, room - n, c->known & 1u << k ? " %llx" : " -",
					  (unsigned long long)c->v[k]);
	buf[n++] = ' ';
	return n + cap_escape(buf + n, room - n, path, strlen(path));
}

/* The fields after "y ", into a cgroup of the arena: 0, or -1 if malformed. */
int cap_cgroup_parse(char *p, struct arena *a, struct cgproc **out)
{
	static char path[PATH_BUF + 16];
	struct cgproc *c;
	char *f[7];
	uint64_t v;
	size_t n;
	int i;

	for (i = 0; i < 7; i++)
		if (!(f[i] = cap_field(&p)))
			return -1;
	if (p || hex_parse(f[0], CG_V2, &v) < 0 || cap_unescape(f[6], path, sizeof(path), &n) < 0 ||
	    n >= PATH_BUF)
		return -1;
	c = arena_alloc(a, sizeof(*c), 8);
	memset(c, 0, sizeof(*c));
	c->charge.hier = (uint8_t)v;
	for (i = 0; i < CG_NSTATE && strcmp(f[1], cg_state_word[i]) != 0; i++)
		;
	if (i == CG_NSTATE)
		return -1;
	c->charge.state = (uint8_t)i;
	for (i = 0; i < CH_N; i++) {
		if (strcmp(f[2 + i], "-") == 0)
			continue;
		if (hex_parse(f[2 + i], UINT64_MAX, &c->charge.v[i]) < 0)
			return -1;
		c->charge.known |= 1u << i;
	}
	c->path = arena_strdup(a, path, n);
	c->loaded = 1;
	*out = c;
	return 0;
}
#endif
