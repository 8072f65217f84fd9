/* The browse view: exmap's drill-down, full screen, on any terminal (a serial console first). */
/*
 * Two tabs of four lists, as gexmap had them. Processes: every process, the
 * files of one (its part of each), the sections of one file in it, the
 * symbols of one section. Files: every file, the processes that map one
 * (what each pays for it), then sections and symbols as before. Each list
 * holds the figures the report views give with -P and -F (report_filter):
 * the shares are always those of everything scanned.
 */
#include <string.h>
#include <unistd.h>

#include "capture.h"
#include "elfitems.h"

enum { L_PROCS, L_FILES, L_SECTIONS, L_SYMBOLS };
#define DEPTH	4
#define COLW	7	/* a figure column: a space and six characters */

/* A list, and what it is a list of: the choices made above it. */
struct level {
	int kind;
	pid_t pid;			/* of this process, or 0 */
	char path[PATH_BUF];		/* of this file, or "" */
	uint64_t inode;
	uint32_t dev;
	char section[ELF_NAME_MAX];	/* symbols: of this section */
	char label[48];			/* its part of the breadcrumb */
	size_t cur, top;		/* the cursor's row, the first row shown */
	char cur_name[PATH_BUF];	/* the cursor's item, to find it again */
	pid_t cur_pid;
};

struct row {
	const char *name;
	const struct fig *fig;
	pid_t pid;		/* a process's */
	uint32_t file;		/* a file's index */
	int deep;		/* there is a list below it */
};

/* The figure columns, most wanted first: as many as the width takes. */
static const int col_figs[NFIGS] = {
	F_EFF_RESIDENT, F_RESIDENT, F_SOLE, F_WRITABLE, F_SWAP, F_EFF_MAPPED, F_MAPPED, F_VM,
};

static struct scan *S;
static struct opts O;
static int (*rescan_fn)(struct scan *s);
static struct level lv[2][DEPTH];
static int depth[2], tab, nrows, ncols, sort_field = F_EFF_RESIDENT, sort_up;
static struct row *rowv;
static size_t nrow, mark;
static struct fig total;
static struct target tgt = { .fd = -1 };
static char note[200];
static const char *const tab_name[2] = { "Processes", "Files" };

static void take_note(const char *msg)
{
	size_t n = strlen(msg);

	if (n >= sizeof(note))
		n = sizeof(note) - 1;
	memcpy(note, msg, n);
	note[n] = '\0';
}

static void copy(char *to, size_t room, const char *from)
{
	size_t n = strlen(from);

	if (n >= room)
		n = room - 1;
	memcpy(to, from, n);
	to[n] = '\0';
}

static struct level *here(void)
{
	return &lv[tab][depth[tab]];
}

/* The file a level is of, as an index in the file table; UINT32_MAX if gone. */
static uint32_t level_file(const struct level *l)
{
	uint32_t nf, i;
	struct file *f = files_build(S, &nf);

	for (i = 0; i < nf; i++)
		if (f[i].inode == l->inode && f[i].dev == l->dev && strcmp(f[i].path, l->path) == 0)
			return i;
	return UINT32_MAX;
}

static int cmp_rows(const void *pa, const void *pb)
{
	const struct row *a = pa, *b = pb;
	int c = 0;

	if (sort_field < NFIGS) {
		uint64_t x = fig_get(a->fig, sort_field), y = fig_get(b->fig, sort_field);

		c = (x < y) - (x > y);	/* largest first */
	}
	if (!c)
		c = strcmp(a->name, b->name);
	if (!c)
		c = (a->pid > b->pid) - (a->pid < b->pid);
	return sort_up ? -c : c;
}

static void add_row(const char *name, const struct fig *f, pid_t pid, uint32_t file, int deep)
{
	rowv[nrow++] = (struct row){ name, f, pid, file, deep };
	fig_add(&total, f);
}

