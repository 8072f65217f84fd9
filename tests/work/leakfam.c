/* leakfam: a forked family that dirties a shared library's .bss at a known rate. */
/*
 * leakfam - leaks in a library's writable data, in a forked family
 *
 * usage: leakfam [-n children] [-r kib_per_s]
 *
 * Linked with libxmleak.so (tests/work/xmleak.c): the parent forks CHILDREN
 * (-n, 3); each writes all of the library's .data at once (a steady private
 * copy) and then, from the moment it is set up (just before the parent
 * says "ready PARENT CHILD..."), the library's .bss at KIB_PER_S (-r, 32)
 * kibibytes a second (wl_pace). So the
 * family's eff_resident, and the library's, grow at CHILDREN * KIB_PER_S a
 * second, all of it in the library's .bss; its heap stays as it is. Ends on
 * SIGTERM or SIGINT, the children with it.
 */
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "wl.h"

#define MAXCHILD	64
#define USAGE		"[-n children] [-r kib_per_s]"

unsigned char	*xmleak_region(size_t *len);
void		 xmleak_data_touch(void);

static void
child(int k, void *arg)
{
	size_t len;
	unsigned char *p = xmleak_region(&len);

	(void)k;
	xmleak_data_touch();
	wl_pace((char *)p, len, *(double *)arg, 0);
}

int
main(int argc, char **argv)
{
	long long n = 3, rate = 32;
	double bps;
	sigset_t stop;
	int ch;

	wl_init("leakfam");
	while ((ch = getopt(argc, argv, "n:r:")) != -1) {
		switch (ch) {
		case 'n': n = wl_num(optarg, ch, 1, MAXCHILD, 1); break;
		case 'r': rate = wl_num(optarg, ch, 1, 1 << 20, 1); break;
		default: wl_usage(USAGE);
		}
	}
	if (optind != argc)
		wl_usage(USAGE);
	bps = rate * 1024.0;
	wl_block(&stop);
	if ((wl_kids = calloc(n, sizeof(*wl_kids))) == NULL)
		wl_die("calloc");
	wl_spawn(n, child, &bps);
	wl_ready();
	wl_wait(&stop);
	return 0;
}
