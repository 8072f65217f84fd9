/*
 * Captures. dump writes a scan as lines of printable ASCII, "XM CHUNK ...":
 * a chunk per process (its mappings and their run records), chunks of page
 * share counts, a chunk of build-ids, each closed by its line count and
 * CRC-32, between a begin and an end line that both carry the parameters.
 * load picks those lines out of a raw console log (kernel messages, CRLF,
 * prompts, a printk cutting a line in two) and rebuilds the scan; a chunk
 * that does not verify is left out, named, and what it held is said.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "exmap.h"

#define CAP_VERSION	1
#define CAP_IDS_CHUNK	8192	/* share counts per chunk */
#define CAP_WRAP	100	/* run and count lines are ended past this length */
#define CAP_LINE_MAX	16384	/* longest capture line: an escaped path and more */

/* Chunk kinds, from the chunk number: processes, counts, then build-ids. */
enum { CK_PROC, CK_COUNT, CK_BID };

static const char run_letter[] = "hzesw";	/* by run kind; capitals: written */

static uint32_t crc_tab[256];

static uint32_t crc32_add(uint32_t crc, const char *p, size_t n)
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

/* The parameters both the begin and the end line carry. */
struct header {
	uint64_t ps;
	uint32_t chunks, ids, procs, vanished, empty, unreadable;
	uint64_t id;		/* this capture's, so that two are never mixed */
	char src[32];
	char uname[160];	/* escaped */
};

static uint32_t count_chunks(uint32_t ids)
{
	return ids / CAP_IDS_CHUNK + (ids % CAP_IDS_CHUNK != 0);
}

static int chunk_kind(const struct header *h, uint32_t k)
{
	return k <= h->procs ? CK_PROC : k <= h->procs + count_chunks(h->ids) ? CK_COUNT : CK_BID;
}

static size_t header_text(char *buf, size_t len, const struct header *h)
{
	return snprintf(buf, len, "v%d ps=%llu chunks=%u ids=%u procs=%u vanished=%u "
			"empty=%u unreadable=%u id=%016llx src=%s uname=%s", CAP_VERSION,
			(unsigned long long)h->ps, h->chunks, h->ids, h->procs, h->vanished,
			h->empty, h->unreadable, (unsigned long long)h->id, h->src, h->uname);
}

