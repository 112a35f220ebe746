// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* text.c - plain text output of snapshots: the hist report and top's
 * batch frames. */
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "view/budget_text.h"
#include "view/cgroup_text.h"
#include "view/chains_text.h"
#include "view/fmt.h"
#include "view/hist_text.h"
#include "view/holders_text.h"
#include "view/hold_text.h"
#include "view/text.h"

void ls_print_losses(FILE *f, const struct ls_snapshot *s)
{
	uint64_t total = 0;
	int first = 1;

	for (unsigned i = 0; i < LS_LOSS_MAX; i++)
		total += s->loss[i];
	if (!total) {
		fprintf(f, "losses: none\n");
		return;
	}
	fprintf(f, "losses: %llu (", (unsigned long long)total);
	for (unsigned i = 0; i < LS_LOSS_MAX; i++) {
		if (!s->loss[i])
			continue;
		fprintf(f, "%s%s %llu", first ? "" : ", ", ls_loss_name(i),
			(unsigned long long)s->loss[i]);
		first = 0;
	}
	fprintf(f, ")\n");
	if (ls_loss_hint(s->loss))
		fprintf(f, "hint: %s\n", ls_loss_hint(s->loss));
}

int ls_print_loss_notice(FILE *f, const uint64_t now[LS_LOSS_MAX],
			 const uint64_t then[LS_LOSS_MAX], uint64_t begins,
			 double secs)
{
	uint64_t d[LS_LOSS_MAX];
	const char *hint;
	int first = 1;

	for (unsigned i = 0; i < LS_LOSS_MAX; i++)
		d[i] = now[i] > then[i] ? now[i] - then[i] : 0;
	hint = ls_loss_hint(d);
	if (!hint)
		return 0;
	fprintf(f, "lockscope: lost data in the last %.3gs:", secs);
	for (unsigned i = 0; i < LS_LOSS_MAX; i++) {
		if (!d[i])
			continue;
		fprintf(f, "%s %s %llu", first ? "" : ",", ls_loss_name(i),
			(unsigned long long)d[i]);
		first = 0;
	}
	fprintf(f, " (of %llu begins)\nhint: %s\n", (unsigned long long)begins,
		hint);
	return 1;
}

/* The sampler's spin-share table (functions, then their callers). */
static void spin_share(FILE *f, const struct ls_snapshot *s, unsigned hz)
{
	uint64_t all = ls_snap_samples(s), spin = ls_snap_spin_samples(s);

	fprintf(f,
		"\nCPU time spent spinning (cpu-clock %u Hz, %llu samples on "
		"%u CPUs, %.2f%% spinning):\n",
		hz, (unsigned long long)all, s->ncpus,
		all ? 100.0 * (double)spin / (double)all : 0.0);
	if (!spin) {
		fprintf(f, "  (no samples inside spin functions)\n");
		return;
	}
	fprintf(f, "  %-36s %8s %9s  %s\n", "FUNCTION", "SHARE", "SAMPLES",
		"CALLERS (share of the function's samples)");
	for (unsigned i = 0; i < s->nfuncs; i++) {
		uint64_t n = s->func_samples[i];
		size_t idx[3] = {0};
		int k = 0;

		if (!n)
			continue;
		fprintf(f, "  %-36s %7.2f%% %9llu  ", s->func_name[i],
			100.0 * (double)n / (double)all, (unsigned long long)n);
		/* the function's three most sampled callers, best first */
		for (size_t a = 0; a < s->nspin_callers; a++) {
			const struct ls_spin_caller *x = &s->spin_callers[a];
			int pos = k;

			if (x->func != i || !x->samples)
				continue;
			while (pos > 0 &&
			       s->spin_callers[idx[pos - 1]].samples <
				       x->samples)
				pos--;
			if (pos >= 3)
				continue;
			for (int m = (k < 3 ? k : 2); m > pos; m--)
				idx[m] = idx[m - 1];
			idx[pos] = a;
			if (k < 3)
				k++;
		}
		for (int m = 0; m < k; m++) {
			const struct ls_spin_caller *x =
				&s->spin_callers[idx[m]];

			fprintf(f, "%s%s %.0f%%", m ? ", " : "", x->fn,
				100.0 * (double)x->samples / (double)n);
		}
		fputc('\n', f);
	}
}

/* The spin share read against steal: what the hypervisor took of the
 * vCPUs' time over the run (samples are taken only while a vCPU runs). */
static void steal_share(FILE *f, const struct ls_snapshot *s, double secs)
{
	long tck = sysconf(_SC_CLK_TCK);
	double st, all = secs * s->steal.ncpus;

	if (!s->steal.ncpus || tck <= 0 || all <= 0)
		return;
	st = (double)s->steal.total / (double)tck;
	fprintf(f,
		"  against steal: the hypervisor took %.2f%% of the %u vCPUs' "
		"time (%.2fs of %.1fs); shares above are of the time they "
		"ran\n",
		100.0 * st / all, s->steal.ncpus, st, all);
}

