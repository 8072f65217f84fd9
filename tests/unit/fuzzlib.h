/* What the fuzzers of outside text share: running a reader, and mutating its lines. */
/*
 * The libFuzzer targets of the text exmap-mini reads from outside (watch
 * logs, console logs, captures: tests/unit/fuzz_*.c) each write their input
 * to files and run readers and views on them, as the command line does, in
 * this process. A fatal error (die) ends a run and comes back here, as
 * exit status 2 ends the command; warnings are counted, checked to be one
 * line each, and kept quiet; what a run leaves open is closed.
 *
 * Inputs are mutated knowing only that they are lines, the ones exmap-mini
 * reads beginning "XM " (tests/unit/fuzzmut.c): lines dropped, repeated,
 * swapped, moved, cut, split by a kernel message; fields changed; noise
 * put in; then, mostly, every check made valid again (a watch line's CRC
 * and SEQ, a capture chunk's line count and CRC, a begin or end line's
 * CRC and chunk count), so that what the checks would have caught reaches
 * the readers' own logic; and plain byte mutations in between. Nothing in
 * them names a line kind: new kinds in captures are mutated as they come.
 */
#ifndef FUZZLIB_H
#define FUZZLIB_H

#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>

#include "exmap.h"

extern char fz_dir[];		/* the run's files: its own directory */
extern char fz_root[];		/* an empty sysroot in it, for -S */
extern jmp_buf fz_jmp;
extern int fz_died;		/* the last step ended in a fatal error */
extern uint64_t fz_fatal, fz_warnings;

/* Once, before the first run. */
void fz_init(const char *name);
/* The input into fz_dir/name (and, at a line "#fuzz-rotate", the part
 * before it into name.1, a log --max rotated): the path. */
const char *fz_write(const char *name, const uint8_t *data, size_t n);
/* Before each step (view, reader) that may die: set up the hooks. */
void fz_arm(void);
/* After a run: what it left open closed, the exit status back to 0. */
void fz_end(void);
/* A property a reader broke: said, then abort (libFuzzer keeps the input). */
_Noreturn void fz_broken(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* One step: a die() inside comes back here (fz_died says so). */
#define FZ_STEP(...) do { \
		if (setjmp(fz_jmp) == 0) { \
			fz_arm(); \
			__VA_ARGS__; \
		} \
	} while (0)

/* The capture path names (LOG, LOG@N) loaded as -l loads it; then, with
 * all, every view of a capture on it (else procs alone), names for them
 * taken from data. 0 when it loaded. */
int fz_capture(const char *path, const uint8_t *data, size_t n, int all);

/* The mutators, and libFuzzer's hooks that call them (fuzzmut.c: every
 * log fuzzer mutates with them). */
size_t fz_mutate(uint8_t *data, size_t size, size_t max, unsigned seed);
size_t fz_cross(const uint8_t *a, size_t na, const uint8_t *b, size_t nb, uint8_t *out,
		size_t max, unsigned seed);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max, unsigned seed);
size_t LLVMFuzzerCustomCrossOver(const uint8_t *a, size_t na, const uint8_t *b, size_t nb,
				 uint8_t *out, size_t max, unsigned seed);

/* The first process (pid, name) and the first file path a text of captures
 * or watch lines names, for the views that want one: 0 if none. */
int fz_first_proc(const uint8_t *data, size_t n, int32_t *pid, char *name, size_t room);
int fz_first_path(const uint8_t *data, size_t n, char *path, size_t room);

#endif
