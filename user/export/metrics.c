// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* metrics.c - flat, robot-style metric names and values of a record. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "export/metrics.h"

void ls_lock_id(const char *name, unsigned kind, char *buf, size_t len)
{
	const char *k = ls_kind_name(kind);
	size_t kl = strlen(k);

	if (!strncmp(name, k, kl) && name[kl] == '@')
		snprintf(buf, len, "%s", name);
	else
		snprintf(buf, len, "%s(%s)", name, k);
	/* keys are one word: "key: value" lines split at the space */
	for (; *buf; buf++)
		if (*buf == ' ')
			*buf = '_';
}

static struct ls_stat *add(struct ls_stats *st, const char *lock, int kind,
			   const char *metric, double v, double events)
{
	struct ls_stat *s;
	char id[LS_NAME_MAX + 24], key[LS_KEY_MAX];

	if (st->n == st->cap) {
		size_t cap = st->cap ? st->cap * 2 : 64;

		s = realloc(st->v, cap * sizeof(*s));
		if (!s)
			return NULL;
		st->v = s;
		st->cap = cap;
	}
	s = &st->v[st->n];
	memset(s, 0, sizeof(*s));
	s->kind = kind;
	s->v = v;
	s->events = events;
	if (kind >= 0) {
		ls_lock_id(lock, (unsigned)kind, id, sizeof(id));
		snprintf(key, sizeof(key), LS_METRIC_PREFIX "%s.%s", id,
			 metric);
	} else {
		snprintf(key, sizeof(key), LS_METRIC_PREFIX "%s", metric);
	}
	/* a lock's metrics come one after another: one copy of its name */
	s->lock = st->n && !strcmp(st->v[st->n - 1].lock, lock)
			  ? st->v[st->n - 1].lock
			  : ls_pool_dup(&st->pool, lock);
	s->metric = ls_pool_dup(&st->pool, metric);
	s->key = ls_pool_dup(&st->pool, key);
	if (!s->lock || !s->metric || !s->key)
		return NULL;
	st->n++;
	return s;
}

static double ms(uint64_t ns)
{
	return (double)ns / 1e6;
}

/* indexes into the metric table of ls_snap_stats() */
enum { SPIN_TIME = 4, SLEEP_TIME = 5, SPIN_FAILED = 6, PEAK_WAITERS = 8 };

/* Shares of waits by holder state, for kinds with an owner word that
 * recorded them (files before the holder side have none); under a budget
 * shares of the timed waits (estimates), tenure not measured and chains
 * of the timed waits, unweighted: 0 or -ENOMEM. */
static int holder_metrics(struct ls_stats *out, const struct ls_rec_lock *l,
			  int estimated)
{
	static const struct {
		unsigned state;
		const char *name;
	} m[] = {
		{LS_HOLDER_PREEMPTED, "holder_preempted.pct"},
		{LS_HOLDER_SLEEPING, "holder_sleeping.pct"},
		{LS_HOLDER_RUNNING, "holder_running.pct"},
	};
	enum ls_metric_est share = estimated ? LS_MEST_ESTIMATE : LS_MEST_EXACT;
	enum ls_metric_est timed = estimated ? LS_MEST_TIMED : LS_MEST_EXACT;
	uint64_t all = 0;
	struct ls_stat *x;

	for (unsigned i = 0; i < LS_HOLDER_MAX; i++)
		all += l->holder_waits[i];
	if (!all || !ls_kind_has_owner(l->kind))
		return 0;
	for (size_t j = 0; j < sizeof(m) / sizeof(*m); j++) {
		x = add(out, l->name, (int)l->kind, m[j].name,
			100.0 * (double)l->holder_waits[m[j].state] /
				(double)all,
			(double)l->holder_waits[m[j].state]);
		if (!x)
			return -ENOMEM;
		x->est = share;
	}
	x = add(out, l->name, (int)l->kind, "tenure.total.ms", ms(l->tenure_ns),
		(double)all);
	if (!x)
		return -ENOMEM;
	x->est = timed;
	if (!l->has_chains)
		return 0;
	/* wait-for chains: waits whose holder waited on another lock */
	x = add(out, l->name, (int)l->kind, "holder_blocked.pct",
		l->contentions ? 100.0 * (double)l->chain_waits /
					 (double)l->contentions
			       : 0.0,
		(double)l->chain_waits);
	if (!x)
		return -ENOMEM;
	x->est = timed;
	x = add(out, l->name, (int)l->kind, "holder_blocked_time.pct",
		l->total_ns ? 100.0 * (double)l->chain_ns / (double)l->total_ns
			    : 0.0,
		(double)l->chain_waits);
	if (!x)
		return -ENOMEM;
	x->est = timed;
	return 0;
}

