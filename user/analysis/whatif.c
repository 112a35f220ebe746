// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * whatif.c - the statistics of a whatif experiment: its randomised
 * schedule; one least-squares fit of every run of a lock against the dose
 * each arm measured, with an intercept per round; the slopes, their
 * difference and Student's t intervals; the verdict from the intervals
 * and the bound (the slope of a lock that alone bounds throughput);
 * the held-out level check; the sensitivity per 1% of the critical
 * section and the extrapolated gain.
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
						(uint8_t)a, (uint16_t)r};
			for (int z = 0; z < 2; z++)
				b[k++] = (struct ls_wif_run){(uint16_t)t, 0,
							     LS_ARM_ZERO,
							     (uint16_t)r};
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

/* Per round: runs, and the sums of y and of each arm's dose. */
struct rsum {
	double n, y, x[LS_ARMS];
};

static double pct_of(const struct ls_wif_obs *o, double base)
{
	return 100.0 * (o->tput / base - 1);
}

/* The run's dose in arm @a (0 outside it). */
static double dose_in(const struct ls_wif_obs *o, int a)
{
	return o->arm == (enum ls_wif_arm)a ? o->dose_us : 0;
}

static int fitted(const struct ls_wif_obs *o, double skip_us)
{
	return !(o->arm == LS_ARM_CRITICAL && o->delay_us == skip_us);
}

/* Round sums of the runs fitted: the rounds among them, or -EINVAL. */
static int round_sums(const struct ls_wif_obs *obs, size_t n, double base,
		      double skip_us, struct rsum *rs)
{
	int nr = 0;

	memset(rs, 0, sizeof(*rs) * LS_WIF_MAX_ROUNDS);
	for (size_t i = 0; i < n; i++) {
		struct rsum *r;

		if (!fitted(&obs[i], skip_us))
			continue;
		if (obs[i].round >= LS_WIF_MAX_ROUNDS)
			return -EINVAL;
		r = &rs[obs[i].round];
		nr += !r->n;
		r->n++;
		r->y += pct_of(&obs[i], base);
		for (int a = 0; a < LS_ARMS; a++)
			r->x[a] += dose_in(&obs[i], a);
	}
	return nr;
}

/* Run @o's y and doses, centred on its round's means. */
static void centred(const struct ls_wif_obs *o, const struct rsum *r,
		    double base, double *y, double *x)
{
	*y = pct_of(o, base) - r->y / r->n;
	for (int a = 0; a < LS_ARMS; a++)
		x[a] = dose_in(o, a) - r->x[a] / r->n;
}

int ls_wif_fit(const struct ls_wif_obs *obs, size_t n, double base,
	       double skip_us, struct ls_wif_fit *f)
{
	struct rsum rs[LS_WIF_MAX_ROUNDS];
	double s[LS_ARMS][LS_ARMS] = {{0}}, sy[LS_ARMS] = {0}, det, rss = 0;
	double ty = 0, tx[LS_ARMS] = {0}, y, x[LS_ARMS];
	int nr;

	memset(f, 0, sizeof(*f));
	if (!(base > 0))
		return -EINVAL;
	nr = round_sums(obs, n, base, skip_us, rs);
	if (nr < 1)
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		if (!fitted(&obs[i], skip_us))
			continue;
		centred(&obs[i], &rs[obs[i].round], base, &y, x);
		for (int a = 0; a < LS_ARMS; a++) {
			for (int b = 0; b < LS_ARMS; b++)
				s[a][b] += x[a] * x[b];
			sy[a] += x[a] * y;
			tx[a] += dose_in(&obs[i], a);
		}
		ty += pct_of(&obs[i], base);
		f->n++;
	}
	f->rounds = (unsigned)nr;
	f->df = (double)f->n - nr - LS_ARMS;
	det = s[0][0] * s[1][1] - s[0][1] * s[0][1];
	if (f->df < 1 || !(s[0][0] > 0) || !(s[1][1] > 0) ||
	    !(det > 1e-9 * s[0][0] * s[1][1]))
		return -EINVAL;
	f->v[0][0] = s[1][1] / det;
	f->v[1][1] = s[0][0] / det;
	f->v[0][1] = f->v[1][0] = -s[0][1] / det;
	for (int a = 0; a < LS_ARMS; a++)
		f->b[a] = f->v[a][0] * sy[0] + f->v[a][1] * sy[1];
	for (size_t i = 0; i < n; i++) {
		double e;

		if (!fitted(&obs[i], skip_us))
			continue;
		centred(&obs[i], &rs[obs[i].round], base, &y, x);
		e = y - f->b[0] * x[0] - f->b[1] * x[1];
		rss += e * e;
	}
	f->s = sqrt(rss / f->df);
	f->a = ty / (double)f->n;
	for (int a = 0; a < LS_ARMS; a++)
		f->a -= f->b[a] * tx[a] / (double)f->n;
	return 0;
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

