/* The command line: the options' table, and argv read and checked against the tables. */
#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

#define AT(f)	offsetof(struct cmdline, f)	/* where a flag or a value goes */
_Static_assert(offsetof(struct cmdline, o) + sizeof(struct opts) <= 256,
	       "struct optdef's store is a byte: what options set comes first in struct cmdline");
_Static_assert(NOPT <= 32 && NFIELDS <= 32, "the options and -s's fields are bits of a uint32_t");

/*
 * Every option, in -h's order: OPT_TEXT(name, its value in the synopsis,
 * its value in -h's list where shorter, why, its help); the option it needs
 * (its why said when missing), the option it does not go with (that one's
 * why said), the builds it needs, whether it may be given again, where its
 * value goes (a flag: 1 there). Help and why are left out where the build
 * leaves the option out.
 */
#define LOAD_TEXT(s)	IF_LOAD(s, "")
const struct optdef cli_opts[NOPT] = {
	[O_a] = { OPT_TEXT("a", "", "", "", "every row: diff's unchanged ones, every line of ram, "
			   "every symbol (symbols, folded, html)"),
		  -1, -1, .store = AT(o.all) },
	[O_c] = { OPT_TEXT("c", "", "", "", "CSV, sizes in bytes"),
		  -1, -1, .store = AT(o.csv) },
	[O_k] = { OPT_TEXT("k", "", "", "", "text sizes in KiB instead of human units"),
		  -1, -1, .store = AT(o.kib) },
	[O_q] = { OPT_TEXT("q", "", "", "", "rows only: no header, totals or notes (warnings stay "
			   "on stderr)"),
		  -1, -1, .store = AT(o.noheader) },
	[O_b] = { OPT_TEXT("b", "source", "", "", "the page source: auto (the module if loaded, else "
			   "pagemap), kmod or pagemap"),
		  -1, O_l, .store = AT(backend) },
	[O_p] = { OPT_TEXT("p", "pid[,pid...]", "pids", "", "scan only these processes: pages are "
			   "shared among them alone"),
		  -1, O_l },
	[O_P] = { OPT_TEXT("P", "pid[,pid...]", "pids", "", "report only these processes' part; "
			   "pages are shared among all"),
		  -1, -1, .store = AT(rpids) },
	[O_PICK] = { OPT_TEXT("P", "name|pid", "", "", LOAD_TEXT("on a watch log, one process by "
								 "name or pid: its parts' growth")),
		     -1, -1, HAS_LOAD },
	[O_F] = { OPT_TEXT("F", "file", "", "", "report only this file's part (a path, a basename or "
			   "a soname)"),
		  -1, -1, .store = AT(o.rfile) },
	/* its help: usage.c's, from the views' fields */
	[O_s] = { OPT_TEXT("s", "field", "", "", ""),
		  -1, -1, .store = AT(sort) },
	[O_n] = { OPT_TEXT("n", "count", "", "", "print only the first count rows"),
		  -1, -1 },
	[O_m] = { OPT_TEXT("m", "size", "", "", "cap the working memory (the arena) at size bytes; "
			   "K, M, G"),
		  -1, -1 },
	[O_t] = { OPT_TEXT("t", "pages", "", "", "room in the page table for this many distinct "
			   "shared pages"),
		  -1, O_l },
	/* its why: the options that shape a scan's, which do not go with it */
	[O_l] = { OPT_TEXT("l", "capture", "", "it shapes a scan; a capture was shaped when it was "
			   "taken", LOAD_TEXT("read a capture (a file, or a console log holding one) "
					      "instead of scanning; log@N the Nth capture of a log "
					      "(@-1 the last, the default), here and in diff")),
		  -1, -1, HAS_LOAD, .store = AT(load) },
	[O_S] = { OPT_TEXT("S", "sysroot", "", LOAD_TEXT("a sysroot is for a capture's files: give "
							 "-l too"),
			   LOAD_TEXT("with -l: find the capture's ELF files under sysroot, by build-id, "
				     "else by path (without -S: this machine's files, checked alike)")),
		  O_l, -1, HAS_LOAD, .store = AT(o.sysroot) },
	[O_w] = { OPT_TEXT("w", "duration", "", LOAD_TEXT("a warm-up is left out of a watch log's "
							  "trend: -l LOG -w DURATION trend"),
			   LOAD_TEXT("on a watch log: leave out its first duration (s, m, h, d)")),
		  O_l, -1, HAS_LOAD, .store = AT(warmup) },
	[O_o] = { OPT_TEXT("o", "file", "", "", "write to file: whole, beside it, then renamed over "
			   "it; watch appends its log"),
		  -1, -1, .store = AT(out) },
	[O_MAX] = { OPT_TEXT("max", "size", "", "the size at which -o's file is renamed: give -o too",
			     "with -o: at size (K, M, G), file is renamed file.1 and a new one begun "
			     "(-l reads both)"),
		    O_o, -1 },
	[O_PIDS] = { OPT_TEXT("pids", "", "", "", "metrics: a series for each process (a pid label), "
			      "not each name"),
		     -1, -1, .store = AT(o.pids) },
	[O_LABEL] = { OPT_TEXT("label", "name=value", "", "", LOAD_TEXT("metrics: a label on every "
				"series; a capture's carry host= (the host name its uname records) "
				"unless --label host=name says it")),
		      -1, -1, HAS_LOAD, 1 },
	[O_BUDGET] = { OPT_TEXT("budget", "name=size", "", "", "exit 3 if name's eff_resident is "
				"over size (1.5M, 10MiB; K, M, G binary): processes of that name, "
				"else a file as -F names it (proc:name, file:name to choose); "
				"ram:name a ram view line; no match: exit 2"),
		       -1, -1, .many = 1 },
	[O_SLOPE] = { OPT_TEXT("budget", "name=size/h", "", LOAD_TEXT("a slope is checked on a "
								      "watch log: -l LOG trend"),
			       LOAD_TEXT("name=size/h, on a watch log: exit 3 if its slope is over "
					 "size an hour")),
		      O_l, -1, HAS_LOAD, 1 },
	[O_h] = { OPT_TEXT("h", "", "", "", "print this help (--help too)"),
		  -1, -1, .store = AT(help) },
	[O_V] = { OPT_TEXT("V", "", "", "", "print the version"),
		  -1, -1, .store = AT(version) },
};

