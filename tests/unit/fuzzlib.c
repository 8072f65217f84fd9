/* The fuzzers' shared part: a reader run in this process, and a capture's views. */
/* fuzzlib.h says what; here is how (the mutations: fuzzmut.c). */
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "capture.h"
#include "fuzzlib.h"
#include "page.h"
#include "ram.h"
#include "wlog.h"

char fz_dir[PATH_BUF], fz_root[PATH_BUF + 8];
jmp_buf fz_jmp;
int fz_died;
uint64_t fz_fatal, fz_warnings;

#define FD_SCAN		256	/* fds a run may leave open, looked for */
static uint8_t fd_before[FD_SCAN];

/* ---- running ---- */

_Noreturn void fz_broken(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "fuzz: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	abort();
}

static void fatal_back(void)
{
	fz_fatal++;
	fz_died = 1;
	longjmp(fz_jmp, 1);
}

/* A warning is one line (a listing's go on indented) of text alone. */
static void warned(const char *msg)
{
	const char *c;

	fz_warnings++;
	for (c = msg; *c; c++)
		if ((*c == '\n' && strncmp(c + 1, "  ", 2) != 0) ||
		    (*c != '\n' && ((unsigned char)*c < 0x20 || *c == 0x7f)))
			fz_broken("a warning of more than one line, or not text: %s", msg);
}

void fz_arm(void)
{
	fz_died = 0;
	on_fatal(fatal_back);
	on_warning(warned);
}

/* The run's directory, gone at exit: the files the inputs were written to. */
static void fz_clean(void)
{
	static const char *const names[] = { "log", "log.1", "cap", "cap.1", "console.log",
					     "console.log.1", "root" };
	char path[PATH_BUF + 32];
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", fz_dir, names[i]);
		(i + 1 < sizeof(names) / sizeof(names[0]) ? unlink : rmdir)(path);
	}
	rmdir(fz_dir);
}

void fz_init(const char *name)
{
	const char *base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
	int fd, i;

	if (fz_dir[0])
		return;
	snprintf(fz_dir, sizeof(fz_dir), "%s/%s.XXXXXX", base, name);
	if (!mkdtemp(fz_dir)) {
		perror("fuzz: mkdtemp");
		abort();
	}
	/* an empty sysroot: a capture's files are looked for there, and never opened
	 * on this machine (where a path could name a device) */
	snprintf(fz_root, sizeof(fz_root), "%s/root", fz_dir);
	if (mkdir(fz_root, 0700) < 0) {
		perror("fuzz: mkdir");
		abort();
	}
	fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		perror("fuzz: /dev/null");
		abort();
	}
	out_to(fd, "/dev/null");
	atexit(fz_clean);
	for (i = 3; i < FD_SCAN; i++)
		fd_before[i] = fcntl(i, F_GETFD) != -1;
}

