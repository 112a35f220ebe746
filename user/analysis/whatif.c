// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * whatif.c - the statistics of a whatif experiment: its randomised
 * schedule, the line per arm with a Student's t interval, the difference
 * of the slopes (Welch-Satterthwaite), the verdict from its interval, the
 * held-out level check, the sensitivity per 1% of the critical section
 * and the extrapolated gain.
 */
#include <errno.h>
#include <math.h>
#include <string.h>
#include "analysis/stats.h"
#include "analysis/whatif.h"

/* splitmix64: a small, seeded, well mixed generator */
static uint64_t next_rand(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

size_t ls_wif_schedule(unsigned ntargets, unsigned nlevels, unsigned rounds,
		       uint64_t seed, struct ls_wif_run *out)
{
	size_t blk = ntargets * ls_wif_block(nlevels), n = 0;

	for (unsigned r = 0; r < rounds; r++) {
		struct ls_wif_run *b = out + n;
		size_t k = 0;

		for (unsigned t = 0; t < ntargets; t++) {
			for (unsigned l = 0; l < nlevels; l++)
				for (unsigned a = 0; a < LS_ARMS; a++)
					b[k++] = (struct ls_wif_run){
						(uint16_t)t, (uint8_t)l,
						(uint8_t)a};
			for (int z = 0; z < 2; z++)
				b[k++] = (struct ls_wif_run){(uint16_t)t, 0,
							     LS_ARM_ZERO};
		}
		for (size_t i = blk - 1; i > 0; i--) { /* Fisher-Yates */
			size_t j = (size_t)(next_rand(&seed) % (i + 1));
			struct ls_wif_run tmp = b[i];

			b[i] = b[j];
			b[j] = tmp;
		}
		n += blk;
	}
	return n;
}

int ls_line_fit(const double *x, const double *y, size_t n, struct ls_line *out)
{
	double sx = 0, sy = 0, sxy = 0, rss = 0, t;

	memset(out, 0, sizeof(*out));
	out->n = n;
	if (n < 3)
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		sx += x[i];
		sy += y[i];
	}
	out->xbar = sx / (double)n;
	sy /= (double)n;
	for (size_t i = 0; i < n; i++) {
		out->sxx += (x[i] - out->xbar) * (x[i] - out->xbar);
		sxy += (x[i] - out->xbar) * (y[i] - sy);
	}
	if (!(out->sxx > 0))
		return -EINVAL;
	out->b = sxy / out->sxx;
	out->a = sy - out->b * out->xbar;
	for (size_t i = 0; i < n; i++) {
		double e = y[i] - out->a - out->b * x[i];

		rss += e * e;
	}
	out->df = (double)n - 2;
	out->s = sqrt(rss / out->df);
	out->se_b = out->s / sqrt(out->sxx);
	t = ls_t_ppf(1 - LS_STATS_ALPHA / 2, out->df);
	out->b_lo = out->b - t * out->se_b;
	out->b_hi = out->b + t * out->se_b;
	out->ok = 1;
	return 0;
}

void ls_line_predict(const struct ls_line *l, double x0, size_t m, double *lo,
		     double *mid, double *hi)
{
	double t = ls_t_ppf(1 - LS_STATS_ALPHA / 2, l->df);
	double se = l->s * sqrt(1.0 / (double)m + 1.0 / (double)l->n +
				(x0 - l->xbar) * (x0 - l->xbar) / l->sxx);

	*mid = l->a + l->b * x0;
	*lo = *mid - t * se;
	*hi = *mid + t * se;
}

/* The runs of arm @arm (with the zero runs) as (us, % of base); count. */
static size_t arm_points(const struct ls_wif_obs *obs, size_t n, double base,
			 int arm, double skip_us, double *x, double *y)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		if (obs[i].arm != (enum ls_wif_arm)arm &&
		    obs[i].arm != LS_ARM_ZERO)
			continue;
		if (obs[i].arm != LS_ARM_ZERO && obs[i].delay_us == skip_us)
			continue;
		x[k] = obs[i].arm == LS_ARM_ZERO ? 0 : obs[i].delay_us;
		y[k++] = 100.0 * (obs[i].tput / base - 1);
	}
	return k;
}

/* An interior non-zero level of the critical arm (the second smallest),
 * when there are three or more; else -1. */
static double held_level(const struct ls_wif_obs *obs, size_t n)
{
	double lv[LS_WIF_MAX_LEVELS];
	size_t nl = 0;

	for (size_t i = 0; i < n; i++) {
		size_t j = 0;

		if (obs[i].arm != LS_ARM_CRITICAL || !(obs[i].delay_us > 0))
			continue;
		while (j < nl && lv[j] != obs[i].delay_us)
			j++;
		if (j == nl && nl < LS_WIF_MAX_LEVELS)
			lv[nl++] = obs[i].delay_us;
	}
	if (nl < 3)
		return -1;
	for (size_t i = 1; i < nl; i++) /* insertion sort */
		for (size_t j = i; j > 0 && lv[j] < lv[j - 1]; j--) {
			double t = lv[j];

			lv[j] = lv[j - 1];
			lv[j - 1] = t;
		}
	return lv[1];
}

