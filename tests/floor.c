/*
 * floor - the least work any pagemap reader must do, as a speed reference
 *
 * For every process but this one, read /proc/PID/maps and every pagemap
 * entry of every mapping, 8192 entries per pread, and fold the entries into
 * a checksum so none of it can be optimised away. No stdio, no malloc: the
 * static musl binary should cost close to nothing beyond the syscalls.
 */
#include <sys/syscall.h>
#include <sys/types.h>

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#define NENT	8192		/* pagemap entries per pread */

struct dent64 {
	uint64_t	d_ino;
	int64_t		d_off;
	unsigned short	d_reclen;
	unsigned char	d_type;
	char		d_name[];
};

static uint64_t	pm[NENT];		/* 64 KiB of pagemap entries */
static char	maps[64 * 1024];	/* longer than any maps line */
static char	dents[32 * 1024];
static uint64_t	sum, nent, nproc, ndenied;
static unsigned long pagesz;
static int	status;

/* Write the NULL-ended list of strings to fd in one go. */
static int __attribute__((sentinel))
say(int fd, ...)
{
	char buf[512];
	const char *s;
	size_t n = 0, off = 0;
	ssize_t w;
	va_list ap;

	va_start(ap, fd);
	while ((s = va_arg(ap, const char *)) != NULL)
		while (*s != '\0' && n < sizeof(buf))
			buf[n++] = *s++;
	va_end(ap);
	while (off < n) {
		if ((w = write(fd, buf + off, n - off)) == -1) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		off += w;
	}
	return 0;
}

static char *
fmtnum(uint64_t v, unsigned base, char *end)
{
	*--end = '\0';
	do
		*--end = "0123456789abcdef"[v % base];
	while ((v /= base) != 0);
	return end;
}

/* "floor: OP /proc/PID/FILE: why" (just "OP" if no pid); the scan goes on. */
static void
warn(const char *op, const char *pid, const char *file, int err)
{
	/* Nowhere left to report a failing stderr. */
	if (pid == NULL)
		(void)say(2, "floor: ", op, ": ", strerror(err), "\n",
		    (char *)NULL);
	else
		(void)say(2, "floor: ", op, " /proc/", pid, *file ? "/" : "",
		    file, ": ", strerror(err), "\n", (char *)NULL);
	status = 1;
}

static void
xclose(int fd, const char *pid, const char *file)
{
	if (close(fd) == -1)
		warn("close", pid, file, errno);
}

/*
 * A process that exits while we look is no error, just skipped; so is one
 * we may not inspect (a more privileged supervisor), but it is counted.
 */
static int
gone(int err)
{
	if (err == EACCES || err == EPERM)
		ndenied++;
	return err == ENOENT || err == ESRCH || err == EACCES || err == EPERM;
}

static int
numeric(const char *s)
{
	if (*s == '\0')
		return 0;
	for (; *s != '\0'; s++)
		if (*s < '0' || *s > '9')
			return 0;
	return 1;
}

/* 64-bit even on 32-bit builds: qemu-user may show them a 64-bit /proc. */
static uint64_t
hex(const char **sp)
{
	const char *s = *sp;
	uint64_t v = 0;
	int d;

	for (;; s++) {
		if (*s >= '0' && *s <= '9')
			d = *s - '0';
		else if (*s >= 'a' && *s <= 'f')
			d = *s - 'a' + 10;
		else
			break;
		v = v << 4 | d;
	}
	*sp = s;
	return v;
}

/* Read the pagemap entries of [start, end); -1 when the process is gone. */
static int
region(int fd, uint64_t start, uint64_t end, const char *pid)
{
	uint64_t vpn = start / pagesz, last = end / pagesz;
	size_t n, i;
	ssize_t r;

	while (vpn < last) {
		n = last - vpn < NENT ? last - vpn : NENT;
		r = pread(fd, pm, n * 8, vpn * 8);
		if (r == -1 && errno == EINTR)
			continue;
		if (r == -1) {
			if (!gone(errno))
				warn("pread", pid, "pagemap", errno);
			return -1;
		}
		if (r < 8)	/* [vsyscall]: beyond what pagemap covers */
			return 0;
		for (i = 0; i < (size_t)r / 8; i++)
			sum ^= pm[i];
		nent += r / 8;
		vpn += r / 8;
	}
	return 0;
}

