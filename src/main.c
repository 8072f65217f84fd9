/* exmap-mini: options, sizing the arena, then scan, account and report. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "capture.h"
#include "dmabuf.h"
#include "cgroup.h"
#include "ram.h"
#include "wlog.h"
#ifdef EXMAP_NO_LOAD
#define wlog_holds(path)	((void)(path), 0)
#endif
#ifndef EXMAP_NO_PICTURES
#include "page.h"
#endif

#define PID_LIST_MAX	4096	/* pids given with -p */
#define BUDGET_MAX	64	/* --budget options */

static pid_t pid_list[PID_LIST_MAX], rpid_list[PID_LIST_MAX];
static size_t npid_list, nrpid_list;

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

static int valid_sort(enum view v, int f)
{
#ifndef EXMAP_NO_CGROUPS
	if (v == V_CGROUPS)
		return f == F_EFF_RESIDENT || f == F_SOLE || f == F_SWAP || f >= F_CGROUP;
#endif
	if (f < 0 || v == V_DUMP || v == V_RAM || v == V_FOLDED || v == V_CAPTURES || v == V_WATCH ||
	    v == V_TREND || v == V_METRICS || v == V_DMABUF)
		return 0;
	if (f < NFIGS)
		return 1;
	switch (v) {
	case V_PROCS: return f == F_PID || f == F_NAME;
	case V_FILES: return f == F_PATH || f == F_NPROC;
	case V_MAPS: return f == F_ADDRESS || f == F_PATH;
	case V_DIFF: return f == F_NAME;
	case V_HTML: return 0;	/* a figure: the tables' first order */
	case V_BROWSE: return f == F_NAME;	/* the name, else a figure */
	default: return f == F_ADDRESS || f == F_NAME;
	}
}

/* The fields -s takes for view v, as -h names them. */
static const char *sort_fields(enum view v)
{
#define FIGS_ "vm mapped resident eff_mapped eff_resident sole writable swap"
	switch (v) {
	case V_PROCS: return FIGS_ " pid name";
	case V_FILES: return FIGS_ " path nproc";
	case V_MAPS: return FIGS_ " address path";
	case V_DIFF: case V_BROWSE: return FIGS_ " name";
	case V_DUMP: return "none (a capture is not sorted)";
	case V_RAM: return "none (its lines are in their order)";
	case V_FOLDED: return "none (flame-graph tools order the lines)";
	case V_CAPTURES: return "none (the log's order)";
	case V_TREND: return "none (by slope, the largest first)";
	case V_WATCH: return "none (a log of samples)";
	case V_METRICS: return "none (a fixed order)";
	case V_DMABUF: return "none (by size, the largest first)";
	case V_HTML: return FIGS_;
#ifndef EXMAP_NO_CGROUPS
	case V_CGROUPS: return "eff_resident sole swap processes charged charged_anon "
			       "charged_file charged_shmem cgroup";
#endif
	default: return FIGS_ " address name";
	}
#undef FIGS_
}

/* The views: their words after the name, and the usage line that says so. */
static const struct {
	const char *name;
	enum view view;
	int min, max;		/* words after the name */
	const char *args;
} views[] = {
	{ "procs", V_PROCS, 0, 0, "" },
	{ "files", V_FILES, 0, 0, "" },
	{ "maps", V_MAPS, 1, 1, " pid" },
	{ "sections", V_SECTIONS, 1, 1, " file" },
	{ "symbols", V_SYMBOLS, 1, 2, " file [section]" },
	{ "elf", V_ELF, 1, 1, " file" },
	{ "dump", V_DUMP, 0, 0, "" },
	{ "diff", V_DIFF, 2, 3, " capture capture [html]" },
	{ "browse", V_BROWSE, 0, 0, "" },
	{ "ram", V_RAM, 0, 0, "" },
	{ "folded", V_FOLDED, 0, 0, "" },
	{ "html", V_HTML, 0, 0, "" },
	{ "captures", V_CAPTURES, 0, 0, "" },
	{ "trend", V_TREND, 0, 0, "" },
	{ "watch", V_WATCH, 1, 2, " interval [count] [metrics]" },
	{ "metrics", V_METRICS, 0, 0, "" },
#ifndef EXMAP_NO_DMABUF
	{ "dmabuf", V_DMABUF, 0, 0, "" },
#endif
	{ "cgroups", V_CGROUPS, 0, 0, "" },
};

