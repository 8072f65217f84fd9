/* Captures: rebuilding a scan from a capture's chunks. */
/*
 * Captures: rebuilding a scan from the chunks of a console log. Each chunk
 * is parsed into the scan as it comes and taken back out if it turns out not
 * whole (its line count or CRC-32 off, or a line malformed); what it held is
 * recorded, to be named (capcheck.c).
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "capture.h"
#include "outside.h"
#include "dmabuf.h"
#include "ramsrc.h"

static struct loader LD;
static char line[CAP_LINE_MAX], pend[CAP_LINE_MAX];

/* The open chunk cannot be used: keep the first reason, and where. */
static int chunk_fail(struct loader *L, const char *why)
{
	if (!L->bad) {
		L->bad = 1;
		L->why = why;
		L->why_line = L->at;
	}
	return -1;
}

static void open_chunk(struct loader *L, uint32_t k)
{
	struct scan *s = L->s;

	L->cur = k;
	L->lines = 0;
	L->crc = 0;
	L->opened = L->log.lineno;
	L->bad = 0;
	L->why = NULL;
	L->stray = L->cs[k].state == CS_OK;
	if (cap_chunk_kind(&L->h, k) == CK_RAM && !L->stray)
		memset(L->cap->ram, 0, sizeof(*L->cap->ram));	/* an earlier copy's lines */
	L->lo = s->arena->lo;
	L->hi = s->arena->hi;
	L->nrun = s->nrun;
	L->last = s->last;
	L->nproc = s->nproc;
	L->bid = L->cap->bid;
	L->absent = L->cap->absent;
	L->nabsent = L->cap->nabsent;
	L->view = s->view;
	L->have_pend = 0;
	L->nlogical = 0;
	L->p = NULL;
	L->m = NULL;
	L->left = 0;
	L->cgot = 0;
	L->xgot = 0;
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
	L->cap->absent = L->absent;
	L->cap->nabsent = L->nabsent;
	s->view = L->view;	/* a damaged chunk 1's x line */
	dmacap_drop(L->opened);	/* its dma-buf lines were in what was taken back */
}

/*
 * Whether the mapping read last lacks runs for some of its pages. Captures
 * before device mappings were read page by page hold none for those.
 */
static int pages_missing(const struct loader *L)
{
	return L->left && !(L->m && (L->m->flags & MF_DEVICE) && L->m->nrun == 0);
}

/*
 * Close the open chunk: commit it if whole, or record why not. What went
 * wrong with the lines (cut short, a line missing, the checksum) says more
 * than a line that did not parse because of it, which is kept as a pointer.
 */
static void flush_line(struct loader *L);