static void row_summary(FILE *f, const struct ls_row *r)
{
	char t[16], a[16], mx[16], mn[16], sp[16], sl[16];
	double won = ls_row_spin_won_pct(r);

	fprintf(f,
		"  contentions %llu  total %s  avg %s  min %s  max %s  peak "
		"waiters %llu  waiting now %lld  gave up %llu\n",
		(unsigned long long)r->st.contentions,
		ls_fmt_dur(t, sizeof(t), r->st.total_ns, LS_DUR_FIXED),
		ls_fmt_dur(a, sizeof(a), ls_row_avg_ns(r), LS_DUR_FIXED),
		ls_fmt_dur(mn, sizeof(mn), ls_row_min_ns(r), LS_DUR_FIXED),
		ls_fmt_dur(mx, sizeof(mx), r->st.max_ns, LS_DUR_FIXED),
		(unsigned long long)r->st.peak_waiters_all,
		(long long)r->st.waiters, (unsigned long long)r->st.gave_up);
	fprintf(f, "  spin %s  sleep %s",
		ls_fmt_dur(sp, sizeof(sp), r->st.spin_ns, LS_DUR_FIXED),
		ls_fmt_dur(sl, sizeof(sl), r->st.sleep_ns, LS_DUR_FIXED));
	if (won >= 0)
		fprintf(f,
			"  spins won %llu, fell back to sleep %llu (%.1f%% "
			"won)",
			(unsigned long long)r->st.spin_won,
			(unsigned long long)r->st.spin_failed, won);
	fputc('\n', f);
	if (r->st.osq_calls || r->st.slow_calls) {
		char o1[16], s1[16], u1[16], pv[64] = "";

		if (r->osq_vcpu_known && r->st.osq_bailouts)
			snprintf(pv, sizeof(pv),
				 ", %llu with the previous vCPU preempted",
				 (unsigned long long)r->osq_prev_preempted);
		fprintf(f,
			"  probes: osq_lock %s in %llu calls (%llu bailed "
			"out%s, peak %llu spinners)  slow path %s in %llu "
			"calls, %s outside tracepoint waits%s\n",
			ls_fmt_dur(o1, sizeof(o1), r->st.osq_ns, LS_DUR_FIXED),
			(unsigned long long)r->st.osq_calls,
			(unsigned long long)r->st.osq_bailouts, pv,
			(unsigned long long)r->st.osq_peak,
			ls_fmt_dur(s1, sizeof(s1), r->st.slow_ns, LS_DUR_FIXED),
			(unsigned long long)r->st.slow_calls,
			ls_fmt_dur(u1, sizeof(u1), r->st.slow_untraced_ns,
				   LS_DUR_FIXED),
			r->key.kind == LS_KIND_RWSEM_W
				? " (writer spin, in spin)"
				: "");
	}
	if (r->ncallers) {
		fprintf(f, "  callers (%llu sampled stacks):",
			(unsigned long long)r->caller_samples);
		for (unsigned i = 0; i < r->ncallers; i++)
			fprintf(f, "%s %s %.0f%%", i ? "," : "",
				r->callers[i].fn,
				100.0 * (double)r->callers[i].samples /
					(double)r->caller_samples);
		fputc('\n', f);
	}
}

void ls_print_steal(FILE *f, const struct ls_snapshot *s)
{
	char buf[160];

	ls_steal_format(buf, sizeof(buf), &s->steal, sysconf(_SC_CLK_TCK));
	fprintf(f, "steal (CPU time the hypervisor took): %s\n", buf);
}

