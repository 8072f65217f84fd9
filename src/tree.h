/* The scan as a tree for pictures: process, file, section, symbol (tree.c). */
#ifndef TREE_H
#define TREE_H

#include "exmap.h"

enum tree_level { TL_FILE, TL_SECTION, TL_SYMBOL };

/*
 * A node, given in preorder: a process's part of a file, then each section
 * of that part (the bytes no section holds as "[holes]"), each followed by
 * its symbols (the bytes no symbol holds as "[no symbol]"). The children of
 * a node add up to it.
 */
struct tree_node {
	enum tree_level level;
	const struct proc *p;
	uint32_t proc;		/* its index in the scan */
	uint32_t file;		/* index in the file table */
	const char *path;	/* the file's */
	const char *name;	/* the section's or the symbol's; NULL for a file */
	const struct fig *fig;
	int leaf;		/* nothing below it */
};

/* What the walk met, for the notes: files whose sections it could not show. */
struct tree_stats {
	uint32_t elf;		/* files placed in sections */
	uint32_t nosyms;	/* of those, files with no symbol table: sections are leaves */
	uint32_t other;		/* regular files that are not ELF: the file is the leaf */
	uint32_t unread;	/* ELF files not read (missing, damaged): said, the file a leaf */
	uint32_t no_ids;	/* of those, files a capture without its build-ids cannot check */
	uint32_t left_out;	/* a process's part left whole (it exited, the file changed) */
};

void tree_walk(struct scan *s, const struct opts *o,
	       void (*fn)(const struct tree_node *n, void *arg), void *arg,
	       struct tree_stats *st);

#endif
