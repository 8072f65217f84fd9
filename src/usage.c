/* exmap-mini -h: the usage, made from the tables of views and options, what this build runs. */
#include <string.h>

#include "cli.h"

#define USAGE_COLS	80

static size_t col;	/* the cursor's column */

static void newline(void)
{
	out("\n", 1);
	col = 0;
}

/* Spaces up to column indent. */
static void indent_to(size_t indent)
{
	static const char spaces[] = "                         ";

	out(spaces, indent - col);
	col = indent;
}

/* n bytes of s, on the next line (indented by indent) if they would pass USAGE_COLS. */
static void token(const char *s, size_t n, size_t indent)
{
	if (col < indent) {
		indent_to(indent);
	} else if (col + 1 + n > USAGE_COLS) {
		newline();
		indent_to(indent);
	} else {
		out(" ", 1);
		col++;
	}
	out(s, n);
	col += n;
}

/* The words of text, wrapped at USAGE_COLS with lines indented by indent;
 * glue: a character put right after the words before (',' or ';'), else 0. */
static void words(const char *text, size_t indent, char glue)
{
	if (glue) {
		out(&glue, 1);
		col++;
	}
	while (*text) {
		size_t n = strcspn(text, " ");

		token(text, n, indent);
		text += n + (text[n] == ' ');
	}
}

/* A list's head (a view and its words, an option and its value) at column
 * 2, its text from column indent, or below it if the head is too long. */
static void head(const char *h, size_t n, size_t indent)
{
	newline();
	out("  ", 2);
	out(h, n);
	col = 2 + n;
	if (col >= indent)
		newline();
}

static int built(uint8_t need)
{
	return !(need & ~BUILT);
}

/* Which views a form of the synopsis takes: its rows; lead: what it starts with. */
static const struct {
	uint8_t form;
	const char *lead;
} forms[] = {
	{ FORM_SCAN, NULL }, { FORM_CAPTURE, "-l capture" }, { FORM_LIST, "-l log" },
	{ FORM_LOG, "-l log" }, { FORM_DIFF, NULL }, { FORM_WATCH, NULL },
};

/* Option i's bracket in a form: [-b source], with the options of nested
 * that need it inside ([-o file [--max size]]). */
static void bracket(int i, uint32_t nested)
{
	const struct optdef *d = &cli_opts[i];
	char buf[64];
	size_t n;
	int j;

	n = (size_t)fmt_snprintf(buf, sizeof(buf), "[-%s%s%s%s", d->name[1] ? "-" : "", d->name,
				 d->arg ? " " : "", d->arg ? d->arg : "");
	for (j = 0; j < NOPT; j++)
		if ((nested >> j & 1) && (cli_opts[j].needs >> i & 1))
			n += (size_t)fmt_snprintf(buf + n, sizeof(buf) - n, " [--%s %s]", cli_opts[j].name,
						  cli_opts[j].arg);
	n += (size_t)fmt_snprintf(buf + n, sizeof(buf) - n, "]%s", d->many ? "..." : "");
	token(buf, n < sizeof(buf) ? n : sizeof(buf) - 1, 18);
}

/* One form of the synopsis: its lead, its views' options, its views. */
static void form(const struct viewdef *v, size_t nv, uint8_t which, const char *lead)
{
	const struct viewdef *first = NULL, *prev = NULL;
	uint32_t opts = 0, nested = 0;
	char buf[96];
	size_t i, n = 0, names = 0, k;
	int j, scan = 0;

	for (i = 0; i < nv; i++)
		if ((v[i].forms & which) && built(v[i].build)) {
			opts |= v[i].opts;
			scan |= v[i].view == V_PROCS;
			names += !prev || strcmp(prev->name, v[i].name) != 0;
			first = first ? first : &v[i];
			prev = &v[i];
		}
	if (!first || (lead && !built(cli_opts[O_l].build)))
		return;	/* no view of it in this build, or no -l */
	/* the lead's -l aside; what takes -l only in -l's forms, what shapes a
	 * scan only in the others; an option that needs another inside its bracket */
	opts &= ~OPT(l);
	for (j = 0; j < NOPT; j++)
		if (!built(cli_opts[j].build) ||
		    (lead ? cli_opts[j].not : cli_opts[j].needs) & OPT(l))
			opts &= ~(UINT32_C(1) << j);
		else if (cli_opts[j].needs & ~OPT(l))
			nested |= UINT32_C(1) << j;
	nested &= opts;
	opts &= ~nested;
	outs(col ? "\n       exmap-mini" : "usage: exmap-mini");
	col = 17;
	if (lead)
		words(lead, 18, 0);
	buf[n++] = '[';
	buf[n++] = '-';
	for (j = 0; j < NOPT; j++)
		if ((opts >> j & 1) && !cli_opts[j].arg && !cli_opts[j].name[1])
			buf[n++] = cli_opts[j].name[0];
	buf[n++] = ']';
	if (n > 3)
		token(buf, n, 18);
	for (j = 0; j < NOPT; j++)
		if ((opts >> j & 1) && (cli_opts[j].arg || cli_opts[j].name[1]))
			bracket(j, nested);
	if (scan) {
		token("[view]", 6, 18);
		return;
	}
	/* one view: its name and words; several: their names, html|trend */
	for (n = 0, prev = NULL, i = (size_t)(first - v); i < nv; i++) {
		if (!(v[i].forms & which) || !built(v[i].build) ||
		    (prev && strcmp(prev->name, v[i].name) == 0))
			continue;
		prev = &v[i];
		k = strlen(prev->name);
		if (names == 1) {
			view_head(buf, sizeof(buf), prev, v + nv);
			words(buf, 18, 0);
		} else if (n++) {
			out("|", 1);
			out(prev->name, k);
			col += 1 + k;
		} else {
			token(prev->name, k, 18);
		}
	}
}

