/* Rows of figures for every view: text or CSV, sorted, cut to -n. */
/*
 * Rows of figures for every view: sizes as text shows them (human units, or
 * KiB with -k) or as CSV (bytes, RFC 4180 quoting), column heads, the
 * sort, -n, and text cut to fit 80 columns.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include "exmap.h"

const char *const text_head[NFIGS] = {
	"VM", "MAPPD", "RESID", "EFMAP", "EFRES", "SOLE", "WRITE", "SWAP",
};

int field_lookup(const char *name)
{
	int i;

	for (i = 0; i < NFIELDS; i++)
		if (field_names[i] && strcmp(field_names[i], name) == 0)
			return i;
	return -1;
}

static int sort_field;
static enum view sort_view;

static const struct fig *item_fig(const void *x)
{
	switch (sort_view) {
	case V_PROCS: return &((const struct proc *)x)->rfig;
	case V_FILES: return &((const struct file *)x)->rfig;
	case V_MAPS: return &((const struct mapping *)x)->fig;
	default: return &((const struct elf_item *)x)->fig;
	}
}

/* The address an item starts at: a mapping's, a section's or a symbol's. */
static uint64_t item_addr(const void *x)
{
	return sort_view == V_MAPS ? ((const struct mapping *)x)->start
				   : ((const struct elf_item *)x)->lo;
}

/* Ties fall back to the view's natural order, a total one, so output is deterministic. */
static int natural(const void *a, const void *b)
{
	switch (sort_view) {
	case V_PROCS: {
		pid_t x = ((const struct proc *)a)->pid, y = ((const struct proc *)b)->pid;
		return (x > y) - (x < y);
	}
	case V_FILES:
		return strcmp(((const struct file *)a)->path, ((const struct file *)b)->path);
	case V_MAPS: {
		uint64_t x = item_addr(a), y = item_addr(b);
		return (x > y) - (x < y);
	}
	default: {
		/* sections and symbols: an address can hold several (aliases) */
		const struct elf_item *x = a, *y = b;
		int c = (x->lo > y->lo) - (x->lo < y->lo);

		if (!c)
			c = strcmp(x->name, y->name);
		return c ? c : (x->hi > y->hi) - (x->hi < y->hi);
	}
	}
}

static const char *item_text(const void *x)
{
	switch (sort_view) {
	case V_PROCS: return ((const struct proc *)x)->name;
	case V_FILES: return ((const struct file *)x)->path;
	case V_MAPS: return ((const struct mapping *)x)->path;
	default: return ((const struct elf_item *)x)->name;
	}
}

static int cmp_items(const void *pa, const void *pb)
{
	const void *a = *(const void *const *)pa, *b = *(const void *const *)pb;
	int c = 0;

	if (sort_field < NFIGS) {
		uint64_t x = fig_get(item_fig(a), sort_field);
		uint64_t y = fig_get(item_fig(b), sort_field);

		c = (x < y) - (x > y);	/* largest first */
	} else if (sort_field == F_NAME || sort_field == F_PATH) {
		c = strcmp(item_text(a), item_text(b));
	} else if (sort_field == F_ADDRESS) {
		uint64_t x = item_addr(a), y = item_addr(b);

		c = (x > y) - (x < y);
	} else if (sort_field == F_NPROC) {
		uint32_t x = ((const struct file *)a)->rnproc;
		uint32_t y = ((const struct file *)b)->rnproc;

		c = (x < y) - (x > y);
	}
	return c ? c : natural(a, b);
}

void sort_items(void **items, size_t n, enum view v, int field)
{
	sort_view = v;
	sort_field = field;
	sort(items, n, sizeof(*items), cmp_items);
}

/* A size as text shows it: KiB with -k, else human units. */
void fmt_size(const struct opts *o, char *buf, size_t len, uint64_t bytes)
{
	if (o->kib)
		fmt_snprintf(buf, len, "%llu", (unsigned long long)((bytes + 512) / 1024));
	else
		fmt_human(buf, len, bytes);
}

static void put_value(const struct opts *o, uint64_t bytes, int width)
{
	char buf[32];

	if (o->csv) {
		out_dec(',', bytes);
		return;
	}
	fmt_size(o, buf, sizeof(buf), bytes);
	outf(" %*s", width - 1, buf);
}

int fig_width(const struct opts *o)
{
	return o->kib ? 7 : 6;	/* human values: at most 4 characters */
}

static const int all_figs[NFIGS] = {
	F_VM, F_MAPPED, F_RESIDENT, F_EFF_MAPPED, F_EFF_RESIDENT,
	F_SOLE, F_WRITABLE, F_SWAP,
};

/* A column as wide as the widest value the view shows in it, a space
 * before; fig_width at the least (a KiB figure of 1 TiB takes 11). */
static int colw[NFIGS];

