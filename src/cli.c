/* The command line: the options' table, and argv read and checked against the tables. */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

#define SHAPES	"it shapes a scan; a capture was shaped when it was taken"

/* Every option, in -h's order; .help NULL where the build leaves it out. */
const struct optdef cli_opts[NOPT] = {
	[O_a] = { "a", .help = "every row: diff's unchanged ones and the ram view's, symbols with "
		  "nothing resident (folded's leaves too; in html, a box each)" },
	[O_c] = { "c", .help = "CSV, sizes in bytes" },
	[O_k] = { "k", .help = "text sizes in KiB instead of human units" },
	[O_q] = { "q", .help = "rows only: no header, totals or notes (warnings stay on stderr)" },
	[O_b] = { "b", "source", .not = OPT(l), .why = SHAPES,
		  .help = "where page information comes from: auto (the default: the module if "
		  "loaded, else pagemap), kmod or pagemap" },
	[O_p] = { "p", "pid[,pid...]", "pids", .not = OPT(l), .why = SHAPES,
		  .help = "scan only these processes: pages are shared among them alone" },
	[O_P] = { "P", "pid[,pid...]", "pids",
		  .help = "report only these processes' part; pages are shared among all" },
	[O_PICK] = { "P", "name|pid", .build = HAS_LOAD,
		     .help = IF_LOAD("on a watch log, one process by name or pid: its parts' growth") },
	[O_F] = { "F", "file", .help = "report only this file's part (a path, a basename or a soname)" },
	[O_s] = { "s", "field", .help = "sort by" },	/* the fields: usage.c, from the views */
	[O_n] = { "n", "count", .help = "print only the first count rows" },
	[O_m] = { "m", "size", .help = "cap the working memory (the arena) at size bytes; K, M, G" },
	[O_t] = { "t", "pages", .not = OPT(l), .why = SHAPES,
		  .help = "room in the page table for this many distinct shared pages" },
	[O_l] = { "l", "capture", .build = HAS_LOAD,
		  .help = IF_LOAD("read a capture (a file, or a console log holding one) instead of "
				  "scanning; log@N the Nth capture of a log (@-1 the last, the default), "
				  "here and in diff") },
	[O_S] = { "S", "sysroot", .needs = OPT(l), .build = HAS_LOAD,
		  .why = "a sysroot is for a capture's files: give -l too",
		  .help = IF_LOAD("with -l: find the capture's ELF files under sysroot, by build-id, "
				  "else by path (without -S: this machine's files, checked alike)") },
	[O_w] = { "w", "duration", .needs = OPT(l), .build = HAS_LOAD,
		  .why = "a warm-up is left out of a watch log's trend: -l LOG -w DURATION trend",
		  .help = IF_LOAD("on a watch log: leave out its first duration (s, m, h, d)") },
	[O_o] = { "o", "file", .help = "the output goes to file: written whole beside it, then renamed "
		  "over it; watch's log is appended to it" },
	[O_MAX] = { "max", "size", .needs = OPT(o),
		    .why = "the size at which -o's file is renamed: give -o too",
		    .help = "with -o: file is renamed file.1 when it reaches size (K, M, G) and a new "
		    "file begun; -l file reads file.1 and file together" },
	[O_PIDS] = { "pids", .help = "metrics: a series for each process (a pid label), not each name" },
	[O_BUDGET] = { "budget", "name=size", .many = 1,
		       .help = "exit 3 if eff_resident of name is over size (K, M, G): a mapped file "
		       "(a path, or a name as -F takes it), else the processes of that name, summed; "
		       "proc:name for those when a file is so named; ram:name a line of the ram view "
		       "(ram:slab, ram:unexplained)" },
	[O_SLOPE] = { "budget", "name=size/h", .needs = OPT(l), .build = HAS_LOAD, .many = 1,
		      .why = "a slope is checked on a watch log: -l LOG trend",
		      .help = IF_LOAD("name=size/h, with trend: exit 3 if its slope is over size "
				      "an hour") },
	[O_h] = { "h", .help = "print this help (--help too)" },
	[O_V] = { "V", .help = "print the version" },
};

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

/* Option i as written: -b, --max; an alias with its value, --budget name=size/h. */
static const char *opt_head(char *buf, size_t len, int i)
{
	const struct optdef *d = &cli_opts[i];
	int alias = i > 0 && strcmp(cli_opts[i - 1].name, d->name) == 0;

	fmt_snprintf(buf, len, "-%s%s%s%s", d->name[1] ? "-" : "", d->name, alias ? " " : "",
		     alias ? d->arg : "");
	return buf;
}

