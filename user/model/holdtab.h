/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* holdtab.h - for the model's own files: a table of hold times by lock key
 * (struct ls_holdtab, --hold) found in, added to, copied and emptied, and a
 * snapshot's holds put back after a failed read. */
#ifndef LS_MODEL_HOLDTAB_H
#define LS_MODEL_HOLDTAB_H

#include "model/model.h"

/* The entry of lock @k in @t, or NULL. */
struct ls_holdrow *ls_holdtab_find(const struct ls_holdtab *t,
				   const struct ls_lock_key *k);
/* Append a copy of @h, whose key @t has no entry for: it is @t's last
 * entry until the next append.  NULL on allocation failure. */
struct ls_holdrow *ls_holdtab_add(struct ls_holdtab *t,
				  const struct ls_holdrow *h);
/* @dst = @src, reusing @dst's buffer; 0 or -ENOMEM (@dst then empty). */
int ls_holdtab_copy(struct ls_holdtab *dst, const struct ls_holdtab *src);
/* Empty @t, keeping its buffers. */
void ls_holdtab_clear(struct ls_holdtab *t);
void ls_holdtab_free(struct ls_holdtab *t);
/* After a failed read of @s put back the rows @d saved: those rows' holds
 * become the ones @d saved with them, and the holds of rows no longer in
 * @s go (the read added them).  Indexes both; 0 or -ENOMEM. */
int ls_holdtab_undo(struct ls_snapshot *s, struct ls_snapshot *d);

#endif
