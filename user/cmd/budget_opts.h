/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* budget_opts.h - --budget: each command's default and what it excludes. */
#ifndef LS_BUDGET_OPTS_H
#define LS_BUDGET_OPTS_H

#include <stdint.h>
#include "cmd/opts.h"

#define LS_SERVE_DEF_BUDGET_PPM 10000U /* serve: 1% unless told */

/* A --budget percentage in parts per million (rounded, 0: exact). */
uint32_t ls_budget_ppm(double pct);

/* Apply the command's default budget and refuse what a budget cannot
 * honour (one "lockscope: failed to parse" line): 0 or -EINVAL. */
int ls_budget_resolve(struct ls_opts *o);

#endif
