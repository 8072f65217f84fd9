/* Unit tests of the floor's slope, the trend and watch-log definitions. */
/*
 * The floor's slope on series built here, the trend's rows from samples
 * built here, and a long definition written on an open watch line.
 */
#include <string.h>
#include <unistd.h>

#include "trend.h"
#include "wlog.h"
#include "unit.h"

/*
 * The floor's slope (slope.c) on series whose shape is built here: each
 * case's samples come from a rule over sample i at t = 100 ms * i, and its
 * slope (bytes an hour) must come within tol of what was built, growing or
 * not as said.
 */
struct env_case {
	const char *what;
	uint32_t n;		/* samples */
	uint64_t (*v)(uint32_t i);
	int64_t slope, tol;
	int grows, known;
};

/* 10 bytes a ms from 1 MiB: 36,000,000 bytes an hour */
static uint64_t v_leak(uint32_t i) { return (1u << 20) + 1000u * i; }
static uint64_t v_flat(uint32_t i) { (void)i; return 8u << 20; }
/* a page-sized jitter on a flat 8 MiB, from a fixed sequence */
static uint64_t v_jitter(uint32_t i) { return (8u << 20) + (hash_bytes(HASH_SEED, &i, 4) % 3) * 4096; }
/* a sawtooth: 2 MiB a tooth of 37 samples, rising, then dropped at once */
static uint64_t v_saw(uint32_t i) { return (4u << 20) + (i % 37) * ((2u << 20) / 37); }
static uint64_t v_saw_leak(uint32_t i) { return v_saw(i) + 1000u * i; }
/* every 7th sample 100 MiB higher: a burst, never the floor */
static uint64_t v_spikes(uint32_t i) { return v_leak(i) + (i % 7 == 3 ? 100u << 20 : 0); }
/* one window's worth of samples (of 16) far below: Theil-Sen shrugs */
static uint64_t v_dip(uint32_t i) { return i >= 900 && i < 960 ? 4096 : v_leak(i); }
/* pages of 4 KiB leaked a few at a time: a staircase */
static uint64_t v_stairs(uint32_t i) { return (1u << 20) + (i / 4) * 4096; }

void test_envelope(void)
{
	static const struct env_case cases[] = {
		{ "steady leak", 1000, v_leak, 36000000, 1, 1, 1 },
		{ "steady leak, 100,000 samples", 100000, v_leak, 36000000, 1, 1, 1 },
		{ "flat", 1000, v_flat, 0, 0, 0, 1 },
		{ "flat with a page of jitter", 1000, v_jitter, 0, 150000, 0, 1 },
		{ "sawtooth, flat floor", 2000, v_saw, 0, 100000, 0, 1 },
		{ "sawtooth on a leak", 2000, v_saw_leak, 36000000, 1800000, 1, 1 },
		{ "leak with bursts every 7th sample", 1000, v_spikes, 36000000, 1, 1, 1 },
		{ "leak with a dip of a window", 1000, v_dip, 36000000, 720000, 1, 1 },
		{ "a leak in page steps", 1000, v_stairs, 36864000, 400000, 1, 1 },
		{ "three samples: no slope", 3, v_leak, 0, 0, 0, 0 },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct env_case *c = &cases[i];
		struct envelope e;
		struct env_fit f;
		char what[128], detail[160];
		uint64_t min = UINT64_MAX, max = 0;
		uint32_t k;
		int64_t d;

		memset(&e, 0, sizeof(e));
		for (k = 0; k < c->n; k++) {
			uint64_t v = c->v(k);

			env_add(&e, (int64_t)k * 100, v);
			min = v < min ? v : min;
			max = v > max ? v : max;
		}
		env_fit(&e, &f);
		d = f.slope - c->slope;
		fmt_snprintf(what, sizeof(what), "envelope: %s", c->what);
		fmt_snprintf(detail, sizeof(detail), "slope %lld, want %lld +- %lld; known %d, grows %d; "
			     "%u windows", (long long)f.slope, (long long)c->slope, (long long)c->tol,
			     f.known, env_grows(&f), f.points);
		check(f.known == c->known && (d < 0 ? -d : d) <= c->tol &&
		      env_grows(&f) == c->grows && f.points <= ENV_WIN + 1 && e.samples == c->n &&
		      e.min == min && e.max == max, what, detail);
	}
}

