// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * classes.c - records folded to lock classes for compare: each lock's
 * name loses its instance suffix (task_struct.pi_lock#2 ->
 * task_struct.pi_lock, rq.__lock#cpu1 -> rq.__lock) and the instances of a
 * class are summed, so two runs match whatever order they saw locks in;
 * the same for the locks' cgroup rows (--by cgroup).
 */
#include "analysis/classes.h"
#include "model/ident.h"

static void fold_snap(struct ls_rec_snap *s)
{
	for (size_t i = 0; i < s->nlocks; i++) {
		char cls[LS_NAME_MAX];

		ls_name_class(cls, sizeof(cls), s->locks[i].name);
		memcpy(s->locks[i].name, cls, sizeof(cls));
	}
	ls_rec_snap_merge(s);
	for (size_t i = 0; i < s->ncgs; i++) {
		char cls[LS_NAME_MAX];

		ls_name_class(cls, sizeof(cls), s->cgs[i].lock);
		memcpy(s->cgs[i].lock, cls, sizeof(cls));
	}
	ls_rec_cgroups_merge(s);
}

void ls_rec_fold_classes(struct ls_rec *r)
{
	fold_snap(&r->totals);
	for (size_t i = 0; i < r->nintervals; i++)
		fold_snap(&r->intervals[i]);
}