/* The rows of list l: 0, or -1 and a note when there is nothing to show. */
static int build(struct level *l)
{
	uint32_t nf, i, file = UINT32_MAX, shown;
	struct file *files = files_build(S, &nf);
	struct opts o = O;
	struct fig unused;

	S->arena->lo = mark;	/* the last list's memory, given back */
	if (tgt.fd >= 0)
		close(tgt.fd);
	tgt.fd = -1;
	nrow = 0;
	memset(&total, 0, sizeof(total));
	if (l->path[0] && (file = level_file(l)) == UINT32_MAX) {
		take_note("that file is not mapped any more");
		return -1;
	}
	/* the list's choices, within the filters it was started with (-P, -F) */
	report_filter(S, l->pid ? &l->pid : O.rpids, l->pid ? 1 : O.nrpid,
		      l->kind == L_PROCS && file != UINT32_MAX ? file : O.rfile_index,
		      &unused, &shown);
	if (l->kind == L_PROCS) {
		rowv = arena_alloc(S->arena, (S->nproc + 1) * sizeof(*rowv), 8);
		for (i = 0; i < S->nproc; i++)
			if (S->procs[i]->shown)
				add_row(S->procs[i]->name, &S->procs[i]->rfig, S->procs[i]->pid,
					file, 1);
	} else if (l->kind == L_FILES) {
		rowv = arena_alloc(S->arena, (nf + 1) * sizeof(*rowv), 8);
		for (i = 0; i < nf; i++)
			if (files[i].rnproc)
				add_row(files[i].path, &files[i].rfig, l->pid, i,
					files[i].path[0] == '/');
	} else {
		int sections = l->kind == L_SECTIONS;

		o.view = sections ? V_SECTIONS : V_SYMBOLS;
		o.view_section = sections ? NULL : l->section;
		note[0] = '\0';
		if (elf_items(S, &o, file, sections, &tgt) < 0) {
			take_note(tgt.elf.err);
			return -1;
		}
		if (tgt.fd < 0) {
			take_note("the file could not be read");
			return -1;
		}
		rowv = arena_alloc(S->arena, (tgt.nitem + 2) * sizeof(*rowv), 8);
		for (i = 0; i < tgt.nitem; i++)	/* as the text view: resident symbols, or -a */
			if (sections || O.all || tgt.items[i].fig.resident)
				add_row(tgt.items[i].name, &tgt.items[i].fig, l->pid, file, sections);
		add_row(tgt.holes.name, &tgt.holes.fig, l->pid, file, 0);	/* holes, no symbol */
		if (nrow == 0) {
			if (!note[0])
				take_note("no symbols with bytes in that section");
			return -1;
		}
	}
	sort(rowv, nrow, sizeof(*rowv), cmp_rows);
	return 0;
}

/* The cursor back on the item it was on (by name and pid), else where it was. */
static void find_cursor(struct level *l)
{
	size_t i;

	for (i = 0; i < nrow; i++)
		if (strcmp(rowv[i].name, l->cur_name) == 0 && rowv[i].pid == l->cur_pid) {
			l->cur = i;
			return;
		}
	if (l->cur >= nrow)
		l->cur = nrow ? nrow - 1 : 0;
}

static void remember_cursor(struct level *l)
{
	if (l->cur >= nrow)
		return;
	copy(l->cur_name, sizeof(l->cur_name), rowv[l->cur].name);
	l->cur_pid = rowv[l->cur].pid;
}

/* A size in six characters at most, as the text views show it. */
static void fig_text(char *buf, size_t len, uint64_t bytes)
{
	if (O.kib)
		fmt_snprintf(buf, len, "%llu", (unsigned long long)((bytes + 512) / 1024));
	else
		fmt_human(buf, len, bytes);
}

/* The percentage of a in b, to a tenth, as "12.3%". */
static void percent(char *buf, size_t len, uint64_t a, uint64_t b)
{
	uint64_t t = b ? (a * 1000 + b / 2) / b : 0;

	if (b && a > UINT64_MAX / 1000)
		t = a / (b / 1000 + 1);
	fmt_snprintf(buf, len, "%llu.%llu%%", (unsigned long long)(t / 10),
		     (unsigned long long)(t % 10));
}

/* Columns: as many figures as leave the name a quarter of the width (16 at least). */
static int layout(int *namew, int *barw, int pidw)
{
	int nfig, least = ncols / 4 > 16 ? ncols / 4 : 16;

	*barw = ncols >= 100 ? 12 : 0;
	for (nfig = NFIGS; nfig > 1; nfig--)
		if (ncols - (pidw + nfig * COLW + 7 + *barw) >= least)
			break;
	*namew = ncols - (pidw + nfig * COLW + 7 + *barw);
	if (*namew < 4)
		*namew = 4;
	return nfig;
}

