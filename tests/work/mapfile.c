/* mapfile: a process that maps a file shared and reads every page of it. */
/*
 * mapfile [-u] FILE: map FILE shared, read-only, read the first byte of
 * each of its pages, say "ready PID" on stdout and wait for SIGTERM or
 * SIGINT, then exit 0. -u: not dumpable first, so that only a reader with
 * CAP_SYS_PTRACE may read its /proc files (pid 1 of some machines is so). Errors: "mapfile: what: errno", exit 1; misuse exit 2. Two of it,
 * one inside a PID namespace and one outside, share a file's pages.
 */
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	volatile unsigned long sum = 0;
	struct stat st;
	sigset_t stop;
	char *p;
	off_t i;
	int fd, sig;

	if (argc == 3 && strcmp(argv[1], "-u") == 0 && prctl(PR_SET_DUMPABLE, 0) == 0)
		argv++, argc--;
	if (argc != 2) {
		fprintf(stderr, "usage: mapfile [-u] file\n");
		return 2;
	}
	sigemptyset(&stop);
	sigaddset(&stop, SIGTERM);
	sigaddset(&stop, SIGINT);
	sigprocmask(SIG_BLOCK, &stop, NULL);
	if ((fd = open(argv[1], O_RDONLY)) < 0 || fstat(fd, &st) < 0 || st.st_size == 0 ||
	    (p = mmap(NULL, st.st_size, PROT_READ, MAP_SHARED, fd, 0)) == MAP_FAILED) {
		fprintf(stderr, "mapfile: %s: %s\n", argv[1], strerror(errno ? errno : EINVAL));
		return 1;
	}
	for (i = 0; i < st.st_size; i += 4096)
		sum += (unsigned char)p[i];
	printf("ready %d\n", (int)getpid());
	fflush(stdout);
	sigwait(&stop, &sig);
	return 0;
}
