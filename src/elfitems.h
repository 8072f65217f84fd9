/* The target of the sections and symbols views, shared by elfitems.c and elfview.c. */
/*
 * The items of a mapped ELF file, for the sections and symbols views: the
 * file as a target (elfitems.c reads it: its load segments, its sections or
 * symbols by address) and what placing them on pages adds (elfview.c).
 */
#ifndef ELFITEMS_H
#define ELFITEMS_H

#include "elfread.h"

struct target {
	struct file *file;
	uint32_t index;		/* in the file table */
	struct elf elf;
	int fd;
	struct elf_phdr *load;	/* PT_LOAD segments */
	uint32_t nload;
	const char **secnames;	/* by section index */
	struct elf_item *items;	/* sections or symbols, by address */
	uint32_t nitem;
	uint64_t maxlen;	/* longest item, for the search */
	struct elf_item holes;	/* [holes], or for symbols [no symbol] */
	struct elf_item outside;	/* symbols: the bytes no section holds */
	struct elf_item *ranges;	/* symbols: the sections they lie in, by address;
					   each one's fig is its bytes no symbol holds */
	uint32_t nrange;
	uint32_t nested;	/* symbols wholly inside another: counted with it */
	int sections;		/* the sections view, else symbols */
	const char *only;	/* symbols of this section only, or NULL */
	unsigned char buildid[ELF_BUILDID_MAX];
	size_t buildid_len;
	uint32_t skipped;	/* processes whose pages could not be placed */
	int broken;		/* the file is damaged or not found: e->err says how */
	int quiet;		/* no warning for a file without symbols (tree.c counts them) */
	int nosyms;		/* symbols: the file has no symbol table */
	int status;		/* when broken, the exit status it calls for, or 0 */
	const char *sysroot;	/* -S, for a capture's file */
};


int open_target(struct scan *s, struct target *t);
void target_init(struct scan *s, const struct opts *o, uint32_t index, int sections,
		 struct target *t);
int place_alone(struct scan *s, struct target *t, struct proc *p);
void say_gone(struct scan *s);
int elf_items(struct scan *s, const struct opts *o, uint32_t index, int sections,
	      struct target *t);

#endif
