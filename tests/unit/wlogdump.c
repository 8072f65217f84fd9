/*
 * A watch log as its reader gives it (src/wlog.c), one CSV line per value
 * at each sample, for the watch suite to compare with its truth:
 *
 *   sample,time_ms,uptime_ms,keyframe,kind,entity,field,value,known,changed
 *
 * kind proc (entity pid:start:name), file (its path), part (pid:start:PART
 * where PART is [heap], [stack], anon, or file:PATH / data:PATH), ram (its
 * name); known and changed 0 or 1. Then "started,..." and "exited,..."
 * lines for those events, and last "stats,..." with the walk's counts.
 * usage: wlogdump LOG
 */
#include <stdio.h>
#include <string.h>

#include "wlog.h"

static void head(const struct wl_sample *s)
{
	printf("%llu,%llu,%llu,%d,", (unsigned long long)s->n, (unsigned long long)s->time_ms,
	       (unsigned long long)s->uptime_ms, s->keyframe);
}

static void value(void *arg, const struct wl_sample *s, const struct wl_value *v)
{
	static const char *const kind[] = { "proc", "file", "part", "ram" };
	char entity[PATH_BUF + 128];
	int f, n = v->kind == WL_PROC ? WL_NFIELD : 1;

	(void)arg;
	switch (v->kind) {
	case WL_PROC:
		snprintf(entity, sizeof(entity), "%d:%llu:%s", (int)v->proc->pid,
			 (unsigned long long)v->proc->start, v->proc->name);
		break;
	case WL_FILE:
		snprintf(entity, sizeof(entity), "%s", v->file->path);
		break;
	case WL_PARTOF:
		snprintf(entity, sizeof(entity), "%d:%llu:%s%s%s", (int)v->proc->pid,
			 (unsigned long long)v->proc->start, wl_part_name[v->part],
			 v->file ? ":" : "", v->file ? v->file->path : "");
		break;
	case WL_RAM:
		snprintf(entity, sizeof(entity), "%s", v->ram);
		break;
	}
	for (f = 0; f < n; f++) {
		head(s);
		printf("%s,%s,%s,%lld,%d,%d\n", kind[v->kind], entity, wl_field_name[f],
		       (long long)v->v[f], !!(v->known & 1u << f), !!(v->changed & 1u << f));
	}
}

static void event(const char *what, const struct wl_sample *s, const struct wl_proc *p)
{
	printf("%s,%llu,%d,%llu,%s,%d,", what, (unsigned long long)s->n, (int)p->pid,
	       (unsigned long long)p->start, p->name, p->born);
	for (uint32_t i = 0; i < p->cmdlen; i++)
		putchar(p->cmdline[i] ? p->cmdline[i] : ' ');
	printf("\n");
}

static void started(void *arg, const struct wl_sample *s, const struct wl_proc *p)
{
	(void)arg;
	event("started", s, p);
}

static void exited(void *arg, const struct wl_sample *s, const struct wl_proc *p)
{
	(void)arg;
	event("exited", s, p);
}

int main(int argc, char **argv)
{
	static struct wlog w;
	struct wl_ops ops = { .value = value, .started = started, .exited = exited };
	int r;

	if (argc != 2) {
		fprintf(stderr, "usage: wlogdump LOG\n");
		return 2;
	}
	wlog_open(argv[1], &w);
	r = wlog_read(&w, &ops, NULL);
	printf("stats,lines=%llu,bad=%llu,lost=%llu,samples=%llu,keyframes=%llu,runs=%llu,"
	       "skipped=%llu,unknown=%llu,mem=%llu,peak=%llu\n",
	       (unsigned long long)w.st.lines, (unsigned long long)w.st.bad,
	       (unsigned long long)w.st.lost, (unsigned long long)w.st.samples,
	       (unsigned long long)w.st.keyframes, (unsigned long long)w.st.runs,
	       (unsigned long long)w.st.skipped, (unsigned long long)w.st.unknown,
	       (unsigned long long)w.st.writer_mem, (unsigned long long)w.st.writer_peak);
	return r < 0 ? 1 : exit_status;
}