/* A view asked for wrongly: what is wrong, then the one usage line for it. */
static _Noreturn void view_misuse(int k, const char *fmt, const char *arg)
{
	char why[256];

	fmt_snprintf(why, sizeof(why), fmt, views[k].name, arg);
	die("%s\nusage: exmap-mini [options] %s%s", why, views[k].name, views[k].args);
}

static struct watch_opts wopts;
static int wmetrics;		/* watch ... metrics */

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

static void parse_view(struct opts *o, char **argv, int argc)
{
	uint64_t v;
	size_t k;
	int n = argc - 1;

	if (argc == 0)
		return;
	for (k = 0; k < sizeof(views) / sizeof(views[0]); k++)
		if (strcmp(argv[0], views[k].name) == 0)
			break;
	if (k == sizeof(views) / sizeof(views[0]))
		die("%s: not a view (procs files maps sections symbols elf dump diff browse ram "
		    "folded html captures watch trend metrics cgroups" DMABUF_WORD ")\n"
		    "usage: see exmap-mini -h", argv[0]);
	/* watch 60 metrics: each sample is the metrics view, not a log */
	if (views[k].view == V_WATCH && n > 1 && strcmp(argv[n], "metrics") == 0)
		wmetrics = 1, n--;
	if (n < views[k].min)
		view_misuse(k, views[k].view == V_DIFF ? "%s: give two captures%s" :
			    views[k].view == V_MAPS ? "%s: give a pid%s" :
			    views[k].view == V_WATCH ? "%s: give an interval in seconds%s" :
			    "%s: give a file%s", "");
	if (views[k].view == V_DIFF && n == 3 && strcmp(argv[3], "html") != 0)
		view_misuse(k, "%s: the word after the captures can only be html: %s", argv[3]);
	if (n > views[k].max) {
		/* files 716, procs 716: the part of one process is -P's */
		if ((views[k].view == V_FILES || views[k].view == V_PROCS) &&
		    parse_u64(argv[1], INT32_MAX, &v) == 0)
			view_misuse(k, "%s takes no pid: -P %s reports a process's part",
				    argv[1]);
		view_misuse(k, "%s: one word too many: %s", argv[views[k].max + 1]);
	}
	o->view = views[k].view;
	switch (o->view) {
	case V_BROWSE:
#ifdef EXMAP_NO_BROWSE
		die("browse: left out of this build (made with BROWSE=0)");
#endif
		break;
	case V_DIFF:
		o->html = n == 3;
		/* fall through */
	case V_HTML: case V_FOLDED:
#ifdef EXMAP_NO_PICTURES
		if (o->view != V_DIFF || o->html)
			die("%s: left out of this build (made with PICTURES=0, for a board: a host "
			    "draws the pictures from a capture)", o->view == V_FOLDED ? "folded" : "html");
#endif
		break;
	case V_CGROUPS:
#ifdef EXMAP_NO_CGROUPS
		die("cgroups: left out of this build (made with CGROUPS=0, for a board short of "
		    "room)");
#endif
		break;
	case V_MAPS:
		if (parse_u64(argv[1], INT32_MAX, &v) < 0 || v == 0)
			view_misuse(k, "%s: not a pid: %s", argv[1]);
		o->view_pid = (pid_t)v;
		break;
	case V_ELF: case V_SECTIONS: case V_SYMBOLS:
		o->view_file = argv[1];
		o->view_section = argc == 3 ? argv[2] : NULL;
		break;
	case V_WATCH:
		if (parse_interval(argv[1], &wopts.interval_ms) < 0)
			view_misuse(k, "%s: not an interval in seconds (0.001 to a year, 0: "
				    "none): %s", argv[1]);
		if (n == 2 && (parse_u64(argv[2], UINT64_MAX, &wopts.count) < 0 || !wopts.count))
			view_misuse(k, "%s: not a count of samples from 1: %s", argv[2]);
		break;
	default:
		break;
	}
}

