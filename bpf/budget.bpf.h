/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * budget.bpf.h - the cost budget's kernel side (--budget): this CPU's
 * sampler and cost meter in budget_cpu.  Each begin and end program run
 * is counted; one run in LS_BUDGET_PROBE_EVERY reads the clock at its
 * entry and exit, and at a measured run after LS_BUDGET_WINDOW_NS the
 * window closes and N is picked again (bpf/budget_rule.h).  Included by
 * lockscope.bpf.c after common.bpf.h; everything here is dead code (and
 * dropped by the verifier) when budget_ppm is 0.
 */
#ifndef LS_BUDGET_BPF_H
#define LS_BUDGET_BPF_H

#include "budget_rule.h"

const volatile __u32 budget_ppm = 0; /* 0: exact, every wait timed */

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct ls_budget_cpu);
} budget_cpu SEC(".maps");

/* This CPU's budget state, started on its first run (sample everything
 * until the first window has measured the cost). */
static __always_inline struct ls_budget_cpu *budget_get(void)
{
	__u32 zero = 0;
	struct ls_budget_cpu *b = bpf_map_lookup_elem(&budget_cpu, &zero);

	if (b && !b->n) {
		b->n = 1;
		b->thresh = ls_budget_thresh(1);
		b->rng = bpf_get_prandom_u32() | 1;
		b->probe_left = 1;
	}
	return b;
}

/* A run starts: the clock if this run is measured, else 0. */
static __always_inline __u64 budget_run_start(struct ls_budget_cpu *b)
{
	if (!b || --b->probe_left)
		return 0;
	b->probe_left = LS_BUDGET_PROBE_EVERY;
	return bpf_ktime_get_ns();
}

/* A run that began at @t0 (0: not measured) ends; @sampled: it served a
 * sampled wait. */
static __always_inline void budget_run_end(struct ls_budget_cpu *b, __u64 t0,
					   int sampled)
{
	__u64 t1;

	if (!b)
		return;
	b->runs++;
	b->win_runs++;
	if (sampled) {
		b->sruns++;
		b->win_sruns++;
	}
	if (!t0)
		return;
	t1 = bpf_ktime_get_ns();
	b->probe_ns[sampled ? 1 : 0] += t1 - t0;
	b->probe_runs[sampled ? 1 : 0]++;
	if (t1 - b->win_start >= LS_BUDGET_WINDOW_NS)
		ls_budget_close(b, t1, budget_ppm);
}

/* The weight of a wait opening now: N if sampled, 0 if not; 1 without a
 * budget (every wait timed). */
static __always_inline __u32 budget_weight(struct ls_budget_cpu *b)
{
	if (!budget_ppm)
		return 1;
	return b ? ls_budget_pick(b) : 1;
}

#endif