#ifndef EXMAP_NO_LOAD
/*
 * The trend's rows (trend.c) from samples built here, 200 a second apart: a
 * leak (one value lost on the way), a family of three that leaks together,
 * a steady process restarted under a new pid, a pid reused by another
 * program, a file, a process of 4 samples rising 100 MiB (brief: no slope),
 * a second process joining a key (not growth), two with no command line
 * (a row each, by pid); and with -P the family's parts. The CSV rows must say each one's samples and slope as built.
 */
static void trend_feed(const void *arg)
{
	static const char leaky[] = "leaky\0-r\0", fam[] = "fam", steady[] = "steady";
	const struct trend_opts *to = arg;
	static struct arena a;
	uint32_t i, k;

	if (!a.base && arena_init(&a, 64u << 20) < 0)
		_exit(2);
	a.lo = a.hi = 0;
	trend_begin(&a, to);
	for (i = 0; i < 200; i++) {
		trend_sample((int64_t)i * 1000, 1700000000u + i);
		trend_proc(100, 1, "leaky", leaky, sizeof(leaky) - 1, (1u << 20) + 10240u * i,
			   10240u * i, i != 50);
		for (k = 0; k < 3; k++) {
			trend_proc(200 + k, 2, "fam", fam, 3, (1u << 20) + 1024u * i, 0, 1);
			trend_part(200 + k, 2, "fam", "[heap]", 100u << 10, 1);
			trend_part(200 + k, 2, "fam", "/lib/libx.so .data .bss", 1024u * i, 1);
		}
		if (i != 100)
			trend_proc(i < 100 ? 300 : 301, i < 100 ? 5 : 105, "steady", steady, 6,
				   2u << 20, 0, 1);
		if (i < 100)
			trend_proc(400, 7, "first", "first", 5, 1u << 20, 0, 1);
		else if (i > 100)
			trend_proc(400, 110, "second", "second", 6, 5u << 20, 0, 1);
		if (i >= 10 && i < 14)	/* brief: 4 samples, rising 100 MiB */
			trend_proc(500, 9, "brief", "brief", 5, (25u << 20) * (i - 10), 0, 1);
		/* no command line (read when it had exited): a row a pid */
		if (i % 100 >= 20 && i % 100 < 24)
			trend_proc(700 + i / 100, 11, "late", NULL, 0, 1u << 20, 0, 1);
		/* one process, then two of one key: a join, not growth */
		for (k = 0; k < 1 + (i >= 100); k++)
			trend_proc(600 + k, 3 + k, "make", "make", 4, 1u << 20, 0, 1);
		trend_file("/dev/shm/x", 4096u * i, 1);
		trend_sample_end();
	}
	trend_report(&(struct opts){ .csv = 1 }, to);
}

void test_trend(void)
{
	static const struct { const char *pick, *row; } cases[] = {
		{ NULL, "kind,name,cmdline,samples,first,last,min,max,slope,sole_slope,grows,life_ms,"
			"brief\n" },
		{ NULL, "\nprocess,leaky,leaky -r,199,1048576,3086336,1048576,3086336,36864000,36864000,1,"
			"199000,0\n" },
		{ NULL, "\nfile,/dev/shm/x,,200,0,815104,0,815104,14745600,,1,199000,0\n" },
		{ NULL, "\nprocess,fam,fam,200,3145728,3757056,3145728,3757056,11059200,0,1,199000,0\n" },
		{ NULL, "\nprocess,steady,steady,199,2097152,2097152,2097152,2097152,0,0,0,199000,0\n" },
		{ NULL, "\nprocess,first,first,100,1048576,1048576,1048576,1048576,0,0,0,99000,0\n" },
		{ NULL, "\nprocess,second,second,99,5242880,5242880,5242880,5242880,0,0,0,98000,0\n" },
		{ NULL, "\nprocess,make,make,200,1048576,2097152,1048576,2097152,0,0,0,199000,0\n" },
		{ NULL, "\nprocess,brief,brief,4,0,78643200,0,78643200,,,0,3000,1\n" },
		{ NULL, "\nprocess,late,[pid 700],4,1048576,1048576,1048576,1048576,,,0,3000,1\n" },
		{ NULL, "\nprocess,late,[pid 701],4,1048576,1048576,1048576,1048576,,,0,3000,1\n" },
		{ "fam", "\npart,/lib/libx.so .data .bss,,200,0,611328,0,611328,11059200,,1,199000,0\n" },
		{ "fam", "\npart,[heap],,200,307200,307200,307200,307200,0,,0,199000,0\n" },
		{ "201", "\npart,[heap],,200,102400,102400,102400,102400,0,,0,199000,0\n" },
	};
	static char buf[8192];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct trend_opts to = { .log = "built", .pick = cases[i].pick };
		char what[160];

		capture(trend_feed, &to, buf, sizeof(buf));
		fmt_snprintf(what, sizeof(what), "trend%s%s: %.*s", cases[i].pick ? " -P " : "",
			     cases[i].pick ? cases[i].pick : "", (int)strcspn(cases[i].row + 1, ","),
			     cases[i].row + 1);
		check(strstr(buf, cases[i].row) != NULL, what, buf);
	}
}
#endif

