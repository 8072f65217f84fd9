/* The metrics view: the scan in Prometheus's text exposition format. */
/*
 * As node_exporter's textfile collector reads it: HELP and TYPE for each
 * family, gauges in base units, no timestamps. The series stay few whatever
 * the machine runs: processes summed by name (--pids: one each), the
 * largest files (-n, 20) and the rest as path="other", the ram view's parts.
 * A label value is written with \, " and newline escaped, and every byte
 * that is not part of valid UTF-8 as the text \xNN (lowercase), so that
 * Prometheus takes it; names that come out the same are one series.
 * Every series made from a capture carries the board it came from: a host
 * label, the node name its uname recorded (--label host=NAME sets it), so
 * that boards' files and the host's own share one textfile directory.
 */
#include <string.h>
#include <time.h>

#include "capture.h"
#include "dmabuf.h"
#include "cgroup.h"
#include "ram.h"
#include "ramsrc.h"

#define FILES_TOP	20	/* files and cgroups named without -n */

/* One series' labels, as written between the braces, and its figures. */
struct series {
	const char *key;
	uint64_t v[6];		/* eff_resident, sole, resident, swap, dmabuf,
				   eff_dmabuf; a file's: v[0] */
	uint32_t n;		/* processes */
};

static const struct {
	const char *name, *help;
} proc_family[6] = {
	{ "exmap_process_eff_resident_bytes", "Proportional set size (PSS) by process name." },
	{ "exmap_process_sole_bytes", "Unique set size (USS) by process name." },
	{ "exmap_process_resident_bytes", "Resident set size (RSS) by process name." },
	{ "exmap_process_swap_bytes", "Swapped out memory by process name." },
#ifndef EXMAP_NO_DMABUF
	{ "exmap_process_dmabuf_bytes", "The dma-bufs held, whole, by process name." },
	{ "exmap_process_eff_dmabuf_bytes", "Each dma-buf held shared among its holders, "
	  "by process name." },
#endif
};

/* The length of the valid UTF-8 sequence at s (n bytes left); 0 if none starts there. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	unsigned c = s[0], k = c < 0x80 ? 1 : c < 0xc2 ? 0 : c < 0xe0 ? 2 : c < 0xf0 ? 3 : c < 0xf5 ? 4 : 0;
	/* the second byte's range: no overlong forms, surrogates, or past U+10FFFF */
	unsigned lo = c == 0xe0 ? 0xa0 : c == 0xf0 ? 0x90 : 0x80;
	unsigned hi = c == 0xed ? 0x9f : c == 0xf4 ? 0x8f : 0xbf;
	unsigned i;

	if (k < 2)
		return k;
	if (n < k || s[1] < lo || s[1] > hi)
		return 0;
	for (i = 2; i < k; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return k;
}

/* s as a label value between its quotes, into to (NULL: only counted): its length. */
static size_t label_value(char *to, const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i, o = 0, k, w;
	char esc[8];

	for (i = 0; i < n; i += k) {
		const char *from = esc;

		w = k = utf8_len(u + i, n - i);
		if (u[i] == '\\' || u[i] == '"' || u[i] == '\n')
			w = (size_t)fmt_snprintf(esc, sizeof(esc), "\\%c", u[i] == '\n' ? 'n' : u[i]);
		else if (!k)
			w = (size_t)fmt_snprintf(esc, sizeof(esc), "\\\\x%02x", u[i]), k = 1;
		else
			from = s + i;
		if (to)
			memcpy(to + o, from, w);
		o += w;
	}
	return o;
}

/* A series' labels in the arena: name="S" (S, then tail, inside the quotes), then
 * ,pid="PID" if pid. */
static const char *key_make(struct arena *a, const char *name, const char *s, const char *tail,
			    pid_t pid)
{
	size_t len = strlen(s), room = label_value(NULL, s, len) + 64;
	char *k = arena_alloc(a, room, 1), *p = k;

	p += fmt_snprintf(p, room, "%s=\"", name);
	p += label_value(p, s, len);
	fmt_snprintf(p, room - (size_t)(p - k), pid ? "%s\",pid=\"%d\"" : "%s\"", tail, (int)pid);
	return k;
}

static int by_key(const void *a, const void *b)
{
	return strcmp(((const struct series *)a)->key, ((const struct series *)b)->key);
}

/* Largest eff_resident first; ties by key, so that the order is the same each time. */
static int by_size(const void *a, const void *b)
{
	const struct series *x = a, *y = b;

	if (x->v[0] != y->v[0])
		return x->v[0] > y->v[0] ? -1 : 1;
	return strcmp(x->key, y->key);
}

