/* cgroups: where the memory controller is, each process's cgroup, each cgroup's charge. */
/*
 * The memory controller's hierarchy is found in /proc/self/mountinfo, not
 * assumed at /sys/fs/cgroup: a v1 mount whose options name memory (also on
 * a hybrid, whose v2 tree then holds no controller), else the v2 mount. A
 * process's cgroup is its line of /proc/PID/cgroup in that hierarchy (the
 * memory controller's on v1, 0:: on v2); its files are the mount's
 * directory and the path under the mount's root. The table groups the
 * scanned processes by cgroup and reads each one's charge once, after the
 * scan (a capture brings its own).
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "cgroup.h"

#define CG_FILE_MAX	16384	/* /proc/PID/cgroup, memory.stat: more is an error */

static struct {
	int probed;
	int hier;		/* enum cg_hier; -1: the kernel has no cgroups */
	int memory;		/* v2: cgroup.controllers names memory */
	char dir[PATH_BUF];	/* where it is mounted */
	char root[PATH_BUF];	/* the cgroup the mount shows at its top */
} M;

static char text[CG_FILE_MAX];

/* A mountinfo field, its octal escapes (\040) undone, into to. */
static void unoctal(char *to, size_t room, const char *s, size_t n)
{
	size_t i, k = 0;

	for (i = 0; i < n && k + 1 < room; i++) {
		if (s[i] == '\\' && i + 3 < n + 1 && s[i + 1] >= '0' && s[i + 1] <= '3') {
			to[k++] = (char)((s[i + 1] - '0') << 6 | (s[i + 2] - '0') << 3 | (s[i + 3] - '0'));
			i += 3;
		} else {
			to[k++] = s[i];
		}
	}
	to[k] = '\0';
}

/* Whether the comma-separated list s (n bytes) holds word. */
static int has_word(const char *s, size_t n, const char *word)
{
	size_t w = strlen(word), i = 0;

	while (i < n) {
		size_t k = i;

		while (k < n && s[k] != ',')
			k++;
		if (k - i == w && memcmp(s + i, word, w) == 0)
			return 1;
		i = k + 1;
	}
	return 0;
}

/* A mountinfo line: a cgroup mount of the kind wanted (1: v1 with memory,
 * 2: v2) taken, one whose root is the hierarchy's own preferred. */
static void mount_line(char *line, size_t len, int *have)
{
	char *f[6], *dash = strstr(line, " - "), *fs, *opts, *e;
	int i, kind;
	size_t n;

	if (!dash)
		return;
	for (i = 0, f[0] = line; i < 5; i++) {	/* id, parent, dev, root, mount point */
		if (!(e = strchr(f[i], ' ')) || e >= dash)
			return;
		*e = '\0';
		f[i + 1] = e + 1;
	}
	fs = dash + 3;
	if (!(e = strchr(fs, ' ')))
		return;
	*e = '\0';
	opts = strchr(e + 1, ' ');	/* after the source: the super options */
	n = opts ? len - (size_t)(opts + 1 - line) : 0;
	if (strcmp(fs, "cgroup2") == 0)
		kind = CG_V2;
	else if (strcmp(fs, "cgroup") == 0 && opts && has_word(opts + 1, n, "memory"))
		kind = CG_V1;
	else
		return;
	/* v1 wins over v2; of one kind, a mount of the whole hierarchy */
	if (have[kind] && (have[kind] == 2 || strcmp(f[3], "/") != 0))
		return;
	have[kind] = strcmp(f[3], "/") == 0 ? 2 : 1;
	if (kind == CG_V2 && have[CG_V1])
		return;
	M.hier = kind;
	unoctal(M.root, sizeof(M.root), f[3], strlen(f[3]));
	unoctal(M.dir, sizeof(M.dir), f[4], strlen(f[4]));
}

