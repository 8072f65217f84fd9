/* Captures: writing a dump, a scan as framed, checksummed lines on stdout. */
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "capture.h"
#include "elfread.h"
#include "dmabuf.h"
#include "cgroup.h"
#include "ramsrc.h"


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
	n = fmt_vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(tmp))
		die("internal: capture field too long");
	w_add(tmp, n);
}

static void w_esc(const char *s, size_t n)
{
	static char tmp[3 * PATH_BUF + 8];

	if (n > PATH_BUF)
		n = PATH_BUF;	/* paths are at most PATH_MAX; cmdlines are cut there */
	w_add(tmp, cap_escape(tmp, sizeof(tmp), s, n));
}

/* One line of the current chunk on stdout, as "XM K " and the payload. */
static void w_send(const char *p, size_t n)
{
	static char tag[24], piece[CAP_PIECE + 1];

	memcpy(piece, p, n);
	piece[n] = '\n';
	W.crc = cap_crc32(W.crc, piece, n + 1);
	out(tag, fmt_snprintf(tag, sizeof(tag), "XM %u ", W.chunk));
	out(piece, n + 1);
	W.lines++;
}

/*
 * Send the line built in W.buf as part of the current chunk: in pieces of
 * CAP_PIECE bytes at most, each after the first a "+ " line, for consoles
 * and loggers that cut long lines. No piece starts or ends with a space,
 * which some of them would eat.
 */
