/* The ram view's sources: /proc's text read in place, and the largest of a kind (ramtext.c). */
#ifndef RAMTEXT_H
#define RAMTEXT_H

#include <stddef.h>
#include <stdint.h>

#define RAM_TOP		8	/* named consumers kept for each line */
#define RAM_NAME	64	/* a name, cut to this */

struct ramname {		/* a named consumer: a slab cache, a file, a region */
	char name[RAM_NAME];
	uint64_t bytes;
};

struct ramtop {			/* the largest of a kind, and how many there were */
	struct ramname top[RAM_TOP];
	uint32_t n;		/* in top */
	uint64_t count, bytes;	/* all of them */
};

void ram_top_add(struct ramtop *t, const char *name, size_t len, uint64_t bytes);
char *ram_line(char **p);
char *ram_word(char **p);
int ram_dec(char **p, uint64_t *v);
int ram_dec_prefix(const char *s, uint64_t *v);

#endif