/* Sorted by key, the series of one key made one: how many are left. */
static size_t merge(struct series *t, size_t n)
{
	size_t i, m = 0;

	sort(t, n, sizeof(*t), by_key);
	for (i = 0; i < n; i++) {
		if (m && strcmp(t[m - 1].key, t[i].key) == 0) {
			for (int k = 0; k < 6; k++)
				t[m - 1].v[k] += t[i].v[k];
			t[m - 1].n += t[i].n;
		} else {
			t[m++] = t[i];
		}
	}
	return m;
}

static const char *fam;	/* the family being written */

static void family(const char *name, const char *help)
{
	outf("# HELP %s %s\n# TYPE %s gauge\n", name, help, name);
	fam = name;
}

#ifdef EXMAP_NO_LOAD
/* A board's own series: its exporter's instance says which board. */
#define common	""
#define common_labels(a, host, file)	((void)0)
#else
#define LABELS_MAX	8	/* --label options */

/* --label NAME=VALUE, as given; and every series' labels, written once */
static const char *label_arg[LABELS_MAX];
static size_t nlabel;
static const char *common;	/* NAME="VALUE",... or "" */

/* --label NAME=VALUE: checked as Prometheus takes a label name, and kept. */
void metrics_label(const char *arg)
{
	static const char *const ours[] = { "name", "path", "part", "pid", "source", "from",
					    "version" };
	size_t n = strcspn(arg, "="), i;

	if (!arg[n] || !n)
		die("--label %s: give NAME=VALUE", arg);
	for (i = 0; i < n; i++)
		if (!(arg[i] == '_' || ((arg[i] | 0x20) >= 'a' && (arg[i] | 0x20) <= 'z') ||
		      (i && arg[i] >= '0' && arg[i] <= '9')))
			die("--label %s: a label's name is letters, digits and _, not starting with a "
			    "digit", arg);
	if (n > 1 && arg[0] == '_' && arg[1] == '_')
		die("--label %s: names starting with __ are Prometheus's own", arg);
	for (i = 0; i < sizeof(ours) / sizeof(ours[0]); i++)
		if (strlen(ours[i]) == n && strncmp(arg, ours[i], n) == 0)
			die("--label %s: %s is a label of exmap-mini's own series", arg, ours[i]);
	for (i = 0; i < nlabel; i++)
		if (strncmp(label_arg[i], arg, n + 1) == 0)
			die("--label %s: the label %.*s given twice", arg, (int)n, arg);
	if (nlabel == LABELS_MAX)
		die("--label %s: more than %d labels", arg, LABELS_MAX);
	label_arg[nlabel++] = arg;
}

/* A capture's board: the node name, its uname's third word; NULL if cut or none. */
static const char *capture_host(const char *uname)
{
	const char *p = strchr(uname, ' ');
	size_t n;

	if (!p || !(p = strchr(p + 1, ' ')) || !*++p)
		return NULL;
	n = strlen(p);
	return n >= 3 && strcmp(p + n - 3, "...") == 0 ? NULL : p;
}

/* NAME="VALUE" after what p ends, a comma between: the new end. */
static char *put_label(char *p, const char *start, const char *name, size_t n, const char *v)
{
	if (p != start)
		*p++ = ',';
	memcpy(p, name, n);
	p += n;
	*p++ = '=';
	*p++ = '"';
	p += label_value(p, v, strlen(v));
	*p++ = '"';
	*p = '\0';
	return p;
}

/* Every series' labels: --label's, and a capture's host unless --label says it. */
static void common_labels(struct arena *a, const char *host, const char *file)
{
	size_t i, room = 1;
	char *start, *p;
	int add_host = file != NULL;

	for (i = 0; i < nlabel; i++) {
		room += label_value(NULL, label_arg[i], strlen(label_arg[i])) + 4;
		add_host &= strncmp(label_arg[i], "host=", 5) != 0;
	}
	if (add_host && !host)
		die("%s: its uname names no whole host (cut short, or none): give the board's name "
		    "with --label host=NAME", file);
	if (add_host)
		room += label_value(NULL, host, strlen(host)) + 8;
	common = start = p = arena_alloc(a, room, 1);
	*p = '\0';
	for (i = 0; i < nlabel; i++) {
		size_t n = strcspn(label_arg[i], "=");

		p = put_label(p, start, label_arg[i], n, label_arg[i] + n + 1);
	}
	if (add_host)
		put_label(p, start, "host", 4, host);
}
#endif

/* A sample of the family: key, its labels (NULL: none), and its value. */
static void sample(const char *key, int64_t v)
{
	outs(fam);
	if (key || *common) {
		outs("{");
		outs(common);
		outs(key && *common ? "," : "");
		outs(key ? key : "");
		outs("}");
	}
	if (v < 0)
		outs(" -");
	out_dec(v < 0 ? 0 : ' ', (uint64_t)(v < 0 ? -v : v));
	outs("\n");
}

