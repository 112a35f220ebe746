// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* json.c - snapshots as JSON (json-c): hist --json and the lock rows of
 * record files. */
#include <stdlib.h>
#include <unistd.h>
#include <stdio.h>
#include <string.h>
#include "export/holders_json.h"
#include "export/budget_json.h"
#include "export/json.h"
#include "export/chains_json.h"
#include "model/stacks.h"
#include "model/ident.h"
#include "util/untrusted_text.h"

static void add_u64(struct json_object *o, const char *k, uint64_t v)
{
	json_object_object_add(o, k, json_object_new_uint64(v));
}

static struct json_object *hist_json(const __u64 *h)
{
	struct json_object *a = json_object_new_array();
	int last = -1;

	for (int i = 0; i < LS_HIST_SLOTS; i++)
		if (h[i])
			last = i;
	for (int i = 0; i <= last; i++)
		json_object_array_add(a, json_object_new_uint64(h[i]));
	return a;
}

void ls_json_identity(struct json_object *o, const struct ls_row *r)
{
	const char *known = ls_known_name(r->st.known);

	json_object_object_add(
		o, "class",
		json_object_new_string_len(r->name, (int)r->cls_len));
	json_object_object_add(
		o, "origin", json_object_new_string(ls_origin_name(r->origin)));
	if (r->pcpu)
		json_object_object_add(o, "cpu",
				       json_object_new_int((int)r->pcpu - 1));
	if (r->instances > 1)
		json_object_object_add(o, "instances",
				       json_object_new_int64(r->instances));
	if (known) /* the CO-RE recogniser's view of the same address */
		json_object_object_add(o, "recognised",
				       json_object_new_string(known));
}

/* --hold: "hold": {"exclusive": {...}, "shared": {...}}, the modes held
 * (@hold, NULL: none); absent without holds (or without --hold). */
static void hold_json(struct json_object *o, const struct ls_hold_stats *hold)
{
	struct json_object *h = NULL;

	for (unsigned m = 0; hold && m < LS_HOLD_MODES; m++) {
		const struct ls_hold_stats *st = &hold[m];
		struct json_object *x;

		if (!st->count)
			continue;
		if (!h)
			h = json_object_new_object();
		x = json_object_new_object();
		add_u64(x, "count", st->count);
		add_u64(x, "total_ns", st->total_ns);
		add_u64(x, "avg_ns", ls_hold_avg_ns(st));
		add_u64(x, "max_ns", st->max_ns);
		add_u64(x, "p99_ns", ls_hold_pct_ns(st, 99));
		json_object_object_add(x, "hist_log2_ns", hist_json(st->hist));
		json_object_object_add(h, ls_hold_mode_name(m), x);
	}
	if (h)
		json_object_object_add(o, "hold", h);
}

/* One lock row as a JSON object (name, kind, stats, histograms, callers,
 * holds: @hold, NULL when it has none). */
static struct json_object *row_to_json(const struct ls_row *r,
				       const struct ls_hold_stats *hold,
				       int with_addr)
{
	struct json_object *o = json_object_new_object();
	struct json_object *callers = json_object_new_array();
	const struct ls_lock_stats *st = &r->st;

	json_object_object_add(o, "name", json_object_new_string(r->name));
	json_object_object_add(
		o, "kind", json_object_new_string(ls_kind_name(r->key.kind)));
	ls_json_identity(o, r);
	if (with_addr) {
		char a[24];

		snprintf(a, sizeof(a), "%llx", (unsigned long long)r->key.addr);
		json_object_object_add(o, "addr", json_object_new_string(a));
	}
	add_u64(o, "contentions", st->contentions);
	add_u64(o, "total_ns", st->total_ns);
	add_u64(o, "spin_ns", st->spin_ns);
	add_u64(o, "sleep_ns", st->sleep_ns);
	add_u64(o, "min_ns", ls_row_min_ns(r));
	add_u64(o, "max_ns", st->max_ns);
	add_u64(o, "avg_ns", ls_row_avg_ns(r));
	add_u64(o, "spin_won", st->spin_won);
	add_u64(o, "spin_failed", st->spin_failed);
	add_u64(o, "gave_up", st->gave_up);
	add_u64(o, "begins", st->begins);
	json_object_object_add(o, "waiters",
			       json_object_new_int64(st->waiters));
	add_u64(o, "peak_waiters", st->peak_waiters_all);
	add_u64(o, "peak_waiters_interval", st->peak_waiters);
	add_u64(o, "osq_ns", st->osq_ns);
	add_u64(o, "osq_calls", st->osq_calls);
	add_u64(o, "osq_bailouts", st->osq_bailouts);
	add_u64(o, "osq_bailouts_prev_read", r->osq_prev_read);
	/* null: the previous vCPU's preempted flag was not read */
	json_object_object_add(
		o, "osq_bailouts_prev_preempted",
		r->osq_vcpu_known
			? json_object_new_uint64(r->osq_prev_preempted)
			: NULL);
	add_u64(o, "osq_peak_spinners", st->osq_peak);
	add_u64(o, "slow_path_ns", st->slow_ns);
	add_u64(o, "slow_path_calls", st->slow_calls);
	add_u64(o, "slow_path_untraced_ns", st->slow_untraced_ns);
	ls_json_estimate(o, st);
	json_object_object_add(o, "hist_log2_ns", hist_json(r->hi.hist));
	json_object_object_add(o, "hist_spin_log2_ns",
			       hist_json(r->hi.hist_spin));
	json_object_object_add(o, "hist_sleep_log2_ns",
			       hist_json(r->hi.hist_sleep));
	add_u64(o, "caller_samples", r->caller_samples);
	add_u64(o, "caller_wait_ns", r->caller_wait_ns);
	for (unsigned i = 0; i < r->ncallers; i++) {
		struct json_object *c = json_object_new_object();

		json_object_object_add(
			c, "function",
			json_object_new_string(r->callers[i].fn));
		add_u64(c, "samples", r->callers[i].samples);
		json_object_array_add(callers, c);
	}
	json_object_object_add(o, "callers", callers);
	json_object_object_add(o, "holder", ls_holders_to_json(r));
	hold_json(o, hold);
	return o;
}

