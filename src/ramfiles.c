/* The ram view's sources: the files of tmpfs and ramfs mounts, and SysV segments. */
#include <dirent.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "exmap.h"
#include "ramfiles.h"

static char text[1 << 16];	/* mountinfo, sysvipc/shm */

/* The mounts of tmpfs and ramfs: each superblock's files, once. */
struct fswalk {
	struct ramtop *top;
	int ramfs;
	uint64_t page_size;
	dev_t dev;
	char path[PATH_BUF];
	unsigned unreadable;
};
static char wdents[8192];

static void walk_dir(struct fswalk *w, int fd, size_t len, unsigned depth)
{
	long n, off;

	while ((n = syscall(SYS_getdents64, fd, wdents, sizeof(wdents))) > 0)
		for (off = 0; off < n;) {
			struct linux_dirent64 *d = (void *)(wdents + off);
			int64_t next = d->d_off;
			size_t nl = strlen(d->d_name);
			struct stat st;
			int sub;

			off += d->d_reclen;
			if (d->d_name[0] == '.' && (!d->d_name[1] || (d->d_name[1] == '.' && !d->d_name[2])))
				continue;
			if (len + 1 + nl >= sizeof(w->path) ||
			    fstatat(fd, d->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
				w->unreadable++;
				continue;
			}
			w->path[len] = '/';
			memcpy(w->path + len + 1, d->d_name, nl + 1);
			if (S_ISREG(st.st_mode)) {
				uint64_t b = w->ramfs ? ((uint64_t)st.st_size + w->page_size - 1) &
						 ~(w->page_size - 1) : (uint64_t)st.st_blocks * 512;

				if (b)
					ram_top_add(w->top, w->path, len + 1 + nl, b);
			} else if (S_ISDIR(st.st_mode) && st.st_dev == w->dev && depth < 64) {
				if ((sub = openat(fd, d->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
						  O_CLOEXEC)) < 0) {
					w->unreadable++;
					continue;
				}
				walk_dir(w, sub, len + 1 + nl, depth + 1);
				close(sub);
				if (lseek(fd, next, SEEK_SET) < 0)
					return;
				break;	/* wdents was reused below */
			}
		}
}

/* Unescape mountinfo's octal escapes (\040 a space) in place. */
static void unoctal(char *s)
{
	char *o = s;

	for (; *s; s++, o++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*o = (char)((s[1] - '0') << 6 | (s[2] - '0') << 3 | (s[3] - '0'));
			s += 3;
		} else {
			*o = *s;
		}
	}
	*o = '\0';
}

/*
 * The initramfs's root, which mountinfo calls rootfs: tmpfs or ramfs, as its
 * superblock says. On a board that runs from an initramfs, every file is RAM.
 */
static const char *rootfs_type(const char *dir)
{
	static const uint32_t tmpfs_magic = 0x01021994, ramfs_magic = 0x858458f6;	/* linux/magic.h */
	struct statfs sf;

	if (statfs(dir, &sf) < 0)
		return "rootfs";
	return (uint32_t)sf.f_type == tmpfs_magic ? "tmpfs" :
	       (uint32_t)sf.f_type == ramfs_magic ? "ramfs" : "rootfs";
}

void ram_read_mounts(struct ramfiles *r, uint64_t page_size)
{
	static dev_t seen[64];
	static struct fswalk w;
	uint32_t nseen = 0, i;
	unsigned unreadable = 0;
	char *p = text, *l;

	if (read_small(AT_FDCWD, "/proc/self/mountinfo", text, sizeof(text)) < 0) {
		r->no_mountinfo = 1;
		return;
	}
	while ((l = ram_line(&p)) != NULL) {
		char *f[10], *dash = strstr(l, " - ");
		struct stat st;
		int k = 0, fd;

		if (!dash)
			continue;
		*dash = '\0';
		for (char *q = l; k < 5 && (f[k] = ram_word(&q)) != NULL; k++)
			;
		for (char *q = dash + 3; k < 7 && (f[k] = ram_word(&q)) != NULL; k++)
			;
		if (k >= 6) {	/* the devices a mapping of their files names */
			char *colon = strchr(f[2], ':');
			uint64_t ma, mi;

			unoctal(f[4]);
			if (strcmp(f[5], "rootfs") == 0)
				f[5] = (char *)rootfs_type(f[4]);
			if (colon && (*colon = '\0', ram_dec_prefix(f[2], &ma) == 0) &&
			    ram_dec_prefix(colon + 1, &mi) == 0) {
				uint32_t dev = (uint32_t)(ma << 20 | mi);

				if ((!strcmp(f[5], "tmpfs") || !strcmp(f[5], "devtmpfs")) && r->nshm_dev < 32)
					r->shm_dev[r->nshm_dev++] = dev;
				if (!strcmp(f[5], "hugetlbfs") && r->nhuge_dev < 8)
					r->huge_dev[r->nhuge_dev++] = dev;
			}
		}
		if (k < 6 || r->devs_only ||
		    (strcmp(f[5], "tmpfs") && strcmp(f[5], "ramfs") && strcmp(f[5], "devtmpfs")))
			continue;
		if ((fd = open(f[4], O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
			continue;
		if (fstat(fd, &st) < 0) {
			close(fd);
			continue;
		}
		for (i = 0; i < nseen && seen[i] != st.st_dev; i++)
			;
		if (i < nseen || nseen == sizeof(seen) / sizeof(seen[0])) {
			close(fd);	/* a bind mount of one walked already */
			continue;
		}
		seen[nseen++] = st.st_dev;
		w.top = strcmp(f[5], "ramfs") == 0 ? &r->ramfs : &r->tmpfs;
		w.ramfs = w.top == &r->ramfs;
		w.page_size = page_size;
		w.dev = st.st_dev;
		w.unreadable = 0;
		strcpy(w.path, strcmp(f[4], "/") == 0 ? "" : f[4]);
		walk_dir(&w, fd, strlen(w.path), 0);
		unreadable += w.unreadable;
		close(fd);
	}
	r->unreadable = unreadable;
}

/* SysV shared memory segments: key, shmid and their resident size (rss, 4.x on). */
void ram_read_sysv(struct ramfiles *r)
{
	char *p = text, *l;

	if (read_small(AT_FDCWD, "/proc/sysvipc/shm", text, sizeof(text)) < 0)
		return;	/* no SysV IPC in this kernel */
	ram_line(&p);	/* the head */
	while ((l = ram_line(&p)) != NULL) {
		uint64_t v[16];
		char name[40], *q = l;
		int k;

		for (k = 0; k < 16 && ram_dec(&q, &v[k]) == 0; k++)
			;
		/* key shmid perms size cpid lpid nattch uid gid cuid cgid atime dtime ctime rss swap */
		if (k < 15)
			continue;
		fmt_snprintf(name, sizeof(name), "key %llu id %llu", (unsigned long long)v[0],
			     (unsigned long long)v[1]);
		ram_top_add(&r->sysv, name, strlen(name), v[14]);
	}
}