/* -s's help: the figures, then each view's other fields. */
static void sort_help(const struct viewdef *v, size_t nv)
{
	char buf[128];
	size_t i, j, n;
	int f, groups = 0;

	words("sort by:", 13, 0);
	for (f = 0; f < NFIGS; f++)
		words(field_names[f], 13, 0);
	for (i = 0; i < nv; i++) {
		uint32_t x = v[i].sorts & ~SORT_FIGS;

		if (!x || v[i].as != AS_NAME || !built(v[i].build))
			continue;
		for (j = 0; j < i; j++)
			if ((v[j].sorts & ~SORT_FIGS) == x && v[j].as == AS_NAME && built(v[j].build))
				break;
		if (j < i)
			continue;	/* said with the view before */
		n = 0;
		for (f = NFIGS; f < NFIELDS; f++)
			if (x >> f & 1)
				n += (size_t)fmt_snprintf(buf + n, sizeof(buf) - n, "%s ", field_names[f]);
		for (j = i; j < nv; j++)
			if ((v[j].sorts & ~SORT_FIGS) == x && v[j].as == AS_NAME && built(v[j].build))
				n += (size_t)fmt_snprintf(buf + n, sizeof(buf) - n, "%s%s", n && buf[n - 1] ==
							  ' ' ? "(" : ", ", v[j].name);
		fmt_snprintf(buf + n, sizeof(buf) - n, ")");
		if (!groups++)
			words("or", 13, ',');
		words(buf, 13, groups > 1 ? ',' : 0);
	}
}

static const char usage_tail[] =
"columns (text head, CSV name):\n"
"  VM    vm            the address range, mapped or not\n"
"  MAPPD mapped        pages in RAM or swapped out\n"
"  RESID resident      pages in RAM (the kernel's Rss)\n"
"  EFMAP eff_mapped    each mapped page's size shared among those mapping it\n"
"  EFRES eff_resident  the same over pages in RAM (the kernel's Pss)\n"
"  SOLE  sole          pages nothing else maps\n"
"  WRITE writable      pages in RAM the process has written\n"
"  SWAP  swap          pages swapped out\n"
"exit status: 0 ok, 1 partial (some processes unreadable), 2 usage or fatal,\n"
"             3 a budget exceeded, 4 a damaged capture (what it lost is named);\n"
"             when several apply, the highest\n";

void usage(const struct viewdef *v, size_t nv)
{
	char buf[96];
	size_t i, k;
	int j;

	for (i = 0; i < sizeof(forms) / sizeof(forms[0]); i++)
		form(v, nv, forms[i].form, forms[i].lead);
	outs("\n       exmap-mini -h | -V\nviews:");
	for (i = 0; i < nv; i++)
		if (built(v[i].build)) {
			if (v[i].as == AS_NAME) {
				k = view_head(buf, sizeof(buf), &v[i], v + nv);
				head(buf, k, 25);
			}
			words(v[i].help, 25, v[i].as == AS_NAME ? 0 : ';');
		}
	outs("\noptions:");
	col = 0;
	for (j = 0; j < NOPT; j++) {
		const struct optdef *d = &cli_opts[j];

		if (!built(d->build))
			continue;
		if (j > 0 && strcmp(cli_opts[j - 1].name, d->name) == 0) {
			words(d->help, 13, ';');	/* an alias: its option's line goes on */
			continue;
		}
		k = (size_t)fmt_snprintf(buf, sizeof(buf), "-%s%s%s%s", d->name[1] ? "-" : "", d->name,
					 d->arg ? " " : "", d->head ? d->head : d->arg ? d->arg : "");
		head(buf, k, 13);
		if (j == O_s)
			sort_help(v, nv);
		else
			words(d->help, 13, 0);
	}
	newline();
	out(usage_tail, sizeof(usage_tail) - 1);
}
