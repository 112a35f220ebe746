/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * whatif_rule.h - the decision to delay one acquisition or not (cap, stall
 * watchdog, context, per-CPU budget), shared by bpf/whatif.bpf.h and the
 * unit tests (tests/unit/analysis/test_whatif_rule.c): the rule that runs
 * in the kernel is the rule that is tested.  Include after lockscope.h.
 */
#ifndef LS_WHATIF_RULE_H
#define LS_WHATIF_RULE_H

/*
 * May @ctl's delay be injected now (@now, CLOCK_MONOTONIC ns) on a CPU
 * whose budget window is @cpu?  @ctx_ok: not in NMI, as far as could be
 * read.  A delay that is granted is charged to @cpu at once (the caller
 * adds any overshoot after the wait); a refused one charges nothing.
 */
static inline enum ls_wif_verdict ls_wif_decide(const struct ls_wif_ctl *ctl,
						struct ls_wif_cpu *cpu,
						__u64 now, int ctx_ok)
{
	__u64 d = ctl->delay_ns, w = now / LS_WIF_WINDOW_NS;

	if (!d)
		return LS_WIF_NO_DELAY;
	if (d > LS_WIF_CAP_NS)
		return LS_WIF_REF_CAP;
	/* a heartbeat written after @now was read is fresh, not stale */
	if ((__s64)(now - ctl->beat_ns) > (__s64)LS_WIF_STALL_NS)
		return LS_WIF_REF_STALL;
	if (!ctx_ok)
		return LS_WIF_REF_CONTEXT;
	if (cpu->window != w) {
		cpu->window = w;
		cpu->used_ns = 0;
	}
	if (ctl->budget_ns > LS_WIF_MAX_BUDGET_NS ||
	    cpu->used_ns + d > ctl->budget_ns)
		return LS_WIF_REF_BUDGET;
	cpu->used_ns += d;
	return LS_WIF_DELAY;
}

#endif
