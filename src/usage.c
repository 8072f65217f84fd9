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

/* What each form of the synopsis starts with, in FORM_ bits' order. */
static const char leads[] = "\0-l capture\0-l log\0-l log\0\0";

/* One form of the synopsis: its lead, its views' options, its views. */
static void form(const struct viewdef *v, size_t nv, uint8_t which, const char *lead)
{
	const struct viewdef *w, *prev = NULL;
	char names[64] = "", *n = names, *nend = names + sizeof(names);
	char buf[64], *end = buf + sizeof(buf), *p;
	uint32_t opts = 0;
	int j, pass, flag;

	/* its views: [view] where procs is one (the default), else the first's
	 * name and words and the others' names: diff capture capture [html],
	 * html|trend */
	for (w = v; w < v + nv; w++) {
		if (!(w->forms & which) || !built(w->build))
			continue;
		opts |= w->opts;
		if (w->view == V_PROCS)
			n = cat(names, nend, "[view]");
		else if (!prev)
			n = view_head(n, nend, w, v + nv - 1);
		else if (*names != '[' && strcmp(prev->text, w->text) != 0)
			n = cat(cat(n, nend, "|"), nend, w->text);
		prev = w;
	}
	if (!prev || (*lead && !built(cli_opts[O_l].build)))
		return;	/* no view of it in this build, or no -l */
	outs(col ? "\n       exmap-mini" : "usage: exmap-mini");
	col = 17;
	words(lead, 18, 0);
	/* the flags, [-ackq], then each option, [-b source]; -l is the lead's,
	 * what needs -l is in -l's forms alone, what does not go with it in the
	 * others alone */
	for (pass = 0; pass < 2; pass++) {
		p = cat(buf, end, "[-");
		for (j = 0; j < NOPT; j++) {
			const struct optdef *d = &cli_opts[j];

			flag = !d->text[1] && !*field(d->text, T_ARG);
			if (!(opts >> j & 1) || j == O_l || !built(d->build) || flag == pass ||
			    (*lead ? d->not : d->needs) == O_l)
				continue;
			if (flag) {
				*p++ = d->text[0];
				continue;
			}
			p = cat(opt_head(cat(buf, end, "["), end, j, HEAD_FORM), end, "]");
			token(buf, (size_t)(cat(p, end, d->many ? "..." : "") - buf), 18);
		}
		if (!pass && p > buf + 2)
			token(buf, (size_t)(cat(p, end, "]") - buf), 18);
	}
	words(names, 18, 0);
}

/* -s's help: the figures, then the other fields each view sorts by (one
 * list for neighbours alike: sections, symbols), with the figures it takes
 * where not all of them (cgroups). */
static void sort_help(const struct viewdef *v, size_t nv)
{
	char buf[128], *end = buf + sizeof(buf), *p = buf;
	uint32_t x, last = 0;
	size_t i;
	int f, groups = 0;

	words("sort by:", 13, 0);
	for (f = 0; f < NFIGS; f++)
		words(field_names[f], 13, 0);
	words("or", 13, ',');
	for (i = 0; i <= nv; i++) {
		x = i < nv && v[i].as == AS_NAME && built(v[i].build) ? v[i].sorts : 0;
		if ((x & SORT_FIGS) == SORT_FIGS)	/* every figure: said once, first */
			x &= ~SORT_FIGS;
		if (i < nv && !x)
			continue;
		if (i < nv && x == last) {
			p = cat(cat(p, end, ", "), end, v[i].text);
			continue;
		}
		if (p > buf) {	/* the list before: "pid name (procs)" */
			cat(p, end, ")");
			words(buf, 13, groups++ ? ',' : 0);
		}
		for (p = buf, f = 0; f < NFIELDS; f++)
			if (x >> f & 1)
				p = cat(cat(p, end, field_names[f]), end, " ");
		if (i < nv)
			p = cat(cat(p, end, "("), end, v[i].text);
		last = x;
	}
}

/* The figures' descriptions, in enum field's order. */
static const char columns[] =
	"the address range, mapped or not\0"
	"pages in RAM or swapped out\0"
	"pages in RAM (the kernel's Rss)\0"
	"each mapped page shared among its mappers\0"
	"the same over pages in RAM (the kernel's Pss)\0"
	"pages nothing else maps\0"
	"pages in RAM the process has written\0"
	"pages swapped out";

static const char usage_tail[] =
"\nexit status: 0 ok, 1 partial (processes unreadable), 2 usage or fatal, 3 a\n"
"             budget exceeded, 4 damaged input (what was lost is named); the\n"
"             highest that applies\n";

void usage(const struct viewdef *v, size_t nv)
{
	char buf[96], *end = buf + sizeof(buf);
	const char *p;
	size_t i;
	int j;

	for (i = 0; i < NFORM; i++)
		form(v, nv, 1u << i, field(leads, (int)i));
	outs("\n       exmap-mini -h | -V\nviews:");
	for (i = 0; i < nv; i++)
		if (built(v[i].build)) {
			if (v[i].as == AS_NAME)
				head(buf, (size_t)(view_head(buf, end, &v[i], v + nv - 1) - buf), 25);
			words(field(v[i].text, T_HELP), 25, v[i].as == AS_NAME ? 0 : ';');
		}
	outs("\noptions:");
	for (j = 0; j < NOPT; j++) {
		if (!built(cli_opts[j].build))
			continue;
		if (j > 0 && strcmp(cli_opts[j - 1].text, cli_opts[j].text) == 0) {
			/* an alias: its option's line goes on */
			words(field(cli_opts[j].text, T_HELP), 13, ';');
			continue;
		}
		head(buf, (size_t)(opt_head(buf, end, j, HEAD_LIST) - buf), 13);
		if (j == O_s)
			sort_help(v, nv);
		else
			words(field(cli_opts[j].text, T_HELP), 13, 0);
	}
	outs("\ncolumns (text head, CSV name):");
	for (j = 0, p = columns; j < NFIGS; j++, p = field(p, 1)) {
		head(text_head[j], strlen(text_head[j]), 8);
		words(field_names[j], 8, 0);
		words(p, 22, 0);
	}
#ifndef EXMAP_NO_DMABUF
	head("EFDMA", 5, 8);	/* procs' own, not a figure of every view */
	words("eff_dmabuf", 8, 0);
	words("(procs) its dma-bufs, each shared among its holders", 22, 0);
#endif
#ifndef EXMAP_NO_OUTSIDE
	head("OUTSD", 5, 8);	/* procs' own, where the kernel's counts were read */
	words("outside", 8, 0);
	words("(procs) pages in RAM processes outside the view map too", 22, 0);
#endif
	out(usage_tail, sizeof(usage_tail) - 1);
}
