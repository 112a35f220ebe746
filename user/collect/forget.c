// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * forget.c - forgetting idle locks (long-running views: top, serve).
 *
 * A lock with no begin for o.forget epochs and nobody waiting leaves the
 * tables, with its callers, holder sites and identity, so that locks of
 * exited processes and closed files do not fill them up.  Its row is still
 * in the snapshot that found it idle.  A begin racing with the delete either
 * re-creates the entry or, if its end finds none, is counted as lost ("lock
 * map full"): nothing goes uncounted.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include "collect/collector_int.h"

static int grow(void **buf, size_t *cap, size_t n, size_t size)
{
	size_t ncap = *cap ? *cap * 2 : 256;
	void *p;

	if (n < *cap)
		return 0;
	p = realloc(*buf, ncap * size);
	if (!p)
		return -ENOMEM;
	*buf = p;
	*cap = ncap;
	return 0;
}

void ls_forget_mark(struct ls_collector *c, struct ls_snapshot *s)
{
	if (!c->o.forget || c->epoch < c->o.forget || !s->nrows)
		return;
	if (s->nrows > c->idle_cap) {
		uint8_t *p = realloc(c->idle, s->nrows);

		if (!p)
			return;
		c->idle = p;
		c->idle_cap = s->nrows;
	}
	for (size_t i = 0; i < s->nrows; i++) {
		const struct ls_lock_stats *st = &s->rows[i].st;

		c->idle[i] = c->epoch - st->peak_epoch >= c->o.forget &&
			     st->waiters <= 0 && !st->osq_calls &&
			     !st->slow_calls && /* probes do not mark epochs */
			     !grow((void **)&c->gone_locks, &c->gone_locks_cap,
				   c->ngone_locks, sizeof(*c->gone_locks));
		if (c->idle[i])
			c->gone_locks[c->ngone_locks++] = s->rows[i].key;
	}
}

void ls_forget_caller(struct ls_collector *c, const struct ls_caller_key *k)
{
	if (!grow((void **)&c->gone_callers, &c->gone_callers_cap,
		  c->ngone_callers, sizeof(*c->gone_callers)))
		c->gone_callers[c->ngone_callers++] = *k;
}

void ls_forget_holder(struct ls_collector *c, const struct ls_holder_key *k)
{
	if (!grow((void **)&c->gone_holders, &c->gone_holders_cap,
		  c->ngone_holders, sizeof(*c->gone_holders)))
		c->gone_holders[c->ngone_holders++] = *k;
}

/*
 * Delete what ls_forget_mark, ls_forget_caller and ls_forget_holder
 * collected, one batch per map.  A lock's callers, holder sites and
 * identity go before its lock_stats entry: a begin that re-creates the lock
 * after that delete makes them again (its identity only then), and they
 * stay.  Deleted the other way round, a lock re-created in between lost
 * its name and callers for good.
 */
void ls_forget_idle(struct ls_collector *c)
{
	int fd_l = bpf_map__fd(c->skel->maps.lock_stats);
	int fd_c = bpf_map__fd(c->skel->maps.lock_callers);
	int fd_h = bpf_map__fd(c->skel->maps.holder_sites);
	int fd_i = bpf_map__fd(c->skel->maps.lock_ident);
	__u32 slot;
	int fd_o = bpf_map__fd(c->skel->maps.osq_vcpu);
	LIBBPF_OPTS(bpf_map_batch_opts, opts);
	__u32 n;

	n = (__u32)c->ngone_callers;
	if (n && bpf_map_delete_batch(fd_c, c->gone_callers, &n, &opts))
		for (size_t i = n; i < c->ngone_callers; i++)
			bpf_map_delete_elem(fd_c, &c->gone_callers[i]);
	n = (__u32)c->ngone_holders;
	if (n && bpf_map_delete_batch(fd_h, c->gone_holders, &n, &opts))
		for (size_t i = n; i < c->ngone_holders; i++)
			bpf_map_delete_elem(fd_h, &c->gone_holders[i]);
	/* the address may be reused by another object: its name goes too */
	for (size_t i = 0; i < c->ngone_locks; i++) {
		bpf_map_delete_elem(fd_i, &c->gone_locks[i]);
		bpf_map_delete_elem(fd_o, &c->gone_locks[i]);
		ls_names_forget(c, &c->gone_locks[i]);
	}
	/* One at a time, with its value: the row goes back with the entry
	 * deleted, even one a begin made since the read. */
	for (size_t i = 0; i < c->ngone_locks; i++) {
		const struct ls_lock_key *k = &c->gone_locks[i];
		int err = bpf_map_lookup_and_delete_elem(fd_l, k, &slot);

		if (err && errno != ENOENT) { /* hash maps before 5.14 */
			err = bpf_map_lookup_elem(fd_l, k, &slot);
			if (!err)
				err = bpf_map_delete_elem(fd_l, k);
		}
		if (!err)
			ls_rows_forget(c, slot);
	}
	c->forgotten += c->ngone_locks;
	ls_rows_recycle(c);
	c->ngone_locks = c->ngone_callers = c->ngone_holders = 0;
	if (c->idle)
		memset(c->idle, 0, c->idle_cap);
}

uint64_t ls_collector_forgotten(const struct ls_collector *c)
{
	return c->forgotten;
}