/* What making a cgroup path safe changed (enum ls_text_change bits), as
 * the record says it: "escaped" (unsafe bytes written as \xHH), "cut". */
static struct json_object *changed_json(unsigned bits)
{
	struct json_object *a = json_object_new_array();

	if (bits & LS_TEXT_ESCAPED)
		json_object_array_add(a, json_object_new_string("escaped"));
	if (bits & LS_TEXT_CUT)
		json_object_array_add(a, json_object_new_string("cut"));
	return a;
}

/* --by cgroup: the lock's waits by the waiter's cgroup (@role
 * LS_CG_WAITER) or waits begun by the holder's (LS_CG_HOLDER), every one,
 * most first (cgroup: the path below the v2 mount, or "(gone)"). */
static struct json_object *cgroups_json(const struct ls_snapshot *s,
					const struct ls_row *r, uint32_t role)
{
	struct json_object *a = json_object_new_array();
	size_t first, n = ls_snap_cgrows_of(s, &r->key, role, &first), total;
	size_t *idx = n ? calloc(n, sizeof(*idx)) : NULL;

	if (n && !idx)
		return a;
	n = ls_cgrows_ranked(s, &r->key, role, idx, n, &total);
	for (size_t i = 0; i < n; i++) {
		const struct ls_cgrow *c = &s->cgrows[idx[i]];
		struct json_object *o = json_object_new_object();

		json_object_object_add(o, "cgroup",
				       json_object_new_string(c->path));
		if (c->path_changed)
			json_object_object_add(o, "cgroup_changed",
					       changed_json(c->path_changed));
		add_u64(o, "cgroup_id", c->cgid);
		add_u64(o, "begins", c->v.begins);
		if (role == LS_CG_WAITER) {
			add_u64(o, "waits", c->v.waits);
			add_u64(o, "wait_ns", c->v.wait_ns);
			add_u64(o, "max_ns", c->v.max_ns);
		}
		json_object_array_add(a, o);
	}
	free(idx);
	return a;
}

/* Steal time in seconds, per CPU: null when /proc/stat had none. */
static struct json_object *steal_json(const struct ls_steal *st)
{
	struct json_object *o, *cpus;
	long hz = sysconf(_SC_CLK_TCK);

	if (!st->ncpus || hz <= 0)
		return NULL;
	o = json_object_new_object();
	cpus = json_object_new_array();
	json_object_object_add(o, "seconds",
			       json_object_new_double((double)st->total / hz));
	for (unsigned i = 0; i < st->ncpus; i++)
		json_object_array_add(
			cpus, json_object_new_double((double)st->cpu[i] / hz));
	json_object_object_add(o, "per_cpu_s", cpus);
	return o;
}

struct json_object *ls_snap_head_json(const struct ls_snapshot *s)
{
	struct json_object *o = json_object_new_object();
	struct json_object *ctr = json_object_new_object();
	struct json_object *loss = json_object_new_object();
	struct json_object *samp = json_object_new_object();
	struct json_object *funcs = json_object_new_array();
	struct json_object *locks = json_object_new_array();
	struct json_object *cost = json_object_new_array();
	uint64_t all = 0;

