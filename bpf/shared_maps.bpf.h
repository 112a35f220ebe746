/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * shared_maps.bpf.h - the maps lockscope.bpf.c and hold.bpf.c share: one
 * definition, so that the hold object's copies match the main object's,
 * whose fds user space reuses before the hold object loads.
 */
#ifndef LS_SHARED_MAPS_BPF_H
#define LS_SHARED_MAPS_BPF_H

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, LS_CTR_MAX);
	__type(key, __u32);
	__type(value, __u64);
} counters SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, LS_LOSS_MAX);
	__type(key, __u32);
	__type(value, __u64);
} losses SEC(".maps");

/* --hold: locks seen contended, whose holds hold.bpf.c measures (key: lock
 * address; value: enum ls_kind of the first entry).  Sized 1 without --hold.
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, LS_DEF_MAX_LOCKS);
	__type(key, __u64);
	__type(value, __u32);
} hold_watch SEC(".maps");

#endif