#define OPTS_FLAG	"ackqhV"	/* options alone */
#define OPTS_ARG	"bpPFsnmtlSow"	/* options with a value */

/* What the options asked for, beyond the view's opts. */
static struct {
	const char *sort_name, *backend, *load, *out;
	uint64_t cap_mem, table;
	const char *rpids, *warmup;	/* -P as given: trend takes a name too; -w */
} cli;

/* An option with its value. */
static void option(struct opts *o, int c, const char *arg)
{
	switch (c) {
	case 'b': cli.backend = arg; break;
	case 'p': parse_pids(c, arg, pid_list, &npid_list); break;
	case 'P': cli.rpids = arg; break;
	case 'w': cli.warmup = arg; break;
	case 'F': o->rfile = arg; break;
	case 's': cli.sort_name = arg; break;
	case 'l': cli.load = arg; break;
	case 'S': o->sysroot = arg; break;
	case 'o': cli.out = arg; break;
	case 'n':
		if (parse_u64(arg, UINT32_MAX, &o->top) < 0 || o->top == 0)
			die("-n: not a row count from 1: %s", arg);
		break;
	case 'm':
		if (parse_size(arg, &cli.cap_mem) < 0 || cli.cap_mem < (1u << 20))
			die("-m: not a size of at least 1M: %s", arg);
		break;
	case 't':
		if (parse_u64(arg, UINT32_MAX - 1, &cli.table) < 0 || cli.table == 0)
			die("-t: not a page count from 1 to %u: %s", UINT32_MAX - 1, arg);
		break;
	}
}

static struct arena arena;
static struct opts again_o;

/* browse's r, watch's samples: the arena given back, the machine scanned again. */
static int rescan(struct scan *s)
{
	struct totals t;

	arena_release(&arena);
	scan_live(s, &arena, &again_o, cli.backend ? cli.backend : "auto", cli.table,
		  cli.cap_mem, pid_list, npid_list);
	account(s, &t);
	return 0;
}

/* watch ... metrics: each sample, -o's file rewritten whole. */
static void metrics_sample(struct scan *s, uint64_t scan_ns)
{
	outfile_open(cli.out);
	view_metrics(s, &again_o, scan_ns);
	outfile_commit();
}

/* The run's status, once -o's file is in place. */
static int done(void)
{
	out_flush();
	if (cli.out)
		outfile_commit();
	return exit_status;
}

