/* elfcorrupt's shared parts: ELF's header fields, the input and the variant. */
#ifndef ELFCORRUPT_H
#define ELFCORRUPT_H

#include <stdint.h>

/* One field of a header: its offset and width in ELF32 and in ELF64. */
struct field {
	const char *name;
	unsigned char off32, size32, off64, size64;
};

/* Each table's fields, in its order; *_FIELDS: how many. */
enum { SH_NAME, SH_TYPE, SH_FLAGS, SH_ADDR, SH_OFFSET, SH_SIZE, SH_LINK, SH_INFO,
       SH_ALIGN, SH_ENTSIZE, SH_FIELDS };
enum { P_TYPE, P_FLAGS, P_OFFSET, P_VADDR, P_PADDR, P_FILESZ, P_MEMSZ, P_ALIGN, P_FIELDS };
enum { ST_NAME, ST_VALUE, ST_SIZE, ST_INFO, ST_OTHER, ST_SHNDX, ST_FIELDS };
enum { E_PHOFF = 10, E_SHOFF, E_PHENTSIZE = 14, E_PHNUM, E_SHENTSIZE, E_SHNUM, E_SHSTRNDX,
       E_FIELDS };
extern const struct field ehdr_fields[E_FIELDS], shdr_fields[SH_FIELDS],
	phdr_fields[P_FIELDS], sym_fields[ST_FIELDS];

/* elfcorrupt.c: the input, its layout, the variant; reading and writing them */
extern unsigned char *orig;	/* the input, never changed */
extern unsigned char *work;	/* the variant being made */
extern uint64_t size;		/* of the input */
extern uint64_t wlen;		/* of the variant */
extern uint64_t wcap;
extern int is64;
extern uint64_t phoff, shoff;
extern uint32_t phnum, shnum, shstrndx, phentsize, shentsize, ehsize;

_Noreturn void die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void put(unsigned char *b, uint64_t off, unsigned n, uint64_t v);
unsigned fsize(const struct field *f);
unsigned foff(const struct field *f);
uint64_t ones(unsigned n);
uint64_t fget(uint64_t base, const struct field *f);
void fset(uint64_t base, const struct field *f, uint64_t v);
void begin(void);
void emit(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void one(const char *what, uint64_t base, const struct field *f, const char *vname, uint64_t v);
void common_values(const char *what, uint64_t base, const struct field *f);
uint64_t sh_base(uint32_t i);
uint64_t ph_base(uint32_t i);
uint64_t sh(uint32_t i, int f);
uint64_t ph(uint32_t i, int f);
int in_file(uint64_t off, uint64_t len);
uint32_t find_type(uint32_t type);
int sampled(uint32_t i);

/* elfcorrupt_hdrs.c: the headers' fields, symbols, string tables, notes */
void ehdr_variants(void);
void shdr_variants(void);
void phdr_variants(void);
void sym_variants(void);
void strtab_variants(void);
void note_variants(void);

/* elfcorrupt_rewrite.c: extended numbering, SYMTAB_SHNDX, no sections, cuts */
void xnum_variants(void);
void shndx_variants(void);
void nosec_variant(void);
void trunc_variants(void);

#endif