	for (unsigned i = 0; i < LS_CTR_MAX; i++)
		add_u64(ctr, ls_ctr_name(i), s->ctr[i]);
	for (unsigned i = 0; i < LS_LOSS_MAX; i++)
		add_u64(loss, ls_loss_name(i), s->loss[i]);
	for (unsigned i = 0; i < LS_SPIN_SLOTS; i++)
		all += s->func_samples[i];
	add_u64(samp, "samples", all);
	add_u64(samp, "user", s->func_samples[LS_SPIN_FUNC_USER]);
	add_u64(samp, "kernel_other", s->func_samples[LS_SPIN_FUNC_OTHER]);
	add_u64(samp, "cpus", s->ncpus);
	for (unsigned i = 0; i < s->nfuncs; i++) {
		struct json_object *f = json_object_new_object();
		struct json_object *callers = json_object_new_array();

		json_object_object_add(f, "function",
				       json_object_new_string(s->func_name[i]));
		add_u64(f, "samples", s->func_samples[i]);
		json_object_object_add(
			f, "share_pct",
			json_object_new_double(
				all ? 100.0 * (double)s->func_samples[i] /
						(double)all
				    : 0.0));
		for (size_t j = 0; j < s->nspin_callers; j++) {
			struct json_object *c;

			if (s->spin_callers[j].func != i)
				continue;
			c = json_object_new_object();
			json_object_object_add(
				c, "function",
				json_object_new_string(s->spin_callers[j].fn));
			add_u64(c, "samples", s->spin_callers[j].samples);
			json_object_array_add(callers, c);
		}
		json_object_object_add(f, "callers", callers);
		json_object_array_add(funcs, f);
	}
	json_object_object_add(samp, "spin_functions", funcs);
	for (unsigned i = 0; i < s->nprogs; i++) {
		struct json_object *p = json_object_new_object();

		json_object_object_add(p, "program",
				       json_object_new_string(s->prog[i].name));
		add_u64(p, "run_cnt", s->prog[i].run_cnt);
		add_u64(p, "run_time_ns", s->prog[i].run_ns);
		add_u64(p, "recursion_misses", s->prog[i].misses);
		json_object_array_add(cost, p);
	}
	json_object_object_add(o, "counters", ctr);
	json_object_object_add(o, "losses", loss);
	if (ls_loss_hint(s->loss))
		json_object_object_add(
			o, "loss_hint",
			json_object_new_string(ls_loss_hint(s->loss)));
	json_object_object_add(o, "sampler", samp);
	json_object_object_add(o, "steal", steal_json(&s->steal));
	json_object_object_add(o, "cost", cost);
	json_object_object_add(o, "budget", ls_json_budget(&s->budget));
	json_object_object_add(o, "locks", locks);
	return o;
}

struct json_object *ls_snap_lock_json(const struct ls_snapshot *s, size_t i,
				      int with_addr)
{
	struct json_object *r = row_to_json(
		&s->rows[i], ls_snap_hold(s, &s->rows[i].key), with_addr);

	json_object_object_add(r, "chains",
			       ls_chains_to_json(s, &s->rows[i], with_addr));
	if (s->by_cgroup) {
		json_object_object_add(
			r, "cgroups",
			cgroups_json(s, &s->rows[i], LS_CG_WAITER));
		json_object_object_add(
			r, "holder_cgroups",
			cgroups_json(s, &s->rows[i], LS_CG_HOLDER));
	}
	return r;
}

struct json_object *ls_snap_to_json(const struct ls_snapshot *s, int with_addr)
{
	struct json_object *o = ls_snap_head_json(s), *locks;

	json_object_object_get_ex(o, "locks", &locks);
	for (size_t i = 0; i < s->nrows; i++)
		json_object_array_add(locks,
				      ls_snap_lock_json(s, i, with_addr));
	return o;
}

struct json_object *ls_sources_to_json(const struct ls_source *src, unsigned n)
{
	struct json_object *a = json_object_new_array();

	for (unsigned i = 0; i < n; i++) {
		struct json_object *o = json_object_new_object();

		json_object_object_add(o, "source",
				       json_object_new_string(src[i].name));
		json_object_object_add(o, "mechanism",
				       json_object_new_string(src[i].mech));
		json_object_object_add(
			o, "available",
			json_object_new_boolean(src[i].available));
		json_object_object_add(o, "active",
				       json_object_new_boolean(src[i].active));
		json_object_object_add(o, "reason",
				       json_object_new_string(src[i].reason));
		json_object_array_add(a, o);
	}
	return a;
}

struct json_object *ls_stacks_to_json(const struct ls_stacks *st)
{
	struct json_object *a = json_object_new_array();

	for (size_t i = 0; i < st->n; i++) {
		const struct ls_stack *e = &st->v[i];
		struct json_object *o = json_object_new_object();
		struct json_object *fr = json_object_new_array();
		const char *p = e->frames;

		json_object_object_add(o, "lock",
				       json_object_new_string(e->lock));
		json_object_object_add(
			o, "kind",
			json_object_new_string(ls_kind_name(e->kind)));
		while (*p) {
			size_t n = strcspn(p, ";");

			json_object_array_add(fr,
					      json_object_new_string_len(p, n));
			p += n + (p[n] == ';');
		}
		json_object_object_add(o, "frames", fr);
		add_u64(o, "samples", e->samples);
		add_u64(o, "wait_ns", e->wait_ns);
		json_object_array_add(a, o);
	}
	return a;
}