int main(int argc, char **argv)
{
	static struct scan scan;
	static struct budget budgets[BUDGET_MAX];
#ifndef EXMAP_NO_LOAD
	static struct capfile capf[2];	/* -l's, or diff's two */
	uint64_t size;
#endif
	struct opts o = { .view = V_PROCS, .sort = -1 };
	size_t nbudget = 0;
	uint64_t t0 = 0;
	struct totals t;
	int c, i, nargs = 0, on_log, metrics;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *arg;

		if (a[0] != '-' || a[1] == '\0' || a[1] == '@') {
			argv[nargs++] = argv[i];	/* a view's words, in order; -@N */
			continue;
		}
		if (strcmp(a, "--") == 0) {
			while (++i < argc)
				argv[nargs++] = argv[i];
			break;
		}
		if (strcmp(a, "--pids") == 0) {
			o.pids = 1;
			continue;
		}
		if (strncmp(a, "--", 2) == 0) {
			size_t kl = strcspn(a + 2, "=");

			if (kl == 3 && strncmp(a + 2, "max", 3) == 0) {
				if (!(arg = a[5] == '=' ? a + 6 : argv[++i]) ||
				    parse_size(arg, &wopts.max) < 0 || wopts.max < (16u << 10))
					die("--max: not a size of at least 16K: %s", arg ? arg : "");
				continue;
			}
			if (kl == 5 && strncmp(a + 2, "label", 5) == 0) {
				if (!(arg = a[7] == '=' ? a + 8 : argv[++i]))
					die("--label: give NAME=VALUE");
				metrics_label(arg);
				continue;
			}
			if (kl != 6 || strncmp(a + 2, "budget", 6) != 0)
				die("%s: not an option (exmap-mini -h lists them)", a);
			if (!(arg = a[8] == '=' ? a + 9 : argv[++i]))
				die("--budget: give NAME=SIZE");
			if (nbudget == BUDGET_MAX)
				die("--budget: more than %d budgets", BUDGET_MAX);
			parse_budget((char *)arg, &budgets[nbudget++]);
			continue;
		}
		/* -ckq: flags together; -n5 or -n 5: an option's argument */
		for (a++; *a; a++) {
			c = *a;
			if (!strchr(OPTS_ARG, c)) {
				if (!strchr(OPTS_FLAG, c))
					die("-%c: not an option (exmap-mini -h lists them)", c);
				if (c == 'h') {
					usage();
					out_flush();
					return EX_OK;
				}
				if (c == 'V') {
					outs("exmap-mini " EXMAP_VERSION "\n");
					out_flush();
					return EX_OK;
				}
				*(c == 'a' ? &o.all : c == 'c' ? &o.csv : c == 'k' ? &o.kib :
				  &o.noheader) = 1;
				continue;
			}
			if (!(arg = a[1] ? a + 1 : argv[++i]))
				die("-%c: give its value (exmap-mini -h says what it takes)", c);
			option(&o, c, arg);
			break;
		}
	}
	argc = nargs;
	parse_view(&o, argv, argc);
	/* trend, and html on a watch log: its samples, not its last capture */
	on_log = o.view == V_TREND || (o.view == V_HTML && cli.load && wlog_holds(cli.load) == 1);
	if (cli.rpids && !on_log)
		parse_pids('P', cli.rpids, rpid_list, &nrpid_list);
	for (i = 0; i < (int)nbudget; i++)
		if (budgets[i].per_hour && !on_log)
			die("--budget %s: a slope (SIZE/h) is checked on a watch log: -l LOG trend",
			    budgets[i].name);
	if (cli.warmup && !on_log)
		die("-w: a warm-up is left out of a watch log's trend: -l LOG -w DURATION trend");
	if (cli.sort_name && !valid_sort(o.view, o.sort = field_lookup(cli.sort_name)))
		die("-s: %s is not a field of this view; it has: %s", cli.sort_name,
		    sort_fields(o.view));
#ifdef EXMAP_NO_LOAD
	if (o.view == V_ELF)
		die("elf: left out of this build (made with LOAD=0, for a board: a host reads "
		    "the board's files, as -S does)");
	if (cli.load || o.view == V_DIFF || o.view == V_CAPTURES || o.view == V_TREND ||
	    o.sysroot)
		die("%s: left out of this build (made with LOAD=0, for a board: captures and "
		    "logs are loaded on a host)", o.view == V_DIFF ? "diff" : cli.load ? "-l" :
		    o.view == V_CAPTURES ? "captures" : o.view == V_TREND ? "trend" : "-S");
