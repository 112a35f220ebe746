/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* log.h - the one error style: "lockscope: failed to <verb> <object>: <reason>"
 */
#ifndef LS_LOG_H
#define LS_LOG_H

#include <stdio.h>

/* Print "lockscope: failed to <verb> <object>: <reason>" to stderr. */
void ls_fail(const char *verb, const char *object, const char *reason);
/* Same, reason from an errno value (positive or negative). */
void ls_fail_errno(const char *verb, const char *object, int err);
/* Print "  hint: <text>" to stderr. */
void ls_hint(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Where messages go; views redirect it while the screen is up. */
extern FILE *ls_log_stream;

#endif
