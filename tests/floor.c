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

static int
put(int fd, const char *s)
{
	size_t n = strlen(s);
	ssize_t w;

	while (n > 0) {
		if ((w = write(fd, s, n)) == -1 && errno != EINTR)
			return -1;
		if (w > 0) {
			s += w;
			n -= w;
		}
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

/* "floor: WHAT NAME: strerror" on stderr; the run still goes on. */
static void
warn(const char *what, const char *name, int err)
{
	/* Nowhere left to report a failing stderr. */
	(void)(put(2, "floor: ") | put(2, what) | put(2, " ") | put(2, name) |
	    put(2, ": ") | put(2, strerror(err)) | put(2, "\n"));
	status = 1;
}

static void
xclose(int fd, const char *pid)
{
	if (close(fd) == -1)
		warn("close", pid, errno);
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

static unsigned long
hex(const char **sp)
{
	const char *s = *sp;
	unsigned long v = 0;
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
region(int fd, unsigned long start, unsigned long end, const char *pid)
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
				warn("pread pagemap", pid, errno);
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
	unsigned long start, end;
	const char *p, *nl;
	int mfd, pfd, have_any = 0;
	ssize_t r;

	if ((mfd = openat(dfd, "maps", O_RDONLY | O_CLOEXEC)) == -1) {
		if (!gone(errno))
			warn("open maps", pid, errno);
		return;
	}
	if ((pfd = openat(dfd, "pagemap", O_RDONLY | O_CLOEXEC)) == -1) {
		if (!gone(errno))
			warn("open pagemap", pid, errno);
		xclose(mfd, pid);
		return;
	}
	for (;;) {
		r = read(mfd, maps + have, sizeof(maps) - have);
		if (r == -1 && errno == EINTR)
			continue;
		if (r == -1 && !gone(errno))
			warn("read maps", pid, errno);
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
			warn("read maps", pid, ENAMETOOLONG);
			break;
		}
	}
out:
	nproc += have_any;
	xclose(pfd, pid);
	xclose(mfd, pid);
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
					warn("open /proc", d->d_name, errno);
				continue;
			}
			process(dfd, d->d_name);
			xclose(dfd, d->d_name);
		}
	}
	if (n == -1)
		warn("getdents64", "/proc", errno);
}

int
main(void)
{
	char b1[24], b2[24], b3[24], b4[24];
	long ps;
	int procfd, err;

	if ((ps = sysconf(_SC_PAGESIZE)) == -1) {
		warn("sysconf", "_SC_PAGESIZE", errno);
		return 2;
	}
	pagesz = ps;
	if ((procfd = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC)) == -1) {
		warn("open", "/proc", errno);
		return 2;
	}
	scan(procfd, getpid());
	err = put(1, "floor: processes ");
	err |= put(1, fmtnum(nproc, 10, b1 + sizeof(b1)));
	err |= put(1, " entries ");
	err |= put(1, fmtnum(nent, 10, b2 + sizeof(b2)));
	err |= put(1, " denied ");
	err |= put(1, fmtnum(ndenied, 10, b4 + sizeof(b4)));
	err |= put(1, " checksum ");
	err |= put(1, fmtnum(sum, 16, b3 + sizeof(b3)));
	err |= put(1, "\n");
	if (err) {
		warn("write", "stdout", errno);
		return 2;
	}
	return status;
}
