// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * whatif_out.c - a whatif experiment for people (a block per lock: the
 * verdict, both arms' lines and their difference with 95% intervals, the
 * share of acquisitions delayed, refusals, the sensitivities, the
 * extrapolation and the fit check) and for machines (JSON, every run).
 */
#include <math.h>
#include <string.h>
#include "model/model.h"
#include "view/whatif_out.h"

static const char *const ref_name[LS_WIF_VERDICTS] = {
	[LS_WIF_REF_CAP] = "cap",
	[LS_WIF_REF_BUDGET] = "budget",
	[LS_WIF_REF_STALL] = "stall",
	[LS_WIF_REF_CONTEXT] = "context",
};

static uint64_t refused(const struct ls_wif_lock *c)
{
	uint64_t n = 0;

	for (int v = LS_WIF_REF_CAP; v < LS_WIF_VERDICTS; v++)
		n += c->refused[v];
	return n;
}

static double pct(uint64_t a, uint64_t b)
{
	return b ? 100.0 * (double)a / (double)b : 0;
}

static void print_arm(FILE *f, const struct ls_wif_target *g, int a)
{
	const struct ls_line *l = &g->res.line[a];
	const struct ls_wif_lock *c = &g->cnt[a];
	uint64_t of = a == LS_ARM_CRITICAL ? c->ends : c->begins;

	fprintf(f,
		"  %-10s %+8.3f %%/us [%+.3f, %+.3f]  delayed %.1f%% of %llu "
		"%s (%.2f us each on average)",
		a == LS_ARM_CRITICAL ? "critical" : "control", l->b, l->b_lo,
		l->b_hi, pct(c->delayed, of), (unsigned long long)of,
		a == LS_ARM_CRITICAL ? "contended acquisitions" : "waits",
		of ? (double)c->injected_ns / (double)of / 1e3 : 0.0);
	if (refused(c)) {
		fprintf(f, ", refused %llu (", (unsigned long long)refused(c));
		for (int v = LS_WIF_REF_CAP, first = 1; v < LS_WIF_VERDICTS;
		     v++)
			if (c->refused[v]) {
				fprintf(f, "%s%s %llu", first ? "" : ", ",
					ref_name[v],
					(unsigned long long)c->refused[v]);
				first = 0;
			}
		fprintf(f, ")");
	}
	fprintf(f, "\n");
}

static void print_target(FILE *f, const struct ls_wif_exp *e,
			 const struct ls_wif_target *g)
{
	const struct ls_wif_result *r = &g->res;

	fprintf(f, "\n%s (%s, -L %s): %s\n", g->name[0] ? g->name : "(none)",
		g->name[0] ? ls_kind_name(g->kind) : "never contended", g->spec,
		ls_wif_call_name(r->call));
	if (!g->res_ok) {
		fprintf(f, "  no line could be fitted: the lock was not seen "
			   "in every arm, or too few runs\n");
		return;
	}
	print_arm(f, g, LS_ARM_CRITICAL);
	print_arm(f, g, LS_ARM_CONTROL);
	fprintf(f,
		"  difference %+8.3f %%/us [%+.3f, %+.3f]  critical - control: "
		"the critical section's own effect\n",
		r->diff, r->diff_lo, r->diff_hi);
	if (r->rate > 0)
		fprintf(f,
			"  bound      %+8.3f %%/us  if it alone bounded "
			"throughput (%.0f contended acquisitions/s); not on it "
			"needs the difference above %+.3f\n",
			r->bound, r->rate, -r->equiv);
	else
		fprintf(f,
			"  bound      unknown (no contended acquisition in the "
			"zero runs); not on it needs the difference above "
			"%+.3f\n",
			-r->equiv);
	if (r->tenure_us > 0) {
		fprintf(f, "  per 1%% of its mean %s (%.2f us%s): ",
			g->tenure_is_wait ? "wait" : "tenure", r->tenure_us,
			g->tenure_is_wait
				? ""
				: ", handoff included: an upper bound");
		if (r->per_pct_in)
			fprintf(f, "%+.3f%% [%+.3f, %+.3f]\n", r->per_pct,
				r->per_pct_lo, r->per_pct_hi);
		else
			fprintf(f, "not given: 1%% is beyond the largest "
				   "delay measured\n");
		fprintf(f, "  %.0f%% shorter critical section: ",
			LS_WIF_EXTRAP_PCT);
		if (r->gain_in)
			fprintf(f,
				"%+.2f%% throughput [%+.2f, %+.2f] "
				"(extrapolated from slow-downs)\n",
				r->gain, r->gain_lo, r->gain_hi);
		else
			fprintf(f,
				"not extrapolated: %.1f us is beyond the "
				"largest delay measured (%g us)\n",
				r->tenure_us * LS_WIF_EXTRAP_PCT / 100,
				r->max_us);
	}
	if (r->fitq == LS_FITQ_UNCHECKED)
		fprintf(f, "  fit: not checked (3 or more non-zero delays "
			   "needed)\n");
	else
		fprintf(f,
			"  fit: %s: held-out %g us measured %+.2f%%, the other "
			"levels predict [%+.2f, %+.2f]\n",
			r->fitq == LS_FITQ_OK ? "linear" : "POOR (not a line)",
			r->held_us, r->held_mean, r->held_lo, r->held_hi);
	fprintf(f, "  base %.6g %s over %zu zero-delay runs\n", r->base_tput,
		e->unit, r->nzero);
}

