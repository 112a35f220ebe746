// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * budget.c - read the budget's per-CPU sampler state (budget_cpu,
 * bpf/budget.bpf.h) into the snapshot: the N in force, runs, the programs'
 * own cost estimate.
 */
#include <errno.h>
#include <stdlib.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "collect/collector_int.h"

int ls_budget_read(struct ls_collector *c, struct ls_snapshot *s)
{
	struct ls_budget_snap *b = &s->budget;
	struct ls_budget_cpu *v;
	__u32 zero = 0;
	int err = 0;

	*b = (struct ls_budget_snap){.ppm = c->o.budget_ppm};
	if (!b->ppm)
		return 0;
	v = calloc((size_t)c->ncpus_possible, sizeof(*v));
	if (!v)
		return -ENOMEM;
	if (bpf_map_lookup_elem(bpf_map__fd(c->skel->maps.budget_cpu), &zero,
				v)) {
		err = -errno;
		goto cleanup;
	}
	for (int cpu = 0; cpu < c->ncpus_possible; cpu++) {
		const struct ls_budget_cpu *p = &v[cpu];

		if (!p->n)
			continue;
		if (!b->n_min || p->n < b->n_min)
			b->n_min = p->n;
		if (p->n > b->n_max)
			b->n_max = p->n;
		b->runs += p->runs;
		b->sruns += p->sruns;
		b->cost_ns += p->cost_ns;
		b->windows += p->windows;
		b->over += p->over;
	}
	if (!b->n_min) /* no run yet: every wait would be timed */
		b->n_min = b->n_max = 1;
cleanup:
	free(v);
	return err;
}
