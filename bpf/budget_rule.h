/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * budget_rule.h - the cost budget's rules, shared by bpf/budget.bpf.h and
 * the unit tests (tests/unit/model/test_budget.c): which wait is sampled
 * (Bernoulli 1/N from a per-CPU xorshift), the variance term a sampled wait
 * adds, and the N a CPU picks at the end of each window from its measured
 * cost and run rate.  The rule that runs in the kernel is the rule that is
 * tested.  Plain C, no helpers; include after lockscope.h.
 */
#ifndef LS_BUDGET_RULE_H
#define LS_BUDGET_RULE_H

/* One xorshift32 step (never 0 from a non-zero state). */
static inline __u32 ls_budget_rand(__u32 *state)
{
	__u32 x = *state;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	*state = x;
	return x;
}

/* The threshold sampling 1 in @n: a 32-bit draw below it is sampled. */
static inline __u64 ls_budget_thresh(__u32 n)
{
	return n ? (1ULL << 32) / n : 1ULL << 32;
}

/* Is this wait sampled?  Its weight (N) if so, else 0. */
static inline __u32 ls_budget_pick(struct ls_budget_cpu *b)
{
	return (__u64)ls_budget_rand(&b->rng) < b->thresh ? b->n : 0;
}

/* w(w-1)x^2 of a wait of @ns weighted @w, x in LS_EST_UNIT_NS units
 * (rounded, clamped at LS_EST_X_MAX): its share of the estimate's
 * variance (Horvitz-Thompson, each wait sampled on its own with 1/w). */
static inline __u64 ls_est_var_term(__u64 ns, __u32 w)
{
	__u64 x = (ns + LS_EST_UNIT_NS / 2) >> LS_EST_UNIT_SHIFT;

	if (w < 2)
		return 0;
	if (x > LS_EST_X_MAX)
		x = LS_EST_X_MAX;
	return (__u64)w * (w - 1) * x * x;
}

/* Smoothed cost (ns x LS_BUDGET_COST_FRAC per run): 3/4 old, 1/4 new. */
static inline __u32 ls_budget_smooth(__u32 old, __u64 ns, __u64 runs)
{
	__u64 now;

	if (!runs)
		return old;
	now = ns * LS_BUDGET_COST_FRAC / runs;
	if (now > 0xffffffffULL)
		now = 0xffffffffULL;
	return old ? (__u32)((3ULL * old + now) / 4) : (__u32)now;
}

/*
 * The N that keeps @runs runs in @elapsed ns under @ppm of one CPU, at
 * @cu per unsampled and @cs per sampled run (ns x LS_BUDGET_COST_FRAC):
 * runs * (cu + (cs - cu) / N) <= elapsed * ppm / 1e6.  Sets *@over when
 * no N can: when the untimed runs alone (the floor) are over budget, N
 * only brings the cost within 1/LS_BUDGET_FLOOR_SLACK of that floor (more
 * sampling would buy almost no CPU and cost the estimates much).
 */
static inline __u32 ls_budget_next_n(__u64 runs, __u64 elapsed, __u32 cu,
				     __u32 cs, __u32 ppm, int *over)
{
	__u64 room = elapsed * LS_BUDGET_COST_FRAC / 1000000ULL * ppm;
	__u64 floor = runs * cu, extra, n;

	*over = 0;
	if (runs * (__u64)cs <= room)
		return 1;
	*over = 1;
	if (cs <= cu)
		return 1;
	extra = runs * (__u64)(cs - cu);
	if (floor >= room) {
		n = floor ? (LS_BUDGET_FLOOR_SLACK * extra + floor - 1) / floor
			  : LS_BUDGET_N_MAX;
		return n > LS_BUDGET_N_MAX ? LS_BUDGET_N_MAX : (__u32)n;
	}
	*over = 0;
	n = (extra + (room - floor) - 1) / (room - floor);
	if (n > LS_BUDGET_N_MAX) {
		*over = 1;
		n = LS_BUDGET_N_MAX;
	}
	return n < 1 ? 1 : (__u32)n;
}

/*
 * Close @b's window at @now under @ppm: add its estimated cost, smooth the
 * measured costs, pick the next N.  The first call only opens a window.
 */
static inline void ls_budget_close(struct ls_budget_cpu *b, __u64 now,
				   __u32 ppm)
{
	__u64 elapsed = now - b->win_start, un = b->win_runs - b->win_sruns;
	int over = 0;
	__u32 n;

	if (b->win_start) {
		b->cost_u = ls_budget_smooth(b->cost_u, b->probe_ns[0],
					     b->probe_runs[0]);
		b->cost_s = ls_budget_smooth(b->cost_s, b->probe_ns[1],
					     b->probe_runs[1]);
		/* an untimed run not measured yet (at 1 in 1 there are none)
		 * counts as free: the next window samples, and measures it */
		b->cost_ns += (un * b->cost_u + b->win_sruns * b->cost_s) /
			      LS_BUDGET_COST_FRAC;
		if (b->cost_s) {
			n = ls_budget_next_n(b->win_runs, elapsed, b->cost_u,
					     b->cost_s, ppm, &over);
			b->n = n;
			b->thresh = ls_budget_thresh(n);
		}
		b->windows++;
		b->over += over;
	}
	b->win_start = now;
	b->win_runs = 0;
	b->win_sruns = 0;
	b->probe_ns[0] = b->probe_ns[1] = 0;
	b->probe_runs[0] = b->probe_runs[1] = 0;
}

#endif
