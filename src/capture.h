/* Captures: what the capture files share, and their interface. */
/*
 * Captures: what the capture files share. A dump writes a scan as lines of
 * printable ASCII, "XM CHUNK ...": a chunk per process (its mappings and
 * their run records), chunks of page share counts, a chunk of build-ids,
 * each closed by its line count and CRC-32, between a begin and an end line
 * that both carry the parameters. Loading picks those lines out of a raw
 * console log and rebuilds the scan; a chunk that does not verify is left
 * out, named, and what it held is said.
 *
 *	capwire.c	the format both directions share: escapes, CRC, header
 *	capdump.c	writing a dump
 *	caplog.c	reading a console log: printk cuts, joins; finding a capture
 *	capload.c	rebuilding a scan from the chunks
 *	capcheck.c	what a damaged capture lost, checked and named
 */
#ifndef CAPTURE_H
#define CAPTURE_H

#include "exmap.h"

/* ---- for the rest of the program ---- */

struct capbid {			/* the build-id of a mapped ELF file at capture */
	struct capbid *next;
	const char *path;
	uint64_t inode;
	uint32_t dev;
	uint32_t flags;		/* MF_DELETED */
	uint32_t len;
	const unsigned char *id;
};

struct capabsent {		/* a process the board could not read, and why */
	struct capabsent *next;
	int32_t pid;
	const char *why;	/* the board's strerror() */
};

struct ramsrc;

#define CAP_UNAME_MAX_TEXT	200	/* machine, release and node name, as text */

struct capture {
	const char *file;	/* the log it came from */
	struct ramsrc *ram;	/* the ram view's figures: v2 on */
	int ram_lost;		/* their chunk was damaged */
	struct capbid *bid;	/* a list */
	int bid_lost;		/* the build-id chunk was damaged */
	struct capabsent *absent;	/* a list, in the dump's order */
	uint32_t nabsent;
	int absent_lost;	/* the chunk naming them was damaged */
	uint32_t lost;		/* processes the capture holds that did not load */
	uint32_t counts_lost;	/* the first share-count chunk lost, where they
				   count mappers outside the view; or 0 */
	char src_name[32];	/* the page source it was taken with */
	char uname[CAP_UNAME_MAX_TEXT];	/* the machine it was taken on, unescaped */
};

#define CAP_SRC_MAX	32	/* a page source's name, escaped */
#define CAP_UNAME_MAX	160	/* machine, release and node name, escaped */

/* The parameters both the begin and the end line carry. */
struct cap_header {
	int version;		/* 1: processes first; 2: share counts first */
	uint64_t ps;
	uint32_t chunks, ids, procs, vanished, empty, unreadable;
	uint64_t id;		/* this capture's, so that two are never mixed */
	char src[CAP_SRC_MAX];
	char uname[CAP_UNAME_MAX];
};

/*
 * A capture, as found in its log: where its lines are and its parameters.
 * A log may hold several (one console session, dump after dump): each
 * begin line starts one, its end line closes it, and an end line whose
 * begin line was lost closes one made of the capture lines before it.
 * LOG@N picks the Nth (from 1; @-1 the last, the default). capture_open
 * fills it (and says how much arena loading it can take); load_capture
 * reads the log once more, from start to stop.
 */
struct capfile {
	const char *path;	/* as given: LOG, or LOG@N */
	char file[PATH_BUF];	/* the log: the path without its @N */
	uint64_t size;
	struct cap_header h;
	uint64_t start;		/* its lines come after this log line */
	uint64_t first;		/* its first line */
	uint64_t stop;		/* and end at this one (its end line, or the next
				   capture's begin line); 0: at the log's end */
	uint64_t end_line;	/* 0: its end line is missing */
	uint64_t stray_after;	/* capture lines after it that no capture holds */
	uint32_t place, ncap;	/* its place among the log's captures, from 1 */
	int chosen;		/* the place was given (LOG@N) */
	int begin_bad;		/* the end line stands in */
	/* a watch log's last sample, the place after its captures when no whole
	 * capture came after it (the watch was killed): diff reads it (wlast.c),
	 * from the samples after log line sample_after */
	int sample;
	uint64_t sample_after;
};

/* One capture of a log, as listing them finds it (the captures view). */
struct capinfo {
	uint32_t place;
	uint64_t begin_line, end_line;	/* 0: missing */
	uint64_t first, last;	/* the log lines its capture lines span */
	uint64_t nxm;		/* its capture lines, begin and end lines aside */
	uint64_t start;		/* its lines come after this log line */
	uint64_t stray_after;
	int bok, eok;		/* begin and end lines whole (0) or not (-1) */
	int vb, ve;		/* the versions they name, when known */
	struct cap_header hb, he;
	uint32_t chunks_ok;	/* chunks 1, 2, ... whose line count and CRC check out */
	uint32_t frame_k, frame_lines, frame_crc;	/* the chunk being checked */
	uint64_t time_s, uptime_s;	/* v2: when taken (chunk 2), if it checked out */
	uint64_t time_try, uptime_try;
};

/* What listing a log found in all. */
struct capsum {
	uint64_t xm;		/* lines that start with "XM " */
	uint64_t checked;	/* begin, end and chunk-end lines that check out */
	uint64_t stray;		/* capture lines that no capture holds */
	uint64_t watch;		/* a watch's sample lines ("XM w"), not capture lines */
	uint64_t watch_last;	/* the log line of the last of them */
	uint64_t whole_last;	/* the last line of the last whole capture */
	int newer;		/* the highest version a begin or end line names */
	uint32_t ncap;
};
/* Watch lines after the last whole capture: the log's last sample is a place
 * of its own, after the captures (LOG@N, N = ncap + 1), if the reader finds one. */
