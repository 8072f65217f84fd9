/* Errors, buffered output that fails the run when a write fails, numbers. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "exmap.h"

const char *progname = "exmap-mini";
int exit_status = EX_OK;

void exit_at_least(int code)
{
	if (exit_status < code)
		exit_status = code;
}

const char *const field_names[NFIELDS] = {
	[F_VM] = "vm", [F_MAPPED] = "mapped", [F_RESIDENT] = "resident",
	[F_EFF_MAPPED] = "eff_mapped", [F_EFF_RESIDENT] = "eff_resident",
	[F_SOLE] = "sole", [F_WRITABLE] = "writable", [F_SWAP] = "swap",
	[F_PID] = "pid", [F_NAME] = "name", [F_PATH] = "path",
	[F_NPROC] = "nproc", [F_ADDRESS] = "address",
#ifndef EXMAP_NO_CGROUPS	/* else none, so no -s names them */
	[F_CGROUP] = "cgroup", [F_PROCESSES] = "processes", [F_CHARGED] = "charged",
	[F_CHARGED_ANON] = "charged_anon", [F_CHARGED_FILE] = "charged_file",
	[F_CHARGED_SHMEM] = "charged_shmem",
#endif
};

static char obuf[65536];
static size_t olen;

static int progress_shown;

/* What to do when the kernel hides page frame numbers or addresses, which
 * need CAP_SYS_ADMIN: be root, or, for a root without it, get it back. */
const char *admin_hint(void)
{
	return geteuid() ? "run exmap-mini as root" :
	       "this process is root but lacks it (dropped, or a container's)";
}

/* isatty(), as the raw call: musl's ioctl() would bring time conversions along. */
int is_terminal(int fd)
{
	struct winsize ws;

	return terminal_size(fd, &ws) == 0;
}

/* The terminal's size on fd: 0, or -1 when fd is no terminal. */
int terminal_size(int fd, struct winsize *ws)
{
	return syscall(SYS_ioctl, fd, TIOCGWINSZ, ws) == 0 ? 0 : -1;
}

/* The old call: musl names it clock_gettime32, glibc and uClibc as the kernel does. */
#if defined(SYS_clock_gettime64) && !defined(SYS_clock_gettime32)
#define SYS_clock_gettime32 SYS_clock_gettime
#endif

/*
 * A clock's time in nanoseconds, 0 if it cannot be read: the raw call, as
 * musl's clock_gettime() brings its vDSO lookup and 32-bit time conversions.
 * A 32-bit kernel before 5.1 has no clock_gettime64: the old call then.
 */
