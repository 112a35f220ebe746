/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* record_int.h - for the record reader's own files (record_load.c,
 * record_read.c): where a one-line reason goes. */
#ifndef LS_EXPORT_RECORD_INT_H
#define LS_EXPORT_RECORD_INT_H

#include <stddef.h>

struct ls_rd {
	char *err; /* the reason, errlen bytes (0: not wanted) */
	size_t errlen;
};

/* Write a reason; returns -EINVAL. */
int ls_rd_bad(struct ls_rd *rd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
