/* floor: the least work a pagemap reader must do, as the benchmark's reference. */
/*
 * floor - the least work any pagemap reader must do, as a speed reference
 *
 * usage: floor [-s] [-p pid[,pid...]]
 *
 * For every process but this one (-p: for those named), read
 * /proc/PID/maps and every pagemap entry of every mapping, 8192 entries per
 * pread, and fold the entries into a checksum so none of it can be
 * optimised away. With -s, the populated-ranges floor: for each mapping
 * the PAGEMAP_SCAN ioctl (Linux 6.7+) gives the ranges of present or
 * swapped pages, and only their entries are read, ranges less than GAP
 * entries apart in one pread. No stdio, no malloc: the static musl binary
 * should cost close to nothing beyond the syscalls.
 * Exit 0, 1 if some process could not be read (a named one gone or
 * refused), 2 on misuse or a fatal error, 3 if the kernel lacks
 * PAGEMAP_SCAN (-s).
 */
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/types.h>

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#if defined(__has_include)
#if __has_include(<linux/fs.h>)
#include <linux/fs.h>
#endif
#endif

/* The PAGEMAP_SCAN interface, from the kernel's uapi linux/fs.h (6.7). */
#ifndef PAGEMAP_SCAN
#define PAGE_IS_PRESENT	(1 << 3)
#define PAGE_IS_SWAPPED	(1 << 4)

struct page_region {
	uint64_t	start;
	uint64_t	end;
	uint64_t	categories;
};

struct pm_scan_arg {
	uint64_t	size;
	uint64_t	flags;
	uint64_t	start;
	uint64_t	end;
	uint64_t	walk_end;
	uint64_t	vec;
	uint64_t	vec_len;
	uint64_t	max_pages;
	uint64_t	category_inverted;
	uint64_t	category_mask;
	uint64_t	category_anyof_mask;
	uint64_t	return_mask;
};

#define PAGEMAP_SCAN	_IOWR('f', 16, struct pm_scan_arg)
#endif

#define NENT	8192		/* pagemap entries per pread */
#define NREG	1024		/* -s: ranges per PAGEMAP_SCAN call */
#define GAP	256		/* -s: entries between ranges read through */
#define MAXPIDS	64		/* -p: processes named */
#define PIDMAX	4194304		/* the kernel's PID_MAX_LIMIT */

#define EXIT_PARTIAL	1
#define EXIT_FATAL	2
#define EXIT_NOSCAN	3

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
static struct page_region regs[NREG];	/* -s: 24 KiB of ranges */
static char	pids[MAXPIDS][12];	/* -p, as /proc names them */
static int	npids;
static uint64_t	sum, nent, nproc, ndenied, nrange, nscan;
static unsigned long pagesz;
static int	status, scanmode;

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

