/* The views: a row each (its words, options, builds, -s fields, help) and how each runs. */
#include <time.h>
#include <unistd.h>

#include "capture.h"
#include "cgroup.h"
#include "cli.h"
#include "dmabuf.h"
#include "ram.h"
#ifndef EXMAP_NO_PICTURES
#include "page.h"
#endif

static struct arena arena;
static struct scan scan;
static struct totals tot;
#ifndef EXMAP_NO_LOAD
static struct capfile capf[2];	/* -l's, or diff's two */
#endif
static struct cmdline *C;	/* for rescan and metrics_sample, which take a scan */

static const char *backend(const struct cmdline *c)
{
	return c->backend ? c->backend : "auto";
}

/* The run's status, once -o's file is in place. */
static int done(const struct cmdline *c)
{
	out_flush();
	if (c->out)
		outfile_commit();
	return exit_status;
}

/* A report's end: the budgets, then the status. */
static int report_end(const struct cmdline *c)
{
	out_flush();
	if (c->nbudget)
		check_budgets(&scan, c->budgets, c->nbudget, &c->o);
	return done(c);
}

/* browse's r, watch's samples: the arena given back, the machine scanned again. */
static int rescan(struct scan *s)
{
	arena_release(&arena);
	scan_live(s, &arena, &C->o, backend(C), C->table, C->cap_mem, C->pids, C->npid);
	account(s, &tot);
	return 0;
}

/* The scan a view shows: -l's capture loaded, or this machine scanned (how
 * long the scan and its accounting took: ns), accounted; with filter, what
 * -P and -F show chosen. */
static void get_scan(struct cmdline *c, int filter, uint64_t *ns)
{
	uint64_t t0 = 0;

	C = c;
	if (c->out)
		outfile_open(c->out);
#ifndef EXMAP_NO_PICTURES
	if (c->o.view == V_HTML)	/* what loading or scanning says goes in the page too */
		page_notes_start();
#endif
#ifndef EXMAP_NO_LOAD
	if (c->load) {
		arena_or_die(&arena, capture_open(c->load, &capf[0]) +
			     (reads_elf(c->o.view) ? ARENA_ELF : 0), 0, c->cap_mem);
		load_capture(&scan, &arena, &capf[0]);
		find_file_as_named();
	} else
#endif
	{
		t0 = clock_ns(CLOCK_MONOTONIC);
		scan_live(&scan, &arena, &c->o, backend(c), c->table, c->cap_mem, c->pids, c->npid);
	}
	account(&scan, &tot);
	if (ns && t0)
		*ns = clock_ns(CLOCK_MONOTONIC) - t0;
	if (filter) {
		uint32_t nf;
		struct file *files = files_build(&scan, &nf);

		c->o.rfile_index = c->o.rfile ? find_file(files, nf, c->o.rfile) : UINT32_MAX;
		report_filter(&scan, c->o.rpids, c->o.nrpid, c->o.rfile_index, &tot.shown, &tot.nshown);
	}
}

/* procs, files, maps, sections, symbols, dmabuf, cgroups: a report, its
 * notes, the budgets */
static int run_report(struct cmdline *c)
{
	get_scan(c, 1, NULL);
	switch (c->o.view) {
	case V_PROCS: view_procs(&scan, &tot, &c->o); break;
	case V_FILES: view_files(&scan, &c->o); break;
	case V_MAPS: view_maps(&scan, &c->o); break;
#ifndef EXMAP_NO_DMABUF
	case V_DMABUF: view_dmabuf(&scan, &c->o); break;
#endif
#ifndef EXMAP_NO_CGROUPS
	case V_CGROUPS: view_cgroups(&scan, &c->o); break;
#endif
	default: view_elf_items(&scan, &c->o); break;	/* sections, symbols */
	}
	report_notes(&scan, &tot, &c->o);
	return report_end(c);
}

