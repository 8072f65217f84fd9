/* gpuwork: GEM buffers of known sizes held by known DRM clients, for the GPU test. */
/*
 * gpuwork - DRM clients of known memory, on the DRM device named DRIVER
 *
 * usage: gpuwork DRIVER
 *
 * The first /dev/dri/cardN whose driver (DRM_IOCTL_VERSION) is DRIVER
 * (xmkgem, tests/kmod/xmkgem.c). The parent P opens it (client "p") and
 * makes three dumb buffers:
 *	priv	256 KiB, never mapped: private, no pages
 *	mapped	1 MiB, mapped and written: private, resident
 *	shared	512 KiB, exported by PRIME, its fd sent over a unix socket to
 *		Q, then closed by P
 * Then it forks Q and C. Q closes the client it inherited, opens its own
 * (client "q"), imports shared from the fd it is sent (a second handle of
 * the same buffer: shared in both clients), closes that fd, and makes
 *	qbuf	128 KiB, mapped and written
 * C keeps P's client (one client, two processes). Each buffer's size is the
 * one DRM_IOCTL_MODE_CREATE_DUMB gave. It prints "gem NAME CLIENT SIZE"
 * for each handle, "fd ROLE PID FD" for each process's DRM fd, "proc ROLE
 * PID", "expect CLIENT TOTAL SHARED RESIDENT" (bytes, what the DRM core's
 * keys must say from how they were built), then "ready P Q C" and waits for
 * SIGTERM.
 */
#define _GNU_SOURCE
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "wl.h"

#define USAGE	"DRIVER"
#define KIB	1024

/* The kernel's uapi, written out: a static build needs no kernel headers. */
struct drm_version {		/* drm/drm.h */
	int version_major, version_minor, version_patchlevel;
	size_t name_len;
	char *name;
	size_t date_len;
	char *date;
	size_t desc_len;
	char *desc;
};
#define DRM_IOCTL_VERSION		_IOWR('d', 0x00, struct drm_version)
struct drm_create_dumb {	/* drm/drm_mode.h */
	uint32_t height, width, bpp, flags, handle, pitch;
	uint64_t size;
};
#define DRM_IOCTL_MODE_CREATE_DUMB	_IOWR('d', 0xB2, struct drm_create_dumb)
struct drm_map_dumb {
	uint32_t handle, pad;
	uint64_t offset;
};
#define DRM_IOCTL_MODE_MAP_DUMB		_IOWR('d', 0xB3, struct drm_map_dumb)
struct drm_prime {		/* drm/drm.h */
	uint32_t handle, flags;
	int32_t fd;
};
#define DRM_IOCTL_PRIME_HANDLE_TO_FD	_IOWR('d', 0x2d, struct drm_prime)
#define DRM_IOCTL_PRIME_FD_TO_HANDLE	_IOWR('d', 0x2e, struct drm_prime)

static const char *driver;
static char card[64];
static int sock[2];
static uint64_t shared_size;

/* The first card whose driver is DRIVER, opened. */
static int open_card(void)
{
	char name[64];
	int i, fd;

	for (i = 0; i < 64; i++) {
		struct drm_version v = { .name_len = sizeof(name) - 1, .name = name };

		snprintf(card, sizeof(card), "/dev/dri/card%d", i);
		if ((fd = open(card, O_RDWR | O_CLOEXEC)) < 0) {
			if (errno == ENOENT)
				continue;
			wl_die("%s", card);
		}
		memset(name, 0, sizeof(name));
		if (ioctl(fd, DRM_IOCTL_VERSION, &v) == 0 && strcmp(name, driver) == 0)
			return fd;
		close(fd);
	}
	errno = ENODEV;
	wl_die("no /dev/dri/card* of driver %s", driver);
}

/* A dumb buffer of len bytes (height rows of 4 KiB): its handle; *size the
 * kernel's size for it; mapped and written when map. */
