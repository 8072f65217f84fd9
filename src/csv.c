/* CSV: RFC 4180 quoting, formula-leading fields neutralised, bytes as integers. */
#include <string.h>

#include "exmap.h"

/*
 * A field that a spreadsheet would run as a formula (= + - @, tab, CR) gets
 * a leading apostrophe; a field with a comma, quote or line break is quoted
 * with its quotes doubled.
 */
void csv_field(const char *s, size_t n)
{
	int formula = n > 0 && strchr("=+-@\t\r", s[0]) != NULL;
	int quote = formula;
	size_t i, from = 0;

	for (i = 0; i < n && !quote; i++)
		quote = s[i] == ',' || s[i] == '"' || s[i] == '\n' || s[i] == '\r';
	if (!quote) {
		out(s, n);
		return;
	}
	out(formula ? "\"'" : "\"", formula ? 2 : 1);
	for (i = 0; i < n; i++) {
		if (s[i] == '"') {
			out(s + from, i + 1 - from);
			from = i;
		}
	}
	out(s + from, n - from);
	out("\"", 1);
}