static int run_dump(struct cmdline *c)
{
	get_scan(c, 0, NULL);
	dump_capture(&scan);
	if (scan.unreadable)
		warnx("%u process%s could not be read: the capture leaves %s out", scan.unreadable,
		      scan.unreadable == 1 ? "" : "es", scan.unreadable == 1 ? "it" : "them");
	return done(c);
}

static int run_ram(struct cmdline *c)
{
	if (!c->load && !c->backend && access("/proc/self/pagemap", F_OK) != 0 &&
	    access("/proc/exmap-mini", F_OK) != 0) {
		/* all of RAM still, from the kernel's counters: no process is scanned */
		if (c->out)
			outfile_open(c->out);
		scan.page_size = (uint64_t)getpagesize();
		scan.source = "none";
		view_ram(&scan, &c->o, "auto");
		if (c->o.csv || c->o.noheader)
			warnx("no page source (no pagemap, no module): no process was scanned");
		else
			outs("note: no page source (no pagemap, no module): no process was scanned\n");
		out_flush();
		exit_at_least(EX_PARTIAL);
		return done(c);
	}
	get_scan(c, 1, NULL);
	view_ram(&scan, &c->o, backend(c));
	return report_end(c);
}

static int run_metrics(struct cmdline *c)
{
	uint64_t ns = 0;

	get_scan(c, 0, &ns);
	view_metrics(&scan, &c->o, ns);
	return done(c);
}

/* watch ... metrics: each sample, -o's file rewritten whole. */
static void metrics_sample(struct scan *s, uint64_t scan_ns)
{
	outfile_open(C->out);
	view_metrics(s, &C->o, scan_ns);
	outfile_commit();
}

static int run_watch(struct cmdline *c)
{
	C = c;
	if (c->v->as == AS_WORD)
		c->w.sample = metrics_sample;
	else
		c->w.out = c->out;
	watch(&scan, &c->o, &c->w, rescan);
	return exit_status;
}

#ifndef EXMAP_NO_BROWSE
static int run_browse(struct cmdline *c)
{
	get_scan(c, 1, NULL);
	browse(&scan, &c->o, c->load ? NULL : rescan);
	return done(c);
}
#endif

#ifndef EXMAP_NO_PICTURES
static int run_folded(struct cmdline *c)
{
	get_scan(c, 1, NULL);
	view_folded(&scan, &c->o);
	return report_end(c);
}

static int run_html(struct cmdline *c)
{
	get_scan(c, 1, NULL);
	view_html(&scan, &tot, &c->o, backend(c));
	return report_end(c);
}
#endif

#ifndef EXMAP_NO_LOAD
static int run_elf(struct cmdline *c)
{
	if (c->out)
		outfile_open(c->out);
	view_elf(c->o.view_file, &c->o);
	return done(c);
}

static int run_diff(struct cmdline *c)
{
	uint64_t size;

	if (c->out)
		outfile_open(c->out);
#ifndef EXMAP_NO_PICTURES
	if (c->o.html)
		page_notes_start();
#endif
	size = capture_open(c->word[0], &capf[0]);
	size += capture_open(c->word[1], &capf[1]);
	arena_or_die(&arena, size, 0, c->cap_mem);
	diff_captures(&arena, &capf[0], &capf[1], &c->o);
	return done(c);
}

static int run_captures(struct cmdline *c)
{
	if (c->out)
		outfile_open(c->out);
	view_captures(c->load, &c->o);
	return done(c);
}

/* trend, and html on a watch log: its samples, not its last capture */
static int run_trend(struct cmdline *c)
{
	if (c->out)
		outfile_open(c->out);
#ifndef EXMAP_NO_PICTURES
	if (c->o.view == V_HTML)	/* what reading the log says goes in the page too */
		page_notes_start();
#endif
	view_trend(c->load, &c->o, c->rpids, c->warmup, c->budgets, c->nbudget, c->cap_mem);
	return done(c);
}
#endif