const char *fz_write(const char *name, const uint8_t *data, size_t n)
{
	static const char mark[] = "#fuzz-rotate\n";
	static char path[PATH_BUF], older[PATH_BUF + 2];
	const uint8_t *at = NULL;
	size_t m = sizeof(mark) - 1;
	int k;

	snprintf(path, sizeof(path), "%s/%s", fz_dir, name);
	snprintf(older, sizeof(older), "%s.1", path);
	if (n >= m && memcmp(data, mark, m) == 0)
		at = data;
	else if ((at = memmem(data, n, "\n#fuzz-rotate\n", m + 1)) != NULL)
		at++;
	unlink(older);
	for (k = at ? 0 : 1; k < 2; k++) {
		const uint8_t *p = k && at ? at + m : data;
		size_t len = k ? n - (size_t)(p - data) : (size_t)(at - data);
		int fd = open(k ? path : older, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

		if (fd < 0 || (len && write(fd, p, len) != (ssize_t)len) || close(fd) < 0) {
			perror("fuzz: writing the input");
			abort();
		}
	}
	return path;
}

void fz_end(void)
{
	int i;

	on_fatal(NULL);
	on_warning(NULL);
	out_flush();
	for (i = 3; i < FD_SCAN; i++)
		if (!fd_before[i] && fcntl(i, F_GETFD) != -1)
			close(i);
	exit_status = EX_OK;
}

/* ---- a capture, and its views ---- */

int fz_capture(const char *path, const uint8_t *data, size_t n, int all)
{
	static struct scan scan;
	static struct arena arena;
	static struct capfile cf;
	static struct totals t;
	static char name[NAME_MAX_COMM], file[PATH_BUF], bname[NAME_MAX_COMM + 8];
	static char bfile[PATH_BUF + 8], bram[16];
	static struct budget b[3];
	struct opts o = { .view = V_PROCS, .sort = -1, .sysroot = fz_root,
			  .rfile_index = UINT32_MAX };
	/* static: kept across a fatal error's longjmp */
	static int32_t pid;
	static pid_t pids[1];
	static uint32_t nf, nb;
	static struct file *files;

	pid = 0;
	nb = 0;
	files = NULL;
	file[0] = '\0';

	FZ_STEP({
		arena_release(&arena);
		arena_or_die(&arena, capture_open(path, &cf) + ARENA_ELF, 0, 0);
		load_capture(&scan, &arena, &cf);
		find_file_as_named();
		account(&scan, &t);
		files = files_build(&scan, &nf);
		report_filter(&scan, NULL, 0, UINT32_MAX, &t.shown, &t.nshown);
	});
	if (fz_died)
		return -1;
	FZ_STEP(view_procs(&scan, &t, &o); report_notes(&scan, &t, &o));
	if (!all)
		return 0;
	o.csv = 1;
	FZ_STEP(view_procs(&scan, &t, &o));
	o.view = V_FILES;
	FZ_STEP(view_files(&scan, &o));
	o.csv = 0;
	FZ_STEP(view_files(&scan, &o));
	o.view = V_RAM;
	FZ_STEP(view_ram(&scan, &o, "auto"));
	o.csv = 1;
	FZ_STEP(view_ram(&scan, &o, "auto"));
	o.csv = 0;
	o.view = V_FOLDED;
	FZ_STEP(view_folded(&scan, &o));
	o.view = V_HTML;
	FZ_STEP(page_notes_start(); view_html(&scan, &t, &o, "auto"));
	o.view = V_METRICS;
	FZ_STEP(view_metrics(&scan, &o, 0));
	if (fz_first_proc(data, n, &pid, name, sizeof(name)) && pid > 0) {
		o.view = V_MAPS;
		o.view_pid = pid;
		FZ_STEP(view_maps(&scan, &o));
		snprintf(bname, sizeof(bname), "%s=1K", name);
		FZ_STEP(parse_budget(bname, &b[nb]); nb++);	/* refused: dies */
	}
	if (fz_first_path(data, n, file, sizeof(file))) {
		o.view_file = file;
		o.view = V_SECTIONS;
		FZ_STEP(view_elf_items(&scan, &o));
		o.view = V_SYMBOLS;
		FZ_STEP(view_elf_items(&scan, &o));
		snprintf(bfile, sizeof(bfile), "%s=1K", file);
		FZ_STEP(parse_budget(bfile, &b[nb]); nb++);	/* refused: dies */
	}
	snprintf(bram, sizeof(bram), "ram:slab=1K");
	FZ_STEP(parse_budget(bram, &b[nb]); nb++);	/* refused: dies */
	o.view = V_PROCS;
	FZ_STEP(check_budgets(&scan, b, nb, &o));
	/* -P PID -F FILE: a process's part of a file */
	if (pid > 0 && files && file[0]) {
		pids[0] = pid;
		o.rpids = pids;
		o.nrpid = 1;
		FZ_STEP(o.rfile_index = find_file(files, nf, file);
			report_filter(&scan, pids, 1, o.rfile_index, &t.shown, &t.nshown);
			view_procs(&scan, &t, &o));
	}
	return 0;
}

/* ---- names to ask the views for ---- */

/* The field after n spaces (or, in a watch item, commas) of a line: unescaped. */
static int field_text(const uint8_t *p, size_t n, int skip, char sep, char *to, size_t room)
{
	char buf[PATH_BUF * 3 + 1];
	size_t i = 0, e, len;

	while (skip > 0 && i < n)
		skip -= p[i++] == sep;
	if (skip)
		return 0;
	for (e = i; e < n && p[e] != ' ' && p[e] != sep; e++)
		;
	if (e - i >= sizeof(buf))
		return 0;
	memcpy(buf, p + i, e - i);
	buf[e - i] = '\0';
	return cap_unescape(buf, to, room, &len) == 0 && len > 0 && strlen(to) == len;
}

int fz_first_proc(const uint8_t *data, size_t n, int32_t *pid, char *name, size_t room)
{
	size_t i = 0;

	while (i < n) {
		const uint8_t *e = memchr(data + i, '\n', n - i);
		size_t len = e ? (size_t)(e - data) - i : n - i;
		const uint8_t *l = data + i;
		const uint8_t *q = len > 5 ? memmem(l, len, " p ", 3) : NULL;
		const uint8_t *d = len > 8 && memcmp(l, "XM w ", 5) == 0 ? memmem(l, len, " P ", 3) : NULL;

		/* "XM K p PID HWM NAME ..." or "XM w SEQ P ID,PID,START,FLAGS,NAME,..." */
		if (q && memcmp(l, "XM ", 3) == 0 && l[3] >= '0' && l[3] <= '9' &&
		    field_text(q + 3, len - (size_t)(q + 3 - l), 2, ' ', name, room)) {
			*pid = (int32_t)strtol((const char *)q + 3, NULL, 10);
			return *pid > 0;
		}
		if (d && field_text(d + 3, len - (size_t)(d + 3 - l), 4, ',', name, room)) {
			*pid = 0;
			return 1;
		}
		i += len + 1;
	}
	return 0;
}

int fz_first_path(const uint8_t *data, size_t n, char *path, size_t room)
{
	size_t i = 0;

	while (i < n) {
		const uint8_t *e = memchr(data + i, '\n', n - i);
		size_t len = e ? (size_t)(e - data) - i : n - i;
		const uint8_t *l = data + i;
		const uint8_t *m = len > 5 ? memmem(l, len, " m ", 3) : NULL;

		/* "XM K m START END PERMS OFFSET DEV INODE FLAGS PATH" */
		if (m && memcmp(l, "XM ", 3) == 0 && l[3] >= '0' && l[3] <= '9' &&
		    field_text(m + 3, len - (size_t)(m + 3 - l), 7, ' ', path, room) && path[0] == '/')
			return 1;
		i += len + 1;
	}
	return 0;
}