#endif
	if ((cli.load || o.view == V_DIFF) && (cli.backend || npid_list || cli.table))
		die("-b, -p and -t shape a scan; a capture was shaped when it was taken");
	if (on_log) {
		if (wopts.max || o.pids)
			die("%s: not with a watch log's %s", wopts.max ? "--max" : "--pids",
			    o.view == V_TREND ? "trend" : "page");
		if (cli.out)
			outfile_open(cli.out);
		view_trend(cli.load, &o, cli.rpids, cli.warmup, budgets, nbudget, cli.cap_mem);
		return done();
	}
	for (i = 0; i < (int)npid_list; i++)	/* a pid that exits later: vanished */
		if (kill(pid_list[i], 0) < 0 && errno == ESRCH)
			die("-p: no such process: pid %d", (int)pid_list[i]);
	if (o.view == V_MAPS && npid_list && !pid_in(o.view_pid, pid_list, npid_list))
		die("maps: pid %d is not among -p's: add it there", (int)o.view_pid);
	if (o.sysroot && !cli.load)
		die("-S: a sysroot is for a capture's files: give -l too");
	if (cli.load && (o.view == V_DUMP || o.view == V_DIFF || o.view == V_ELF))
		die("-l: not with the %s view", o.view == V_DUMP ? "dump" :
		    o.view == V_DIFF ? "diff" : "elf");
	if ((nrpid_list || o.rfile) && o.view == V_RAM)
		die("-P and -F: not with the ram view (it is all of RAM)");
	if ((nrpid_list || o.rfile) && (o.view == V_DUMP || o.view == V_DIFF || o.view == V_ELF))
		die("-P and -F choose what a report shows; not with the %s view",
		    o.view == V_DUMP ? "dump (a capture holds the whole scan)" :
		    o.view == V_DIFF ? "diff" : "elf");
	if ((o.view == V_FOLDED || o.view == V_HTML || o.html) && (o.csv || o.top || o.noheader))
		die("-%c: not with the %s view (%s)", o.csv ? 'c' : o.top ? 'n' : 'q',
		    o.view == V_FOLDED ? "folded" : "html", o.view == V_FOLDED ?
		    "its lines are for flame-graph tools" : "it is one page, all of it");
	if (nbudget && (o.view == V_DUMP || o.view == V_DIFF || o.view == V_ELF))
		die("--budget: checked on a scan or a capture, not with the %s view",
		    o.view == V_DUMP ? "dump" : o.view == V_DIFF ? "diff" : "elf");
	metrics = o.view == V_METRICS || wmetrics;
	if ((o.pids || metrics_labels()) && !metrics)
		die("--%s: for the metrics view only", o.pids ? "pids" : "label");
	if (metrics && (o.csv || o.kib || o.noheader || o.all || nrpid_list || o.rfile || nbudget))
		die("metrics: in Prometheus's format, of the whole scan: no -c, -k, -q, -a, -P, -F "
		    "or --budget");
	if (wopts.max && (!cli.out || o.view != V_WATCH || metrics))
		die("--max: the size at which -o's file is renamed: %s", !cli.out ? "give -o too" :
		    "for watch's log alone");
	if (o.view == V_WATCH) {
		if (cli.load || o.sysroot || nrpid_list || o.rfile || nbudget || o.csv || o.kib ||
		    o.noheader || o.all || cli.sort_name || (!metrics && o.top))
			die("watch: %s: of the options only -b, -p, -m, -t, -o and %s", metrics ?
			    "rewrites -o's file each sample" : "writes a log of whole samples",
			    metrics ? "-n, --pids" : "--max");
		if (metrics && !cli.out)
			die("watch ... metrics: give -o FILE, rewritten each sample");
		again_o = o;
		if (metrics)
			wopts.sample = metrics_sample;
		else
			wopts.out = cli.out;
		watch(&scan, &again_o, &wopts, rescan);
		return exit_status;
	}
	if (cli.out && o.view == V_BROWSE)
		die("-o: not with the browse view (it draws on a terminal)");
	if (cli.out)
		outfile_open(cli.out);
	if (o.view == V_CAPTURES) {
		if (!cli.load || nrpid_list || o.rfile || nbudget || o.sysroot || o.kib || o.all)
			die("captures: lists the captures of a log: give -l LOG, and of the "
			    "options only -c, -q or -n");
		view_captures(cli.load, &o);
		return done();
	}

#ifndef EXMAP_NO_LOAD
	if (o.view == V_ELF) {
		view_elf(o.view_file, &o);
		return done();
	}
#endif
#ifndef EXMAP_NO_PICTURES
	if (o.view == V_HTML || o.html)	/* what loading or scanning says goes in the page too */
		page_notes_start();
