// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* html.c - the HTML report's page and escaping: one self-contained file,
 * inline CSS, no script, a Content-Security-Policy that loads nothing. */
#include <stdlib.h>
#include <string.h>
#include "view/html.h"
#include "util/untrusted_text.h"

void ls_html_text(FILE *f, const char *text)
{
	/* unsafe characters as \xHH first (util/untrusted_text.h), so the
	 * page holds no control, whatever a record or a path held */
	size_t n = strlen(text) * 4 + 1;
	char *safe = malloc(n);
	const char *s = safe ? safe : "?";

	if (safe)
		ls_text_copy(safe, n, text);
	for (; *s; s++) {
		switch (*s) {
		case '&':
			fputs("&amp;", f);
			break;
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		case '\'':
			fputs("&#39;", f);
			break;
		default:
			fputc(*s, f);
		}
	}
	free(safe);
}

static const char css[] =
	"body{font:14px/1.4 sans-serif;margin:1.5em;color:#222;"
	"background:#fff}\n"
	"h1{font-size:1.5em}h2{font-size:1.25em;margin-top:1.6em;"
	"border-bottom:1px solid #ccc}h3{font-size:1.05em}\n"
	"table{border-collapse:collapse;margin:.5em 0}"
	"th,td{padding:2px 8px;border-bottom:1px solid #e4e4e4;"
	"text-align:right;white-space:nowrap}"
	"th{background:#f3f3f3}td.l,th.l{text-align:left}\n"
	/* free text (a command, a path) wraps, long words too, so no one
	 * line makes the page wider than the window */
	"td.w{white-space:normal;overflow-wrap:anywhere;min-width:20em;"
	"max-width:70em}\n"
	"tr.regressed td{background:#fbd5d0}tr.improved td{background:#d6efd6}"
	"\n"
	".note{color:#666}.key span{display:inline-block;width:12px;"
	"height:12px;margin:0 4px 0 12px;vertical-align:middle}\n"
	"svg{display:block;margin:.4em 0}svg text{font:11px sans-serif;"
	"fill:#333}\n"
	".charts{display:flex;flex-wrap:wrap;gap:1em}\n";

void ls_html_page_open(FILE *f, const char *title)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
	      "<meta charset=\"utf-8\">\n"
	      "<meta http-equiv=\"Content-Security-Policy\" "
	      "content=\"default-src 'none'; style-src 'unsafe-inline'\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width\">\n"
	      "<title>",
	      f);
	ls_html_text(f, title);
	fprintf(f, "</title>\n<style>\n%s</style>\n</head>\n<body>\n", css);
}

void ls_html_page_close(FILE *f)
{
	fputs("<p class=\"note\">Made by lockscope report: one file, no "
	      "script, nothing loaded from elsewhere.</p>\n</body>\n</html>\n",
	      f);
}

const char *ls_html_line_colour(size_t i)
{
	static const char *const c[] = {
		"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e",
		"#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22"};

	return c[i % (sizeof(c) / sizeof(*c))];
}
