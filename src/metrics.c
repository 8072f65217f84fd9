/* The metrics view: the scan in Prometheus's text exposition format. */
/*
 * As node_exporter's textfile collector reads it: HELP and TYPE for each
 * family, gauges in base units, no timestamps. The series stay few whatever
 * the machine runs: processes summed by name (--pids: one each), the
 * largest files (-n, 20) and the rest as path="other", the ram view's parts.
 * A label value is written with \, " and newline escaped, and every byte
 * that is not part of valid UTF-8 as the text \xNN (lowercase), so that
 * Prometheus takes it; names that come out the same are one series.
 */
#include <string.h>
#include <time.h>

#include "capture.h"
#include "ram.h"
#include "ramsrc.h"

#define FILES_TOP	20	/* files named without -n */

/* One series' labels, as written between the braces, and its figures. */
struct series {
	const char *key;
	uint64_t v[4];		/* eff_resident, sole, resident, swap; a file's: v[0] */
	uint32_t n;		/* processes */
};

static const struct {
	const char *name, *help;
} proc_family[4] = {
	{ "exmap_process_eff_resident_bytes", "Resident memory of the processes of this name, "
	  "each page's size shared among the processes mapping it (PSS)." },
	{ "exmap_process_sole_bytes", "Resident memory that the processes of this name alone "
	  "map, each page by one process (USS)." },
	{ "exmap_process_resident_bytes", "Resident memory of the processes of this name, "
	  "each page counted whole (RSS)." },
	{ "exmap_process_swap_bytes", "Memory of the processes of this name swapped out." },
};

/* The length of the valid UTF-8 sequence at s (n bytes left); 0 if none starts there. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	unsigned lo = 0x80, hi = 0xbf;
	size_t k, i;

	if (s[0] < 0x80)
		return 1;
	if (s[0] < 0xc2 || s[0] > 0xf4)
		return 0;
	k = s[0] < 0xe0 ? 2 : s[0] < 0xf0 ? 3 : 4;
	if (s[0] == 0xe0)
		lo = 0xa0;	/* no overlong forms */
	else if (s[0] == 0xed)
		hi = 0x9f;	/* no surrogates */
	else if (s[0] == 0xf0)
		lo = 0x90;
	else if (s[0] == 0xf4)
		hi = 0x8f;	/* nothing above U+10FFFF */
	if (n < k || s[1] < lo || s[1] > hi)
		return 0;
	for (i = 2; i < k; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return k;
}

/* s as a label value between its quotes, into to (NULL: only counted): its length. */
static size_t label_value(char *to, const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *u = (const unsigned char *)s;
	char esc[5] = { '\\', '\\', 'x' };
	size_t i = 0, o = 0, k;
	const char *from;

	while (i < n) {
		from = s + i;
		if (u[i] == '\\' || u[i] == '"' || u[i] == '\n') {
			esc[1] = u[i] == '\n' ? 'n' : (char)u[i];
			from = esc, k = 2;
		} else if ((k = utf8_len(u + i, n - i)) == 0) {
			esc[1] = '\\', esc[3] = hex[u[i] >> 4], esc[4] = hex[u[i] & 15];
			from = esc, k = 5;
		}
		if (to)
			memcpy(to + o, from, k);
		o += k;
		i += from == esc ? 1 : k;
	}
	return o;
}

/* A series' labels in the arena: name="S", then ,pid="PID" if pid. */
static const char *key_make(struct arena *a, const char *name, const char *s, pid_t pid)
{
	size_t len = strlen(s), room = strlen(name) + label_value(NULL, s, len) + 24;
	char *k = arena_alloc(a, room, 1), *p = k;

	p += fmt_snprintf(p, room, "%s=\"", name);
	p += label_value(p, s, len);
	fmt_snprintf(p, room - (size_t)(p - k), pid ? "\",pid=\"%d\"" : "\"", (int)pid);
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
			for (int k = 0; k < 4; k++)
				t[m - 1].v[k] += t[i].v[k];
			t[m - 1].n += t[i].n;
		} else {
			t[m++] = t[i];
		}
	}
	return m;
}

static void family(const char *name, const char *help)
{
	outf("# HELP %s %s\n# TYPE %s gauge\n", name, help, name);
}

static void sample(const char *name, const char *key, int64_t v)
{
	outs(name);
	if (key) {
		outs("{");
		outs(key);
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

		t[i].key = key_make(s->arena, "name", p->name, pids ? p->pid : 0);
		t[i].v[0] = eff_bytes(&p->fig.eff_resident);
		t[i].v[1] = p->fig.sole;
		t[i].v[2] = p->fig.resident;
		t[i].v[3] = p->fig.swap;
		t[i].n = 1;
	}
	*out = t;
	return merge(t, s->nproc);
}