void ls_wif_print(FILE *f, const struct ls_wif_exp *e)
{
	uint64_t inj = 0, loss = 0;

	for (size_t i = 0; i < e->nruns; i++)
		inj += e->runs[i].cnt.injected_ns;
	for (int i = 0; i < LS_LOSS_MAX; i++)
		loss += e->loss[i];
	fprintf(f, "whatif: %u lock%s%s, delays", e->nt, e->nt > 1 ? "s" : "",
		e->picked ? " (the pre-run's most waited-on)" : "");
	for (unsigned i = 0; i < e->ndelays; i++)
		fprintf(f, "%s%g", i ? "," : " ", e->delays_us[i]);
	fprintf(f,
		" us, %u rounds, %zu runs in %.0f s, throughput in %s%s\n"
		"  injected %.3f s in all (budget %llu ms per CPU per s, kept "
		"in %llu ms windows; cap %llu us); %llu events lost\n"
		"  only contended acquisitions are delayed (no function "
		"probes: uncontended holds are not seen)\n",
		e->rounds, e->nruns, e->secs, e->unit,
		e->placebo ? "; PLACEBO: nothing injected (A/A)" : "",
		(double)inj / 1e9,
		(unsigned long long)(e->budget_ns * LS_WIF_WINDOWS_PER_S /
				     1000000),
		(unsigned long long)(LS_WIF_WINDOW_NS / 1000000),
		(unsigned long long)(LS_WIF_CAP_NS / 1000),
		(unsigned long long)loss);
	for (unsigned t = 0; t < e->nt; t++)
		print_target(f, e, &e->t[t]);
}

static struct json_object *dbl(double v)
{
	return isfinite(v) ? json_object_new_double(v) : NULL;
}

static struct json_object *counts_json(const struct ls_wif_lock *c)
{
	struct json_object *j = json_object_new_object(),
			   *r = json_object_new_object();

	json_object_object_add(j, "contended_acquisitions",
			       json_object_new_int64((int64_t)c->ends));
	json_object_object_add(j, "waits",
			       json_object_new_int64((int64_t)c->begins));
	json_object_object_add(j, "delayed",
			       json_object_new_int64((int64_t)c->delayed));
	json_object_object_add(j, "injected_ns",
			       json_object_new_int64((int64_t)c->injected_ns));
	for (int v = LS_WIF_REF_CAP; v < LS_WIF_VERDICTS; v++)
		json_object_object_add(
			r, ref_name[v],
			json_object_new_int64((int64_t)c->refused[v]));
	json_object_object_add(j, "refused", r);
	return j;
}

static struct json_object *interval(double v, double lo, double hi)
{
	struct json_object *j = json_object_new_object();

	json_object_object_add(j, "value", dbl(v));
	json_object_object_add(j, "lo", dbl(lo));
	json_object_object_add(j, "hi", dbl(hi));
	return j;
}

static struct json_object *target_json(const struct ls_wif_exp *e, unsigned t)
{
	const struct ls_wif_target *g = &e->t[t];
	const struct ls_wif_result *r = &g->res;
	struct json_object *j = json_object_new_object(),
			   *arms = json_object_new_object(),
			   *pts = json_object_new_array();

