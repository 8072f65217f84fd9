/* cgwork: a process that maps a file shared and touches every page, then waits. */
/*
 * cgwork - map a file shared, touch each of its pages, wait
 *
 * usage: cgwork FILE KIB w|r
 *
 * w: FILE is created (truncated) at KIB KiB and every page written, so that
 * its pages are first touched here: on a tmpfs their charge goes to this
 * process's cgroup. r: FILE, made by another, is mapped and every page read
 * (mapped, not charged again). Then "ready PID" on stdout, and the process
 * waits until killed. Errors: "cgwork: what: errno", exit 1; misuse exit 2.
 */
#include <sys/mman.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void fail(const char *what, const char *path)
{
	fprintf(stderr, "cgwork: %s %s: %s\n", what, path, strerror(errno));
	exit(1);
}

int main(int argc, char **argv)
{
	long page = sysconf(_SC_PAGESIZE);
	unsigned long kib, i, sum = 0;
	size_t len;
	char *end, *p;
	int fd, w;

	if (argc != 4 || (strcmp(argv[3], "w") && strcmp(argv[3], "r")) ||
	    (kib = strtoul(argv[2], &end, 10)) == 0 || *end || kib * 1024 % (unsigned long)page) {
		fprintf(stderr, "usage: cgwork FILE KIB w|r (KIB a multiple of the page)\n");
		return 2;
	}
	w = argv[3][0] == 'w';
	len = kib * 1024;
	if ((fd = open(argv[1], w ? O_RDWR | O_CREAT | O_TRUNC : O_RDONLY, 0600)) < 0)
		fail("open", argv[1]);
	if (w && ftruncate(fd, (off_t)len) < 0)
		fail("ftruncate", argv[1]);
	p = mmap(NULL, len, w ? PROT_READ | PROT_WRITE : PROT_READ, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		fail("mmap", argv[1]);
	close(fd);
	for (i = 0; i < len; i += (unsigned long)page) {
		if (w)
			p[i] = (char)(1 + i / (unsigned long)page % 251);
		sum += (unsigned char)p[i];
	}
	printf("ready %d %lu\n", (int)getpid(), sum);
	fflush(stdout);
	for (;;)
		pause();
}