/* The first option named name (len bytes of it), or -1. */
static int find_opt(const char *name, size_t len)
{
	int i;

	for (i = 0; i < NOPT; i++)
		if (strncmp(cli_opts[i].name, name, len) == 0 && cli_opts[i].name[len] == '\0')
			return i;
	return -1;
}

static _Noreturn void left_out(const char *what, unsigned need)
{
	need &= ~BUILT;
	die("%s: left out of this build (made with %s)", what,
	    need & HAS_LOAD ? "LOAD=0, for a board: a host loads its captures and logs, and reads "
	    "its files" : need & HAS_PICTURES ? "PICTURES=0, for a board: a host draws the pictures "
	    "from a capture" : "BROWSE=0");
}

/* Option i with its value (NULL for a flag). */
static void take(struct cmdline *c, int i, const char *arg)
{
	struct opts *o = &c->o;
	uint32_t bit = UINT32_C(1) << i;

	switch (i) {
	case O_a: o->all = 1; break;
	case O_c: o->csv = 1; break;
	case O_k: o->kib = 1; break;
	case O_q: o->noheader = 1; break;
	case O_b: c->backend = arg; break;
	case O_p: parse_pids('p', arg, pid_list, &npid_list); break;
	case O_P: c->rpids = arg; break;
	case O_F: o->rfile = arg; break;
	case O_s: c->sort = arg; break;
	case O_n:
		if (parse_u64(arg, UINT32_MAX, &o->top) < 0 || o->top == 0)
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
	case O_l: c->load = arg; break;
	case O_S: o->sysroot = arg; break;
	case O_w: c->warmup = arg; break;
	case O_o: c->out = arg; break;
	case O_MAX:
		if (parse_size(arg, &c->w.max) < 0 || c->w.max < (16u << 10))
			die("--max: not a size of at least 16K: %s", arg);
		break;
	case O_PIDS: o->pids = 1; break;
	case O_BUDGET:
		if (c->nbudget == BUDGET_MAX)
			die("--budget: more than %d budgets", BUDGET_MAX);
		if (parse_budget((char *)arg, &budgets[c->nbudget]) < 0)
			die("--budget: not NAME=SIZE or NAME=SIZE/h (SIZE in bytes, or with K, M, G): %s",
			    arg);
		if (budgets[c->nbudget++].per_hour)
			bit = OPT(SLOPE);
		break;
	case O_h: c->help = 1; break;
	case O_V: c->version = 1; break;
	}
	c->given |= bit;
}

/* "--name[=value]" (value in the next word if it takes one); 0, or 1 if the
 * next word was taken. */
static int take_long(struct cmdline *c, const char *a, const char *next)
{
	size_t len = strcspn(a + 2, "=");
	int i = len > 1 ? find_opt(a + 2, len) : -1;
	const char *arg = a[2 + len] ? a + 3 + len : NULL;

	if (strcmp(a, "--help") == 0)
		i = O_h;
	if (i < 0)
		die("%.*s: not an option (exmap-mini -h lists them)", (int)len + 2, a);
	if (!cli_opts[i].arg && arg)
		die("--%s: takes no value: %s", cli_opts[i].name, a);
	if (cli_opts[i].arg && !arg && !(arg = next))
		die("--%s: give its value (%s)", cli_opts[i].name, cli_opts[i].arg);
	take(c, i, arg);
	return cli_opts[i].arg && arg == next;
}

/* A view's words, in order; "-" is standard input, -@N a place in it, -1 a
 * number (a negative interval, said as such): none is an option. */
static int is_word(const char *a)
{
	return a[0] != '-' || a[1] == '\0' || a[1] == '@' || (a[1] >= '0' && a[1] <= '9');
}

/* The name of the view, its variants and its words, for the usage line:
 * "watch interval [count] [metrics]". */
size_t view_head(char *buf, size_t len, const struct viewdef *v, const struct viewdef *end)
{
	size_t n = (size_t)fmt_snprintf(buf, len, "%s%s%s", v->name, *v->args ? " " : "", v->args);
	const struct viewdef *w;

	for (w = v + 1; w < end && strcmp(w->name, v->name) == 0 && n < len; w++)
		if (w->as == AS_WORD && !(w->build & ~BUILT))
			n += (size_t)fmt_snprintf(buf + n, len - n, " [%s]", w->args);
	return n < len ? n : len - 1;
}

