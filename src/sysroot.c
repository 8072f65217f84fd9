/* A capture's ELF file on the host, under a sysroot, by build-id. */
/*
 * A capture's ELF file on the host, under a sysroot. With the capture's
 * build-id: ROOT/path if it has the id and a .symtab, else the first file
 * under ROOT that has both, else a stripped file with the id. The walk holds
 * one directory fd per level and nothing else: it shares one static getdents64
 * buffer, and after each subdirectory seeks its parent back to the d_off of
 * the entry that led there. Symlinks to directories are never followed, nor
 * mount points crossed: ROOT may be / itself, and /proc and /sys are no place
 * to open every file.
 */
#include <dirent.h>		/* DT_* only: opendir allocates */
#include <elf.h>		/* constants only */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "elfread.h"

#define SYSROOT_DEPTH_MAX	32	/* directory levels under ROOT searched */
#define SHF_CODE	(SHF_ALLOC | SHF_EXECINSTR)

/* How a file compares with the capture's build-id, worst first. */
enum fit {
	FIT_BAD,	/* not ELF, or damaged: the reader's err says why */
	FIT_NOID,	/* ELF with no GNU build-id */
	FIT_OTHER,	/* ELF with another build-id, left in file_id */
	FIT_DEBUG,	/* the id, but its code is NOBITS: objcopy --only-keep-debug */
	FIT_STRIPPED,	/* the id, no .symtab */
	FIT_FULL,	/* the id and a .symtab */
};

struct search {
	const unsigned char *id;
	size_t idlen;
	int fd;			/* the best match so far, or -1 */
	uint64_t size;
	enum fit best;		/* its fit: only better ones are taken */
	dev_t root_dev;		/* the walk stays on ROOT's filesystem */
	dev_t skip_dev;		/* ROOT/path, checked before the walk */
	ino_t skip_ino;
	unsigned unreadable, unopened, deep, overlong, mounts, debug;
};

/* Static: too big for the small stacks of NOMMU boards. */
static char dents[8192];
static char walkpath[PATH_MAX];	/* the entry the walk is at */
static char rootpath[PATH_MAX];	/* ROOT/path */
static char bestpath[PATH_MAX];	/* the best match's */
static unsigned char file_id[ELF_BUILDID_MAX];
static size_t file_idlen;
static char hex_a[2 * ELF_BUILDID_MAX + 1], hex_b[2 * ELF_BUILDID_MAX + 1];
static int own;			/* no -S: this machine's file at the path, no walk */

