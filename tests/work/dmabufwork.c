/* dmabufwork: dma-bufs of known sizes held by known sets of processes, for the dmabuf tests. */
/*
 * dmabufwork - dma-bufs of known sizes, held by processes it made
 *
 * usage: dmabufwork [-x source] cases source
 *        dmabufwork grow source kib period_ms
 *
 * A source is heap:NAME (/dev/dma_heap/NAME), udmabuf (a sealed memfd's
 * pages, /dev/udmabuf) or vgem (a dumb buffer of /dev/dri/card0, exported
 * by PRIME).
 *
 * cases: the parent P allocates, from source,
 *	fork	1 MiB, then forks C1, which inherits it: P and C1 hold it
 *	passed	2 MiB, sent over a unix socket (SCM_RIGHTS) to C2, forked
 *		before it was made: P and C2
 *	mapped	3 MiB, mapped shared by P, its fd then closed: P alone, by
 *		its mapping
 *	child	4 MiB, dup'd twice, the three fds sent to C3, then closed
 *		by P: C3 alone (three fds, one holder)
 *	other	1.5 MiB, sent to H as passed was: H alone (scan without H:
 *		held by no scanned process)
 * and with -x, an extra of 512 KiB from that source, held by P. Each
 * buffer is named (DMA_BUF_SET_NAME) after its case. Then, with vgem
 * present, P keeps /dev/dri/card0 open (a DRM client). It prints, from
 * the kernel: "buf CASE INODE SIZE" (fstat's inode; the size the source
 * gave), "hold CASE PID" for each process that holds it as made, "proc
 * ROLE PID", then "ready P C1 C2 C3 H", and waits for SIGTERM.
 *
 * grow: from "ready PID" on, a buffer of KIB more every PERIOD_MS, each
 * held (and named "pool"): a dma-buf pool that grows at a known rate;
 * "grew N INODE MS" for each, MS its time since boot (CLOCK_BOOTTIME).
 */
#define _GNU_SOURCE
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "wl.h"

#define USAGE	"[-x source] cases heap:NAME|udmabuf|vgem\n" \
		"       dmabufwork grow heap:NAME|udmabuf|vgem kib period_ms"
#define MIB	(1024 * 1024)

/* The kernel's uapi, written out: a static build needs no kernel headers. */
struct heap_alloc {		/* linux/dma-heap.h */
	uint64_t len;
	uint32_t fd, fd_flags;
	uint64_t heap_flags;
};
#define HEAP_IOCTL_ALLOC	_IOWR('H', 0x0, struct heap_alloc)
struct udmabuf_create {		/* linux/udmabuf.h */
	uint32_t memfd, flags;
	uint64_t offset, size;
};
#define UDMABUF_CREATE		_IOW('u', 0x42, struct udmabuf_create)
struct drm_create_dumb {	/* drm/drm_mode.h */
	uint32_t height, width, bpp, flags, handle, pitch;
	uint64_t size;
};
#define DRM_IOCTL_MODE_CREATE_DUMB	_IOWR('d', 0xB2, struct drm_create_dumb)
struct drm_prime {		/* drm/drm.h */
	uint32_t handle, flags;
	int32_t fd;
};
#define DRM_IOCTL_PRIME_HANDLE_TO_FD	_IOWR('d', 0x2d, struct drm_prime)
#define DRM_CLOEXEC_RDWR	(O_CLOEXEC | O_RDWR)
#define DMA_BUF_SET_NAME	_IOW('b', 1, const char *)	/* linux/dma-buf.h */

static int drm = -1;		/* /dev/dri/card0, once opened */

/* A buffer of len bytes from source, named name: its fd; *size what the
 * source made (a dumb buffer's is its pitch times its height). */