/* The name, cut from the left (paths) or the right, padded to w. */
static size_t put_name(char *line, size_t at, const char *name, int w, int from_left)
{
	size_t n = strlen(name), i;

	if ((int)n > w) {
		if (from_left) {
			memcpy(line + at, "...", 3);
			memcpy(line + at + 3, name + n - (w - 3), w - 3);
		} else {
			memcpy(line + at, name, w - 3);
			memcpy(line + at + w - 3, "...", 3);
		}
	} else {
		memcpy(line + at, name, n);
		memset(line + at + n, ' ', w - n);
	}
	for (i = at; i < at + (size_t)w; i++)
		if ((unsigned char)line[i] < 0x20 || line[i] == 0x7f)
			line[i] = '?';
	return at + w;
}

static void draw(void)
{
	struct level *l = here();
	static char line[TERM_COLS_MAX + 64];
	int namew, barw, pidw = l->kind == L_PROCS ? 8 : 0, nfig, f, r, body = nrows - 3;
	int key = sort_field < NFIGS ? sort_field : F_EFF_RESIDENT;
	uint64_t whole = fig_get(&total, key);
	size_t at, i, k;
	char v[32];

	nfig = layout(&namew, &barw, pidw);
	/* the breadcrumb, and the list's total of the sort figure */
	at = fmt_snprintf(line, sizeof(line), " %s", tab_name[tab]);
	for (k = 1; k <= (size_t)depth[tab] && at < sizeof(line) - 60; k++)
		at += fmt_snprintf(line + at, sizeof(line) - at, " > %s", lv[tab][k].label);
	fig_text(v, sizeof(v), whole);
	fmt_snprintf(line + at, sizeof(line) - at, "   %s %s in %zu", text_head[key], v, nrow);
	term_line(0, line, 1);
	at = 0;
	if (pidw)
		at += fmt_snprintf(line, sizeof(line), "%*s ", pidw - 1, "PID");
	at = put_name(line, at, l->kind == L_FILES ? "FILE" : l->kind == L_SECTIONS ? "SECTION" :
		      l->kind == L_SYMBOLS ? "SYMBOL" : "NAME", namew, 0);
	for (f = 0; f < nfig; f++)
		at += fmt_snprintf(line + at, sizeof(line) - at, "%*s%s", COLW - 1,
				   text_head[col_figs[f]], col_figs[f] == sort_field ?
				   (sort_up ? "^" : "v") : " ");
	fmt_snprintf(line + at, sizeof(line) - at, "%*s", 7, "SHARE");
	term_line(1, line, 0);
	/* the rows: the cursor's always in view */
	if (l->cur < l->top)
		l->top = l->cur;
	if (body > 0 && l->cur >= l->top + (size_t)body)
		l->top = l->cur - body + 1;
	for (r = 0; r < body; r++) {
		const struct row *w;

		i = l->top + r;
		if (i >= nrow) {
			term_line(2 + r, "", 0);
			continue;
		}
		w = &rowv[i];
		at = 0;
		if (pidw)
			at += fmt_snprintf(line, sizeof(line), "%*d ", pidw - 1, (int)w->pid);
		at = put_name(line, at, w->name, namew, l->kind == L_FILES);
		for (f = 0; f < nfig; f++) {
			fig_text(v, sizeof(v), fig_get(w->fig, col_figs[f]));
			at += fmt_snprintf(line + at, sizeof(line) - at, "%*s ", COLW - 1, v);
		}
		percent(v, sizeof(v), fig_get(w->fig, key), whole);
		at += fmt_snprintf(line + at, sizeof(line) - at, "%7s", v);
		if (barw) {
			uint64_t filled = whole ? fig_get(w->fig, key) * (barw - 3) / whole : 0;

			line[at++] = ' ';
			line[at++] = '[';
			for (k = 0; k < (size_t)barw - 3; k++)
				line[at++] = k < filled ? '#' : ' ';
			line[at++] = ']';
			line[at] = '\0';
		}
		term_line(2 + r, line, i == l->cur);
	}
	if (note[0])
		fmt_snprintf(line, sizeof(line), " %s", note);
	else
		fmt_snprintf(line, sizeof(line), " q quit  ? help  Enter/Left in/out  Tab  s sort"
			     "  / find%s  | %s%s%s%s%s%s", S->cap ? "" : "  r rescan", S->source,
			     S->vanished ? ", some vanished" : "",
			     S->unreadable ? ", partial" : "", O.nrpid ? ", -P" : "",
			     O.rfile ? ", -F " : "", O.rfile ? O.rfile : "");
	term_line(nrows - 1, line, 1);
	term_flush();
}

