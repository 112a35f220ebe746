// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * spinfuncs.c - the kernel functions whose cpu-clock samples count as
 * spinning, and their address ranges (every clone) for the sampler.
 */
#include <stdio.h>
#include "collect/collector_int.h"

/* Functions whose samples count as spinning, with every clone. */
static const char *const spin_funcs[] = {
	"osq_lock",
	"mutex_spin_on_owner",
	"mutex_optimistic_spin",
	"rwsem_spin_on_owner",
	"rwsem_optimistic_spin",
	"rtmutex_spin_on_owner",
	"native_queued_spin_lock_slowpath",
	"__pv_queued_spin_lock_slowpath",
	"queued_spin_lock_slowpath",
	"queued_read_lock_slowpath",
	"queued_write_lock_slowpath",
	"resilient_queued_spin_lock_slowpath",
};

const char *const *ls_spin_funcs(size_t *n)
{
	*n = sizeof(spin_funcs) / sizeof(*spin_funcs);
	return spin_funcs;
}

_Static_assert(sizeof(spin_funcs) / sizeof(*spin_funcs) <= LS_MAX_SPIN_RANGES,
	       "one spin_samples slot per spin function");

/* Fill rodata spin ranges from kallsyms; every clone of every function. */
void ls_spin_ranges_set(struct ls_collector *c)
{
	struct lockscope_bpf__rodata *ro = c->skel->rodata;
	const struct ls_ksym *found[LS_MAX_CLONES];
	unsigned n = 0;

	for (size_t f = 0; f < sizeof(spin_funcs) / sizeof(*spin_funcs); f++) {
		size_t k = ls_ksyms_clones(&c->ks, spin_funcs[f], found,
					   LS_MAX_CLONES);
		unsigned idx = c->nfuncs;

		if (!k || idx >= LS_MAX_SPIN_RANGES)
			continue;
		snprintf(c->func_name[idx], sizeof(c->func_name[idx]), "%s",
			 spin_funcs[f]);
		c->nfuncs++;
		for (size_t j = 0; j < k && n < LS_MAX_SPIN_RANGES; j++) {
			uint64_t end = ls_ksyms_end(&c->ks, found[j]);

			if (!end)
				continue;
			ro->spin_ranges[n].start = found[j]->addr;
			ro->spin_ranges[n].end = end;
			ro->spin_ranges[n].func = idx;
			n++;
		}
	}
	ro->n_spin_ranges = n;
}
