/* oddnames: processes and a file whose names a Prometheus label must escape. */
/*
 * usage: oddnames [-m MANY] DIR
 *
 * The parent writes a file of FILE_KIB (512) in DIR, named ODD_FILE below
 * (a quote, a backslash, a space, an e with an accent and the byte 0xff:
 * not UTF-8), maps it shared and reads it. Then it forks a child for each
 * of names[] and MANY (8) children more named "many"; each sets its name
 * (comm: the kernel keeps 15 bytes, so the last one is cut inside a
 * character), reads the file and writes PRIV_KIB (64) of its own. The
 * names hold a quote, a backslash, a space, a newline, letters outside
 * ASCII, the byte 0xff alone, and its escaped text \xff, which a label
 * writes the same way (the metrics view makes them one series). Then it
 * prints "ready PARENT_PID CHILD_PID..." and waits for SIGTERM or SIGINT,
 * then kills the children, removes the file and exits 0.
 */
#include <sys/mman.h>
#include <sys/prctl.h>

#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "wl.h"

#define FILE_KIB	512
#define PRIV_KIB	64
#define MANY_MAX	1000
#define ODD_FILE	"q\"b\\s \xc3\xa9\xff.dat"

static const char *const names[] = {
	"a\"b\\c d",				/* quote, backslash, space */
	"caf\xc3\xa9 \xc3\xbc" "ber",		/* valid UTF-8 */
	"x\xffy",				/* a byte that is no UTF-8 */
	"x\\xffy",				/* its escaped text */
	"nl\nname",				/* a newline */
	"\xce\xb1\xce\xb1\xce\xb1\xce\xb1\xce\xb1\xce\xb1\xce\xb1\xe2\x82\xac",	/* cut at 15 bytes */
};
#define NNAMES	((int)(sizeof(names) / sizeof(names[0])))

static char *map;
static size_t mlen;

static void
setup(int k, void *arg)
{
	char *own;

	(void)arg;
	if (prctl(PR_SET_NAME, k <= NNAMES ? names[k - 1] : "many") == -1)
		wl_die("prctl PR_SET_NAME");
	wl_touch(map, mlen);
	if ((own = wl_anon(PRIV_KIB * 1024, wl_pagesz, PROT_READ | PROT_WRITE)) == NULL)
		wl_die("mmap");
	for (size_t i = 0; i < PRIV_KIB * 1024 / wl_pagesz; i++)
		wl_tag(own, i, (uint64_t)k << 32 | i);
}

int
main(int argc, char **argv)
{
	static char path[PATH_MAX], buf[65536];
	static pid_t kids[NNAMES + MANY_MAX];
	int c, fd, many = 8;
	size_t done;
	sigset_t stop;

	wl_init("oddnames");
	while ((c = getopt(argc, argv, "m:")) != -1) {
		if (c != 'm')
			wl_usage("[-m many] dir");
		many = (int)wl_num(optarg, 'm', 0, MANY_MAX, 1);
	}
	if (optind != argc - 1)
		wl_usage("[-m many] dir");
	wl_path = path;
	wl_kids = kids;
	wl_block(&stop);
	if (snprintf(path, sizeof(path), "%s/%s", argv[optind], ODD_FILE) >= (int)sizeof(path))
		wl_die("a path too long");
	if ((fd = open(path, O_RDWR | O_CREAT | O_EXCL, 0644)) == -1) {
		path[0] = '\0';	/* not ours to remove */
		wl_die("create %s/%s", argv[optind], ODD_FILE);
	}
	memset(buf, 0x5a, sizeof(buf));
	for (done = 0; done < FILE_KIB * 1024; done += sizeof(buf))
		if (write(fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf))
			wl_die("write");
	mlen = FILE_KIB * 1024;
	if ((map = mmap(NULL, mlen, PROT_READ, MAP_SHARED, fd, 0)) == MAP_FAILED)
		wl_die("mmap");
	close(fd);
	wl_touch(map, mlen);
	wl_spawn(NNAMES + many, setup, NULL);
	wl_ready();
	wl_wait(&stop);
	return 0;
}
