// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * osq.c - whether an osq_lock() bail-out's previous vCPU can be read here
 * (bpf/osq.bpf.h): the per-CPU `osq_node` in the kernel's BTF, per-CPU
 * bases that BPF can learn (runqueues' offset), and the preempted flag of
 * steal time (vcpu.c).  Gives osq_node's offset for the BPF rodata and
 * doctor's one line.
 */
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "collect/btf_names.h"
#include "collect/collector.h"
#include "collect/features.h"

enum ls_osq_flag ls_osq_probe(const struct btf *btf, uint64_t rq_off,
			      uint64_t steal_off, uint64_t *node_off)
{
	uint64_t size;

	*node_off = 0;
	if (!btf || ls_btf_percpu_var(btf, "osq_node", node_off, &size) ||
	    !*node_off) {
		*node_off = 0;
		return LS_OSQ_NO_BTF;
	}
	if (!rq_off) {
		*node_off = 0;
		return LS_OSQ_NO_BASES;
	}
	return steal_off ? LS_OSQ_READ : LS_OSQ_NODE_ONLY;
}

const char *ls_osq_reason(enum ls_osq_flag f)
{
	switch (f) {
	case LS_OSQ_READ:
		return "a bail-out's previous node (this CPU's osq_node->prev) "
		       "and that vCPU's steal_time.preempted, where osq_lock "
		       "is probed";
	case LS_OSQ_NODE_ONLY:
		return "a bail-out's previous node is read, but not whether "
		       "its vCPU was preempted (see vcpu-preempted holder)";
	case LS_OSQ_NO_BTF:
		return "no osq_node in the kernel's .data..percpu BTF: "
		       "bail-outs are counted, their previous vCPU is not "
		       "known";
	case LS_OSQ_NO_BASES:
		return "per-CPU bases unknown (no runqueues in .data..percpu): "
		       "the previous vCPU of a bail-out is not known";
	}
	return "?";
}

enum ls_osq_flag ls_osq_check(void)
{
	struct btf *btf = ls_kernel_btf();
	uint64_t rq_off = 0, size, steal = 0, node;

	if (btf && ls_btf_percpu_var(btf, "runqueues", &rq_off, &size))
		rq_off = 0;
	ls_vcpu_probe(btf, rq_off, &steal);
	return ls_osq_probe(btf, rq_off, steal, &node);
}
