/* wl.h: what the test workloads do alike (tests/work/wl.c). */
/*
 * A workload is one parent and the children it forks, set up to a known
 * shape of memory; it says "ready PARENT_PID CHILD_PID..." on stdout once
 * every child is set up and waits for SIGTERM or SIGINT, then kills the
 * children, removes its file and exits 0. Its errors print "PROG: what:
 * errno" and exit 1, its misuse exits 2: every workload the same way.
 */
#ifndef WL_H
#define WL_H

#include <sys/types.h>

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

/* /proc/self/pagemap and /proc/kpageflags bits (Documentation/admin-guide/
 * mm/pagemap.rst) */
#define PM_PRESENT(e)	((e) >> 63 & 1)
#define PM_PFN(e)	((e) & ((1ULL << 55) - 1))
#define KPF_TAIL(f)	((f) >> 16 & 1)
#define KPF_THP(f)	((f) >> 22 & 1)
#define KPF_ZERO(f)	((f) >> 24 & 1)

extern const char	*wl_prog;		/* before every message */
extern size_t		 wl_pagesz;
/* The caller's room for its file's path (PATH_MAX) and its children: where
 * they lie is part of the workload's memory, none of the library's. */
extern char		*wl_path;		/* unlinked at the end */
extern pid_t		*wl_kids;		/* wl_spawn's */
extern int		 wl_nkids;

/* The program's name and the page size. */
void	wl_init(const char *prog);
/* Kill and reap the children, remove the file: what ends every workload. */
void	wl_cleanup(void);
/* "PROG: what: errno" on stderr, wl_cleanup, exit 1. */
void	wl_die(const char *fmt, ...)
	    __attribute__((noreturn, format(printf, 1, 2)));
/* "usage: PROG ARGS" on stderr, exit 2. */
void	wl_usage(const char *args) __attribute__((noreturn));
/* Option -opt's decimal in [lo, hi], a multiple of mult (the page size in
 * KiB where it is more than 1); else a message and exit 2. */
long long wl_num(const char *s, char opt, long long lo, long long hi,
	    long long mult);

/* Block SIGTERM and SIGINT into *stop, so that one arriving during setup
 * waits for wl_wait; wl_wait takes one, then wl_cleanup. */
void	wl_block(sigset_t *stop);
void	wl_wait(const sigset_t *stop);

/* Fork n children into wl_kids: child k (1..n) dies with the parent, takes
 * signals again, runs setup(k, arg), says it is ready and waits to be
 * killed. The parent returns once all are ready (exit 1 if one died
 * before). */
void	wl_spawn(int n, void (*setup)(int k, void *arg), void *arg);
/* "ready PID CHILD_PID..." on stdout, flushed. */
void	wl_ready(void);

/* len bytes of private anonymous memory at a multiple of align, a PROT_NONE
 * page each side (no neighbour merges in: it is one mapping of exactly len
 * in the maps); NULL for len 0. */
char	*wl_anon(size_t len, size_t align, int prot);
/* A file of len bytes of non-zero data written from buf (bufsz bytes, the
 * caller's), fdatasync'd with sync, at DIR/PROG.XXXXXX (in wl_path, of
 * PATH_MAX bytes), mapped shared read-only and returned. */
char	*wl_file(const char *dir, size_t len, unsigned char *buf, size_t bufsz,
	    int sync);
/* Page i of p gets the word v (a fault, a page of its own if private). */
void	wl_tag(char *p, size_t i, uint64_t v);
/* The first byte of every page of [p, p + len) read, their sum. */
unsigned long wl_touch(const char *p, size_t len);

/* From now on, pages of [p, p + len) written in order at rate bytes a
 * second, on a timer (SIGALRM, every 10 ms), in the parent or in a child
 * while it waits: the first page at once, then rate * t bytes' worth t
 * seconds later, up to len. With period_ms, a sawtooth: the pages are given
 * back (MADV_DONTNEED) at the start of every period and written again from
 * the first. One region a process. */
void	wl_pace(char *p, size_t len, double rate, long long period_ms);
/* A tmpfs (or any) file of len bytes at DIR/PROG.XXXXXX (in wl_path),
 * sparse, mapped shared read-write and returned: its pages exist once
 * written. */
char	*wl_sparse_file(const char *dir, size_t len);

/* Entry index of a file of 64-bit entries (pagemap, kpageflags) in *v;
 * -1 if it cannot be read whole. */
int	wl_entry(int fd, uint64_t index, uint64_t *v);

#endif