static int col_width(const struct opts *o, int k)
{
	return colw[k] > fig_width(o) ? colw[k] : fig_width(o);
}

/* Before the rows: each figure a view will show, so its column fits it. */
void figs_fit(const struct opts *o, const struct fig *f)
{
	char buf[32];
	int k, n;

	for (k = 0; k < NFIGS && !o->csv; k++) {
		fmt_size(o, buf, sizeof(buf), fig_get(f, k));
		if ((n = (int)strlen(buf) + 1) > colw[k])
			colw[k] = n;
	}
}

/* The width the columns which[0..n) (all eight when NULL) take in text. */
size_t figs_width(const struct opts *o, const int *which, int n)
{
	size_t w = 0;
	int i;

	if (!which) {
		which = all_figs;
		n = NFIGS;
	}
	for (i = 0; i < n; i++)
		w += col_width(o, which[i]);
	return w;
}

/* A name column of width w, less what the figure columns take beyond their
 * usual width; least at the least. */
size_t name_room(const struct opts *o, size_t w, size_t least)
{
	size_t x = figs_width(o, NULL, 0) - (size_t)NFIGS * fig_width(o);

	return w > x + least ? w - x : least;
}

/* The figures which[0..n), or all eight when which is NULL, as columns. */
void put_figs(const struct opts *o, const struct fig *f, const int *which, int n)
{
	int i;

	if (!which) {
		which = all_figs;
		n = NFIGS;
	}
	for (i = 0; i < n; i++)
		put_value(o, fig_get(f, which[i]), col_width(o, which[i]));
}

/* Their column heads: snake_case names in CSV, short ones in text. */
void put_heads(const struct opts *o, const int *which, int n)
{
	int i;

	if (!which) {
		which = all_figs;
		n = NFIGS;
	}
	for (i = 0; i < n; i++) {
		if (o->csv)
			outf(",%s", field_names[which[i]]);
		else
			outf(" %*s", col_width(o, which[i]) - 1, text_head[which[i]]);
	}
}

/* The width text is cut to: the terminal's, when stdout is one wider than
 * 80 columns (TIOCGWINSZ), else 80. */
size_t text_cols(void)
{
	static size_t cols;
	struct winsize ws;

	if (!cols) {
		cols = TEXT_COLS;
		if (terminal_size(1, &ws) == 0 && ws.ws_col > TEXT_COLS)
			cols = ws.ws_col < TEXT_COLS_MAX ? ws.ws_col : TEXT_COLS_MAX;
	}
	return cols;
}

/* Text: control characters shown as '?'; cut from the left to fit in room. */
void put_text(const char *s, size_t room, int pad)
{
	size_t n = strlen(s), i;
	char buf[TEXT_COLS_MAX + 1];

	if (room < 4)
		room = 4;
	if (room > text_cols())
		room = text_cols();
	if (n > room) {
		memcpy(buf, "...", 3);
		memcpy(buf + 3, s + n - (room - 3), room - 3);
		n = room;
	} else {
		memcpy(buf, s, n);
	}
	for (i = 0; i < n; i++)
		if ((unsigned char)buf[i] < 0x20 || buf[i] == 0x7f)
			buf[i] = '?';
	if (pad)
		outf("%-*.*s", (int)room, (int)n, buf);
	else
		out(buf, n);
}

/* What is left of the width (80 columns, or the terminal's) for a path:
 * "..." and a character at the least. */
size_t path_room(size_t used)
{
	size_t cols = text_cols();

	return used + 4 <= cols ? cols - used : 4;
}

/* Room for n row pointers, to sort. */
void **rows_alloc(struct arena *a, size_t n)
{
	return arena_alloc(a, n * sizeof(void *) + 1, sizeof(void *));
}

/* How many of n rows are shown: -n cuts them. */
size_t rows_shown(const struct opts *o, size_t n)
{
	return o->top && o->top < n ? o->top : n;
}

/*
 * A field that a spreadsheet would run as a formula (= + - @, tab, CR) gets
 * a leading apostrophe; a field with a comma, quote or line break is quoted
 * with its quotes doubled.
 */
void csv_field(const char *s, size_t n)
{
	int formula = n > 0 && strchr("=+-@\t\r", s[0]) != NULL;
	int quote = formula;
	size_t i, from = 0;

	for (i = 0; i < n && !quote; i++)
		quote = s[i] == ',' || s[i] == '"' || s[i] == '\n' || s[i] == '\r';
	if (!quote) {
		out(s, n);
		return;
	}
	out(formula ? "\"'" : "\"", formula ? 2 : 1);
	for (i = 0; i < n; i++) {
		if (s[i] == '"') {
			out(s + from, i + 1 - from);
			from = i;
		}
	}
	out(s + from, n - from);
	out("\"", 1);
}