static void help(void)
{
	static const char *const text[] = {
		" exmap-mini browse: where memory goes, process by process, file by file",
		"",
		"   Up Down  k j      move          PgUp PgDn Home End    a page, the ends",
		"   Enter Right  l    go in         Left Backspace  h     go out",
		"   Tab               processes or files, the other tab",
		"   s  S              sort by the next figure (S: the other way)",
		"   /                 find a name (from the cursor on)",
		"   r                 scan again (live), keeping the place",
		"   q                 quit",
		"",
		" Processes: all processes > a process's files > a file's sections in it",
		" > a section's symbols. Files: all files > the processes mapping one > ...",
		" Figures: each page's cost is shared among all the processes that map it.",
		"",
		" Any key goes back.",
	};
	int r;

	for (r = 0; r < nrows; r++)
		term_line(r, r < (int)(sizeof(text) / sizeof(text[0])) ? text[r] : "", 0);
	term_flush();
	while (term_key(-1) == K_RESIZE)
		;
}

/* A name to find, typed on the status line: its length, or -1 when left. */
static int prompt(char *buf, size_t len)
{
	static char line[TERM_COLS_MAX + 8];
	size_t n = 0;
	int c;

	for (;;) {
		buf[n] = '\0';
		fmt_snprintf(line, sizeof(line), " find: %s", buf);
		term_line(nrows - 1, line, 1);
		term_flush();
		c = term_key(-1);
		if (c == '\r' || c == '\n')
			return (int)n;
		if (c == 0x1b || c == 3)
			return -1;
		if ((c == 0x7f || c == 8) && n > 0)
			n--;
		else if (c >= 0x20 && c < 0x7f && n + 1 < len)
			buf[n++] = (char)c;
	}
}

/* Into the row under the cursor: the list below it, if it has one. */
static void go_in(void)
{
	struct level *l = here(), *d;
	const struct row *w;
	struct file *files;
	uint32_t nf;

	if (l->cur >= nrow || depth[tab] == DEPTH - 1)
		return;
	w = &rowv[l->cur];
	if (!w->deep) {
		take_note(l->kind == L_SECTIONS ? "the holes have no symbols" :
			  "not a file of its own (anonymous memory, a pseudo-file): no sections");
		return;
	}
	remember_cursor(l);
	d = &lv[tab][depth[tab] + 1];
	*d = *l;
	d->cur = d->top = 0;
	d->cur_name[0] = '\0';
	files = files_build(S, &nf);
	if (l->kind == L_PROCS) {
		d->pid = w->pid;
		d->kind = tab == 0 ? L_FILES : L_SECTIONS;
		fmt_snprintf(d->label, sizeof(d->label), "%.20s %d", w->name, (int)w->pid);
	} else if (l->kind == L_FILES) {
		const char *base = strrchr(files[w->file].path, '/');

		copy(d->path, sizeof(d->path), files[w->file].path);
		d->inode = files[w->file].inode;
		d->dev = files[w->file].dev;
		d->kind = tab == 0 ? L_SECTIONS : L_PROCS;
		copy(d->label, sizeof(d->label), base ? base + 1 : files[w->file].path);
	} else {
		copy(d->section, sizeof(d->section), w->name);
		d->kind = L_SYMBOLS;
		copy(d->label, sizeof(d->label), w->name);
	}
	depth[tab]++;
	note[0] = '\0';
	if (build(d) < 0) {
		depth[tab]--;	/* nothing below: stay, with the note saying why */
		build(l);
		find_cursor(l);
	}
}

