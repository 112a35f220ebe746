// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* csv.c - one CSV field, quoted as RFC 4180 says and never a formula. */
#include <string.h>
#include "export/csv.h"

void ls_csv_field(FILE *f, const char *s)
{
	int formula = *s && strchr("=+-@\t\r", *s);

	if (!strpbrk(s, ",\"\r\n")) {
		if (formula)
			fputc('\'', f);
		fputs(s, f);
		return;
	}
	fputc('"', f);
	if (formula)
		fputc('\'', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}
