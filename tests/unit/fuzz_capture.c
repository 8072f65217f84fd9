/* The fuzzer of captures: one loaded as -l loads it, then every view of it. */
/*
 * An input is a capture (dump's lines, as a console may have left them).
 * It is loaded as -l loads it (src/caplog.c, capload.c, capcheck.c,
 * capram.c) and every view of a capture is made from it: procs, files, ram
 * (text and CSV), folded, html, metrics, maps, sections and symbols (the
 * files looked for in an empty sysroot), budgets, -P with -F
 * (fz_capture, tests/unit/fuzzlib.c). Lines a capture gains later are
 * loaded and mutated as these are: nothing here names a line kind.
 *
 * build: tests/mk/fuzz.mk (clang -fsanitize=fuzzer,address,undefined)
 */
#include "fuzzlib.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fz_init("fuzz_capture");
	fz_capture(fz_write("cap", data, size), data, size, 1);
	fz_end();
	return 0;
}