static void close_chunk(struct loader *L, int ended, uint32_t want, uint32_t crc)
{
	struct chunkstate *c = &L->cs[L->cur];
	int kind = cap_chunk_kind(&L->h, L->cur);
	const char *why = NULL;

	flush_line(L);
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
	else if (kind == CK_COUNT && (L->cgot != L->cn || (L->xgot && L->xgot != L->cn)))
		why = "share counts are missing";
	if (L->stray) {
		if (why)
			warnx("%s: log lines %llu-%llu name chunk %u, which loaded whole: "
			      "ignored (%s)", L->path, (unsigned long long)L->opened,
			      (unsigned long long)L->log.lineno, L->cur, why);
		else
			warnx("%s: chunk %u appears twice: the first copy is kept", L->path,
			      L->cur);
		roll_back(L);
	} else if (why) {
		roll_back(L);
		c->state = CS_BAD;
		c->why = why;
		c->first = L->opened;
		c->last = L->log.lineno;
		c->line = L->bad && why != L->why ? L->why_line : 0;
		c->got = L->lines;
		c->want = ended ? want : 0;
		if (L->p)
			c->pid = L->p->pid;
	} else {
		c->state = CS_OK;
		if (kind == CK_PROC)
			L->loaded_procs++;
		L->xseen |= kind == CK_COUNT && L->xgot;
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
		if (!(f[i] = cap_field(&p)))
			return chunk_fail(L, "a process line is short");
	if (p || L->p || parse_u64(f[0], INT32_MAX, &pid) < 0 || pid == 0 ||
	    hex_parse(f[1], L->h.ids, &hwm) < 0)
		return chunk_fail(L, "a process line is malformed");
	L->p = arena_alloc(s->arena, sizeof(*L->p), 8);
	memset(L->p, 0, sizeof(*L->p));
	L->p->pid = (pid_t)pid;
	L->hwm = (uint32_t)hwm;
	if (cap_unescape(f[2], tmp, NAME_MAX_COMM, &n) < 0)
		return chunk_fail(L, "a process name is malformed");
	memcpy(L->p->name, tmp, n + 1);
	if (cap_unescape(f[3], tmp, sizeof(tmp), &n) < 0 || n > CMDLINE_MAX)
		return chunk_fail(L, "a command line is malformed");
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
	static char path[PATH_BUF + 16];
	struct scan *s = L->s;
	struct mapping *m;
	uint64_t v[7];
	char *f[8];
	size_t n;
	int i;

	if (!L->p || pages_missing(L))
		return chunk_fail(L, L->p ? "a mapping's pages are missing" : "a mapping before its process");
	for (i = 0; i < 8; i++)
		if (!(f[i] = cap_field(&p)))
			return chunk_fail(L, "a mapping line is short");
	if (p || strlen(f[2]) != 4 || hex_parse(f[0], UINT64_MAX, &v[0]) < 0 ||
	    hex_parse(f[1], UINT64_MAX, &v[1]) < 0 || hex_parse(f[3], UINT64_MAX, &v[3]) < 0 ||
	    hex_parse(f[4], UINT32_MAX, &v[4]) < 0 || hex_parse(f[5], UINT64_MAX, &v[5]) < 0 ||
	    hex_parse(f[6], MF_DEVICE | MF_DELETED | MF_TRUNCATED, &v[6]) < 0 ||
	    cap_unescape(f[7], path, sizeof(path), &n) < 0)
		return chunk_fail(L, "a mapping line is malformed");
	if (v[0] >= v[1] || (v[0] | v[1]) & (s->page_size - 1) ||
	    (L->m && v[0] < L->m->end))
		return chunk_fail(L, "a mapping's addresses are impossible");
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
		return chunk_fail(L, "runs before a mapping");
	while ((f = cap_field(&p)) != NULL) {
		const char *k = strchr(cap_run_letter, *f | 0x20), *colon = strchr(f, ':');
		uint32_t kind;
		size_t nlen = colon ? (size_t)(colon - f - 1) : strlen(f + 1);
		uint64_t n, id = L->hwm;
		struct run *r;
		char nbuf[16];

		if (!*f || !k || nlen >= sizeof(nbuf))
			return chunk_fail(L, "a run is malformed");
		kind = k - cap_run_letter;
		memcpy(nbuf, f + 1, nlen);
		nbuf[nlen] = '\0';
		if (hex_parse(nbuf, RUN_PAGES_MAX, &n) < 0 || n == 0 || n > L->left ||
		    (colon && (!run_has_ids(kind) || hex_parse(colon + 1, UINT32_MAX, &id) < 0)))
			return chunk_fail(L, "a run is malformed");
		if (run_has_ids(kind) && (id > L->h.ids || n > L->h.ids - id))
			return chunk_fail(L, "a run names pages beyond the share counts");
		r = arena_alloc_top(s->arena, sizeof(*r), sizeof(*r));
		r->id = run_has_ids(kind) ? (uint32_t)id : 0;
		r->nk = run_nk(kind, *f >= 'A' && *f <= 'Z', (uint32_t)n);
		if (run_has_ids(kind) && id + n > L->hwm)
			L->hwm = (uint32_t)(id + n);
		L->m->nrun++;
		s->nrun++;
		L->left -= n;
	}
	return 0;
}

static int parse_counts(struct loader *L, char *p, int first_line)
{
	uint32_t *count = L->s->pt.count, *got;
	uint64_t a, b, c, rep;
	char *f, *star;

	if (first_line) {
		uint32_t k = L->cur - cap_first_count(&L->h);
		char *x = cap_field(&p), *y = cap_field(&p), *z = cap_field(&p);

		if (!x || strcmp(x, "c") || !y || !z || p || hex_parse(y, UINT32_MAX, &a) < 0 ||
		    hex_parse(z, UINT32_MAX, &b) < 0 || a != (uint64_t)k * CAP_IDS_CHUNK ||
		    b != (L->h.ids - a < CAP_IDS_CHUNK ? L->h.ids - a : CAP_IDS_CHUNK))
			return chunk_fail(L, "its first line is not the one expected");
		L->cfirst = (uint32_t)a;
		L->cn = (uint32_t)b;
		return 0;
	}
	/* "n": share counts; "x": of them, the mappers outside the view */
	if (!(f = cap_field(&p)) || (strcmp(f, "n") && strcmp(f, "x")) || !L->cn)
		return chunk_fail(L, "a count line is malformed");
	got = f[0] == 'x' ? &L->xgot : &L->cgot;
	if (f[0] == 'x')
		count = L->hid;
	while ((f = cap_field(&p)) != NULL) {
		if ((star = strchr(f, '*')) != NULL)
			*star = '\0';
		if (hex_parse(f, UINT32_MAX, &c) < 0 || (star && hex_parse(star + 1, UINT32_MAX, &rep) < 0))
			return chunk_fail(L, "a count is malformed");
		if (!star)
			rep = 1;
		if (rep == 0 || rep > L->cn - *got)
			return chunk_fail(L, "more share counts than the chunk holds");
		/* a second copy of a chunk that loaded must not overwrite it */
		if (L->stray)
			*got += (uint32_t)rep;
		else
			while (rep--)
				count[L->cfirst + (*got)++] = (uint32_t)c;
	}
	return 0;
}

static int parse_bid(struct loader *L, char *p)
{
	static char path[PATH_BUF + 16];
	struct scan *s = L->s;
	struct capbid *b;
	uint64_t dev, ino, fl, v;
	unsigned char *id;
	char *f[6], h[3] = "";
	size_t n, idl, i;

	for (i = 0; i < 6; i++)
		if (!(f[i] = cap_field(&p)))
			return chunk_fail(L, "a build-id line is short");
	idl = strlen(f[4]);
	if (p || strcmp(f[0], "b") || hex_parse(f[1], UINT32_MAX, &dev) < 0 ||
	    hex_parse(f[2], UINT64_MAX, &ino) < 0 || hex_parse(f[3], MF_DELETED, &fl) < 0 ||
	    idl == 0 || idl % 2 || idl / 2 > ELF_BUILDID_MAX ||
	    cap_unescape(f[5], path, sizeof(path), &n) < 0)
		return chunk_fail(L, "a build-id line is malformed");
	id = arena_alloc(s->arena, idl / 2, 1);
	for (i = 0; i < idl / 2; i++) {
		h[0] = f[4][2 * i];
		h[1] = f[4][2 * i + 1];
		if (hex_parse(h, 255, &v) < 0)
			return chunk_fail(L, "a build-id is malformed");
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

/* "u PID WHY": a process the board could not read, and its strerror(). */
static int parse_absent(struct loader *L, char *p)
{
	static char why[256];
	struct capabsent *a;
	char *f[3];
	uint64_t pid;
	size_t n;
	int i;

	if (p[0] == 'x' && p[1] == ' ') {	/* what the scan could not see */
		p += 2;
		if (!(f[0] = cap_field(&p)) || p ||
		    hex_parse(f[0], OV_PIDNS | OV_ONLY | OV_NOCOUNT | OV_COUNTED, &pid) < 0)
			return chunk_fail(L, "its line of what the scan could not see is malformed");
		L->s->view = (uint32_t)pid;
		return 0;
	}
	for (i = 0; i < 3; i++)
		if (!(f[i] = cap_field(&p)))
			return chunk_fail(L, "an unreadable process's line is short");
	if (p || strcmp(f[0], "u") || parse_u64(f[1], INT32_MAX, &pid) < 0 || pid == 0 ||
	    cap_unescape(f[2], why, sizeof(why), &n) < 0)
		return chunk_fail(L, "an unreadable process's line is malformed");
	if (L->cap->nabsent >= L->h.unreadable)
		return chunk_fail(L, "it names more unreadable processes than the header counts");
	a = arena_alloc(L->s->arena, sizeof(*a), 8);
	a->pid = (int32_t)pid;
	a->why = arena_strdup(L->s->arena, why, n);
	a->next = L->cap->absent;
	L->cap->absent = a;
	L->cap->nabsent++;
	return 0;
}

/* An end line: "N CRC WHAT", after the ". ". */
static void end_line(struct loader *L, char *p)
{
	char *n = cap_field(&p), *c = cap_field(&p), *what = cap_field(&p);
	uint64_t want, crc, pid;

	if (what && strncmp(what, "pid=", 4) == 0 && parse_u64(what + 4, INT32_MAX, &pid) == 0)
		L->cs[L->cur].pid = (int32_t)pid;
	L->at = L->log.lineno;
	if (!n || !c || !what || p || parse_u64(n, UINT32_MAX, &want) < 0 ||
	    hex_parse(c, UINT32_MAX, &crc) < 0) {
		chunk_fail(L, "its end line is damaged");
		want = L->lines;
		crc = L->crc;
	}
	close_chunk(L, 1, (uint32_t)want, (uint32_t)crc);
}

/* Parse the line held back for its "+ " lines, now that it is whole. */
static void flush_line(struct loader *L)
{
	int kind = cap_chunk_kind(&L->h, L->cur);

	if (!L->have_pend)
		return;
	L->have_pend = 0;
	L->nlogical++;
	L->at = L->pend_at;
	if (L->bad)
		return;
	if (kind == CK_COUNT) {
		parse_counts(L, pend, L->nlogical == 1);
	} else if (kind == CK_BID) {
		parse_bid(L, pend);
	} else if ((kind == CK_ABSENT || kind == CK_RAM) && pend[0] == 'a') {
		if (!L->stray && dmacap_table(L->s, L->opened, kind == CK_ABSENT, pend) < 0)
			chunk_fail(L, "a dma-buf line is malformed");
	} else if (kind == CK_ABSENT) {
		parse_absent(L, pend);
	} else if (kind == CK_RAM) {
		if (L->stray)
			;	/* a second copy of a chunk that loaded */
		else if (ram_parse(L->cap->ram, pend, L->s->arena) < 0)
			chunk_fail(L, "a ram line is malformed");
	} else if (pend[0] == 'p' && pend[1] == ' ') {
		parse_proc(L, pend + 2);
	} else if (pend[0] == 'm' && pend[1] == ' ') {
		parse_map(L, pend + 2);
	} else if (pend[0] == 'r' && pend[1] == ' ') {
		parse_runs(L, pend + 2);
	} else if ((pend[0] == 'f' || pend[0] == 'e') && pend[1] == ' ') {
		if (dmacap_proc(L->s, L->p, pend) < 0)
			chunk_fail(L, "a dma-buf line is malformed");
	} else if (pend[0] == 'y' && pend[1] == ' ') {
		if (!L->p || L->p->cg || L->m || cap_cgroup_parse(pend + 2, L->s->arena, &L->p->cg) < 0)
			chunk_fail(L, "a cgroup line is malformed or out of place");
	} else {
		chunk_fail(L, "a line of an unknown kind");
	}
}

/* A line of the open chunk: into its CRC, and held until its "+ " lines are in. */
static void chunk_line(struct loader *L, char *payload)
{
	size_t len = strlen(payload);

	payload[len] = '\n';
	L->crc = cap_crc32(L->crc, payload, len + 1);
	payload[len] = '\0';
	L->lines++;
	L->at = L->log.lineno;
	if (payload[0] == '+' && payload[1] == ' ') {
		if (!L->have_pend) {
			chunk_fail(L, "a continued line with no line before it");
		} else if (L->pend_len + len - 2 >= sizeof(pend)) {
			chunk_fail(L, "a line continued past the longest a capture has");
			L->have_pend = 0;
		} else {
			memcpy(pend + L->pend_len, payload + 2, len - 1);
			L->pend_len += len - 2;
		}
		return;
	}
	flush_line(L);
	if (len >= sizeof(pend)) {
		chunk_fail(L, "a line longer than any a capture has");
		return;
	}
	memcpy(pend, payload, len + 1);
	L->pend_len = len;
	L->pend_at = L->log.lineno;
	L->have_pend = 1;
}

/* Read the capture's chunks: the log's lines after start, up to stop (its
 * end line, or the next capture's begin line), or to the log's end. */
static void read_chunks(struct loader *L, const struct capfile *cf)
{
	const char *t;
	uint64_t at, k;
	char *p;

	while (L->log.lineno < cf->start && caplog_raw(&L->log, line, &(size_t){ 0 }))
		;
	while ((t = caplog_next(&L->log, &at)) != NULL && (!cf->stop || at < cf->stop)) {
		p = (char *)t + 3;
		if (strncmp(p, "end ", 4) == 0 || strncmp(p, "begin ", 6) == 0 ||
		    strncmp(p, "w ", 2) == 0)
			continue;	/* the begin line again, the last capture's end line
					   again; a watch's sample */
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
		if (p[0] == '.' && p[1] == ' ') {
			flush_line(L);
			end_line(L, p + 2);
		} else {
			chunk_line(L, p);
		}
	}
	if (L->cur)
		close_chunk(L, 0, 0, 0);
	if (!cf->end_line && cf->stop)
		warnx("%s: the next capture begins (log line %llu) before this one's end line: "
		      "cut short?", L->path, (unsigned long long)cf->stop);
	else if (!cf->end_line)
		warnx("%s: the log ends before the capture's end line: cut short?", L->path);
	if (cf->stray_after)
		warnx("%s: %llu capture lines after its end line are ignored (a capture whose "
		      "begin and end lines are damaged?)", L->path,
		      (unsigned long long)cf->stray_after);
}

/* Load the capture cf found into s, in arena a: a scan the views render as they did live. */
void load_capture(struct scan *s, struct arena *a, const struct capfile *cf)
{
	struct loader *L = &LD;
	struct capture *cap;
	uint32_t k;
	size_t len;
	int fd = capture_reopen(cf);

	memset(L, 0, sizeof(*L));
	L->path = cf->path;
	if (cf->begin_bad)
		warnx("%s: the capture's begin line is damaged: its end line stands in", cf->path);
	if (cf->ncap > 1 && !cf->chosen)
		warnx("%s: holds %u captures: the last, @%u of %u (log line %llu), is loaded; "
		      "%s@N loads another", cf->path, cf->ncap, cf->place, cf->ncap,
		      (unsigned long long)cf->first, cf->path);
	memset(s, 0, sizeof(*s));
	s->arena = a;
	s->runtop = (struct run *)(a->base + a->size - a->hi);
	cap = arena_alloc(a, sizeof(*cap), 8);
	memset(cap, 0, sizeof(*cap));
	cap->file = cf->path;
	if (cf->h.version != 1) {
		cap->ram = arena_alloc(a, sizeof(*cap->ram), 8);
		memset(cap->ram, 0, sizeof(*cap->ram));
	}
	s->cap = cap;
	dmacap_begin();	/* nothing of a load that died before it (the fuzzers') */
	L->s = s;
	L->cap = cap;
	L->h = cf->h;
	s->page_size = cf->h.ps;
	s->page_shift = __builtin_ctzll(cf->h.ps);
	s->pt.n = cf->h.ids;
	/* only what is written becomes resident: a header can declare many */
	s->pt.count = arena_alloc(a, (size_t)cf->h.ids * 4 + 4, 4);
	arena_zero(a, s->pt.count, (size_t)cf->h.ids * 4);
	L->hid = arena_alloc(a, (size_t)cf->h.ids * 4 + 4, 4);
	arena_zero(a, L->hid, (size_t)cf->h.ids * 4);
	L->cs = arena_alloc(a, ((size_t)cf->h.chunks + 1) * sizeof(*L->cs), 8);
	memset(L->cs, 0, ((size_t)cf->h.chunks + 1) * sizeof(*L->cs));
	for (k = 0; k <= cf->h.chunks; k++)
		L->cs[k].pid = -1;
	caplog_start(&L->log, cf->file, fd);
	read_chunks(L, cf);
	close(fd);
	capture_check(L);
	s->vanished = cf->h.vanished;
	s->empty = cf->h.empty;
	s->unreadable = cf->h.unreadable;
	if (cap_unescape(cf->h.src, cap->src_name, sizeof(cap->src_name), &len) < 0)
		strcpy(cap->src_name, "?");
	if (cap_unescape(cf->h.uname, cap->uname, sizeof(cap->uname), &len) < 0)
		strcpy(cap->uname, "?");
	s->source = cap->src_name;
	dmabuf_settle(s);
	if (s->unreadable)
		exit_at_least(EX_PARTIAL);
}
