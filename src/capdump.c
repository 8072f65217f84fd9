/* Captures: writing a dump, a scan as framed, checksummed lines on stdout. */
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "capture.h"


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

/* Send the line built in W.buf as part of the current chunk. */
static void w_line(void)
{
	char tag[24];

	W.buf[W.len++] = '\n';
	W.crc = cap_crc32(W.crc, W.buf, W.len);
	out(tag, fmt_snprintf(tag, sizeof(tag), "XM %u ", W.chunk));
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

void dump_capture(struct scan *s)
{
	struct cap_header h = { .ps = s->page_size, .ids = s->pt.n, .procs = s->nproc,
			    .vanished = s->vanished, .empty = s->empty,
			    .unreadable = s->unreadable };
	char text[512], un[160];
	struct utsname u;
	struct timespec ts;
	uint32_t hwm = 0, i;
	size_t n;

	h.chunks = h.procs + cap_count_chunks(h.ids) + 1;
	/* the time and our pid: no two captures share it */
	if (clock_gettime(CLOCK_REALTIME, &ts) == 0)
		h.id = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	h.id = h.id << 8 ^ (uint64_t)getpid();
	cap_escape(h.src, sizeof(h.src), s->source, strlen(s->source));
	if (uname(&u) == 0)
		fmt_snprintf(un, sizeof(un), "%.40s %.40s %.60s", u.machine, u.release, u.nodename);
	else
		un[0] = '\0';
	cap_escape(h.uname, sizeof(h.uname), un, strlen(un));
	n = cap_header_text(text, sizeof(text), &h);
	outf("XM begin %s crc=%08x\n", text, cap_crc32(0, text, n));
	for (i = 0; i < s->nproc; i++)
		dump_proc(s, s->procs[i], &hwm);
	for (i = 0; i < s->pt.n; i += CAP_IDS_CHUNK)
		dump_counts(s, i);
	dump_buildids(s);
	outf("XM end %s crc=%08x\n", text, cap_crc32(0, text, n));
	out_flush();
}
