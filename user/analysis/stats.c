// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * stats.c - Welch's t-test, Student's t distribution (through the
 * regularized incomplete beta function) and the Benjamini-Hochberg
 * adjustment.  Hand-written: the project is GPL-2.0 OR BSD-2-Clause and
 * Debian's numerical library (GSL) is GPL-3.
 */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include "analysis/stats.h"

/*
 * Continued fraction of I_x(a, b) (modified Lentz), converging fast for
 * x < (a + 1) / (a + b + 2); the caller uses the symmetry otherwise.
 */
static double betacf(double a, double b, double x)
{
	const double tiny = 1e-300;
	double c = 1, d = 1 - (a + b) * x / (a + 1), h;

	if (fabs(d) < tiny)
		d = tiny;
	d = 1 / d;
	h = d;
	for (int m = 1; m <= 10000; m++) {
		double m2 = 2.0 * m, aa, del;

		aa = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
		d = 1 + aa * d;
		d = fabs(d) < tiny ? tiny : d;
		c = 1 + aa / c;
		c = fabs(c) < tiny ? tiny : c;
		d = 1 / d;
		h *= d * c;
		aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
		d = 1 + aa * d;
		d = fabs(d) < tiny ? tiny : d;
		c = 1 + aa / c;
		c = fabs(c) < tiny ? tiny : c;
		d = 1 / d;
		del = d * c;
		h *= del;
		if (fabs(del - 1) < 1e-15)
			break;
	}
	return h;
}

double ls_betainc(double a, double b, double x)
{
	double lbt;

	if (!(a > 0) || !(b > 0) || !(x >= 0) || !(x <= 1))
		return NAN;
	if (x == 0 || x == 1)
		return x;
	/* x^a (1-x)^b / B(a, b), in logs */
	lbt = lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) +
	      b * log1p(-x);
	if (x < (a + 1) / (a + b + 2))
		return exp(lbt) * betacf(a, b, x) / a;
	return 1 - exp(lbt) * betacf(b, a, 1 - x) / b;
}

/* P(|T| > |t|) */
static double t_two_sided(double t, double df)
{
	if (isinf(t))
		return 0;
	return ls_betainc(df / 2, 0.5, df / (df + t * t));
}

double ls_t_cdf(double t, double df)
{
	double tail;

	if (isnan(t) || !(df > 0))
		return NAN;
	tail = t_two_sided(t, df) / 2;
	return t < 0 ? tail : 1 - tail;
}

double ls_t_ppf(double p, double df)
{
	double lo = 0, hi = 1, q;

	if (!(p > 0) || !(p < 1) || !(df > 0))
		return NAN;
	if (p == 0.5)
		return 0;
	/* solve the upper tail q = P(T > t) for t > 0 by bisection: the
	 * tail falls monotonically, and 200 halvings reach double precision
	 * from any bracket found below */
	q = p < 0.5 ? p : 1 - p;
	while (t_two_sided(hi, df) / 2 > q && hi < 1e300)
		hi *= 2;
	for (int i = 0; i < 200 && hi - lo > 1e-15 * hi; i++) {
		double mid = lo + (hi - lo) / 2;

		if (t_two_sided(mid, df) / 2 > q)
			lo = mid;
		else
			hi = mid;
	}
	q = lo + (hi - lo) / 2;
	return p < 0.5 ? -q : q;
}

static void mean_var(const double *v, size_t n, int logs, double *mean,
		     double *var)
{
	double m = 0, ss = 0;

	for (size_t i = 0; i < n; i++)
		m += logs ? log(v[i]) : v[i];
	m /= (double)n;
	for (size_t i = 0; i < n; i++) {
		double d = (logs ? log(v[i]) : v[i]) - m;

		ss += d * d;
	}
	*mean = m;
	*var = ss / (double)(n - 1);
}

static int all_positive(const double *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!(v[i] > 0))
			return 0;
	return 1;
}

