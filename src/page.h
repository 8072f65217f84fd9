/* A self-contained HTML page: the template with the data as JavaScript (page.c). */
#ifndef PAGE_H
#define PAGE_H

#include "exmap.h"

const char *page_unpack(const unsigned char *p, char *buf, size_t size, const char *what);
void page_begin(void);
void page_end(void);
void page_notes_start(void);
void page_notes_put(void);
void js_str(const char *s, size_t n);
void js_cstr(const char *s);
void js_fignames(void);
void js_figs(const struct fig *f);
void js_head(const struct scan *s);
void js_ram(const struct scan *s, const char *census_how);

#endif