/* Field k of a row's text. */
const char *field(const char *text, int k)
{
	while (k-- > 0)
		text += strlen(text) + 1;
	return text;
}

static pid_t pid_list[PID_LIST_MAX], rpid_list[PID_LIST_MAX];
static size_t npid_list, nrpid_list;
static struct budget budgets[BUDGET_MAX];

/* -p's or -P's list of pids, c the option, added to list. */
static void parse_pids(int c, const char *arg, pid_t *list, size_t *n)
{
	char buf[16];

	while (*arg) {
		size_t k = strcspn(arg, ",");
		uint64_t v;

		if (k == 0 || k >= sizeof(buf))
			die("-%c: bad pid list: %s", c, arg);
		memcpy(buf, arg, k);
		buf[k] = '\0';
		if (parse_u64(buf, INT32_MAX, &v) < 0 || v == 0)
			die("-%c: bad pid: %s", c, buf);
		if (*n == PID_LIST_MAX)
			die("-%c: more than %d pids: %s", c, PID_LIST_MAX, c == 'p' ?
			    "scan every process (no -p) instead" : "report every process (no -P)");
		list[(*n)++] = (pid_t)v;
		arg += k + (arg[k] == ',');
	}
}

/* Seconds, with up to three decimals: ms. */
static int parse_interval(const char *s, uint64_t *ms)
{
	char whole[16];
	size_t n = strcspn(s, "."), d = 0;
	uint64_t v;

	if (n == 0 || n >= sizeof(whole))
		return -1;
	memcpy(whole, s, n);
	whole[n] = '\0';
	if (parse_u64(whole, 366 * 86400u, &v) < 0)
		return -1;
	*ms = v * 1000;
	if (s[n] == '.') {
		for (s += n + 1; s[d] >= '0' && s[d] <= '9' && d < 3; d++)
			;
		if (d == 0 || s[d])
			return -1;
		for (v = 0, n = 0; n < 3; n++)
			v = v * 10 + (n < d ? (uint64_t)(s[n] - '0') : 0);
		*ms += v;
	}
	return 0;
}