static void go_out(void)
{
	if (depth[tab] == 0)
		return;
	depth[tab]--;
	note[0] = '\0';
	build(here());
	find_cursor(here());
}

/* The list shown again (another tab, a new scan): the cursor where it was
 * left in it (remember_cursor was called while its rows were current). */
static void rebuild(void)
{
	struct level *l = here();

	while (build(l) < 0 && depth[tab] > 0)
		l = &lv[tab][--depth[tab]];
	find_cursor(l);
}

static void find(void)
{
	static char want[64];
	struct level *l = here();
	size_t i, k;

	if (prompt(want, sizeof(want)) <= 0)
		return;
	for (k = 1; k <= nrow; k++) {
		i = (l->cur + k) % nrow;
		if (find_str(rowv[i].name, want)) {
			l->cur = i;
			return;
		}
	}
	take_note("no such name in this list");
}

/* The browse view over scan s: until q. rescan scans again (NULL: a capture). */
void browse(struct scan *s, const struct opts *o, int (*rescan)(struct scan *s))
{
	int c, page;
	struct file *files;
	uint32_t nf;

	if (!is_terminal(0) || !is_terminal(1))
		die("browse: it needs a terminal on stdin and stdout (for a report, use the "
		    "other views)");
	S = s;
	O = *o;
	rescan_fn = rescan;
	files_build(S, &(uint32_t){ 0 });
	mark = S->arena->lo;
	if (O.sort >= 0)	/* -s: a figure, or the name (A to Z) */
		sort_field = O.sort < NFIGS ? O.sort : F_NAME;
	lv[0][0].kind = L_PROCS;
	lv[1][0].kind = L_FILES;
	if (term_open() < 0)
		die("browse: cannot put the terminal in raw mode");
	on_warning(take_note);
	term_size(&nrows, &ncols);
	term_clear();
	build(here());
	for (;;) {
		struct level *l = here();

		draw();
		page = nrows > 4 ? nrows - 4 : 1;
		c = term_key(-1);
		if (c != '/' && c != K_RESIZE)
			note[0] = '\0';
		switch (c) {
		case 'q': case 3:
			term_close();
			on_warning(NULL);
			return;
		case K_UP: case 'k':
			l->cur -= l->cur > 0;
			break;
		case K_DOWN: case 'j':
			l->cur += l->cur + 1 < nrow;
			break;
		case K_PGUP:
			l->cur = l->cur > (size_t)page ? l->cur - page : 0;
			break;
		case K_PGDN:
			l->cur = l->cur + page < nrow ? l->cur + page : nrow ? nrow - 1 : 0;
			break;
		case K_HOME:
			l->cur = 0;
			break;
		case K_END:
			l->cur = nrow ? nrow - 1 : 0;
			break;
		case '\r': case '\n': case K_RIGHT: case 'l':
			go_in();
			break;
		case K_LEFT: case 0x7f: case 8: case 'h':
			go_out();
			break;
		case '\t':
			remember_cursor(l);
			tab = !tab;
			rebuild();
			break;
		case 's': case 'S':
			remember_cursor(l);
			if (c == 's')	/* the figures in turn, then the name */
				sort_field = sort_field == F_NAME ? F_VM :
					     sort_field == NFIGS - 1 ? F_NAME : sort_field + 1;
			else
				sort_up = !sort_up;
			sort(rowv, nrow, sizeof(*rowv), cmp_rows);
			find_cursor(l);
			break;
		case '/':
			find();
			break;
		case 'r':
			if (!rescan_fn) {
				take_note("a capture cannot be scanned again");
				break;
			}
			remember_cursor(l);
			if (tgt.fd >= 0)
				close(tgt.fd);
			tgt.fd = -1;
			if (rescan_fn(S) < 0) {
				take_note("the scan again failed");
				break;
			}
			nrow = 0;	/* the rows were in the arena the scan gave back */
			files = files_build(S, &nf);
			if (O.rfile)	/* -F: the file again, in the new file table */
				O.rfile_index = find_file(files, nf, O.rfile);
			mark = S->arena->lo;
			rebuild();
			break;
		case '?':
			help();
			term_clear();
			break;
		case K_RESIZE:
			term_size(&nrows, &ncols);
			term_clear();
			break;
		}
	}
}
