/* The ram view's sources: meminfo, iomem, the device tree, the boot log, tmpfs, slabinfo... */
/*
 * What the kernel says about all of RAM, each figure from where it is
 * kept: /proc/meminfo's counters; /proc/iomem (root) for System RAM and the
 * kernel image; SMBIOS or the device tree for what is installed, and the
 * device tree's reserved-memory regions by name; the boot log's "Memory:"
 * line where iomem is closed; the files of tmpfs and ramfs mounts;
 * /proc/sysvipc/shm, /proc/slabinfo, /proc/vmallocinfo, /proc/modules and
 * zram's mm_stat for the names. A source that cannot be read leaves a note.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "ramsrc.h"

static char text[1 << 16];	/* one /proc file at a time */

static void note(struct ramsrc *r, const char *what)
{
	if (r->nnotes < sizeof(r->notes) / sizeof(r->notes[0]))
		r->notes[r->nnotes++] = what;
}

const char *const ram_mi_name[MI_N] = {
	"MemTotal", "MemFree", "Buffers", "Cached", "AnonPages", "Mapped", "Shmem",
	"KReclaimable", "SReclaimable", "SUnreclaim", "KernelStack", "PageTables",
	"SecPageTables", "VmallocUsed", "Percpu", "CmaTotal", "CmaFree", "Hugetlb",
	"HugePages_Total", "Hugepagesize", "Zswap", "SwapTotal", "SwapFree",
	};

static void read_meminfo(struct ramsrc *r)
{
	const char *const *names = ram_mi_name;
	char *p = text, *l;
	int i;

	if (read_small(AT_FDCWD, "/proc/meminfo", text, sizeof(text)) < 0)
		die("cannot read /proc/meminfo: the ram view starts from it");
	while ((l = ram_line(&p)) != NULL) {
		char *c = strchr(l, ':');
		uint64_t v;

		if (!c)
			continue;
		*c = '\0';
		for (i = 0; i < MI_N; i++)
			if (strcmp(l, names[i]) == 0 && ram_dec(&(char *){ c + 1 }, &v) == 0) {
				r->mi[i] = i == MI_HP_TOTAL ? v : v * 1024;
				r->mi_have |= 1u << i;
			}
	}
	if (!(r->mi_have & 1u << MI_TOTAL))
		die("/proc/meminfo has no MemTotal");
	if (!(r->mi_have & 1u << MI_HUGETLB))	/* before 5.x: the default size only */
		r->mi[MI_HUGETLB] = r->mi[MI_HP_TOTAL] * r->mi[MI_HP_SIZE];
}

/* /proc/iomem: System RAM and, within it, the kernel image (root sees addresses). */
static void read_iomem(struct ramsrc *r, uint64_t page_size)
{
	char *p = text, *l;
	int in_ram = 0;

	if (read_small(AT_FDCWD, "/proc/iomem", text, sizeof(text)) < 0) {
		note(r, "/proc/iomem cannot be read: no System RAM ranges, no kernel image from it");
		return;
	}
	while ((l = ram_line(&p)) != NULL) {
		int depth = 0;
		uint64_t a, b;
		char *dash, *name;

		while (l[depth] == ' ')
			depth++;
		if (!(dash = strchr(l + depth, '-')) || !(name = strstr(dash, " : ")))
			continue;
		*dash = *name = '\0';
		name += 3;
		if (hex_parse(l + depth, UINT64_MAX, &a) < 0 || hex_parse(dash + 1, UINT64_MAX, &b) < 0 ||
		    b < a)
			continue;
		b++;
		if (depth == 0) {
			in_ram = strcmp(name, "System RAM") == 0;
			if (in_ram && b > a) {
				r->sysram += b - a;
				if (r->nranges < sizeof(r->ranges) / sizeof(r->ranges[0]))
					r->ranges[r->nranges++] = (struct ramrange){
						(a + page_size - 1) & ~(page_size - 1), b & ~(page_size - 1) };
			}
		} else if (in_ram && depth == 2 && strncmp(name, "Kernel ", 7) == 0) {
			if (strcmp(name + 7, "code") == 0)
				r->kcode += b - a;
			else if (strcmp(name + 7, "bss") == 0)
				r->kbss += b - a;
			else	/* data, rodata */
				r->kdata += b - a;
		}
	}
	r->have_iomem = r->sysram > 0;
	if (!r->have_iomem)
		note(r, "/proc/iomem shows no addresses without CAP_SYS_ADMIN");
	else if (r->kcode)
		r->kimage_src = "iomem";
}

