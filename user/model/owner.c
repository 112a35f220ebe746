// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* owner.c - who holds a lock, decoded from the owner and count words that
 * owner.bpf.c read (mutex, rwsem, rt_mutex). */
#include <stdio.h>
#include "model/model.h"

void ls_owner_decode(struct ls_owner *o, unsigned kind, uint64_t owner,
		     uint64_t count, int task_ok)
{
	uint32_t none;
	uint64_t task = ls_owner_task(kind, owner, &none);

	o->nreaders = 0;
	o->why[0] = '\0';
	if (kind == LS_KIND_RWSEM_R || kind == LS_KIND_RWSEM_W) {
		/* bit 63 of the count is a read-failure flag, not readers */
		uint64_t readers =
			(count & ~(1ULL << 63)) >> LS_RWSEM_READER_SHIFT;

		if (count & LS_RWSEM_WRITER_LOCKED) {
			if (task && task_ok) {
				o->state = LS_OWNER_TASK;
				return;
			}
			o->state = LS_OWNER_UNKNOWN;
			snprintf(
				o->why, sizeof(o->why),
				"a writer holds it; its task is not confirmed");
		} else if (readers) {
			o->state = LS_OWNER_READERS;
			o->nreaders = readers;
		} else {
			o->state = LS_OWNER_NONE;
		}
		return;
	}
	if (!task) {
		o->state = LS_OWNER_NONE;
	} else if (task_ok) {
		o->state = LS_OWNER_TASK;
	} else {
		o->state = LS_OWNER_UNKNOWN;
		snprintf(o->why, sizeof(o->why),
			 "the owner word names no live task (lock freed?)");
	}
}
