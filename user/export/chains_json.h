/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* chains_json.h - a lock's wait-for chains as JSON (hist --json, records). */
#ifndef LS_EXPORT_CHAINS_JSON_H
#define LS_EXPORT_CHAINS_JSON_H

#include <json-c/json.h>
#include "model/model.h"

/* The "chains" object of lock @r in @s: its blocked-holder waits and wait
 * time with their shares, cycles, and every chain, most wait first; NULL
 * (JSON null) when chains were not collected; @with_addr: the chain's
 * lock addresses too. */
struct json_object *ls_chains_to_json(const struct ls_snapshot *s,
				      const struct ls_row *r, int with_addr);

#endif