uint64_t clock_ns(int clk)
{
#ifdef SYS_clock_gettime64
	long long t[2];
	long t32[2];

	if (syscall(SYS_clock_gettime64, clk, t) == 0)
		return (uint64_t)t[0] * 1000000000u + (uint64_t)t[1];
	if (syscall(SYS_clock_gettime32, clk, t32) == 0)
		return (uint64_t)t32[0] * 1000000000u + (uint64_t)t32[1];
	return 0;
#else
	struct timespec ts;

	return syscall(SYS_clock_gettime, clk, &ts) == 0 ?
	       (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec : 0;
#endif
}

/* One line of progress on stderr (a terminal), redrawn in place. */
void progress_show(const char *line)
{
	char buf[128];
	int n = fmt_snprintf(buf, sizeof(buf), "\r%s\033[K", line);

	if (n >= (int)sizeof(buf))
		n = sizeof(buf) - 1;
	(void)!write(2, buf, n);
	progress_shown = 1;
}

/* The progress line erased, so that what comes next starts a clean line. */
void progress_clear(void)
{
	if (progress_shown)
		(void)!write(2, "\r\033[K", 4);
	progress_shown = 0;
}

static void (*fatal_hook)(void);
static void (*warning_hook)(const char *msg);

/* What to do before a fatal error is said: give the terminal back, say. */
void on_fatal(void (*fn)(void))
{
	fatal_hook = fn;
}

/* Where warnings go instead of stderr (a full-screen view's status line), or NULL. */
void on_warning(void (*fn)(const char *msg))
{
	warning_hook = fn;
}

/* A fatal error: the hook first, and no warning hook: it is said on stderr. */
static void fatal_path(void)
{
	if (fatal_hook)
		fatal_hook();
	fatal_hook = NULL;
	warning_hook = NULL;
}

static void vmsg(int err, const char *fmt, va_list ap)
{
	char buf[1024];
	int n, i, lines = strchr(fmt, '\n') != NULL;

	out_flush();
	progress_clear();
	n = fmt_snprintf(buf, sizeof(buf), "%s: ", progname);
	n += fmt_vsnprintf(buf + n, sizeof(buf) - n, fmt, ap);
	if (n >= (int)sizeof(buf) - 64)
		n = sizeof(buf) - 64;
	/* names from a capture or a log hold any byte: a message stays the lines
	 * its format makes, and sends the terminal nothing but text */
	for (i = 0; i < n; i++)
		if (((unsigned char)buf[i] < 0x20 && !(buf[i] == '\n' && lines)) || buf[i] == 0x7f)
			buf[i] = '?';
	if (err)
		n += fmt_snprintf(buf + n, sizeof(buf) - n, ": %s", strerror(err));
	if (warning_hook) {
		buf[n] = '\0';
		warning_hook(buf + strlen(progname) + 2);
		return;
	}
	buf[n++] = '\n';
	(void)!write(2, buf, n);
}

void warnx(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(0, fmt, ap);
	va_end(ap);
}

void warnerr(int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(err, fmt, ap);
	va_end(ap);
}

void die(const char *fmt, ...)
{
	va_list ap;

	fatal_path();
	va_start(ap, fmt);
	vmsg(0, fmt, ap);
	va_end(ap);
	_exit(EX_FATAL);
}

void dierr(int err, const char *fmt, ...)
{
	va_list ap;

	fatal_path();
	va_start(ap, fmt);
	vmsg(err, fmt, ap);
	va_end(ap);
	_exit(EX_FATAL);
}

/* A fatal error with its own exit status (EX_DAMAGED, say), not EX_FATAL. */
void die_status(int code, const char *fmt, ...)
{
	va_list ap;

	fatal_path();
	va_start(ap, fmt);
	vmsg(0, fmt, ap);
	va_end(ap);
	_exit(code);
}

static int out_fd = 1;
static const char *out_name = "standard output";
static int (*write_error_hook)(int err);

/* From now on out() writes to fd, and a write error names name. */
void out_to(int fd, const char *name)
{
	out_flush();
	out_fd = fd;
	out_name = name;
}

/* fn(errno) on a write error: nonzero to write the rest again (room was
 * made), 0 to fail; NULL: fail. */
void on_write_error(int (*fn)(int err))
{
	write_error_hook = fn;
}

/* A report that could not be written is a failed run: never exit 0 after it. */
static void write_all(const char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(out_fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			int err = w < 0 ? errno : EIO;

			if (write_error_hook && write_error_hook(err))
				continue;
			olen = 0;
			dierr(err, "write error on %s", out_name);
		}
		p += w;
		n -= w;
	}
}

void out_flush(void)
{
	size_t n = olen;

	olen = 0;
	if (n)
		write_all(obuf, n);
}

void out(const char *s, size_t n)
{
	if (n > sizeof(obuf) - olen) {
		out_flush();
		if (n > sizeof(obuf)) {
			write_all(s, n);
			return;
		}
	}
	memcpy(obuf + olen, s, n);
	olen += n;
}

void outs(const char *s)
{
	out(s, strlen(s));
}

/* The first needle in s, or NULL: strstr without musl's two-way search (1 KiB). */
const char *find_str(const char *s, const char *needle)
{
	size_t n = strlen(needle);

	for (; (s = strchr(s, needle[0])) != NULL; s++)
		if (strncmp(s, needle, n) == 0)
			return s;
	return NULL;
}

/* Strict lowercase hex, as exmap-mini writes it: no sign, no prefix, at most max. */
int hex_parse(const char *s, uint64_t max, uint64_t *v)
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

/* n bytes as lowercase hex into buf (2n + 1 bytes), NUL-terminated: buf. */
char *hex_fmt(char *buf, const unsigned char *bytes, size_t n)
{
	static const char digit[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < n; i++) {
		buf[2 * i] = digit[bytes[i] >> 4];
		buf[2 * i + 1] = digit[bytes[i] & 15];
	}
	buf[2 * n] = '\0';
	return buf;
}

