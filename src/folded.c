/* The folded view: a line per leaf of the tree, for flame-graph tools. */
/*
 * "process-pid;file;section;symbol bytes", eff_resident in bytes: any
 * flame-graph tool draws it (flamegraph.pl, inferno, speedscope). A level
 * the file does not have is left out. Names are escaped so that the tools
 * still parse them: ';', spaces, '%' and control bytes as %XX. Each line's
 * figure is rounded so that the lines add up to the total eff_resident of
 * the processes shown, to the byte.
 */
#include <string.h>

#include "tree.h"

struct folded {
	const struct opts *o;
	const char *frame[4];	/* process (its pid apart), file, section, symbol */
	pid_t pid;
	struct eff sum;		/* exact, over the lines so far */
	uint64_t said;		/* bytes printed so far */
	uint64_t lines;
};

static void put_frame(const char *s)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t from = 0, i;
	char esc[3] = "%";

	for (i = 0; s[i]; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c > ' ' && c != ';' && c != '%' && c != 0x7f)
			continue;
		out(s + from, i - from);
		esc[1] = hex[c >> 4];
		esc[2] = hex[c & 15];
		out(esc, 3);
		from = i + 1;
	}
	out(s + from, i - from);
}

static void leaf(const struct tree_node *n, void *arg)
{
	struct folded *f = arg;
	uint64_t now;
	int k;

	f->frame[n->level + 1] = n->level == TL_FILE ? n->path : n->name;
	if (n->level == TL_FILE) {
		f->frame[0] = n->p->name;
		f->pid = n->p->pid;
	}
	if (!n->leaf)
		return;
	if (!f->o->all && !n->fig->eff_resident.whole && !n->fig->eff_resident.frac)
		return;
	eff_sum(&f->sum, &n->fig->eff_resident);
	now = eff_bytes(&f->sum);
	put_frame(f->frame[0]);
	out_dec('-', (uint64_t)f->pid);
	for (k = 1; k <= (int)n->level + 1; k++) {
		out(";", 1);
		put_frame(f->frame[k]);
	}
	out_dec(' ', now - f->said);
	out("\n", 1);
	f->said = now;
	f->lines++;
}

void view_folded(struct scan *s, const struct opts *o)
{
	struct folded f = { .o = o };
	struct tree_stats st;

	tree_walk(s, o, leaf, &f, &st);
	out_flush();
	if (st.nosyms)
		warnx("%u ELF file%s without a symbol table: %s sections are the leaves",
		      st.nosyms, st.nosyms == 1 ? "" : "s", st.nosyms == 1 ? "its" : "their");
	if (st.left_out)
		warnx("%u process%s part of a file shown whole: see above", st.left_out,
		      st.left_out == 1 ? "'s" : "es'");
}
