/* The fuzzer of watch logs: the reader, trend and its page, and a log's captures. */
/*
 * An input is a watch log as a console or -o left it (a line "#fuzz-rotate"
 * splits it into FILE.1 and FILE, a log --max rotated). Its reader
 * (src/wlog.c) is walked with checks of what it promises its callers: every
 * value names its process or file (a part of a file its file), a run's
 * samples come in order and in time. Then what reads it on the command
 * line: trend (text; CSV with -w; -P with a budget on a slope; or its
 * page: one of these an input, as they walk the log alike), the captures
 * view, and -l LOG procs (its last whole capture). tests/unit/fuzzlib.h
 * says how a run is kept in this process and how inputs are mutated.
 *
 * build: tests/mk/fuzz.mk (clang -fsanitize=fuzzer,address,undefined)
 */
#include <stdio.h>
#include <string.h>

#include "capture.h"
#include "fuzzlib.h"
#include "wlog.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define TREND_MEM	(16u << 20)	/* -m: the trend's arena */

struct seen {
	uint32_t run;
	uint64_t n, up;
	int any;
};

static void on_sample(void *arg, const struct wl_sample *s)
{
	struct seen *w = arg;

	if (w->any && s->run == w->run && (s->n <= w->n || s->uptime_ms < w->up))
		fz_broken("sample %llu (uptime %llu) given after sample %llu (uptime %llu) of its run",
			  (unsigned long long)s->n, (unsigned long long)s->uptime_ms,
			  (unsigned long long)w->n, (unsigned long long)w->up);
	if (s->uptime_ms > INT64_MAX || s->time_ms > INT64_MAX)
		fz_broken("a sample's time past 63 bits");
	w->any = 1;
	w->run = s->run;
	w->n = s->n;
	w->up = s->uptime_ms;
}

static void on_value(void *arg, const struct wl_sample *s, const struct wl_value *v)
{
	(void)arg;
	(void)s;
	if ((v->kind == WL_PROC || v->kind == WL_PARTOF) && (!v->proc || !v->proc->cmdline))
		fz_broken("a process's value with no process");
	if (v->kind == WL_FILE && (!v->file || !v->file->path))
		fz_broken("a file's value with no file");
	if (v->kind == WL_PARTOF && (v->part == WL_PART_FILE || v->part == WL_PART_DATA) &&
	    (!v->file || !v->file->path))
		fz_broken("a part of a file with no file");
	if (v->kind == WL_RAM && !v->ram)
		fz_broken("a ram part with no name");
	if (v->kind == WL_PROC && v->proc->cmdlen > CMDLINE_MAX)
		fz_broken("a command line of %u bytes", v->proc->cmdlen);
}

static void on_proc(void *arg, const struct wl_sample *s, const struct wl_proc *p)
{
	(void)arg;
	(void)s;
	if (!p || !p->cmdline)
		fz_broken("a start or exit with no process");
}

static void walk(const char *path)
{
	static struct wlog w;
	static const struct wl_ops ops = {
		.sample = on_sample, .started = on_proc, .value = on_value, .exited = on_proc,
	};
	struct seen seen = { 0 };

	wlog_open(path, &w);
	wlog_read(&w, &ops, &seen);
	wlog_close(&w);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char name[NAME_MAX_COMM], budget[NAME_MAX_COMM + 16];
	static struct budget b;
	struct opts o = { .view = V_TREND, .sort = -1 };
	const char *path;
	int32_t pid;

	fz_init("fuzz_wlog");
	path = fz_write("log", data, size);
	FZ_STEP(walk(path));
	/* one way of the trend's an input (they walk the log alike), and a small
	 * arena: a run is fast */
	switch (size % 4) {
	case 0:
		FZ_STEP(view_trend(path, &o, NULL, NULL, NULL, 0, TREND_MEM));
		break;
	case 1:
		o.csv = 1;
		FZ_STEP(view_trend(path, &o, NULL, "30s", NULL, 0, TREND_MEM));
		break;
	case 2:
		if (fz_first_proc(data, size, &pid, name, sizeof(name))) {
			snprintf(budget, sizeof(budget), "%s=1K/h", name);
			FZ_STEP(parse_budget(budget, &b);	/* a name it refuses: dies */
				view_trend(path, &o, name, NULL, &b, 1, TREND_MEM));
		}
		break;
	default:
		o.view = V_HTML;
		FZ_STEP(view_trend(path, &o, NULL, NULL, NULL, 0, TREND_MEM));
	}
	o.view = V_CAPTURES;
	FZ_STEP(view_captures(path, &o));
	/* -l LOG procs: the last whole capture, as any view of a capture loads it */
	fz_capture(path, data, size, 0);
	fz_end();
	return 0;
}
