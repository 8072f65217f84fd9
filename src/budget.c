/* --budget NAME=SIZE: eff_resident of a process name or a file against a limit. */
/*
 * Budgets: the eff_resident of the processes of one name (summed, so that a
 * daemon and its workers share one budget) or of one mapped file, against a
 * limit. Each gets a line after a text report; one over its limit is said on
 * stderr too and makes the exit status EX_BUDGET, for a board's CI to fail on.
 * A name is the processes of that name when there are any (a program's file
 * has its name too), else a file; proc:, file: and ram: say which.
 */
#include <stdio.h>
#include <string.h>

#include "ram.h"

/* NAME=SIZE or NAME=SIZE/h (a slope), cut in place at the last '=' (a path
 * may hold one); a misuse dies saying what is wrong. */
void parse_budget(char *arg, struct budget *b)
{
	static const struct { const char *prefix; int kind; } kinds[] = {
		{ "proc:", BN_PROC }, { "file:", BN_FILE }, { "ram:", BN_RAM },
	};
	char *eq = strrchr(arg, '='), *h;
	size_t i, n;
	int r;

	if (!eq || eq == arg)
		die("--budget %s: give NAME=SIZE", arg);
	h = eq + strlen(eq);
	b->per_hour = h - eq > 2 && strcmp(h - 2, "/h") == 0;
	if (b->per_hour)
		h[-2] = '\0';
	r = parse_size(eq + 1, &b->size);
	if (r < 0 && b->per_hour)
		h[-2] = '/';	/* the argument as given, for the message */
	if (r == -2)
		die("--budget %s: a decimal unit: K, M, G are binary (1M is 1048576 bytes), as "
		    "are KiB, MiB, GiB", arg);
	if (r < 0)
		die("--budget %s: not a size (4096, 1.5M, 10MiB)", arg);
	*eq = '\0';
	b->name = arg;
	b->target = arg;
	b->kind = strchr(arg, '/') ? BN_FILE : BN_ANY;
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		n = strlen(kinds[i].prefix);
		if (strncmp(arg, kinds[i].prefix, n) == 0) {
			b->target = arg + n;
			b->kind = kinds[i].kind;
		}
	}
	if (!*b->target)
		die("--budget %s: give a name after %s", arg, b->name);
}

/* As the report shows sizes, with -k's KiB marked as such. */
static void human(const struct opts *o, char *buf, size_t len, uint64_t bytes)
{
	fmt_size(o, buf, len - 1, bytes);
	if (o->kib)
		strcat(buf, "K");
}

void budget_texts(const struct opts *o, const struct budget *b, int64_t used, int sign,
		  char *got, char *lim, size_t len)
{
	uint64_t m = used < 0 ? -(uint64_t)used : (uint64_t)used;
	char num[40];

	human(o, lim, len, b->size);
	human(o, num, sizeof(num), m);
	if (strcmp(num, lim) == 0 && m != b->size) {	/* alike, yet not the same */
		fmt_snprintf(lim, len, "%lluB", (unsigned long long)b->size);
		fmt_snprintf(num, sizeof(num), "%lluB", (unsigned long long)m);
	}
	fmt_snprintf(got, len, "%s%s", !sign || !used ? "" : used > 0 ? "+" : "-", num);
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

/*
 * What a budget's name is: proc:NAME the processes of that name; a path,
 * or file:NAME (a basename, soname or another link, as -F takes it) the
 * file, whose path is returned; a plain name the processes of that name
 * if any were scanned, else the file. Nothing of that name is an error.
 */
static const char *budget_target(struct scan *s, struct file *files, uint32_t nfile,
				 const struct budget *b, int *is_file)
{
	const char *name = b->target;
	uint32_t i, np = 0, f;

	for (i = 0; b->kind != BN_FILE && i < s->nproc; i++)
		np += strcmp(s->procs[i]->name, name) == 0;
	*is_file = !np && b->kind != BN_PROC;
	if (!*is_file)
		return np ? name : NULL;
	f = strchr(name, '/') ? UINT32_MAX : file_lookup(files, nfile, name, 1);
	if (f == FILE_AMBIGUOUS)
		die("--budget %s: more than one mapped file is named so: give the path", b->name);
	return f != UINT32_MAX ? files[f].path : name;
}

void check_budgets(struct scan *s, const struct budget *b, size_t n, const struct opts *o)
{
	static const char *const what[] = { "process or mapped file", "process", "mapped file",
					    "line of the ram view" };
	uint32_t nfile = 0, hits;
	struct file *files = files_build(s, &nfile);
	char u[40], l[40];
	size_t i;

	for (i = 0; i < n; i++) {
		int is_file = 0, is_ram = b[i].kind == BN_RAM;
		const char *target = is_ram ? NULL : budget_target(s, files, nfile, &b[i], &is_file);
		uint64_t used = 0;
		int over;

		hits = 0;
		if (is_ram)
			hits = ram_budget(s, b[i].target, &used);
		else if (target)
			used = used_by(s, files, nfile, target, is_file, &hits);
		if (!hits) {
			out_flush();
			die("--budget %s: no %s of that name", b[i].name, what[b[i].kind]);
		}
		over = used > b[i].size;
		budget_texts(o, &b[i], (int64_t)used, 0, u, l, sizeof(u));
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
