/* The command line: the tables of views and options, what a run asked for. */
/*
 * One table says what the command line accepts: views.c's rows of views
 * (name, words, the options each takes, the builds that have it, its -s
 * fields, its help, its run) and cli.c's rows of options. cli.c reads and
 * checks argv against them, usage.c makes -h from them, and the manual's
 * synopsis is checked against -h (tests/suites/man_test.sh). A new view is
 * a row in views.c and its function.
 */
#ifndef CLI_H
#define CLI_H

#include "exmap.h"
#include "wlog.h"

/* What a build has (the Makefile's LOAD, PICTURES, BROWSE, DMABUF,
 * CGROUPS). A view or an option that needs what the build left out stays
 * in the tables, to be refused by name; its help and its function are left
 * out: IF_LOAD(x, none) is x where the build has LOAD, else none. */
enum { HAS_LOAD = 1, HAS_PICTURES = 2, HAS_BROWSE = 4, HAS_DMABUF = 8, HAS_CGROUPS = 16 };
#ifdef EXMAP_NO_LOAD
#define IF_LOAD(x, none)	none
#define BUILT_LOAD	0
#else
#define IF_LOAD(x, none)	x
#define BUILT_LOAD	HAS_LOAD
#endif
#ifdef EXMAP_NO_PICTURES
#define IF_PICTURES(x, none)	none
#define BUILT_PICTURES	0
#else
#define IF_PICTURES(x, none)	x
#define BUILT_PICTURES	HAS_PICTURES
#endif
#ifdef EXMAP_NO_BROWSE
#define IF_BROWSE(x, none)	none
#define BUILT_BROWSE	0
#else
#define IF_BROWSE(x, none)	x
#define BUILT_BROWSE	HAS_BROWSE
#endif
#ifdef EXMAP_NO_DMABUF
#define IF_DMABUF(x, none)	none
#define BUILT_DMABUF	0
#else
#define IF_DMABUF(x, none)	x
#define BUILT_DMABUF	HAS_DMABUF
#endif
#ifdef EXMAP_NO_CGROUPS
#define IF_CGROUPS(x, none)	none
#define BUILT_CGROUPS	0
#else
#define IF_CGROUPS(x, none)	x
#define BUILT_CGROUPS	HAS_CGROUPS
#endif
#define BUILT		(BUILT_LOAD | BUILT_PICTURES | BUILT_BROWSE | BUILT_DMABUF | BUILT_CGROUPS)

/* The options, in cli.c's table's order, which is -h's. An alias (-P NAME
 * on a watch log, --budget NAME=SIZE/h) follows the option it is spelt as. */
enum opt {
	O_a, O_c, O_k, O_q, O_b, O_p, O_P, O_PICK, O_F, O_s, O_n, O_m, O_t, O_l, O_S,
	O_w, O_o, O_MAX, O_PIDS, O_LABEL, O_BUDGET, O_SLOPE, O_h, O_V, NOPT
};
#define OPT(x)	(UINT32_C(1) << O_##x)

/* A row's words: its fields one after another, each ending with a NUL
 * ("" where it has none), made by OPT_TEXT or VIEW_TEXT; field() finds one. */
enum { T_NAME, T_ARG, T_HEAD, T_NEED = T_HEAD, T_WHY, T_HELP };
const char *field(const char *text, int k);

/* name: "b" for -b, "max" for --max; arg: its value in the synopsis ("" if
 * it takes none); head: its value in -h's list, where shorter; why: said
 * when the option it needs is missing, or by an option that does not go
 * with this one; help: -h's text (an alias's goes on its option's). */
#define OPT_TEXT(name, arg, head, why, help)	name "\0" arg "\0" head "\0" why "\0" help
struct optdef {
	const char *text;
	int8_t needs, not;	/* an option, or -1 */
	uint8_t build;		/* HAS_ bits it needs */
	uint8_t many;		/* it may be given again */
	uint8_t store;		/* where its value goes: offsetof(struct cmdline, ...) */
};
extern const struct optdef cli_opts[NOPT];

/* A row that is a variant of the row before (the same name): chosen when
 * the view's last word is its args (diff ... html, watch ... metrics), or
 * when -l names a watch log (html). */
enum { AS_NAME, AS_WORD, AS_LOG };

/* The synopsis's forms (usage.c), a bit each: the views they take. */
enum { FORM_SCAN = 1, FORM_CAPTURE = 2, FORM_LIST = 4, FORM_LOG = 8, FORM_DIFF = 16,
       FORM_WATCH = 32, NFORM = 6 };

/* -s: a bit for each enum field a view sorts by. */
#define SORT_FIGS	((UINT32_C(1) << NFIGS) - 1)
#define SORT(f)		(UINT32_C(1) << (f))

/* name; args: its words, as usage names them (a variant's: the word it
 * ends with); need: said when an option it needs is missing; why: what it
 * is, said when it refuses an option; help: -h's text. */
#define VIEW_TEXT(name, args, need, why, help)	name "\0" args "\0" need "\0" why "\0" help
struct cmdline;
struct viewdef {
	const char *text;
	int (*run)(struct cmdline *c);	/* returns the exit status */
	uint32_t opts;		/* the options it takes, */
	uint32_t sorts;		/* -s's fields (SORT); 0: not sorted */
	int8_t needs;		/* of them, one it must have, or -1 */
	uint8_t view;		/* enum view */
	uint8_t min, max;	/* words after the name */
	uint8_t as;		/* AS_NAME, or a variant of the row before */
	uint8_t build;		/* HAS_ bits it needs */
	uint8_t forms;		/* FORM_ bits */
};
/* views.c: every view, variants after their row */
extern const struct viewdef views[];
extern const size_t nviews;

#define PID_LIST_MAX	4096	/* pids given with -p, -P */
#define BUDGET_MAX	64	/* --budget options */

/* What the command line asked for. */
struct cmdline {
	const struct viewdef *views;	/* the table read against, */
	const struct viewdef *v;	/* and the row asked for */
	size_t nviews;
	const char *backend, *load, *out, *sort, *rpids, *warmup;	/* as given */
	int help, version;	/* -h or --help, -V: nothing else is read */
	struct opts o;
	uint32_t given;		/* the options given (OPT bits) */
	char **word;		/* the view's words after its name */
	int nword;
	uint64_t cap_mem, table;
	const pid_t *pids;	/* -p's */
	size_t npid;
	const struct budget *budgets;
	size_t nbudget;
	struct watch_opts w;	/* watch's interval, count, --max */
};

/* cli.c: argv read against the tables (the options, the view and its
 * words), then what goes together checked */
void cli_parse(struct cmdline *c, int argc, char **argv);
void cli_check(struct cmdline *c);
char *cat(char *p, char *end, const char *s);
enum { HEAD_MSG, HEAD_FORM, HEAD_LIST };
char *opt_head(char *p, char *end, int i, int how);
char *view_head(char *p, char *end, const struct viewdef *v, const struct viewdef *last);
char *view_label(char *p, char *end, const struct viewdef *v, int full);

/* usage.c: -h, what this build does, from the tables */
void usage(const struct viewdef *v, size_t n);

#endif
