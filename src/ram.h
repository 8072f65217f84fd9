/* The ram view: all of RAM from installed down to named consumers (ram.c). */
#ifndef RAM_H
#define RAM_H

#include "exmap.h"

void view_ram(struct scan *s, const struct opts *o, const char *census_how);
uint32_t ram_budget(const struct scan *s, const char *name, uint64_t *bytes);
void diff_ram(const struct scan *a, const struct scan *b, const struct opts *o, struct arena *ar);

#endif