/*
 * The held-out check: the fit without the critical runs of the second
 * smallest level predicts their mean, each run at its round's intercept
 * and its own dose; the 95% interval of that prediction (the new runs'
 * own variance, the intercepts' and the slopes') against what they
 * measured.
 */
static void held_out(const struct ls_wif_obs *obs, size_t n, double base,
		     struct ls_wif_result *r)
{
	struct rsum rs[LS_WIF_MAX_ROUNDS];
	double lv = held_level(obs, n), sum = 0, mid = 0, d[LS_ARMS] = {0};
	double w[LS_WIF_MAX_ROUNDS] = {0}, vr = 0, vb = 0, se, t;
	struct ls_wif_fit f;
	size_t m = 0;

	r->fitq = LS_FITQ_UNCHECKED;
	if (lv < 0 || ls_wif_fit(obs, n, base, lv, &f) ||
	    round_sums(obs, n, base, lv, rs) < 1)
		return;
	for (size_t i = 0; i < n; i++) {
		const struct rsum *q = &rs[obs[i].round];

		if (fitted(&obs[i], lv))
			continue;
		if (!q->n) /* a round without fitted runs: no intercept */
			return;
		sum += pct_of(&obs[i], base);
		mid += q->y / q->n;
		for (int a = 0; a < LS_ARMS; a++)
			d[a] += dose_in(&obs[i], a) - q->x[a] / q->n;
		w[obs[i].round]++;
		m++;
	}
	if (!m)
		return;
	for (int a = 0; a < LS_ARMS; a++) {
		mid += f.b[a] * d[a];
		d[a] /= (double)m;
	}
	mid /= (double)m;
	for (unsigned q = 0; q < LS_WIF_MAX_ROUNDS; q++)
		if (w[q] > 0)
			vr += (w[q] / (double)m) * (w[q] / (double)m) / rs[q].n;
	for (int a = 0; a < LS_ARMS; a++)
		for (int b = 0; b < LS_ARMS; b++)
			vb += d[a] * f.v[a][b] * d[b];
	se = f.s * sqrt(1.0 / (double)m + vr + vb);
	t = ls_t_ppf(1 - LS_STATS_ALPHA / 2, f.df);
	r->held_us = lv;
	r->held_mean = sum / (double)m;
	r->held_lo = mid - t * se;
	r->held_hi = mid + t * se;
	r->fitq = r->held_mean >= r->held_lo && r->held_mean <= r->held_hi
			  ? LS_FITQ_OK
			  : LS_FITQ_POOR;
}

