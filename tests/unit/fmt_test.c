/*
 * fmt_snprintf against the C library's snprintf: every format string in src/,
 * then the edges of each conversion, each cut at every buffer size.
 * gcc -O2 -Wall -Wextra -Werror -Isrc -o /tmp/fmt_test tests/unit/fmt_test*.c
 * src/fmt.c (static with a cross gcc, under qemu-user, for 32-bit targets).
 * The format strings of src/ are in fmt_test_rows.c and fmt_test_msgs.c.
 * Last line: N passed, N failed.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "fmt_test.h"

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
void t(int line, const char *got, int gn, const char *fmt, ...)
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


/*
 * One case with the output written out: what -Wformat rejects in a format,
 * and what fmt_snprintf copies as written. No format attribute, on purpose.
 */
void e(int line, const char *want, const char *fmt, ...)
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
	/* Every format string in src/, then the edges of each conversion. */
	src_rows();
	src_msgs();

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
