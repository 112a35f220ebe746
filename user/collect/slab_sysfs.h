/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * slab_sysfs.h - the aliases of merged slab caches, read from sysfs once
 * per run into the model's table (model/slab_alias.h).
 */
#ifndef LS_SLAB_SYSFS_H
#define LS_SLAB_SYSFS_H

#include "model/slab_alias.h"

#define LS_SLAB_SYSFS "/sys/kernel/slab"

/* The links of @dir (LS_SLAB_SYSFS) into @a, with what it knows in
 * @a->state: at most LS_SLAB_ALIAS_MAX aliases, the rest counted in
 * @a->skipped.  @a needs ls_slab_aliases_free() after. */
void ls_slab_aliases_read(struct ls_slab_aliases *a, const char *dir);

#endif
