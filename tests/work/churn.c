/* churn: processes that fork, exit, mmap and munmap, for the module's stress test. */
/*
 * churn SECONDS: the module's stress load. Until SECONDS have passed, keep up
 * to four children that map, touch, partly discard and unmap anonymous memory
 * (some of it as transparent huge pages) and exit, while the parent remaps a
 * region of its own: processes and mappings come and go under the walk.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define HUGE	(2u << 20)

static void work(unsigned seed)
{
	int i;

	for (i = 0; i < 32; i++) {
		size_t len = (1 + rand_r(&seed) % 64) * 4096;
		char *p;

		if (i % 8 == 0)
			len = 2 * HUGE;
		p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			continue;
		if (len == 2 * HUGE)
			madvise(p, len, MADV_HUGEPAGE);
		memset(p, i + 1, len);
		if (rand_r(&seed) % 2)
			madvise(p, len / 2, MADV_DONTNEED);
		if (rand_r(&seed) % 2)
			mprotect(p, len / 4, PROT_READ);
		munmap(p, len);
	}
}

int main(int argc, char **argv)
{
	time_t end;
	unsigned seed = getpid();
	int live = 0, forks = 0;

	if (argc != 2 || atoi(argv[1]) <= 0) {
		fprintf(stderr, "usage: churn seconds\n");
		return 2;
	}
	end = time(NULL) + atoi(argv[1]);
	while (time(NULL) < end) {
		pid_t pid;

		while (live > 0 && waitpid(-1, NULL, live >= 4 ? 0 : WNOHANG) > 0)
			live--;
		if (live >= 4)
			continue;
		if ((pid = fork()) == 0) {
			work(seed + forks);
			_exit(0);
		}
		if (pid > 0) {
			live++;
			forks++;
		}
		work(seed ^ forks);
	}
	while (wait(NULL) > 0)
		;
	printf("churn: %d processes in %s s\n", forks, argv[1]);
	return 0;
}
