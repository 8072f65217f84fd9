/* A watch log's reading: what it lost, said (wlog.c and wlstate.c find them). */
/*
 * Each loss is said at its line, SAID_MAX of them; the rest are counted,
 * and the walk's end says the counts in one line, with exit status 4.
 */
#include <stdarg.h>

#include "capture.h"
#include "wlread.h"

#define SAID_MAX	16	/* losses said one by one; the rest counted */

/* A loss, said (SAID_MAX of them; the rest are in the counts at the end). */
void wlr_say(struct wlread *r, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	if (r->said++ >= SAID_MAX) {
		if (r->said == SAID_MAX + 1)
			warnx("%s: more watch lines lost: counted at the end", r->file_now);
		return;
	}
	va_start(ap, fmt);
	fmt_vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	warnx("%s: line %llu: %s", r->file_now, (unsigned long long)r->at, buf);
}

/* What the walk lost, in one line, and the exit status that says so: the
 * lines lost (those that arrived damaged, those that never did), then what
 * was left out: damaged lines in no gap (noise), lines behind the last,
 * lines not understood, records naming what was not defined, samples out
 * of order. */
void wlr_say_losses(const struct wlog *w)
{
	static const char *const what[] = {
		"damaged in no gap of the sequence (noise)", "again or out of order (ignored)",
		"checked out but not understood", "named what the log had not defined",
		"closed samples out of order (not given)",
	};
	const struct wl_stats *t = &w->st;
	uint64_t n[] = { t->bad - t->damaged, t->repeated, t->garbled, t->undefined, t->unordered };
	char buf[512];
	size_t len = 0, i;

	if (t->lost)
		len = fmt_snprintf(buf, sizeof(buf), "%llu watch line%s lost (%llu arrived damaged, "
				   "%llu never arrived)", (unsigned long long)t->lost,
				   t->lost == 1 ? "" : "s", (unsigned long long)t->damaged,
				   (unsigned long long)(t->lost - t->damaged));
	for (i = 0; i < sizeof(n) / sizeof(n[0]); i++)
		if (n[i])
			len += fmt_snprintf(buf + len, sizeof(buf) - len, "%s%llu %s",
					    len ? ", " : "of its watch lines, ",
					    (unsigned long long)n[i], what[i]);
	if (!len)
		return;
	warnx("%s: %s: %llu sample%s given with values unknown", w->path, buf,
	      (unsigned long long)t->unknown, t->unknown == 1 ? "" : "s");
	exit_at_least(EX_DAMAGED);
}
