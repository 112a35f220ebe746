// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* log.c - the one error style: "lockscope: failed to <verb> <object>:
 * <reason>", hints, and an output stream a full-screen view can redirect. */
#include <stdarg.h>
#include <string.h>
#include <stdlib.h>
#include "util/log.h"
#include "util/untrusted_text.h"

FILE *ls_log_stream;

static FILE *out(void)
{
	return ls_log_stream ? ls_log_stream : stderr;
}

/* The object and the reason may echo what a user or a file named (a path,
 * a record's text): made safe, one line, whatever they hold. */
void ls_fail(const char *verb, const char *object, const char *reason)
{
	char o[600], r[1024];

	fprintf(out(), "lockscope: failed to %s %s: %s\n", verb,
		ls_text_safe(o, sizeof(o), object),
		ls_text_safe(r, sizeof(r), reason));
}

void ls_fail_errno(const char *verb, const char *object, int err)
{
	ls_fail(verb, object, strerror(abs(err)));
}

void ls_hint(const char *fmt, ...)
{
	va_list ap;

	fputs("  hint: ", out());
	va_start(ap, fmt);
	vfprintf(out(), fmt, ap);
	va_end(ap);
	fputc('\n', out());
}
