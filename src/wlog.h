/* Watch logs: the samples between a watch's captures, written and read back. */
/*
 * A watch log is a console log: a capture, then samples as "XM w" lines of
 * at most 256 bytes, each with its own sequence number and CRC-32, holding
 * only what changed since the sample before, with keyframes that state it
 * all; then a capture again. /work/notes/watch-format.md (and the manual)
 * give the line format.
 *
 *	wlwire.c	the line: written, escaped, checked
 *	wsample.c	a sample: compared with the last one, what changed written
 *	watch.c		the loop: a scan every interval, the captures, -o and rotation
 *	wlog.c		reading a log back: its lines into the reader's state (wlread.h)
 *	wlstate.c	a sample closed: losses marked, each entity given
 */
#ifndef WLOG_H
#define WLOG_H

#include "exmap.h"

#define WL_FORMAT	2	/* h's first field; 1 (no eff_dmabuf) is read too */
#define WL_LINE_MAX	256	/* a watch line, "XM w " and newline in */
#define WL_SEQ_MOD	4096	/* SEQ counts lines modulo this */
#define WL_KEYFRAME	60	/* samples from a keyframe to the next */
#define WL_CAP_MAX	(1u << 22)	/* a table capacity a reader accepts */
#define WL_RAM_MAX	256	/* ram parts and kernel owners */
#define WL_RAM_OWNER	16	/* an R line's DEPTH for a kernel owner (kowner.h), not a part */

/* The classes of a sample's lines, in the order they come. */
enum wl_class {
	WC_HEAD, WC_RAMDEF, WC_FILEDEF, WC_PROCDEF, WC_CGDEF, WC_PROC, WC_PART, WC_FILE, WC_RAM,
	WC_END, WC_TIME, WC_STOP, WC_N
};
extern const char wl_class_char[WC_N + 1];	/* "hRFPGpqfrxte" */

/* A process's figures, in p's MASK order. */
enum wl_field { WL_EFF_RESIDENT, WL_SOLE, WL_RESIDENT, WL_SWAP, WL_WRITABLE, WL_EFF_DMABUF,
	       WL_NFIELD };	/* eff_dmabuf: its dma-bufs' share (dmabuf.h), in bytes */
extern const char *const wl_field_name[WL_NFIELD];

/* What a process's memory is split into (q's PART). */
enum wl_part { WL_PART_FILE, WL_PART_DATA, WL_PART_HEAP, WL_PART_STACK, WL_PART_ANON, WL_NPART };
extern const char wl_part_char[WL_NPART + 1];	/* "fdhsa" */
extern const char *const wl_part_name[WL_NPART];	/* file data [heap] [stack] anon */

/* ---- wlwire.c: the line, written (to out()) and checked ---- */