#endif
#ifndef EXMAP_NO_LOAD
	if (o.view == V_DIFF) {
		size = capture_open(argv[1], &capf[0]);
		size += capture_open(argv[2], &capf[1]);
		arena_or_die(&arena, size, 0, cli.cap_mem);
		diff_captures(&arena, &capf[0], &capf[1], &o);
		return done();
	}
	if (cli.load) {
		size = capture_open(cli.load, &capf[0]);
		if (reads_elf(o.view))
			size += ARENA_ELF;
		arena_or_die(&arena, size, 0, cli.cap_mem);
		load_capture(&scan, &arena, &capf[0]);
		find_file_as_named();
	} else
#endif
	if (o.view == V_RAM && !cli.backend && access("/proc/self/pagemap", F_OK) != 0 &&
	    access("/proc/exmap-mini", F_OK) != 0) {
		/* all of RAM still, from the kernel's counters: no process is scanned */
		scan.page_size = (uint64_t)getpagesize();
		scan.source = "none";
		view_ram(&scan, &o, "auto");
		if (o.csv || o.noheader)
			warnx("no page source (no pagemap, no module): no process was scanned");
		else
			outs("note: no page source (no pagemap, no module): no process was scanned\n");
		out_flush();
		exit_at_least(EX_PARTIAL);
		return done();
	} else {
		t0 = clock_ns(CLOCK_MONOTONIC);
		scan_live(&scan, &arena, &o, cli.backend ? cli.backend : "auto", cli.table, cli.cap_mem,
			  pid_list, npid_list);
	}
	account(&scan, &t);
	if (o.view == V_METRICS) {
		view_metrics(&scan, &o, t0 ? clock_ns(CLOCK_MONOTONIC) - t0 : 0);
		return done();
	}
	if (o.view != V_DUMP) {
		uint32_t nf;
		struct file *files = files_build(&scan, &nf);

		o.rpids = rpid_list;
		o.nrpid = nrpid_list;
		o.rfile_index = o.rfile ? find_file(files, nf, o.rfile) : UINT32_MAX;
		report_filter(&scan, rpid_list, nrpid_list, o.rfile_index, &t.shown, &t.nshown);
	}
	if (o.view == V_BROWSE) {
		again_o = o;
		browse(&scan, &o, cli.load ? NULL : rescan);
		return done();
	}
	if (o.view == V_RAM) {
		view_ram(&scan, &o, cli.backend ? cli.backend : "auto");
		out_flush();
		if (nbudget)
			check_budgets(&scan, budgets, nbudget, &o);
		return done();
	}
	if (o.view == V_DUMP) {
		dump_capture(&scan);
		if (scan.unreadable)
			warnx("%u process%s could not be read: the capture leaves %s out",
			      scan.unreadable, scan.unreadable == 1 ? "" : "es",
			      scan.unreadable == 1 ? "it" : "them");
		return done();
	}
#ifndef EXMAP_NO_PICTURES
	if (o.view == V_FOLDED || o.view == V_HTML) {
		if (o.view == V_FOLDED)
			view_folded(&scan, &o);
		else
			view_html(&scan, &t, &o, cli.backend ? cli.backend : "auto");
		out_flush();
		if (nbudget)
			check_budgets(&scan, budgets, nbudget, &o);
		return done();
	}
#endif
	switch (o.view) {
	case V_PROCS: view_procs(&scan, &t, &o); break;
	case V_FILES: view_files(&scan, &o); break;
	case V_MAPS: view_maps(&scan, &o); break;
#ifndef EXMAP_NO_DMABUF
	case V_DMABUF: view_dmabuf(&scan, &o); break;
#endif
	case V_CGROUPS: view_cgroups(&scan, &o); break;
	default: view_elf_items(&scan, &o); break;	/* sections, symbols */
	}
	report_notes(&scan, &t, &o);
	out_flush();
	if (nbudget)
		check_budgets(&scan, budgets, nbudget, &o);
	return done();
}
