/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * budget.bpf.h - the cost budget's kernel side (--budget): this CPU's
 * sampler and cost meter in budget_cpu.  Each begin and end program run
 * is counted; one run in LS_BUDGET_PROBE_EVERY reads the clock at its
 * entry and exit, and at a measured run after LS_BUDGET_WINDOW_NS the
 * window closes and N is picked again (bpf/budget_rule.h).  Also the
 * timed waits' helpers: the clock read once per run when needed, the peek
 * that reads it at an end before the pop, a timed wait's variance sums.
 * Included by lockscope.bpf.c after rows.bpf.h; the sampler is dead code
 * (dropped by the verifier) when budget_ppm is 0.
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

/* The clock, read once per run and only when a timed wait needs it (under
 * a budget, an untimed wait reads none). */
static __always_inline __u64 clock_of(__u64 *now)
{
	if (!*now)
		*now = bpf_ktime_get_ns();
	return *now;
}

/* Under a budget: a timed wait's share of its estimates' variance. */
static __always_inline void
record_estimate(struct ls_lock_stats *s, struct ls_wait *w, __u64 dur, __u64 dp)
{
	__u32 wt = w->weight;

	__sync_fetch_and_add(&s->sampled, 1);
	__sync_fetch_and_add(&s->est_weight, wt);
	/* a weight of 1 (exact) adds no variance; and an add of a constant 0
	 * becomes an atomic OR, which kernels before 5.12 refuse (compat) */
	if (wt < 2)
		return;
	__sync_fetch_and_add(&s->var_count, (__u64)wt * (wt - 1));
	__sync_fetch_and_add(&s->var_total, ls_est_var_term(dur, wt));
	if (w->phase == LS_PHASE_SPIN)
		__sync_fetch_and_add(&s->var_spin, ls_est_var_term(dp, wt));
	else
		__sync_fetch_and_add(&s->var_sleep, ls_est_var_term(dp, wt));
}

/* Under a budget: the clock, if the innermost wait on this CPU is a timed
 * one of @lock (the usual end), read before the pop as exact mode does;
 * else 0. */
static __always_inline __u64 timed_top(struct ls_waits *ws, __u64 lock)
{
	__u32 d = ws->depth;
	struct ls_wait *top;

	if (d == 0 || d > LS_DEPTH)
		return 0;
	top = &ws->w[(d - 1) & (LS_DEPTH - 1)];
	return top->addr == lock && top->weight ? bpf_ktime_get_ns() : 0;
}

#endif