/* Walk maps line by line, carrying a partial line over to the next read. */
static void
process(int dfd, const char *pid)
{
	size_t have = 0, len;
	uint64_t start, end;
	const char *p, *nl;
	int mfd, pfd, have_any = 0;
	ssize_t r;

	if ((mfd = openat(dfd, "maps", O_RDONLY | O_CLOEXEC)) == -1) {
		if (!gone(errno))
			warn("open", pid, "maps", errno);
		return;
	}
	if ((pfd = openat(dfd, "pagemap", O_RDONLY | O_CLOEXEC)) == -1) {
		if (!gone(errno))
			warn("open", pid, "pagemap", errno);
		xclose(mfd, pid, "maps");
		return;
	}
	for (;;) {
		r = read(mfd, maps + have, sizeof(maps) - have);
		if (r == -1 && errno == EINTR)
			continue;
		if (r == -1 && !gone(errno))
			warn("read", pid, "maps", errno);
		if (r <= 0)
			break;
		have += r;
		for (p = maps; (nl = memchr(p, '\n', have - (p - maps)));
		    p = nl + 1) {
			start = hex(&p);
			p++;
			end = hex(&p);
			have_any = 1;
			if (region(pfd, start, end, pid) == -1)
				goto out;
		}
		len = have - (p - maps);
		memmove(maps, p, len);
		have = len;
		if (have == sizeof(maps)) {
			warn("read", pid, "maps", ENAMETOOLONG);
			break;
		}
	}
out:
	nproc += have_any;
	xclose(pfd, pid, "pagemap");
	xclose(mfd, pid, "maps");
}

static void
scan(int procfd, pid_t self)
{
	char selfname[24], *me = fmtnum(self, 10, selfname + sizeof(selfname));
	struct dent64 *d;
	long n, off;
	int dfd;

	while ((n = syscall(SYS_getdents64, procfd, dents, sizeof(dents))) > 0) {
		for (off = 0; off < n; off += d->d_reclen) {
			d = (struct dent64 *)(dents + off);
			if (!numeric(d->d_name) || strcmp(d->d_name, me) == 0)
				continue;
			dfd = openat(procfd, d->d_name,
			    O_RDONLY | O_DIRECTORY | O_CLOEXEC);
			if (dfd == -1) {
				if (!gone(errno))
					warn("open", d->d_name, "", errno);
				continue;
			}
			process(dfd, d->d_name);
			xclose(dfd, d->d_name, "");
		}
	}
	if (n == -1)
		warn("getdents64 /proc", NULL, NULL, errno);
}

int
main(void)
{
	char b1[24], b2[24], b3[24], b4[24];
	long ps;
	int procfd;

	if ((ps = sysconf(_SC_PAGESIZE)) == -1) {
		warn("sysconf _SC_PAGESIZE", NULL, NULL, errno);
		return 2;
	}
	pagesz = ps;
	if ((procfd = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC)) == -1) {
		warn("open /proc", NULL, NULL, errno);
		return 2;
	}
	scan(procfd, getpid());
	if (say(1, "floor: processes ", fmtnum(nproc, 10, b1 + sizeof(b1)),
	    " entries ", fmtnum(nent, 10, b2 + sizeof(b2)),
	    " denied ", fmtnum(ndenied, 10, b3 + sizeof(b3)),
	    " checksum ", fmtnum(sum, 16, b4 + sizeof(b4)), "\n",
	    (char *)NULL) == -1) {
		warn("write stdout", NULL, NULL, errno);
		return 2;
	}
	return status;
}
