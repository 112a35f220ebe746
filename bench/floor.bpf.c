// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * floor.bpf.c - the cost floor make bench compares lockscope with: stripped
 * programs on lockscope's tracepoints (tp_btf, as lockscope attaches them).
 * empty_*: nothing but the dispatch and the run-time statistics' own clock
 * reads; clock_*: the same plus one bpf_ktime_get_ns(), the least a wait
 * timer reads.  bench/floor_load.c loads and attaches all four at once.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

char LICENSE[] SEC("license") = "Dual BSD/GPL";

SEC("tp_btf/contention_begin")
int BPF_PROG(empty_begin, void *lock, unsigned int flags)
{
	return 0;
}

SEC("tp_btf/contention_end")
int BPF_PROG(empty_end, void *lock, int ret)
{
	return 0;
}

SEC("tp_btf/contention_begin")
int BPF_PROG(clock_begin, void *lock, unsigned int flags)
{
	volatile __u64 t = bpf_ktime_get_ns();

	(void)t;
	return 0;
}

SEC("tp_btf/contention_end")
int BPF_PROG(clock_end, void *lock, int ret)
{
	volatile __u64 t = bpf_ktime_get_ns();

	(void)t;
	return 0;
}