static int alloc_buf(const char *src, uint64_t len, const char *name, uint64_t *size)
{
	char path[128];
	int fd;

	*size = len;
	if (strncmp(src, "heap:", 5) == 0) {
		struct heap_alloc a = { .len = len, .fd_flags = O_RDWR | O_CLOEXEC };
		int h;

		snprintf(path, sizeof(path), "/dev/dma_heap/%s", src + 5);
		if ((h = open(path, O_RDWR | O_CLOEXEC)) < 0)
			wl_die("%s", path);
		if (ioctl(h, HEAP_IOCTL_ALLOC, &a) < 0)
			wl_die("%s: allocating %llu bytes", path, (unsigned long long)len);
		close(h);
		fd = (int)a.fd;
	} else if (strcmp(src, "udmabuf") == 0) {
		struct udmabuf_create c = { .size = len };
		int m = (int)syscall(SYS_memfd_create, name, MFD_ALLOW_SEALING | MFD_CLOEXEC), u;

		if (m < 0 || ftruncate(m, (off_t)len) < 0 || fcntl(m, F_ADD_SEALS, F_SEAL_SHRINK) < 0)
			wl_die("a sealed memfd of %llu bytes", (unsigned long long)len);
		if ((u = open("/dev/udmabuf", O_RDWR | O_CLOEXEC)) < 0)
			wl_die("/dev/udmabuf");
		c.memfd = (uint32_t)m;
		if ((fd = ioctl(u, UDMABUF_CREATE, &c)) < 0)
			wl_die("/dev/udmabuf: UDMABUF_CREATE");
		close(u);
		close(m);
	} else if (strcmp(src, "vgem") == 0) {
		struct drm_create_dumb d = { .height = (uint32_t)(len / 4096), .width = 1024, .bpp = 32 };
		struct drm_prime p = { .flags = DRM_CLOEXEC_RDWR };

		if (drm < 0 && (drm = open("/dev/dri/card0", O_RDWR | O_CLOEXEC)) < 0)
			wl_die("/dev/dri/card0");
		if (ioctl(drm, DRM_IOCTL_MODE_CREATE_DUMB, &d) < 0)
			wl_die("/dev/dri/card0: DRM_IOCTL_MODE_CREATE_DUMB");
		p.handle = d.handle;
		if (ioctl(drm, DRM_IOCTL_PRIME_HANDLE_TO_FD, &p) < 0)
			wl_die("/dev/dri/card0: DRM_IOCTL_PRIME_HANDLE_TO_FD");
		fd = p.fd;
		*size = d.size;
	} else {
		wl_usage(USAGE);
	}
	if (ioctl(fd, DMA_BUF_SET_NAME, name) < 0)
		wl_die("%s: DMA_BUF_SET_NAME", name);
	return fd;
}

static void say_buf(const char *name, int fd, uint64_t size)
{
	struct stat st;

	if (fstat(fd, &st) < 0)
		wl_die("fstat");
	printf("buf %s %llu %llu\n", name, (unsigned long long)st.st_ino, (unsigned long long)size);
}

static void send_fd(int sock, int fd)
{
	char c = 'f', ctl[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { &c, 1 };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl,
			    .msg_controllen = sizeof(ctl) };
	struct cmsghdr *cm = CMSG_FIRSTHDR(&m);

	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cm), &fd, sizeof(int));
	if (sendmsg(sock, &m, 0) != 1)
		wl_die("sendmsg");
}

/* A child that takes fds from its socket, keeps each and says so, and
 * waits: the parent's end of the socket is returned, its pid is the last
 * of wl_kids. */
static pid_t receiver(void)
{
	int sv[2];
	pid_t pid;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
		wl_die("socketpair");
	if ((pid = fork()) < 0)
		wl_die("fork");
	if (pid == 0) {
		char c, ctl[CMSG_SPACE(sizeof(int))];
		struct iovec iov = { &c, 1 };
		struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl,
				    .msg_controllen = sizeof(ctl) };

		close(sv[0]);
		for (;;) {	/* each fd kept, until the parent is gone */
			m.msg_controllen = sizeof(ctl);
			if (recvmsg(sv[1], &m, 0) != 1 || !CMSG_FIRSTHDR(&m))
				for (;;)
					pause();
			if (write(sv[1], "k", 1) != 1)	/* it holds the fd now */
				_exit(1);
		}
	}
	close(sv[1]);
	wl_kids[wl_nkids++] = pid;
	return sv[0];
}

/* Send fd to the receiver at sock, and wait until it holds it. */
static void hand_over(int sock, int fd)
{
	char c;

	send_fd(sock, fd);
	if (read(sock, &c, 1) != 1)
		wl_die("the receiver did not take the fd");
}

/* A child that holds what it inherited and waits. */
static pid_t holder(void)
{
	pid_t pid = fork();

	if (pid < 0)
		wl_die("fork");
	if (pid == 0)
		for (;;)
			pause();
	wl_kids[wl_nkids++] = pid;
	return pid;
}

