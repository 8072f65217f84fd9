/* fixture_main: one process of the sections and symbols fixture. */
/*
 * fixture_main - one process of the sections and symbols fixture test
 *
 * usage: fixture_main
 *
 * Loads libfixture.so (linked against it, found through the rpath), has it
 * touch its arrays, then prints "ready PID PROBE" on stdout and waits until
 * it is killed, or its parent dies. PROBE is the address of a page of private
 * anonymous memory that was read but never written: it maps the shared zero
 * page, so the test learns the zero page's pfn from this process's pagemap
 * rather than assuming that read-only anonymous pages are not RAM.
 */
#include <sys/mman.h>
#include <sys/prctl.h>

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

void	fixture_touch(void);

int
main(void)
{
	volatile const char *probe;
	void *p;

	/*
	 * Die with the test: a test shell that is killed outright must not
	 * leave us waiting for ever. The alarm is the backstop for a test that
	 * hangs; the test itself takes seconds.
	 */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) == -1) {
		fprintf(stderr, "fixture_main: prctl: %s\n", strerror(errno));
		return 1;
	}
	alarm(600);

	p = mmap(NULL, (size_t)sysconf(_SC_PAGESIZE), PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		fprintf(stderr, "fixture_main: mmap: %s\n", strerror(errno));
		return 1;
	}
	probe = p;
	(void)probe[0];		/* a read fault: the zero page */

	fixture_touch();

	printf("ready %d %#lx\n", (int)getpid(), (unsigned long)p);
	if (fflush(stdout) == EOF) {
		fprintf(stderr, "fixture_main: stdout: %s\n", strerror(errno));
		return 1;
	}
	/* Nothing more may touch memory: the test reads it while we wait. */
	for (;;)
		pause();
}
