/* snprintf for the conversions exmap-mini uses: musl's printf costs 8.5 KiB. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "exmap.h"

/*
 * Flags %-0, width and precision (numbers or *), the length modifiers hh h l
 * ll z, and the conversions d i u x c s %, as C99 has them. Anything else
 * (%f, %p, %n, %+d, %ls...) is copied out as it is written, consuming nothing.
 */
#define LEN_MAX		(~0u >> 1)	/* INT_MAX: the longest output an int return can say */

enum { LEFT = 1, ZERO = 2 };			/* flags */
enum { HH = -2, H, INT, L, LL, Z };		/* length modifiers */

/* The output: what fits in buf is written, the rest only counted. */
struct sink {
	char *buf;
	size_t size;		/* of buf, the NUL included */
	size_t len;		/* of the whole output */
};

/* n characters of s, or n copies of c if s is NULL. */
static void put(struct sink *o, const char *s, char c, size_t n)
{
	for (; n > 0 && o->len + 1 < o->size; n--, o->len++)
		o->buf[o->len] = s ? *s++ : c;
	o->len += n;		/* what did not fit is only counted */
}

/* A width or precision: digits, or '*' to take an int argument. */
static int number(const char **p, va_list *ap)
{
	unsigned v = 0;

	if (**p == '*') {
		(*p)++;
		return va_arg(*ap, int);
	}
	while ((unsigned)(**p - '0') < 10)
		v = v * 10 + (unsigned)(*(*p)++ - '0');
	return v > LEN_MAX ? (int)LEN_MAX : (int)v;
}

/* An integer argument of that length, widened to 64 bits (sign-extended if sgn). */
static uint64_t intarg(va_list *ap, int len, int sgn)
{
	uint64_t v;

	switch (len) {
	case LL:
		return sgn ? (uint64_t)va_arg(*ap, long long) : va_arg(*ap, unsigned long long);
	case L:
		return sgn ? (uint64_t)va_arg(*ap, long) : va_arg(*ap, unsigned long);
	case Z:
		v = va_arg(*ap, size_t);
		return sgn ? (uint64_t)(ptrdiff_t)v : v;
	}
	v = sgn ? (uint64_t)va_arg(*ap, int) : va_arg(*ap, unsigned);
	/* %hh and %h print the argument converted back to char or short */
	if (len == HH)
		v = sgn ? (uint64_t)(signed char)v : (unsigned char)v;
	else if (len == H)
		v = sgn ? (uint64_t)(short)v : (unsigned short)v;
	return v;
}

/*
 * v in base 10 or 16, ending at end: where it starts. Decimal divides 64 bits
 * only while v needs them: 32-bit targets call a helper for that, once a digit.
 */
static char *digits(char *end, uint64_t v, unsigned base)
{
	unsigned d;

	do {
		if (base == 16) {
			d = v & 15;
			v >>= 4;
		} else if (v >> 32) {
			uint64_t q = v / 10;

			d = (unsigned)(v - q * 10);
			v = q;
		} else {
			d = (uint32_t)v % 10;
			v = (uint32_t)v / 10;
		}
		*--end = "0123456789abcdef"[d];
	} while (v);
	return end;
}

/* One conversion, p just past its '%': where the format goes on. */
static const char *conv(struct sink *o, const char *p, va_list *ap)
{
	const char *start = p - 1, *s;
	char tmp[24], sign = 0;		/* 2^64 has 20 digits */
	int flags = 0, prec = -1, len = INT, sgn;
	unsigned width;
	size_t n, zeros = 0, fill;
	uint64_t v;

	for (;; p++) {
		if (*p == '-')
			flags |= LEFT;
		else if (*p == '0')
			flags |= ZERO;
		else
			break;
	}
	width = number(&p, ap);
	if ((int)width < 0) {		/* a negative * width is a - flag */
		flags |= LEFT;
		width = -width;
	}
	if (*p == '.') {
		p++;
		prec = number(&p, ap);	/* a negative one is none, as -1 */
	}
	if (*p == 'z') {
		len = Z;
		p++;
	} else if (*p == 'h' || *p == 'l') {
		len = *p == 'h' ? H : L;
		if (p[1] == *p) {
			len *= 2;
			p++;
		}
		p++;
	}
	switch (*p) {
	case 'c':
		if (len != INT)
			goto verbatim;
		tmp[0] = (char)va_arg(*ap, int);
		s = tmp;
		n = 1;
		break;
	case 's':
		if (len != INT)
			goto verbatim;
		s = va_arg(*ap, const char *);
		if (!s)
			s = "(null)";
		/* no further than the precision: the string need not end before */
		for (n = 0; n < (size_t)prec && s[n]; n++)
			;
		break;
	case '%':
		s = "%";
		n = 1;
		break;
	case 'd': case 'i': case 'u': case 'x':
		sgn = *p == 'd' || *p == 'i';
		v = intarg(ap, len, sgn);
		if (sgn && (int64_t)v < 0) {
			sign = '-';
			v = -v;
		}
		s = digits(tmp + sizeof(tmp), v, *p == 'x' ? 16 : 10);
		n = tmp + sizeof(tmp) - s;
		/* a precision is a minimum of digits, and 0 shows 0 as none */
		if (prec >= 0) {
			if (prec == 0 && v == 0)
				n = 0;
			zeros = (size_t)prec > n ? prec - n : 0;
		} else if ((flags & (ZERO | LEFT)) == ZERO) {
			zeros = (size_t)width > n + !!sign ? width - n - !!sign : 0;
		}
		break;
	default:
	verbatim:
		if (!*p)
			p--;		/* a '%' that ends the format */
		put(o, start, 0, p + 1 - start);
		return p;
	}
	fill = n + zeros + !!sign;
	fill = (size_t)width > fill ? width - fill : 0;
	if (!(flags & LEFT))
		put(o, NULL, ' ', fill);
	put(o, &sign, 0, !!sign);
	put(o, NULL, '0', zeros);
	put(o, s, 0, n);
	if (flags & LEFT)
		put(o, NULL, ' ', fill);
	return p;
}

int fmt_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct sink o = { buf, size, 0 };
	va_list aq;

	/* a va_list may be an array: a copy of our own can be passed by address */
	va_copy(aq, ap);
	for (; *fmt && o.len <= LEN_MAX; fmt++) {
		if (*fmt == '%')
			fmt = conv(&o, fmt + 1, &aq);
		else
			put(&o, fmt, 0, 1);
	}
	va_end(aq);
	if (size > 0)
		buf[o.len < size ? o.len : size - 1] = '\0';
	return o.len <= LEN_MAX ? (int)o.len : -1;
}

int fmt_snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = fmt_vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}
