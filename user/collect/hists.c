// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * hists.c - the locks' histograms, read in place: lock_hists (an mmapable
 * BPF array, bpf/hists.bpf.h) mapped as far as slots are in use, so that
 * a read copies each lock's histograms from memory without a system call;
 * and the slots of forgotten locks, zeroed and put in free_ring one read
 * later (no program still holds them by then).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <bpf/bpf.h>
#include "collect/collector_int.h"

/* Map lock_hists as far as the kernel handed out slots (plus room). */
static int hists_cover(struct ls_collector *c, uint32_t used)
{
	uint32_t max = bpf_map__max_entries(c->skel->maps.lock_hists);
	size_t n, per_page = c->page_size / sizeof(struct ls_lock_hists);
	void *p;

	if (used > max)
		used = max;
	if (c->hists && used <= c->hists_mapped)
		return 0;
	n = (size_t)used + used / 4 + 256; /* grow in steps, not per lock */
	if (per_page > 1)
		n = (n + per_page - 1) / per_page * per_page;
	if (n > max)
		n = max;
	p = mmap(NULL, n * sizeof(struct ls_lock_hists), PROT_READ | PROT_WRITE,
		 MAP_SHARED, bpf_map__fd(c->skel->maps.lock_hists), 0);
	if (p == MAP_FAILED)
		return -errno;
	if (c->hists)
		munmap(c->hists,
		       c->hists_mapped * sizeof(struct ls_lock_hists));
	c->hists = p;
	c->hists_mapped = n;
	return 0;
}

int ls_hists_begin_read(struct ls_collector *c)
{
	/* the compat build's CPUs hand out rows of their own (a stride) */
	if (c->build == LS_BUILD_COMPAT)
		return hists_cover(
			c, bpf_map__max_entries(c->skel->maps.lock_hists));
	return hists_cover(c, c->skel->bss->next_slot);
}

void ls_hists_copy(struct ls_collector *c, uint32_t slot,
		   struct ls_lock_hists *out)
{
	if (slot < c->hists_mapped)
		memcpy(out, &c->hists[slot], sizeof(*out));
	else /* LS_NO_SLOT: every row was taken when the lock came */
		memset(out, 0, sizeof(*out));
}

void ls_hists_forget(struct ls_collector *c, uint32_t slot)
{
	uint32_t max = bpf_map__max_entries(c->skel->maps.lock_hists);

	if (slot >= max)
		return;
	if (!c->slots_gone) {
		c->slots_gone = calloc(max, sizeof(*c->slots_gone));
		c->slots_wait = calloc(max, sizeof(*c->slots_wait));
		if (!c->slots_gone || !c->slots_wait)
			return; /* the slot stays taken: histograms go empty
				 * for new locks once all are (a loss shown) */
	}
	if (c->nslots_gone < max)
		c->slots_gone[c->nslots_gone++] = slot;
}

void ls_hists_recycle(struct ls_collector *c)
{
	int fd = bpf_map__fd(c->skel->maps.free_ring);
	uint32_t max = bpf_map__max_entries(c->skel->maps.lock_hists), *t;
	uint64_t tail = c->skel->bss->ring_tail;

	for (size_t i = 0; i < c->nslots_wait; i++) {
		uint32_t slot = c->slots_wait[i], at = (uint32_t)(tail % max);

		if (slot >= c->hists_mapped)
			continue; /* not mapped: cannot be zeroed, stays out */
		memset(&c->hists[slot], 0, sizeof(*c->hists));
		if (!bpf_map_update_elem(fd, &at, &slot, BPF_ANY))
			tail++;
	}
	/* the entries are in place before the programs may take them */
	__atomic_store_n(&c->skel->bss->ring_tail, tail, __ATOMIC_RELEASE);
	t = c->slots_wait;
	c->slots_wait = c->slots_gone;
	c->nslots_wait = c->nslots_gone;
	c->slots_gone = t;
	c->nslots_gone = 0;
}

void ls_hists_free(struct ls_collector *c)
{
	if (c->hists)
		munmap(c->hists,
		       c->hists_mapped * sizeof(struct ls_lock_hists));
	free(c->slots_gone);
	free(c->slots_wait);
}
