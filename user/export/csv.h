/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* csv.h - one CSV field (record --format csv, compare --format csv). */
#ifndef LS_EXPORT_CSV_H
#define LS_EXPORT_CSV_H

#include <stdio.h>

/* Write @s as one RFC 4180 field: quoted when it holds a comma, quote or
 * line break.  A field that starts with = + - @, a tab or a carriage return
 * gets a leading ' so that a spreadsheet shows it as text instead of
 * running it as a formula (OWASP's advice on CSV injection). */
void ls_csv_field(FILE *f, const char *s);

#endif
