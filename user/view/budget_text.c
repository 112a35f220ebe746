// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* budget_text.c - --budget in plain text (hist, top -b): the sampler's
 * line, and under each estimated row its standard errors. */
#include "model/estimate.h"
#include "view/budget_text.h"
#include "view/fmt.h"

void ls_print_budget(FILE *f, const struct ls_snapshot *s, double secs)
{
	const struct ls_budget_snap *b = &s->budget;

	if (!b->ppm)
		return;
	fprintf(f,
		"budget %.2f%% of the CPUs: times estimated from waits sampled "
		"1 in %u",
		b->ppm / 10000.0, b->n_min);
	if (b->n_max != b->n_min)
		fprintf(f, "..%u", b->n_max);
	fprintf(f,
		" (%.1f%% of %llu runs timed); BPF cost by its own "
		"measure %.3f%% of %u CPUs",
		b->runs ? 100.0 * (double)b->sruns / (double)b->runs : 0.0,
		(unsigned long long)b->runs,
		ls_budget_share_pct(b, (uint64_t)(secs * 1e9), s->ncpus),
		s->ncpus);
	if (b->over)
		fprintf(f, "; over budget at 1 in %u in %llu of %llu windows",
			LS_BUDGET_N_MAX, (unsigned long long)b->over,
			(unsigned long long)b->windows);
	fputc('\n', f);
}

void ls_print_row_estimate(FILE *f, const struct ls_row *r)
{
	const struct ls_lock_stats *st = &r->st;
	char t[16], a[16], sp[16], sl[16];
#define NS(x) ((uint64_t)((x) + 0.5))

	if (!ls_est_is(st))
		return;
	fprintf(f,
		"  estimated from %llu timed waits: standard error total %s, "
		"avg %s, spin %s, sleep %s; min and max of the timed waits\n",
		(unsigned long long)st->sampled,
		ls_fmt_dur(t, sizeof(t), NS(ls_est_se_ns(st, LS_EST_TOTAL)),
			   LS_DUR_FIXED),
		ls_fmt_dur(a, sizeof(a), NS(ls_est_se_avg_ns(st)),
			   LS_DUR_FIXED),
		ls_fmt_dur(sp, sizeof(sp), NS(ls_est_se_ns(st, LS_EST_SPIN)),
			   LS_DUR_FIXED),
		ls_fmt_dur(sl, sizeof(sl), NS(ls_est_se_ns(st, LS_EST_SLEEP)),
			   LS_DUR_FIXED));
#undef NS
}