static void __attribute__((noreturn))
usage(void)
{
	(void)say(2, "usage: floor [-s] [-p pid[,pid...]]\n", (char *)NULL);
	_exit(EXIT_FATAL);
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
	status = EXIT_PARTIAL;
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

/*
 * -s: the populated ranges of [start, end) from PAGEMAP_SCAN, and the
 * entries of those alone; ranges closer than GAP entries share one read,
 * as one pread costs more than a few entries more. -1 as for region().
 */
static int
populated(int fd, uint64_t start, uint64_t end, const char *pid)
{
	struct pm_scan_arg arg;
	uint64_t rs = 0, re = 0;	/* the range to read, [rs, re) */
	long n, i;

	memset(&arg, 0, sizeof(arg));
	arg.size = sizeof(arg);
	arg.start = start;
	arg.end = end;
	arg.vec = (uintptr_t)regs;
	arg.vec_len = NREG;
	arg.category_anyof_mask = PAGE_IS_PRESENT | PAGE_IS_SWAPPED;
	arg.return_mask = PAGE_IS_PRESENT | PAGE_IS_SWAPPED;
	for (;;) {
		n = ioctl(fd, PAGEMAP_SCAN, &arg);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1 && (errno == ENOTTY || errno == EINVAL)) {
			(void)say(2, "floor: PAGEMAP_SCAN: not in this kernel "
			    "(Linux 6.7 and later have it): ", strerror(errno),
			    "\n", (char *)NULL);
			_exit(EXIT_NOSCAN);
		}
		if (n == -1 && errno == EFAULT)	/* [vsyscall]: not user space */
			break;
		if (n == -1) {
			if (!gone(errno))
				warn("ioctl PAGEMAP_SCAN", pid, "pagemap", errno);
			return -1;
		}
		nscan++;
		for (i = 0; i < n; i++) {
			if (re != 0 && regs[i].start - re < GAP * pagesz) {
				re = regs[i].end;
				continue;
			}
			if (re != 0 && region(fd, rs, re, pid) == -1)
				return -1;
			rs = regs[i].start;
			re = regs[i].end;
			nrange++;
		}
		if (arg.walk_end >= end)
			break;
		if (arg.walk_end <= arg.start) {
			(void)say(2, "floor: ioctl PAGEMAP_SCAN /proc/", pid,
			    "/pagemap: the walk did not advance\n", (char *)NULL);
			status = EXIT_PARTIAL;
			return -1;
		}
		arg.start = arg.walk_end;
	}
	return re != 0 ? region(fd, rs, re, pid) : 0;
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
			if ((scanmode ? populated(pfd, start, end, pid) :
			    region(pfd, start, end, pid)) == -1)
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

/* -p: the processes named, each of which must be there to read. */
static void
named(int procfd)
{
	uint64_t before;
	int i, dfd;

	for (i = 0; i < npids; i++) {
		dfd = openat(procfd, pids[i], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (dfd == -1) {
			warn("open", pids[i], "", errno);
			continue;
		}
		before = nproc;
		process(dfd, pids[i]);
		xclose(dfd, pids[i], "");
		if (nproc == before) {
			(void)say(2, "floor: /proc/", pids[i], ": not read\n",
			    (char *)NULL);
			status = EXIT_PARTIAL;
		}
	}
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

/* -p pid[,pid...]: each a decimal in [1, PIDMAX], MAXPIDS at most. */
static void
pidlist(const char *s)
{
	uint64_t v;
	const char *p;
	char *q;

	for (p = s;; p++) {
		for (v = 0; *p >= '0' && *p <= '9' && v <= PIDMAX; p++)
			v = v * 10 + (*p - '0');
		if (v < 1 || v > PIDMAX || (*p != ',' && *p != '\0')) {
			(void)say(2, "floor: -p ", s, ": want process ids in "
			    "[1, 4194304], comma-separated\n", (char *)NULL);
			_exit(EXIT_FATAL);
		}
		if (npids == MAXPIDS) {
			(void)say(2, "floor: -p ", s, ": more than MAXPIDS "
			    "(64) processes\n", (char *)NULL);
			_exit(EXIT_FATAL);
		}
		q = fmtnum(v, 10, pids[npids] + sizeof(pids[0]));
		memmove(pids[npids], q, strlen(q) + 1);
		npids++;
		if (*p == '\0')
			return;
	}
}

int
main(int argc, char **argv)
{
	char b1[24], b2[24], b3[24], b4[24], b5[24], b6[24];
	long ps;
	int ch, procfd;

	opterr = 0;
	while ((ch = getopt(argc, argv, "sp:")) != -1) {
		switch (ch) {
		case 's': scanmode = 1; break;
		case 'p': pidlist(optarg); break;
		default: usage();
		}
	}
	if (optind != argc)
		usage();

	if ((ps = sysconf(_SC_PAGESIZE)) == -1) {
		warn("sysconf _SC_PAGESIZE", NULL, NULL, errno);
		return EXIT_FATAL;
	}
	pagesz = ps;
	if ((procfd = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC)) == -1) {
		warn("open /proc", NULL, NULL, errno);
		return EXIT_FATAL;
	}
	if (npids > 0)
		named(procfd);
	else
		scan(procfd, getpid());
	if (say(1, "floor: processes ", fmtnum(nproc, 10, b1 + sizeof(b1)),
	    " entries ", fmtnum(nent, 10, b2 + sizeof(b2)),
	    " denied ", fmtnum(ndenied, 10, b3 + sizeof(b3)),
	    " checksum ", fmtnum(sum, 16, b4 + sizeof(b4)),
	    scanmode ? " ranges " : "",
	    scanmode ? fmtnum(nrange, 10, b5 + sizeof(b5)) : "",
	    scanmode ? " scans " : "",
	    scanmode ? fmtnum(nscan, 10, b6 + sizeof(b6)) : "", "\n",
	    (char *)NULL) == -1) {
		warn("write stdout", NULL, NULL, errno);
		return EXIT_FATAL;
	}
	return status;
}
