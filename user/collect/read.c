// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * read.c - one snapshot from the BPF maps: counters and losses summed over
 * CPUs, lock_stats, callers and holder sites with batch lookups, sampler
 * totals, waiting tasks, the programs' run-time stats (the map walks and
 * stack resolution every reader shares are maps.c's).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "collect/collector_int.h"
#include "model/naming.h"

/* Sum each slot of a per-CPU u64 array map over the CPUs into @out. */
static int read_percpu(struct ls_collector *c, struct bpf_map *map,
		       uint64_t *out, unsigned n)
{
	int fd = bpf_map__fd(map);

	for (unsigned i = 0; i < n; i++) {
		__u32 key = i;

		if (bpf_map_lookup_elem(fd, &key, c->pcpu))
			return -errno;
		out[i] = 0;
		for (int cpu = 0; cpu < c->ncpus_possible; cpu++)
			out[i] += c->pcpu[cpu];
	}
	return 0;
}

static int add_lock(struct ls_collector *c, const void *k, const void *v,
		    void *arg)
{
	struct ls_snapshot *s = arg;
	struct ls_row *r = ls_snap_add_row(s, k);

	if (!r)
		return -ENOMEM;
	memcpy(&r->st, v, sizeof(r->st));
	ls_hists_copy(c, r->st.slot, &r->hi);
	r->vcpu_known = c->steal_off != 0;
	r->osq_vcpu_known = c->osq_node_off && c->steal_off;
	return 0;
}

/*
 * A refreshing read (the snapshot holds this collector's rows from an
 * earlier read): a lock whose entry is byte for byte what the row holds
 * keeps its row, name, callers and holders untouched; a changed one takes
 * the new entry and histograms, and its callers and holders are read again
 * (they change only with its waits).  Every read still walks the whole
 * map in the kernel, but user space works on the changed locks only.
 */
static int refresh_lock(struct ls_collector *c, const void *k, const void *v,
			void *arg)
{
	struct ls_snapshot *s = arg;
	const struct ls_lock_key *key = k;
	struct ls_row *r = NULL;
	int err;

	/* rows were added in the order of the lock rows, which this walk
	 * follows: the row after the last one found is most often the one */
	if (c->cursor < s->nrows && s->rows[c->cursor].key.addr == key->addr &&
	    s->rows[c->cursor].key.kind == key->kind)
		r = &s->rows[c->cursor];
	if (!r && s->kidx_n != s->nrows)
		ls_snap_index(s);
	if (!r)
		r = ls_snap_find(s, k);
	if (!r) {
		c->cursor = s->nrows + 1;
		return add_lock(c, k, v, arg);
	}
	c->cursor = (size_t)(r - s->rows) + 1;
	r->seen = s->gen;
	if (!memcmp(&r->st, v, sizeof(r->st)))
		return 0;
	err = ls_snap_save_row(s, r); /* an interval's delta in place */
	if (err)
		return err;
	memcpy(&r->st, v, sizeof(r->st));
	ls_hists_copy(c, r->st.slot, &r->hi);
	r->changed = s->gen;
	ls_row_clear_sites(r);
	return 0;
}

/* Drop the rows of locks the read did not find (forgotten): saved first
 * for an interval made in place, where they are what the lock counted
 * before it went.  0 or -ENOMEM. */
static int refresh_sweep(struct ls_snapshot *s)
{
	size_t keep = 0;
	int err = 0;

	for (size_t i = 0; i < s->nrows; i++) {
		if (s->rows[i].seen != s->gen) {
			if (!err)
				err = ls_snap_save_row(s, &s->rows[i]);
			if (!err)
				continue;
		}
		if (keep != i)
			s->rows[keep] = s->rows[i];
		keep++;
	}
	if (keep != s->nrows) {
		s->nrows = keep;
		s->kidx_n = 0;
	}
	return err;
}

static int add_osq(struct ls_collector *c, const void *k, const void *v,
		   void *arg)
{
	struct ls_snapshot *s = arg;
	struct ls_row *r = ls_snap_find(s, k);
	const struct ls_osq_vcpu *ov = v;

	(void)c;
	/* with the row's waits: a row the read left alone keeps the counts
	 * of its last change, so an interval's delta loses none of them */
	if (ls_read_changed(s, r)) {
		r->osq_prev_read = ov->prev_read;
		r->osq_prev_preempted = ov->prev_preempted;
	}
	return 0;
}