#define CAPSUM_SAMPLES(sum)	((sum)->watch_last > (sum)->whole_last)

uint64_t capture_open(const char *path, struct capfile *cf);
int capture_reopen(const struct capfile *cf);
int caplog_open(const char *path, struct capfile *cf, int *fd);
void caplog_list(struct capfile *cf, int fd, void (*fn)(const struct capinfo *, void *),
		 void *arg, struct capsum *sum);
void caplog_check(const struct capfile *cf, const struct capsum *sum);
int capinfo_whole(const struct capinfo *c);
void load_capture(struct scan *s, struct arena *a, const struct capfile *cf);
void dump_capture(struct scan *s);
/* 1 and the id when the capture names one; 0 when the file had none; -1 lost */
int capture_buildid(const struct capture *c, const struct file *f,
		    const unsigned char **id, size_t *len);

/* ---- capwire.c: the format ---- */

#define CAP_VERSION	2	/* the format dump writes; load reads 1 too */
#define CAP_IDS_CHUNK	8192	/* share counts per chunk */
#define CAP_WRAP	100	/* run and count lines are ended past this length */
#define CAP_PIECE	200	/* v2: longer lines go on in "+ " lines */
#define CAP_PHYS_MAX	256	/* v2: no line of a capture is longer, its tag and newline in */
#define CAP_LINE_MAX	16384	/* longest capture line, continuations joined */
#define CAP_PS_MAX	(1u << 18)	/* the largest base page Linux has (256 KiB) */

/*
 * Chunk kinds, from the chunk number. v2: the unreadable processes, the ram
 * view's figures, the share counts, the processes, the build-ids (a log cut
 * short keeps the processes before the cut, exact). v1: processes, counts,
 * build-ids.
 */
enum { CK_PROC, CK_COUNT, CK_BID, CK_ABSENT, CK_RAM };
extern const char cap_run_letter[];	/* by run kind; capitals: written */

uint32_t cap_crc32(uint32_t crc, const char *p, size_t n);
size_t cap_escape(char *to, size_t room, const char *s, size_t n);
const char *cap_esc(char *buf, size_t len, const char *s);
void cap_emit(void (*line)(const char *, size_t), const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int cap_unescape(const char *s, char *to, size_t room, size_t *n);
char *cap_field(char **p);
uint32_t cap_count_chunks(uint32_t ids);
int cap_chunk_kind(const struct cap_header *h, uint32_t k);
uint32_t cap_first_count(const struct cap_header *h);
uint32_t cap_first_proc(const struct cap_header *h);
uint32_t cap_nchunks(const struct cap_header *h);
size_t cap_header_text(char *buf, size_t len, const struct cap_header *h);
int cap_parse_header(const char *text, struct cap_header *h, int *version);
struct cgcharge;
struct cgproc;
#ifdef EXMAP_NO_CGROUPS
/* CGROUPS=0: no y line written; one read is passed over */
#define cap_cgroup_text(buf, room, path, c)	((void)(path), (void)(c), (size_t)0)
#define cap_cgroup_parse(p, a, out)	((void)(p), (void)(a), (void)(out), 0)
#else
size_t cap_cgroup_text(char *buf, size_t room, const char *path, const struct cgcharge *c);
int cap_cgroup_parse(char *p, struct arena *a, struct cgproc **out);
#endif

/* ---- capram.c: the ram view's figures as a chunk's lines, and back ---- */

void ram_dump(const struct ramsrc *r, void (*line)(const char *, size_t));
int ram_parse(struct ramsrc *r, char *line, struct arena *a);

/* ---- caplog.c: a console log ---- */

struct caplog {
	const char *path;
	struct linebuf lb;
	uint64_t lineno;	/* of the log, from 1 */
	int have_peek;
	size_t peek_len;
};
void caplog_start(struct caplog *g, const char *path, int fd);
int caplog_raw(struct caplog *g, char *buf, size_t *len);
int printk_at(const char *p);
const char *caplog_next(struct caplog *g, uint64_t *at);

/* ---- capload.c and capcheck.c: loading ---- */

enum { CS_UNSEEN, CS_OK, CS_BAD };

struct chunkstate {
	uint8_t state;
	int32_t pid;		/* a process chunk's, once known; -1 unknown */
	uint64_t first, last;	/* log lines it spans */
	uint64_t line;		/* the first line that did not parse, or 0 */
	uint32_t got, want;	/* lines, when the count is off */
	const char *why;
};

struct loader {
	struct scan *s;
	struct capture *cap;
	const char *path;
	struct cap_header h;
	struct chunkstate *cs;	/* by chunk number, from 1 */
	struct caplog log;
	/* the open chunk */
	uint32_t cur, lines, crc;
	uint64_t opened;
	int bad, stray;
	const char *why;
	uint64_t why_line;
	uint32_t view;		/* the scan's OV_* flags before it */
	size_t lo, hi;
	uint64_t nrun;
	struct proc *last;
	uint32_t nproc;
	struct capbid *bid;
	struct capabsent *absent;
	uint32_t nabsent;
	/* a line whose "+ " lines may follow, parsed when the next line comes */
	int have_pend;
	size_t pend_len;
	uint64_t pend_at;	/* its log line */
	uint64_t at;		/* the log line being parsed */
	uint32_t nlogical;	/* lines of the chunk, continuations joined */
	/* parsing inside it */
	struct proc *p;
	struct mapping **tail, *m;
	uint64_t left;		/* pages of mapping m not yet in runs */
	uint32_t hwm, cfirst, cn, cgot;
	uint32_t *hid, xgot;	/* "x": the mappers outside the view, by id */
	int xseen;		/* a count chunk with "x" lines loaded */
	uint32_t loaded_procs;
};

void capture_check(struct loader *L);

#endif