/* Append to why; a message too long for it is cut, which only shortens it. */
static void say(char *why, size_t whylen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void say(char *why, size_t whylen, const char *fmt, ...)
{
	size_t n = strnlen(why, whylen);
	va_list ap;

	if (n + 1 >= whylen)
		return;
	va_start(ap, fmt);
	fmt_vsnprintf(why + n, whylen - n, fmt, ap);
	va_end(ap);
}

/* fd if it is open on a regular file, else closed; -errno, -EINVAL. */
static int regular(int fd, struct stat *st)
{
	int err = EINVAL;

	if (fd < 0)
		return -errno;
	if (fstat(fd, st) < 0)
		err = errno;
	else if (S_ISREG(st->st_mode))
		return fd;
	close(fd);
	return -err;
}

/* ROOT/path found, but not opened: an fd of O_PATH (RESOLVE_IN_ROOT when the
 * kernel has it), or -errno. */
static int path_in_root(int rootfd, const char *rel)
{
	long fd;
#ifdef SYS_openat2
	struct { uint64_t flags, mode, resolve; } how = {	/* struct open_how */
		(uint64_t)(O_PATH | O_CLOEXEC), 0, 0x10	/* RESOLVE_IN_ROOT */
	};

	fd = syscall(SYS_openat2, rootfd, rel, &how, sizeof(how));
	if (fd >= 0 || (errno != ENOSYS && errno != EPERM))
		return fd >= 0 ? (int)fd : -errno;
#endif
	fd = openat(rootfd, rel, O_PATH | O_CLOEXEC);
	return fd >= 0 ? (int)fd : -errno;
}

/*
 * ROOT/path as the board saw it: absolute symlinks and ".." resolved inside
 * ROOT (RESOLVE_IN_ROOT, Linux 5.6), not on the host. Older kernels, or a
 * seccomp filter, leave plain openat, which follows them on the host. What
 * it is comes first, from a path fd: only a regular file is opened (a
 * capture can name any path: a device's open has effects, a FIFO's waits).
 */
static int open_in_root(int rootfd, const char *rel, struct stat *st)
{
	char self[32];
	int pfd = path_in_root(rootfd, rel), fd, err;

	if (pfd < 0)
		return pfd;
	err = fstat(pfd, st) < 0 ? errno : S_ISREG(st->st_mode) ? 0 : EINVAL;
	if (err) {
		close(pfd);
		return -err;
	}
	fmt_snprintf(self, sizeof(self), "/proc/self/fd/%d", pfd);
	fd = open(self, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT)	/* no /proc: by its path, now known regular */
		fd = openat(rootfd, rel, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	close(pfd);
	return regular(fd, st);
}

/* The reader on fd; four bytes first, as most files under a sysroot are not ELF. */
static int open_elf(struct elf *e, int fd, uint64_t size)
{
	static const unsigned char magic[4] = { 0x7f, 'E', 'L', 'F' };
	unsigned char m[4];

	if (pread(fd, m, 4, 0) != 4 || memcmp(m, magic, 4) != 0) {
		fmt_snprintf(e->err, sizeof(e->err), "not an ELF file");
		return -1;
	}
	return elf_open_fd(e, fd, size);
}

/* 1 when code is NOBITS: only debug data, with a .symtab not to be preferred. */
static int debug_only(struct elf *e)
{
	struct elf_shdr sh;
	uint32_t i;

	for (i = 1; i < e->shnum; i++) {
		if (elf_shdr(e, i, &sh) < 0)
			return -1;
		if ((sh.flags & SHF_CODE) == SHF_CODE && sh.type == SHT_NOBITS)
			return 1;
	}
	return 0;
}

static enum fit fit(struct elf *e, int fd, uint64_t size, const struct search *s)
{
	struct elf_symtab t;
	int r;

	if (open_elf(e, fd, size) < 0)
		return FIT_BAD;
	r = elf_buildid(e, file_id, &file_idlen);
	if (r != 0)
		return r < 0 ? FIT_BAD : FIT_NOID;
	if (file_idlen != s->idlen || memcmp(file_id, s->id, s->idlen) != 0)
		return FIT_OTHER;
	if ((r = debug_only(e)) != 0)
		return r < 0 ? FIT_BAD : FIT_DEBUG;
	/* a damaged .symtab is no better than none */
	return elf_symtab(e, SHT_SYMTAB, &t) == 0 ? FIT_FULL : FIT_STRIPPED;
}

/* Keep fd as the match if it beats the one held, else close it. */
static void offer(struct search *s, int fd, const struct stat *st, enum fit f,
		  const char *path)
{
	if (f <= s->best) {
		close(fd);
		return;
	}
	if (s->fd >= 0)
		close(s->fd);
	s->fd = fd;
	s->size = (uint64_t)st->st_size;
	s->best = f;
	strcpy(bestpath, path);	/* both PATH_MAX */
}

/* A directory entry that may be a file: 1 when it is a full match. */
static int walk_file(struct search *s, int dirfd, const char *name, int is_link)
{
	struct stat st;
	struct elf e;
	enum fit f;
	int fd;

	/* a link is followed to a regular file only: never open a device */
	if (is_link && (fstatat(dirfd, name, &st, 0) < 0 || !S_ISREG(st.st_mode)))
		return 0;
	fd = regular(openat(dirfd, name, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC), &st);
	if (fd < 0) {
		if (fd != -EINVAL)
			s->unopened++;
		return 0;
	}
	if (st.st_dev == s->skip_dev && st.st_ino == s->skip_ino) {
		close(fd);
		return 0;
	}
	f = fit(&e, fd, (uint64_t)st.st_size, s);
	s->debug += f == FIT_DEBUG;
	offer(s, fd, &st, f, walkpath);
	return f == FIT_FULL;
}

/* The entry's name appended to walkpath, and its type; DT_UNKNOWN to skip it. */
static int entry_type(struct search *s, int dirfd, const struct linux_dirent64 *d,
		      size_t len)
{
	const char *name = d->d_name;
	size_t n = strlen(name);
	struct stat st;

	if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
		return DT_UNKNOWN;
	if (n >= sizeof(walkpath) - len - 1) {
		s->overlong++;
		return DT_UNKNOWN;
	}
	walkpath[len] = '/';
	memcpy(walkpath + len + 1, name, n + 1);
	if (d->d_type != DT_UNKNOWN)
		return d->d_type;
	/* some filesystems leave the type to stat */
	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return DT_UNKNOWN;
	return S_ISDIR(st.st_mode) ? DT_DIR : S_ISREG(st.st_mode) ? DT_REG :
	       S_ISLNK(st.st_mode) ? DT_LNK : DT_UNKNOWN;
}

static int walk(struct search *s, int fd, size_t len, unsigned depth);

/* The subdirectory walkpath names, its name at walkpath + at: 1 when done. */
static int descend(struct search *s, int dirfd, size_t at, unsigned depth)
{
	struct stat st;
	int fd, done;

	if (depth >= SYSROOT_DEPTH_MAX) {
		s->deep++;
		return 0;
	}
	fd = openat(dirfd, walkpath + at, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) < 0) {
		s->unreadable++;
		if (fd >= 0)
			close(fd);
		return 0;
	}
	if (st.st_dev != s->root_dev) {
		s->mounts++;
		close(fd);
		return 0;
	}
	done = walk(s, fd, at + strlen(walkpath + at), depth + 1);
	close(fd);
	return done;
}

/* The directory open on fd, named by walkpath[0, len): 1 when a full match is found. */
static int walk(struct search *s, int fd, size_t len, unsigned depth)
{
	long r, off;

	while ((r = syscall(SYS_getdents64, fd, dents, sizeof(dents))) > 0) {
		for (off = 0; off < r;) {
			struct linux_dirent64 *d = (void *)(dents + off);
			int64_t next = d->d_off;
			int type = entry_type(s, fd, d, len);

			off += d->d_reclen;
			if (type == DT_REG || type == DT_LNK) {
				if (walk_file(s, fd, walkpath + len + 1, type == DT_LNK))
					return 1;
			} else if (type == DT_DIR) {
				if (descend(s, fd, len + 1, depth))
					return 1;
				/* the subdirectory reused dents: read on after its entry */
				if (lseek(fd, next, SEEK_SET) < 0) {
					s->unreadable++;
					return 0;
				}
				break;
			}
		}
	}
	if (r < 0)
		s->unreadable++;
	return 0;
}

/*
 * Without -S, this machine's file at the capture's path, which the caller
 * names: why it is not the capture's, without naming it again.
 */
static void why_own(int fd, enum fit f, const struct elf *e, const struct search *s,
		    char *why, size_t whylen)
{
	const char *cap = s->idlen ? hex_fmt(hex_a, s->id, s->idlen) : NULL;

	if (fd == -ENOENT || fd == -ENOTDIR)
		say(why, whylen, "not on this machine (a capture's files are its board's: "
		    "-S names the board's root)");
	else if (fd == -EINVAL)
		say(why, whylen, "not a regular file on this machine");
	else if (fd < 0)
		say(why, whylen, "%s", strerror(-fd));
	else if (f == FIT_BAD)
		say(why, whylen, "%s", e->err);
	else if (f == FIT_NOID)
		say(why, whylen, "the file here has no build-id, the capture has %s: not "
		    "used (-S names the board's root)", cap);
	else if (f == FIT_OTHER)
		say(why, whylen, "the file here has build-id %s, the capture has %s: not "
		    "used (-S names the board's root)", hex_fmt(hex_b, file_id, file_idlen), cap);
	else
		say(why, whylen, "the file here has build-id %s but only debug data (objcopy "
		    "--only-keep-debug): not used (-S names the board's root)", cap);
}

/* Why ROOT/path, open on fd (or -errno), is not the capture's file. */
static void why_rootpath(const char *root, int fd, enum fit f, const struct elf *e,
			 const struct search *s, char *why, size_t whylen)
{
	const char *cap = hex_fmt(hex_a, s->id, s->idlen);

	if (own)	/* no -S: there is no walk */
		why_own(fd, f, e, s, why, whylen);
	else if (fd == -ENOENT || fd == -ENOTDIR)
		say(why, whylen, "no file under %s has build-id %s", root, cap);
	else if (fd == -EINVAL)
		say(why, whylen, "%s is not a regular file; no other file under %s has build-id %s",
		    rootpath, root, cap);
	else if (fd < 0)
		say(why, whylen, "%s: %s; no other file under %s has build-id %s",
		    rootpath, strerror(-fd), root, cap);
	else if (f == FIT_BAD)
		say(why, whylen, "%s: %s; no other file under %s has build-id %s",
		    rootpath, e->err, root, cap);
	else if (f == FIT_NOID)
		say(why, whylen, "%s has no build-id, the capture has %s: not used; "
		    "no other file under %s has it", rootpath, cap, root);
	else if (f == FIT_OTHER)
		say(why, whylen, "%s has build-id %s, the capture has %s: not used; "
		    "no other file under %s has it", rootpath,
		    hex_fmt(hex_b, file_id, file_idlen), cap, root);
	else
		say(why, whylen, "%s has build-id %s but only debug data (objcopy "
		    "--only-keep-debug): not used; no other file under %s has it",
		    rootpath, cap, root);
}

/* What the walk could not look at, after why_rootpath(). */
static void why_walk(const char *root, const struct search *s, char *why, size_t whylen)
{
	if (s->debug)
		say(why, whylen, " but %u debug-only file%s (objcopy --only-keep-debug)",
		    s->debug, s->debug == 1 ? "" : "s");
	if (s->unreadable)
		say(why, whylen, "; %u director%s under %s could not be read",
		    s->unreadable, s->unreadable == 1 ? "y" : "ies", root);
	if (s->unopened)
		say(why, whylen, "; %u file%s under %s could not be opened",
		    s->unopened, s->unopened == 1 ? "" : "s", root);
	if (s->deep)
		say(why, whylen, "; %u director%s more than SYSROOT_DEPTH_MAX (%d) levels "
		    "under %s not searched", s->deep, s->deep == 1 ? "y" : "ies",
		    SYSROOT_DEPTH_MAX, root);
	if (s->mounts)
		say(why, whylen, "; %u mount point%s under %s not searched (other filesystems)",
		    s->mounts, s->mounts == 1 ? "" : "s", root);
	if (s->overlong)
		say(why, whylen, "; %u path%s longer than PATH_MAX (%d) under %s not searched",
		    s->overlong, s->overlong == 1 ? "" : "s", PATH_MAX, root);
}

/* ROOT/path, then the walk: the match's fd and bestpath, or -1 and why. */
static int search_id(struct search *s, const char *root, size_t rootlen, int rootfd,
		     const char *rel, int walk_too, char *why, size_t whylen)
{
	struct stat st;
	struct elf e;
	enum fit f = FIT_BAD;
	int fd;

	if (fstat(rootfd, &st) < 0) {
		say(why, whylen, "%s: %s", root, strerror(errno));
		return -1;
	}
	s->root_dev = st.st_dev;
	fd = open_in_root(rootfd, rel, &st);
	if (fd >= 0) {
		s->skip_dev = st.st_dev;
		s->skip_ino = st.st_ino;
		f = fit(&e, fd, (uint64_t)st.st_size, s);
		offer(s, fd, &st, f, rootpath);
		if (f == FIT_FULL)
			return s->fd;
	}
	if (f < FIT_STRIPPED)
		why_rootpath(root, fd, f, &e, s, why, whylen);
	if (!walk_too)
		return s->fd;
	memcpy(walkpath, root, rootlen);
	walkpath[rootlen] = 0;
	walk(s, rootfd, rootlen, 0);
	if (s->fd < 0)
		why_walk(root, s, why, whylen);
	return s->fd;
}

/* No build-id to go by: ROOT/path if it is ELF at all. */
static int search_path(struct search *s, int rootfd, const char *rel, char *why,
		       size_t whylen)
{
	struct stat st;
	struct elf e;
	int fd = open_in_root(rootfd, rel, &st), bad = fd < 0 || open_elf(&e, fd, (uint64_t)st.st_size) < 0;

	if (bad && own)
		why_own(fd, FIT_BAD, &e, s, why, whylen);
	else if (fd == -EINVAL)
		say(why, whylen, "%s is not a regular file", rootpath);
	else if (fd < 0)
		say(why, whylen, "%s: %s", rootpath, strerror(-fd));
	else if (bad)
		say(why, whylen, "%s: %s", rootpath, e.err);
	else
		offer(s, fd, &st, FIT_FULL, rootpath);
	if (s->fd < 0) {
		if (fd >= 0)
			close(fd);
		if (!own)
			say(why, whylen, "; the capture has no build-id to look further with");
	}
	return s->fd;
}

int sysroot_open(const char *root, const char *path, const unsigned char *id,
		 size_t idlen, uint64_t *size, char *used, size_t usedlen,
		 char *why, size_t whylen)
{
	struct search s = { .id = id, .idlen = idlen, .fd = -1, .best = FIT_DEBUG };
	int walk_too = root != NULL;
	size_t rootlen;
	const char *rel = path;
	int rootfd, fd;

	if (whylen)
		why[0] = 0;
	if (usedlen)
		used[0] = 0;
	own = !root;
	if (!root)
		root = "/";	/* this machine's own file: no walk of its whole tree */
	rootlen = strlen(root);
	if (idlen > ELF_BUILDID_MAX) {
		say(why, whylen, "the capture's build-id of %zu bytes is longer than "
		    "ELF_BUILDID_MAX (%d)", idlen, ELF_BUILDID_MAX);
		return -1;
	}
	/* ROOT/ and /path would join as ROOT//path */
	while (rootlen > 0 && root[rootlen - 1] == '/')
		rootlen--;
	while (*rel == '/')
		rel++;
	if ((size_t)fmt_snprintf(rootpath, sizeof(rootpath), "%.*s/%s", (int)rootlen, root,
				 rel) >= sizeof(rootpath)) {
		say(why, whylen, "%.*s/%s: longer than PATH_MAX (%d)", (int)rootlen, root,
		    rel, PATH_MAX);
		return -1;
	}
	rootfd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (rootfd < 0) {
		say(why, whylen, "%s: %s", root, strerror(errno));
		return -1;
	}
	if (!*rel)
		rel = ".";
	fd = idlen ? search_id(&s, root, rootlen, rootfd, rel, walk_too, why, whylen) :
		search_path(&s, rootfd, rel, why, whylen);
	close(rootfd);
	if (fd < 0)
		return -1;
	if (strlen(bestpath) >= usedlen) {
		close(fd);
		say(why, whylen, "%s: the path is longer than the %zu bytes it is given",
		    bestpath, usedlen);
		return -1;
	}
	strcpy(used, bestpath);
	if (whylen)
		why[0] = 0;
	*size = s.size;
	return fd;
}