static void cases(const char *src, const char *extra)
{
	pid_t P = getpid(), C1, C2, C3, H;
	int s2, s3, sh, fd, d1, d2;
	uint64_t size;
	void *map;

	/* the receivers first: they inherit no buffer */
	s2 = receiver();
	C2 = wl_kids[wl_nkids - 1];
	s3 = receiver();
	C3 = wl_kids[wl_nkids - 1];
	sh = receiver();
	H = wl_kids[wl_nkids - 1];

	fd = alloc_buf(src, MIB, "fork", &size);
	say_buf("fork", fd, size);
	C1 = holder();	/* it inherits this one alone (and, from vgem, its DRM client) */
	printf("hold fork %d\nhold fork %d\n", (int)P, (int)C1);
	if (drm >= 0)
		printf("drm %d\n", (int)C1);

	fd = alloc_buf(src, 2 * MIB, "passed", &size);
	say_buf("passed", fd, size);
	hand_over(s2, fd);
	printf("hold passed %d\nhold passed %d\n", (int)P, (int)C2);

	fd = alloc_buf(src, 3 * MIB, "mapped", &size);
	say_buf("mapped", fd, size);
	if ((map = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)) == MAP_FAILED)
		wl_die("mmap of mapped");
	memset(map, 1, size);
	close(fd);
	printf("hold mapped %d\n", (int)P);

	/* three fds of one buffer, in one process: one holder */
	fd = alloc_buf(src, 4 * MIB, "child", &size);
	say_buf("child", fd, size);
	if ((d1 = fcntl(fd, F_DUPFD_CLOEXEC, 100)) < 0 || (d2 = fcntl(fd, F_DUPFD_CLOEXEC, 200)) < 0)
		wl_die("dup");
	hand_over(s3, fd);
	hand_over(s3, d1);
	hand_over(s3, d2);
	close(fd);
	close(d1);
	close(d2);
	printf("hold child %d\n", (int)C3);

	fd = alloc_buf(src, 3 * MIB / 2, "other", &size);
	say_buf("other", fd, size);
	hand_over(sh, fd);
	close(fd);
	printf("hold other %d\n", (int)H);

	if (extra) {
		fd = alloc_buf(extra, MIB / 2, "extra", &size);
		say_buf("extra", fd, size);
		printf("hold extra %d\n", (int)P);
	}
	if (drm < 0 && access("/dev/dri/card0", F_OK) == 0 &&
	    (drm = open("/dev/dri/card0", O_RDWR | O_CLOEXEC)) < 0)
		wl_die("/dev/dri/card0");
	if (drm >= 0)
		printf("drm %d\n", (int)P);
	printf("proc P %d\nproc C1 %d\nproc C2 %d\nproc C3 %d\nproc H %d\n", (int)P, (int)C1,
	       (int)C2, (int)C3, (int)H);
}

static void grow(const char *src, long long kib, long long ms)
{
	struct timespec t = { ms / 1000, (ms % 1000) * 1000000 }, now;
	uint64_t size;
	long n;

	wl_ready();
	for (n = 1;; n++) {
		struct stat st;
		int fd = alloc_buf(src, (uint64_t)kib * 1024, "pool", &size);

		if (fstat(fd, &st) < 0)
			wl_die("fstat");
		clock_gettime(CLOCK_BOOTTIME, &now);
		printf("grew %ld %llu %lld\n", n, (unsigned long long)st.st_ino,
		       (long long)now.tv_sec * 1000 + now.tv_nsec / 1000000);
		fflush(stdout);
		nanosleep(&t, NULL);
	}
}

int
main(int argc, char **argv)
{
	static pid_t kids[8];
	const char *extra = NULL;
	sigset_t stop;

	wl_init("dmabufwork");
	wl_kids = kids;
	if (argc > 2 && strcmp(argv[1], "-x") == 0) {
		extra = argv[2];
		argv += 2;
		argc -= 2;
	}
	if (argc == 5 && strcmp(argv[1], "grow") == 0) {
		grow(argv[2], wl_num(argv[3], 'k', 4, 1 << 20, 4), wl_num(argv[4], 'p', 1, 3600000, 1));
		return 0;
	}
	if (argc != 3 || strcmp(argv[1], "cases") != 0)
		wl_usage(USAGE);
	wl_block(&stop);
	cases(argv[2], extra);
	wl_ready();
	wl_wait(&stop);
	return 0;
}
