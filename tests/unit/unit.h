/* The unit tests' shared parts: the check, output captured, each file's tests. */
#ifndef UNIT_H
#define UNIT_H

#include <stddef.h>

/* unit.c: a case counted, said where it failed; fn's standard output in buf */
void check(int ok, const char *what, const char *detail);
size_t capture(void (*fn)(const void *), const void *arg, char *buf, size_t max);
void test_tables(void);

/* unit_text.c: numbers, maps lines, the line buffer, CSV, the page's texts */
void test_fmt_human(void);
void test_parse_numbers(void);
void test_maps_lines(void);
void test_linebuf(void);
void test_csv(void);
#ifndef EXMAP_NO_PICTURES
void test_js_str(void);
void test_page_unpack(void);
#endif

/* unit_pages.c: effective sizes, the page table, the arena, hidden mappers */
void test_eff(void);
void test_ptab(void);
void test_ptab_run(void);
void test_arena(void);
#ifndef EXMAP_NO_OUTSIDE
void test_outside(void);
#endif

/* unit_capture.c: the capture's wire format, its y lines, console logs */
void test_capwire(void);
#ifndef EXMAP_NO_CGROUPS
void test_cgroups(void);
#endif
void test_caplog(void);

/* unit_ram.c: the census of RAM, the kernel's memory by owner, DRM clients */
void test_census_infer(void);
void test_census_settle(void);
#ifndef EXMAP_NO_KOWNERS
void test_kowners(void);
#endif
#ifndef EXMAP_NO_DMABUF
void test_drm_lines(void);
void test_drm_capture(void);
#endif

/* unit_trend.c: the floor's slope, the trend's rows, watch-log definitions */
void test_envelope(void);
#ifndef EXMAP_NO_LOAD
void test_trend(void);
#endif
void test_wldef(void);

#endif
