/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* budget_json.h - --budget in JSON: a row's estimate fields and the
 * snapshot's sampler object. */
#ifndef LS_BUDGET_JSON_H
#define LS_BUDGET_JSON_H

#include <json-c/json.h>
#include "model/model.h"

/* Add "estimated", "timed_waits" and the *_se_ns fields of @st to @o. */
void ls_json_estimate(struct json_object *o, const struct ls_lock_stats *st);

/* The sampler's object: the budget, N in force, runs, own cost. */
struct json_object *ls_json_budget(const struct ls_budget_snap *b);

#endif
