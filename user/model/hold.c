// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* hold.c - hold times (--hold) in the model: joined to the lock rows of
 * their address (kept beside them, holdtab.c), interval deltas, class
 * sums, averages and percentiles. */
#include <string.h>
#include "model/hist.h"
#include "model/holdtab.h"
#include "model/model.h"

size_t ls_snap_add_hold(struct ls_snapshot *s, const struct ls_hold_key *k,
			const struct ls_hold_stats *st)
{
	static const struct ls_hold_stats none;
	size_t rows = 0;

	if (k->mode >= LS_HOLD_MODES)
		return 0;
	for (uint32_t kind = 0; kind < LS_KIND_MAX; kind++) {
		struct ls_holdrow add = {
			.key = {.addr = k->addr, .kind = kind}};
		struct ls_row *r = ls_snap_find(s, &add.key);
		struct ls_holdrow *h;

		if (!r)
			continue;
		rows++;
		h = ls_holdtab_find(&s->holds, &add.key);
		/* unchanged; or not saved, or no room for them: the new
		 * holds wait for a read with memory for them */
		if (!memcmp(h ? &h->hold[k->mode] : &none, st, sizeof(*st)) ||
		    ls_snap_save_row(s, r))
			continue;
		if (!h)
			h = ls_holdtab_add(&s->holds, &add);
		if (h) {
			h->hold[k->mode] = *st;
			r->changed = s->gen; /* new holds: in deltas */
		}
	}
	return rows;
}

static uint64_t sub(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

void ls_hold_delta(const struct ls_hold_stats *cur,
		   const struct ls_hold_stats *prev, struct ls_hold_stats *out)
{
	*out = *cur;
	if (!prev)
		return;
	out->count = sub(cur->count, prev->count);
	out->total_ns = sub(cur->total_ns, prev->total_ns);
	for (unsigned i = 0; i < LS_HIST_SLOTS; i++)
		out->hist[i] = sub(cur->hist[i], prev->hist[i]);
	if (!out->count)
		out->max_ns = 0;
}

void ls_hold_add(struct ls_hold_stats *d, const struct ls_hold_stats *s)
{
	d->count += s->count;
	d->total_ns += s->total_ns;
	if (s->max_ns > d->max_ns)
		d->max_ns = s->max_ns;
	for (unsigned i = 0; i < LS_HIST_SLOTS; i++)
		d->hist[i] += s->hist[i];
}

uint64_t ls_hold_avg_ns(const struct ls_hold_stats *st)
{
	return st->count ? st->total_ns / st->count : 0;
}

uint64_t ls_hold_pct_ns(const struct ls_hold_stats *st, double pct)
{
	uint64_t n = ls_hist_count(st->hist), need, hi;

	if (!n || pct <= 0)
		return 0;
	if (pct > 100)
		pct = 100;
	need = (uint64_t)((double)n * pct / 100.0 + 0.999999);
	if (need < 1)
		need = 1;
	for (unsigned i = 0; i < LS_HIST_SLOTS; i++) {
		if (ls_hist_cum(st->hist, i) < need)
			continue;
		hi = i + 1 < LS_HIST_SLOTS ? ls_hist_lo(i + 1) : st->max_ns;
		return st->max_ns && st->max_ns < hi ? st->max_ns : hi;
	}
	return st->max_ns;
}

const char *ls_hold_mode_name(unsigned mode)
{
	return mode == LS_HOLD_EXCL	? "exclusive"
	       : mode == LS_HOLD_SHARED ? "shared"
					: "?";
}