/* compare --by cgroup: each lock's waits and wait time by the waiter's
 * cgroup, metrics of the lock (its minor status is the lock's): 0 or
 * -ENOMEM. */
static int cgroup_metrics(const struct ls_rec_snap *s, struct ls_stats *out)
{
	char name[LS_CG_PATH_MAX + 48];

	for (size_t i = 0; s->by_cgroup && i < s->ncgs; i++) {
		const struct ls_rec_cg *c = &s->cgs[i];
		double w = (double)c->waits;

		snprintf(name, sizeof(name), "cgroup[%s].waits", c->path);
		if (!add(out, c->lock, (int)c->kind, name, w, w))
			return -ENOMEM;
		snprintf(name, sizeof(name), "cgroup[%s].wait_time.total.ms",
			 c->path);
		if (!add(out, c->lock, (int)c->kind, name, ms(c->wait_ns), w))
			return -ENOMEM;
	}
	return 0;
}

int ls_snap_stats(const struct ls_rec_snap *s, struct ls_stats *out)
{
	uint64_t cont = 0, total = 0, spin = 0, timed = 0;
	double var = 0; /* of the estimated total wait, ns^2 */
	int est = 0;
	struct ls_stat *x;

	for (size_t i = 0; i < s->nlocks; i++) {
		const struct ls_rec_lock *l = &s->locks[i];
		double c = (double)l->contentions;
		/* a mutex sleeps after a failed spin; other sleeping kinds
		 * (rwsem, rt_mutex) sleep on every contention */
		double sleeps =
			l->kind == LS_KIND_MUTEX ? (double)l->spin_failed : c;
		/* under a budget (even a lock none of whose waits was
		 * timed) times rest on the timed waits */
		int lest = l->estimated || s->budget_pct > 0;
		double tc = lest ? (double)l->timed_waits : c;
		enum ls_metric_est e = lest ? LS_MEST_ESTIMATE : LS_MEST_EXACT;
		enum ls_metric_est et = lest ? LS_MEST_TIMED : LS_MEST_EXACT;
		const struct {
			const char *name;
			double v, events;
			enum ls_metric_est est;
			double se;
		} m[] = {
			{"contentions", c, c, LS_MEST_EXACT, 0},
			{"wait_time.total.ms", ms(l->total_ns), tc, e,
			 l->total_se_ns / 1e6},
			{"wait_time.avg.ms", c ? ms(l->total_ns) / c : 0.0, tc,
			 e, c ? l->total_se_ns / 1e6 / c : 0.0},
			{"wait_time.max.ms", ms(l->max_ns), tc, et, 0},
			{"spin_time.total.ms", ms(l->spin_ns), tc, e,
			 l->spin_se_ns / 1e6},
			{"sleep_time.total.ms", ms(l->sleep_ns),
			 fmin(sleeps, tc), e, l->sleep_se_ns / 1e6},
			{"spin_failed", (double)l->spin_failed,
			 (double)l->spin_failed, LS_MEST_EXACT, 0},
			{"gave_up", (double)l->gave_up, (double)l->gave_up,
			 LS_MEST_EXACT, 0},
			{"peak_waiters", (double)l->peak_waiters, c,
			 LS_MEST_EXACT, 0},
		};

		for (size_t j = 0; j < sizeof(m) / sizeof(*m); j++) {
			/* spinning kinds: spin time is the wait, never sleep */
			if (LS_KIND_IS_SPINNING(l->kind) &&
			    (j == SPIN_TIME || j == SLEEP_TIME ||
			     j == SPIN_FAILED))
				continue;
			x = add(out, l->name, (int)l->kind, m[j].name, m[j].v,
				m[j].events);
			if (!x)
				return -ENOMEM;
			x->est = m[j].est;
			x->se = m[j].se;
			if (j == PEAK_WAITERS)
				x->type = LS_METRIC_GAUGE;
		}
		/* function probes: only where they ran */
		if ((l->slow_ns || l->osq_ns) &&
		    (!add(out, l->name, (int)l->kind, "slow_path.total.ms",
			  ms(l->slow_ns), c) ||
		     !add(out, l->name, (int)l->kind, "untraced_spin.total.ms",
			  ms(l->slow_untraced_ns), c) ||
		     !add(out, l->name, (int)l->kind, "osq_time.total.ms",
			  ms(l->osq_ns), c) ||
		     !add(out, l->name, (int)l->kind, "osq_bailouts",
			  (double)l->osq_bailouts, (double)l->osq_bailouts)))
			return -ENOMEM;
		if (holder_metrics(out, l, lest))
			return -ENOMEM;
		cont += l->contentions;
		total += l->total_ns;
		timed += lest ? l->timed_waits : l->contentions;
		var += l->total_se_ns * l->total_se_ns;
		est |= lest;
	}
	if (cgroup_metrics(s, out))
		return -ENOMEM;
	if (!add(out, "", -1, "contentions", (double)cont, (double)cont))
		return -ENOMEM;
	x = add(out, "", -1, "wait_time.total.ms", ms(total),
		(double)(est ? timed : cont));
	if (!x)
		return -ENOMEM;
	x->est = est ? LS_MEST_ESTIMATE : LS_MEST_EXACT;
	x->se = sqrt(var) / 1e6;
	if (!s->samples)
		return 0; /* sampler off: no shares */
	for (unsigned i = 0; i < s->nspin; i++) {
		char name[96];

		spin += s->spin[i].samples;
		snprintf(name, sizeof(name), "spin_share.%s", s->spin[i].fn);
		if (!add(out, "", -1, name,
			 100.0 * (double)s->spin[i].samples /
				 (double)s->samples,
			 (double)s->spin[i].samples))
			return -ENOMEM;
	}
	if (!add(out, "", -1, "spin_share.total",
		 100.0 * (double)spin / (double)s->samples, (double)spin))
		return -ENOMEM;
	return 0;
}

void ls_stats_free(struct ls_stats *st)
{
	free(st->v);
	ls_pool_free(&st->pool);
	memset(st, 0, sizeof(*st));
}

const char *ls_fmt_num(char *buf, size_t len, double v)
{
	double a = fabs(v);
	char *p;

	if (!isfinite(v)) {
		snprintf(buf, len, "%s",
			 isnan(v) ? "nan"
			 : v > 0  ? "inf"
				  : "-inf");
		return buf;
	}
	if (v == floor(v) && a < 1e15) {
		snprintf(buf, len, "%.0f", v);
		return buf;
	}
	/* four significant digits below 1, two decimals above */
	if (a < 1)
		snprintf(buf, len, "%.4g", v);
	else if (a < 1e6)
		snprintf(buf, len, "%.2f", v);
	else
		snprintf(buf, len, "%.0f", v);
	if (strchr(buf, 'e')) /* tiny: plain decimals, never exponents */
		snprintf(buf, len, "%.9f", v);
	if (strchr(buf, '.')) {
		p = buf + strlen(buf) - 1;
		while (*p == '0')
			*p-- = '\0';
		if (*p == '.')
			*p = '\0';
	}
	return buf;
}
