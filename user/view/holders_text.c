// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* holders_text.c - the holder side of a lock row as text (hist and top's
 * detail view): holder states at wait start, handoff tenure (an upper
 * bound) and its histogram, sampled holder sites, pairs and tids. */
#include "view/holders_text.h"
#include "view/fmt.h"
#include "view/hist_text.h"

static double pct(uint64_t a, uint64_t b)
{
	return b ? 100.0 * (double)a / (double)b : 0.0;
}

void ls_print_holder_states(FILE *f, const struct ls_row *r)
{
	static const unsigned order[] = {
		LS_HOLDER_RUNNING,   LS_HOLDER_VCPU_PREEMPTED,
		LS_HOLDER_PREEMPTED, LS_HOLDER_SLEEPING,
		LS_HOLDER_FREE,	     LS_HOLDER_UNKNOWN};
	uint64_t all = 0;
	int first = 1;

	for (unsigned i = 0; i < LS_HOLDER_MAX; i++)
		all += r->st.holder_waits[i];
	for (unsigned i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		unsigned h = order[i];
		char d[16];

		/* measured: shown even at 0%; else never as a 0% */
		if (h == LS_HOLDER_VCPU_PREEMPTED && all &&
		    r->st.holder_waits[LS_HOLDER_RUNNING] && !r->vcpu_known) {
			fprintf(f, "%svcpu-preempted not known",
				first ? "" : ", ");
			first = 0;
			continue;
		}
		if (!r->st.holder_waits[h] &&
		    !(h == LS_HOLDER_VCPU_PREEMPTED && r->vcpu_known && all))
			continue;
		fprintf(f, "%s%s %.1f%% (%s)", first ? "" : ", ",
			ls_holder_name(h), pct(r->st.holder_waits[h], all),
			ls_fmt_dur(d, sizeof(d), r->st.holder_ns[h],
				   LS_DUR_FIXED));
		first = 0;
	}
	if (first)
		fputs("no waits", f);
}

static void print_sites(FILE *f, const struct ls_row *r)
{
	fprintf(f, "  holder sites (%llu sampled tenures):",
		(unsigned long long)r->hold_sampled);
	for (unsigned i = 0; i < r->nhsites; i++)
		fprintf(f, "%s %s %.0f%%", i ? "," : "", r->hsites[i].fn,
			pct(r->hsites[i].tenure_ns, r->hold_sampled_ns));
	fputc('\n', f);
	if (r->nhpairs) {
		fputs("  waiter -> holder:", f);
		for (unsigned i = 0; i < r->nhpairs; i++)
			fprintf(f, "%s %s -> %s %.0f%%", i ? "," : "",
				r->hpairs[i].waiter, r->hpairs[i].holder,
				pct(r->hpairs[i].tenure_ns,
				    r->hold_sampled_ns));
		fputc('\n', f);
	}
	fputs("  holder tids:", f);
	for (unsigned i = 0; i < r->nhtids; i++)
		fprintf(f, "%s %u %.0f%%", i ? "," : "", r->htids[i].tid,
			pct(r->htids[i].tenure_ns, r->hold_sampled_ns));
	fputc('\n', f);
}

void ls_print_holders(FILE *f, const struct ls_row *r, int width)
{
	const struct ls_lock_stats *st = &r->st;
	uint64_t n = ls_row_tenures(r);
	char t[16], a[16];

	if (ls_kind_has_owner(r->key.kind)) {
		fputs("  holder at wait start: ", f);
		ls_print_holder_states(f, r);
		fputc('\n', f);
	} else {
		fprintf(f,
			"  holder at wait start: not known (a %s has no "
			"owner word)\n",
			ls_kind_base(r->key.kind));
	}
	if (!n)
		return;
	fprintf(f,
		"  tenure under contention (upper bound, handoff latency "
		"included): %s in %llu handoffs, avg %s; holder sampled "
		"%.0f%%, "
		"not sampled %.0f%%, not seen taking it under contention "
		"%.0f%%\n",
		ls_fmt_dur(t, sizeof(t), st->tenure_ns, LS_DUR_FIXED),
		(unsigned long long)n,
		ls_fmt_dur(a, sizeof(a), st->tenure_ns / n, LS_DUR_FIXED),
		pct(r->hold_sampled_ns, st->tenure_ns),
		pct(st->tenure_unsampled_ns, st->tenure_ns),
		pct(st->tenure_unseen_ns, st->tenure_ns));
	if (width > 0)
		ls_hist_print(f, "tenure", r->hi.hist_tenure, NULL, NULL,
			      width);
	if (r->hold_sampled)
		print_sites(f, r);
}
