/* --budget NAME=SIZE: eff_resident of a process name or a file against a limit. */
/*
 * Budgets: the eff_resident of the processes of one name (summed, so that a
 * daemon and its workers share one budget) or of one mapped file, against a
 * limit. Each gets a line after a text report; one over its limit is said on
 * stderr too and makes the exit status EX_BUDGET, for a board's CI to fail on.
 */
#include <stdio.h>
#include <string.h>

#include "ram.h"

/* NAME=SIZE or NAME=SIZE/h (a slope), cut in place at the last '=' (a path
 * may hold one). */
int parse_budget(char *arg, struct budget *b)
{
	char *eq = strrchr(arg, '='), *h;

	if (!eq || eq == arg)
		return -1;
	h = eq + strlen(eq);
	b->per_hour = h - eq > 2 && strcmp(h - 2, "/h") == 0;
	if (b->per_hour)
		h[-2] = '\0';
	if (parse_size(eq + 1, &b->size) < 0) {
		if (b->per_hour)
			h[-2] = '/';	/* the argument as given, for the message */
		return -1;
	}
	*eq = '\0';
	b->name = arg;
	return 0;
}

/* What the budget covers, in bytes of eff_resident; hits: how many items. */
static uint64_t used_by(struct scan *s, const struct file *files, uint32_t nfile,
			const char *name, int is_file, uint32_t *hits)
{
	uint64_t used = 0;
	uint32_t i;

	*hits = 0;
	if (is_file) {
		for (i = 0; i < nfile; i++)
			if (strcmp(files[i].path, name) == 0) {
				used += eff_bytes(&files[i].fig.eff_resident);
				++*hits;
			}
		return used;
	}
	for (i = 0; i < s->nproc; i++)
		if (strcmp(s->procs[i]->name, name) == 0) {
			used += eff_bytes(&s->procs[i]->fig.eff_resident);
			++*hits;
		}
	return used;
}

/* As the report shows sizes, with -k's KiB marked as such. */
static void human(const struct opts *o, char *buf, size_t len, uint64_t bytes)
{
	fmt_size(o, buf, len - 1, bytes);
	if (o->kib)
		strcat(buf, "K");
}

/*
 * What a budget's NAME is, by the rule the views use: proc:NAME is the
 * processes of that name; a name with '/', or one that names a mapped file
 * (its basename, soname or another link), is the file, whose path is
 * returned; else the processes. A name that is both is refused, with both.
 */
static const char *budget_target(struct scan *s, struct file *files, uint32_t nfile,
				 const char *name, int *is_file)
{
	uint32_t i, np = 0, f;

	*is_file = 0;
	if (strncmp(name, "proc:", 5) == 0)
		return name + 5;
	*is_file = 1;
	if (strchr(name, '/'))
		return name;
	for (i = 0; i < s->nproc; i++)
		np += strcmp(s->procs[i]->name, name) == 0;
	f = file_lookup(files, nfile, name, 1);
	if (f == FILE_AMBIGUOUS)
		die("--budget %s: more than one mapped file is named so: give the path", name);
	if (f != UINT32_MAX && np)
		die("--budget %s: the name of %u process%s and of the mapped file %s: write "
		    "proc:%s=SIZE for the processes, or the path for the file", name, np,
		    np == 1 ? "" : "es", files[f].path, name);
	if (f != UINT32_MAX)
		return files[f].path;
	*is_file = 0;
	return name;
}

void check_budgets(struct scan *s, const struct budget *b, size_t n, const struct opts *o)
{
	uint32_t nfile = 0, hits;
	struct file *files = files_build(s, &nfile);
	size_t i;

	for (i = 0; i < n; i++) {
		int is_file = 0, is_ram = strncmp(b[i].name, "ram:", 4) == 0;
		const char *target = is_ram ? NULL : budget_target(s, files, nfile, b[i].name, &is_file);
		const char *what = is_ram ? "line of the ram view" : is_file ? "mapped file" : "process";
		uint64_t used;
		int over;

		if (is_ram)
			hits = ram_budget(s, b[i].name + 4, &used);
		else
			used = used_by(s, files, nfile, target, is_file, &hits);
		over = used > b[i].size;
		char u[32], l[32];

		if (!hits) {
			if (!o->csv)
				outf("budget %s: no %s of that name: not checked\n", b[i].name, what);
			out_flush();
			warnx("budget %s: no %s of that name was scanned: not checked",
			      b[i].name, what);
			exit_at_least(EX_PARTIAL);
			continue;
		}
		human(o, u, sizeof(u), used);
		human(o, l, sizeof(l), b[i].size);
		if (!o->csv)
			outf("budget %s: %s %s of %s: %s\n", b[i].name, is_ram ? "ram" : "eff_resident",
			     u, l, over ? "EXCEEDED" : "ok");
		out_flush();
		if (over) {
			warnx("budget %s exceeded: %s is %llu bytes, the budget %llu", b[i].name,
			      is_ram ? "it" : "eff_resident", (unsigned long long)used,
			      (unsigned long long)b[i].size);
			exit_at_least(EX_BUDGET);
		}
	}
	out_flush();
}