/* A view's words wrong: why (fmt of the view's name, a and b), then its usage line. */
static _Noreturn void misuse(const struct cmdline *c, const struct viewdef *row, const char *fmt,
			     const char *a, const char *b)
{
	char why[256], head[96];

	fmt_snprintf(why, sizeof(why), fmt, row->name, a, b);
	view_head(head, sizeof(head), row, c->views + c->nviews);
	die("%s\nusage: exmap-mini [options] %s", why, head);
}

/* The word after n others in words ("capture capture", 1: "capture"). */
static const char *nth_word(char *buf, size_t len, const char *words, int n)
{
	size_t k;

	while (n-- > 0 && *words)
		words += strcspn(words, " ") + (words[strcspn(words, " ")] == ' ');
	k = strcspn(words, " ");
	fmt_snprintf(buf, len, "%.*s", (int)k, words);
	return buf;
}

/* The words of view v (a variant of row, or row), n of them after its name. */
static void view_words(struct cmdline *c, const struct viewdef *row, const struct viewdef *v)
{
	struct opts *o = &c->o;
	int n = c->nword;
	char buf[32];
	uint64_t x;

	if (n < v->min)
		misuse(c, row, "%s: missing %s", nth_word(buf, sizeof(buf), row->args, n), NULL);
	if (n > v->max) {
		const struct viewdef *w = v + 1;

		/* diff a b pdf: the word that may end it, or none */
		if (v == row && w < c->views + c->nviews && w->as == AS_WORD &&
		    strcmp(w->name, v->name) == 0 && n == w->max)
			misuse(c, row, "%s: its last word can only be %s: %s", w->args, c->word[n - 1]);
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
		o->view_pid = (pid_t)x;
		break;
	case V_ELF: case V_SECTIONS: case V_SYMBOLS:
		o->view_file = c->word[0];
		o->view_section = n == 2 ? c->word[1] : NULL;
		break;
	case V_DIFF:
		o->html = v->as == AS_WORD;
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
	default:
		break;
	}
}

/* The view the words name, its variant, and its words. */
static void pick_view(struct cmdline *c)
{
	const struct viewdef *V = c->views, *end = V + c->nviews, *row, *v;
	const char *name = c->nword ? c->word[0] : "procs";
	char list[256];
	size_t n = 0;

	for (row = V; row < end && strcmp(row->name, name) != 0; row++)
		;
	if (row == end) {
		for (v = V; v < end && n < sizeof(list); v++)
			if (v->as == AS_NAME && !(v->build & ~BUILT))
				n += (size_t)fmt_snprintf(list + n, sizeof(list) - n, " %s", v->name);
		die("%s: not a view (%s)\nusage: see exmap-mini -h", name, list + 1);
	}
	if (c->nword)
		c->word++, c->nword--;
	v = row;
	for (const struct viewdef *w = row + 1; w < end && strcmp(w->name, name) == 0; w++)
		if (w->as == AS_WORD ? c->nword && strcmp(c->word[c->nword - 1], w->args) == 0 :
#ifdef EXMAP_NO_LOAD
		    0)
#else
		    c->load && wlog_holds(c->load) == 1)
#endif
			v = w;
	if (v->build & ~BUILT) {
		view_label(list, sizeof(list), v, 0);
		left_out(list, v->build);
	}
	c->v = v;
	c->o.view = v->view;
	view_words(c, row, v);
}

void cli_parse(struct cmdline *c, int argc, char **argv)
{
	int i, nargs = 0;

	c->o.sort = -1;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *arg;

		if (is_word(a)) {
			argv[nargs++] = argv[i];
			continue;
		}
		if (strcmp(a, "--") == 0) {
			while (++i < argc)
				argv[nargs++] = argv[i];
			break;
		}
		if (a[1] == '-') {
			i += take_long(c, a, i + 1 < argc ? argv[i + 1] : NULL);
		} else {
			/* -ckq: flags together; -n5 or -n 5: an option's value */
			for (a++; *a && !c->help && !c->version; a++) {
				int k = find_opt(a, 1);

				if (k < 0)
					die("-%c: not an option (exmap-mini -h lists them)", *a);
				if (!cli_opts[k].arg) {
					take(c, k, NULL);
					continue;
				}
				if (!(arg = a[1] ? a + 1 : argv[++i]))
					die("-%c: give its value (%s)", *a, cli_opts[k].arg);
				take(c, k, arg);
				break;
			}
		}
		if (c->help || c->version)
			return;
	}
	c->word = argv;
	c->nword = nargs;
	c->pids = pid_list;
	c->npid = npid_list;
	c->budgets = budgets;
	pick_view(c);
}