void ls_print_hist(FILE *f, const struct ls_snapshot *s, double secs,
		   unsigned n, const char *sources, unsigned hz,
		   unsigned stack_every)
{
	size_t shown = s->nrows < n ? s->nrows : n;

	fprintf(f, "lockscope hist: %.1fs, sources: %s\n", secs, sources);
	fprintf(f,
		"events: %llu begins, %llu ends, %llu waits recorded, %zu "
		"locks; callers sampled every %u contentions\n",
		(unsigned long long)s->ctr[LS_CTR_BEGIN],
		(unsigned long long)s->ctr[LS_CTR_END],
		(unsigned long long)s->ctr[LS_CTR_RECORDED], s->nrows,
		stack_every);
	ls_print_steal(f, s);
	ls_print_losses(f, s);
	ls_print_budget(f, s, secs);
	if (!s->nrows)
		fprintf(f, "\nno contended locks seen\n");
	for (size_t i = 0; i < shown; i++) {
		const struct ls_row *r = &s->rows[i];

		fprintf(f, "\n#%zu %s (%s", i + 1, r->name,
			ls_kind_name(r->key.kind));
		if (r->instances) /* --by class */
			fprintf(f, ", %u lock%s", r->instances,
				r->instances == 1 ? "" : "s");
		fputs(")\n", f);
		row_summary(f, r);
		ls_print_row_estimate(f, r);
		if (r->st.spin_ns && r->st.sleep_ns)
			ls_hist_print(f, "spin", r->hi.hist_spin, "sleep",
				      r->hi.hist_sleep, 30);
		else if (r->st.spin_ns)
			ls_hist_print(f, "spin", r->hi.hist_spin, NULL, NULL,
				      30);
		else
			ls_hist_print(f, "sleep", r->hi.hist_sleep, NULL, NULL,
				      30);
		ls_print_holders(f, r, 30);
		ls_print_chains(f, s, r);
		ls_print_hold(f, s, r);
		ls_print_cgroups(f, s, r);
	}
	if (shown < s->nrows)
		fprintf(f, "\n(%zu more locks not shown; -n to show more)\n",
			s->nrows - shown);
	if (hz) {
		spin_share(f, s, hz);
		steal_share(f, s, secs);
	}
}

void ls_print_frame(FILE *f, const struct ls_snapshot *d, double secs,
		    unsigned n, const char *sources, const char *extra)
{
	size_t shown = d->nrows < n ? d->nrows : n;
	uint64_t all = ls_snap_samples(d), spin = ls_snap_spin_samples(d);
	time_t now = time(NULL);
	char ts[32];

	strftime(ts, sizeof(ts), "%H:%M:%S", localtime(&now));
	fprintf(f, "lockscope top - %s  interval %.1fs  sources: %s\n", ts,
		secs, sources);
	fprintf(f, "events/s: %.0f begins, %.0f ends; spin CPU share %.2f%%; ",
		(double)d->ctr[LS_CTR_BEGIN] / secs,
		(double)d->ctr[LS_CTR_END] / secs,
		all ? 100.0 * (double)spin / (double)all : 0.0);
	ls_print_losses(f, d);
	ls_print_steal(f, d);
	ls_print_budget(f, d, secs);
	if (extra)
		fprintf(f, "%s\n", extra);
	fprintf(f, "%-32s %-9s %9s %9s %9s %9s %9s %5s %5s %6s %5s %5s %s\n",
		"LOCK", "KIND", "CONT/s", "SPINms/s", "SLEEPms/s", "AVG", "MAX",
		"WAIT", "PEAK", "WON%", "PRE%", "BLK%", "CALLER");
	for (size_t i = 0; i < shown; i++) {
		const struct ls_row *r = &d->rows[i];
		char avg[16] = "-", mx[16], mxs[20] = "-", won[16] = "-";
		char pre[16] = "-", blk[16] = "-";
		double w = ls_row_spin_won_pct(r), p = ls_row_preempted_pct(r);
		double b = ls_row_chain_pct(r);

		if (w >= 0)
			snprintf(won, sizeof(won), "%.0f", w);
		if (p >= 0)
			snprintf(pre, sizeof(pre), "%.0f", p);
		if (b >= 0 && d->chains_on)
			snprintf(blk, sizeof(blk), "%.0f", b);
		/* the cells of top's screen: "-" without a wait this interval,
		 * "<x" when it set no new maximum (its longest wait < x) */
		if (r->st.contentions) {
			ls_fmt_dur(avg, sizeof(avg), ls_row_avg_ns(r),
				   LS_DUR_SHORT);
			snprintf(mxs, sizeof(mxs), "%s%s",
				 r->max_bound ? "<" : "",
				 ls_fmt_dur(mx, sizeof(mx), r->st.max_ns,
					    LS_DUR_SHORT));
		}
		fprintf(f,
			"%-32.32s %-9s %9.0f %9.2f %9.2f %9s %9s %5lld %5llu "
			"%6s %5s %5s %s\n",
			r->name, ls_kind_name(r->key.kind),
			(double)r->st.contentions / secs,
			(double)r->st.spin_ns / 1e6 / secs,
			(double)r->st.sleep_ns / 1e6 / secs, avg, mxs,
			(long long)(r->st.waiters > 0 ? r->st.waiters : 0),
			(unsigned long long)r->st.peak_waiters, won, pre, blk,
			ls_row_top_caller(r));
		/* --by cgroup: the lock's waiters and holders by cgroup */
		ls_print_cgroups_rate(f, d, r, secs, "    ");
	}
	fputc('\n', f);
	fflush(f);
}