/* s after p, up to end (a NUL kept there): the new end of the text. */
char *cat(char *p, char *end, const char *s)
{
	while (*s && p < end - 1)
		*p++ = *s++;
	*p = '\0';
	return p;
}

/* Option i as written, after p: -b, --max; with its value as the synopsis
 * has it (HEAD_FORM), as -h's list (HEAD_LIST), or, for an alias alone, as
 * messages name it (--budget name=size/h). */
char *opt_head(char *p, char *end, int i, int how)
{
	const char *name = cli_opts[i].text, *arg = field(name, T_ARG), *head = field(name, T_HEAD);

	p = cat(cat(p, end, name[1] ? "--" : "-"), end, name);
	if (*arg && (how || (i > 0 && strcmp(cli_opts[i - 1].text, name) == 0)))
		p = cat(cat(p, end, " "), end, how == HEAD_LIST && *head ? head : arg);
	return p;
}

/* The first option named name (len bytes of it), or -1. */
static int find_opt(const char *name, size_t len)
{
	int i;

	for (i = 0; i < NOPT; i++)
		if (strncmp(cli_opts[i].text, name, len) == 0 && cli_opts[i].text[len] == '\0')
			return i;
	return -1;
}

static _Noreturn void left_out(const char *what, unsigned need)
{
	need &= ~BUILT;
	die("%s: left out of this build (made with %s)", what,
	    need & HAS_LOAD ? "LOAD=0: a host reads a board's captures, logs and files" :
	    need & HAS_PICTURES ? "PICTURES=0: a host draws them from a board's capture" :
	    need & HAS_DMABUF ? "DMABUF=0, for a board short of room" :
	    need & HAS_CGROUPS ? "CGROUPS=0, for a board short of room" : "BROWSE=0");
}

/* Option i with its value (NULL for a flag). */
static void take(struct cmdline *c, int i, const char *arg)
{
	uint32_t bit = UINT32_C(1) << i;

	if (cli_opts[i].store && arg)
		*(const char **)((char *)c + cli_opts[i].store) = arg;
	else if (cli_opts[i].store)
		*(int *)((char *)c + cli_opts[i].store) = 1;
	switch (i) {
	case O_p:
		parse_pids('p', arg, pid_list, &npid_list);
		break;
	case O_n:
		if (parse_u64(arg, UINT32_MAX, &c->o.top) < 0 || c->o.top == 0)
			die("-n: not a row count from 1: %s", arg);
		break;
	case O_m:
		if (parse_size(arg, &c->cap_mem) < 0 || c->cap_mem < (1u << 20))
			die("-m: not a size of at least 1M: %s", arg);
		break;
	case O_t:
		if (parse_u64(arg, UINT32_MAX - 1, &c->table) < 0 || c->table == 0)
			die("-t: not a page count from 1 to %u: %s", UINT32_MAX - 1, arg);
		break;
	case O_MAX:
		if (parse_size(arg, &c->w.max) < 0 || c->w.max < (16u << 10))
			die("--max: not a size of at least 16K: %s", arg);
		break;
#ifndef EXMAP_NO_LOAD
	case O_LABEL:
		metrics_label(arg);
		break;
#endif
	case O_BUDGET:
		if (c->nbudget == BUDGET_MAX)
			die("--budget: more than %d budgets", BUDGET_MAX);
		parse_budget((char *)arg, &budgets[c->nbudget]);
		if (budgets[c->nbudget++].per_hour)
			bit = OPT(SLOPE);
		break;
	}
	c->given |= bit;
}

