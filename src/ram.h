/* The ram view: all of RAM from installed down to named consumers (ram.c). */
#ifndef RAM_H
#define RAM_H

#include "exmap.h"

void view_ram(struct scan *s, const struct opts *o, const char *census_how);
uint32_t ram_budget(const struct scan *s, const char *name, uint64_t *bytes);
/* A line of the ram view, as ram_lines gives it. */
struct ram_line {
	int depth;
	const char *kind;	/* head part detail reserved swap census */
	const char *label;
	const char *name;	/* a named consumer's, else NULL */
	int64_t bytes;
	const char *source;
};
int ram_lines(const struct scan *s, const char *census_how,
	      void (*fn)(void *arg, const struct ram_line *l), void *arg);
struct ramsrc;
void ram_parts(const struct scan *s, const struct ramsrc *r,
	       void (*fn)(void *arg, const struct ram_line *l), void *arg);
void ram_when(const struct scan *s, uint64_t *time_s, uint64_t *uptime_s);
void diff_ram(const struct scan *a, const struct scan *b, const struct opts *o, struct arena *ar);

#endif
