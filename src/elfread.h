/* The ELF reader (elf.c): everything read through one bounds-checked accessor. */
#ifndef ELFREAD_H
#define ELFREAD_H

#include "exmap.h"

#define ELF_SHN_SPECIAL	0x80000000u	/* st_shndx was a reserved index (ABS...) */
struct elf {
	int fd;			/* the file, read through the window... */
	const unsigned char *mem;	/* ...or all of it in memory */
	uint64_t size;
	uint64_t woff;		/* what the window holds */
	size_t wlen;
	int is64, be;
	uint16_t type, machine;
	uint16_t phentsize, shentsize;
	uint64_t entry, phoff, shoff;
	uint32_t phnum, shnum, shstrndx;
	uint64_t buildid_off;	/* file offset of the build-id, once found */
	uint32_t strsec;	/* the string table last read, + 1 (0: none)... */
	uint64_t stroff, strsize;	/* ...its place */
	char err[192];		/* why the last call returned -1 */
};
struct elf_shdr {
	uint32_t name, type, link, info;
	uint64_t flags, addr, offset, size, addralign, entsize;
};
struct elf_phdr {
	uint32_t type, flags;
	uint64_t offset, vaddr, paddr, filesz, memsz, align;
};
struct elf_sym {
	uint32_t name;
	uint32_t shndx;		/* extended indexes resolved; ELF_SHN_SPECIAL | reserved */
	uint8_t info, other;
	uint64_t value, size;
};
struct elf_symtab {
	uint32_t type, sec, strsec;
	uint64_t offset, count;
	uint64_t shndx_off;
	int has_shndx;
};
int elf_open_fd(struct elf *e, int fd, uint64_t size);
int elf_open_mem(struct elf *e, const void *buf, uint64_t size);
int elf_shdr(struct elf *e, uint32_t i, struct elf_shdr *sh);
int elf_phdr(struct elf *e, uint32_t i, struct elf_phdr *ph);
int elf_str(struct elf *e, uint32_t strsec, uint64_t off, char *buf, size_t len);
int elf_secname(struct elf *e, const struct elf_shdr *sh, char *buf, size_t len);
int elf_symtab(struct elf *e, uint32_t type, struct elf_symtab *t);
int elf_sym(struct elf *e, const struct elf_symtab *t, uint64_t i, struct elf_sym *s);
int elf_buildid(struct elf *e, unsigned char *id, size_t *idlen);

#endif
