/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * cgroup.bpf.h - the waiter's cgroup: --cgroup filters tasks outside a
 * cgroup subtree out, --by cgroup adds each wait to lock_cgroups under the
 * waiter's cgroup v2 id (bpf/lockscope.h explains the map).  Included by
 * lockscope.bpf.c after common.bpf.h; hooks: cgroup_skip() at begin and
 * end, cgroup_begin() when a wait opens, cgroup_holder() when holders.bpf.h
 * reads the holder task, cgroup_end() when the wait is recorded.
 */
#ifndef LS_CGROUP_BPF_H
#define LS_CGROUP_BPF_H

const volatile __u32 cgroup_on = 0;	/* --by cgroup: fill lock_cgroups */
const volatile __u32 cgroup_filter = 0; /* --cgroup: slot 0 of cgroup_sel */

struct {
	__uint(type, BPF_MAP_TYPE_CGROUP_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} cgroup_sel SEC(".maps");

/* Sized 1 without --by cgroup. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, LS_DEF_MAX_LOCK_CGROUPS);
	__type(key, struct ls_cg_key);
	__type(value, struct ls_cg_val);
} lock_cgroups SEC(".maps");

/* The current task is outside the --cgroup subtree: ignore the event. */
static __always_inline int cgroup_skip(void)
{
	return cgroup_filter &&
	       bpf_current_task_under_cgroup(&cgroup_sel, 0) != 1;
}

/* A wait of @k opens: count it begun under the waiter's cgroup. */
static __always_inline void cgroup_begin(const struct ls_lock_key *k)
{
	struct ls_cg_key ck = {.addr = k->addr, .kind = k->kind};
	struct ls_cg_val one = {.begins = 1}, *v;

	if (!cgroup_on)
		return;
	ck.cgid = bpf_get_current_cgroup_id();
	v = bpf_map_lookup_elem(&lock_cgroups, &ck);
	if (v)
		__sync_fetch_and_add(&v->begins, 1);
	else /* full: its end counts the loss */
		bpf_map_update_elem(&lock_cgroups, &ck, &one, BPF_NOEXIST);
}

/* The wait @w begins while task @t holds its lock: count it under @t's
 * cgroup (kn->id of its default-hierarchy cgroup, fault-safe reads: the
 * holder may exit meanwhile, then nothing is counted). */
static __always_inline void cgroup_holder(const struct ls_wait *w,
					  struct task_struct *t)
{
	struct ls_cg_key ck = {
		.addr = w->addr, .kind = w->kind, .role = LS_CG_HOLDER};
	struct ls_cg_val one = {.begins = 1}, *v;

	if (!cgroup_on)
		return;
	ck.cgid = BPF_CORE_READ(t, cgroups, dfl_cgrp, kn, id);
	if (!ck.cgid)
		return;
	v = bpf_map_lookup_elem(&lock_cgroups, &ck);
	if (v)
		__sync_fetch_and_add(&v->begins, 1);
	else if (bpf_map_update_elem(&lock_cgroups, &ck, &one, BPF_NOEXIST))
		bump(&losses, LS_LOSS_CGROUP_MAP_FULL);
}

/* The wait @w of @dur ns is recorded: add it to its cgroup's entry (no
 * insert here, this may run inside a spinlock's critical section). */
static __always_inline void cgroup_end(const struct ls_wait *w, __u64 dur)
{
	struct ls_cg_key ck = {.addr = w->addr, .kind = w->kind};
	struct ls_cg_val *v;

	if (!cgroup_on)
		return;
	ck.cgid = bpf_get_current_cgroup_id();
	v = bpf_map_lookup_elem(&lock_cgroups, &ck);
	if (!v) {
		bump(&losses, LS_LOSS_CGROUP_MAP_FULL);
		return;
	}
	__sync_fetch_and_add(&v->waits, 1);
	__sync_fetch_and_add(&v->wait_ns, dur);
	atomic_max(&v->max_ns, dur);
}

#endif