/* The view's words, in order: anything not an option. "-" is standard
 * input, -@N a place in it, -1 a number (a negative interval, said so). */
static int is_word(const char *a)
{
	return a[0] != '-' || a[1] == '\0' || a[1] == '@' || (a[1] >= '0' && a[1] <= '9');
}

void cli_parse(struct cmdline *c, int argc, char **argv)
{
	int i, k, nargs = 0;

	c->o.sort = -1;
	for (i = 1; i < argc && !c->help && !c->version; i++) {
		const char *a = argv[i], *arg = NULL;
		char head[32];
		size_t len;

		if (is_word(a)) {
			argv[nargs++] = argv[i];
			continue;
		}
		if (strcmp(a, "--") == 0) {
			while (++i < argc)
				argv[nargs++] = argv[i];
			break;
		}
		/* --name, --name=value or --name value: the whole name */
		if (a[1] == '-') {
			len = strcspn(a + 2, "=");
			k = strcmp(a, "--help") == 0 ? O_h : len > 1 ? find_opt(a + 2, len) : -1;
			if (k < 0)
				die("%.*s: not an option (exmap-mini -h lists them)", (int)len + 2, a);
			if (a[2 + len])
				arg = a + 3 + len;
			if (!*field(cli_opts[k].text, T_ARG) && arg)
				die("--%s: takes no value: %s", cli_opts[k].text, a);
		} else {
			/* -ckq: flags together; -n5 or -n 5: an option's value */
			for (a++; (k = find_opt(a, 1)) >= 0 && !*field(cli_opts[k].text, T_ARG) && a[1];
			     a++)
				take(c, k, NULL);
			if (k < 0)
				die("-%c: not an option (exmap-mini -h lists them)", *a);
			if (a[1])
				arg = a + 1;
		}
		if (*field(cli_opts[k].text, T_ARG) && !arg && !(arg = argv[++i]))
			die("%s: give its value (%s)", (opt_head(head, head + sizeof(head), k, 0), head),
			    field(cli_opts[k].text, T_ARG));
		take(c, k, arg);
	}
	c->word = argv;
	c->nword = nargs;
	c->pids = pid_list;
	c->npid = npid_list;
	c->budgets = budgets;
}

/* A view as messages name it, after p: "html"; full: "the html view"; a
 * variant by its word: "diff ... html". */
char *view_label(char *p, char *end, const struct viewdef *v, int full)
{
	full &= v->as != AS_WORD;
	p = cat(cat(p, end, full ? "the " : ""), end, v->text);
	if (v->as == AS_WORD)
		p = cat(cat(p, end, " ... "), end, field(v->text, T_ARG));
	return cat(p, end, full ? " view" : "");
}

/* Row v's name, its words and its variants' words, after p, for a usage
 * line: "watch interval [count] [metrics]". */
char *view_head(char *p, char *end, const struct viewdef *v, const struct viewdef *last)
{
	const char *args = field(v->text, T_ARG);
	const struct viewdef *w;

	p = cat(p, end, v->text);
	if (*args)
		p = cat(cat(p, end, " "), end, args);
	for (w = v + 1; w <= last && w->as != AS_NAME; w++)
		if (w->as == AS_WORD && !(w->build & ~BUILT))
			p = cat(cat(cat(p, end, " ["), end, field(w->text, T_ARG)), end, "]");
	return p;
}

/* A view's words wrong: why (fmt of the view's name, a and b), then its usage line. */
static _Noreturn void misuse(const struct cmdline *c, const struct viewdef *row, const char *fmt,
			     const char *a, const char *b)
{
	char why[256], head[96];

	fmt_snprintf(why, sizeof(why), fmt, row->text, a, b);
	view_head(head, head + sizeof(head), row, c->views + c->nviews - 1);
	die("%s\nusage: exmap-mini [options] %s", why, head);
}

