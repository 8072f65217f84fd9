/* runas UID CMD [ARG...]: run CMD as UID (and group UID), with no groups and
 * no capabilities: a non-root user, in a busybox guest that has no su. */
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int id;

	if (argc < 3 || (id = atoi(argv[1])) <= 0) {
		fprintf(stderr, "usage: runas uid cmd [arg...]\n");
		return 2;
	}
	if (setgroups(0, NULL) < 0 || setgid(id) < 0 || setuid(id) < 0) {
		perror("runas");
		return 2;
	}
	execv(argv[2], argv + 2);
	perror(argv[2]);
	return 127;
}
