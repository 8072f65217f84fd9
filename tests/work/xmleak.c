/* xmleak: a shared library whose writable data its users dirty (leakfam.c). */
#include <stddef.h>

#define XMLEAK_BSS	(64 << 20)
#define XMLEAK_DATA	(64 << 10)

/* Page-aligned, so that the .bss is its own anonymous mapping past the
 * file's last page, and the .data whole pages of the file's mapping. */
unsigned char xmleak_bss[XMLEAK_BSS] __attribute__((aligned(65536)));
unsigned char xmleak_data[XMLEAK_DATA] __attribute__((aligned(65536))) = { 1 };

/* The .bss, for its users to write at their pace. */
unsigned char *
xmleak_region(size_t *len)
{
	*len = sizeof(xmleak_bss);
	return xmleak_bss;
}

/* The .data written whole: a steady private copy of every page of it. */
void
xmleak_data_touch(void)
{
	size_t i;

	for (i = 0; i < sizeof(xmleak_data); i += 512)
		xmleak_data[i] = (unsigned char)(i / 512 + 1);
}
