/* Captures: the ram view's figures as lines of a chunk, and back. */
/*
 * Chunk 2 of a v2 capture, one line a figure: "i NAME BYTES" a meminfo
 * counter; "v KEY N" and "s KEY TEXT" the sources' figures; "l LIST COUNT
 * BYTES" and "t LIST NAME BYTES" the named consumers (slab, tmpfs, ramfs,
 * sysv, modules); "g NAME BYTES NOMAP REUSABLE" a device-tree region; "k
 * KIND FRAMES" the census (and "v census_*" the counts that settled it);
 * "d shm|huge DEV" the mounts a mapping's device is judged by; "o NOTE" a
 * note. Letters no other chunk uses.
 */
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include "capture.h"
#include "kowner.h"
#include "ramsrc.h"

enum { RK_U64, RK_FRAMES, RK_U32, RK_INT, RK_STR };

/* What a machine can have: a figure past these is not a dump's (the view's
 * sums stay within 64 bits): a PiB, and a PiB's frames at 256 KiB pages. */
#define RAM_BYTES_MAX	(UINT64_C(1) << 50)
#define RAM_FRAMES_MAX	(UINT64_C(1) << 32)

#define K(name, type, field)	{ name, type, offsetof(struct ramsrc, field) }
static const struct {
	const char *key;
	uint8_t type;
	uint16_t off;
} keys[] = {
	K("time", RK_U64, time_s), K("uptime", RK_U64, uptime_s),
	K("installed", RK_U64, installed), K("installed_src", RK_STR, installed_src),
	K("sysram", RK_U64, sysram), K("have_iomem", RK_INT, have_iomem),
	K("kcode", RK_U64, kcode), K("kdata", RK_U64, kdata), K("kbss", RK_U64, kbss),
	K("kimage_src", RK_STR, kimage_src), K("boot_reserved", RK_U64, boot_reserved),
	K("have_dt", RK_INT, have_dt), K("have_slabinfo", RK_INT, have_slabinfo),
	K("vmalloc_stacks", RK_U64, vmalloc_stacks), K("vmalloc_info", RK_U64, vmalloc_info),
	K("have_vmallocinfo", RK_INT, have_vmallocinfo), K("zram_used", RK_U64, zram_used),
	K("zram_compr", RK_U64, zram_compr), K("zram_orig", RK_U64, zram_orig),
	K("nzram", RK_U32, nzram), K("census_err", RK_INT, census_err),
	K("census_frames", RK_FRAMES, census.frames), K("census_mapped", RK_FRAMES, census.mapped),
	K("census_thp", RK_FRAMES, census.thp), K("census_source", RK_STR, census.source),
	/* since the census was settled with the kernel's counts (2026-11-26) */
	K("census_outside", RK_FRAMES, census.outside),
	K("census_outside_want", RK_FRAMES, census.outside_want),
	K("census_bare", RK_FRAMES, census.bare), K("census_inferred", RK_FRAMES, census.inferred),
	K("census_buddy_frames", RK_FRAMES, census.buddy_frames),
	K("census_buddy_heads", RK_FRAMES, census.buddy_heads),
	K("census_heads_only", RK_INT, census.heads_only),
	K("census_moved", RK_FRAMES, census.moved), K("census_ms", RK_U64, census.ms),
};
#undef K

static const char *const lists[] = { "slab", "tmpfs", "ramfs", "sysv", "modules", "cma",
				     "cmaused" };

static struct ramtop *list_of(struct ramsrc *r, size_t i)
{
	struct ramtop *t[] = { &r->slab, &r->files.tmpfs, &r->files.ramfs, &r->files.sysv, &r->modules,
			       &r->cma, &r->cma_used };

	return t[i];
}

void ram_dump(const struct ramsrc *r, void (*line)(const char *, size_t))
{
	char e[3 * PATH_BUF / 16 + 8];
	size_t i, j;

	for (i = 0; i < MI_N; i++)
		if (r->mi_have & 1u << i)
			cap_emit(line, "i %s %llu", ram_mi_name[i], (unsigned long long)r->mi[i]);
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		const char *p = (const char *)r + keys[i].off;

		switch (keys[i].type) {
		case RK_U64: case RK_FRAMES: cap_emit(line, "v %s %llu", keys[i].key, (unsigned long long)*(const uint64_t *)p); break;
		case RK_U32: cap_emit(line, "v %s %u", keys[i].key, *(const uint32_t *)p); break;
		case RK_INT: cap_emit(line, "v %s %d", keys[i].key, *(const int *)p); break;
		default: cap_emit(line, "s %s %s", keys[i].key, cap_esc(e, sizeof(e), *(const char *const *)p));
		}
	}
	for (i = 0; i < sizeof(lists) / sizeof(lists[0]); i++) {
		const struct ramtop *t = list_of((struct ramsrc *)r, i);

		cap_emit(line, "l %s %llu %llu", lists[i], (unsigned long long)t->count,
		     (unsigned long long)t->bytes);
		for (j = 0; j < t->n; j++)
			cap_emit(line, "t %s %s %llu", lists[i], cap_esc(e, sizeof(e), t->top[j].name),
			     (unsigned long long)t->top[j].bytes);
	}
	for (i = 0; i < r->nregion; i++)
		cap_emit(line, "g %s %llu %d %d", cap_esc(e, sizeof(e), r->region[i].name),
		     (unsigned long long)r->region[i].bytes, r->region_nomap[i], r->region_reusable[i]);
	for (i = 0; i < FK_N; i++)
		if (r->census.kind[i])
			cap_emit(line, "k %u %llu", (unsigned)i, (unsigned long long)r->census.kind[i]);
	for (i = 0; i < r->files.nshm_dev; i++)
		cap_emit(line, "d shm %x", r->files.shm_dev[i]);
	for (i = 0; i < r->files.nhuge_dev; i++)
		cap_emit(line, "d huge %x", r->files.huge_dev[i]);
	for (i = 0; i < r->nnotes; i++)
		cap_emit(line, "o %s", cap_esc(e, sizeof(e), r->notes[i]));
