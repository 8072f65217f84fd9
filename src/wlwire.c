/* Watch logs: the line, written and checked (classes, escapes, SEQ and CRC-32). */
/*
 * A watch line is "XM w SEQ CLASS ITEM ITEM ... CRC": items of one class,
 * packed while they fit in WL_LINE_MAX bytes; a definition's text that does
 * not fit goes on in "+" lines, never cut inside an escape. SEQ counts the
 * run's lines; the CRC-32 (the capture's) covers SEQ to the last item.
 */
#include <stdarg.h>
#include <string.h>

#include "capture.h"
#include "wlog.h"

#define BODY_MAX	(WL_LINE_MAX - 5 - 10)	/* after "XM w ", before " CRC\n" */

const char wl_class_char[WC_N + 1] = "hRFPGpqfrxte";
const char *const wl_field_name[WL_NFIELD] = {
	"eff_resident", "sole", "resident", "swap", "writable", "eff_dmabuf",
};
const char wl_part_char[WL_NPART + 1] = "fdhsa";
const char *const wl_part_name[WL_NPART] = { "file", "data", "[heap]", "[stack]", "anon" };

/* ---- writing ---- */

static struct {
	char body[BODY_MAX + 1];	/* "SEQ C ITEM ITEM ..." */
	size_t len;
	int cls;		/* the open line's class; -1: none */
	uint32_t seq;		/* the next line's */
	uint32_t lines;		/* since wl_count() */
} L = { .cls = -1 };

/* The open line out, if any; the lines written since the count was last taken. */
uint32_t wl_flush(void)
{
	char tail[16];

	if (L.cls >= 0) {
		out("XM w ", 5);
		out(L.body, L.len);
		out(tail, fmt_snprintf(tail, sizeof(tail), " %08x\n", cap_crc32(0, L.body, L.len)));
		L.seq = (L.seq + 1) % WL_SEQ_MOD;
		L.lines++;
		L.cls = -1;
	}
	return L.lines;
}

/* The lines written since the last call (a sample's), the count begun again. */
uint32_t wl_count(void)
{
	uint32_t n = wl_flush();

	L.lines = 0;
	return n;
}

static void line_start(int cls)
{
	wl_flush();
	L.len = fmt_snprintf(L.body, sizeof(L.body), "%x %c", L.seq,
			     cls == WC_N ? '+' : wl_class_char[cls]);
	L.cls = cls;
}

/* An item of class cls: on the open line of its class where it fits. */
void wl_item(int cls, const char *text, size_t n)
{
	if (L.cls != cls || L.len + 1 + n > BODY_MAX)
		line_start(cls);
	if (L.len + 1 + n > BODY_MAX)
		die("internal: a watch item of %zu bytes", n);
	L.body[L.len++] = ' ';
	memcpy(L.body + L.len, text, n);
	L.len += n;
}

void wl_itemf(int cls, const char *fmt, ...)
{
	char buf[160];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = fmt_vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(buf))
		die("internal: watch item too long");
	wl_item(cls, buf, (size_t)n);
}

/* A definition: head, a comma, then text escaped; what does not fit a line
 * goes on in "+" lines. */
void wl_def(int cls, const char *head, size_t hn, const char *text, size_t tn)
{
	static char esc[3 * PATH_BUF + 8];
	size_t en = cap_escape(esc, sizeof(esc), text, tn), at = 0, k;

	if (hn + 1 + en <= BODY_MAX - 8) {	/* whole, in a line of its class */
		memmove(esc + hn + 1, esc, en + 1);
		memcpy(esc, head, hn);
		esc[hn] = ',';
		wl_item(cls, esc, hn + 1 + en);
		return;
	}
	if (L.cls == cls && L.len + 1 + hn + 1 + 3 > BODY_MAX)	/* the comma and an escape */
		line_start(cls);
	wl_item(cls, head, hn);
	L.body[L.len++] = ',';
	for (;;) {
		k = en - at < BODY_MAX - L.len ? en - at : BODY_MAX - L.len;
		if (at + k < en && k >= 1 && esc[at + k - 1] == '%')	/* not inside a %XX */
			k -= 1;
		else if (at + k < en && k >= 2 && esc[at + k - 2] == '%')
			k -= 2;
		memcpy(L.body + L.len, esc + at, k);
		L.len += k;
		if ((at += k) == en)
			break;
		line_start(WC_N);
		L.body[L.len++] = ' ';
	}
	wl_flush();
}

/* ---- reading ---- */

/* s split at commas into f[0..max): how many. */
int wl_fields(char *s, char **f, int max)
{
	int n = 0;

	while (n < max) {
		f[n++] = s;
		if (!(s = strchr(s, ',')))
			break;
		*s++ = '\0';
	}
	return n;
}

/* Undo cap_escape() on s[0..len): into to[room], NUL-terminated, *n bytes; -1 if malformed. */
int wl_unescape(const char *s, size_t len, char *to, size_t room, size_t *n)
{
	size_t o = 0, i;

	if (len == 1 && s[0] == '%') {
		*to = '\0';
		*n = 0;
		return 0;
	}
	for (i = 0; i < len; i++) {
		uint64_t v;
		char h[3];

		if (o + 1 >= room || s[i] == ',' || (unsigned char)s[i] <= ' ')
			return -1;
		if (s[i] != '%') {
			to[o++] = s[i];
			continue;
		}
		if (len - i < 3)
			return -1;
		h[0] = s[i + 1];
		h[1] = s[i + 2];
		h[2] = '\0';
		if (hex_parse(h, 255, &v) < 0)
			return -1;
		to[o++] = (char)v;
		i += 2;
	}
	to[o] = '\0';
	*n = o;
	return 0;
}

/*
 * A watch line's body, after "XM w ": "SEQ CLASS[ ITEMS] CRC". Checked (the
 * CRC-32 of what comes before " CRC"), cut at its CRC, split: 0 and the
 * line's SEQ, class (enum wl_class, or WC_N for a "+" line) and items (""
 * if none); -1 when it does not check out.
 */
int wl_line_check(char *body, uint32_t *seq, int *class, char **items)
{
	size_t len = strlen(body);
	const char *c;
	char *sp;
	uint64_t crc, v;

	if (len < 13 || body[len - 9] != ' ' || hex_parse(body + len - 8, UINT32_MAX, &crc) < 0 ||
	    cap_crc32(0, body, len - 9) != crc)
		return -1;
	body[len - 9] = '\0';
	if (!(sp = strchr(body, ' ')) || sp - body > 3)
		return -1;
	*sp = '\0';
	if (hex_parse(body, WL_SEQ_MOD - 1, &v) < 0)
		return -1;
	*seq = (uint32_t)v;
	if (sp[1] == '+')
		*class = WC_N;
	else if (sp[1] && (c = strchr(wl_class_char, sp[1])) != NULL)
		*class = (int)(c - wl_class_char);
	else
		return -1;
	if (sp[2] != '\0' && sp[2] != ' ')
		return -1;
	*items = sp[2] ? sp + 3 : sp + 2;
	return 0;
}
