// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* delta.c - what changed between two snapshots: counter and histogram
 * increases, and the interval's own maximum wait and peak waiters. */
#include <errno.h>
#include <string.h>
#include "model/holdtab.h"
#include "model/model.h"
#include "model/snapshot_int.h"
#include "model/estimate.h"

static uint64_t sub(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

static void stats_delta(const struct ls_lock_stats *cur,
			const struct ls_lock_stats *prev,
			struct ls_lock_stats *out)
{
	*out = *cur;
	if (!prev)
		return;
	out->contentions = sub(cur->contentions, prev->contentions);
	out->total_ns = sub(cur->total_ns, prev->total_ns);
	out->spin_ns = sub(cur->spin_ns, prev->spin_ns);
	out->sleep_ns = sub(cur->sleep_ns, prev->sleep_ns);
	out->spin_won = sub(cur->spin_won, prev->spin_won);
	out->spin_failed = sub(cur->spin_failed, prev->spin_failed);
	out->gave_up = sub(cur->gave_up, prev->gave_up);
	out->begins = sub(cur->begins, prev->begins);
	out->osq_ns = sub(cur->osq_ns, prev->osq_ns);
	out->osq_calls = sub(cur->osq_calls, prev->osq_calls);
	out->osq_bailouts = sub(cur->osq_bailouts, prev->osq_bailouts);
	out->slow_ns = sub(cur->slow_ns, prev->slow_ns);
	out->slow_calls = sub(cur->slow_calls, prev->slow_calls);
	out->slow_untraced_ns =
		sub(cur->slow_untraced_ns, prev->slow_untraced_ns);
	for (unsigned i = 0; i < LS_HOLDER_MAX; i++) {
		out->holder_waits[i] =
			sub(cur->holder_waits[i], prev->holder_waits[i]);
		out->holder_ns[i] = sub(cur->holder_ns[i], prev->holder_ns[i]);
	}
	out->tenure_ns = sub(cur->tenure_ns, prev->tenure_ns);
	out->tenure_unsampled_ns =
		sub(cur->tenure_unsampled_ns, prev->tenure_unsampled_ns);
	out->tenure_unseen_ns =
		sub(cur->tenure_unseen_ns, prev->tenure_unseen_ns);
	/* sums over disjoint waits: the interval's variance is the
	 * difference */
	out->sampled = sub(cur->sampled, prev->sampled);
	out->est_weight = sub(cur->est_weight, prev->est_weight);
	out->var_count = sub(cur->var_count, prev->var_count);
	out->var_total = sub(cur->var_total, prev->var_total);
	out->var_spin = sub(cur->var_spin, prev->var_spin);
	out->var_sleep = sub(cur->var_sleep, prev->var_sleep);
	/* min and max since start are all the kernel keeps; an interval's
	 * max is bounded by its histogram's highest slot. */
	if (!out->contentions) {
		out->min_ns = ~0ULL;
		out->max_ns = 0;
	}
}

static void hists_delta(const struct ls_lock_hists *cur,
			const struct ls_lock_hists *prev,
			struct ls_lock_hists *out)
{
	*out = *cur;
	if (!prev)
		return;
	for (unsigned i = 0; i < LS_HIST_SLOTS; i++) {
		out->hist_tenure[i] =
			sub(cur->hist_tenure[i], prev->hist_tenure[i]);
		out->hist[i] = sub(cur->hist[i], prev->hist[i]);
		out->hist_spin[i] = sub(cur->hist_spin[i], prev->hist_spin[i]);
		out->hist_sleep[i] =
			sub(cur->hist_sleep[i], prev->hist_sleep[i]);
	}
}

/* Highest non-empty slot of @h, or -1. */
static int top_slot(const __u64 *h)
{
	for (int i = LS_HIST_SLOTS - 1; i >= 0; i--)
		if (h[i])
			return i;
	return -1;
}

/*
 * The kernel keeps the largest wait and the peak of the waiters gauge since
 * start (the peak also per epoch); turn them into the interval's figures.
 */
static void interval_extrema(struct ls_row *r, const struct ls_row *p,
			     uint64_t epoch, struct ls_lock_stats *d,
			     const struct ls_lock_hists *dh)
{
	int top = top_slot(dh->hist);

	r->max_bound = 0;
	if (d->contentions && p && r->st.max_ns <= p->st.max_ns && top >= 0) {
		/* No new maximum: the longest wait of the interval lies in the
		 * highest slot of its histogram and not above the old max. */
		uint64_t hi = top < LS_HIST_SLOTS - 1 ? 1ULL << (top + 1)
						      : p->st.max_ns;

		d->max_ns = hi < p->st.max_ns ? hi : p->st.max_ns;
		r->max_bound = 1;
	}
	if (r->st.peak_epoch != epoch) {
		/* No wait began in this interval: the gauge only fell, so its
		 * peak is where it stood at the start (or now). */
		int64_t a = p ? p->st.waiters : 0, b = r->st.waiters;
		int64_t m = a > b ? a : b;

		d->peak_waiters = m > 0 ? (uint64_t)m : 0;
	}
}

/* --hold: did a lock measure new holds (@c: its holds now, @p before; NULL:
 * none)? */
static int holds_changed(const struct ls_hold_stats *c,
			 const struct ls_hold_stats *p)
{
	for (unsigned m = 0; m < LS_HOLD_MODES; m++)
		if ((c ? c[m].count : 0) != (p ? p[m].count : 0))
			return 1;
	return 0;
}

/* --hold: the holds of lock @k now (@c) less before (@p, or NULL) into
 * @out, unless no mode has new holds; 0 or -ENOMEM. */
static int holds_delta(const struct ls_lock_key *k,
		       const struct ls_hold_stats *c,
		       const struct ls_hold_stats *p, struct ls_holdtab *out)
{
	struct ls_holdrow d = {.key = *k};

	if (!c || !holds_changed(c, p))
		return 0;
	for (unsigned m = 0; m < LS_HOLD_MODES; m++)
		if (c[m].count) /* else zero */
			ls_hold_delta(&c[m], p ? &p[m] : NULL, &d.hold[m]);
	return ls_holdtab_add(out, &d) ? 0 : -ENOMEM;
}

/* --by cgroup: each row of @out (a copy of the current rows, sorted by
 * ls_cgrow_cmp like @prev's) less the same lock and cgroup in @prev; the
 * longest wait stays the one since start. */
static void cgrows_delta(struct ls_snapshot *out,
			 const struct ls_snapshot *prev)
{
	size_t j = 0, keep = 0;

	for (size_t i = 0; i < out->ncgrows; i++) {
		struct ls_cgrow *c = &out->cgrows[i];

		while (j < prev->ncgrows &&
		       ls_cgrow_cmp(&prev->cgrows[j], c) < 0)
			j++;
		if (j < prev->ncgrows && !ls_cgrow_cmp(&prev->cgrows[j], c)) {
			const struct ls_cg_val *p = &prev->cgrows[j].v;

			c->v.begins = sub(c->v.begins, p->begins);
			c->v.waits = sub(c->v.waits, p->waits);
			c->v.wait_ns = sub(c->v.wait_ns, p->wait_ns);
		}
		if (c->v.begins || c->v.waits)
			out->cgrows[keep++] = *c;
	}
	out->ncgrows = keep;
}

/* @out's counters, samples and lists (a copy of @cur's) less @prev's. */
static void meta_delta(struct ls_snapshot *out, const struct ls_snapshot *cur,
		       const struct ls_snapshot *prev)
{
	for (unsigned i = 0; i < LS_CTR_MAX; i++)
		out->ctr[i] = sub(cur->ctr[i], prev->ctr[i]);
	for (unsigned i = 0; i < LS_LOSS_MAX; i++)
		out->loss[i] = sub(cur->loss[i], prev->loss[i]);
	ls_steal_sub(&out->steal, &cur->steal, &prev->steal);
	ls_budget_sub(&out->budget, &cur->budget, &prev->budget);
	for (unsigned i = 0; i < LS_SPIN_SLOTS; i++)
		out->func_samples[i] =
			sub(cur->func_samples[i], prev->func_samples[i]);
	for (unsigned c = 0; c < cur->ncpus && c < prev->ncpus; c++) {
		out->cpu_all[c] = sub(cur->cpu_all[c], prev->cpu_all[c]);
		out->cpu_spin[c] = sub(cur->cpu_spin[c], prev->cpu_spin[c]);
	}
	for (unsigned p = 0; p < cur->nprogs && p < prev->nprogs; p++) {
		out->prog[p].run_cnt =
			sub(cur->prog[p].run_cnt, prev->prog[p].run_cnt);
		out->prog[p].run_ns =
			sub(cur->prog[p].run_ns, prev->prog[p].run_ns);
		out->prog[p].misses =
			sub(cur->prog[p].misses, prev->prog[p].misses);
	}
	for (size_t i = 0; i < out->nspin_callers; i++) {
		struct ls_spin_caller *c = &out->spin_callers[i];

		for (size_t j = 0; j < prev->nspin_callers; j++) {
			const struct ls_spin_caller *p = &prev->spin_callers[j];

			if (p->func == c->func && !strcmp(p->fn, c->fn)) {
				c->samples = sub(c->samples, p->samples);
				break;
			}
		}
	}
	cgrows_delta(out, prev);
	ls_chains_delta(out, prev);
}

/* Row @c of @cs less @p of @ps (the same lock before, or NULL: new),
 * appended to @o with its holds' delta unless nothing changed; @o's next
 * row aliases neither (room is there).  0 or -ENOMEM. */
static int row_delta(const struct ls_snapshot *cs, const struct ls_row *c,
		     const struct ls_snapshot *ps, const struct ls_row *p,
		     struct ls_snapshot *o)
{
	const struct ls_hold_stats *hc = ls_snap_hold(cs, &c->key);
	const struct ls_hold_stats *hp = p ? ls_snap_hold(ps, &p->key) : NULL;
	struct ls_row *out = &o->rows[o->nrows];
	struct ls_lock_stats d;
	struct ls_lock_hists dh;

	if (p && c->st.begins == p->st.begins &&
	    c->st.contentions == p->st.contentions && c->st.waiters <= 0 &&
	    c->st.osq_calls == p->st.osq_calls &&
	    c->st.slow_calls == p->st.slow_calls && !holds_changed(hc, hp))
		return 0;
	stats_delta(&c->st, p ? &p->st : NULL, &d);
	if (!d.contentions && !d.begins && d.waiters <= 0 && !d.osq_calls &&
	    !d.slow_calls && !holds_changed(hc, hp))
		return 0;
	if (holds_delta(&c->key, hc, hp, &o->holds))
		return -ENOMEM;
	/* callers keep their cumulative shares: they are sampled; the wait
	 * time of the sampled waits is a counter */
	*out = *c;
	out->caller_wait_ns = sub(c->caller_wait_ns, p ? p->caller_wait_ns : 0);
	out->osq_prev_read = sub(c->osq_prev_read, p ? p->osq_prev_read : 0);
	out->osq_prev_preempted =
		sub(c->osq_prev_preempted, p ? p->osq_prev_preempted : 0);
	hists_delta(&c->hi, p ? &p->hi : NULL, &dh);
	interval_extrema(out, p, cs->epoch, &d, &dh);
	out->hi = dh;
	out->st = d;
	o->nrows++;
	return 0;
}

int ls_snap_delta(const struct ls_snapshot *cur, const struct ls_snapshot *prev,
		  struct ls_snapshot *out)
{
	int err;

	if (!prev) {
		err = ls_snap_copy(out, cur);
		out->live = NULL;
		return err;
	}
	/* rows are copied one by one below, only those that changed */
	err = ls_snap_copy_meta(out, cur);
	out->live = NULL; /* an interval's rows: nothing to refresh */
	if (!err)
		err = ls_snap_reserve((void **)&out->rows, &out->cap,
				      cur->nrows, sizeof(*out->rows));
	if (err) {
		ls_snap_free(out);
		return err;
	}
	meta_delta(out, cur, prev);
	for (size_t i = 0; i < cur->nrows && !err; i++) {
		const struct ls_row *c = &cur->rows[i];
		const struct ls_row *p;

		/* most rows of a big table did not change: skip them early.
		 * A refreshed row holds what the kernel held at every read of
		 * its collector since it changed (the counters only grow):
		 * a prev read since then has the same row. */
		if (cur->live && prev->live == cur->live &&
		    c->changed <= prev->gen && c->st.waiters <= 0)
			continue;
		/* snapshots of one collector keep its rows in the same order */
		p = i < prev->nrows && !ls_key_cmp(&prev->rows[i].key, &c->key)
			    ? &prev->rows[i]
			    : ls_snap_find(prev, &c->key);
		err = row_delta(cur, c, prev, p, out);
	}
	if (err) {
		ls_snap_free(out);
		return err;
	}
	ls_snap_index(out);
	ls_chains_rows(out);
	return 0;
}

int ls_snap_delta_start(struct ls_snapshot *d, struct ls_snapshot *s)
{
	int err;

	s->saving = NULL;
	if (!s->live) {
		/* read whole: every row is new to the read, so keep them all;
		 * d->live stays NULL, which finish reads as "a whole copy" */
		err = ls_snap_copy(d, s);
		d->live = NULL;
		return err;
	}
	err = ls_snap_copy_meta(d, s); /* d->live: s's collector */
	if (err) {
		ls_snap_free(d);
		return err;
	}
	s->saving = d;
	return 0;
}

/* Append the delta of @c of @s (less @p, or new) to @d; 0 or -ENOMEM. */
static int append_delta(struct ls_snapshot *d, const struct ls_snapshot *s,
			const struct ls_row *c, const struct ls_row *p)
{
	if (ls_snap_room_for_row(d))
		return -ENOMEM;
	return row_delta(s, c, s, p, d);
}

int ls_snap_delta_finish(struct ls_snapshot *d, struct ls_snapshot *s)
{
	struct ls_snapshot old = *d; /* s before the read: saved rows */
	int err;

	s->saving = NULL;
	ls_snap_init(d);
	if (!old.live) { /* a whole copy */
		err = ls_snap_delta(s, &old, d);
		ls_snap_free(&old);
		return err;
	}
	err = ls_snap_copy_meta(d, s);
	if (err)
		goto out;
	meta_delta(d, s, &old);
	d->live = NULL; /* an interval's rows: nothing to refresh */
	/* the saved rows become their deltas where they are */
	d->rows = old.rows;
	d->cap = old.cap;
	d->kidx = old.kidx;
	d->kidx_cap = old.kidx_cap;
	old.rows = NULL;
	old.kidx = NULL;
	for (size_t i = 0; i < old.nrows && !err; i++) {
		const struct ls_row p = d->rows[i];
		const struct ls_row *c = ls_snap_find(s, &p.key);

		if (c)
			err = row_delta(s, c, &old, &p, d);
	}
	/* rows not saved: new ones, and unchanged ones still waited on
	 * (their peak waiters count), which are their own past */
	for (size_t i = 0; i < s->nrows && !err; i++) {
		const struct ls_row *c = &s->rows[i];

		if (c->saved == s->gen)
			continue;
		if (c->changed == s->gen)
			err = append_delta(d, s, c, NULL);
		else if (c->st.waiters > 0)
			err = append_delta(d, s, c, c);
	}
	ls_snap_index(d);
	ls_chains_rows(d);
out:
	ls_snap_free(&old);
	if (err)
		ls_snap_free(d);
	return err;
}

int ls_snap_delta_abort(struct ls_snapshot *d, struct ls_snapshot *s)
{
	size_t keep = 0, nrows = s->nrows;
	struct ls_holdtab holds;
	int err, lost = 0;

	s->saving = NULL;
	if (!d->live) { /* a whole copy: it is s before the read */
		err = ls_snap_copy(s, d);
		ls_snap_clear(d);
		return err;
	}
	/* drop the rows the failed read added, put the saved ones back */
	for (size_t i = 0; i < nrows; i++) {
		const struct ls_row *r = &s->rows[i];

		if (r->changed == s->gen && r->saved != s->gen)
			continue;
		if (keep != i)
			s->rows[keep] = *r;
		keep++;
	}
	s->nrows = keep;
	ls_snap_index(s);
	for (size_t i = 0; i < d->nrows; i++) {
		struct ls_row *r = ls_snap_find(s, &d->rows[i].key);

		if (!r) { /* swept by the read: back at the end */
			s->nrows = keep;
			r = ls_snap_room_for_row(s) ? NULL : &s->rows[keep++];
			s->kidx_n = 0;
			lost |= !r;
		}
		if (r)
			*r = d->rows[i];
	}
	/* their holds: the saved ones back, the added ones gone */
	s->nrows = keep;
	if (!lost && ls_holdtab_undo(s, d))
		lost = 1;
	/* and the figures and lists of before the read (which empty the
	 * rows: keep says how many there are; the holds are kept aside) */
	holds = s->holds;
	s->holds = (struct ls_holdtab){0};
	err = lost ? -ENOMEM : ls_snap_copy_meta(s, d);
	s->holds = holds;
	if (err) {
		ls_snap_clear(s); /* not live: read whole next */
	} else {
		s->nrows = keep;
		ls_snap_index(s);
	}
	ls_snap_clear(d);
	return err;
}