static void put_procs(struct scan *s, const struct opts *o)
{
	struct series *by_name, *each;
	size_t nn = procs_table(s, &by_name, 0), ne = nn, i;
	int k;

	each = by_name;
	if (o->pids)
		ne = procs_table(s, &each, 1);
	for (k = 0; k < 4; k++) {
		family(proc_family[k].name, proc_family[k].help);
		for (i = 0; i < ne; i++)
			sample(proc_family[k].name, each[i].key, (int64_t)each[i].v[k]);
	}
	family("exmap_processes", "How many processes of this name were scanned.");
	for (i = 0; i < nn; i++)
		sample("exmap_processes", by_name[i].key, by_name[i].n);
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

	for (i = 0; i < nfile; i++) {
		char *del = NULL;

		if (f[i].flags & MF_DELETED) {	/* as the kernel's maps names it */
			del = arena_alloc(s->arena, strlen(f[i].path) + 11, 1);
			fmt_snprintf(del, strlen(f[i].path) + 11, "%s (deleted)", f[i].path);
		}
		memset(&t[i], 0, sizeof(t[i]));
		t[i].key = key_make(s->arena, "path", del ? del : f[i].path, 0);
		t[i].v[0] = eff_bytes(&f[i].fig.eff_resident);
	}
	n = merge(t, nfile);
	sort(t, n, sizeof(*t), by_size);
	family("exmap_file_eff_resident_bytes", "Resident memory of a mapped file, each page's "
	       "size shared among the processes mapping it; the smaller files as path=\"other\".");
	for (i = 0; i < n; i++) {
		if (shown == top || strcmp(t[i].key, other) == 0) {
			rest += t[i].v[0];
			continue;
		}
		sample("exmap_file_eff_resident_bytes", t[i].key, (int64_t)t[i].v[0]);
		shown++;
	}
	sample("exmap_file_eff_resident_bytes", other, (int64_t)rest);
}

static void ram_part(void *arg, const struct ram_line *l)
{
	sample("exmap_ram_bytes", key_make(arg, "part", l->label, 0), l->bytes);
}

void view_metrics(struct scan *s, const struct opts *o, uint64_t scan_ns)
{
	static struct ramsrc live;
	uint64_t when, uptime;

	family("exmap_build_info", "The version of exmap-mini that made these figures; always 1.");
	sample("exmap_build_info", "version=\"" EXMAP_VERSION "\"", 1);
	family("exmap_scan_info", "Where the page information came from (source) and whether "
	       "the scan was live or a capture's (from); always 1.");
	outf("exmap_scan_info{%s,from=\"%s\"} 1\n", key_make(s->arena, "source", s->source, 0),
	     s->cap ? "capture" : "live");
	if (!s->cap) {
		family("exmap_scan_duration_seconds", "How long the scan and its accounting took.");
		outf("exmap_scan_duration_seconds %llu.%03llu\n",
		     (unsigned long long)(scan_ns / 1000000000u),
		     (unsigned long long)(scan_ns / 1000000u % 1000));
		when = clock_ns(CLOCK_REALTIME) / 1000000000u;
	} else {
		ram_when(s, &when, &uptime);	/* a v1 capture does not say */
	}
	if (when) {
		family("exmap_scan_time_seconds", "When the scan was made, in seconds since 1970.");
		sample("exmap_scan_time_seconds", NULL, (int64_t)when);
	}
	family("exmap_scan_unreadable_processes", "Processes the scan could not read.");
	sample("exmap_scan_unreadable_processes", NULL, s->unreadable);
	if (s->cap) {
		family("exmap_capture_lost_processes", "Processes the capture held whose chunk "
		       "was damaged: left out of the figures.");
		sample("exmap_capture_lost_processes", NULL, s->cap->lost);
	}
	put_procs(s, o);
	put_files(s, o);
	if (s->cap && (!s->cap->ram || s->cap->ram_lost)) {
		warnx("metrics: the capture holds no ram view (%s): exmap_ram_bytes left out",
		      s->cap->ram_lost ? "its chunk was lost" : "a v1 capture");
		return;
	}
	if (!s->cap)	/* what the parts need and no more: no census */
		ram_read_parts(&live, s->page_size);
	family("exmap_ram_bytes", "MemTotal in the ram view's parts, which add up to it "
	       "(unexplained: what no counter explains, negative where they overlap).");
	ram_parts(s, s->cap ? s->cap->ram : &live, ram_part, s->arena);
}
