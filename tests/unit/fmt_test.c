/*
 * fmt_snprintf against the C library's snprintf: every format string in src/,
 * then the edges of each conversion, each cut at every buffer size.
 * gcc -O2 -Wall -Wextra -Werror -o /tmp/fmt_test tests/unit/fmt_test.c
 * src/fmt.c (static with a cross gcc, under qemu-user, for 32-bit targets).
 * Last line: N passed, N failed.
 */
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "exmap.h"

#define BUF	4096	/* longer than any case's output */
#define U64MAX	((unsigned long long)UINT64_MAX)
#define I64MAX	((long long)INT64_MAX)
#define I64MIN	((long long)INT64_MIN)
/* Longer than every precision in src/ (.80 the longest). */
#define LONG	"/usr/lib/arm-linux-gnueabihf/libexample-with-a-long-name.so.1.2.3 " \
		"(deleted), a path longer than every precision the formats give it"

static int passed, failed;

/*
 * fmt_vsnprintf at every buffer size from 0 to past the end, against want
 * (wn bytes): the same return, what fits written and ended with a NUL,
 * nothing past it touched. 0 if so, else the size it failed at, plus 1.
 */
static size_t cut(const char *want, int wn, const char *fmt, va_list ap)
{
	static char got[BUF + 8];
	size_t size, n, i, end = (size_t)wn + 3;
	va_list aq;
	int gn;

	for (size = 0; size <= end; size++) {
		memset(got, '#', end + 5);
		va_copy(aq, ap);
		gn = fmt_vsnprintf(size ? got : NULL, size, fmt, aq);
		va_end(aq);
		n = size == 0 ? 0 : (size_t)wn < size ? (size_t)wn : size - 1;
		if (gn != wn || memcmp(got, want, n) != 0 || (size > 0 && got[n] != '\0'))
			return size + 1;
		for (i = n + (size > 0); i < end + 5; i++)
			if (got[i] != '#')
				return size + 1;
	}
	return 0;
}

/* How much of an output of n bytes to print: no more than its buffer holds. */
static int shown(int n)
{
	return n < 0 ? 0 : n < BUF ? n : BUF - 1;
}

static void result(int line, const char *fmt, size_t bad, const char *got, int gn,
		   const char *want, int wn)
{
	if (!bad) {
		passed++;
		return;
	}
	failed++;
	printf("FAIL line %d: \"%s\" at size %zu: got %d \"%.*s\", want %d \"%.*s\"\n", line,
	       fmt, bad - 1, gn, shown(gn), got, wn, shown(wn), want);
}

/* One case: got (gn) from fmt_snprintf, checked against vsnprintf at every size. */
static void t(int line, const char *got, int gn, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void t(int line, const char *got, int gn, const char *fmt, ...)
{
	char want[BUF];
	va_list ap;
	int wn;
	size_t bad;

	va_start(ap, fmt);
	wn = vsnprintf(want, sizeof(want), fmt, ap);
	va_end(ap);
	if (wn < 0 || wn >= BUF) {
		printf("FAIL line %d: \"%s\": the C library returns %d\n", line, fmt, wn);
		failed++;
		return;
	}
	bad = gn != wn || memcmp(got, want, wn + 1) != 0;
	if (!bad) {
		va_start(ap, fmt);
		bad = cut(want, wn, fmt, ap);
		va_end(ap);
	}
	result(line, fmt, bad, got, gn, want, wn);
}

#define T(...) do {							\
	char b_[BUF];							\
	int n_ = fmt_snprintf(b_, sizeof(b_), __VA_ARGS__);		\
	t(__LINE__, b_, n_, __VA_ARGS__);				\
} while (0)

/*
 * One case with the output written out: what -Wformat rejects in a format,
 * and what fmt_snprintf copies as written. No format attribute, on purpose.
 */
static void e(int line, const char *want, const char *fmt, ...)
{
	char got[BUF];
	va_list ap;
	int gn, wn = strlen(want);
	size_t bad;

	va_start(ap, fmt);
	gn = fmt_vsnprintf(got, sizeof(got), fmt, ap);
	va_end(ap);
	bad = gn != wn || memcmp(got, want, wn + 1) != 0;
	if (!bad) {
		va_start(ap, fmt);
		bad = cut(want, wn, fmt, ap);
		va_end(ap);
	}
	result(line, fmt, bad, got, gn, want, wn);
}

#define E(...)	e(__LINE__, __VA_ARGS__)

/* An output longer than INT_MAX: -1, and what fits still ends with a NUL. */
static void overflow(int line, const char *fmt, ...)
{
	char got[8];
	va_list ap;
	int gn;

	memset(got, '#', sizeof(got));
	va_start(ap, fmt);
	gn = fmt_vsnprintf(got, sizeof(got), fmt, ap);
	va_end(ap);
	if (gn == -1 && got[7] == '\0') {
		passed++;
		return;
	}
	failed++;
	printf("FAIL line %d: \"%s\": got %d, want -1 (longer than INT_MAX)\n", line, fmt, gn);
}

/* Not NUL-terminated: a precision must stop the read. */
static const char abc[3] = "abc";