	json_object_object_add(j, "lock", json_object_new_string(g->spec));
	json_object_object_add(j, "name", json_object_new_string(g->name));
	json_object_object_add(j, "kind",
			       json_object_new_string(ls_kind_name(g->kind)));
	json_object_object_add(
		j, "verdict",
		json_object_new_string(ls_wif_call_name(r->call)));
	json_object_object_add(j, "analysed",
			       json_object_new_boolean(g->res_ok));
	for (int a = 0; a < LS_ARMS; a++) {
		struct json_object *o = json_object_new_object();
		const struct ls_line *l = &r->line[a];

		json_object_object_add(o, "slope_pct_per_us",
				       interval(l->b, l->b_lo, l->b_hi));
		json_object_object_add(o, "intercept_pct", dbl(l->a));
		json_object_object_add(o, "residual_sd_pct", dbl(l->s));
		json_object_object_add(o, "points",
				       json_object_new_int64((int64_t)l->n));
		json_object_object_add(o, "counts", counts_json(&g->cnt[a]));
		json_object_object_add(arms, ls_wif_arm_name(a), o);
	}
	json_object_object_add(j, "arms", arms);
	json_object_object_add(j, "difference_pct_per_us",
			       interval(r->diff, r->diff_lo, r->diff_hi));
	json_object_object_add(j, "contended_acquisitions_per_s", dbl(r->rate));
	json_object_object_add(j, "bound_pct_per_us", dbl(r->bound));
	json_object_object_add(j, "equivalence_pct_per_us", dbl(r->equiv));
	json_object_object_add(j, "mean_section_us", dbl(r->tenure_us));
	json_object_object_add(
		j, "mean_section_is",
		json_object_new_string(g->tenure_is_wait ? "wait" : "tenure"));
	json_object_object_add(
		j, "per_pct_of_section",
		interval(r->per_pct, r->per_pct_lo, r->per_pct_hi));
	json_object_object_add(j, "extrapolated_gain_pct",
			       interval(r->gain, r->gain_lo, r->gain_hi));
	json_object_object_add(j, "extrapolated_shorter_pct",
			       dbl(LS_WIF_EXTRAP_PCT));
	json_object_object_add(j, "per_pct_within_measured",
			       json_object_new_boolean(r->per_pct_in));
	json_object_object_add(j, "extrapolation_within_measured",
			       json_object_new_boolean(r->gain_in));
	{
		struct json_object *h = json_object_new_object();

		json_object_object_add(
			h, "check",
			json_object_new_string(r->fitq == LS_FITQ_OK ? "linear"
					       : r->fitq == LS_FITQ_POOR
						       ? "poor"
						       : "unchecked"));
		json_object_object_add(h, "held_out_us", dbl(r->held_us));
		json_object_object_add(h, "measured_pct", dbl(r->held_mean));
		json_object_object_add(h, "predicted",
				       interval(NAN, r->held_lo, r->held_hi));
		json_object_object_add(j, "fit", h);
	}
	json_object_object_add(j, "base_throughput", dbl(r->base_tput));
	for (size_t i = 0; i < e->nruns; i++) {
		const struct ls_wif_run_rec *rr = &e->runs[i];
		struct json_object *p;

		if (rr->run.target != t)
			continue;
		p = json_object_new_object();
		json_object_object_add(p, "delay_us", dbl(rr->delay_us));
		json_object_object_add(p, "dose_us",
				       dbl(ls_wif_run_dose(e, rr)));
		json_object_object_add(p, "round",
				       json_object_new_int(rr->run.round));
		json_object_object_add(
			p, "arm",
			json_object_new_string(ls_wif_arm_name(rr->run.arm)));
		json_object_object_add(p, "throughput", dbl(rr->tput));
		json_object_object_add(
			p, "pct_of_base",
			dbl(r->base_tput > 0
				    ? 100 * (rr->tput / r->base_tput - 1)
				    : NAN));
		json_object_object_add(p, "wall_s", dbl(rr->wall_s));
		json_object_object_add(p, "locks_selected",
				       json_object_new_int((int)rr->nsel));
		json_object_object_add(p, "counts", counts_json(&rr->cnt));
		json_object_array_add(pts, p);
	}
	json_object_object_add(j, "runs", pts);
	return j;
}

struct json_object *ls_wif_to_json(const struct ls_wif_exp *e)
{
	struct json_object *j = json_object_new_object(),
			   *x = json_object_new_object(),
			   *d = json_object_new_array(),
			   *l = json_object_new_array(),
			   *loss = json_object_new_object();
	char seed[24];

	if (!j || !x || !d || !l || !loss)
		return NULL;
	json_object_object_add(j, "lockscope_whatif", json_object_new_int(1));
	for (unsigned i = 0; i < e->ndelays; i++)
		json_object_array_add(d, dbl(e->delays_us[i]));
	json_object_object_add(x, "delays_us", d);
	json_object_object_add(x, "rounds",
			       json_object_new_int((int)e->rounds));
	snprintf(seed, sizeof(seed), "%#llx", (unsigned long long)e->seed);
	json_object_object_add(x, "seed", json_object_new_string(seed));
	json_object_object_add(x, "placebo",
			       json_object_new_boolean(e->placebo));
	json_object_object_add(x, "picked_by_prerun",
			       json_object_new_boolean(e->picked));
	json_object_object_add(x, "unit", json_object_new_string(e->unit));
	json_object_object_add(x, "cap_ns",
			       json_object_new_int64((int64_t)LS_WIF_CAP_NS));
	json_object_object_add(
		x, "budget_ns_per_cpu_s",
		json_object_new_int64(
			(int64_t)(e->budget_ns * LS_WIF_WINDOWS_PER_S)));
	json_object_object_add(
		x, "budget_window_ns",
		json_object_new_int64((int64_t)LS_WIF_WINDOW_NS));
	json_object_object_add(x, "cpus", json_object_new_int((int)e->ncpus));
	json_object_object_add(x, "seconds", dbl(e->secs));
	json_object_object_add(x, "injection",
			       json_object_new_string(e->ctx_how));
	json_object_object_add(j, "experiment", x);
	for (int i = 0; i < LS_LOSS_MAX; i++)
		if (e->loss[i])
			json_object_object_add(
				loss, ls_loss_name((unsigned)i),
				json_object_new_int64((int64_t)e->loss[i]));
	json_object_object_add(j, "losses", loss);
	for (unsigned t = 0; t < e->nt; t++)
		json_object_array_add(l, target_json(e, t));
	json_object_object_add(j, "locks", l);
	return j;
}
