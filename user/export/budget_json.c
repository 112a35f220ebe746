// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * budget_json.c - --budget in JSON (hist --json, record, serve's
 * /snapshot.json): each lock says whether its times are estimates and
 * carries their standard errors; the snapshot carries the sampler's state.
 * Additive: without a budget the fields are there, estimated false and
 * the errors 0.
 */
#include "export/budget_json.h"
#include "model/estimate.h"

static void add_u64(struct json_object *o, const char *k, uint64_t v)
{
	json_object_object_add(o, k, json_object_new_uint64(v));
}

static void add_f(struct json_object *o, const char *k, double v)
{
	json_object_object_add(o, k, json_object_new_double(v));
}

void ls_json_estimate(struct json_object *o, const struct ls_lock_stats *st)
{
	json_object_object_add(o, "estimated",
			       json_object_new_boolean(ls_est_is(st)));
	add_u64(o, "timed_waits", st->sampled);
	add_f(o, "total_se_ns", ls_est_se_ns(st, LS_EST_TOTAL));
	add_f(o, "spin_se_ns", ls_est_se_ns(st, LS_EST_SPIN));
	add_f(o, "sleep_se_ns", ls_est_se_ns(st, LS_EST_SLEEP));
	add_f(o, "avg_se_ns", ls_est_se_avg_ns(st));
}

struct json_object *ls_json_budget(const struct ls_budget_snap *b)
{
	struct json_object *o = json_object_new_object();

	add_f(o, "budget_pct", b->ppm / 10000.0);
	add_u64(o, "sample_every_min", b->n_min);
	add_u64(o, "sample_every_max", b->n_max);
	add_u64(o, "runs", b->runs);
	add_u64(o, "timed_runs", b->sruns);
	add_u64(o, "cost_ns", b->cost_ns);
	add_u64(o, "windows", b->windows);
	add_u64(o, "over_budget_windows", b->over);
	return o;
}
