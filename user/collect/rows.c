// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rows.c - the locks' rows, read in place: lock_rows (an mmapable BPF
 * array, bpf/rows.bpf.h) mapped as far as rows are in use, so that a read
 * visits each lock's key and counters in memory, without a system call or
 * a walk of the lock_stats hash; and the rows of forgotten locks: their key
 * cleared at once, zeroed and pushed to free_rows one read later (no
 * program still writes them by then).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <bpf/bpf.h>
#include "collect/collector_int.h"

/* Map lock_rows as far as @used rows (plus room). */
static int rows_cover(struct ls_collector *c, uint32_t used)
{
	uint32_t max = bpf_map__max_entries(c->skel->maps.lock_rows);
	size_t n;
	void *p;

	if (used > max)
		used = max;
	if (c->rows && used <= c->rows_mapped)
		return 0;
	n = (size_t)used + used / 4 + 256; /* grow in steps, not per lock */
	if (n > max)
		n = max;
	p = mmap(NULL, n * sizeof(struct ls_lock_row), PROT_READ | PROT_WRITE,
		 MAP_SHARED, bpf_map__fd(c->skel->maps.lock_rows), 0);
	if (p == MAP_FAILED)
		return -errno;
	if (c->rows)
		munmap(c->rows, c->rows_mapped * sizeof(struct ls_lock_row));
	c->rows = p;
	c->rows_mapped = n;
	return 0;
}

/* Rows handed out so far: in the compat build each CPU hands out rows of
 * its own (cpu + n * possible CPUs), so the highest of them. */
static int rows_used(struct ls_collector *c, uint32_t *used)
{
	__u32 zero = 0;
	uint64_t top = 0;

	if (c->build != LS_BUILD_COMPAT) {
		*used = __atomic_load_n(&c->skel->bss->next_slot,
					__ATOMIC_ACQUIRE);
		return 0;
	}
	/* per-CPU values of 8 bytes: the collector's per-CPU scratch */
	_Static_assert(sizeof(struct ls_slot_cpu) == sizeof(*c->pcpu),
		       "spare_slot values fill the per-CPU scratch");
	if (bpf_map_lookup_elem(bpf_map__fd(c->skel->maps.spare_slot), &zero,
				c->pcpu))
		return -errno;
	for (int cpu = 0; cpu < c->ncpus_possible; cpu++) {
		struct ls_slot_cpu pc;
		uint64_t end;

		memcpy(&pc, &c->pcpu[cpu], sizeof(pc));
		end = pc.taken ? (uint64_t)cpu +
					 (uint64_t)(pc.taken - 1) *
						 (uint64_t)c->ncpus_possible +
					 1
			       : 0;
		if (end > top)
			top = end;
	}
	*used = top > UINT32_MAX ? UINT32_MAX : (uint32_t)top;
	return 0;
}

int ls_rows_read(struct ls_collector *c,
		 int (*fn)(struct ls_collector *, const void *, const void *,
			   void *),
		 void *arg)
{
	uint32_t used = 0;
	int err = rows_used(c, &used);

	if (!err)
		err = rows_cover(c, used);
	if (err)
		return err;
	if (used > c->rows_mapped)
		used = (uint32_t)c->rows_mapped;
	for (uint32_t i = 0; i < used; i++) {
		const struct ls_lock_row *row = &c->rows[i];
		struct ls_lock_key k = {0};

		/* the key is written last (release) when a lock takes it */
		k.addr = __atomic_load_n(&row->key.addr, __ATOMIC_ACQUIRE);
		if (!k.addr)
			continue;
		k.kind = row->key.kind;
		err = fn(c, &k, &row->st, arg);
		if (err)
			return err;
	}
	return 0;
}

void ls_hists_copy(struct ls_collector *c, uint32_t slot,
		   struct ls_lock_hists *out)
{
	if (slot < c->rows_mapped)
		memcpy(out, &c->rows[slot].hi, sizeof(*out));
	else
		memset(out, 0, sizeof(*out));
}

void ls_rows_forget(struct ls_collector *c, uint32_t slot)
{
	uint32_t max = bpf_map__max_entries(c->skel->maps.lock_rows);

	if (slot >= max)
		return;
	/* no longer a lock's: later reads skip it */
	if (slot < c->rows_mapped)
		__atomic_store_n(&c->rows[slot].key.addr, 0, __ATOMIC_RELEASE);
	if (!c->slots_gone) {
		c->slots_gone = calloc(max, sizeof(*c->slots_gone));
		c->slots_wait = calloc(max, sizeof(*c->slots_wait));
		if (!c->slots_gone || !c->slots_wait)
			return; /* the row stays taken: a full table shows
				 * as 'lock rows full' */
	}
	if (c->nslots_gone < max)
		c->slots_gone[c->nslots_gone++] = slot;
}

void ls_rows_recycle(struct ls_collector *c)
{
	int fd = bpf_map__fd(c->skel->maps.free_rows);
	uint32_t *t;

	for (size_t i = 0; i < c->nslots_wait; i++) {
		uint32_t slot = c->slots_wait[i];

		if (slot >= c->rows_mapped)
			continue; /* not mapped: cannot be zeroed, stays out */
		memset(&c->rows[slot], 0, sizeof(*c->rows));
		/* a full queue cannot be: it holds at most every row */
		bpf_map_update_elem(fd, NULL, &slot, BPF_ANY);
	}
	t = c->slots_wait;
	c->slots_wait = c->slots_gone;
	c->nslots_wait = c->nslots_gone;
	c->slots_gone = t;
	c->nslots_gone = 0;
}

void ls_rows_free(struct ls_collector *c)
{
	if (c->rows)
		munmap(c->rows, c->rows_mapped * sizeof(struct ls_lock_row));
	free(c->slots_gone);
	free(c->slots_wait);
}
