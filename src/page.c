/* A self-contained HTML page: the template, the data as JavaScript, the notes. */
/*
 * The html views write one page: src/report.html, put into the binary when it
 * is built, cut at its data line, with the data between as JavaScript object
 * literals (D.key = ...;). Nothing outside the page is named, so it opens
 * offline, from an attachment. Names are escaped for a <script>: quotes,
 * backslashes, '<', control characters; bytes that are not UTF-8 as \xNN.
 */
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "capture.h"
#include "page.h"
#include "ram.h"

/* The template, with a NUL after it; the path is the build's, from the top;
 * global, so that code LTO puts in another partition still finds it. */
#ifndef PAGE_TEMPLATE
#define PAGE_TEMPLATE "src/report.html"
#endif
__asm__(".pushsection .rodata.report_page,\"a\"\n"
	".globl report_page\n"
	"report_page:\n"
	".incbin \"" PAGE_TEMPLATE "\"\n"
	".byte 0\n"
	".popsection\n");
extern const char report_page[];

#define PAGE_DATA	"/*DATA*/"	/* the line of the template the data goes in */
#define NOTES_MAX	64		/* warnings kept for the page; the rest counted */
#define NOTE_LEN	240

static const char *data_at(void)
{
	const char *at = find_str(report_page, PAGE_DATA);

	if (!at)
		die("internal: the page template has no %s line", PAGE_DATA);
	return at;
}

/* The template up to its data line; the data follows as "D.key = value;". */
void page_begin(void)
{
	out(report_page, (size_t)(data_at() - report_page));
	outs("var D = {};\n");
}

void page_end(void)
{
	outs(data_at() + strlen(PAGE_DATA));
	out_flush();
}

/* Warnings said while the page is made: on stderr, and kept for the page. */
static char notes[NOTES_MAX][NOTE_LEN];
static uint32_t nnotes, notes_lost;

static void keep_note(const char *msg)
{
	size_t n = strlen(msg);

	if (nnotes < NOTES_MAX)
		fmt_snprintf(notes[nnotes++], NOTE_LEN, "%s", msg);
	else
		notes_lost++;
	out_flush();
	(void)!write(2, progname, strlen(progname));
	(void)!write(2, ": ", 2);
	(void)!write(2, msg, n);
	(void)!write(2, "\n", 1);
}

void page_notes_start(void)
{
	on_warning(keep_note);
}

/* D.notes: every warning said, as it was said. */
void page_notes_put(void)
{
	uint32_t i;

	on_warning(NULL);
	outs("D.notes = [");
	for (i = 0; i < nnotes; i++) {
		if (i)
			outs(",");
		js_cstr(notes[i]);
	}
	if (notes_lost) {
		char buf[64];

		fmt_snprintf(buf, sizeof(buf), "and %u more (stderr has them)", notes_lost);
		outs(nnotes ? "," : "");
		js_cstr(buf);
	}
	outs("];\n");
}

/* The length of the UTF-8 sequence at s (at most n bytes), or 0 if it is none. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	size_t len = s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : 2, i;

	if (s[0] < 0xc2 || s[0] > 0xf4 || len > n)
		return 0;
	for (i = 1; i < len; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	if ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xf0 && s[1] < 0x90) ||
	    (s[0] == 0xf4 && s[1] > 0x8f) || (s[0] == 0xed && s[1] > 0x9f))
		return 0;	/* overlong, past U+10FFFF, or a surrogate */
	return len;
}

/* A JavaScript string literal, safe inside <script>. */
void js_str(const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *u = (const unsigned char *)s;
	size_t i, from = 0, k;
	char esc[8];

	out("\"", 1);
	for (i = 0; i < n; i++) {
		unsigned char c = u[i];

		if (c >= 0x80 && (k = utf8_len(u + i, n - i)) != 0) {
			i += k - 1;
			continue;
		}
		if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\' && c != '<')
			continue;
		out(s + from, i - from);
		from = i + 1;
		if (c == '"' || c == '\\') {
			esc[0] = '\\';
			esc[1] = (char)c;
			out(esc, 2);
		} else if (c >= 0x80) {	/* not UTF-8: shown as the byte it is */
			memcpy(esc, "\\\\x", 3);
			esc[3] = hex[c >> 4];
			esc[4] = hex[c & 15];
			out(esc, 5);
		} else {
			memcpy(esc, "\\u00", 4);
			esc[4] = hex[c >> 4];
			esc[5] = hex[c & 15];
			out(esc, 6);
		}
	}
	out(s + from, n - from);
	out("\"", 1);
}

