/* mapfile: a process that maps a file shared and reads every page of it. */
/*
 * mapfile [-u] [-o] FILE: map FILE shared, read-only, read the first byte
 * of each of its pages, say "ready PID" on stdout and wait for SIGTERM or
 * SIGINT, then exit 0. -u: not dumpable first, so that only a reader with
 * CAP_SYS_PTRACE may read its /proc files (pid 1 of some machines is so).
 * -o: mapped a page off a 2 MiB boundary, so that no PMD can map a large
 * folio of it (a file on a tmpfs mounted huge=always): its PTEs do. Errors: "mapfile: what: errno", exit 1; misuse exit 2. Two of it,
 * one inside a PID namespace and one outside, share a file's pages.
 */
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	volatile unsigned long sum = 0;
	struct stat st;
	sigset_t stop;
	char *p, *at = NULL;
	off_t i;
	int fd, sig, off = 0;

	for (; argc > 2 && argv[1][0] == '-'; argv++, argc--) {
		if (strcmp(argv[1], "-u") == 0 && prctl(PR_SET_DUMPABLE, 0) == 0)
			continue;
		if (strcmp(argv[1], "-o") != 0)
			break;
		off = 1;
	}
	if (argc != 2) {
		fprintf(stderr, "usage: mapfile [-u] [-o] file\n");
		return 2;
	}
	sigemptyset(&stop);
	sigaddset(&stop, SIGTERM);
	sigaddset(&stop, SIGINT);
	sigprocmask(SIG_BLOCK, &stop, NULL);
	if ((fd = open(argv[1], O_RDONLY)) < 0 || fstat(fd, &st) < 0 || st.st_size == 0 ||
	    (off && (at = mmap(NULL, st.st_size + (4 << 20), PROT_NONE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)) == MAP_FAILED) ||
	    (p = mmap(off ? (char *)(((uintptr_t)at + (2 << 20)) & ~(uintptr_t)((2 << 20) - 1)) +
		      getpagesize() : NULL,
		      st.st_size, PROT_READ, MAP_SHARED | (off ? MAP_FIXED : 0), fd, 0)) == MAP_FAILED) {
		fprintf(stderr, "mapfile: %s: %s\n", argv[1], strerror(errno ? errno : EINVAL));
		return 1;
	}
	for (i = 0; i < st.st_size; i += getpagesize())
		sum += (unsigned char)p[i];
	printf("ready %d\n", (int)getpid());
	fflush(stdout);
	sigwait(&stop, &sig);
	return 0;
}
