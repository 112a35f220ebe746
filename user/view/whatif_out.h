/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* whatif_out.h - a whatif experiment as a text table and as JSON. */
#ifndef LS_VIEW_WHATIF_OUT_H
#define LS_VIEW_WHATIF_OUT_H

#include <stdio.h>
#include <json-c/json.h>
#include "analysis/whatif.h"

void ls_wif_print(FILE *f, const struct ls_wif_exp *e);
/* NULL on allocation failure. */
struct json_object *ls_wif_to_json(const struct ls_wif_exp *e);

#endif