static int add_spin_caller(struct ls_collector *c, const void *k, const void *v,
			   void *arg)
{
	const struct ls_spin_key *sk = k;

	return ls_snap_add_spin_caller(arg, sk->func,
				       ls_resolve_stack(c, sk->stack_id),
				       *(const __u64 *)v);
}
static int add_waiting(struct ls_collector *c, const void *k, const void *v,
		       void *arg)
{
	const struct ls_waits *ws = v;
	struct ls_snapshot *s = arg;
	struct ls_waiter w = {.tid = *(const __u32 *)k, .tgid = ws->tgid};
	__u32 depth = ws->depth < LS_DEPTH ? ws->depth : LS_DEPTH;

	(void)c;
	if (!depth)
		return 0;
	if (ls_read_comm(w.tgid, w.tid, w.comm, sizeof(w.comm)))
		snprintf(w.comm, sizeof(w.comm), "?");
	for (__u32 i = 0; i < depth; i++) {
		w.key.addr = ws->w[i].addr;
		w.key.kind = ws->w[i].kind;
		w.since_ns = ws->w[i].start_ns;
		w.phase = ws->w[i].phase;
		if (ls_snap_add_waiter(s, &w))
			return -ENOMEM;
	}
	return 0;
}

/*
 * spin_callers changes only with a spin sample: while the sampler's spin
 * count stands still, the last read stands (a full walk of the map's
 * buckets is a third of a read).  A sample counts before it lands in the
 * map, so a change is read twice before the copy is trusted again.
 */
static int read_spin_callers(struct ls_collector *c, struct ls_snapshot *s)
{
	uint64_t n = s->ctr[LS_CTR_SAMPLES_SPIN];
	int err;

	if (!c->src[LS_SRC_SAMPLER].active)
		return 0;
	if (c->spin_cache_ok && n == c->spin_seen && !c->spin_dirty) {
		for (size_t i = 0; i < c->nspin_cache; i++) {
			const struct ls_spin_caller *sc = &c->spin_cache[i];

			err = ls_snap_add_spin_caller(s, sc->func, sc->fn,
						      sc->samples);
			if (err)
				return err;
		}
		return 0;
	}
	err = ls_read_hash(c, c->skel->maps.spin_callers,
			   sizeof(struct ls_spin_key), sizeof(__u64),
			   add_spin_caller, s);
	if (err)
		return err;
	c->spin_cache_ok = 0;
	if (s->nspin_callers > c->spin_cache_cap) {
		struct ls_spin_caller *p =
			realloc(c->spin_cache, s->nspin_callers * sizeof(*p));

		if (!p)
			return 0; /* no copy: read again next time */
		c->spin_cache = p;
		c->spin_cache_cap = s->nspin_callers;
	}
	if (s->nspin_callers)
		memcpy(c->spin_cache, s->spin_callers,
		       s->nspin_callers * sizeof(*c->spin_cache));
	c->nspin_cache = s->nspin_callers;
	c->spin_dirty = n != c->spin_seen;
	c->spin_seen = n;
	c->spin_cache_ok = 1;
	return 0;
}

/* Run-time stats (when enabled) and the kernel's recursion misses, which
 * are losses whether or not stats are on. */
static void read_prog_stats(struct ls_collector *c, struct ls_snapshot *s)
{
	struct bpf_program *p;
	uint64_t misses = 0;

	s->nprogs = 0;
	bpf_object__for_each_program(p, c->skel->obj)
	{
		struct bpf_prog_info info = {};
		__u32 len = sizeof(info);
		struct ls_prog_stat *ps;
		int fd = bpf_program__fd(p);

		if (fd < 0 || bpf_obj_get_info_by_fd(fd, &info, &len))
			continue;
		misses += info.recursion_misses;
		if (c->stats_fd < 0 || s->nprogs >= LS_PROG_MAX)
			continue;
		ps = &s->prog[s->nprogs++];
		snprintf(ps->name, sizeof(ps->name), "%s",
			 bpf_program__name(p));
		ps->run_cnt = info.run_cnt;
		ps->run_ns = info.run_time_ns;
		ps->misses = info.recursion_misses;
	}
	s->loss[LS_LOSS_RECURSION] = misses;
}