void wl_item(int cls, const char *text, size_t n);
void wl_itemf(int cls, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void wl_def(int cls, const char *head, size_t hn, const char *text, size_t tn);
uint32_t wl_flush(void);
uint32_t wl_count(void);
int wl_unescape(const char *s, size_t len, char *to, size_t room, size_t *n);
int wl_line_check(char *body, uint32_t *seq, int *class, char **items);

/* ---- wsample.c: a sample's lines (the writer) ---- */

void wsample_begin(uint64_t id, uint64_t interval_ms);
void wsample_write(struct scan *s, uint64_t real_ms, uint64_t up_ms, int key);
void wsample_end(const char *why);

/* ---- watch.c: the loop ---- */

struct watch_opts {
	uint64_t interval_ms;
	uint64_t count;		/* 0: until SIGINT or SIGTERM */
	const char *out;	/* -o FILE: the log goes there, else stdout */
	uint64_t max;		/* --max: FILE renamed FILE.1 at this size; 0: never */
	/* each sample written by this, not the log (watch ... metrics): the
	 * scan, and how long it took */
	void (*sample)(struct scan *s, uint64_t scan_ns);
};
/* Every sample scans again through rescan (the arena given back first). */
void watch(struct scan *s, struct opts *o, const struct watch_opts *w,
	   int (*rescan)(struct scan *s));

/* ---- wlog.c, wlstate.c: reading a log back (host builds: LOAD=1) ---- */

struct wl_proc {
	uint32_t id;		/* the log's; reused after the process exits */
	int32_t pid;
	uint64_t start;		/* clock ticks since boot (/proc/PID/stat's starttime) */
	char name[NAME_MAX_COMM];	/* comm */
	const char *cmdline;	/* the arguments, a NUL after each */
	uint32_t cmdlen;
	int born;		/* it started during the watch (else it ran at its start) */
	const char *cgroup;	/* its cgroup's path (G); NULL: none given */
	int cgroup_doubt;	/* a G line that may have been its was lost */
};

struct wl_file {
	uint32_t id;
	const char *path;	/* as the files view names it: [heap], [anon], ... */
	uint64_t inode;
	uint32_t dev;		/* major << 20 | minor */
	uint32_t flags;		/* MF_DELETED, MF_DEVICE */
};

enum wl_kind { WL_PROC, WL_FILE, WL_PARTOF, WL_RAM };

/* One entity's values at a sample. */
struct wl_value {
	enum wl_kind kind;
	const struct wl_proc *proc;	/* WL_PROC, WL_PARTOF */
	const struct wl_file *file;	/* WL_FILE; WL_PARTOF of a file (FILE, DATA): never NULL */
	enum wl_part part;		/* WL_PARTOF */
	const char *ram;		/* WL_RAM: the part's name in the ram view */
	int ram_depth;
	int64_t v[WL_NFIELD];		/* bytes; WL_PROC all six, the rest v[0] */
	uint32_t known;			/* a bit per field known at this sample */
	uint32_t changed;		/* a bit per field written in this sample */
};

/* A sample, and the watch run it belongs to. */
struct wl_sample {
	uint64_t n;		/* its number in its run, from 0 */
	uint64_t time_ms;	/* realtime, ms since 1970 */
	uint64_t uptime_ms;	/* since boot (CLOCK_BOOTTIME) */
	int keyframe;
	uint32_t run;		/* the log's watch runs, from 1 */
	uint64_t run_id;	/* the run's id (h) */
	uint64_t interval_ms;	/* the run's interval */
	uint64_t page_size;
	uint64_t line;		/* its t line's number in its file */
	const char *file;	/* which: FILE.1 or FILE */
	uint32_t unknown;	/* values unknown at it (lost lines) */
	int unsure;		/* WL_UNSURE_*: values of it whose owner is not known */
};

/* A definition lost (or a record naming what was not defined): some value of
 * the sample belongs to a process, or a file, the reader cannot name; it is
 * not given, so that a sum of the processes of a name, or of the files of a
 * path, at this sample may lack it. Until a keyframe states them all again. */
#define WL_UNSURE_PROCS	1
#define WL_UNSURE_FILES	2

struct wl_ops {
	void (*sample)(void *arg, const struct wl_sample *s);
	void (*started)(void *arg, const struct wl_sample *s, const struct wl_proc *p);
	void (*value)(void *arg, const struct wl_sample *s, const struct wl_value *v);
	void (*exited)(void *arg, const struct wl_sample *s, const struct wl_proc *p);
	void (*sample_end)(void *arg, const struct wl_sample *s);
};

/* What a walk found: for notes and tests. */
struct wl_stats {
	uint64_t lines;		/* watch lines read whole */
	uint64_t bad;		/* watch lines whose check failed */
	uint64_t lost;		/* lines missing: SEQ gaps, and damaged lines at the end */
	uint64_t damaged;	/* of the lost, those that arrived damaged (<= bad) */
	uint64_t repeated;	/* lines behind the last (repeated, out of order): ignored */
	uint64_t garbled;	/* lines that check out but are not understood */
	uint64_t undefined;	/* records naming a process, file or part not defined */
	uint64_t unordered;	/* samples closed out of order: not given */
	uint64_t samples, keyframes, runs;
	uint64_t skipped;	/* samples before the first keyframe, not given */
	uint64_t unknown;	/* samples given with some value unknown */
	uint64_t writer_mem, writer_peak;	/* the last h's MEM and PEAK */
};

struct wlread;

struct wlog {
	const char *path;
	char older[PATH_BUF];	/* FILE.1 beside it, read first; "" if none */
	uint64_t size;		/* both files' bytes */
	struct wl_stats st;
	struct wlread *rd;	/* the reader's state (wlread.h), passed to every step */
	struct arena mem;	/* where it lives */
};

/* ---- wlast.c: a watch log's last sample, one side of a diff ---- */

struct wl_lproc {
	const char *name, *cmd;	/* cmd: the arguments, a NUL after each */
	uint32_t cmdlen;
	int64_t v[WL_NFIELD];
};

struct wl_lfile {
	const char *path;
	int64_t eff;		/* eff_resident */
};

struct wl_last {
	struct wl_sample s;	/* which sample: its time, its t line */
	uint32_t nproc, nfile;
	struct wl_lproc *proc;
	struct wl_lfile *file;
};

/* The last sample with every value known in the log at path (not FILE.1),
 * after its log line after: find says which (L->s, its counts; -1 if none),
 * wlog_last keeps its values in a's memory too (and dies if there is none). */
int wlog_last_find(const char *path, uint64_t after, struct wl_last *L);
void wlog_last(struct arena *a, const char *path, uint64_t after, struct wl_last *L);

int wlog_holds(const char *path);
/* The log at path (with FILE.1 beside it), checked to be a watch log; dies
 * saying why not. The reader maps its own memory: one sample's state. */
void wlog_open(const char *path, struct wlog *w);
/* Walk it once (again if called again): 0, or -1 when it holds no sample. */
int wlog_read(struct wlog *w, const struct wl_ops *ops, void *arg);
/* The reader's memory given back. */
void wlog_close(struct wlog *w);

#endif