/* A view as messages name it: "the html view", "diff ... html", "a watch
 * log's html"; short: "html". */
size_t view_label(char *buf, size_t len, const struct viewdef *v, int full)
{
	return (size_t)fmt_snprintf(buf, len, v->as == AS_WORD ? "%s ... %s" : v->as == AS_LOG &&
				    full ? "a watch log's %s" : full ? "the %s view" : "%s",
				    v->name, v->args);
}

/* Option i given to a view that does not take it: what the view is and
 * what it takes, or which views take the option. */
static _Noreturn void refuse(const struct cmdline *c, int i)
{
	const struct viewdef *v = c->v, *w;
	char head[32], label[64], list[256];
	size_t n = 0;
	int j;

	opt_head(head, sizeof(head), i);
	view_label(label, sizeof(label), v, 1);
	if (v->why) {
		for (j = 0; j < NOPT && n < sizeof(list); j++)
			if ((v->opts >> j & 1) && !(cli_opts[j].build & ~BUILT)) {
				list[n++] = ' ';
				n += strlen(opt_head(list + n, sizeof(list) - n, j));
			}
		die("%s: not with %s (%s), which takes%s", head, label, v->why, n ? list : " none");
	}
	for (w = c->views; w < c->views + c->nviews && n < sizeof(list); w++) {
		const struct viewdef *row = w;

		while (row->as != AS_NAME)
			row--;
		/* a variant named once with its row */
		if ((w->opts >> i & 1) && !(w->build & ~BUILT) && (w == row || !(row->opts >> i & 1))) {
			n += (size_t)fmt_snprintf(list + n, sizeof(list) - n, ", ");
			n += view_label(list + n, sizeof(list) - n, w, 0);
		}
	}
	die("%s: not with %s: for %s", head, label, list + 2);
}

/* -s's fields for view v, as -s's message lists them. */
static const char *sort_names(char *buf, size_t len, uint32_t sorts)
{
	size_t n = 0;
	int f;

	buf[0] = '\0';
	for (f = 0; f < NFIELDS && n < len; f++)
		if (sorts >> f & 1)
			n += (size_t)fmt_snprintf(buf + n, len - n, "%s%s", n ? " " : "", field_names[f]);
	return buf;
}

void cli_check(struct cmdline *c)
{
	const struct viewdef *v = c->v;
	struct opts *o = &c->o;
	char head[32], buf[160];
	struct stat st;
	size_t i;
	int f;

	/* -P on a watch log takes a name */
	if ((c->given & OPT(P)) && !(v->opts & OPT(P)) && (v->opts & OPT(PICK)))
		c->given ^= OPT(P) | OPT(PICK);
	for (i = 0; i < NOPT; i++) {
		const struct optdef *d = &cli_opts[i];

		if (!(c->given >> i & 1))
			continue;
		opt_head(head, sizeof(head), (int)i);
		if (d->build & ~BUILT)
			left_out(head, d->build);
		if ((d->needs & ~c->given) || (d->not & c->given))
			die("%s: %s", head, d->why);
		if (!(v->opts >> i & 1))
			refuse(c, (int)i);
	}
	if (v->needs & ~c->given) {
		view_label(buf, sizeof(buf), v, 0);
		die("%s: %s", buf, v->need);
	}
	if (c->sort && ((f = field_lookup(c->sort)) < 0 || !(v->sorts >> f & 1)))
		die("-s: %s is not a field of this view; it has: %s", c->sort,
		    sort_names(buf, sizeof(buf), v->sorts));
	if (c->sort)
		o->sort = f;
	if (c->given & OPT(P)) {
		parse_pids('P', c->rpids, rpid_list, &nrpid_list);
		o->rpids = rpid_list;
		o->nrpid = nrpid_list;
	}
	if (c->out && *c->out && (c->out[strlen(c->out) - 1] == '/' || (stat(c->out, &st) == 0 &&
							     S_ISDIR(st.st_mode))))
		die("-o %s: a directory: -o names the file to write", c->out);
	for (i = 0; i < npid_list; i++)	/* a pid that exits later: vanished */
		if (kill(pid_list[i], 0) < 0 && errno == ESRCH)
			die("-p: no such process: pid %d", (int)pid_list[i]);
	if (v->view == V_MAPS && npid_list && !pid_in(o->view_pid, pid_list, npid_list))
		die("maps: pid %d is not among -p's: add it there", (int)o->view_pid);
}
