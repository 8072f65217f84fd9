/* stopat: run a program under ptrace and, when it is about to open a path, a shell command. */
/*
 * stopat - stop a program as it opens a path, run a command, let it go on
 *
 * usage: stopat [-a ARM] PATH CMD PROG [ARG...]
 *
 * PROG runs under ptrace. At the entry of an openat(2) whose path is PATH
 * (after one whose path is ARM, when -a is given) it is held there while
 * "sh -c CMD" runs to its end, then let go, untraced; the open then meets
 * whatever CMD did (a process killed, a directory removed). So a fault in
 * the middle of a scan is made at a known point, not hoped for. stderr gets
 * "stopat: stopped at PATH (CMD exit N)". Exit status: PROG's; 125 when
 * PROG never opened PATH (said), 126 on bad usage or a failed trace.
 */
#define _GNU_SOURCE
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef PTRACE_GET_SYSCALL_INFO
#define PTRACE_GET_SYSCALL_INFO	0x420e
#endif
#define SYSCALL_INFO_ENTRY	1

/* The kernel's struct ptrace_syscall_info (Linux 5.3), its entry part. */
struct sc_info {
	uint8_t op;
	uint8_t pad[3];
	uint32_t arch;
	uint64_t ip, sp;
	uint64_t nr;
	uint64_t args[6];
	uint64_t more[2];
};

static void bail(const char *what)
{
	fprintf(stderr, "stopat: %s: %s\n", what, strerror(errno));
	exit(126);
}

/* The path at addr in process pid's memory, into buf. */
static int peek_path(pid_t pid, uint64_t addr, char *buf, size_t len)
{
	char mem[64];
	ssize_t n;
	int fd;

	snprintf(mem, sizeof(mem), "/proc/%d/mem", (int)pid);
	if ((fd = open(mem, O_RDONLY)) < 0)
		return -1;
	n = pread(fd, buf, len - 1, (off_t)addr);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	return 0;
}

int main(int argc, char **argv)
{
	const char *arm = NULL, *path, *cmd;
	static char seen[4096];
	int status, armed, sig = 0, i = 1;
	pid_t pid;

	if (argc > 2 && strcmp(argv[1], "-a") == 0) {
		arm = argv[2];
		i = 3;
	}
	if (argc - i < 3) {
		fprintf(stderr, "usage: stopat [-a ARM] PATH CMD PROG [ARG...]\n");
		return 126;
	}
	path = argv[i];
	cmd = argv[i + 1];
	armed = arm == NULL;
	if ((pid = fork()) < 0)
		bail("fork");
	if (pid == 0) {
		if (ptrace(PTRACE_TRACEME, 0, NULL, NULL) < 0)
			bail("PTRACE_TRACEME");
		raise(SIGSTOP);
		execvp(argv[i + 2], argv + i + 2);
		bail(argv[i + 2]);
	}
	if (waitpid(pid, &status, 0) < 0 || !WIFSTOPPED(status))
		bail("waiting for the program to stop");
	if (ptrace(PTRACE_SETOPTIONS, pid, NULL, (void *)(long)(PTRACE_O_TRACESYSGOOD |
								   PTRACE_O_TRACEEXEC | PTRACE_O_EXITKILL)) < 0)
		bail("PTRACE_SETOPTIONS");
	for (;;) {
		struct sc_info si;

		if (ptrace(PTRACE_SYSCALL, pid, NULL, (void *)(long)sig) < 0)
			bail("PTRACE_SYSCALL");
		sig = 0;
		if (waitpid(pid, &status, 0) < 0)
			bail("waitpid");
		if (WIFEXITED(status) || WIFSIGNALED(status)) {
			fprintf(stderr, "stopat: %s never opened %s%s%s\n", argv[i + 2], path,
				armed ? "" : " after ", armed ? "" : arm);
			return 125;
		}
		if (!WIFSTOPPED(status))
			continue;
		if (WSTOPSIG(status) != (SIGTRAP | 0x80)) {
			/* a signal of its own is delivered; the exec's event stop not */
			sig = status >> 16 ? 0 : WSTOPSIG(status);
			continue;
		}
		memset(&si, 0, sizeof(si));
		if (ptrace(PTRACE_GET_SYSCALL_INFO, pid, (void *)sizeof(si), &si) < 0)
			bail("PTRACE_GET_SYSCALL_INFO");
		if (si.op != SYSCALL_INFO_ENTRY || si.nr != SYS_openat ||
		    peek_path(pid, si.args[1], seen, sizeof(seen)) < 0)
			continue;
		if (!armed) {
			armed = strcmp(seen, arm) == 0;
			continue;
		}
		if (strcmp(seen, path) == 0)
			break;
	}
	status = system(cmd);
	fprintf(stderr, "stopat: stopped at %s (CMD exit %d)\n", path,
		WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	if (ptrace(PTRACE_DETACH, pid, NULL, NULL) < 0)
		bail("PTRACE_DETACH");
	if (waitpid(pid, &status, 0) < 0)
		bail("waitpid");
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