static void probe(void)
{
	static struct linebuf lb;
	static char line[2 * PATH_BUF + 512];
	int have[3] = { 0, 0, 0 }, fd, toolong;
	size_t len;
	ssize_t n;

	if (M.probed)
		return;
	M.probed = 1;
	M.hier = CG_NOFS;
	if (access("/proc/self/cgroup", F_OK) != 0) {
		M.hier = -1;
		return;
	}
	if ((fd = openat(AT_FDCWD, "/proc/self/mountinfo", O_RDONLY | O_CLOEXEC)) < 0)
		return;
	lb_init(&lb, fd);
	while (lb_next(&lb, line, sizeof(line), &len, &toolong) > 0)
		if (!toolong)
			mount_line(line, len, have);
	close(fd);
	if (M.hier == CG_V2 && (fd = openat(AT_FDCWD, M.dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) >= 0) {
		n = read_line(fd, "cgroup.controllers", text, sizeof(text));
		M.memory = n > 0 && find_str(text, "memory") != NULL;
		close(fd);
	}
}

/* The hierarchy read (enum cg_hier; -1 when the kernel has no cgroups) and,
 * when one is mounted, where. */
int cg_hierarchy(const char **dir)
{
	probe();
	if (dir)
		*dir = M.hier > 0 ? M.dir : NULL;
	return M.hier;
}

/*
 * Process p's cgroup, from its /proc directory: 1, or -errno. On v1 the
 * memory controller's line, on v2 (and with no mount) the 0:: line; with no
 * mount, the memory line first. A kernel shows no line before a hierarchy
 * is first mounted (not even 0::): every process is then in the root.
 */
int cg_read(struct arena *a, struct proc *p, int piddir)
{
	ssize_t n;
	const char *line, *pick;

	probe();
	if ((n = read_small(piddir, "cgroup", text, sizeof(text))) < 0)
		return (int)n;
	pick = n == 0 ? "0::/" : NULL;
	for (line = text; n && *line; ) {
		const char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
		const char *end = strchr(line, '\n');

		if (!end)
			end = line + strlen(line);
		if (c2 && c2 < end) {
			int mem = has_word(c1 + 1, (size_t)(c2 - c1 - 1), "memory");
			int v2 = c1 - line == 1 && line[0] == '0' && c2 == c1 + 1;

			if (M.hier == CG_V1 ? mem : v2 || (M.hier == CG_NOFS && mem))
				pick = line;
			if (pick && (M.hier != CG_NOFS || mem))
				break;
		}
		line = *end ? end + 1 : end;
	}
	if (!pick)
		return -ENODATA;
	line = strchr(strchr(pick, ':') + 1, ':') + 1;
	p->cg = arena_alloc(a, sizeof(*p->cg), 8);
	memset(p->cg, 0, sizeof(*p->cg));
	p->cg->path = arena_strdup(a, line, strcspn(line, "\n"));
	return 1;
}

/* A number file of the cgroup's directory. */
static int read_num(int dir, const char *name, uint64_t *v)
{
	ssize_t n = read_line(dir, name, text, sizeof(text));

	if (n < 0)
		return (int)n;
	text[strcspn(text, "\n")] = '\0';
	return parse_u64(text, UINT64_MAX, v) < 0 ? -EPROTO : 0;
}

/* KEY's value in a flat-keyed file's text ("key value" lines). */
static int stat_value(const char *key, uint64_t *v)
{
	size_t k = strlen(key);
	const char *p = text;

	while ((p = find_str(p, key)) != NULL) {
		if ((p == text || p[-1] == '\n') && p[k] == ' ') {
			char num[24];
			size_t n = strcspn(p + k + 1, "\n");

			if (n >= sizeof(num))
				return -1;
			memcpy(num, p + k + 1, n);
			num[n] = '\0';
			return parse_u64(num, UINT64_MAX, v);
		}
		p += k;
	}
	return -1;
}

/* The charge of the cgroup at path (as /proc/PID/cgroup names it), read now. */
void cg_charge(const char *path, struct cgcharge *c)
{
	static const char *const keys[2][CH_N] = {
		{ NULL, "total_rss", "total_cache", "total_shmem" },
		{ NULL, "anon", "file", "shmem" },
	};
	static char dir[2 * PATH_BUF];
	size_t rl = strlen(M.root);
	const char *rel = path;
	int fd, err, i;

	probe();
	memset(c, 0, sizeof(*c));
	c->hier = (uint8_t)(M.hier < 0 ? CG_NOFS : M.hier);
	c->state = CG_NOMOUNT;
	if (M.hier <= CG_NOFS)
		return;
	c->state = CG_NOMEM;
	if (M.hier == CG_V2 && !M.memory)
		return;
	c->state = CG_OUTSIDE;
	if (strcmp(M.root, "/") != 0) {
		if (strncmp(path, M.root, rl) != 0 || (path[rl] && path[rl] != '/'))
			return;
		rel = path + rl;
	}
	fmt_snprintf(dir, sizeof(dir), "%s%s", M.dir, rel);
	if ((fd = openat(AT_FDCWD, dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0) {
		err = errno;
		c->state = err == ENOENT ? CG_GONE : CG_UNREADABLE;
		if (err != ENOENT)
			warnerr(err, "cgroups: %s", dir);
		return;
	}
	err = read_num(fd, M.hier == CG_V2 ? "memory.current" : "memory.usage_in_bytes",
		       &c->v[CH_CHARGED]);
	if (err == -ENOENT) {
		/* v2's root has no memory.current; a removed cgroup none either */
		c->state = M.hier == CG_V2 && !rel[strspn(rel, "/")] ? CG_ROOT :
			   faccessat(fd, "cgroup.procs", F_OK, 0) != 0 ? CG_GONE : CG_NOMEM;
		close(fd);
		return;
	}
	c->state = CG_UNREADABLE;
	if (err < 0 || (err = (int)read_small(fd, "memory.stat", text, sizeof(text))) < 0) {
		close(fd);
		if (err == -ENOENT || err == -ENODEV)
			c->state = CG_GONE;
		else
			warnerr(-err, "cgroups: %s: reading its charge", dir);
		return;
	}
	close(fd);
	c->known = 1u << CH_CHARGED;
	for (i = CH_ANON; i < CH_N; i++)
		if (stat_value(keys[M.hier == CG_V2][i], &c->v[i]) == 0)
			c->known |= 1u << i;
	c->state = CG_OK;
}

/* The 64 hex digits of a container id at s, then suffix and the end. */
static int container_id(const char *s, const char *suffix)
{
	size_t i;

	for (i = 0; i < 64; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return 0;
	return strcmp(s + 64, suffix) == 0;
}

#define COMP_MAX	256	/* a cgroup's name: kernfs takes 255 bytes */

/*
 * What a cgroup's path names, for a person: a container (its runtime and
 * its short id, 12 hex digits, as docker ps and podman ps show it), else a
 * systemd unit (its last component), else the path itself. Its length.
 */
size_t cg_name(const char *path, char *buf, size_t len)
{
	static const struct {
		const char *prefix, *runtime;
	} scopes[] = {	/* systemd's driver: a scope, "PREFIX" ID ".scope" */
		{ "docker-", "docker" }, { "libpod-", "podman" }, { "crio-", "cri-o" },
		{ "cri-containerd-", "containerd" }, { "libpod-conmon-", "conmon" },
	};
	static const char *const units[] = {
		".service", ".scope", ".slice", ".socket", ".mount", ".swap",
	};
	static char comp[2][COMP_MAX];
	const char *c = path, *e;
	int k = 0;
	size_t i, n = 0;

	comp[1][0] = '\0';
	for (; ; c = e + 1, k ^= 1) {
		const char *prev = comp[k ^ 1];

		e = strchr(c, '/');
		n = e ? (size_t)(e - c) : strlen(c);
		if (n >= COMP_MAX)
			n = COMP_MAX - 1;
		memcpy(comp[k], c, n);
		comp[k][n] = '\0';
		for (i = 0; i < sizeof(scopes) / sizeof(scopes[0]); i++) {
			size_t pl = strlen(scopes[i].prefix);

			if (strncmp(comp[k], scopes[i].prefix, pl) == 0 &&
			    container_id(comp[k] + pl, ".scope"))
				return (size_t)fmt_snprintf(buf, len, "%s %.12s", scopes[i].runtime,
							    comp[k] + pl);
		}
		/* cgroupfs drivers: /docker/ID, /libpod_parent/libpod-ID, kubepods' ID */
		if (container_id(comp[k], "") && strcmp(prev, "docker") == 0)
			return (size_t)fmt_snprintf(buf, len, "docker %.12s", comp[k]);
		if (strncmp(comp[k], "libpod-", 7) == 0 && container_id(comp[k] + 7, ""))
			return (size_t)fmt_snprintf(buf, len, "podman %.12s", comp[k] + 7);
		if (container_id(comp[k], "") && strncmp(prev, "pod", 3) == 0)
			return (size_t)fmt_snprintf(buf, len, "k8s %.12s", comp[k]);
		if (strcmp(prev, "lxc") == 0 || strncmp(comp[k], "lxc.payload.", 12) == 0)
			return (size_t)fmt_snprintf(buf, len, "lxc %s", comp[k] +
						    (strcmp(prev, "lxc") == 0 ? 0 : 12));
		if (!e)
			break;
	}
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		size_t u = strlen(units[i]);

		if (n > u && strcmp(comp[k] + n - u, units[i]) == 0)
			return (size_t)fmt_snprintf(buf, len, "%s", comp[k]);
	}
	return (size_t)fmt_snprintf(buf, len, "%s", path);
}

/* The row of path in the table of slots (mask + 1 of them, 0 empty). */
static uint32_t *slot_of(struct cgroup *rows, uint32_t *slot, uint32_t mask, const char *path,
			 size_t n)
{
	uint32_t h = hash_bytes(HASH_SEED, path, n) & mask;

	for (; slot[h]; h = (h + 1) & mask) {
		const char *q = rows[slot[h] - 1].path;

		if (strncmp(q, path, n) == 0 && !q[n])
			break;
	}
	return &slot[h];
}

/*
 * One row per cgroup that holds scanned processes, each process's figures
 * added to its row, the charges read once now (live) or taken from the
 * capture, and the rows that another row holds (a v1 root with processes,
 * say) marked: their charge is in that one's. Built once.
 */
struct cgroup *cgroups_build(struct scan *s, uint32_t *nrow)
{
	uint32_t slots = 16, mask, *slot, n = 0, i;
	struct cgroup *rows;

	if (s->cgroups) {
		*nrow = s->ncgroup;
		return s->cgroups;
	}
	while (slots < 2 * s->nproc)
		slots <<= 1;
	mask = slots - 1;
	slot = arena_alloc(s->arena, (size_t)slots * 4, 4);
	memset(slot, 0, (size_t)slots * 4);
	rows = arena_alloc(s->arena, ((size_t)s->nproc + 1) * sizeof(*rows), 8);
	for (i = 0; i < s->nproc; i++) {
		struct cgproc *c = s->procs[i]->cg;
		uint32_t *sl;
		struct cgroup *r;

		if (!c)
			continue;
		if (!*(sl = slot_of(rows, slot, mask, c->path, strlen(c->path)))) {
			r = &rows[n];
			memset(r, 0, sizeof(*r));
			r->path = c->path;
			if (c->loaded)
				r->charge = c->charge;
			else
				cg_charge(r->path, &r->charge);
			*sl = ++n;
		}
		c->row = *sl - 1;
		r = &rows[c->row];
		r->nproc++;
		fig_add(&r->fig, &s->procs[i]->fig);
	}
	for (i = 0; i < n; i++) {	/* an ancestor that is a row too */
		size_t k = strlen(rows[i].path);

		while (k > 1 && !rows[i].nested) {
			while (k > 1 && rows[i].path[--k] != '/')
				;
			rows[i].nested = *slot_of(rows, slot, mask, rows[i].path, k ? k : 1) != 0;
		}
	}
	s->cgroups = rows;
	s->ncgroup = n;
	*nrow = n;
	return rows;
}