/* FNV-1a of n bytes, going on from h (HASH_SEED to start): the tree's one hash of names. */
uint32_t hash_bytes(uint32_t h, const void *p, size_t n)
{
	const unsigned char *b = p;

	while (n--)
		h = (h ^ *b++) * 16777619u;
	return h;
}

/*
 * Swap two elements of size bytes, a word at a time where both and the size
 * allow it: a byte at a time was most of folded's time on a capture of
 * every process. The boards' builds (no pictures) keep to bytes: riscv64's
 * has not the 24 bytes more.
 */
typedef unsigned long __attribute__((may_alias)) sort_word;

static void swap_bytes(char *a, char *b, size_t size)
{
#ifndef EXMAP_NO_PICTURES
	if (!(((uintptr_t)a | (uintptr_t)b | size) % sizeof(sort_word))) {
		sort_word *x = (sort_word *)(void *)a, *y = (sort_word *)(void *)b, t;

		for (size /= sizeof(t); size--; x++, y++) {
			t = *x;
			*x = *y;
			*y = t;
		}
		return;
	}
#endif
	while (size--) {
		char t = *a;

		*a++ = *b;
		*b++ = t;
	}
}

/* Element i of a heap rooted at base sinks to its place among n. */
static void sift_down(char *base, size_t i, size_t n, size_t size,
		      int (*cmp)(const void *, const void *))
{
	for (;;) {
		size_t big = i, l = 2 * i + 1;

		if (l < n && cmp(base + l * size, base + big * size) > 0)
			big = l;
		if (l + 1 < n && cmp(base + (l + 1) * size, base + big * size) > 0)
			big = l + 1;
		if (big == i)
			return;
		swap_bytes(base + i * size, base + big * size, size);
		i = big;
	}
}

/*
 * qsort's contract, as a heapsort: n log n at worst, no recursion, and a
 * fraction of the code (callers break ties, so stability is not needed).
 */
void sort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
	char *b = base;
	size_t i;

	for (i = n / 2; i-- > 0;)
		sift_down(b, i, n, size, cmp);
	for (i = n; i-- > 1;) {
		swap_bytes(b, b + i * size, size);
		sift_down(b, 0, i, size, cmp);
	}
}

/* v in decimal, ending at end (no NUL): where it starts. */
char *fmt_dec(char *end, uint64_t v)
{
	do
		*--end = '0' + v % 10;
	while ((v /= 10) != 0);
	return end;
}

/* A number, after a separator if sep is not NUL: printf's cost spared on the rows. */
void out_dec(char sep, uint64_t v)
{
	char buf[24], *p = fmt_dec(buf + sizeof(buf), v);

	if (sep)
		*--p = sep;
	out(p, buf + sizeof(buf) - p);
}

void outf(const char *fmt, ...)
{
	char buf[4608];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = fmt_vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n < 0)
		die("output formatting failed");
	if ((size_t)n >= sizeof(buf))
		die("internal: formatted line longer than %zu bytes", sizeof(buf));
	out(buf, n);
}

/* Decimal, no sign, no junk, at most max: 0 on success, -1 otherwise. */
int parse_u64(const char *s, uint64_t max, uint64_t *v)
{
	uint64_t x = 0;

	if (*s == '\0')
		return -1;
	for (; *s; s++) {
		unsigned d = (unsigned char)*s - '0';

		if (d > 9 || x > (max - d) / 10)
			return -1;
		x = x * 10 + d;
	}
	*v = x;
	return 0;
}

/*
 * A size as the reports print one or as people write one: bytes, or a
 * number with a binary unit, K, M, G, T (k, m, g too; KiB, MiB, GiB, TiB;
 * "512B"), its fraction to 6 places rounded to a byte ("1.5M", "4.0K"). 0,
 * or -2 for a decimal unit (kB, KB, MB, GB, TB: not taken, so that 1MB is
 * never read as either), -1 for anything else.
 */