static void held_out(const struct ls_wif_obs *obs, size_t n, double base,
		     double *x, double *y, struct ls_wif_result *r)
{
	double lv = held_level(obs, n), sum = 0, mid;
	struct ls_line l;
	size_t k, m = 0;

	r->fitq = LS_FITQ_UNCHECKED;
	if (lv < 0)
		return;
	k = arm_points(obs, n, base, LS_ARM_CRITICAL, lv, x, y);
	if (ls_line_fit(x, y, k, &l))
		return;
	for (size_t i = 0; i < n; i++)
		if (obs[i].arm == LS_ARM_CRITICAL && obs[i].delay_us == lv) {
			sum += 100.0 * (obs[i].tput / base - 1);
			m++;
		}
	r->held_us = lv;
	r->held_mean = sum / (double)m;
	ls_line_predict(&l, lv, m, &r->held_lo, &mid, &r->held_hi);
	r->fitq = r->held_mean >= r->held_lo && r->held_mean <= r->held_hi
			  ? LS_FITQ_OK
			  : LS_FITQ_POOR;
}

int ls_wif_analyse(const struct ls_wif_obs *obs, size_t n, double tenure_us,
		   struct ls_wif_result *r)
{
	double x[n ? n : 1], y[n ? n : 1], base = 0, vc, vk, se, t;
	const struct ls_line *c = &r->line[LS_ARM_CRITICAL],
			     *k = &r->line[LS_ARM_CONTROL];

	memset(r, 0, sizeof(*r));
	r->call = LS_CALL_CANNOT_TELL;
	for (size_t i = 0; i < n; i++)
		if (obs[i].arm == LS_ARM_ZERO) {
			base += obs[i].tput;
			r->nzero++;
		}
	if (!r->nzero || !(base > 0))
		return -EINVAL;
	r->base_tput = base /= (double)r->nzero;
	for (int a = 0; a < LS_ARMS; a++) {
		size_t m = arm_points(obs, n, base, a, NAN, x, y);

		if (ls_line_fit(x, y, m, &r->line[a]))
			return -EINVAL;
	}
	r->diff = c->b - k->b;
	vc = c->se_b * c->se_b;
	vk = k->se_b * k->se_b;
	se = sqrt(vc + vk);
	r->diff_df = se > 0 ? (vc + vk) * (vc + vk) /
				      (vc * vc / c->df + vk * vk / k->df)
			    : c->df + k->df;
	t = ls_t_ppf(1 - LS_STATS_ALPHA / 2, r->diff_df);
	r->diff_lo = r->diff - t * se;
	r->diff_hi = r->diff + t * se;
	if (r->diff_hi < 0 && c->b_hi < 0)
		r->call = LS_CALL_ON_PATH;
	else if (r->diff_lo > -LS_WIF_EQUIV_PCT_PER_US)
		r->call = LS_CALL_NOT_ON_IT;
	held_out(obs, n, base, x, y, r);
	r->tenure_us = tenure_us;
	for (size_t i = 0; i < n; i++)
		if (obs[i].arm != LS_ARM_ZERO && obs[i].delay_us > r->max_us)
			r->max_us = obs[i].delay_us;
	r->per_pct_in = tenure_us > 0 && tenure_us / 100 <= r->max_us;
	r->gain_in = tenure_us > 0 &&
		     tenure_us * LS_WIF_EXTRAP_PCT / 100 <= r->max_us;
	if (tenure_us > 0) {
		double f = tenure_us / 100; /* us in 1% of the section */

		r->per_pct = r->diff * f;
		r->per_pct_lo = r->diff_lo * f;
		r->per_pct_hi = r->diff_hi * f;
		/* a shorter section: minus the slope, extrapolated */
		r->gain = -r->per_pct * LS_WIF_EXTRAP_PCT;
		r->gain_lo = -r->per_pct_hi * LS_WIF_EXTRAP_PCT;
		r->gain_hi = -r->per_pct_lo * LS_WIF_EXTRAP_PCT;
	}
	return 0;
}

void ls_wif_exp_analyse(struct ls_wif_exp *e)
{
	for (unsigned t = 0; t < e->nt; t++) {
		struct ls_wif_target *g = &e->t[t];
		struct ls_wif_obs obs[e->nruns ? e->nruns : 1];
		size_t n = 0;

		memset(g->cnt, 0, sizeof(g->cnt));
		for (size_t i = 0; i < e->nruns; i++) {
			const struct ls_wif_run_rec *r = &e->runs[i];
			struct ls_wif_lock *c;

			if (r->run.target != t || !(r->tput > 0))
				continue;
			obs[n++] = (struct ls_wif_obs){
				r->delay_us, (enum ls_wif_arm)r->run.arm,
				r->tput};
			if (r->run.arm >= LS_ARMS)
				continue;
			c = &g->cnt[r->run.arm];
			c->ends += r->cnt.ends;
			c->begins += r->cnt.begins;
			c->delayed += r->cnt.delayed;
			c->injected_ns += r->cnt.injected_ns;
			for (int v = 0; v < LS_WIF_VERDICTS; v++)
				c->refused[v] += r->cnt.refused[v];
		}
		g->res_ok = !ls_wif_analyse(obs, n, g->tenure_us, &g->res);
	}
}

const char *ls_wif_call_name(enum ls_wif_call c)
{
	switch (c) {
	case LS_CALL_ON_PATH:
		return "on the critical path";
	case LS_CALL_NOT_ON_IT:
		return "not on it";
	default:
		return "cannot tell";
	}
}

const char *ls_wif_arm_name(enum ls_wif_arm a)
{
	switch (a) {
	case LS_ARM_CRITICAL:
		return "critical";
	case LS_ARM_CONTROL:
		return "control";
	default:
		return "zero";
	}
}