static void w_line(void)
{
	const char *p = W.buf;
	size_t left = W.len, room = CAP_PIECE, n;

	for (;;) {
		n = left;
		if (n > room) {
			n = room;
			while (n > 1 && (p[n - 1] == ' ' || p[n] == ' '))
				n--;
		}
		if (room < CAP_PIECE) {
			static char cont[CAP_PIECE];

			cont[0] = '+';
			cont[1] = ' ';
			memcpy(cont + 2, p, n);
			w_send(cont, n + 2);
		} else {
			w_send(p, n);
		}
		p += n;
		left -= n;
		if (!left)
			break;
		room = CAP_PIECE - 2;
	}
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
	uint32_t kind = run_kind(r), n = run_pages(r);
	char c = cap_run_letter[kind];

	if (run_written(r))
		c -= 'a' - 'A';
	if (W.len > CAP_WRAP)
		w_line();
	if (W.len == 0)
		w_add("r", 1);
	if (!run_has_ids(kind)) {
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

static void w_ram_line(const char *s, size_t n);

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
#ifndef EXMAP_NO_CGROUPS
	if (p->cg) {
		W.len = cap_cgroup_text(W.buf, sizeof(W.buf), p->cg->path,
					&s->cgroups[p->cg->row].charge);
		w_line();
	}
#endif
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
	dmabuf_dump_proc(p, w_ram_line);
	fmt_snprintf(what, sizeof(what), "pid=%d", (int)p->pid);
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
	fmt_snprintf(what, sizeof(what), "ids=%x-%x", first, end - 1);
	w_end_chunk(what);
}

/* The build-id of file f, read through the first process mapping it. */
static int file_buildid(const struct scan *s, uint32_t index, unsigned char *id, size_t *len)
{
	static struct elf e;
	const struct mapping *m = NULL;
	const char *why;
	uint64_t size;
	uint32_t i;
	int piddir, fd, r = -1;

	for (i = 0; i < s->nproc && !m; i++)
		for (m = s->procs[i]->map; m && m->file != index; m = m->next)
			;
	if (!m)
		return -1;
	if ((piddir = open_pid_dir(s->procs[i - 1]->pid)) < 0)
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
	static char hexid[2 * ELF_BUILDID_MAX + 1];
	struct file *files;
	uint32_t nfile, i;

	files = files_build(s, &nfile);
	w_begin_chunk();
	for (i = 0; i < nfile; i++) {
		const struct file *f = &files[i];
		size_t len;

		if (f->path[0] != '/' || (f->flags & MF_DEVICE) ||
		    file_buildid(s, i, id, &len) < 0)
			continue;
		w_addf("b %x %llx %x ", f->dev, (unsigned long long)f->inode,
		       f->flags & MF_DELETED);
		w_add(hex_fmt(hexid, id, len), 2 * len);
		w_add(" ", 1);
		w_esc(f->path, strlen(f->path));
		w_line();
	}
	w_end_chunk("buildids");
}

/* The processes the scan could not read, and why: one chunk, first, maybe empty. */
static void dump_absent(const struct scan *s)
{
	char what[24];
	uint32_t i, n = 0;

	w_begin_chunk();
	for (i = 0; i < s->nabsent; i++) {
		const char *why;

		if (s->absent[i].why != P_UNREADABLE)
			continue;
		why = strerror(s->absent[i].err);
		w_addf("u %d ", (int)s->absent[i].pid);
		w_esc(why, strlen(why));
		w_line();
		n++;
	}
	dmabuf_dump_scan(s, w_ram_line);
	fmt_snprintf(what, sizeof(what), "unreadable=%u", n);
	w_end_chunk(what);
}

static void w_ram_line(const char *s, size_t n)
{
	w_add(s, n);
	w_line();
}

/* The ram view's figures, read now, so that -l CAPTURE ram shows them. */
static void dump_ram(const struct scan *s)
{
	static struct ramsrc r;

	ram_read(&r, strcmp(s->source, "kmod") == 0 ? "kmod" : "auto", s->page_size);
	w_begin_chunk();
	ram_dump(&r, w_ram_line);
	dmabuf_dump(s, w_ram_line);
	w_end_chunk("ram");
}

/*
 * The machine, its kernel's release and its node name, escaped into the
 * room the header line leaves; a name cut short ends in "...".
 */
static void header_uname(struct cap_header *h, size_t room)
{
	struct utsname u;
	char un[3 * 65 + 8];
	size_t len, n, esc = 0, fit = 0;

	strcpy(h->uname, "%");	/* empty */
	if (room < 4 || uname(&u) != 0)
		return;
	len = fmt_snprintf(un, sizeof(un), "%s %s %s", u.machine, u.release, u.nodename);
	if (room > sizeof(h->uname) - 1)
		room = sizeof(h->uname) - 1;
	for (n = 0; n < len; n++) {
		unsigned char c = un[n];

		esc += c > ' ' && c < 0x7f && c != '%' && c != ',' ? 1 : 3;
		if (esc <= room - 3)
			fit = n + 1;	/* what fits with "..." after it */
		if (esc > room)
			break;
	}
	if (n == len) {
		cap_escape(h->uname, sizeof(h->uname), un, len);
		return;
	}
	cap_escape(h->uname, sizeof(h->uname), un, fit);
	strcat(h->uname, "...");
}

void dump_capture(struct scan *s)
{
	struct cap_header h = { .version = CAP_VERSION, .ps = s->page_size, .ids = s->pt.n,
			    .procs = s->nproc,
			    .vanished = s->vanished, .empty = s->empty,
			    .unreadable = s->unreadable };
	char text[512];
	uint32_t hwm = 0, i;
	size_t n;

	h.chunks = cap_nchunks(&h);
	W.chunk = 0;	/* a watch dumps twice */
	/* the time and our pid: no two captures share it */
	h.id = clock_ns(CLOCK_REALTIME) << 8 ^ (uint64_t)getpid();
	cap_escape(h.src, sizeof(h.src), s->source, strlen(s->source));
	/* "XM begin ", " crc=" and 8 digits, the newline: the rest is the uname's */
	n = cap_header_text(text, sizeof(text), &h);
	header_uname(&h, n + 23 < CAP_PHYS_MAX ? CAP_PHYS_MAX - (n + 23) : 0);
	n = cap_header_text(text, sizeof(text), &h);
	outf("XM begin %s crc=%08x\n", text, cap_crc32(0, text, n));
	dump_absent(s);
	dump_ram(s);
	cgroups_build(s, &i);	/* their charges, read now */
	for (i = 0; i < s->pt.n; i += CAP_IDS_CHUNK)
		dump_counts(s, i);
	for (i = 0; i < s->nproc; i++)
		dump_proc(s, s->procs[i], &hwm);
	dump_buildids(s);
	outf("XM end %s crc=%08x\n", text, cap_crc32(0, text, n));
	out_flush();
}