/* What a scan takes, what a capture takes instead, what a report takes. */
#define SCAN	(OPT(b) | OPT(p) | OPT(t) | OPT(m))
#define CAPTURE	(OPT(l) | OPT(S))
#define REPORT	(SCAN | CAPTURE | OPT(c) | OPT(k) | OPT(q) | OPT(P) | OPT(F) | OPT(s) | OPT(n) | \
		 OPT(o) | OPT(BUDGET))
#define TEXT	(OPT(c) | OPT(k) | OPT(q))
#define FIGS	SORT_FIGS
#define PAGE	"it is one page, all of it"
/* A view the build leaves out: its name and words, to be refused by them. */
#define LEFT_OUT(name, args)	VIEW_TEXT(name, args, "", "", "")

/*
 * Every view, in -h's order, a variant after its row: VIEW_TEXT(name, its
 * words, what to give when the option it needs is missing, why it refuses
 * an option, its help); its function; the options it takes; -s's fields;
 * the option it needs; its view, its words (least, most), the variant it
 * is, the builds that have it, the synopsis's forms it is in.
 */
const struct viewdef views[] = {
	{ VIEW_TEXT("procs", "", "", "", "one row per process, with totals (the default)"),
	  run_report, REPORT, FIGS | SORT(F_PID) | SORT(F_NAME), -1,
	  V_PROCS, 0, 0, AS_NAME, 0, FORM_SCAN | FORM_CAPTURE },
	{ VIEW_TEXT("files", "", "", "", "one row per mapped file, summed over processes"),
	  run_report, REPORT, FIGS | SORT(F_PATH) | SORT(F_NPROC), -1,
	  V_FILES, 0, 0, AS_NAME, 0, FORM_SCAN | FORM_CAPTURE },
	{ VIEW_TEXT("maps", "pid", "", "", "one row per mapping of process pid"),
	  run_report, REPORT, FIGS | SORT(F_ADDRESS) | SORT(F_PATH), -1,
	  V_MAPS, 1, 1, AS_NAME, 0, FORM_SCAN | FORM_CAPTURE },
	{ VIEW_TEXT("sections", "file", "", "", "one row per allocated section of a mapped ELF file"),
	  run_report, REPORT, FIGS | SORT(F_ADDRESS) | SORT(F_NAME), -1,
	  V_SECTIONS, 1, 1, AS_NAME, 0, FORM_SCAN | FORM_CAPTURE },
	{ VIEW_TEXT("symbols", "file [section]", "", "", "one row per symbol of a mapped ELF file"),
	  run_report, REPORT | OPT(a), FIGS | SORT(F_ADDRESS) | SORT(F_NAME), -1,
	  V_SYMBOLS, 1, 2, AS_NAME, 0, FORM_SCAN | FORM_CAPTURE },
	{ IF_LOAD(VIEW_TEXT("elf", "file", "", "it reads the file alone, in its order: no scan",
			    "its sections, segments, symbols, build-id; no scan"),
		  LEFT_OUT("elf", "file")),
	  IF_LOAD(run_elf, NULL), OPT(c) | OPT(q) | OPT(o), 0, -1,
	  V_ELF, 1, 1, AS_NAME, HAS_LOAD, FORM_SCAN },
	{ VIEW_TEXT("dump", "", "", "it writes the whole scan as a capture",
		    "the scan as a capture, to load with -l or diff later"),
	  run_dump, SCAN | OPT(o), 0, -1,
	  V_DUMP, 0, 0, AS_NAME, 0, FORM_SCAN },
	{ IF_LOAD(VIEW_TEXT("diff", "capture capture", "", "it compares two captures, whole",
			    "how each figure changed from the first capture to the second, per "
			    "process (by name and command line) and per file"),
		  LEFT_OUT("diff", "capture capture")),
	  IF_LOAD(run_diff, NULL), TEXT | OPT(a) | OPT(s) | OPT(n) | OPT(m) | OPT(o),
	  FIGS | SORT(F_NAME), -1, V_DIFF, 2, 2, AS_NAME, HAS_LOAD, FORM_DIFF },
	{ IF_LOAD(IF_PICTURES(VIEW_TEXT("diff", "html", "", PAGE, "with html, a page"),
			      LEFT_OUT("diff", "html")), LEFT_OUT("diff", "html")),
	  IF_LOAD(IF_PICTURES(run_diff, NULL), NULL), OPT(a) | OPT(s) | OPT(m) | OPT(o),
	  FIGS | SORT(F_NAME), -1, V_DIFF, 3, 3, AS_WORD, HAS_LOAD | HAS_PICTURES, FORM_DIFF },
	{ IF_BROWSE(VIEW_TEXT("browse", "", "", "it draws on a terminal",
			      "the lists full screen on a terminal: processes, files, "
			      "sections, symbols"),
		    LEFT_OUT("browse", "")),
	  IF_BROWSE(run_browse, NULL), SCAN | CAPTURE | OPT(a) | OPT(k) | OPT(s) | OPT(P) | OPT(F),
	  FIGS | SORT(F_NAME), -1, V_BROWSE, 0, 0, AS_NAME, HAS_BROWSE, FORM_SCAN | FORM_CAPTURE },
	{ VIEW_TEXT("ram", "", "", "it is all of RAM, its lines in their order",
		    "all of RAM: reserved at boot, and MemTotal in parts (free, processes, caches, "
		    "kernel, unexplained)"
		    IF_KOWNVIEW("; the kernel's vmalloc and allocations by owner (module, caller)", "")),
	  run_ram, SCAN | CAPTURE | TEXT | OPT(a) | OPT(o) | OPT(BUDGET), 0, -1,
	  V_RAM, 0, 0, AS_NAME, 0, FORM_SCAN | FORM_CAPTURE },
	{ IF_PICTURES(VIEW_TEXT("folded", "", "", "its lines are for flame-graph tools",
				"process;file;section;symbol eff_resident, one line per leaf, for "
				"flame-graph tools"),
		      LEFT_OUT("folded", "")),
	  IF_PICTURES(run_folded, NULL), SCAN | CAPTURE | OPT(a) | OPT(P) | OPT(F) | OPT(o) |
	  OPT(BUDGET), 0, -1, V_FOLDED, 0, 0, AS_NAME, HAS_PICTURES, FORM_SCAN | FORM_CAPTURE },
	{ IF_PICTURES(VIEW_TEXT("html", "", "", PAGE, "one self-contained HTML page: a zoomable map, "
				"both perspectives, tables, the ram view"),
		      LEFT_OUT("html", "")),
	  IF_PICTURES(run_html, NULL), SCAN | CAPTURE | OPT(a) | OPT(s) | OPT(P) | OPT(F) | OPT(o) |
	  OPT(BUDGET), FIGS, -1, V_HTML, 0, 0, AS_NAME, HAS_PICTURES, FORM_SCAN | FORM_CAPTURE },
	{ IF_LOAD(IF_PICTURES(VIEW_TEXT("html", "", "", "it draws the log's growers",
					"with -l a watch log, its trend over time"),
			      LEFT_OUT("html", "")), LEFT_OUT("html", "")),
	  IF_LOAD(IF_PICTURES(run_trend, NULL), NULL), OPT(l) | OPT(PICK) | OPT(m) | OPT(w) | OPT(o) |
	  OPT(BUDGET) | OPT(SLOPE), 0, -1, V_HTML, 0, 0, AS_LOG, HAS_LOAD | HAS_PICTURES, FORM_LOG },
	{ IF_LOAD(VIEW_TEXT("captures", "", "give -l LOG, the log whose captures it lists",
			    "it lists a log's captures, in its order",
			    "with -l: the captures a console log holds, one row each (its place N, "
			    "for log@N), and a watch's last sample when its closing capture never "
			    "came"),
		  LEFT_OUT("captures", "")),
	  IF_LOAD(run_captures, NULL), OPT(l) | OPT(c) | OPT(q) | OPT(n) | OPT(o), 0, O_l,
	  V_CAPTURES, 0, 0, AS_NAME, HAS_LOAD, FORM_LIST },
	{ IF_LOAD(VIEW_TEXT("trend", "", "give the watch log with -l LOG",
			    "its rows are every one, by slope",
			    "with -l: a watch log's processes (by name and command line), files"
			    IF_CGROUPS(", cgroups", "") " and kernel owners, how fast each one's floor rose (bytes an "
			    "hour, largest first), those seen too briefly for a slope apart; with -P, "
			    "its parts"),
		  LEFT_OUT("trend", "")),
	  IF_LOAD(run_trend, NULL), OPT(l) | TEXT | OPT(PICK) | OPT(n) | OPT(m) | OPT(w) | OPT(o) |
	  OPT(BUDGET) | OPT(SLOPE), 0, O_l, V_TREND, 0, 0, AS_NAME, HAS_LOAD, FORM_LOG },
	{ VIEW_TEXT("metrics", "", "", "it is the whole scan in Prometheus's format, in a fixed order",
		    "Prometheus's text format: processes by name, the -n (20) largest files"
		    IF_CGROUPS(" and cgroups", "") ", the ram view's parts"
		    IF_KOWNERS(", the kernel's largest modules", "")),
	  run_metrics, SCAN | CAPTURE | OPT(n) | OPT(o) | OPT(PIDS) | OPT(LABEL), 0, -1,
	  V_METRICS, 0, 0, AS_NAME, 0, FORM_SCAN | FORM_CAPTURE },
	{ VIEW_TEXT("watch", "interval [count]", "", "it writes a log of whole samples",
		    "a sample every interval seconds (count of them, else until a signal): "
		    "what changed, logged between two captures"),
	  run_watch, SCAN | OPT(o) | OPT(MAX), 0, -1,
	  V_WATCH, 1, 2, AS_NAME, 0, FORM_WATCH },
	{ VIEW_TEXT("watch", "metrics", "give -o FILE, rewritten each sample",
		    "it rewrites -o's file each sample", "with metrics, -o's file rewritten each sample"),
	  run_watch, SCAN | OPT(o) | OPT(n) | OPT(PIDS) | OPT(LABEL), 0, O_o,
	  V_WATCH, 2, 3, AS_WORD, 0, FORM_WATCH },
	{ IF_DMABUF(VIEW_TEXT("dmabuf", "", "", "its rows are dma-bufs, the largest first",
			      "one row per dma-buf: inode, exporter, name, size, the processes "
			      "holding it; what none holds; DRM clients"),
		    LEFT_OUT("dmabuf", "")),
	  IF_DMABUF(run_report, NULL), SCAN | CAPTURE | TEXT | OPT(P) | OPT(n) | OPT(o) | OPT(BUDGET),
	  0, -1, V_DMABUF, 0, 0, AS_NAME, HAS_DMABUF, FORM_SCAN | FORM_CAPTURE },
	{ IF_CGROUPS(VIEW_TEXT("cgroups", "", "", "",
			       "one row per cgroup: its unit or container, its processes' "
			       "eff_resident, sole and swap, beside the kernel's charge (memory.current "
			       "or usage_in_bytes; memory.stat's anon, file, shmem)"),
		     LEFT_OUT("cgroups", "")),
	  IF_CGROUPS(run_report, NULL), REPORT, SORT(F_EFF_RESIDENT) | SORT(F_SOLE) | SORT(F_SWAP) |
	  SORT(F_CGROUP) | SORT(F_PROCESSES) | SORT(F_CHARGED) | SORT(F_CHARGED_ANON) |
	  SORT(F_CHARGED_FILE) | SORT(F_CHARGED_SHMEM), -1,
	  V_CGROUPS, 0, 0, AS_NAME, HAS_CGROUPS, FORM_SCAN | FORM_CAPTURE },
};
const size_t nviews = sizeof(views) / sizeof(views[0]);
