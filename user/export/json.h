/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* json.h - snapshots as JSON (json-c). */
#ifndef LS_EXPORT_JSON_H
#define LS_EXPORT_JSON_H

#include <json-c/json.h>
#include "model/model.h"
#include "model/sources.h"

/* counters, losses, sampler and every row of @s. */
/* A row's identity into @o: class, origin, cpu (per-CPU data), instances
 * (folded rows), recognised (the CO-RE recogniser's name, when it knows
 * the lock). */
void ls_json_identity(struct json_object *o, const struct ls_row *r);
struct json_object *ls_snap_to_json(const struct ls_snapshot *s, int with_addr);
/* The same, "locks" an empty array (for a writer that streams them). */
struct json_object *ls_snap_head_json(const struct ls_snapshot *s);
/* The object of @s's row @i, as in "locks". */
struct json_object *ls_snap_lock_json(const struct ls_snapshot *s, size_t i,
				      int with_addr);
/* Sampled waiter stacks: lock, kind, frames (array, root first), samples,
 * wait_ns. */
struct ls_stacks;
struct json_object *ls_stacks_to_json(const struct ls_stacks *st);
/* The sources table. */
struct json_object *ls_sources_to_json(const struct ls_source *src, unsigned n);

#endif