/* The processes, by name (and pid): their table, merged. */
static size_t procs_table(struct scan *s, struct series **out, int pids)
{
	struct series *t = arena_alloc(s->arena, (s->nproc + 1) * sizeof(*t), 8);
	uint32_t i;

	for (i = 0; i < s->nproc; i++) {
		const struct proc *p = s->procs[i];

		t[i].key = key_make(s->arena, "name", p->name, "", pids ? p->pid : 0);
		t[i].v[0] = eff_bytes(&p->fig.eff_resident);
		t[i].v[1] = p->fig.sole;
		t[i].v[2] = p->fig.resident;
		t[i].v[3] = p->fig.swap;
		t[i].v[4] = p->dma ? p->dma->held : 0;
		t[i].v[5] = p->dma ? eff_bytes(&p->dma->share) : 0;
		t[i].n = 1;
	}
	*out = t;
	return merge(t, s->nproc);
}

static void put_procs(struct scan *s, const struct opts *o)
{
	struct series *by_name, *each;
	size_t nn = procs_table(s, &by_name, 0), ne = nn, i;
	/* the dma-buf families where one can exist: fds read, or one held */
	int k, nk = s->dma && (s->dma->walk || s->dma->n) ? 6 : 4;

	each = by_name;
	if (o->pids)
		ne = procs_table(s, &each, 1);
	for (k = 0; k < nk; k++) {
		family(proc_family[k].name, proc_family[k].help);
		for (i = 0; i < ne; i++)
			sample(each[i].key, (int64_t)each[i].v[k]);
	}
	family("exmap_processes", "Processes of this name.");
	for (i = 0; i < nn; i++)
		sample(by_name[i].key, by_name[i].n);
}

/* The largest files by eff_resident, the rest summed as path="other". */
static void put_files(struct scan *s, const struct opts *o)
{
	static const char other[] = "path=\"other\"";
	uint32_t nfile, i;
	struct file *f = files_build(s, &nfile);
	struct series *t = arena_alloc(s->arena, (nfile + 1) * sizeof(*t), 8);
	uint64_t top = o->top ? o->top : FILES_TOP, rest = 0, shown = 0;
	size_t n;

	for (i = 0; i < nfile; i++) {	/* a deleted file as the kernel's maps names it */
		memset(&t[i], 0, sizeof(t[i]));
		t[i].key = key_make(s->arena, "path", f[i].path,
				    f[i].flags & MF_DELETED ? " (deleted)" : "", 0);
		t[i].v[0] = eff_bytes(&f[i].fig.eff_resident);
	}
	n = merge(t, nfile);
	sort(t, n, sizeof(*t), by_size);
	family("exmap_file_eff_resident_bytes", "PSS by mapped file; the smaller ones as other.");
	for (i = 0; i < n; i++) {
		if (shown == top || strcmp(t[i].key, other) == 0) {
			rest += t[i].v[0];
			continue;
		}
		sample(t[i].key, (int64_t)t[i].v[0]);
		shown++;
	}
	sample(other, (int64_t)rest);
}

#ifndef EXMAP_NO_DMABUF
/* CMA: all areas' pages and those in use (meminfo), each area's where sysfs says. */
static void put_cma(struct scan *s, const struct ramsrc *r)
{
	uint32_t i, j;

	family("exmap_cma_bytes", "CMA areas: their pages (total) and those in use (used: "
	       "CmaTotal - CmaFree for all; given out by cma_alloc for an area).");
	sample("area=\"all\",kind=\"total\"", (int64_t)r->mi[MI_CMATOTAL]);
	sample("area=\"all\",kind=\"used\"", (int64_t)(r->mi[MI_CMATOTAL] - r->mi[MI_CMAFREE]));
	for (i = 0; i < r->cma.n; i++) {
		sample(key_make(s->arena, "area", r->cma.top[i].name, "\",kind=\"total", 0),
		       (int64_t)r->cma.top[i].bytes);
		for (j = 0; j < r->cma_used.n; j++)
			if (strcmp(r->cma_used.top[j].name, r->cma.top[i].name) == 0)
				sample(key_make(s->arena, "area", r->cma.top[i].name,
						"\",kind=\"used", 0), (int64_t)r->cma_used.top[j].bytes);
	}
}
#endif

/*
 * The largest cgroups by eff_resident (-n, 20), the rest as cgroup="other"
 * (no path is so named); the charges of those named, where known: summed,
 * the rest's would count a nested cgroup's twice.
 */