/* The mean within-run variance of @n estimates @v with errors @se, on the
 * log scale when @logs; 0 without errors. */
static double se_var(const double *v, const double *se, size_t n, int logs)
{
	double sum = 0;

	for (size_t i = 0; se && i < n; i++) {
		double e = logs ? se[i] / v[i] : se[i];

		sum += e * e;
	}
	return sum / (double)n;
}

int ls_welch_test(const double *base, size_t nb, const double *nw, size_t nn,
		  double quantum, struct ls_welch *out)
{
	return ls_welch_test_se(base, NULL, nb, nw, NULL, nn, quantum, out);
}

int ls_welch_test_se(const double *base, const double *base_se, size_t nb,
		     const double *nw, const double *nw_se, size_t nn,
		     double quantum, struct ls_welch *out)
{
	double mb, vb, mn, vn, sb, sn, se2, half, ref;
	int logs;

	if (nb < 2 || nn < 2 || !base || !nw || !(quantum >= 0))
		return -EINVAL;
	logs = quantum == 0 && all_positive(base, nb) && all_positive(nw, nn);
	out->scale = logs ? LS_SCALE_LOG : LS_SCALE_LINEAR;
	mean_var(base, nb, logs, &mb, &vb);
	mean_var(nw, nn, logs, &mn, &vn);
	vb += quantum * quantum / 12 + se_var(base, base_se, nb, logs);
	vn += quantum * quantum / 12 + se_var(nw, nw_se, nn, logs);
	sb = vb / (double)nb;
	sn = vn / (double)nn;
	se2 = sb + sn;
	out->diff = mn - mb;
	if (se2 > 0) {
		/* Welch-Satterthwaite */
		out->df = se2 * se2 /
			  (sb * sb / (double)(nb - 1) +
			   sn * sn / (double)(nn - 1));
		out->t = out->diff / sqrt(se2);
		out->p = t_two_sided(out->t, out->df);
		half = ls_t_ppf(1 - LS_STATS_ALPHA / 2, out->df) * sqrt(se2);
	} else { /* both sides constant: certain either way */
		out->df = (double)(nb + nn - 2);
		out->t = out->diff == 0 ? 0 : copysign(INFINITY, out->diff);
		out->p = out->diff == 0 ? 1 : 0;
		half = 0;
	}
	out->lo = out->diff - half;
	out->hi = out->diff + half;
	if (logs) {
		out->effect_pct = 100 * expm1(out->diff);
		out->lo_pct = 100 * expm1(out->lo);
		out->hi_pct = 100 * expm1(out->hi);
		return 0;
	}
	ref = fabs(mb);
	out->effect_pct = ref > 0 ? 100 * out->diff / ref : NAN;
	out->lo_pct = ref > 0 ? 100 * out->lo / ref : NAN;
	out->hi_pct = ref > 0 ? 100 * out->hi / ref : NAN;
	return 0;
}

struct ranked {
	double p;
	size_t i;
};

static int cmp_ranked(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;

	if (x->p != y->p)
		return x->p < y->p ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

int ls_bh_adjust(const double *p, size_t n, double *adj)
{
	struct ranked *r = calloc(n ? n : 1, sizeof(*r));
	size_t m = 0;
	double run = 1;

	if (!r)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		if (!isnan(p[i]))
			r[m++] = (struct ranked){p[i], i};
	qsort(r, m, sizeof(*r), cmp_ranked);
	/* adj(k) = min over j >= k of p(j) m / j, capped at 1 */
	for (size_t k = m; k-- > 0;) {
		double v = r[k].p * (double)m / (double)(k + 1);

		run = v < run ? v : run;
		r[k].p = run;
	}
	/* entries that are not tests stay NAN (adj may alias p: write the
	 * adjusted values only after every p was read) */
	for (size_t i = 0; i < n; i++)
		if (isnan(p[i]))
			adj[i] = NAN;
	for (size_t k = 0; k < m; k++)
		adj[r[k].i] = r[k].p;
	free(r);
	return 0;
}