int parse_size(const char *s, uint64_t *v)
{
	static const char units[] = "KMGT";	/* T: as the reports print a TiB */
	const char *u, *p = s;
	uint64_t whole = 0, frac = 0, ten = 1, unit;
	int shift = 0, c;

	if (*p < '0' || *p > '9')
		return -1;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (whole > (UINT64_MAX - (uint64_t)(*p - '0')) / 10)
			return -1;
		whole = whole * 10 + (uint64_t)(*p - '0');
	}
	if (*p == '.') {
		for (p++; *p >= '0' && *p <= '9'; p++) {
			if (ten == 1000000)
				return -1;	/* past a millionth */
			frac = frac * 10 + (uint64_t)(*p - '0');
			ten *= 10;
		}
		if (ten == 1)
			return -1;	/* "1." */
	}
	c = *p == 'k' || *p == 'm' || *p == 'g' ? *p - 'a' + 'A' : *p;
	if (c && (u = strchr(units, c)) != NULL) {
		shift = 10 * (int)(u - units + 1);
		p++;
		if ((p[0] == 'B' || p[0] == 'b') && !p[1])
			return -2;	/* MB, kB: decimal */
		if (p[0] == 'i' && p[1] == 'B')
			p += 2;
	} else if (*p == 'B') {
		p++;
	}
	if (*p || (ten > 1 && !shift) || whole > UINT64_MAX >> shift)
		return -1;
	unit = (uint64_t)1 << shift;
	frac = unit / ten * frac + (unit % ten * frac + ten / 2) / ten;
	if ((whole << shift) > UINT64_MAX - frac)
		return -1;
	*v = (whole << shift) + frac;
	return 0;
}

/*
 * At most five characters: "0", "512B", "4.0K", "123K", "1023M" never (that
 * is "1.0G"): one decimal below 10 units, whole units below 1000, rounded.
 */
size_t fmt_human(char *buf, size_t len, uint64_t bytes)
{
	static const char units[] = "BKMGTPE";
	uint64_t div = 1024, q, r, tenths, whole;
	int u;

	if (bytes == 0)
		return fmt_snprintf(buf, len, "0");
	if (bytes < 1000)
		return fmt_snprintf(buf, len, "%uB", (unsigned)bytes);
	for (u = 1;; u++, div <<= 10) {
		q = bytes / div;
		r = bytes % div;
		/* r < div <= 2^60, so r * 10 cannot overflow */
		tenths = q * 10 + (r * 10 + div / 2) / div;
		if (tenths < 100)
			return fmt_snprintf(buf, len, "%u.%u%c", (unsigned)(tenths / 10),
					    (unsigned)(tenths % 10), units[u]);
		whole = q + (r >= div / 2);
		if (whole < 1000 || u == 6)
			return fmt_snprintf(buf, len, "%u%c", (unsigned)whole, units[u]);
	}
}

void eff_norm(struct eff *e)
{
	e->whole += e->frac >> 32;
	e->frac &= 0xffffffffu;
}

/* Add `pages` shares of `fixed` (a share in 2^-32 bytes). */
void eff_add(struct eff *e, uint64_t fixed, uint64_t pages)
{
	uint64_t lo = (fixed & 0xffffffffu) * pages;

	e->whole += (fixed >> 32) * pages + (lo >> 32);
	e->frac += lo & 0xffffffffu;
	eff_norm(e);
}

void eff_sum(struct eff *to, const struct eff *from)
{
	to->whole += from->whole;
	to->frac += from->frac;
	eff_norm(to);
}

/* Whole bytes, rounded to nearest. */
uint64_t eff_bytes(const struct eff *e)
{
	return e->whole + (e->frac >= (UINT64_C(1) << 31));
}

void fig_add(struct fig *to, const struct fig *from)
{
	to->vm += from->vm;
	to->mapped += from->mapped;
	to->resident += from->resident;
	eff_sum(&to->eff_mapped, &from->eff_mapped);
	eff_sum(&to->eff_resident, &from->eff_resident);
	to->sole += from->sole;
	to->writable += from->writable;
	to->swap += from->swap;
}

uint64_t fig_get(const struct fig *f, enum field k)
{
	switch (k) {
	case F_VM: return f->vm;
	case F_MAPPED: return f->mapped;
	case F_RESIDENT: return f->resident;
	case F_EFF_MAPPED: return eff_bytes(&f->eff_mapped);
	case F_EFF_RESIDENT: return eff_bytes(&f->eff_resident);
	case F_SOLE: return f->sole;
	case F_WRITABLE: return f->writable;
	case F_SWAP: return f->swap;
	default: return 0;
	}
}