static void put_cgroups(struct scan *s, const struct opts *o)
{
	static const struct {
		const char *name, *help;
	} fams[4] = {
		{ "exmap_cgroup_eff_resident_bytes", "PSS by cgroup: its processes' shares; the "
		  "smaller ones as other." },
		{ "exmap_cgroup_processes", "Processes in the cgroup." },
		{ "exmap_cgroup_charged_bytes", "The kernel's charge (memory.current or "
		  "memory.usage_in_bytes), where known." },
		{ "exmap_cgroup_charged_shmem_bytes", "Its charge for shmem and tmpfs (memory.stat), "
		  "where known." },
	};
	uint32_t n, i, k;
	struct cgroup *rows = cgroups_build(s, &n);
	struct series *t = arena_alloc(s->arena, ((size_t)n + 1) * sizeof(*t), 8);
	uint64_t top = o->top ? o->top : FILES_TOP;

	if (!n)
		return;	/* no process's cgroup: a capture made before they were */
	for (i = 0; i < n; i++) {
		t[i].key = key_make(s->arena, "cgroup", rows[i].path, "", 0);
		t[i].v[0] = eff_bytes(&rows[i].fig.eff_resident);
		t[i].v[1] = i;
		t[i].n = rows[i].nproc;
	}
	sort(t, n, sizeof(*t), by_size);
	for (k = 0; k < 4; k++) {
		uint64_t rest = 0;

		family(fams[k].name, fams[k].help);
		for (i = 0; i < n; i++) {
			const struct cgcharge *c = &rows[t[i].v[1]].charge;
			int which = k == 2 ? CH_CHARGED : CH_SHMEM;

			if (i >= top)
				rest += k == 0 ? t[i].v[0] : t[i].n;
			else if (k < 2)
				sample(t[i].key, (int64_t)(k == 0 ? t[i].v[0] : t[i].n));
			else if (c->known & 1u << which)
				sample(t[i].key, (int64_t)c->v[which]);
		}
		if (k < 2)
			sample("cgroup=\"other\"", (int64_t)rest);
	}
}

static void ram_part(void *arg, const struct ram_line *l)
{
	sample(key_make(arg, "part", l->label, "", 0), l->bytes);
}

void view_metrics(struct scan *s, const struct opts *o, uint64_t scan_ns)
{
#ifdef EXMAP_NO_LOAD
	const struct capture *const cap = NULL;	/* a board's build loads none */
#else
	const struct capture *const cap = s->cap;
#endif
	static struct ramsrc live;
	/* the ram view's figures: a v1 capture has none, a damaged one lost them */
	const struct ramsrc *r = !cap ? &live : cap->ram_lost ? NULL : cap->ram;

	common_labels(s->arena, cap ? capture_host(cap->uname) : NULL, cap ? cap->file : NULL);
	if (!cap)	/* what the parts need and no more: no census */
		ram_read_parts(&live, s->page_size);
	family("exmap_build_info", "exmap-mini's version. Always 1.");
	sample("version=\"" EXMAP_VERSION "\"", 1);
	family("exmap_scan_info", "The page source; live or a capture's. Always 1.");
	outf("exmap_scan_info{%s%s%s,from=\"%s\"} 1\n", common, *common ? "," : "",
	     key_make(s->arena, "source", s->source, "", 0), cap ? "capture" : "live");
	if (!cap) {
		family("exmap_scan_duration_seconds", "How long the scan took.");
		outf(*common ? "exmap_scan_duration_seconds{%s} %llu.%03llu\n" :
		     "exmap_scan_duration_seconds%s %llu.%03llu\n", common,
		     (unsigned long long)(scan_ns / 1000000000u),
		     (unsigned long long)(scan_ns / 1000000u % 1000));
	}
	if (r) {
		family("exmap_scan_time_seconds", "When the scan was made (Unix time).");
		sample(NULL, (int64_t)r->time_s);
	}
	family("exmap_scan_unreadable_processes", "Processes the scan could not read.");
	sample(NULL, s->unreadable);
	if (cap) {
		family("exmap_capture_lost_processes", "The capture's processes lost to damage.");
		sample(NULL, cap->lost);
	}
	put_procs(s, o);
	put_files(s, o);
	put_cgroups(s, o);
	if (!r) {
		warnx("metrics: the capture holds no ram view (v1, or lost): no exmap_ram_bytes");
		return;
	}
	family("exmap_ram_bytes", "The ram view's parts of MemTotal.");
	ram_parts(s, r, ram_part, s->arena);
#ifndef EXMAP_NO_DMABUF
	if (r->mi[MI_CMATOTAL])
		put_cma(s, r);
#endif
}
