/* fmt_test's shared parts: the values and macros of its cases, each file's cases. */
#ifndef FMT_TEST_H
#define FMT_TEST_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include "exmap.h"

#define BUF	4096	/* longer than any case's output */
#define U64MAX	((unsigned long long)UINT64_MAX)
#define I64MAX	((long long)INT64_MAX)
#define I64MIN	((long long)INT64_MIN)
/* Longer than every precision in src/ (.80 the longest). */
#define LONG	"/usr/lib/arm-linux-gnueabihf/libexample-with-a-long-name.so.1.2.3 " \
		"(deleted), a path longer than every precision the formats give it"

/* fmt_test.c: one case, got (gn) from fmt_snprintf, checked against
 * vsnprintf at every size; e: one with the output written out. */
void t(int line, const char *got, int gn, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
void e(int line, const char *want, const char *fmt, ...);

#define T(...) do {							\
	char b_[BUF];							\
	int n_ = fmt_snprintf(b_, sizeof(b_), __VA_ARGS__);		\
	t(__LINE__, b_, n_, __VA_ARGS__);				\
} while (0)

#define E(...)	e(__LINE__, __VA_ARGS__)

/* fmt_test_rows.c, fmt_test_msgs.c: every format string src/ passes to
 * snprintf, vsnprintf or a wrapper (outf, warnx, die...; kept in step with
 * it): nothing, the extremes, a mix; those that begin with a space,
 * punctuation or XM (rows, columns, capture lines), then those that begin
 * with a word (messages, mostly). */
void src_rows(void);
void src_msgs(void);

#endif