/*
 * A long definition (a command line past a line's room) written after
 * another of its class on the open line, its head ending at every place up
 * to the line's end: each line a whole watch line of at most WL_LINE_MAX
 * bytes that checks, and the text read back from its line and the "+"
 * lines after it as it was (a head that left no room for its comma once
 * wrote the text over the writer's own state).
 */
struct wldef_case { size_t fill; char text[400]; };

static void wldef_write(const void *arg)
{
	const struct wldef_case *c = arg;
	char fill[WL_LINE_MAX];

	memset(fill, 'x', c->fill);
	wl_count();
	wl_item(WC_PROCDEF, fill, c->fill);
	wl_def(WC_PROCDEF, "7,1f,2", 6, c->text, sizeof(c->text));
	wl_count();
}

void test_wldef(void)
{
	static struct wldef_case c;
	static char buf[8192], esc[2048], back[1024];
	size_t i, f, n, en;
	int bad = 0, seen;

	for (i = 0; i < sizeof(c.text); i++)
		c.text[i] = i % 7 == 0 ? '\0' : i % 11 == 0 ? '%' : (char)('a' + i % 26);
	for (f = 1; f < WL_LINE_MAX - 20 && !bad; f++) {
		char *line, *next, *items, *sp;
		uint32_t seq;
		int cls;

		c.fill = f;
		capture(wldef_write, &c, buf, sizeof(buf));
		en = 0;
		seen = 0;
		for (line = buf; *line && !bad; line = next) {
			next = strchr(line, '\n');
			if (!next || next - line + 1 > WL_LINE_MAX || strncmp(line, "XM w ", 5) != 0) {
				bad = 1;
				break;
			}
			*next++ = '\0';
			if (wl_line_check(line + 5, &seq, &cls, &items) < 0) {
				bad = 2;
				break;
			}
			sp = cls == WC_PROCDEF ? strstr(items, "7,1f,2,") : NULL;
			if (cls == WC_PROCDEF && !sp && !seen)
				continue;	/* the filler's line alone */
			if (cls == WC_PROCDEF && sp && !seen++)
				items = sp + 7;
			else if (cls != WC_N || !seen)
				items = NULL;
			if (!items || en + strlen(items) >= sizeof(esc)) {
				bad = 3;
				break;
			}
			memcpy(esc + en, items, strlen(items));
			en += strlen(items);
		}
		if (!bad && (wl_unescape(esc, en, back, sizeof(back), &n) < 0 || n != sizeof(c.text) ||
			     memcmp(back, c.text, n) != 0))
			bad = 4;
	}
	fmt_snprintf(esc, sizeof(esc), "the head after %zu bytes of the line: %s", f - 1,
		     bad == 1 ? "a line too long or not a watch line" : bad == 2 ?
		     "a line that does not check" : bad == 3 ? "the text not where it belongs" :
		     "the text read back is not the text");
	check(!bad, "wl_def: a long definition on an open line", bad ? esc : NULL);
}
