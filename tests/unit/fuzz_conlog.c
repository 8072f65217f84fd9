/* The fuzzer of console logs: the captures a log holds, each found, loaded, compared. */
/*
 * An input is a console log holding captures among whatever else the
 * console carried (kernel messages, prompts, lines cut and joined, a watch
 * between two captures). The captures view lists them (text and CSV); the
 * first, the second and the last are found by their place (LOG@1, LOG@2,
 * LOG@-1) and loaded, as -l LOG@N loads one; diff compares the first and
 * the last (text, and its page). tests/unit/fuzzlib.h says how a run is
 * kept in this process and how inputs are mutated.
 *
 * build: tests/mk/fuzz.mk (clang -fsanitize=fuzzer,address,undefined)
 */
#include <stdio.h>

#include "capture.h"
#include "fuzzlib.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const place[] = { "@1", "@2", "@-1" };
	static char at[3][PATH_BUF + 8];
	static struct arena arena;
	static struct capfile cf[2];
	struct opts o = { .view = V_CAPTURES, .sort = -1 };
	const char *path;
	size_t i;

	fz_init("fuzz_conlog");
	path = fz_write("console.log", data, size);
	FZ_STEP(view_captures(path, &o));
	o.csv = 1;
	FZ_STEP(view_captures(path, &o));
	o.csv = 0;
	for (i = 0; i < 3; i++) {
		snprintf(at[i], sizeof(at[i]), "%s%s", path, place[i]);
		fz_capture(at[i], data, size, 0);
	}
	o.view = V_DIFF;
	for (o.html = 0; o.html < 2; o.html++)
		FZ_STEP({
			uint64_t n;

			arena_release(&arena);
			n = capture_open(at[0], &cf[0]);
			n += capture_open(at[2], &cf[1]);
			arena_or_die(&arena, n, 0, 0);
			diff_captures(&arena, &cf[0], &cf[1], &o);
		});
	fz_end();
	return 0;
}
