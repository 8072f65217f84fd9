/* censusdump: the census of RAM frames from each source, for the module's system test. */
/*
 * censusdump - the census of RAM frames, from /proc/kpageflags and from the
 * exmap_mini module (src/census.c, src/kmodsrc.c), until exmap-mini's ram
 * view shows it
 *
 * usage: censusdump [kpageflags|kmod]...   (default: both, kpageflags first)
 *
 * The RAM is /proc/iomem's top-level "System RAM" ranges. Prints
 *	ram,FRAMES,PAGESIZE
 * then for each source that answers
 *	census,KIND,FRAMES,SOURCE	(each kind of census.h, in its order,
 *					 then "outside": free outside the buddy
 *					 allocator)
 *	census,frames|mapped|thp,FRAMES,SOURCE
 *	settle,inferred|heads_only|buddyinfo|buddy_blocks|outside_want|bare,N,SOURCE
 * (what census_settle took from the kernel's counts: census.h).
 * A source that cannot be read is named on stderr with the reason (the
 * module's census.h line for a module too old). Exit 0, 1 if a source
 * failed, 2 on bad usage or no RAM ranges.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "census.h"

#define MAX_RANGES	64	/* System RAM ranges read from /proc/iomem */

static struct ramrange ranges[MAX_RANGES];

/* The top-level System RAM ranges of /proc/iomem: how many, or -1. */
static int read_iomem(void)
{
	char line[256];
	int n = 0;
	FILE *f = fopen("/proc/iomem", "r");

	if (!f) {
		fprintf(stderr, "censusdump: /proc/iomem: %s\n", strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		uint64_t a, b;
		int end = 0;

		if (sscanf(line, "%" SCNx64 "-%" SCNx64 " : System RAM%n", &a, &b, &end) != 2 ||
		    end == 0 || (line[end] != '\n' && line[end] != '\0') || b < a)
			continue;
		if (n == MAX_RANGES) {
			fprintf(stderr, "censusdump: more than %d System RAM ranges (MAX_RANGES)\n",
				MAX_RANGES);
			fclose(f);
			return -1;
		}
		ranges[n].start = a;
		ranges[n++].end = b + 1;
	}
	fclose(f);
	return n;
}

static int dump(const char *src, int n, int shift)
{
	struct census c;
	int err, k;

	if (!strcmp(src, "kpageflags"))
		err = census_kpageflags(&c, ranges, n, shift);
	else
		err = census_kmod(&c, ranges, n, shift);
	if (err == -EPROTONOSUPPORT) {
		fprintf(stderr, "censusdump: %s: %s\n", src, CENSUS_KMOD_OLD);
		return 1;
	}
	if (err) {
		fprintf(stderr, "censusdump: %s: %s\n", src, strerror(-err));
		return 1;
	}
	for (k = 0; k < FK_N; k++)
		printf("census,%s,%" PRIu64 ",%s\n", frame_kind_name[k], c.kind[k], c.source);
	printf("census,outside,%" PRIu64 ",%s\n", c.outside, c.source);
	printf("census,frames,%" PRIu64 ",%s\n", c.frames, c.source);
	printf("census,mapped,%" PRIu64 ",%s\n", c.mapped, c.source);
	printf("census,thp,%" PRIu64 ",%s\n", c.thp, c.source);
	printf("settle,inferred,%" PRIu64 ",%s\n", c.inferred, c.source);
	printf("settle,heads_only,%d,%s\n", c.heads_only, c.source);
	printf("settle,buddyinfo,%" PRIu64 ",%s\n", c.buddy_frames, c.source);
	printf("settle,buddy_blocks,%" PRIu64 ",%s\n", c.buddy_heads, c.source);
	printf("settle,outside_want,%" PRIu64 ",%s\n", c.outside_want, c.source);
	printf("settle,bare,%" PRIu64 ",%s\n", c.bare, c.source);
	return 0;
}

int main(int argc, char **argv)
{
	static char *both[] = { "kpageflags", "kmod" };
	char **src = argc > 1 ? argv + 1 : both;
	int nsrc = argc > 1 ? argc - 1 : 2, n, i, shift = 0, rc = 0;
	long psize = sysconf(_SC_PAGESIZE);
	uint64_t frames = 0;

	for (i = 0; i < nsrc; i++) {
		if (strcmp(src[i], "kpageflags") && strcmp(src[i], "kmod")) {
			fprintf(stderr, "usage: censusdump [kpageflags|kmod]...\n");
			return 2;
		}
	}
	while ((1L << shift) < psize)
		shift++;
	n = read_iomem();
	if (n <= 0) {
		if (n == 0)
			fprintf(stderr, "censusdump: /proc/iomem: no System RAM (not root?)\n");
		return 2;
	}
	for (i = 0; i < n; i++)
		frames += (ranges[i].end >> shift) - (ranges[i].start >> shift);
	printf("ram,%" PRIu64 ",%ld\n", frames, psize);
	for (i = 0; i < nsrc; i++)
		rc |= dump(src[i], n, shift);
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "censusdump: stdout: %s\n", strerror(errno));
		return 1;
	}
	return rc;
}