void js_cstr(const char *s)
{
	js_str(s ? s : "", s ? strlen(s) : 0);
}

static void js_i64(int64_t v)
{
	if (v < 0)
		outs("-");
	out_dec(0, v < 0 ? -(uint64_t)v : (uint64_t)v);
}

/* The eight figures' names, as the CSV heads them: an array. */
void js_fignames(void)
{
	int k;

	for (k = 0; k < NFIGS; k++) {
		outs(k ? "," : "[");
		js_cstr(field_names[k]);
	}
	outs("]");
}

/* The eight figures, in bytes, in their order (field_names). */
void js_figs(const struct fig *f)
{
	int k;

	for (k = 0; k < NFIGS; k++)
		out_dec(k ? ',' : 0, fig_get(f, (enum field)k));
}

/*
 * The scan's header: where it was taken (a capture's machine, or this one),
 * with which page source and page size, when, and what it could not read.
 */
void js_head(const struct scan *s)
{
	uint64_t time_s, uptime_s;
	const struct capabsent *a;
	char un[3 * 65 + 8];
	uint32_t i;

	outs("{\"file\":");
	if (s->cap) {
		js_cstr(s->cap->file);
		outs(",\"uname\":");
		js_cstr(s->cap->uname);
		ram_when(s, &time_s, &uptime_s);
	} else {
		struct utsname u;

		outs("null,\"uname\":");
		if (uname(&u) == 0)
			fmt_snprintf(un, sizeof(un), "%s %s %s", u.machine, u.release, u.nodename);
		else
			un[0] = '\0';
		js_cstr(un);
		time_s = clock_ns(CLOCK_REALTIME) / 1000000000u;
		uptime_s = clock_ns(CLOCK_BOOTTIME) / 1000000000u;
	}
	outs(",\"source\":");
	js_cstr(s->source);
	outs(",\"page\":");
	out_dec(0, s->page_size);
	outs(",\"time\":");
	out_dec(0, time_s);
	outs(",\"uptime\":");
	out_dec(0, uptime_s);
	outf(",\"vanished\":%u,\"empty\":%u,\"unreadable\":%u,\"lost\":%u,\"absent\":[",
	     s->vanished, s->empty, s->unreadable, s->cap ? s->cap->lost : 0);
	if (s->cap) {
		for (a = s->cap->absent, i = 0; a; a = a->next, i++) {
			outf("%s[%d,", i ? "," : "", (int)a->pid);
			js_cstr(a->why);
			outs("]");
		}
	} else {
		uint32_t k = 0;

		for (i = 0; i < s->nabsent; i++) {
			const struct absent *b = &s->absent[i];

			if (b->why != P_UNREADABLE)
				continue;
			outf("%s[%d,", k++ ? "," : "", (int)b->pid);
			js_cstr(strerror(b->err));
			outs("]");
		}
	}
	outs("]}");
}

static void ram_one(void *arg, const struct ram_line *l)
{
	int *n = arg;

	outf("%s[%d,", (*n)++ ? "," : "", l->depth);
	js_cstr(l->kind);
	outs(",");
	js_cstr(l->name ? l->name : l->label);
	outs(",");
	js_i64(l->bytes);
	outs(",");
	js_cstr(l->source);
	outs("]");
}

/* The ram view's lines, [depth, kind, label, bytes, source]: none from a
 * capture that holds no ram view (v1, or its chunk lost). */
void js_ram(const struct scan *s, const char *census_how)
{
	int n = 0;

	outs("[");
	(void)ram_lines(s, census_how, ram_one, &n);
	outs("]");
}
