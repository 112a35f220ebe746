// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* top_lines.c - line buffers of the live view's text: appending to a
 * line, and wrapping long text after ", " into lines or a page. */
#include <stdarg.h>
#include <string.h>
#include "view/top_lines.h"
#include "util/untrusted_text.h"

/* Append to a line buffer, never past its end nor inside a character. */
void ls_line_cat(char *buf, size_t len, const char *fmt, ...)
{
	size_t n = strlen(buf);
	va_list ap;
	int w;

	if (n + 1 >= len)
		return;
	va_start(ap, fmt);
	w = vsnprintf(buf + n, len - n, fmt, ap);
	va_end(ap);
	if (w > 0 && (size_t)w >= len - n)
		ls_text_trim_cut(buf);
}

/* Where to end a line of @p that has @room characters: after ", ", else
 * after a space, else after @room characters (the whole rest if it fits);
 * a byte count, never inside a character. */
static int cut_at(const char *p, int room)
{
	int fit = (int)ls_text_fit(p, (size_t)room);

	if (!p[fit])
		return fit;
	for (int k = fit; k > fit / 3; k--)
		if (p[k - 1] == ' ' && k >= 2 && p[k - 2] == ',')
			return k;
	for (int k = fit; k > fit / 3; k--)
		if (p[k - 1] == ' ')
			return k;
	return fit;
}

/*
 * Append @text to @lines as lines of at most @width characters, broken by
 * cut_at(), continuation lines indented by two; at most @max lines in all
 * (the last one keeps the rest).  Returns the new count.
 */
unsigned ls_wrap_lines(char lines[][LS_TOP_LINE], unsigned n, unsigned max,
		       const char *text, int width)
{
	const char *p = text;
	int indent = 0;

	if (width < 20)
		width = 20;
	while (*p && n < max) {
		int cut = n + 1 < max ? cut_at(p, width - indent)
				      : (int)strlen(p);

		snprintf(lines[n], LS_TOP_LINE, "%*s%.*s", indent, "", cut, p);
		ls_text_trim_cut(lines[n++]); /* the buffer may cut it */
		p += cut;
		indent = 2;
	}
	return n;
}

/* The same into a text page, every line ended. */
void ls_wrap_page(FILE *f, const char *text, int width)
{
	const char *p = text;
	int indent = 0;

	if (width < 20)
		width = 20;
	while (*p) {
		int cut = cut_at(p, width - indent);

		fprintf(f, "%*s%.*s\n", indent, "", cut, p);
		p += cut;
		indent = 2;
	}
}
