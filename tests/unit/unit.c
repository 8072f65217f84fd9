/* Unit tests of exmap-mini's pieces, as tables of cases. */
/*
 * Unit tests for exmap-mini's pieces, a file an area of src/ (unit.h lists
 * them): text in and out, the page table and the arena, the capture's wire
 * format and console logs, the census of RAM and the kernel's memory, the
 * trend; here the check, output captured, the tables of views and options,
 * and main. Cases are tables; the last line is "N passed, N failed".
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "unit.h"

static int passed, failed;

void check(int ok, const char *what, const char *detail)
{
	if (ok) {
		passed++;
		return;
	}
	failed++;
	printf("FAIL %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
}

/* Run fn with standard output going to a pipe; what it wrote, in buf. */
size_t capture(void (*fn)(const void *), const void *arg, char *buf, size_t max)
{
	int p[2], saved = dup(1);
	ssize_t n;
	size_t len = 0;

	if (pipe(p) < 0 || saved < 0) {
		perror("pipe");
		_exit(2);
	}
	dup2(p[1], 1);
	fn(arg);
	out_flush();
	dup2(saved, 1);
	close(saved);
	close(p[1]);
	while ((n = read(p[0], buf + len, max - 1 - len)) > 0)
		len += n;
	close(p[0]);
	buf[len] = '\0';
	return len;
}

/*
 * The tables of views and options hold together: a variant follows its
 * view; the option a view needs is one it takes; a view has fields to sort
 * by exactly when it takes -s; a view has its function where the build
 * has it; every option a view takes is in the table, with help where the
 * build has it; an option needs, or does not go with, another.
 */
void test_tables(void)
{
	char what[80];
	size_t i;
	int j;

	for (i = 0; i < nviews; i++) {
		const struct viewdef *v = &views[i];

		fmt_snprintf(what, sizeof(what), "views[%zu] (%s)", i, v->text);
		check(v->as == AS_NAME || (i > 0 && strcmp(views[i - 1].text, v->text) == 0), what,
		      "a variant follows its view");
		check(v->needs < 0 || (v->opts >> v->needs & 1), what, "it takes the option it needs");
		check(!(v->opts & OPT(s)) == !v->sorts, what, "fields to sort by, and -s, or neither");
		check(v->min <= v->max && v->forms && v->view <= V_CGROUPS, what, "words, forms, view");
		check(!(v->build & ~BUILT) == (v->run != NULL), what,
		      "a function where the build has it, none where it leaves it out");
		check(!(v->opts >> NOPT), what, "its options are in the table");
	}
	for (j = 0; j < NOPT; j++) {
		const char *name = cli_opts[j].text;

		fmt_snprintf(what, sizeof(what), "cli_opts[%d] (%s)", j, name);
		check(*name && ((cli_opts[j].build & ~BUILT) || j == O_s || *field(name, T_HELP)), what,
		      "a name, and help where the build has it");
		check(cli_opts[j].needs != j && cli_opts[j].not != j && cli_opts[j].needs < NOPT &&
		      cli_opts[j].not < NOPT, what, "needs or refuses another option");
		check((cli_opts[j].needs < 0 && cli_opts[j].not < 0) ||
		      *field(cli_opts[cli_opts[j].needs >= 0 ? j : cli_opts[j].not].text, T_WHY) ||
		      (cli_opts[j].build & ~BUILT), what, "why, where it needs or refuses another");
	}
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	test_fmt_human();
	test_parse_numbers();
	test_maps_lines();
	test_linebuf();
	test_csv();
#ifndef EXMAP_NO_PICTURES
	test_js_str();
	test_page_unpack();
#endif
	test_eff();
	test_ptab();
	test_ptab_run();
#ifndef EXMAP_NO_OUTSIDE
	test_outside();
#endif
	test_arena();
	test_capwire();
#ifndef EXMAP_NO_CGROUPS
	test_cgroups();
#endif
	test_caplog();
	test_census_infer();
	test_census_settle();
	test_envelope();
#ifndef EXMAP_NO_LOAD
	test_trend();
#endif
	test_wldef();
#ifndef EXMAP_NO_KOWNERS
	test_kowners();
#endif
	test_tables();
#ifndef EXMAP_NO_DMABUF
	test_drm_lines();
	test_drm_capture();
#endif
	printf("%d passed, %d failed\n", passed, failed);
	return failed != 0;
}
