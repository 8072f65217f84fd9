/* runstat: run a command, and append its exit, wall time and peak RSS to a file. */
/*
 * runstat - run a command, append "EXIT WALL_SECONDS MAXRSS_KIB" to a file
 *
 * usage: runstat OUTFILE CMD [ARGS...]
 *
 * The command's stdout goes to /dev/null so that printing its report costs
 * it nothing visible; stderr is left alone. EXIT is the command's exit
 * status, or 128 + N when killed by signal N, and runstat exits with it;
 * runstat's own failures exit 2.
 */
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char *prog = "runstat";

static void __attribute__((noreturn))
die(const char *what, const char *name)
{
	fprintf(stderr, "%s: %s %s: %s\n", prog, what, name, strerror(errno));
	_exit(2);
}

static double
now(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts) == -1)
		die("clock_gettime", "CLOCK_MONOTONIC");
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* In the child: stdout to /dev/null, then become the command. */
static void __attribute__((noreturn))
run(char **argv)
{
	int fd;

	if ((fd = open("/dev/null", O_WRONLY)) == -1)
		die("open", "/dev/null");
	if (dup2(fd, STDOUT_FILENO) == -1)
		die("dup2", "/dev/null");
	if (fd != STDOUT_FILENO && close(fd) == -1)
		die("close", "/dev/null");
	execvp(argv[0], argv);
	fprintf(stderr, "%s: exec %s: %s\n", prog, argv[0], strerror(errno));
	_exit(127);
}

int
main(int argc, char **argv)
{
	struct rusage ru;
	double t0, t1;
	pid_t pid;
	int fd, st, code;

	if (argc < 3) {
		fprintf(stderr, "usage: %s outfile cmd [args...]\n", prog);
		return 2;
	}
	/* Open first: a bad OUTFILE should not cost a whole run. */
	fd = open(argv[1], O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd == -1)
		die("open", argv[1]);

	t0 = now();
	if ((pid = fork()) == -1)
		die("fork", argv[2]);
	if (pid == 0)
		run(argv + 2);
	while (wait4(pid, &st, 0, &ru) == -1)
		if (errno != EINTR)
			die("wait4", argv[2]);
	t1 = now();

	if (WIFEXITED(st))
		code = WEXITSTATUS(st);
	else if (WIFSIGNALED(st))
		code = 128 + WTERMSIG(st);
	else
		code = 2;
	if (dprintf(fd, "%d %.6f %ld\n", code, t1 - t0, ru.ru_maxrss) < 0)
		die("write", argv[1]);
	if (close(fd) == -1)
		die("close", argv[1]);
	return code;
}
