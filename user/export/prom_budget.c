// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* prom_budget.c - --budget in Prometheus: the budget, the sampling rate in
 * force (a gauge, the least and the most N over CPUs), the programs' own
 * cost and the windows over budget. */
#include "export/prom_budget.h"

void ls_prom_budget(const struct ls_prom_out *o, const struct ls_budget_snap *b)
{
	char l[64];

	ls_prom_family(o, "lockscope_budget_ratio", "gauge", NULL,
		       "Share of each CPU lockscope's BPF programs may take "
		       "(--budget; 0: exact, every wait timed).");
	ls_prom_sample_f(o, "lockscope_budget_ratio", "", b->ppm / 1e6);
	if (!b->ppm)
		return;
	ls_prom_family(
		o, "lockscope_budget_sample_every", "gauge", NULL,
		"Waits are timed 1 in this many (per CPU; the least and "
		"the most over CPUs): times and histograms are estimates "
		"scaled by it, contentions stay exact.");
	ls_prom_one_label(l, sizeof(l), "bound", "min");
	ls_prom_sample_u64(o, "lockscope_budget_sample_every", l, b->n_min);
	ls_prom_one_label(l, sizeof(l), "bound", "max");
	ls_prom_sample_u64(o, "lockscope_budget_sample_every", l, b->n_max);
	ls_prom_family(
		o, "lockscope_budget_cost_seconds", "counter", "seconds",
		"BPF program time by the programs' own measure (dispatch "
		"not included).");
	ls_prom_sample_f(o, "lockscope_budget_cost_seconds_total", "",
			 b->cost_ns / 1e9);
	ls_prom_family(o, "lockscope_budget_over_windows", "counter", NULL,
		       "Adaptation windows over budget even at the most "
		       "sampling.");
	ls_prom_sample_u64(o, "lockscope_budget_over_windows_total", "",
			   b->over);
}