/* The words of view v (a variant of row, or row). */
static void view_words(struct cmdline *c, const struct viewdef *row, const struct viewdef *v)
{
	const char *args = field(row->text, T_ARG);
	int n = c->nword, k;
	uint64_t x;

	if (n < v->min) {
		for (k = 0; k < n; k++)	/* the words missing: "diff a", capture */
			args += strcspn(args, " ") + 1;
		misuse(c, row, "%s: missing %s", args, NULL);
	}
	if (n > v->max) {
		/* diff a b pdf: the word that may end it */
		if (v == row && v + 1 < c->views + c->nviews && v[1].as == AS_WORD && n == v[1].max)
			misuse(c, row, "%s: its last word can only be %s: %s", field(v[1].text, T_ARG),
			       c->word[n - 1]);
		/* files 716, procs 716: the part of one process is -P's */
		if (v->max == 0 && (v->opts & OPT(P)) && parse_u64(c->word[0], INT32_MAX, &x) == 0)
			misuse(c, row, "%s takes no pid: -P %s reports a process's part", c->word[0],
			       NULL);
		misuse(c, row, "%s: one word too many: %s",
		       c->word[v->as == AS_WORD ? v->max - 1 : v->max], NULL);
	}
	switch (v->view) {
	case V_MAPS:
		if (parse_u64(c->word[0], INT32_MAX, &x) < 0 || x == 0)
			misuse(c, row, "%s: not a pid: %s", c->word[0], NULL);
		c->o.view_pid = (pid_t)x;
		break;
	case V_ELF: case V_SECTIONS: case V_SYMBOLS:
		c->o.view_file = c->word[0];
		c->o.view_section = n == 2 ? c->word[1] : NULL;
		break;
	case V_DIFF:
		c->o.html = v->as == AS_WORD;
		break;
	case V_WATCH:
		if (c->word[0][0] == '-')
			misuse(c, row, "%s: a negative interval: %s (0.001 to a year, or 0: one "
			       "sample after another)", c->word[0], NULL);
		if (parse_interval(c->word[0], &c->w.interval_ms) < 0)
			misuse(c, row, "%s: not an interval in seconds (0.001 to a year, 0: none): %s",
			       c->word[0], NULL);
		if (n - (v->as == AS_WORD) == 2 &&
		    (parse_u64(c->word[1], UINT64_MAX, &c->w.count) < 0 || !c->w.count))
			misuse(c, row, "%s: not a count of samples from 1: %s", c->word[1], NULL);
		break;
	}
}

/* -l names a watch log: html draws its trend. */
static int is_log(const struct cmdline *c)
{
#ifdef EXMAP_NO_LOAD
	(void)c;
	return 0;
#else
	return c->load && wlog_holds(c->load) == 1;
#endif
}

/* The view the words name, its variant, and its words. */
static void pick_view(struct cmdline *c)
{
	const struct viewdef *end = c->views + c->nviews, *row, *v, *w;
	const char *name = c->nword ? c->word[0] : "procs";
	char list[256], *p = list;

	for (row = c->views; row < end && strcmp(row->text, name) != 0; row++)
		;
	if (row == end) {
		for (v = c->views; v < end; v++)
			if (v->as == AS_NAME && !(v->build & ~BUILT))
				p = cat(cat(p, list + sizeof(list), " "), list + sizeof(list), v->text);
		die("%s: not a view (%s)\nusage: see exmap-mini -h", name, list + 1);
	}
	if (c->nword)
		c->word++, c->nword--;
	for (v = row, w = row + 1; w < end && w->as != AS_NAME; w++)
		if (w->as == AS_WORD ? c->nword && strcmp(c->word[c->nword - 1],
							   field(w->text, T_ARG)) == 0 : is_log(c))
			v = w;
	if (v->build & ~BUILT) {
		view_label(list, list + sizeof(list), v, 0);
		left_out(list, v->build);
	}
	c->v = v;
	c->o.view = v->view;
	view_words(c, row, v);
}

