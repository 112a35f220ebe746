/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* report_whatif.h - the HTML page of a whatif result (report_whatif.c). */
#ifndef LS_VIEW_REPORT_WHATIF_H
#define LS_VIEW_REPORT_WHATIF_H

#include <errno.h>
#include <stdio.h>
#include <json-c/json.h>

/* The page of whatif JSON @j (as `whatif --json` wrote it); 0 or -EIO. */
int ls_report_whatif(FILE *f, struct json_object *j);

#endif