int main(void)
{
	/*
	 * Every format string src/ passes to snprintf, vsnprintf or a wrapper
	 * (outf, warnx, die...; kept in step with it): nothing, the extremes, a mix.
	 */
	T("  %-12s %8llx %016llx %8llx %8llx %s %llx\n", "", 0ull, 0ull, 0ull, 0ull, "", 0ull);
	T("  %-12s %8llx %016llx %8llx %8llx %s %llx\n", LONG, U64MAX, U64MAX, U64MAX, U64MAX,
	  LONG, U64MAX);
	T("  %-12s %8llx %016llx %8llx %8llx %s %llx\n", "a", 4294967295ull, 4294967296ull,
	  10000000000000000000ull, 0x123456789abcdef0ull, LONG, 0ull);
	T("  %016llx %8llu %-7s %-6s %-12.12s %s\n", 0ull, 0ull, "", "", "", "");
	T("  %016llx %8llu %-7s %-6s %-12.12s %s\n", U64MAX, U64MAX, LONG, LONG, LONG, LONG);
	T("  %016llx %8llu %-7s %-6s %-12.12s %s\n", 1ull, 4294967295ull, "x y", "[heap]", "",
	  LONG);
	T("  %s%s", "", "");
	T("  %s%s", LONG, LONG);
	T("  %s%s", "a", "/usr/lib/libc.so.6");
	T("  [%2u] %-18.18s %-12.12s %016llx %8llx %8llx %s\n", 0u, "", "", 0ull, 0ull, 0ull, "");
	T("  [%2u] %-18.18s %-12.12s %016llx %8llx %8llx %s\n", UINT_MAX, LONG, LONG, U64MAX,
	  U64MAX, U64MAX, LONG);
	T("  [%2u] %-18.18s %-12.12s %016llx %8llx %8llx %s\n", 1u, "/usr/lib/libc.so.6", "x y",
	  10000000000000000000ull, 0x123456789abcdef0ull, 4096ull, "a");
	T(" %*s", 0, "");
	T(" %*s", 40, LONG);
	T(" %*s", -9, "/usr/lib/libc.so.6");
	T(" %3u>%-2u", 0u, 0u);
	T(" %3u>%-2u", UINT_MAX, UINT_MAX);
	T(" %3u>%-2u", 1u, 0x80000000u);
	T(" %5u ", 0u);
	T(" %5u ", UINT_MAX);
	T(" %5u ", 1u);
	T(" %c%x", 'a', 0u);
	T(" %c%x", '~', UINT_MAX);
	T(" %c%x", '/', 0x80000000u);
	T(" %c%x:%x", 'a', 0u, 0u);
	T(" %c%x:%x", '~', UINT_MAX, UINT_MAX);
	T(" %c%x:%x", '/', 0x80000000u, 123456789u);
	T(" %s\n", "");
	T(" %s\n", LONG);
	T(" %s\n", "a");
	T(" %x", 0u);
	T(" %x", UINT_MAX);
	T(" %x", 1u);
	T(" %x*%x", 0u, 0u);
	T(" %x*%x", UINT_MAX, UINT_MAX);
	T(" %x*%x", 1u, 0x80000000u);
	T(" but %u debug-only file%s (objcopy --only-keep-debug)", 0u, "");
	T(" but %u debug-only file%s (objcopy --only-keep-debug)", UINT_MAX, LONG);
	T(" but %u debug-only file%s (objcopy --only-keep-debug)", 1u, "/usr/lib/libc.so.6");
	T("%-*.*s", 0, 0, "");
	T("%-*.*s", 40, 100, LONG);
	T("%-*.*s", -9, 5, "x y");
	T("%-*s", 0, "");
	T("%-*s", 40, LONG);
	T("%-*s", -9, "/usr/lib/libc.so.6");
	T("%-*s PERM OFFSET ", 0, "");
	T("%-*s PERM OFFSET ", 40, LONG);
	T("%-*s PERM OFFSET ", -9, "/usr/lib/libc.so.6");
	T("%.*s/%s", 0, "", "");
	T("%.*s/%s", 100, LONG, LONG);
	T("%.*s/%s", -1, "/usr/lib/libc.so.6", "x y");
	T("%.*s/%s: longer than PATH_MAX (%d)", 0, "", "", 0);
	T("%.*s/%s: longer than PATH_MAX (%d)", 100, LONG, LONG, INT_MIN);
	T("%.*s/%s: longer than PATH_MAX (%d)", -1, "/usr/lib/libc.so.6", "x y", 42);
	T("%.40s %.40s %.60s", "", "", "");
	T("%.40s %.40s %.60s", LONG, LONG, LONG);
	T("%.40s %.40s %.60s", "a", "/usr/lib/libc.so.6", "x y");
	T("%0*llx %s %-7llx", 0, 0ull, "", 0ull);
	T("%0*llx %s %-7llx", 40, U64MAX, LONG, U64MAX);
	T("%0*llx %s %-7llx", -9, 4294967295ull, "x y", 10000000000000000000ull);
	T("%02x", 0u);
	T("%02x", UINT_MAX);
	T("%02x", 1u);
	T("%7d ", 0);
	T("%7d ", INT_MIN);
	T("%7d ", -1);
	T("%7s %-16s", "", "");
	T("%7s %-16s", LONG, LONG);
	T("%7s %-16s", "a", "/usr/lib/libc.so.6");
	T("%d", 0);
	T("%d", INT_MIN);
	T("%d", -1);
	T("%d,0x%llx,0x%llx,%s,%llu,%x:%x,%llu,", 0, 0ull, 0ull, "", 0ull, 0u, 0u, 0ull);
	T("%d,0x%llx,0x%llx,%s,%llu,%x:%x,%llu,", INT_MIN, U64MAX, U64MAX, LONG, U64MAX, UINT_MAX,
	  UINT_MAX, U64MAX);
	T("%d,0x%llx,0x%llx,%s,%llu,%x:%x,%llu,", -1, 4294967295ull, 4294967296ull, "[heap]",
	  0x123456789abcdef0ull, UINT_MAX, 1u, U64MAX);
	T("%llu", 0ull);
	T("%llu", U64MAX);
	T("%llu", 1ull);
	T("%s", "");
	T("%s", LONG);
	T("%s", "a");
	T("%s at offset %llu (%zu bytes) is past the end of the file (%llu bytes)", "", 0ull,
	  (size_t)0, 0ull);
	T("%s at offset %llu (%zu bytes) is past the end of the file (%llu bytes)", LONG, U64MAX,
	  SIZE_MAX, U64MAX);
	T("%s at offset %llu (%zu bytes) is past the end of the file (%llu bytes)", "a",
	  4294967295ull, (size_t)1000000, 10000000000000000000ull);
	T("%s does not show a page this process just wrote: is it running under an emulator such as qemu-user?",
	  "");
	T("%s does not show a page this process just wrote: is it running under an emulator such as qemu-user?",
	  LONG);
	T("%s does not show a page this process just wrote: is it running under an emulator such as qemu-user?",
	  "a");
	T("%s has build-id %s but only debug data (objcopy --only-keep-debug): not used; no other file under %s has it",
	  "", "", "");
	T("%s has build-id %s but only debug data (objcopy --only-keep-debug): not used; no other file under %s has it",
	  LONG, LONG, LONG);
	T("%s has build-id %s but only debug data (objcopy --only-keep-debug): not used; no other file under %s has it",
	  "a", "/usr/lib/libc.so.6", "x y");
	T("%s has build-id %s, the capture has %s: not used; no other file under %s has it", "",
	  "", "", "");
	T("%s has build-id %s, the capture has %s: not used; no other file under %s has it", LONG,
	  LONG, LONG, LONG);
	T("%s has build-id %s, the capture has %s: not used; no other file under %s has it", "a",
	  "/usr/lib/libc.so.6", "x y", "[heap]");
	T("%s has no build-id, the capture has %s: not used; no other file under %s has it", "",
	  "", "");
	T("%s has no build-id, the capture has %s: not used; no other file under %s has it", LONG,
	  LONG, LONG);
	T("%s has no build-id, the capture has %s: not used; no other file under %s has it", "a",
	  "/usr/lib/libc.so.6", "x y");
	T("%s has no symbol table (stripped)", "");
	T("%s has no symbol table (stripped)", LONG);
	T("%s has no symbol table (stripped)", "a");
	T("%s is not a regular file", "");
	T("%s is not a regular file", LONG);
	T("%s is not a regular file", "a");
	T("%s is not a regular file; no other file under %s has build-id %s", "", "", "");
	T("%s is not a regular file; no other file under %s has build-id %s", LONG, LONG, LONG);
	T("%s is not a regular file; no other file under %s has build-id %s", "a",
	  "/usr/lib/libc.so.6", "x y");
	T("%s matches more than one mapped file:\n  %s%s\n  %s%s", "", "", "", "", "");
	T("%s matches more than one mapped file:\n  %s%s\n  %s%s", LONG, LONG, LONG, LONG, LONG);
	T("%s matches more than one mapped file:\n  %s%s\n  %s%s", "a", "/usr/lib/libc.so.6",
	  "x y", "[heap]", "");
	T("%s of %zu bytes is larger than the %zu-byte read window", "", (size_t)0, (size_t)0);
	T("%s of %zu bytes is larger than the %zu-byte read window", LONG, SIZE_MAX, SIZE_MAX);
	T("%s of %zu bytes is larger than the %zu-byte read window", "a", (size_t)4096,
	  (size_t)1000000);
	T("%s%s", "", "");
	T("%s%s", LONG, LONG);
	T("%s%s", "a", "/usr/lib/libc.so.6");
	T("%s%s%s", "", "", "");
	T("%s%s%s", LONG, LONG, LONG);
	T("%s%s%s", "a", "/usr/lib/libc.so.6", "x y");
	T("%s,%llu,", "", 0ull);
	T("%s,%llu,", LONG, U64MAX);
	T("%s,%llu,", "a", 4294967295ull);
	T("%s: ", "");
	T("%s: ", LONG);
	T("%s: ", "a");
	T("%s: %llu capture lines after its end line are ignored (another capture whose begin line is damaged?)",
	  "", 0ull);
	T("%s: %llu capture lines after its end line are ignored (another capture whose begin line is damaged?)",
	  LONG, U64MAX);
	T("%s: %llu capture lines after its end line are ignored (another capture whose begin line is damaged?)",
	  "a", 4294967295ull);
	T("%s: %llu entries of %llu bytes at offset %llu do not fit in the file (%llu bytes)", "",
	  0ull, 0ull, 0ull, 0ull);
	T("%s: %llu entries of %llu bytes at offset %llu do not fit in the file (%llu bytes)",
	  LONG, U64MAX, U64MAX, U64MAX, U64MAX);
	T("%s: %llu entries of %llu bytes at offset %llu do not fit in the file (%llu bytes)", "a",
	  4294967295ull, 4294967296ull, 10000000000000000000ull, 0x123456789abcdef0ull);
	T("%s: %s", "", "");
	T("%s: %s", LONG, LONG);
	T("%s: %s", "a", "/usr/lib/libc.so.6");
	T("%s: %s; no other file under %s has build-id %s", "", "", "", "");
	T("%s: %s; no other file under %s has build-id %s", LONG, LONG, LONG, LONG);
	T("%s: %s; no other file under %s has build-id %s", "a", "/usr/lib/libc.so.6", "x y",
	  "[heap]");
	T("%s: %u of %u chunks lost; %u of %u processes loaded", "", 0u, 0u, 0u, 0u);
	T("%s: %u of %u chunks lost; %u of %u processes loaded", LONG, UINT_MAX, UINT_MAX,
	  UINT_MAX, UINT_MAX);
	T("%s: %u of %u chunks lost; %u of %u processes loaded", "a", 0x80000000u, 123456789u, 9u,
	  0u);
	T("%s: %u process%s left out: figures are partial", "", 0u, "");
	T("%s: %u process%s left out: figures are partial", LONG, UINT_MAX, LONG);
	T("%s: %u process%s left out: figures are partial", "a", 0x80000000u, "x y");
	T("%s: %zu of %zu processes read; reading pid %d (%.20s)", "", (size_t)0, (size_t)0, 0, "");
	T("%s: %zu of %zu processes read; reading pid %d (%.20s)", LONG, SIZE_MAX, SIZE_MAX,
	  INT_MIN, LONG);
	T("%s: %zu of %zu processes read; reading pid %d (%.20s)", "a", (size_t)4096,
	  (size_t)1000000, 42, "");
	T("%s: ELF%d %s-endian %s, type %u, %llu bytes\n", "", 0, "", "", 0u, 0ull);
	T("%s: ELF%d %s-endian %s, type %u, %llu bytes\n", LONG, INT_MIN, LONG, LONG, UINT_MAX,
	  U64MAX);
	T("%s: ELF%d %s-endian %s, type %u, %llu bytes\n", "a", 1, "x y", "[heap]", 0u, 4096ull);
	T("%s: a capture in format v%d: this exmap-mini reads v%d", "", 0, 0);
	T("%s: a capture in format v%d: this exmap-mini reads v%d", LONG, INT_MIN, INT_MIN);
	T("%s: a capture in format v%d: this exmap-mini reads v%d", "a", 1, INT_MAX);
	T("%s: ambiguous: give the whole path (add \" (deleted)\" for a deleted one)", "");
	T("%s: ambiguous: give the whole path (add \" (deleted)\" for a deleted one)", LONG);
	T("%s: ambiguous: give the whole path (add \" (deleted)\" for a deleted one)", "a");
	T("%s: as pid %d maps it: %s: left out", "", 0, "");
	T("%s: as pid %d maps it: %s: left out", LONG, INT_MIN, LONG);
	T("%s: as pid %d maps it: %s: left out", "a", 1, "x y");
	T("%s: cannot read it again", "");
	T("%s: cannot read it again", LONG);
	T("%s: cannot read it again", "a");
	T("%s: cannot read our own pages", "");
	T("%s: cannot read our own pages", LONG);
	T("%s: cannot read our own pages", "a");
	T("%s: chunk %u appears twice: the first copy is kept", "", 0u);
	T("%s: chunk %u appears twice: the first copy is kept", LONG, UINT_MAX);
	T("%s: chunk %u appears twice: the first copy is kept", "a", 0x80000000u);
	T("%s: chunk %u of %u (%s), log lines %llu-%llu: %s%s: %s", "", 0u, 0u, "", 0ull, 0ull, "",
	  "", "");
	T("%s: chunk %u of %u (%s), log lines %llu-%llu: %s%s: %s", LONG, UINT_MAX, UINT_MAX, LONG,
	  U64MAX, U64MAX, LONG, LONG, LONG);
	T("%s: chunk %u of %u (%s), log lines %llu-%llu: %s%s: %s", "a", 0x80000000u, 123456789u,
	  "[heap]", 0x123456789abcdef0ull, 4096ull, "a", "/usr/lib/libc.so.6", "x y");
	T("%s: chunk %u of %u (%s): missing from the log: %s", "", 0u, 0u, "", "");
	T("%s: chunk %u of %u (%s): missing from the log: %s", LONG, UINT_MAX, UINT_MAX, LONG,
	  LONG);
	T("%s: chunk %u of %u (%s): missing from the log: %s", "a", 0x80000000u, 123456789u,
	  "[heap]", "");
	T("%s: chunks %u-%u of %u (processes): missing from the log: those processes are left out of every view",
	  "", 0u, 0u, 0u);
	T("%s: chunks %u-%u of %u (processes): missing from the log: those processes are left out of every view",
	  LONG, UINT_MAX, UINT_MAX, UINT_MAX);
	T("%s: chunks %u-%u of %u (processes): missing from the log: those processes are left out of every view",
	  "a", 0x80000000u, 123456789u, 9u);
	T("%s: chunks %u-%u of %u (share counts): missing from the log: %s", "", 0u, 0u, 0u, "");
	T("%s: chunks %u-%u of %u (share counts): missing from the log: %s", LONG, UINT_MAX,
	  UINT_MAX, UINT_MAX, LONG);
	T("%s: chunks %u-%u of %u (share counts): missing from the log: %s", "a", 0x80000000u,
	  123456789u, 9u, "");
	T("%s: from %s, whose build-id matches", "", "");
	T("%s: from %s, whose build-id matches", LONG, LONG);
	T("%s: from %s, whose build-id matches", "a", "/usr/lib/libc.so.6");
	T("%s: holds %u captures: the last (line %llu) is loaded", "", 0u, 0ull);
	T("%s: holds %u captures: the last (line %llu) is loaded", LONG, UINT_MAX, U64MAX);
	T("%s: holds %u captures: the last (line %llu) is loaded", "a", 0x80000000u, 4294967296ull);
	T("%s: inconsistent capture: page %u has a share count of %u, but the processes map it %u times",
	  "", 0u, 0u, 0u);
	T("%s: inconsistent capture: page %u has a share count of %u, but the processes map it %u times",
	  LONG, UINT_MAX, UINT_MAX, UINT_MAX);
	T("%s: inconsistent capture: page %u has a share count of %u, but the processes map it %u times",
	  "a", 0x80000000u, 123456789u, 9u);
	T("%s: line %llu: a damaged capture line: ignored (its chunk will miss it)", "", 0ull);
	T("%s: line %llu: a damaged capture line: ignored (its chunk will miss it)", LONG, U64MAX);
	T("%s: line %llu: a damaged capture line: ignored (its chunk will miss it)", "a",
	  4294967295ull);
	T("%s: log lines %llu-%llu name chunk %u, which loaded whole: ignored (%s)", "", 0ull,
	  0ull, 0u, "");
	T("%s: log lines %llu-%llu name chunk %u, which loaded whole: ignored (%s)", LONG, U64MAX,
	  U64MAX, UINT_MAX, LONG);
	T("%s: log lines %llu-%llu name chunk %u, which loaded whole: ignored (%s)", "a",
	  4294967295ull, 4294967296ull, 9u, "");
	T("%s: no capture in it (no \"XM begin\" line): take one with exmap-mini dump", "");
	T("%s: no capture in it (no \"XM begin\" line): take one with exmap-mini dump", LONG);
	T("%s: no capture in it (no \"XM begin\" line): take one with exmap-mini dump", "a");
	T("%s: no scanned process could be read", "");
	T("%s: no scanned process could be read", LONG);
	T("%s: no scanned process could be read", "a");
	T("%s: no scanned process maps such a file", "");
	T("%s: no scanned process maps such a file", LONG);
	T("%s: no scanned process maps such a file", "a");
	T("%s: not a regular file", "");
	T("%s: not a regular file", LONG);
	T("%s: not a regular file", "a");
	T("%s: not a regular file (a capture is read twice)", "");
	T("%s: not a regular file (a capture is read twice)", LONG);
	T("%s: not a regular file (a capture is read twice)", "a");
	T("%s: page frame numbers are for root only: run exmap-mini as root (reading them needs CAP_SYS_ADMIN)",
	  "");
	T("%s: page frame numbers are for root only: run exmap-mini as root (reading them needs CAP_SYS_ADMIN)",
	  LONG);
	T("%s: page frame numbers are for root only: run exmap-mini as root (reading them needs CAP_SYS_ADMIN)",
	  "a");
	T("%s: pid %d exited before its mappings could be read: left out", "", 0);
	T("%s: pid %d exited before its mappings could be read: left out", LONG, INT_MIN);
	T("%s: pid %d exited before its mappings could be read: left out", "a", 1);
	T("%s: pid %d maps it unlike its program headers or build-id say (changed since it was mapped?): left out",
	  "", 0);
	T("%s: pid %d maps it unlike its program headers or build-id say (changed since it was mapped?): left out",
	  LONG, INT_MIN);
	T("%s: pid %d maps it unlike its program headers or build-id say (changed since it was mapped?): left out",
	  "a", 1);
	T("%s: pid %d uses pages whose share counts are lost: left out", "", 0);
	T("%s: pid %d uses pages whose share counts are lost: left out", LONG, INT_MIN);
	T("%s: pid %d uses pages whose share counts are lost: left out", "a", 1);
	T("%s: read error", "");
	T("%s: read error", LONG);
	T("%s: read error", "a");
	T("%s: the capture declares %u chunks, more than %llu bytes can hold", "", 0u, 0ull);
	T("%s: the capture declares %u chunks, more than %llu bytes can hold", LONG, UINT_MAX,
	  U64MAX);
	T("%s: the capture declares %u chunks, more than %llu bytes can hold", "a", 0x80000000u,
	  4294967296ull);
	T("%s: the capture has no build-id for it: %s is used on its path alone", "", "");
	T("%s: the capture has no build-id for it: %s is used on its path alone", LONG, LONG);
	T("%s: the capture has no build-id for it: %s is used on its path alone", "a",
	  "/usr/lib/libc.so.6");
	T("%s: the capture's begin and end lines are both damaged or missing: its parameters are lost",
	  "");
	T("%s: the capture's begin and end lines are both damaged or missing: its parameters are lost",
	  LONG);
	T("%s: the capture's begin and end lines are both damaged or missing: its parameters are lost",
	  "a");
	T("%s: the capture's begin and end lines disagree (two captures mixed?)", "");
	T("%s: the capture's begin and end lines disagree (two captures mixed?)", LONG);
	T("%s: the capture's begin and end lines disagree (two captures mixed?)", "a");
	T("%s: the capture's begin line is damaged: its end line stands in", "");
	T("%s: the capture's begin line is damaged: its end line stands in", LONG);
	T("%s: the capture's begin line is damaged: its end line stands in", "a");
	T("%s: the capture's build-ids were lost (see above): the file cannot be checked, so it is not used",
	  "");
	T("%s: the capture's build-ids were lost (see above): the file cannot be checked, so it is not used",
	  LONG);
	T("%s: the capture's build-ids were lost (see above): the file cannot be checked, so it is not used",
	  "a");
	T("%s: the log ends before the capture's end line: cut short?", "");
	T("%s: the log ends before the capture's end line: cut short?", LONG);
	T("%s: the log ends before the capture's end line: cut short?", "a");
	T("%s: the path is longer than the %zu bytes it is given", "", (size_t)0);
	T("%s: the path is longer than the %zu bytes it is given", LONG, SIZE_MAX);
	T("%s: the path is longer than the %zu bytes it is given", "a", (size_t)4096);
	T("%u process%s", 0u, "");
	T("%u process%s", UINT_MAX, LONG);
	T("%u process%s", 1u, "/usr/lib/libc.so.6");
	T("%u process%s could not be read: figures are partial", 0u, "");
	T("%u process%s could not be read: figures are partial", UINT_MAX, LONG);
	T("%u process%s could not be read: figures are partial", 1u, "/usr/lib/libc.so.6");
	T("%u process%s could not be read: the capture leaves %s out", 0u, "", "");
	T("%u process%s could not be read: the capture leaves %s out", UINT_MAX, LONG, LONG);
	T("%u process%s could not be read: the capture leaves %s out", 1u, "/usr/lib/libc.so.6",
	  "x y");
	T("%u%c", 0u, 'a');
	T("%u%c", UINT_MAX, '~');
	T("%u%c", 1u, 'Z');
	T("%u.%u%c", 0u, 0u, 'a');
	T("%u.%u%c", UINT_MAX, UINT_MAX, '~');
	T("%u.%u%c", 1u, 0x80000000u, 'a');
	T("%uB", 0u);
	T("%uB", UINT_MAX);
	T("%uB", 1u);
	T(",%d,%d\n", 0, 0);
	T(",%d,%d\n", INT_MIN, INT_MIN);
	T(",%d,%d\n", -1, 1);
	T(",%d\n", 0);
	T(",%d\n", INT_MIN);
	T(",%d\n", -1);
	T(",%lld", 0ll);
	T(",%lld", I64MIN);
	T(",%lld", -1ll);
	T(",%s", "");
	T(",%s", LONG);
	T(",%s", "a");
	T(",%s,0x%llx,%s,%llu,%s,%s,%s,%s,", "", 0ull, "", 0ull, "", "", "", "");
	T(",%s,0x%llx,%s,%llu,%s,%s,%s,%s,", LONG, U64MAX, LONG, U64MAX, LONG, LONG, LONG, LONG);
	T(",%s,0x%llx,%s,%llu,%s,%s,%s,%s,", "a", 4294967295ull, "x y", 10000000000000000000ull,
	  "", LONG, "a", "/usr/lib/libc.so.6");
	T(",%s\n", "");
	T(",%s\n", LONG);
	T(",%s\n", "a");
	T(",%u", 0u);
	T(",%u", UINT_MAX);
	T(",%u", 1u);
	T(",%u,%u", 0u, 0u);
	T(",%u,%u", UINT_MAX, UINT_MAX);
	T(",%u,%u", 1u, 0x80000000u);
	T(",0x%llx,%llu", 0ull, 0ull);
	T(",0x%llx,%llu", U64MAX, U64MAX);
	T(",0x%llx,%llu", 1ull, 4294967295ull);
	T("--budget: checked on a scan or a capture, not with the %s view", "");
	T("--budget: checked on a scan or a capture, not with the %s view", LONG);
	T("--budget: checked on a scan or a capture, not with the %s view", "a");
	T("--budget: more than %d budgets", 0);
	T("--budget: more than %d budgets", INT_MIN);
	T("--budget: more than %d budgets", -1);
	T("--budget: not NAME=SIZE (SIZE in bytes, or with K, M, G): %s", "");
	T("--budget: not NAME=SIZE (SIZE in bytes, or with K, M, G): %s", LONG);
	T("--budget: not NAME=SIZE (SIZE in bytes, or with K, M, G): %s", "a");
	T("-S: a sysroot is for a capture's files: give -l too");
	T("-b kmod: /proc/exmap-mini does not exist: load the module (insmod exmap_mini.ko; see kmod/README.md)");
	T("-b, -p and -t shape a scan; a capture was shaped when it was taken");
	T("-b: not auto, kmod or pagemap: %s", "");
	T("-b: not auto, kmod or pagemap: %s", LONG);
	T("-b: not auto, kmod or pagemap: %s", "a");
	T("-l: not with the %s view", "");
	T("-l: not with the %s view", LONG);
	T("-l: not with the %s view", "a");
	T("-m: not a size of at least 1M: %s", "");
	T("-m: not a size of at least 1M: %s", LONG);
	T("-m: not a size of at least 1M: %s", "a");
	T("-n: not a row count from 1: %s", "");
	T("-n: not a row count from 1: %s", LONG);
	T("-n: not a row count from 1: %s", "a");
	T("-p: bad pid list: %s", "");
	T("-p: bad pid list: %s", LONG);
	T("-p: bad pid list: %s", "a");
	T("-p: bad pid: %s", "");
	T("-p: bad pid: %s", LONG);
	T("-p: bad pid: %s", "a");
	T("-p: more than %d pids: scan every process (no -p) instead", 0);
	T("-p: more than %d pids: scan every process (no -p) instead", INT_MIN);
	T("-p: more than %d pids: scan every process (no -p) instead", -1);
	T("-s: %s is not a field of this view", "");
	T("-s: %s is not a field of this view", LONG);
	T("-s: %s is not a field of this view", "a");
	T("-t: not a page count from 1 to %u: %s", 0u, "");
	T("-t: not a page count from 1 to %u: %s", UINT_MAX, LONG);
	T("-t: not a page count from 1 to %u: %s", 1u, "/usr/lib/libc.so.6");
	T("/proc/%d", 0);
	T("/proc/%d", INT_MIN);
	T("/proc/%d", -1);
	T("/proc/self/fd/%d", 0);
	T("/proc/self/fd/%d", INT_MIN);
	T("/proc/self/fd/%d", -1);
	T("0");
	T("0x%x", 0u);
	T("0x%x", UINT_MAX);
	T("0x%x", 1u);
	T(": %s", "");
	T(": %s", LONG);
	T(": %s", "a");
	T(": %u of its %u arrived", 0u, 0u);
	T(": %u of its %u arrived", UINT_MAX, UINT_MAX);
	T(": %u of its %u arrived", 1u, 0x80000000u);
	T("; %u director%s more than SYSROOT_DEPTH_MAX (%d) levels under %s not searched", 0u, "",
	  0, "");
	T("; %u director%s more than SYSROOT_DEPTH_MAX (%d) levels under %s not searched",
	  UINT_MAX, LONG, INT_MIN, LONG);
	T("; %u director%s more than SYSROOT_DEPTH_MAX (%d) levels under %s not searched", 1u,
	  "/usr/lib/libc.so.6", INT_MAX, "[heap]");
	T("; %u director%s under %s could not be read", 0u, "", "");
	T("; %u director%s under %s could not be read", UINT_MAX, LONG, LONG);
	T("; %u director%s under %s could not be read", 1u, "/usr/lib/libc.so.6", "x y");
	T("; %u file%s under %s could not be opened", 0u, "", "");
	T("; %u file%s under %s could not be opened", UINT_MAX, LONG, LONG);
	T("; %u file%s under %s could not be opened", 1u, "/usr/lib/libc.so.6", "x y");
	T("; %u mount point%s under %s not searched (other filesystems)", 0u, "", "");
	T("; %u mount point%s under %s not searched (other filesystems)", UINT_MAX, LONG, LONG);
	T("; %u mount point%s under %s not searched (other filesystems)", 1u, "/usr/lib/libc.so.6",
	  "x y");
	T("; %u path%s longer than PATH_MAX (%d) under %s not searched", 0u, "", 0, "");
	T("; %u path%s longer than PATH_MAX (%d) under %s not searched", UINT_MAX, LONG, INT_MIN,
	  LONG);
	T("; %u path%s longer than PATH_MAX (%d) under %s not searched", 1u, "/usr/lib/libc.so.6",
	  INT_MAX, "[heap]");
	T("; line %llu does not parse", 0ull);
	T("; line %llu does not parse", U64MAX);
	T("; line %llu does not parse", 1ull);
	T("; the capture has no build-id to look further with");
	T("XM %u ", 0u);
	T("XM %u ", UINT_MAX);
	T("XM %u ", 1u);
	T("XM %u . %u %08x %s\n", 0u, 0u, 0u, "");
	T("XM %u . %u %08x %s\n", UINT_MAX, UINT_MAX, UINT_MAX, LONG);
	T("XM %u . %u %08x %s\n", 1u, 0x80000000u, 123456789u, "[heap]");
	T("XM begin %s crc=%08x\n", "", 0u);
	T("XM begin %s crc=%08x\n", LONG, UINT_MAX);
	T("XM begin %s crc=%08x\n", "a", 0x80000000u);
	T("XM end %s crc=%08x\n", "", 0u);
	T("XM end %s crc=%08x\n", LONG, UINT_MAX);
	T("XM end %s crc=%08x\n", "a", 0x80000000u);
	T("[%u]", 0u);
	T("[%u]", UINT_MAX);
	T("[%u]", 1u);
	T("\r%s\033[K", "");
	T("\r%s\033[K", LONG);
	T("\r%s\033[K", "a");
	T("a PT_LOAD segment has impossible sizes");
	T("a process");
	T("arena full: %zu MiB in use, %zu more bytes needed; raise it with -m SIZE", (size_t)0,
	  (size_t)0);
	T("arena full: %zu MiB in use, %zu more bytes needed; raise it with -m SIZE", SIZE_MAX,
	  SIZE_MAX);
	T("arena full: %zu MiB in use, %zu more bytes needed; raise it with -m SIZE", (size_t)1,
	  (size_t)4096);
	T("b %x %llx %x ", 0u, 0ull, 0u);
	T("b %x %llx %x ", UINT_MAX, U64MAX, UINT_MAX);
	T("b %x %llx %x ", 1u, 4294967295ull, 123456789u);
	T("bad ELF class %u", 0u);
	T("bad ELF class %u", UINT_MAX);
	T("bad ELF class %u", 1u);
	T("bad ELF data encoding %u", 0u);
	T("bad ELF data encoding %u", UINT_MAX);
	T("bad ELF data encoding %u", 1u);
	T("bad ELF version %u", 0u);
	T("bad ELF version %u", UINT_MAX);
	T("bad ELF version %u", 1u);
	T("bad program header size %u", 0u);
	T("bad program header size %u", UINT_MAX);
	T("bad program header size %u", 1u);
	T("bad section header size %u", 0u);
	T("bad section header size %u", UINT_MAX);
	T("bad section header size %u", 1u);
	T("budget %s exceeded: eff_resident is %llu bytes, the budget %llu", "", 0ull, 0ull);
	T("budget %s exceeded: eff_resident is %llu bytes, the budget %llu", LONG, U64MAX, U64MAX);
	T("budget %s exceeded: eff_resident is %llu bytes, the budget %llu", "a", 4294967295ull,
	  4294967296ull);
	T("budget %s: eff_resident %s of %s: %s\n", "", "", "", "");
	T("budget %s: eff_resident %s of %s: %s\n", LONG, LONG, LONG, LONG);
	T("budget %s: eff_resident %s of %s: %s\n", "a", "/usr/lib/libc.so.6", "x y", "[heap]");
	T("budget %s: no %s of that name was scanned: not checked", "", "");
	T("budget %s: no %s of that name was scanned: not checked", LONG, LONG);
	T("budget %s: no %s of that name was scanned: not checked", "a", "/usr/lib/libc.so.6");
	T("budget %s: no %s of that name: not checked\n", "", "");
	T("budget %s: no %s of that name: not checked\n", LONG, LONG);
	T("budget %s: no %s of that name: not checked\n", "a", "/usr/lib/libc.so.6");
	T("build-id of %llu bytes", 0ull);
	T("build-id of %llu bytes", U64MAX);
	T("build-id of %llu bytes", 1ull);
	T("build-id: %s\n", "");
	T("build-id: %s\n", LONG);
	T("build-id: %s\n", "a");
	T("build-ids");
	T("c %x %x", 0u, 0u);
	T("c %x %x", UINT_MAX, UINT_MAX);
	T("c %x %x", 1u, 0x80000000u);
	T("cannot commit %zu MiB more of the arena", (size_t)0);
	T("cannot commit %zu MiB more of the arena", SIZE_MAX);
	T("cannot commit %zu MiB more of the arena", (size_t)1);
	T("cannot list /proc");
	T("cannot read /proc/meminfo");
	T("cannot reserve an arena of %llu MiB: cap it with -m SIZE", 0ull);
	T("cannot reserve an arena of %llu MiB: cap it with -m SIZE", U64MAX);
	T("cannot reserve an arena of %llu MiB: cap it with -m SIZE", 1ull);
	T("check: eff_mapped total = %llu distinct pages x %llu B: %s\n", 0ull, 0ull, "");
	T("check: eff_mapped total = %llu distinct pages x %llu B: %s\n", U64MAX, U64MAX, LONG);
	T("check: eff_mapped total = %llu distinct pages x %llu B: %s\n", 1ull, 4294967295ull,
	  "x y");
	T("check: not made: %u process%s of the capture did not load\n", 0u, "");
	T("check: not made: %u process%s of the capture did not load\n", UINT_MAX, LONG);
	T("check: not made: %u process%s of the capture did not load\n", 1u, "/usr/lib/libc.so.6");
	T("extended section index table %u is too short or past the end of the file", 0u);
	T("extended section index table %u is too short or past the end of the file", UINT_MAX);
	T("extended section index table %u is too short or past the end of the file", 1u);
	T("ids=%x-%x", 0u, 0u);
	T("ids=%x-%x", UINT_MAX, UINT_MAX);
	T("ids=%x-%x", 1u, 0x80000000u);
	T("internal: capture field too long");
	T("internal: capture field too long to escape");
	T("internal: capture line too long");
	T("internal: formatted line longer than %zu bytes", (size_t)0);
	T("internal: formatted line longer than %zu bytes", SIZE_MAX);
	T("internal: formatted line longer than %zu bytes", (size_t)1);
	T("kmod: /proc/exmap-mini speaks another version of the protocol: load the exmap_mini.ko built with this exmap-mini");
	T("m %llx %llx %s %llx %x %llx %x ", 0ull, 0ull, "", 0ull, 0u, 0ull, 0u);
	T("m %llx %llx %s %llx %x %llx %x ", U64MAX, U64MAX, LONG, U64MAX, UINT_MAX, U64MAX,
	  UINT_MAX);
	T("m %llx %llx %s %llx %x %llx %x ", 1ull, 4294967295ull, "x y", 10000000000000000000ull,
	  0u, 4096ull, 1u);
	T("map_files/%llx-%llx", 0ull, 0ull);
	T("map_files/%llx-%llx", U64MAX, U64MAX);
	T("map_files/%llx-%llx", 1ull, 4294967295ull);
	T("maps: not a pid: %s", "");
	T("maps: not a pid: %s", LONG);
	T("maps: not a pid: %s", "a");
	T("maps: pid %d is not in the capture (or its chunk was lost)", 0);
	T("maps: pid %d is not in the capture (or its chunk was lost)", INT_MIN);
	T("maps: pid %d is not in the capture (or its chunk was lost)", -1);
	T("maps: pid %d was not scanned (it exited, or -p left it out)", 0);
	T("maps: pid %d was not scanned (it exited, or -p left it out)", INT_MIN);
	T("maps: pid %d was not scanned (it exited, or -p left it out)", -1);
	T("no file under %s has build-id %s", "", "");
	T("no file under %s has build-id %s", LONG, LONG);
	T("no file under %s has build-id %s", "a", "/usr/lib/libc.so.6");
	T("no page source: this kernel has no /proc/PID/pagemap (CONFIG_PROC_PAGE_MONITOR is off) and the exmap-mini module is not loaded: build it (make kmod KDIR=...) and insmod exmap_mini.ko");
	T("no user memory: %u process%s (kernel threads, zombies)\n", 0u, "");
	T("no user memory: %u process%s (kernel threads, zombies)\n", UINT_MAX, LONG);
	T("no user memory: %u process%s (kernel threads, zombies)\n", 1u, "/usr/lib/libc.so.6");
	T("not an ELF file");
	T("not an ELF file (bad magic)");
	T("note area at offset %llu lies past the end of the file", 0ull);
	T("note area at offset %llu lies past the end of the file", U64MAX);
	T("note area at offset %llu lies past the end of the file", 1ull);
	T("note at offset %llu runs past its area", 0ull);
	T("note at offset %llu runs past its area", U64MAX);
	T("note at offset %llu runs past its area", 1ull);
	T("output formatting failed");
	T("p %d %x ", 0, 0u);
	T("p %d %x ", INT_MIN, UINT_MAX);
	T("p %d %x ", -1, 0x80000000u);
	T("page table full at %u blocks of %u pages (the shared pages are spread wide); raise it with -t PAGES",
	  0u, 0u);
	T("page table full at %u blocks of %u pages (the shared pages are spread wide); raise it with -t PAGES",
	  UINT_MAX, UINT_MAX);
	T("page table full at %u blocks of %u pages (the shared pages are spread wide); raise it with -t PAGES",
	  1u, 0x80000000u);
	T("page table full at %u distinct shared pages; raise it with -t PAGES", 0u);
	T("page table full at %u distinct shared pages; raise it with -t PAGES", UINT_MAX);
	T("page table full at %u distinct shared pages; raise it with -t PAGES", 1u);
	T("page table of %u blocks of pages is too large for this build; lower -t", 0u);
	T("page table of %u blocks of pages is too large for this build; lower -t", UINT_MAX);
	T("page table of %u blocks of pages is too large for this build; lower -t", 1u);
	T("pagemap reads page frame number 0: pfns are hidden from this user; run exmap-mini as root");
	T("pid %d", 0);
	T("pid %d", INT_MIN);
	T("pid %d", -1);
	T("pid %d: %s", 0, "");
	T("pid %d: %s", INT_MIN, LONG);
	T("pid %d: %s", -1, "/usr/lib/libc.so.6");
	T("pid %d: maps line %u is longer than %d bytes: its path is shown cut", 0, 0u, 0);
	T("pid %d: maps line %u is longer than %d bytes: its path is shown cut", INT_MIN, UINT_MAX,
	  INT_MIN);
	T("pid %d: maps line %u is longer than %d bytes: its path is shown cut", -1, 0x80000000u,
	  INT_MAX);
	T("pid %d: maps line %u is malformed: %.80s", 0, 0u, "");
	T("pid %d: maps line %u is malformed: %.80s", INT_MIN, UINT_MAX, LONG);
	T("pid %d: maps line %u is malformed: %.80s", -1, 0x80000000u, "x y");
	T("pid=%d", 0);
	T("pid=%d", INT_MIN);
	T("pid=%d", -1);
	T("program header index %u is out of range (%u headers)", 0u, 0u);
	T("program header index %u is out of range (%u headers)", UINT_MAX, UINT_MAX);
	T("program header index %u is out of range (%u headers)", 1u, 0x80000000u);
	T("reading %s: %s", "", "");
	T("reading %s: %s", LONG, LONG);
	T("reading %s: %s", "a", "/usr/lib/libc.so.6");
	T("reading %s: the file is shorter than when it was opened", "");
	T("reading %s: the file is shorter than when it was opened", LONG);
	T("reading %s: the file is shorter than when it was opened", "a");
	T("root%s", "");
	T("root%s", LONG);
	T("root%s", "a");
	T("section %s: address and size overflow", "");
	T("section %s: address and size overflow", LONG);
	T("section %s: address and size overflow", "a");
	T("section count %llu in section header 0 is too large", 0ull);
	T("section count %llu in section header 0 is too large", U64MAX);
	T("section count %llu in section header 0 is too large", 1ull);
	T("section index %u is out of range (%u sections)", 0u, 0u);
	T("section index %u is out of range (%u sections)", UINT_MAX, UINT_MAX);
	T("section index %u is out of range (%u sections)", 1u, 0x80000000u);
	T("section name table index %u is out of range (%u sections)", 0u, 0u);
	T("section name table index %u is out of range (%u sections)", UINT_MAX, UINT_MAX);
	T("section name table index %u is out of range (%u sections)", 1u, 0x80000000u);
	T("sections: %u\n  [Nr] %-18s %-12s %-16s %8s %8s FLAGS\n", 0u, "", "", "", "", "");
	T("sections: %u\n  [Nr] %-18s %-12s %-16s %8s %8s FLAGS\n", UINT_MAX, LONG, LONG, LONG,
	  LONG, LONG);
	T("sections: %u\n  [Nr] %-18s %-12s %-16s %8s %8s FLAGS\n", 1u, "/usr/lib/libc.so.6",
	  "x y", "[heap]", "", LONG);
	T("segments: %u\n  %-12s %8s %-16s %8s %8s FLG ALIGN\n", 0u, "", "", "", "", "");
	T("segments: %u\n  %-12s %8s %-16s %8s %8s FLG ALIGN\n", UINT_MAX, LONG, LONG, LONG, LONG,
	  LONG);
	T("segments: %u\n  %-12s %8s %-16s %8s %8s FLG ALIGN\n", 1u, "/usr/lib/libc.so.6", "x y",
	  "[heap]", "", LONG);
	T("self-check failed: eff_mapped total is off by %llu bytes", 0ull);
	T("self-check failed: eff_mapped total is off by %llu bytes", U64MAX);
	T("self-check failed: eff_mapped total is off by %llu bytes", 1ull);
	T("share counts of pages %u-%u", 0u, 0u);
	T("share counts of pages %u-%u", UINT_MAX, UINT_MAX);
	T("share counts of pages %u-%u", 1u, 0x80000000u);
	T("source: %s\n", "");
	T("source: %s\n", LONG);
	T("source: %s\n", "a");
	T("string at index %llu of section %u is not terminated", 0ull, 0u);
	T("string at index %llu of section %u is not terminated", U64MAX, UINT_MAX);
	T("string at index %llu of section %u is not terminated", 1ull, 0x80000000u);
	T("string index %llu is past its table's end (%llu bytes)", 0ull, 0ull);
	T("string index %llu is past its table's end (%llu bytes)", U64MAX, U64MAX);
	T("string index %llu is past its table's end (%llu bytes)", 1ull, 4294967295ull);
	T("string table section %u has type %u, not STRTAB", 0u, 0u);
	T("string table section %u has type %u, not STRTAB", UINT_MAX, UINT_MAX);
	T("string table section %u has type %u, not STRTAB", 1u, 0x80000000u);
	T("string table section %u lies past the end of the file", 0u);
	T("string table section %u lies past the end of the file", UINT_MAX);
	T("string table section %u lies past the end of the file", 1u);
	T("symbol %llu needs an extended section index, and there is no SYMTAB_SHNDX table", 0ull);
	T("symbol %llu needs an extended section index, and there is no SYMTAB_SHNDX table",
	  U64MAX);
	T("symbol %llu needs an extended section index, and there is no SYMTAB_SHNDX table", 1ull);
	T("symbol %llu: extended section index %u is out of range (%u sections)", 0ull, 0u, 0u);
	T("symbol %llu: extended section index %u is out of range (%u sections)", U64MAX, UINT_MAX,
	  UINT_MAX);
	T("symbol %llu: extended section index %u is out of range (%u sections)", 1ull,
	  0x80000000u, 123456789u);
	T("symbol %llu: section index %u is out of range", 0ull, 0u);
	T("symbol %llu: section index %u is out of range", U64MAX, UINT_MAX);
	T("symbol %llu: section index %u is out of range", 1ull, 0x80000000u);
	T("symbol %llu: value and size overflow", 0ull);
	T("symbol %llu: value and size overflow", U64MAX);
	T("symbol %llu: value and size overflow", 1ull);
	T("symbol index %llu is out of range", 0ull);
	T("symbol index %llu is out of range", U64MAX);
	T("symbol index %llu is out of range", 1ull);
	T("symbol table section %u lies past the end of the file", 0u);
	T("symbol table section %u lies past the end of the file", UINT_MAX);
	T("symbol table section %u lies past the end of the file", 1u);
	T("symbol table section %u links to section %u, not a string table", 0u, 0u);
	T("symbol table section %u links to section %u, not a string table", UINT_MAX, UINT_MAX);
	T("symbol table section %u links to section %u, not a string table", 1u, 0x80000000u);
	T("symbol table section %u: entry size %llu, not %u", 0u, 0ull, 0u);
	T("symbol table section %u: entry size %llu, not %u", UINT_MAX, U64MAX, UINT_MAX);
	T("symbol table section %u: entry size %llu, not %u", 1u, 4294967295ull, 123456789u);
	T("symbol table section %u: string table link %u is out of range", 0u, 0u);
	T("symbol table section %u: string table link %u is out of range", UINT_MAX, UINT_MAX);
	T("symbol table section %u: string table link %u is out of range", 1u, 0x80000000u);
	T("symbols (%s): %llu\n  %-16s %8s %-7s %-6s %-12s NAME\n", "", 0ull, "", "", "", "", "");
	T("symbols (%s): %llu\n  %-16s %8s %-7s %-6s %-12s NAME\n", LONG, U64MAX, LONG, LONG, LONG,
	  LONG, LONG);
	T("symbols (%s): %llu\n  %-16s %8s %-7s %-6s %-12s NAME\n", "a", 4294967295ull, "x y",
	  "[heap]", "", LONG, "a");
	T("the capture's build-id of %zu bytes is longer than ELF_BUILDID_MAX (%d)", (size_t)0, 0);
	T("the capture's build-id of %zu bytes is longer than ELF_BUILDID_MAX (%d)", SIZE_MAX,
	  INT_MIN);
	T("the capture's build-id of %zu bytes is longer than ELF_BUILDID_MAX (%d)", (size_t)1, 1);
	T("v%d ps=%llu chunks=%u ids=%u procs=%u vanished=%u empty=%u unreadable=%u id=%016llx src=%s uname=%s",
	  0, 0ull, 0u, 0u, 0u, 0u, 0u, 0u, 0ull, "", "");
	T("v%d ps=%llu chunks=%u ids=%u procs=%u vanished=%u empty=%u unreadable=%u id=%016llx src=%s uname=%s",
	  INT_MIN, U64MAX, UINT_MAX, UINT_MAX, UINT_MAX, UINT_MAX, UINT_MAX, UINT_MAX, U64MAX,
	  LONG, LONG);
	T("v%d ps=%llu chunks=%u ids=%u procs=%u vanished=%u empty=%u unreadable=%u id=%016llx src=%s uname=%s",
	  -1, 4294967295ull, 123456789u, 9u, 0u, UINT_MAX, 1u, 0x80000000u, 1ull, "[heap]", "");
	T("vanished: %u process%s exited before or while being read\n", 0u, "");
	T("vanished: %u process%s exited before or while being read\n", UINT_MAX, LONG);
	T("vanished: %u process%s exited before or while being read\n", 1u, "/usr/lib/libc.so.6");
	T("write error on standard output");

	/* Strings: widths wider and narrower, precisions shorter and longer. */
	T("[%8s] [%-8s] [%2s] [%-2s] [%s]", "abc", "abc", "abcdef", "abcdef", "");
	T("[%.0s] [%.3s] [%.40s] [%.80s] [%.20s]", "abc", "abcdef", "short", LONG, "");
	T("[%-12.12s] [%-12.12s] [%-12.12s] [%-18.18s]", "", "exactly 12ch", LONG, "ab");
	T("[%*s] [%-*s] [%*s] [%*s] [%*s]", 5, "ab", 5, "ab", -5, "ab", 0, "ab", 1, "abc");
	T("[%-*.*s] [%-*.*s] [%-*.*s]", 10, 3, "abcdef", -10, -1, "abcdef", 2, 0, "xyz");
	T("[%.*s] [%.*s] [%.*s] [%.*s/%s]", 0, "abc", -1, "abc", 100, "abc", 4, "/usrx", "lib");
	T("[%.3s] [%.*s] [%.2s]", abc, 3, abc, abc);
	T("[%c] [%5c] [%-5c] [%c%c%c]", 'a', 'x', 'y', 'a', 0, 'b');
	T("%s%s%s", LONG, LONG, LONG);
	/* Decimal: 0, 1, -1, the extremes, widths, the 32-bit boundary. */
	T("%d %d %d %d %d %i %i", 0, 1, -1, INT_MAX, INT_MIN, -7, 7);
	T("[%7d] [%7d] [%7d] [%-7d] [%07d] [%07d] [%2d] [%1d]", 0, -1, INT_MIN, -42, -42, 42,
	  12345, 0);
	T("%u %u %u [%2u] [%-2u] [%3u] [%5u] [%05u] [%-5u]", 0u, 1u, UINT_MAX, 123u, 7u, 1u,
	  99999u, 42u, 42u);
	T("%lld %lld %lld %lld %lld", 0ll, 1ll, -1ll, I64MAX, I64MIN);
	T("%lld %lld %lld", 4294967295ll, 4294967296ll, -4294967296ll);
	T("%llu %llu %llu %llu %llu", 0ull, 1ull, U64MAX, 4294967295ull, 4294967296ull);
	T("%llu %llu %llu %llu", 9999999999ull, 10000000000ull, 10000000000000000000ull,
	  18446744069414584320ull);
	T("[%8llu] [%8llu] [%-8llu] [%08llu] [%1llu]", 0ull, U64MAX, 5ull, 5ull, 12ull);
	T("%zu %zu %zu [%8zu] [%-8zu] [%08zu]", (size_t)0, (size_t)1, SIZE_MAX, (size_t)4096,
	  (size_t)4096, (size_t)77);
	/* Hex. */
	T("%x %x %x %x %x", 0u, 1u, UINT_MAX, 0xdeadbeefu, 0x80000000u);
	T("[%08x] [%08x] [%08x] [%02x] [%02x] [%02x] [%02x] [%-8x]", 0u, UINT_MAX, 0x1234u, 0u,
	  5u, 255u, 0x1234u, 0xabu);
	T("%llx %llx %llx %llx %llx", 0ull, 1ull, U64MAX, 0x100000000ull, 0xffffffffull);
	T("[%016llx] [%016llx] [%016llx] [%8llx] [%-7llx] [%-7llx]", 0ull, U64MAX, 0xabcull,
	  U64MAX, 0x12ull, 0x123456789ull);
	T("[%0*llx] [%0*llx] [%0*llx] [%0*llx] [%0*llx]", 0, 0ull, 1, 0xabcull, 16, 0xabcull,
	  20, U64MAX, -20, 0xabcull);
	/* %% and the rest of C's rules for these conversions. */
	T("%% [%%] %d%% 100%%%s", 50, "");
	T("%ld %ld %lu %lx %lu %lx", LONG_MIN, LONG_MAX, ULONG_MAX, ULONG_MAX, 0ul, 1ul);
	T("%hhu %hhd %hhx %hhd", 0x1ff, 0xff, 0x1ab, -128);
	T("%hu %hd %hx %hd", 0x12345, 0x18000, 0xfffff, -1);
	T("%zd %zd %zx", (ptrdiff_t)-5, (ptrdiff_t)5, SIZE_MAX);
	T("[%.3d] [%.0d] [%.0d] [%5.3d] [%-5.3d] [%.3u] [%.0x] [%.4x] [%.20llu] [%.0lld]", 7, 0,
	  1, -7, 7, 5u, 0u, 0xabu, 1ull, I64MIN);
	T("[%5.0d] [%-5.0u] [%.*d] [%.*d]", 0, 0u, -1, 0, 3, -12);
	T("[%*d] [%*u] [%*llx] [%*d]", 12, INT_MIN, -12, 7u, 40, U64MAX, 3000, 1);

	/* What -Wformat rejects but C defines: - beats 0, a precision cancels 0. */
	E("[ab      ]", "[%-08x]", 0xabu);
	E("[-5      ]", "[%0-8d]", -5);
	E("[    -007] [  000ab]", "[%08.3d] [%07.5x]", -7, 0xabu);
	E("(null) [(null)]", "%s [%s]", (char *)NULL, (char *)NULL);
	/* Anything else is copied as written and takes no argument. */
	E("%f %p %n %e 7", "%f %p %n %e %d", 7);
	E("%+d % d %#x %X 3", "%+d % d %#x %X %d", 3);
	E("%ls %lc %jd %td %Lf %qd %5.2q 4", "%ls %lc %jd %td %Lf %qd %5.2q %d", 4);
	E("%lll %hhh %5*d 1", "%lll %hhh %5*d %d", 1);
	E("abc%", "abc%");
	E("%5", "%5");
	E("%-0.", "%-0.");
	E("%ll", "%ll");
	E("%", "%");
	E("", "");
	/* A precision as big as an int, and outputs longer than INT_MAX. */
	E("", "%.*s", INT_MAX, "");
	overflow(__LINE__, "%*s%*s", INT_MAX, "", INT_MAX, "");
	overflow(__LINE__, "%*s", INT_MIN, "");
	overflow(__LINE__, "%*s%s", INT_MAX, "", "x");

	printf("%d passed, %d failed\n", passed, failed);
	return failed != 0;
}
