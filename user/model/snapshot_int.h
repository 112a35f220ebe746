/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* snapshot_int.h - for the model's own files: the buffer helpers that
 * snapshot.c (copies) and delta.c (interval snapshots) share. */
#ifndef LS_MODEL_SNAPSHOT_INT_H
#define LS_MODEL_SNAPSHOT_INT_H

#include <stddef.h>
#include "model/model.h"

/* Make room for @n elements of @size in *@buf (capacity *@cap): 0 or
 * -ENOMEM. */
int ls_snap_reserve(void **buf, size_t *cap, size_t n, size_t size);
/* Copy everything of @src but its rows, their index and their holds into
 * @dst, reusing @dst's buffers (a snapshot refreshed every second stops
 * allocating after the first); @dst ends with no rows.  0 or -ENOMEM. */
int ls_snap_copy_meta(struct ls_snapshot *dst, const struct ls_snapshot *src);

/* Room for one more row in @d, growing by doubling; 0 or -ENOMEM. */
int ls_snap_room_for_row(struct ls_snapshot *d);

#endif
