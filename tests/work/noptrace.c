/* noptrace CMD [ARG...]: run CMD without CAP_SYS_PTRACE (dropped from the
 * bounding set, so that root's exec leaves it out): a reader that may not
 * read a process which is not dumpable, as pid 1 of some machines is not. */
#include <stdio.h>
#include <sys/prctl.h>
#include <unistd.h>

#define CAP_SYS_PTRACE	19	/* linux/capability.h */

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: noptrace cmd [arg...]\n");
		return 2;
	}
	if (prctl(PR_CAPBSET_DROP, CAP_SYS_PTRACE, 0, 0, 0) < 0) {
		perror("noptrace: PR_CAPBSET_DROP");
		return 2;
	}
	execv(argv[1], argv + 1);
	perror(argv[1]);
	return 127;
}