static uint32_t dumb(int fd, uint64_t len, int map, uint64_t *size)
{
	struct drm_create_dumb d = { .height = (uint32_t)(len / 4096), .width = 1024, .bpp = 32 };
	struct drm_map_dumb m = { 0 };
	void *p;

	if (ioctl(fd, DRM_IOCTL_MODE_CREATE_DUMB, &d) < 0)
		wl_die("%s: DRM_IOCTL_MODE_CREATE_DUMB of %llu bytes", card, (unsigned long long)len);
	*size = d.size;
	if (map) {
		m.handle = d.handle;
		if (ioctl(fd, DRM_IOCTL_MODE_MAP_DUMB, &m) < 0)
			wl_die("%s: DRM_IOCTL_MODE_MAP_DUMB", card);
		p = mmap(NULL, d.size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)m.offset);
		if (p == MAP_FAILED)
			wl_die("%s: mmap of a dumb buffer", card);
		memset(p, 0x5a, d.size);
	}
	return d.handle;
}

static void send_fd(int s, int fd)
{
	char c = 'f', ctl[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { &c, 1 };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl,
			     .msg_controllen = sizeof(ctl) };
	struct cmsghdr *cm = CMSG_FIRSTHDR(&mh);

	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cm), &fd, sizeof(int));
	if (sendmsg(s, &mh, 0) != 1)
		wl_die("sendmsg");
}

static int recv_fd(int s)
{
	char c, ctl[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { &c, 1 };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl,
			     .msg_controllen = sizeof(ctl) };
	struct cmsghdr *cm;
	int fd;

	if (recvmsg(s, &mh, 0) != 1 || !(cm = CMSG_FIRSTHDR(&mh)) || cm->cmsg_type != SCM_RIGHTS)
		wl_die("recvmsg");
	memcpy(&fd, CMSG_DATA(cm), sizeof(int));
	return fd;
}

static int pfd;			/* P's client, inherited by Q and C */

/* Q (k 1): a client of its own, the shared buffer imported, qbuf made.
 * C (k 2): P's client, as inherited. */
static void setup(int k, void *arg)
{
	struct drm_prime p = { 0 };
	uint64_t size;
	int fd, buf;

	(void)arg;
	if (k != 1) {
		printf("fd C %d %d\n", (int)getpid(), pfd);
		return;
	}
	close(pfd);
	fd = open_card();
	buf = recv_fd(sock[1]);
	p.fd = buf;
	if (ioctl(fd, DRM_IOCTL_PRIME_FD_TO_HANDLE, &p) < 0)
		wl_die("%s: DRM_IOCTL_PRIME_FD_TO_HANDLE", card);
	close(buf);
	printf("gem shared q %llu\n", (unsigned long long)shared_size);
	dumb(fd, 128 * KIB, 1, &size);
	printf("gem qbuf q %llu\n", (unsigned long long)size);
	printf("fd Q %d %d\n", (int)getpid(), fd);
	printf("expect q %llu %llu %llu\n", (unsigned long long)(size + shared_size),
	       (unsigned long long)shared_size, (unsigned long long)size);
	fflush(stdout);
}

int main(int argc, char **argv)
{
	struct drm_prime p = { .flags = O_CLOEXEC | O_RDWR };
	static pid_t kids[2];
	uint64_t priv, mapped;
	sigset_t stop;

	wl_init("gpuwork");
	wl_kids = kids;
	if (argc != 2)
		wl_usage(USAGE);
	driver = argv[1];
	setvbuf(stdout, NULL, _IOLBF, 0);
	wl_block(&stop);
	pfd = open_card();
	dumb(pfd, 256 * KIB, 0, &priv);
	dumb(pfd, 1024 * KIB, 1, &mapped);
	p.handle = dumb(pfd, 512 * KIB, 0, &shared_size);
	if (ioctl(pfd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &p) < 0)
		wl_die("%s: DRM_IOCTL_PRIME_HANDLE_TO_FD", card);
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sock) < 0)
		wl_die("socketpair");
	send_fd(sock[0], p.fd);
	close(p.fd);
	printf("gem priv p %llu\ngem mapped p %llu\ngem shared p %llu\n",
	       (unsigned long long)priv, (unsigned long long)mapped,
	       (unsigned long long)shared_size);
	printf("fd P %d %d\n", (int)getpid(), pfd);
	printf("expect p %llu %llu %llu\n", (unsigned long long)(priv + mapped + shared_size),
	       (unsigned long long)shared_size, (unsigned long long)mapped);
	wl_spawn(2, setup, NULL);
	printf("proc P %d\nproc Q %d\nproc C %d\n", (int)getpid(), (int)wl_kids[0],
	       (int)wl_kids[1]);
	wl_ready();
	wl_wait(&stop);
	return 0;
}
