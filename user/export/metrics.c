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
 * recorded them (files before the holder side have none): 0 or -ENOMEM. */
static int holder_metrics(struct ls_stats *out, const struct ls_rec_lock *l)
{
	static const struct {
		unsigned state;
		const char *name;
	} m[] = {
		{LS_HOLDER_PREEMPTED, "holder_preempted.pct"},
		{LS_HOLDER_SLEEPING, "holder_sleeping.pct"},
		{LS_HOLDER_RUNNING, "holder_running.pct"},
	};
	uint64_t all = 0;

	for (unsigned i = 0; i < LS_HOLDER_MAX; i++)
		all += l->holder_waits[i];
	if (!all || !ls_kind_has_owner(l->kind))
		return 0;
	for (size_t j = 0; j < sizeof(m) / sizeof(*m); j++)
		if (!add(out, l->name, (int)l->kind, m[j].name,
			 100.0 * (double)l->holder_waits[m[j].state] /
				 (double)all,
			 (double)l->holder_waits[m[j].state]))
			return -ENOMEM;
	if (!add(out, l->name, (int)l->kind, "tenure.total.ms",
		 ms(l->tenure_ns), (double)all))
		return -ENOMEM;
	/* wait-for chains: waits whose holder waited on another lock */
	if (l->has_chains &&
	    (!add(out, l->name, (int)l->kind, "holder_blocked.pct",
		  l->contentions ? 100.0 * (double)l->chain_waits /
					   (double)l->contentions
				 : 0.0,
		  (double)l->chain_waits) ||
	     !add(out, l->name, (int)l->kind, "holder_blocked_time.pct",
		  l->total_ns
			  ? 100.0 * (double)l->chain_ns / (double)l->total_ns
			  : 0.0,
		  (double)l->chain_waits)))
		return -ENOMEM;
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
	uint64_t cont = 0, total = 0, spin = 0;

	for (size_t i = 0; i < s->nlocks; i++) {
		const struct ls_rec_lock *l = &s->locks[i];
		double c = (double)l->contentions;
		/* a mutex sleeps after a failed spin; other sleeping kinds
		 * (rwsem, rt_mutex) sleep on every contention */
		double sleeps =
			l->kind == LS_KIND_MUTEX ? (double)l->spin_failed : c;
		const struct {
			const char *name;
			double v, events;
		} m[] = {
			{"contentions", c, c},
			{"wait_time.total.ms", ms(l->total_ns), c},
			{"wait_time.avg.ms", c ? ms(l->total_ns) / c : 0.0, c},
			{"wait_time.max.ms", ms(l->max_ns), c},
			{"spin_time.total.ms", ms(l->spin_ns), c},
			{"sleep_time.total.ms", ms(l->sleep_ns), sleeps},
			{"spin_failed", (double)l->spin_failed,
			 (double)l->spin_failed},
			{"gave_up", (double)l->gave_up, (double)l->gave_up},
			{"peak_waiters", (double)l->peak_waiters, c},
		};
		struct ls_stat *x;

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
		if (holder_metrics(out, l))
			return -ENOMEM;
		cont += l->contentions;
		total += l->total_ns;
	}
	if (cgroup_metrics(s, out))
		return -ENOMEM;
	if (!add(out, "", -1, "contentions", (double)cont, (double)cont) ||
	    !add(out, "", -1, "wait_time.total.ms", ms(total), (double)cont))
		return -ENOMEM;
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
