/* The ram view's sources: reading /proc's text, and keeping the largest of a kind. */
#include <string.h>

#include "ramtext.h"

/* Keep name among the largest of t. */
void ram_top_add(struct ramtop *t, const char *name, size_t len, uint64_t bytes)
{
	uint32_t i, at;

	t->count++;
	t->bytes += bytes;
	if (t->n == RAM_TOP && bytes <= t->top[RAM_TOP - 1].bytes)
		return;
	at = t->n < RAM_TOP ? t->n++ : RAM_TOP - 1;
	for (i = at; i > 0 && t->top[i - 1].bytes < bytes; i--)
		t->top[i] = t->top[i - 1];
	if (len >= RAM_NAME)	/* cut from the left: the end tells files apart */
		name += len - (RAM_NAME - 1), len = RAM_NAME - 1;
	memcpy(t->top[i].name, name, len);
	t->top[i].name[len] = '\0';
	t->top[i].bytes = bytes;
}

/* The decimal number s starts with. */
int ram_dec_prefix(const char *s, uint64_t *v)
{
	char *q = (char *)s;

	return *s == ' ' ? -1 : ram_dec(&q, v);
}

/* The next space-separated word at *p; NULL when there is none. */
char *ram_word(char **p)
{
	char *s = *p, *e;

	while (s && *s == ' ')
		s++;
	if (!s || !*s)
		return NULL;
	e = strchr(s, ' ');
	if (e)
		*e++ = '\0';
	*p = e;
	return s;
}

/* The next line of text at *p, NUL-terminated in place; NULL at the end. */
char *ram_line(char **p)
{
	char *s = *p, *e;

	if (!s || !*s)
		return NULL;
	e = strchr(s, '\n');
	if (e) {
		*e = '\0';
		*p = e + 1;
	} else {
		*p = NULL;
	}
	return s;
}

/* A decimal number at *p (spaces before it skipped), and past it. */
int ram_dec(char **p, uint64_t *v)
{
	char *s = *p;
	uint64_t x = 0;

	while (*s == ' ' || *s == '\t')
		s++;
	if (*s < '0' || *s > '9')
		return -1;
	for (; *s >= '0' && *s <= '9'; s++)
		x = x * 10 + (uint64_t)(*s - '0');
	*p = s;
	*v = x;
	return 0;
}