/* A device-tree property's cells, big-endian, as numbers of ncell cells. */
static int dt_cells(const unsigned char *p, size_t len, size_t *at, uint32_t ncell, uint64_t *v)
{
	uint32_t i;

	if (*at + 4 * ncell > len || ncell > 2)
		return -1;
	for (*v = 0, i = 0; i < ncell; i++, *at += 4)
		*v = *v << 32 | (uint64_t)p[*at] << 24 | p[*at + 1] << 16 | p[*at + 2] << 8 | p[*at + 3];
	return 0;
}

static uint32_t dt_u32(int dirfd, const char *name, uint32_t dflt)
{
	unsigned char b[8];
	uint64_t v;
	size_t at = 0;
	ssize_t n = read_small(dirfd, name, (char *)b, sizeof(b));

	return n == 4 && dt_cells(b, 4, &at, 1, &v) == 0 ? (uint32_t)v : dflt;
}

/* The sizes a node's reg property gives, summed (the address cells skipped). */
static uint64_t dt_reg(int dirfd, const char *node, uint32_t ac, uint32_t sc, int *ok)
{
	static unsigned char reg[1024];
	char path[300];
	uint64_t sum = 0, v;
	size_t at = 0;
	ssize_t n;

	fmt_snprintf(path, sizeof(path), "%s/reg", node);
	n = read_small(dirfd, path, (char *)reg, sizeof(reg));
	*ok = n > 0;
	if (n <= 0) {
		fmt_snprintf(path, sizeof(path), "%s/size", node);	/* placed at boot */
		n = read_small(dirfd, path, (char *)reg, sizeof(reg));
		*ok = n > 0 && dt_cells(reg, (size_t)n, &at, sc, &sum) == 0;
		return *ok ? sum : 0;
	}
	while ((size_t)n - at >= 4 * (ac + sc)) {
		if (dt_cells(reg, (size_t)n, &at, ac, &v) < 0 || dt_cells(reg, (size_t)n, &at, sc, &v) < 0)
			break;
		sum += v;
	}
	return sum;
}

static int dt_has(int dirfd, const char *node, const char *prop)
{
	char path[300];

	fmt_snprintf(path, sizeof(path), "%s/%s", node, prop);
	return faccessat(dirfd, path, F_OK, 0) == 0;
}