#ifndef EXMAP_NO_KOWNERS
	if (r->kown)
		kown_dump(r->kown, line);
#endif
}

/* A word of the line, unescaped into the arena. */
static const char *name_of(struct arena *a, const char *w)
{
	static char buf[RAM_NAME * 3 + 256];
	size_t n;

	if (cap_unescape(w, buf, sizeof(buf), &n) < 0)
		return NULL;
	return arena_strdup(a, buf, n);
}

/* A line of the ram chunk into r: 0, or -1 when it is not one dump writes. */
int ram_parse(struct ramsrc *r, char *p, struct arena *a)
{
	char *w[6];
	uint64_t v, v2;
	size_t i, n = 0;

	while (n < 6 && (w[n] = cap_field(&p)) != NULL)
		n++;
	if (p || n < 2 || w[0][1])
		return -1;
	switch (w[0][0]) {
	case 'i':
		for (i = 0; i < MI_N && strcmp(w[1], ram_mi_name[i]); i++)
			;
		if (n != 3 || i == MI_N || parse_u64(w[2], RAM_BYTES_MAX, &r->mi[i]) < 0)
			return -1;
		r->mi_have |= 1u << i;
		return 0;
	case 'v': case 's':
		for (i = 0; i < sizeof(keys) / sizeof(keys[0]) && strcmp(w[1], keys[i].key); i++)
			;
		if (n != 3 || i == sizeof(keys) / sizeof(keys[0]) || (keys[i].type == RK_STR) != (w[0][0] == 's'))
			return -1;
		{
			char *f = (char *)r + keys[i].off;
			int neg = w[2][0] == '-';

			if (keys[i].type == RK_STR)
				return (*(const char **)f = name_of(a, w[2])) ? 0 : -1;
			if (parse_u64(w[2] + neg, keys[i].type == RK_U64 ? RAM_BYTES_MAX :
				      keys[i].type == RK_FRAMES ? RAM_FRAMES_MAX :
				      keys[i].type == RK_U32 ? UINT32_MAX : INT32_MAX, &v) < 0 ||
			    (neg && keys[i].type != RK_INT))
				return -1;
			if (keys[i].type == RK_U64 || keys[i].type == RK_FRAMES)
				*(uint64_t *)f = v;
			else if (keys[i].type == RK_U32)
				*(uint32_t *)f = (uint32_t)v;
			else
				*(int *)f = neg ? -(int)v : (int)v;
		}
		return 0;
	case 'l': case 't':
		for (i = 0; i < sizeof(lists) / sizeof(lists[0]) && strcmp(w[1], lists[i]); i++)
			;
		if (i == sizeof(lists) / sizeof(lists[0]) || n != 4)
			return -1;
		{
			struct ramtop *t = list_of(r, i);
			const char *name;

			if (w[0][0] == 'l')
				return parse_u64(w[2], RAM_BYTES_MAX, &t->count) < 0 ||
				       parse_u64(w[3], RAM_BYTES_MAX, &t->bytes) < 0 ? -1 : 0;
			if (t->n == RAM_TOP || !(name = name_of(a, w[2])) || strlen(name) >= RAM_NAME ||
			    parse_u64(w[3], RAM_BYTES_MAX, &t->top[t->n].bytes) < 0)
				return -1;
			strcpy(t->top[t->n++].name, name);
		}
		return 0;
	case 'g':
		if (n != 5 || r->nregion == sizeof(r->region) / sizeof(r->region[0]) ||
		    !(w[1] = (char *)name_of(a, w[1])) || strlen(w[1]) >= RAM_NAME ||
		    parse_u64(w[2], RAM_BYTES_MAX, &r->region[r->nregion].bytes) < 0 ||
		    parse_u64(w[3], 1, &v) < 0 || parse_u64(w[4], 1, &v2) < 0)
			return -1;
		strcpy(r->region[r->nregion].name, w[1]);
		r->region_nomap[r->nregion] = (uint8_t)v;
		r->region_reusable[r->nregion++] = (uint8_t)v2;
		return 0;
	case 'k':
		if (n != 3 || parse_u64(w[1], FK_N - 1, &v) < 0 ||
		    parse_u64(w[2], RAM_FRAMES_MAX, &r->census.kind[v]) < 0)
			return -1;
		return 0;
	case 'd':
		if (n != 3 || hex_parse(w[2], UINT32_MAX, &v) < 0)
			return -1;
		if (strcmp(w[1], "shm") == 0 && r->files.nshm_dev < 32)
			r->files.shm_dev[r->files.nshm_dev++] = (uint32_t)v;
		else if (strcmp(w[1], "huge") == 0 && r->files.nhuge_dev < 8)
			r->files.huge_dev[r->files.nhuge_dev++] = (uint32_t)v;
		else
			return -1;
		return 0;
#ifndef EXMAP_NO_KOWNERS
	case 'z': case 'j': case 'q':	/* the kernel's memory by owner */
		return kown_parse(&r->kown, w, n, w[0][0], a);
#endif
	case 'o':
		if (n != 2 || r->nnotes == sizeof(r->notes) / sizeof(r->notes[0]) ||
		    !(r->notes[r->nnotes] = name_of(a, w[1])))
			return -1;
		r->nnotes++;
		return 0;
	}
	return -1;
}