/* Bytes outside '!'..'~', and '%', as %XX; the empty string as a lone %. */
static size_t escape(char *to, size_t room, const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	size_t o = 0, i;

	if (n == 0 && room > 1) {
		to[o++] = '%';
	}
	for (i = 0; i < n && o + 4 < room; i++) {
		unsigned char c = s[i];

		if (c > ' ' && c < 0x7f && c != '%') {
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

/* ---- dump ---- */

struct writer {
	uint32_t chunk, lines, crc;
	size_t len;
	char buf[CAP_LINE_MAX];
};
static struct writer W;

static void w_add(const char *s, size_t n)
{
	if (n > sizeof(W.buf) - 1 - W.len)
		die("internal: capture line too long");
	memcpy(W.buf + W.len, s, n);
	W.len += n;
}

static void w_addf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void w_addf(const char *fmt, ...)
{
	char tmp[128];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(tmp))
		die("internal: capture field too long");
	w_add(tmp, n);
}

static void w_esc(const char *s, size_t n)
{
	static char tmp[3 * 4096 + 8];

	if (n > 4096)
		n = 4096;	/* paths are at most PATH_MAX; cmdlines are cut there */
	w_add(tmp, escape(tmp, sizeof(tmp), s, n));
}

/* Send the line built in W.buf as part of the current chunk. */
static void w_line(void)
{
	char tag[24];

	W.buf[W.len++] = '\n';
	W.crc = crc32_add(W.crc, W.buf, W.len);
	out(tag, snprintf(tag, sizeof(tag), "XM %u ", W.chunk));
	out(W.buf, W.len);
	W.lines++;
	W.len = 0;
}

static void w_begin_chunk(void)
{
	W.chunk++;
	W.lines = 0;
	W.crc = 0;
	W.len = 0;
}

static void w_end_chunk(const char *what)
{
	outf("XM %u . %u %08x %s\n", W.chunk, W.lines, W.crc, what);
}

/* A token for a run; ids named only when they do not continue from hwm. */
static void w_run(const struct run *r, uint32_t *hwm)
{
	uint32_t kind = r->nk >> RUN_KIND_SHIFT & 7, n = r->nk & RUN_N_MASK;
	char c = run_letter[kind];

	if (r->nk & RUN_WRITE)
		c -= 'a' - 'A';
	if (W.len > CAP_WRAP)
		w_line();
	if (W.len == 0)
		w_add("r", 1);
	if (kind != RUN_SHARED && kind != RUN_SWAP) {
		w_addf(" %c%x", c, n);
		return;
	}
	if (r->id == *hwm)
		w_addf(" %c%x", c, n);
	else
		w_addf(" %c%x:%x", c, n, r->id);
	if (r->id + n > *hwm)
		*hwm = r->id + n;
}

static void dump_proc(const struct scan *s, const struct proc *p, uint32_t *hwm)
{
	const struct mapping *m;
	char what[32];

	w_begin_chunk();
	w_addf("p %d %x ", (int)p->pid, *hwm);
	w_esc(p->name, strlen(p->name));
	w_add(" ", 1);
	w_esc(p->cmdline ? p->cmdline : "", p->cmdlen);
	w_line();
	for (m = p->map; m; m = m->next) {
		char perms[5] = {
			m->flags & MF_READ ? 'r' : '-', m->flags & MF_WRITE ? 'w' : '-',
			m->flags & MF_EXEC ? 'x' : '-', m->flags & MF_SHARED ? 's' : 'p', 0,
		};

		w_addf("m %llx %llx %s %llx %x %llx %x ", (unsigned long long)m->start,
		       (unsigned long long)m->end, perms, (unsigned long long)m->offset,
		       m->dev, (unsigned long long)m->inode,
		       m->flags & (MF_DEVICE | MF_DELETED | MF_TRUNCATED));
		w_esc(m->path, strlen(m->path));
		w_line();
		for (uint32_t i = 0; i < m->nrun; i++)
			w_run(scan_run(s, m->run0 + i), hwm);
		if (W.len)
			w_line();
	}
	snprintf(what, sizeof(what), "pid=%d", (int)p->pid);
	w_end_chunk(what);
}

static void dump_counts(const struct scan *s, uint32_t first)
{
	uint32_t end = s->pt.n - first > CAP_IDS_CHUNK ? first + CAP_IDS_CHUNK : s->pt.n;
	uint32_t i = first;
	char what[48];

	w_begin_chunk();
	w_addf("c %x %x", first, end - first);
	w_line();
	while (i < end) {
		uint32_t c = s->pt.count[i], j = i + 1;

		while (j < end && s->pt.count[j] == c)
			j++;
		if (W.len > CAP_WRAP)
			w_line();
		if (W.len == 0)
			w_add("n", 1);
		if (j - i > 1)
			w_addf(" %x*%x", c, j - i);
		else
			w_addf(" %x", c);
		i = j;
	}
	if (W.len)
		w_line();
	snprintf(what, sizeof(what), "ids=%x-%x", first, end - 1);
	w_end_chunk(what);
}

/* The build-id of file f, read through the first process mapping it. */
static int file_buildid(const struct scan *s, uint32_t index, unsigned char *id, size_t *len)
{
	static struct elf e;
	const struct mapping *m = NULL;
	const char *why;
	char dir[32];
	uint64_t size;
	uint32_t i;
	int piddir, fd, r = -1;

	for (i = 0; i < s->nproc && !m; i++)
		for (m = s->procs[i]->map; m && m->file != index; m = m->next)
			;
	if (!m)
		return -1;
	snprintf(dir, sizeof(dir), "/proc/%d", (int)s->procs[i - 1]->pid);
	if ((piddir = openat(AT_FDCWD, dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		return -1;
	fd = open_mapped(piddir, m, &size, &why);
	close(piddir);
	if (fd < 0)
		return -1;
	if (elf_open_fd(&e, fd, size) == 0 && elf_buildid(&e, id, len) == 0 && *len)
		r = 0;
	close(fd);
	return r;
}

static void dump_buildids(struct scan *s)
{
	static unsigned char id[ELF_BUILDID_MAX];
	struct file *files;
	uint32_t nfile, i;

	files = files_build(s, &nfile);
	w_begin_chunk();
	for (i = 0; i < nfile; i++) {
		const struct file *f = &files[i];
		size_t len, k;

		if (f->path[0] != '/' || (f->flags & MF_DEVICE) ||
		    file_buildid(s, i, id, &len) < 0)
			continue;
		w_addf("b %x %llx %x ", f->dev, (unsigned long long)f->inode,
		       f->flags & MF_DELETED);
		for (k = 0; k < len; k++)
			w_addf("%02x", id[k]);
		w_add(" ", 1);
		w_esc(f->path, strlen(f->path));
		w_line();
	}
	w_end_chunk("buildids");
}

void dump_capture(struct scan *s)
{
	struct header h = { .ps = s->page_size, .ids = s->pt.n, .procs = s->nproc,
			    .vanished = s->vanished, .empty = s->empty,
			    .unreadable = s->unreadable };
	char text[512], un[160];
	struct utsname u;
	struct timespec ts;
	uint32_t hwm = 0, i;
	size_t n;

	h.chunks = h.procs + count_chunks(h.ids) + 1;
	/* the time and our pid: no two captures share it */
	if (clock_gettime(CLOCK_REALTIME, &ts) == 0)
		h.id = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	h.id = h.id << 8 ^ (uint64_t)getpid();
	escape(h.src, sizeof(h.src), s->src->name, strlen(s->src->name));
	if (uname(&u) == 0)
		snprintf(un, sizeof(un), "%.40s %.40s %.60s", u.machine, u.release, u.nodename);
	else
		un[0] = '\0';
	escape(h.uname, sizeof(h.uname), un, strlen(un));
	n = header_text(text, sizeof(text), &h);
	outf("XM begin %s crc=%08x\n", text, crc32_add(0, text, n));
	for (i = 0; i < s->nproc; i++)
		dump_proc(s, s->procs[i], &hwm);
	for (i = 0; i < s->pt.n; i += CAP_IDS_CHUNK)
		dump_counts(s, i);
	dump_buildids(s);
	outf("XM end %s crc=%08x\n", text, crc32_add(0, text, n));
	out_flush();
}

/* ---- load ---- */

enum { CS_UNSEEN, CS_OK, CS_BAD };

struct chunkstate {
	uint8_t state;
	int32_t pid;		/* a process chunk's, once known; -1 unknown */
	uint64_t first, last;	/* log lines it spans */
	uint64_t line;		/* the first line that did not parse, or 0 */
	uint32_t got, want;	/* lines, when the count is off */
	const char *why;
};

struct loader {
	struct scan *s;
	struct capture *cap;
	const char *path;
	struct header h;
	struct chunkstate *cs;	/* by chunk number, from 1 */
	struct linebuf lb;
	uint64_t lineno;	/* of the log, from 1 */
	int have_peek;
	/* the open chunk */
	uint32_t cur, lines, crc;
	uint64_t opened;
	int bad, stray;
	const char *why;
	uint64_t why_line;
	size_t lo, hi;
	uint64_t nrun;
	struct proc *last;
	uint32_t nproc;
	struct capbid *bid;
	/* parsing inside it */
	struct proc *p;
	struct mapping **tail, *m;
	uint64_t left;		/* pages of mapping m not yet in runs */
	uint32_t hwm, cfirst, cn, cgot;
	uint32_t loaded_procs;
};

static char raw[CAP_LINE_MAX], peek[CAP_LINE_MAX], joined[2 * CAP_LINE_MAX];
static size_t peek_len;

static _Noreturn void die_damaged(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static _Noreturn void die_damaged(const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	warnx("%s", buf);
	out_flush();
	_exit(EX_DAMAGED);
}

/* The next line of the log, CRs stripped; a line too long is cut (and marked by its length). */
static int raw_line(struct loader *L, char *buf, size_t *len)
{
	int toolong, r;

	if (L->have_peek) {
		L->have_peek = 0;
		memcpy(buf, peek, peek_len + 1);
		*len = peek_len;
		return 1;
	}
	r = lb_next(&L->lb, buf, CAP_LINE_MAX, len, &toolong);
	if (r < 0)
		dierr(-r, "%s: read error", L->path);
	if (r == 0)
		return 0;
	L->lineno++;
	while (*len && buf[*len - 1] == '\r')
		buf[--*len] = '\0';
	if (toolong)
		*len = CAP_LINE_MAX;	/* never a capture line: it fails its chunk */
	return 1;
}

/* A console timestamp, "[   12.345678] ": a kernel message starts here. */
static int printk_at(const char *p)
{
	const char *q;

	if (*p++ != '[')
		return 0;
	while (*p == ' ')
		p++;
	for (q = p; *p >= '0' && *p <= '9'; p++)
		;
	if (p == q || *p++ != '.')
		return 0;
	for (q = p; *p >= '0' && *p <= '9'; p++)
		;
	return p - q == 6 && p[0] == ']' && p[1] == ' ';
}

/* The first kernel message at or after p, or NULL. */
static char *printk_in(char *p)
{
	for (; (p = strchr(p, '[')) != NULL; p++)
		if (printk_at(p))
			return p;
	return NULL;
}

/*
 * The next capture line, from "XM " on, in joined[]. A kernel message that
 * cut it (even inside the "XM ") ends it early: the rest of it is the next
 * line that is not a kernel message. The chunk's checksum vouches for the join.
 */
static const char *next_tagged(struct loader *L, uint64_t *at)
{
	char *t, *cut;
	size_t len, n;

	for (;;) {
		if (!raw_line(L, raw, &len))
			return NULL;
		if (len >= CAP_LINE_MAX)
			continue;
		if ((t = (char *)find_str(raw, "XM ")) != NULL) {
			cut = printk_in(t + 3);
		} else {
			if (!(cut = printk_in(raw + 1)))
				continue;
			if (cut - raw >= 2 && cut[-2] == 'X' && cut[-1] == 'M')
				t = cut - 2;
			else if (cut[-1] == 'X')
				t = cut - 1;
			else
				continue;
		}
		*at = L->lineno;
		n = cut ? (size_t)(cut - t) : len - (size_t)(t - raw);
		memcpy(joined, t, n);
		joined[n] = '\0';
		while (cut && raw_line(L, raw, &len)) {
			if (len >= CAP_LINE_MAX || printk_at(raw))
				continue;	/* more kernel messages */
			if (strncmp(raw, "XM ", 3) == 0) {
				/* the cut was at the line's end */
				memcpy(peek, raw, len + 1);
				peek_len = len;
				L->have_peek = 1;
				break;
			}
			if (n + len >= sizeof(joined))
				break;	/* no capture line is this long: its chunk fails */
			memcpy(joined + n, raw, len + 1);
			/* the rest may be cut again */
			if ((cut = printk_in(joined + n)) != NULL)
				*cut = '\0';
			n = strlen(joined);
		}
		if (strncmp(joined, "XM ", 3) == 0)
			return joined;
	}
}

/* Strict hex, lowercase as dump writes it, no sign, at most max. */
static int hex(const char *s, uint64_t max, uint64_t *v)
{
	uint64_t x = 0;

	if (!*s)
		return -1;
	for (; *s; s++) {
		int d = *s >= '0' && *s <= '9' ? *s - '0' : *s >= 'a' && *s <= 'f' ? *s - 'a' + 10 : -1;

		if (d < 0 || x > (UINT64_MAX - d) / 16)
			return -1;
		x = x * 16 + d;
	}
	if (x > max)
		return -1;
	*v = x;
	return 0;
}

/* Split off the next space-separated field; NULL when there is none. */
static char *field(char **p)
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

/* Undo escape(): into to[room], NUL-terminated; -1 if malformed. */
static int unescape(const char *s, char *to, size_t room, size_t *n)
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
		if (hex(h, 255, &v) < 0)
			return -1;
		to[o++] = (char)v;
		s += 2;
	}
	to[o] = '\0';
	*n = o;
	return 0;
}

/* "v1 ps=4096 ... crc=<8 hex digits>": the header, if the line is whole. */
static int parse_header(const char *text, struct header *h, int *version)
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
	if (!crc || (n = crc - text) >= sizeof(buf) || hex(crc + 5, UINT32_MAX, &want) < 0 ||
	    crc32_add(0, text, n) != want)
		return -1;
	memcpy(buf, text, n);
	buf[n] = '\0';
	memset(h, 0, sizeof(*h));
	if (!(f = field(&p)) || strcmp(f, "v1") != 0)
		return -1;
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		size_t kl = strlen(keys[i]);

		if (!(f = field(&p)) || strncmp(f, keys[i], kl) != 0 || f[kl] != '=' ||
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
	if (!(f = field(&p)) || strncmp(f, "id=", 3) != 0 || strlen(f + 3) != 16 ||
	    hex(f + 3, UINT64_MAX, &h->id) < 0)
		return -1;
	if (!(f = field(&p)) || strncmp(f, "src=", 4) != 0 || strlen(f + 4) >= sizeof(h->src))
		return -1;
	strcpy(h->src, f + 4);
	if (!(f = field(&p)) || strncmp(f, "uname=", 6) != 0 || strlen(f + 6) >= sizeof(h->uname) ||
	    p)
		return -1;
	strcpy(h->uname, f + 6);
	if (h->ps < 1024 || h->ps > (1u << 30) || (h->ps & (h->ps - 1)) ||
	    (uint64_t)h->procs + count_chunks(h->ids) + 1 != h->chunks)
		return -1;
	return 0;
}

/* The open chunk cannot be used: keep the first reason, and where. */
static int fail(struct loader *L, const char *why)
{
	if (!L->bad) {
		L->bad = 1;
		L->why = why;
		L->why_line = L->lineno;
	}
	return -1;
}

static void open_chunk(struct loader *L, uint32_t k)
{
	struct scan *s = L->s;

	L->cur = k;
	L->lines = 0;
	L->crc = 0;
	L->opened = L->lineno;
	L->bad = 0;
	L->why = NULL;
	L->stray = L->cs[k].state == CS_OK;
	L->lo = s->arena->lo;
	L->hi = s->arena->hi;
	L->nrun = s->nrun;
	L->last = s->last;
	L->nproc = s->nproc;
	L->bid = L->cap->bid;
	L->p = NULL;
	L->m = NULL;
	L->left = 0;
	L->cgot = 0;
	L->cn = 0;
}

/* Take back what a chunk that failed had added. */
static void roll_back(struct loader *L)
{
	struct scan *s = L->s;

	s->arena->lo = L->lo;
	s->arena->hi = L->hi;
	s->nrun = L->nrun;
	s->last = L->last;
	s->nproc = L->nproc;
	if (s->last)
		s->last->next = NULL;
	else
		s->first = NULL;
	L->cap->bid = L->bid;
}

/* Close the open chunk: commit it if whole, or record why not. */
/*
 * Close the open chunk: commit it if whole, or record why not. What went
 * wrong with the lines (cut short, a line missing, the checksum) says more
 * than a line that did not parse because of it, which is kept as a pointer.
 */
/*
 * Whether the mapping read last lacks runs for some of its pages. Captures
 * before device mappings were read page by page hold none for those.
 */
static int pages_missing(const struct loader *L)
{
	return L->left && !(L->m && (L->m->flags & MF_DEVICE) && L->m->nrun == 0);
}

static void close_chunk(struct loader *L, int ended, uint32_t want, uint32_t crc)
{
	struct chunkstate *c = &L->cs[L->cur];
	int kind = chunk_kind(&L->h, L->cur);
	const char *why = NULL;

	if (!ended)
		why = "cut short: its end line is missing";
	else if (want != L->lines)
		why = want > L->lines ? "lines are missing" : "it has more lines than it should";
	else if (crc != L->crc)
		why = "checksum mismatch: a line is damaged";
	else if (L->bad)
		why = L->why;	/* whole, yet malformed: not written by dump */
	else if (kind == CK_PROC && (!L->p || pages_missing(L)))
		why = L->p ? "its last mapping's pages are missing" : "no process line";
	else if (kind == CK_COUNT && L->cgot != L->cn)
		why = "share counts are missing";
	if (L->stray) {
		if (why)
			warnx("%s: log lines %llu-%llu name chunk %u, which loaded whole: "
			      "ignored (%s)", L->path, (unsigned long long)L->opened,
			      (unsigned long long)L->lineno, L->cur, why);
		else
			warnx("%s: chunk %u appears twice: the first copy is kept", L->path,
			      L->cur);
		roll_back(L);
	} else if (why) {
		roll_back(L);
		c->state = CS_BAD;
		c->why = why;
		c->first = L->opened;
		c->last = L->lineno;
		c->line = L->bad && why != L->why ? L->why_line : 0;
		c->got = L->lines;
		c->want = ended ? want : 0;
		if (L->p)
			c->pid = L->p->pid;
	} else {
		c->state = CS_OK;
		if (kind == CK_PROC)
			L->loaded_procs++;
	}
	L->cur = 0;
}

static int parse_proc(struct loader *L, char *p)
{
	static char tmp[CMDLINE_MAX + 8];
	struct scan *s = L->s;
	char *f[4];
	uint64_t pid, hwm;
	size_t n;
	int i;

	for (i = 0; i < 4; i++)
		if (!(f[i] = field(&p)))
			return fail(L, "a process line is short");
	if (p || L->p || parse_u64(f[0], INT32_MAX, &pid) < 0 || pid == 0 ||
	    hex(f[1], L->h.ids, &hwm) < 0)
		return fail(L, "a process line is malformed");
	L->p = arena_alloc(s->arena, sizeof(*L->p), 8);
	memset(L->p, 0, sizeof(*L->p));
	L->p->pid = (pid_t)pid;
	L->hwm = (uint32_t)hwm;
	if (unescape(f[2], tmp, NAME_MAX_COMM, &n) < 0)
		return fail(L, "a process name is malformed");
	memcpy(L->p->name, tmp, n + 1);
	if (unescape(f[3], tmp, sizeof(tmp), &n) < 0 || n > CMDLINE_MAX)
		return fail(L, "a command line is malformed");
	L->p->cmdline = arena_strdup(s->arena, tmp, n);
	L->p->cmdlen = n;
	L->tail = &L->p->map;
	if (s->last)
		s->last->next = L->p;
	else
		s->first = L->p;
	s->last = L->p;
	s->nproc++;
	return 0;
}

static int parse_map(struct loader *L, char *p)
{
	static char path[4096 + 16];
	struct scan *s = L->s;
	struct mapping *m;
	uint64_t v[7];
	char *f[8];
	size_t n;
	int i;

	if (!L->p || pages_missing(L))
		return fail(L, L->p ? "a mapping's pages are missing" : "a mapping before its process");
	for (i = 0; i < 8; i++)
		if (!(f[i] = field(&p)))
			return fail(L, "a mapping line is short");
	if (p || strlen(f[2]) != 4 || hex(f[0], UINT64_MAX, &v[0]) < 0 ||
	    hex(f[1], UINT64_MAX, &v[1]) < 0 || hex(f[3], UINT64_MAX, &v[3]) < 0 ||
	    hex(f[4], UINT32_MAX, &v[4]) < 0 || hex(f[5], UINT64_MAX, &v[5]) < 0 ||
	    hex(f[6], MF_DEVICE | MF_DELETED | MF_TRUNCATED, &v[6]) < 0 ||
	    unescape(f[7], path, sizeof(path), &n) < 0)
		return fail(L, "a mapping line is malformed");
	if (v[0] >= v[1] || (v[0] | v[1]) & (s->page_size - 1) ||
	    (L->m && v[0] < L->m->end))
		return fail(L, "a mapping's addresses are impossible");
	m = arena_alloc(s->arena, sizeof(*m), 8);
	memset(m, 0, sizeof(*m));
	m->start = v[0];
	m->end = v[1];
	m->offset = v[3];
	m->dev = (uint32_t)v[4];
	m->inode = v[5];
	m->flags = (uint32_t)v[6];
	if (f[2][0] == 'r') m->flags |= MF_READ;
	if (f[2][1] == 'w') m->flags |= MF_WRITE;
	if (f[2][2] == 'x') m->flags |= MF_EXEC;
	if (f[2][3] == 's') m->flags |= MF_SHARED;
	m->path = arena_strdup(s->arena, path, n);
	m->fig.vm = m->end - m->start;
	m->run0 = s->nrun;
	L->left = (m->end - m->start) >> s->page_shift;
	*L->tail = m;
	L->tail = &m->next;
	L->m = m;
	L->p->nmap++;
	return 0;
}

static int parse_runs(struct loader *L, char *p)
{
	struct scan *s = L->s;
	char *f;

	if (!L->m)
		return fail(L, "runs before a mapping");
	while ((f = field(&p)) != NULL) {
		const char *k = strchr(run_letter, *f | 0x20), *colon = strchr(f, ':');
		uint32_t kind, wr = *f >= 'A' && *f <= 'Z' ? RUN_WRITE : 0;
		size_t nlen = colon ? (size_t)(colon - f - 1) : strlen(f + 1);
		uint64_t n, id = L->hwm;
		struct run *r;
		char nbuf[16];

		if (!*f || !k || nlen >= sizeof(nbuf))
			return fail(L, "a run is malformed");
		kind = k - run_letter;
		memcpy(nbuf, f + 1, nlen);
		nbuf[nlen] = '\0';
		if (hex(nbuf, RUN_PAGES_MAX, &n) < 0 || n == 0 || n > L->left ||
		    (colon && (kind < RUN_SHARED || hex(colon + 1, UINT32_MAX, &id) < 0)))
			return fail(L, "a run is malformed");
		if (kind >= RUN_SHARED && (id > L->h.ids || n > L->h.ids - id))
			return fail(L, "a run names pages beyond the share counts");
		r = arena_alloc_top(s->arena, sizeof(*r), sizeof(*r));
		r->id = kind >= RUN_SHARED ? (uint32_t)id : 0;
		r->nk = (uint32_t)n | kind << RUN_KIND_SHIFT | wr;
		if (kind >= RUN_SHARED && id + n > L->hwm)
			L->hwm = (uint32_t)(id + n);
		L->m->nrun++;
		s->nrun++;
		L->left -= n;
	}
	return 0;
}

static int parse_counts(struct loader *L, char *p, int first_line)
{
	uint32_t *count = L->s->pt.count;
	uint64_t a, b, c, rep;
	char *f, *star;

	if (first_line) {
		uint32_t k = L->cur - L->h.procs - 1;
		char *x = field(&p), *y = field(&p), *z = field(&p);

		if (!x || strcmp(x, "c") || !y || !z || p || hex(y, UINT32_MAX, &a) < 0 ||
		    hex(z, UINT32_MAX, &b) < 0 || a != (uint64_t)k * CAP_IDS_CHUNK ||
		    b != (L->h.ids - a < CAP_IDS_CHUNK ? L->h.ids - a : CAP_IDS_CHUNK))
			return fail(L, "its first line is not the one expected");
		L->cfirst = (uint32_t)a;
		L->cn = (uint32_t)b;
		return 0;
	}
	if (!(f = field(&p)) || strcmp(f, "n") != 0 || !L->cn)
		return fail(L, "a count line is malformed");
	while ((f = field(&p)) != NULL) {
		if ((star = strchr(f, '*')) != NULL)
			*star = '\0';
		if (hex(f, UINT32_MAX, &c) < 0 || (star && hex(star + 1, UINT32_MAX, &rep) < 0))
			return fail(L, "a count is malformed");
		if (!star)
			rep = 1;
		if (rep == 0 || rep > L->cn - L->cgot)
			return fail(L, "more share counts than the chunk holds");
		/* a second copy of a chunk that loaded must not overwrite it */
		if (L->stray)
			L->cgot += (uint32_t)rep;
		else
			while (rep--)
				count[L->cfirst + L->cgot++] = (uint32_t)c;
	}
	return 0;
}

static int parse_bid(struct loader *L, char *p)
{
	static char path[4096 + 16];
	struct scan *s = L->s;
	struct capbid *b;
	uint64_t dev, ino, fl, v;
	unsigned char *id;
	char *f[6], h[3] = "";
	size_t n, idl, i;

	for (i = 0; i < 6; i++)
		if (!(f[i] = field(&p)))
			return fail(L, "a build-id line is short");
	idl = strlen(f[4]);
	if (p || strcmp(f[0], "b") || hex(f[1], UINT32_MAX, &dev) < 0 ||
	    hex(f[2], UINT64_MAX, &ino) < 0 || hex(f[3], MF_DELETED, &fl) < 0 ||
	    idl == 0 || idl % 2 || idl / 2 > ELF_BUILDID_MAX ||
	    unescape(f[5], path, sizeof(path), &n) < 0)
		return fail(L, "a build-id line is malformed");
	id = arena_alloc(s->arena, idl / 2, 1);
	for (i = 0; i < idl / 2; i++) {
		h[0] = f[4][2 * i];
		h[1] = f[4][2 * i + 1];
		if (hex(h, 255, &v) < 0)
			return fail(L, "a build-id is malformed");
		id[i] = (unsigned char)v;
	}
	b = arena_alloc(s->arena, sizeof(*b), 8);
	b->path = arena_strdup(s->arena, path, n);
	b->dev = (uint32_t)dev;
	b->inode = ino;
	b->flags = (uint32_t)fl;
	b->len = idl / 2;
	b->id = id;
	b->next = L->cap->bid;
	L->cap->bid = b;
	return 0;
}

/* An end line: "N CRC WHAT", after the ". ". */
static void end_line(struct loader *L, char *p)
{
	char *n = field(&p), *c = field(&p), *what = field(&p);
	uint64_t want, crc, pid;

	if (what && strncmp(what, "pid=", 4) == 0 && parse_u64(what + 4, INT32_MAX, &pid) == 0)
		L->cs[L->cur].pid = (int32_t)pid;
	if (!n || !c || !what || p || parse_u64(n, UINT32_MAX, &want) < 0 ||
	    hex(c, UINT32_MAX, &crc) < 0) {
		fail(L, "its end line is damaged");
		want = L->lines;
		crc = L->crc;
	}
	close_chunk(L, 1, (uint32_t)want, (uint32_t)crc);
}

static void chunk_line(struct loader *L, char *payload)
{
	size_t len = strlen(payload);
	int kind = chunk_kind(&L->h, L->cur);

	payload[len] = '\n';
	L->crc = crc32_add(L->crc, payload, len + 1);
	payload[len] = '\0';
	L->lines++;
	if (L->bad)
		return;
	if (kind == CK_COUNT) {
		parse_counts(L, payload, L->lines == 1);
	} else if (kind == CK_BID) {
		parse_bid(L, payload);
	} else if (payload[0] == 'p' && payload[1] == ' ') {
		parse_proc(L, payload + 2);
	} else if (payload[0] == 'm' && payload[1] == ' ') {
		parse_map(L, payload + 2);
	} else if (payload[0] == 'r' && payload[1] == ' ') {
		parse_runs(L, payload + 2);
	} else {
		fail(L, "a line of an unknown kind");
	}
}

/* Read the chunks between the begin line (at line start) and the end line. */
static void read_chunks(struct loader *L, uint64_t start)
{
	const char *t;
	uint64_t at, k, after = 0;
	char *p;

	while (L->lineno < start && raw_line(L, raw, &(size_t){ 0 }))
		;
	while ((t = next_tagged(L, &at)) != NULL) {
		p = (char *)t + 3;
		if (strncmp(p, "end ", 4) == 0)
			break;
		if (strncmp(p, "begin ", 6) == 0)
			continue;
		char *num_end = strchr(p, ' ');

		if (num_end)
			*num_end = '\0';
		if (!num_end || parse_u64(p, UINT32_MAX, &k) < 0 || k == 0 || k > L->h.chunks) {
			warnx("%s: line %llu: a damaged capture line: ignored (its chunk will "
			      "miss it)", L->path, (unsigned long long)at);
			continue;
		}
		p = num_end + 1;
		if (k != L->cur) {
			if (L->cur)
				close_chunk(L, 0, 0, 0);
			open_chunk(L, (uint32_t)k);
		}
		if (p[0] == '.' && p[1] == ' ')
			end_line(L, p + 2);
		else
			chunk_line(L, p);
	}
	if (L->cur)
		close_chunk(L, 0, 0, 0);
	if (!t) {
		warnx("%s: the log ends before the capture's end line: cut short?", L->path);
		return;
	}
	while ((t = next_tagged(L, &at)) != NULL)
		after++;
	if (after)
		warnx("%s: %llu capture lines after its end line are ignored (another capture "
		      "whose begin line is damaged?)", L->path, (unsigned long long)after);
}

/* Where the capture to load starts, and its parameters. */
struct found {
	const char *path;
	struct header h;
	uint64_t begin_line;	/* 0: no begin line seen */
	uint32_t nbegin;
	int begin_bad;		/* the end line stands in */
};

static struct loader LD;
/* What capture_arena_bound found, so that load_capture reads it once more, not twice */
static struct found seen[2];
static uint32_t nseen;

static void find_capture(struct loader *L, int fd, uint64_t size, struct found *F)
{
	struct header hb, he;
	int bok = -1, eok = -1, end_seen = 0, vb = 0, ve = 0;
	const char *t;
	uint64_t at;

	memset(F, 0, sizeof(*F));
	lb_init(&L->lb, fd);
	L->lineno = 0;
	L->have_peek = 0;
	while ((t = next_tagged(L, &at)) != NULL) {
		if (strncmp(t + 3, "begin ", 6) == 0) {
			F->nbegin++;
			F->begin_line = at;
			bok = parse_header(t + 9, &hb, &vb);
			end_seen = 0;
			eok = -1;
		} else if (strncmp(t + 3, "end ", 4) == 0 && !end_seen) {
			end_seen = 1;
			eok = parse_header(t + 7, &he, &ve);
		}
	}
	if (bok < 0 && eok < 0 && (vb > CAP_VERSION || ve > CAP_VERSION))
		die("%s: a capture in format v%d: this exmap-mini reads v%d", L->path,
		    vb > ve ? vb : ve, CAP_VERSION);
	if (bok < 0 && eok < 0) {
		if (!F->nbegin && !end_seen)
			die("%s: no capture in it (no \"XM begin\" line): take one with "
			    "exmap-mini dump", L->path);
		die_damaged("%s: the capture's begin and end lines are both damaged or missing: "
			    "its parameters are lost", L->path);
	}
	if (bok == 0 && eok == 0 && memcmp(&hb, &he, sizeof(hb)) != 0)
		die_damaged("%s: the capture's begin and end lines disagree (two captures "
			    "mixed?)", L->path);
	F->h = bok == 0 ? hb : he;
	/* a chunk takes two lines of 8 bytes at the least */
	if ((uint64_t)F->h.chunks * 16 > size)
		die_damaged("%s: the capture declares %u chunks, more than %llu bytes can hold",
			    L->path, F->h.chunks, (unsigned long long)size);
	F->begin_bad = bok < 0;
	F->path = L->path;
}

static int open_capture(const char *path, uint64_t *size)
{
	struct stat st;
	int fd = openat(AT_FDCWD, path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		dierr(errno, "%s", path);
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
		die("%s: not a regular file (a capture is read twice)", path);
	*size = st.st_size;
	return fd;
}

/* Room for a capture read from a file of this size: far more than it can name. */
uint64_t capture_arena_bound(const char *path)
{
	struct found F;
	uint64_t size;
	int fd = open_capture(path, &size);

	LD.path = path;
	find_capture(&LD, fd, size, &F);
	close(fd);
	if (nseen < sizeof(seen) / sizeof(seen[0]))
		seen[nseen++] = F;
	return (8u << 20) + size * 48 + (uint64_t)F.h.ids * 2 * sizeof(uint32_t) +
	       ((uint64_t)F.h.chunks + 1) * sizeof(struct chunkstate);
}

static void describe(const struct loader *L, uint32_t k, char *buf, size_t len)
{
	const struct chunkstate *c = &L->cs[k];
	uint32_t first;

	switch (chunk_kind(&L->h, k)) {
	case CK_PROC:
		if (c->pid > 0)
			snprintf(buf, len, "pid %d", (int)c->pid);
		else
			snprintf(buf, len, "a process");
		break;
	case CK_COUNT:
		first = (k - L->h.procs - 1) * CAP_IDS_CHUNK;
		snprintf(buf, len, "share counts of pages %u-%u", first,
			 L->h.ids - first < CAP_IDS_CHUNK ? L->h.ids - 1 : first + CAP_IDS_CHUNK - 1);
		break;
	default:
		snprintf(buf, len, "build-ids");
	}
}

static int uses_lost(const struct loader *L, const struct proc *p, const uint8_t *lostc)
{
	const struct mapping *m;

	for (m = p->map; m; m = m->next)
		for (uint32_t i = 0; i < m->nrun; i++) {
			const struct run *r = scan_run(L->s, m->run0 + i);
			uint32_t kind = r->nk >> RUN_KIND_SHIFT & 7, n = r->nk & RUN_N_MASK;

			if (kind >= RUN_SHARED)
				for (uint32_t j = 0; j < n; j++)
					if (lostc[(r->id + j) / CAP_IDS_CHUNK])
						return 1;
		}
	return 0;
}

/* Share counts: every PTE a loaded process holds must be in them. */
static void check_counts(struct loader *L, uint32_t lost_procs, uint8_t *lostc)
{
	struct scan *s = L->s;
	uint32_t *refs = arena_alloc(s->arena, (size_t)L->h.ids * 4 + 4, 4), i;
	struct proc *p, **pp;
	int any_lost = 0;

	for (i = 0; i < count_chunks(L->h.ids); i++)
		any_lost |= lostc[i];
	/* With pages of lost counts and lost processes, shares cannot be known. */
	if (any_lost && lost_procs) {
		for (pp = &s->first, s->last = NULL; (p = *pp) != NULL;) {
			if (uses_lost(L, p, lostc)) {
				warnx("%s: pid %d uses pages whose share counts are lost: left out",
				      L->path, (int)p->pid);
				*pp = p->next;
				s->nproc--;
				L->cap->lost++;
				continue;
			}
			s->last = p;
			pp = &p->next;
		}
	}
	arena_zero(s->arena, refs, (size_t)L->h.ids * 4);
	for (p = s->first; p; p = p->next)
		for (struct mapping *m = p->map; m; m = m->next)
			for (uint32_t k = 0; k < m->nrun; k++) {
				const struct run *r = scan_run(s, m->run0 + k);
				uint32_t n = r->nk & RUN_N_MASK;

				if ((r->nk >> RUN_KIND_SHIFT & 7) >= RUN_SHARED)
					for (uint32_t j = 0; j < n; j++)
						refs[r->id + j]++;
			}
	for (i = 0; i < L->h.ids; i++) {
		if (lostc[i / CAP_IDS_CHUNK]) {
			uint32_t c = lost_procs ? 0 : refs[i];

			if (s->pt.count[i] != c)	/* untouched pages stay untouched */
				s->pt.count[i] = c;
			continue;
		}
		if (refs[i] > s->pt.count[i] || (!lost_procs && refs[i] != s->pt.count[i]))
			die_damaged("%s: inconsistent capture: page %u has a share count of %u, "
				    "but the processes map it %u times", L->path, i,
				    s->pt.count[i], refs[i]);
	}
}

/* Name every chunk that did not load, what it held, and what that costs. */
static void report_lost(struct loader *L, uint32_t lost_procs)
{
	uint32_t k, lost = 0;
	char what[64], where[96];

	for (k = 1; k <= L->h.chunks; k++) {
		struct chunkstate *c = &L->cs[k];
		const char *cost;

		if (c->state == CS_OK)
			continue;
		lost++;
		describe(L, k, what, sizeof(what));
		switch (chunk_kind(&L->h, k)) {
		case CK_PROC:
			cost = "that process is left out of every view";
			break;
		case CK_COUNT:
			cost = lost_procs ? "processes that use those pages are left out" :
			       "recomputed from the pages of the processes, which all loaded";
			break;
		default:
			cost = "files cannot be checked against a sysroot (-S)";
		}
		if (c->state == CS_UNSEEN) {
			uint32_t e = k;	/* missing chunks of a kind in a row: one line */

			while (e < L->h.chunks && L->cs[e + 1].state == CS_UNSEEN &&
			       chunk_kind(&L->h, e + 1) == chunk_kind(&L->h, k))
				e++;
			if (e == k) {
				warnx("%s: chunk %u of %u (%s): missing from the log: %s", L->path,
				      k, L->h.chunks, what, cost);
				continue;
			}
			if (chunk_kind(&L->h, k) == CK_PROC)
				warnx("%s: chunks %u-%u of %u (processes): missing from the log: "
				      "those processes are left out of every view", L->path, k, e,
				      L->h.chunks);
			else
				warnx("%s: chunks %u-%u of %u (share counts): missing from the log: "
				      "%s", L->path, k, e, L->h.chunks, cost);
			lost += e - k;
			k = e;
			continue;
		}
		where[0] = '\0';
		if (c->want && c->got != c->want)
			snprintf(where, sizeof(where), ": %u of its %u arrived", c->got, c->want);
		if (c->line)
			snprintf(where + strlen(where), sizeof(where) - strlen(where),
				 "; line %llu does not parse", (unsigned long long)c->line);
		warnx("%s: chunk %u of %u (%s), log lines %llu-%llu: %s%s: %s", L->path, k,
		      L->h.chunks, what, (unsigned long long)c->first, (unsigned long long)c->last,
		      c->why, where, cost);
	}
	if (lost) {
		warnx("%s: %u of %u chunks lost; %u of %u processes loaded", L->path, lost,
		      L->h.chunks, L->h.procs - L->cap->lost, L->h.procs);
		exit_at_least(EX_DAMAGED);
	}
}

void load_capture(struct scan *s, struct arena *a, const char *path)
{
	struct loader *L = &LD;
	struct capture *cap;
	struct found F;
	uint64_t size;
	uint32_t k, lost_procs;
	uint8_t *lostc;
	size_t len;
	int fd = open_capture(path, &size);

	memset(L, 0, sizeof(*L));
	L->path = path;
	for (k = 0; k < nseen && seen[k].path != path; k++)
		;
	if (k < nseen) {
		F = seen[k];
	} else {
		find_capture(L, fd, size, &F);
		if (lseek(fd, 0, SEEK_SET) < 0)
			dierr(errno, "%s: cannot read it again", path);
	}
	if (F.begin_bad)
		warnx("%s: the capture's begin line is damaged: its end line stands in", path);
	if (F.nbegin > 1)
		warnx("%s: holds %u captures: the last (line %llu) is loaded", path, F.nbegin,
		      (unsigned long long)F.begin_line);
	memset(s, 0, sizeof(*s));
	s->arena = a;
	s->runtop = (struct run *)(a->base + a->size - a->hi);
	cap = arena_alloc(a, sizeof(*cap), 8);
	memset(cap, 0, sizeof(*cap));
	cap->file = path;
	s->cap = cap;
	L->s = s;
	L->cap = cap;
	L->h = F.h;
	s->page_size = F.h.ps;
	s->page_shift = __builtin_ctzll(F.h.ps);
	s->pt.n = F.h.ids;
	/* only what is written becomes resident: a header can declare many */
	s->pt.count = arena_alloc(a, (size_t)F.h.ids * 4 + 4, 4);
	arena_zero(a, s->pt.count, (size_t)F.h.ids * 4);
	L->cs = arena_alloc(a, ((size_t)F.h.chunks + 1) * sizeof(*L->cs), 8);
	memset(L->cs, 0, ((size_t)F.h.chunks + 1) * sizeof(*L->cs));
	for (k = 0; k <= F.h.chunks; k++)
		L->cs[k].pid = -1;
	lb_init(&L->lb, fd);
	L->lineno = 0;
	L->have_peek = 0;
	read_chunks(L, F.begin_line);
	close(fd);

	lostc = arena_alloc(a, count_chunks(F.h.ids) + 1, 1);
	for (k = 0; k < count_chunks(F.h.ids); k++)
		lostc[k] = L->cs[F.h.procs + 1 + k].state != CS_OK;
	cap->bid_lost = L->cs[F.h.chunks].state != CS_OK;
	lost_procs = F.h.procs - L->loaded_procs;
	cap->lost = lost_procs;
	check_counts(L, lost_procs, lostc);
	report_lost(L, lost_procs);

	s->vanished = F.h.vanished;
	s->empty = F.h.empty;
	s->unreadable = F.h.unreadable;
	if (unescape(F.h.src, cap->src_name, sizeof(cap->src_name), &len) < 0)
		strcpy(cap->src_name, "?");
	cap->src.name = cap->src_name;
	s->src = &cap->src;
	if (s->unreadable)
		exit_at_least(EX_PARTIAL);
}

int capture_buildid(const struct capture *c, const struct file *f,
		    const unsigned char **id, size_t *len)
{
	const struct capbid *b;

	for (b = c->bid; b; b = b->next)
		if (b->inode == f->inode && b->dev == f->dev &&
		    (b->flags & MF_DELETED) == (f->flags & MF_DELETED) &&
		    strcmp(b->path, f->path) == 0) {
			*id = b->id;
			*len = b->len;
			return 1;
		}
	return c->bid_lost ? -1 : 0;
}