/* The device tree: its memory nodes, and reserved-memory's regions by name. */
static uint64_t read_devtree(struct ramsrc *r)
{
	static char dents[4096];
	uint64_t mem = 0;
	uint32_t ac, sc;
	int fd, sub, pass;
	long n, off;

	if ((fd = open("/proc/device-tree", O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		return 0;
	r->have_dt = 1;
	ac = dt_u32(fd, "#address-cells", 2);
	sc = dt_u32(fd, "#size-cells", 1);
	for (pass = 0; pass < 2; pass++) {
		int dir = fd;

		if (pass == 1) {
			if ((sub = openat(fd, "reserved-memory", O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
				break;
			dir = sub;
			ac = dt_u32(sub, "#address-cells", ac);
			sc = dt_u32(sub, "#size-cells", sc);
		}
		lseek(dir, 0, SEEK_SET);
		while ((n = syscall(SYS_getdents64, dir, dents, sizeof(dents))) > 0)
			for (off = 0; off < n;) {
				struct linux_dirent64 *d = (void *)(dents + off);
				uint64_t size;
				int ok;

				off += d->d_reclen;
				if (d->d_type != DT_DIR || d->d_name[0] == '.')
					continue;
				if (pass == 0) {
					if (strncmp(d->d_name, "memory", 6) == 0 &&
					    (d->d_name[6] == '\0' || d->d_name[6] == '@'))
						mem += dt_reg(dir, d->d_name, ac, sc, &ok);
					continue;
				}
				size = dt_reg(dir, d->d_name, ac, sc, &ok);
				if (!ok || r->nregion == sizeof(r->region) / sizeof(r->region[0]))
					continue;
				fmt_snprintf(r->region[r->nregion].name, RAM_NAME, "%s", d->d_name);
				r->region[r->nregion].bytes = size;
				r->region_nomap[r->nregion] = dt_has(dir, d->d_name, "no-map");
				r->region_reusable[r->nregion] = dt_has(dir, d->d_name, "reusable");
				r->nregion++;
			}
		if (pass == 1)
			close(sub);
	}
	close(fd);
	return mem;
}

/* SMBIOS memory devices (type 17): what is installed on PCs and servers. */
static uint64_t read_smbios(void)
{
	unsigned char b[64];
	uint64_t sum = 0;
	char path[64];
	int i;

	for (i = 0; i < 256; i++) {
		ssize_t n;
		uint32_t size;

		fmt_snprintf(path, sizeof(path), "/sys/firmware/dmi/entries/17-%d/raw", i);
		if ((n = read_small(AT_FDCWD, path, (char *)b, sizeof(b))) < 0)
			break;
		if (n < 0x0e || b[1] < 0x0e)
			continue;
		size = b[0x0c] | b[0x0d] << 8;
		if (size == 0 || size == 0xffff)
			continue;
		if (size == 0x7fff && n >= 0x20 && b[1] >= 0x20)
			sum += (uint64_t)(b[0x1c] | b[0x1d] << 8 | b[0x1e] << 16 |
					  (uint32_t)(b[0x1f] & 0x7f) << 24) << 20;
		else
			sum += size & 0x8000 ? (uint64_t)(size & 0x7fff) << 10 : (uint64_t)size << 20;
	}
	return sum;
}

/* "NNNK" before word in the boot log's Memory: line, in bytes. */
static int kmsg_k(const char *line, const char *word, uint64_t *v)
{
	const char *w = find_str(line, word), *s;

	if (!w || w == line || w[-1] != ' ' || w[-2] != 'K')
		return -1;
	for (s = w - 2; s > line && s[-1] >= '0' && s[-1] <= '9'; s--)
		;
	if (ram_dec_prefix(s, v) < 0)
		return -1;
	*v *= 1024;
	return 0;
}

/*
 * The boot log's "Memory: 373628K/507136K available (11792K kernel code,
 * ... 133508K reserved, 0K cma-reserved)", while the ring buffer holds it.
 */
static uint64_t read_bootlog(struct ramsrc *r)
{
	char rec[1024];
	uint64_t total = 0, v;
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	ssize_t n;

	if (fd < 0) {
		note(r, "/dev/kmsg cannot be read: no boot log figures");
		return 0;
	}
	for (;;) {
		const char *m;
		char *slash;

		n = read(fd, rec, sizeof(rec) - 1);
		if (n < 0 && errno == EPIPE)	/* overwritten while read: go on */
			continue;
		if (n <= 0)
			break;
		rec[n] = '\0';
		if (!(m = strchr(rec, ';')) || strncmp(m + 1, "Memory: ", 8) != 0 ||
		    !(slash = strchr(m, '/')) || !find_str(m, "available"))
			continue;
		if (ram_dec_prefix(slash + 1, &total) == 0)
			total *= 1024;
		if (!r->kimage_src && kmsg_k(m, "kernel code", &r->kcode) == 0) {
			r->kimage_src = "boot log";
			if (kmsg_k(m, "rwdata", &v) == 0)
				r->kdata += v;
			if (kmsg_k(m, "rodata", &v) == 0)
				r->kdata += v;
			if (kmsg_k(m, "bss", &v) == 0)
				r->kbss = v;
		}
		kmsg_k(m, "reserved", &r->boot_reserved);
		break;
	}
	close(fd);
	if (!total)
		note(r, "the boot log no longer holds its \"Memory:\" line");
	return total;
}

/* Installed RAM: what firmware says is there, else what the kernel found. */
static void installed(struct ramsrc *r, uint64_t dt_mem, uint64_t boot_total)
{
	uint64_t nomap = 0;
	uint32_t i;

	for (i = 0; i < r->nregion; i++)
		if (r->region_nomap[i])
			nomap += r->region[i].bytes;
	if ((r->installed = read_smbios()) != 0)
		r->installed_src = "smbios";
	else if ((r->installed = dt_mem) != 0)
		r->installed_src = "devicetree";
	else if (r->have_iomem)
		r->installed = r->sysram + nomap, r->installed_src = "iomem";
	else if ((r->installed = boot_total) != 0)
		r->installed_src = "boot log";
	else
		r->installed = r->mi[MI_TOTAL], r->installed_src = "meminfo";
}

/* /proc/slabinfo (root): each cache's slabs, in the pages they hold. */
static void read_slabinfo(struct ramsrc *r, uint64_t page_size)
{
	static char big[1 << 18];
	char *p = big, *l;
	ssize_t n = read_small(AT_FDCWD, "/proc/slabinfo", big, sizeof(big));

	if (n < 0) {	/* the real reason: root only, or a kernel without it */
		note(r, n == -ENOENT ? "no /proc/slabinfo (SLOB, or no SLUB_DEBUG): slab caches not named" :
		     n == -EACCES ? "/proc/slabinfo cannot be read (root only): slab caches not named" :
		     "/proc/slabinfo cannot be read: slab caches not named");
		return;
	}
	r->have_slabinfo = 1;
	while ((l = ram_line(&p)) != NULL) {
		/* name active_objs num_objs objsize objperslab pagesperslab : tunables ... : slabdata active num shared */
		char *sd = strstr(l, ": slabdata "), *q = l, *name;
		uint64_t v[5], slabs;
		size_t nl;
		int k;

		if (!sd || l[0] == '#')
			continue;
		name = ram_word(&q);
		nl = strlen(name);
		for (k = 0; k < 5 && ram_dec(&q, &v[k]) == 0; k++)
			;
		q = sd + 10;
		if (k < 5 || ram_dec(&q, &slabs) < 0 || ram_dec(&q, &slabs) < 0)
			continue;
		ram_top_add(&r->slab, name, nl, slabs * v[4] * page_size);
	}
}

/* /proc/vmallocinfo (root): its pages, and those of kernel stacks. */
static void read_vmallocinfo(struct ramsrc *r, uint64_t page_size)
{
	static char buf[1 << 16];
	struct linebuf lb;
	size_t len;
	int fd = open("/proc/vmallocinfo", O_RDONLY | O_CLOEXEC), toolong;

	if (fd < 0) {
		note(r, "/proc/vmallocinfo cannot be read: vmalloc may hold kernel stacks, counted twice");
		return;
	}
	lb_init(&lb, fd);
	while (lb_next(&lb, buf, sizeof(buf), &len, &toolong) > 0) {
		const char *pg = find_str(buf, " pages=");
		uint64_t n;

		if (!pg || ram_dec_prefix(pg + 7, &n) < 0)
			continue;
		r->vmalloc_info += n * page_size;
		if (find_str(buf, "thread_stack") || find_str(buf, "dup_task_struct"))
			r->vmalloc_stacks += n * page_size;
	}
	close(fd);
	r->have_vmallocinfo = r->vmalloc_info > 0;
}

/* /proc/modules: each module's size, in pages. */
static void read_modules(struct ramsrc *r, uint64_t page_size)
{
	char *p = text, *l;

	if (read_small(AT_FDCWD, "/proc/modules", text, sizeof(text)) < 0)
		return;
	while ((l = ram_line(&p)) != NULL) {
		char *q = l, *name = ram_word(&q);
		uint64_t size;

		if (name && q && ram_dec(&q, &size) == 0)
			ram_top_add(&r->modules, name, strlen(name), (size + page_size - 1) & ~(page_size - 1));
	}
}

/* zram devices' mm_stat: data stored, compressed, and the RAM they take. */
static void read_zram(struct ramsrc *r)
{
	char path[64], buf[256];
	int i;

	for (i = 0; i < 32; i++) {
		uint64_t orig, compr, used;
		char *q = buf;

		fmt_snprintf(path, sizeof(path), "/sys/block/zram%d/mm_stat", i);
		if (read_small(AT_FDCWD, path, buf, sizeof(buf)) < 0)
			continue;
		if (ram_dec(&q, &orig) < 0 || ram_dec(&q, &compr) < 0 || ram_dec(&q, &used) < 0)
			continue;
		r->zram_orig += orig;
		r->zram_compr += compr;
		r->zram_used += used;
		r->nzram++;
	}
}

#ifdef EXMAP_NO_DMABUF	/* left out with dma-bufs: meminfo's CMA alone */
#define read_cma(r, page_size)	((void)(r))
#else
/* Each CMA area's pages and those given out, where sysfs says (total_pages
 * and available_pages, from 6.15); else meminfo's CmaTotal and CmaFree alone. */
static void read_cma(struct ramsrc *r, uint64_t page_size)
{
	int dir = openat(AT_FDCWD, "/sys/kernel/mm/cma", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	long n, off;

	if (dir < 0)
		return;
	while ((n = syscall(SYS_getdents64, dir, text, sizeof(text))) > 0)
		for (off = 0; off < n;) {
			struct linux_dirent64 *d = (void *)(text + off);
			char path[300], buf[32], *q = buf;
			uint64_t total, avail;

			off += d->d_reclen;
			fmt_snprintf(path, sizeof(path), "%.255s/total_pages", d->d_name);
			if (d->d_name[0] == '.' || read_small(dir, path, buf, sizeof(buf)) < 0 ||
			    ram_dec(&q, &total) < 0)
				continue;
			fmt_snprintf(path, sizeof(path), "%.255s/available_pages", d->d_name);
			q = buf;
			if (read_small(dir, path, buf, sizeof(buf)) < 0 || ram_dec(&q, &avail) < 0 ||
			    avail > total)
				continue;
			ram_top_add(&r->cma, d->d_name, strlen(d->d_name), total * page_size);
			ram_top_add(&r->cma_used, d->d_name, strlen(d->d_name), (total - avail) * page_size);
		}
	close(dir);
}
#endif

/* Every frame counted: by kpageflags or the module (-b), where either is there. */
static void read_census(struct ramsrc *r, const char *how, int page_shift)
{
	int want_kmod = strcmp(how, "kmod") == 0, err = -ENOENT;

	if (!r->nranges) {
		r->census_err = -ENODATA;
		return;
	}
	if (!want_kmod)
		err = census_kpageflags(&r->census, r->ranges, r->nranges, page_shift);
	if (err < 0 && strcmp(how, "pagemap") != 0 &&
	    (want_kmod || access("/proc/exmap-mini", F_OK) == 0))
		err = census_kmod(&r->census, r->ranges, r->nranges, page_shift);
	r->census_err = err;
}

/*
 * What the parts of MemTotal need and no more, for a watch's samples:
 * meminfo, the mounts' devices, vmalloc's stacks, zram. No census.
 */
void ram_read_parts(struct ramsrc *r, uint64_t page_size)
{
	memset(r, 0, sizeof(*r));
	r->time_s = clock_ns(CLOCK_REALTIME) / 1000000000u;
	r->uptime_s = clock_ns(CLOCK_BOOTTIME) / 1000000000u;
	read_meminfo(r);
	r->files.devs_only = 1;
	ram_read_mounts(&r->files, page_size);
	read_vmallocinfo(r, page_size);
	read_zram(r);
	read_cma(r, page_size);
	r->census_err = -ENOENT;
}

void ram_read(struct ramsrc *r, const char *census_how, uint64_t page_size)
{
	uint64_t dt_mem, boot_total;

	memset(r, 0, sizeof(*r));
	r->time_s = clock_ns(CLOCK_REALTIME) / 1000000000u;
	r->uptime_s = clock_ns(CLOCK_BOOTTIME) / 1000000000u;
	read_meminfo(r);
	read_iomem(r, page_size);
	dt_mem = read_devtree(r);
	boot_total = read_bootlog(r);
	installed(r, dt_mem, boot_total);
	ram_read_mounts(&r->files, page_size);
	if (r->files.no_mountinfo)
		note(r, "/proc/self/mountinfo cannot be read: tmpfs and ramfs files not named");
	else if (r->files.unreadable)
		note(r, "some files of tmpfs or ramfs mounts could not be looked at");
	ram_read_sysv(&r->files);
	read_slabinfo(r, page_size);
	read_vmallocinfo(r, page_size);
	read_modules(r, page_size);
	read_zram(r);
	read_cma(r, page_size);
	read_census(r, census_how, __builtin_ctzll(page_size));
}
