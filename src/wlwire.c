/* Watch logs: what the writer and the reader share (classes, escapes, a line's check). */
#include <string.h>

#include "capture.h"
#include "wlog.h"

const char wl_class_char[WC_N + 1] = "hRFPpqfrxte";
const char *const wl_field_name[WL_NFIELD] = {
	"eff_resident", "sole", "resident", "swap", "writable",
};
const char wl_part_char[WL_NPART + 1] = "fdhsa";
const char *const wl_part_name[WL_NPART] = { "file", "data", "[heap]", "[stack]", "anon" };

/* Bytes outside '!'..'~', '%' and ',' (the field separator) as %XX; the
 * empty text as a lone %. Returns the length; to has room for 3n + 2. */
size_t wl_escape(char *to, size_t room, const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	size_t o = 0, i;

	if (room < 3 * n + 2)
		die("internal: watch text too long to escape");
	if (n == 0)
		to[o++] = '%';
	for (i = 0; i < n; i++) {
		unsigned char c = s[i];

		if (c > ' ' && c < 0x7f && c != '%' && c != ',') {
			to[o++] = c;
		} else {
			to[o++] = '%';
			to[o++] = hex[c >> 4];
			to[o++] = hex[c & 15];
		}
	}
	to[o] = '\0';
	return o;
}

/* Undo wl_escape() on s[0..len): into to[room], NUL-terminated, *n bytes; -1 if malformed. */
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
