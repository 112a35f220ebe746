/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* top_lines.h - line buffers of the live view's text. */
#ifndef LS_VIEW_TOP_LINES_H
#define LS_VIEW_TOP_LINES_H

#include <stddef.h>
#include <stdio.h>
#include "view/top_model.h"

/* Append to a line buffer, never past its end. */
void ls_line_cat(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Append @text to @lines (now @n of them) as lines of at most @width
 * characters, broken after ", " (else a space), continuation lines
 * indented by two; at most @max lines in all (the last keeps the rest).
 * Returns the new count. */
unsigned ls_wrap_lines(char lines[][LS_TOP_LINE], unsigned n, unsigned max,
		       const char *text, int width);
/* The same into a text page, every line ended. */
void ls_wrap_page(FILE *f, const char *text, int width);

#endif