static int read_maps(struct ls_collector *c, struct ls_snapshot *s)
{
	int refresh = s->live == c && !c->o.by_class;
	struct timespec ts;
	int err;

	if (refresh) {
		ls_snap_clear_lists(s);
		ls_snap_index(s); /* its rows may have been sorted since */
	} else {
		ls_snap_clear(s);
	}
	s->gen = ++c->reads; /* rows changed by this read are marked so */
	clock_gettime(CLOCK_MONOTONIC, &ts);
	s->mono_ns = (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
	s->epoch = c->epoch;
	ls_steal_since(c, &s->steal);
	if (!s->cpu_all && ls_snap_set_ncpus(s, (unsigned)c->ncpus_possible))
		return -ENOMEM;
	err = read_percpu(c, c->skel->maps.counters, s->ctr, LS_CTR_MAX);
	if (!err)
		err = read_percpu(c, c->skel->maps.losses, s->loss,
				  LS_LOSS_MAX);
	if (!err)
		err = ls_budget_read(c, s);
	if (err)
		return err;
	/* Sampler: per-slot totals and per-CPU all/spin counts. */
	memset(s->cpu_all, 0, s->ncpus * sizeof(uint64_t));
	memset(s->cpu_spin, 0, s->ncpus * sizeof(uint64_t));
	s->nfuncs = c->nfuncs;
	memcpy(s->func_name, c->func_name, sizeof(s->func_name));
	for (__u32 i = 0; i < LS_SPIN_SLOTS; i++) {
		if (bpf_map_lookup_elem(bpf_map__fd(c->skel->maps.spin_samples),
					&i, c->pcpu))
			return -errno;
		s->func_samples[i] = 0;
		for (int cpu = 0; cpu < c->ncpus_possible; cpu++) {
			s->func_samples[i] += c->pcpu[cpu];
			s->cpu_all[cpu] += c->pcpu[cpu];
			if (i < LS_MAX_SPIN_RANGES)
				s->cpu_spin[cpu] += c->pcpu[cpu];
		}
	}
	c->cursor = 0;
	err = ls_rows_read(c, refresh ? refresh_lock : add_lock, s);
	if (err)
		return err;
	if (refresh)
		err = refresh_sweep(s);
	if (err)
		return err;
	if (s->kidx_n != s->nrows)
		ls_snap_index(s);
	ls_snap_holds_prune(s); /* of the rows swept (saved with them) */
	ls_forget_mark(c, s);
	err = ls_sites_read(c, s);
	if (!err && c->osq_node_off)
		err = ls_read_hash(c, c->skel->maps.osq_vcpu,
				   sizeof(struct ls_lock_key),
				   sizeof(struct ls_osq_vcpu), add_osq, s);
	ls_forget_idle(c);
	if (!err)
		err = read_spin_callers(c, s);
	if (err)
		return err;
	for (size_t i = 0; i < s->nrows; i++) {
		if (!ls_read_changed(s, &s->rows[i]))
			continue; /* named when it last changed */
		ls_names_row(c, &s->rows[i]);
		ls_name_row(c->have_ks ? &c->ks : NULL, &s->rows[i], &c->inst,
			    c->o.with_addr);
	}
	if (c->o.read_waiting) {
		err = ls_read_hash(c, c->skel->maps.task_state, sizeof(__u32),
				   sizeof(struct ls_waits), add_waiting, s);
		if (err)
			return err;
		/* every wait listed began before this: ages are not negative */
		clock_gettime(CLOCK_MONOTONIC, &ts);
		s->waiting_ns = (uint64_t)ts.tv_sec * 1000000000ULL +
				(uint64_t)ts.tv_nsec;
	}
	read_prog_stats(c, s);
	err = ls_hold_read(c, s);
	if (!err)
		err = ls_cgroup_read(c, s);
	if (!err)
		err = ls_chains_read(c, s);
	if (err)
		return err;
	if (c->o.by_class) {
		if (c->o.fold_filter)
			ls_snap_filter(s, c->o.fold_filter);
		err = c->o.stacks ? ls_stacks_classes(c, s) : 0;
		return err ? err : ls_snap_fold_class(s);
	}
	return 0;
}

int ls_collector_read(struct ls_collector *c, struct ls_snapshot *s)
{
	int err = read_maps(c, s);

	/* rows of locks (not of classes) read whole: the next read may
	 * refresh them in place; a failed read leaves them half done */
	s->live = !err && !c->o.by_class ? c : NULL;
	return err;
}