int ls_wif_analyse(const struct ls_wif_obs *obs, size_t n, double tenure_us,
		   double rate, struct ls_wif_result *r)
{
	const struct ls_line *c = &r->line[LS_ARM_CRITICAL];
	double base = 0, se, t;
	struct ls_wif_fit f;

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
	if (ls_wif_fit(obs, n, base, NAN, &f))
		return -EINVAL;
	t = ls_t_ppf(1 - LS_STATS_ALPHA / 2, f.df);
	for (int a = 0; a < LS_ARMS; a++) {
		struct ls_line *l = &r->line[a];

		l->n = r->nzero;
		for (size_t i = 0; i < n; i++)
			l->n += obs[i].arm == (enum ls_wif_arm)a;
		l->a = f.a;
		l->b = f.b[a];
		l->se_b = f.s * sqrt(f.v[a][a]);
		l->b_lo = l->b - t * l->se_b;
		l->b_hi = l->b + t * l->se_b;
		l->s = f.s;
		l->df = f.df;
	}
	r->diff = f.b[LS_ARM_CRITICAL] - f.b[LS_ARM_CONTROL];
	se = f.s * sqrt(f.v[0][0] + f.v[1][1] - 2 * f.v[0][1]);
	r->diff_df = f.df;
	r->diff_lo = r->diff - t * se;
	r->diff_hi = r->diff + t * se;
	r->rate = rate > 0 ? rate : 0;
	r->bound = -100 * r->rate / 1e6;
	r->equiv = rate > 0 ? -LS_WIF_EQUIV_SHARE * r->bound
			    : LS_WIF_EQUIV_PCT_PER_US;
	if (r->diff_hi < 0 && c->b_hi < 0)
		r->call = LS_CALL_ON_PATH;
	else if (r->diff_lo > -r->equiv)
		r->call = LS_CALL_NOT_ON_IT;
	held_out(obs, n, base, r);
	r->tenure_us = tenure_us;
	for (size_t i = 0; i < n; i++)
		if (obs[i].arm != LS_ARM_ZERO && obs[i].dose_us > r->max_us)
			r->max_us = obs[i].dose_us;
	r->per_pct_in = tenure_us > 0 && tenure_us / 100 <= r->max_us;
	r->gain_in = tenure_us > 0 &&
		     tenure_us * LS_WIF_EXTRAP_PCT / 100 <= r->max_us;
	if (tenure_us > 0) {
		double us = tenure_us / 100; /* us in 1% of the section */

		r->per_pct = r->diff * us;
		r->per_pct_lo = r->diff_lo * us;
		r->per_pct_hi = r->diff_hi * us;
		/* a shorter section: minus the slope, extrapolated */
		r->gain = -r->per_pct * LS_WIF_EXTRAP_PCT;
		r->gain_lo = -r->per_pct_hi * LS_WIF_EXTRAP_PCT;
		r->gain_hi = -r->per_pct_lo * LS_WIF_EXTRAP_PCT;
	}
	return 0;
}

double ls_wif_run_dose(const struct ls_wif_exp *e,
		       const struct ls_wif_run_rec *r)
{
	uint64_t of =
		r->run.arm == LS_ARM_CRITICAL ? r->cnt.ends : r->cnt.begins;

	if (r->run.arm == LS_ARM_ZERO)
		return 0;
	if (e->placebo)
		return r->delay_us;
	return of ? (double)r->cnt.injected_ns / (double)of / 1e3 : 0;
}

void ls_wif_exp_analyse(struct ls_wif_exp *e)
{
	for (unsigned t = 0; t < e->nt; t++) {
		struct ls_wif_target *g = &e->t[t];
		struct ls_wif_obs obs[e->nruns ? e->nruns : 1];
		double acq = 0, secs = 0;
		size_t n = 0;

		memset(g->cnt, 0, sizeof(g->cnt));
		for (size_t i = 0; i < e->nruns; i++) {
			const struct ls_wif_run_rec *r = &e->runs[i];
			struct ls_wif_lock *c;

			if (r->run.target != t || !(r->tput > 0))
				continue;
			obs[n++] = (struct ls_wif_obs){
				r->delay_us, (enum ls_wif_arm)r->run.arm,
				r->tput, ls_wif_run_dose(e, r), r->run.round};
			if (r->run.arm >= LS_ARMS) {
				acq += (double)r->cnt.ends;
				secs += r->wall_s;
				continue;
			}
			c = &g->cnt[r->run.arm];
			c->ends += r->cnt.ends;
			c->begins += r->cnt.begins;
			c->delayed += r->cnt.delayed;
			c->injected_ns += r->cnt.injected_ns;
			for (int v = 0; v < LS_WIF_VERDICTS; v++)
				c->refused[v] += r->cnt.refused[v];
		}
		g->res_ok = !ls_wif_analyse(obs, n, g->tenure_us,
					    secs > 0 ? acq / secs : 0, &g->res);
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