/* Option i given to a view that does not take it: what the view is and
 * what it takes, or which views take the option. */
static _Noreturn void refuse(const struct cmdline *c, int i)
{
	const struct viewdef *v = c->v, *w, *row = c->views;
	char head[32], label[64], list[256], *end = list + sizeof(list), *p = list;
	int j;

	opt_head(head, head + sizeof(head), i, 0);
	view_label(label, label + sizeof(label), v, 1);
	if (*field(v->text, T_WHY)) {
		for (j = 0; j < NOPT; j++)
			if ((v->opts >> j & 1) && !(cli_opts[j].build & ~BUILT))
				p = opt_head(cat(p, end, " "), end, j, 0);
		die("%s: not with %s (%s), which takes%s", head, label, field(v->text, T_WHY), list);
	}
	for (w = c->views; w < c->views + c->nviews; w++) {
		row = w->as == AS_NAME ? w : row;
		/* a variant named once with its row */
		if ((w->opts >> i & 1) && !(w->build & ~BUILT) && (w == row || !(row->opts >> i & 1)))
			p = view_label(cat(p, end, ", "), end, w, 0);
	}
	die("%s: not with %s: for %s", head, label, list + 2);
}

void cli_check(struct cmdline *c)
{
	const struct viewdef *v;
	struct opts *o = &c->o;
	char head[32], buf[160] = "", *p = buf;
	struct stat st;
	size_t i;
	int f = -1;

	pick_view(c);
	v = c->v;
	/* -P on a watch log takes a name */
	if ((c->given & OPT(P)) && !(v->opts & OPT(P)) && (v->opts & OPT(PICK)))
		c->given ^= OPT(P) | OPT(PICK);
	for (i = 0; i < NOPT; i++) {
		const struct optdef *d = &cli_opts[i];

		if (!(c->given >> i & 1))
			continue;
		opt_head(head, head + sizeof(head), (int)i, 0);
		if (d->build & ~BUILT)
			left_out(head, d->build);
		if (d->needs >= 0 && !(c->given >> d->needs & 1))
			die("%s: %s", head, field(d->text, T_WHY));
		if (d->not >= 0 && (c->given >> d->not & 1))
			die("%s: %s", head, field(cli_opts[d->not].text, T_WHY));
		if (!(v->opts >> i & 1))
			refuse(c, (int)i);
	}
	if (v->needs >= 0 && !(c->given >> v->needs & 1))
		die("%s: %s", (view_label(buf, buf + sizeof(buf), v, 0), buf), field(v->text, T_NEED));
	if (c->sort && ((f = field_lookup(c->sort)) < 0 || !(v->sorts >> f & 1))) {
		for (f = 0; f < NFIELDS; f++)
			if (v->sorts >> f & 1)
				p = cat(cat(p, buf + sizeof(buf), " "), buf + sizeof(buf), field_names[f]);
		die("-s: %s is not a field of this view; it has:%s", c->sort, buf);
	}
	o->sort = f;
	if (c->given & OPT(P)) {
		parse_pids('P', c->rpids, rpid_list, &nrpid_list);
		o->rpids = rpid_list;
		o->nrpid = nrpid_list;
	}
	if (c->out && *c->out && (c->out[strlen(c->out) - 1] == '/' ||
				  (stat(c->out, &st) == 0 && S_ISDIR(st.st_mode))))
		die("-o %s: a directory: -o names the file to write", c->out);
	for (i = 0; i < npid_list; i++)	/* a pid that exits later: vanished */
		if (kill(pid_list[i], 0) < 0 && errno == ESRCH)
			die("-p: no such process: pid %d", (int)pid_list[i]);
	if (v->view == V_MAPS && npid_list && !pid_in(o->view_pid, pid_list, npid_list))
		die("maps: pid %d is not among -p's: add it there", (int)o->view_pid);
}
