/* twice OUT1 ERR1 OUT2 ERR2 PROG [ARG1...] -- [ARG2...]: run PROG ARG1...
 * (output to OUT1, errors to ERR1), then PROG ARG2... (OUT2, ERR2), from one
 * process whose pages stay as they are between the two runs.
 *
 * Two scans compared figure for figure need the same processes in the same
 * state. A shell that forks each run does not give that: fork write-protects
 * its pages, and which of them it writes again before the child scans is up
 * to the scheduler, so its writable figure (the PTE bit, as the module reads
 * it) moves between the runs. Here the shell forks once and waits; this
 * process starts both runs with posix_spawn (musl: clone with CLONE_VM and
 * CLONE_VFORK, so nothing is write-protected), after a first run of PROG -V
 * that touches every page the spawning and waiting touch.
 * Exit status: the second run's if the first ran, else 2. */
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static int run(char *const *argv, posix_spawn_file_actions_t *fa)
{
	pid_t pid;
	int status, err;

	err = posix_spawn(&pid, argv[0], fa, NULL, argv, environ);
	if (err != 0) {
		errno = err;	/* posix_spawn returns its error */
		return -1;
	}
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static int actions(posix_spawn_file_actions_t *fa, const char *out, const char *err)
{
	int o = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	int e = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (o < 0 || e < 0) {
		perror(o < 0 ? out : err);
		return -1;
	}
	if (posix_spawn_file_actions_init(fa) != 0 ||
	    posix_spawn_file_actions_adddup2(fa, o, 1) != 0 ||
	    posix_spawn_file_actions_adddup2(fa, e, 2) != 0)
		return -1;
	return 0;
}

int main(int argc, char **argv)
{
	static char *a1[64], *a2[64], *warm[3];
	posix_spawn_file_actions_t f0, f1, f2;
	int i, n1 = 0, n2 = 0, sep = 0;

	if (argc < 6)
		goto usage;
	a1[n1++] = a2[n2++] = argv[5];
	for (i = 6; i < argc; i++) {
		if (!sep && strcmp(argv[i], "--") == 0) {
			sep = 1;
			continue;
		}
		if (n1 >= 63 || n2 >= 63)
			goto usage;
		if (sep)
			a2[n2++] = argv[i];
		else
			a1[n1++] = argv[i];
	}
	if (!sep)
		goto usage;
	warm[0] = argv[5];
	warm[1] = "-V";
	if (actions(&f0, "/dev/null", "/dev/null") < 0 ||
	    actions(&f1, argv[1], argv[2]) < 0 || actions(&f2, argv[3], argv[4]) < 0)
		return 2;
	if (run(warm, &f0) < 0 || run(a1, &f1) < 0 || (i = run(a2, &f2)) < 0) {
		perror(argv[5]);
		return 2;
	}
	return i;
usage:
	fprintf(stderr, "usage: twice out1 err1 out2 err2 prog [arg1...] -- [arg2...]\n");
	return 2;
}
