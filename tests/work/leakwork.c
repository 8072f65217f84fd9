/* leakwork: one process whose memory grows, saws or stays, at a known rate. */
/*
 * leakwork - memory that grows at a known rate, for the trend's tests
 *
 * usage: leakwork [-r kib_per_s] [-s kib] [-t period_ms] [-d dir]
 *                 heap|anon|file|saw|steady
 *
 * From the moment it says "ready PID", the process writes pages of one
 * region of KIB (-s, 65536) at KIB_PER_S (-r, 64) kibibytes a second, on a
 * timer (wl_pace), until SIGTERM or SIGINT:
 *	heap	the region is the heap, grown with brk: [heap] grows
 *	anon	an anonymous mapping of its own: other anonymous memory grows
 *	file	a sparse file in DIR (-d, /dev/shm: tmpfs) mapped shared: the
 *		file's resident pages grow, and the process's with them
 *	saw	anonymous, given back every PERIOD_MS (-t, 4000) and written
 *		again: a sawtooth of height KIB_PER_S * PERIOD_MS / 1000
 *		whose floor is flat
 *	steady	anonymous, all KIB written at once, then nothing
 * A region written whole stops growing: choose KIB for the run's length.
 */
#include <sys/mman.h>
#include <sys/syscall.h>

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "wl.h"

#define MAXKIB		(4LL * 1024 * 1024)	/* 4 GiB */
#define USAGE		"[-r kib_per_s] [-s kib] [-t period_ms] [-d dir] " \
			"heap|anon|file|saw|steady"

int
main(int argc, char **argv)
{
	static char path[PATH_MAX];		/* the file's, to unlink */
	long long rate = 64, kib = 65536, period = 4000, pk;
	const char *dir = "/dev/shm", *mode;
	sigset_t stop;
	size_t len;
	char *p;
	int ch;

	wl_init("leakwork");
	wl_path = path;
	pk = wl_pagesz / 1024;
	while ((ch = getopt(argc, argv, "r:s:t:d:")) != -1) {
		switch (ch) {
		case 'r': rate = wl_num(optarg, ch, 1, MAXKIB, 1); break;
		case 's': kib = wl_num(optarg, ch, pk, MAXKIB, pk); break;
		case 't': period = wl_num(optarg, ch, 10, 86400000, 1); break;
		case 'd': dir = optarg; break;
		default: wl_usage(USAGE);
		}
	}
	if (optind != argc - 1)
		wl_usage(USAGE);
	mode = argv[optind];
	len = (size_t)kib * 1024;
	wl_block(&stop);
	if (strcmp(mode, "heap") == 0) {
		/* brk itself: musl's sbrk grows nothing */
		p = (char *)syscall(SYS_brk, 0);
		if ((char *)syscall(SYS_brk, p + len) != p + len)
			wl_die("brk %zu", len);
	} else if (strcmp(mode, "file") == 0) {
		p = wl_sparse_file(dir, len);
	} else if (strcmp(mode, "anon") == 0 || strcmp(mode, "saw") == 0 ||
	    strcmp(mode, "steady") == 0) {
		p = wl_anon(len, wl_pagesz, PROT_READ | PROT_WRITE);
	} else {
		wl_usage(USAGE);
	}
	if (strcmp(mode, "steady") == 0)
		memset(p, 1, len);
	wl_ready();
	if (strcmp(mode, "steady") != 0)
		wl_pace(p, len, rate * 1024.0, strcmp(mode, "saw") == 0 ?
		    period : 0);
	wl_wait(&stop);
	return 0;
}
