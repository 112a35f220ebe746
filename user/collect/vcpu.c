// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * vcpu.c - whether a running holder's vCPU preemption can be read here
 * (bpf/vcpu.bpf.h): a KVM host that publishes steal time (CPUID), the
 * per-CPU `steal_time` (struct kvm_steal_time with `preempted`) in the
 * kernel's BTF, and per-CPU bases that BPF can learn (runqueues' offset).
 * Gives steal_time's offset for the BPF rodata and doctor's one line.
 */
#include <string.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif
#include "collect/btf_names.h"
#include "collect/features.h"
#include "collect/collector.h"

#define KVM_CPUID_SIGNATURE 0x40000000U
#define KVM_CPUID_FEATURES 0x40000001U
#define KVM_FEATURE_STEAL_TIME 5 /* arch/x86/include/uapi/asm/kvm_para.h */

/* 1 when CPUID says a KVM hypervisor publishes steal time to this guest. */
static int kvm_steal_time_feature(void)
{
#if defined(__x86_64__) || defined(__i386__)
	unsigned a, b, c, d;
	char sig[13];

	__cpuid(1, a, b, c, d);
	if (!(c & (1U << 31))) /* no hypervisor: bare metal */
		return 0;
	__cpuid(KVM_CPUID_SIGNATURE, a, b, c, d);
	memcpy(sig, &b, 4);
	memcpy(sig + 4, &c, 4);
	memcpy(sig + 8, &d, 4);
	sig[12] = 0;
	if (strcmp(sig, "KVMKVMKVM") || a < KVM_CPUID_FEATURES)
		return 0;
	__cpuid(KVM_CPUID_FEATURES, a, b, c, d);
	return !!(a & (1U << KVM_FEATURE_STEAL_TIME));
#else
	return 0;
#endif
}

static int has_preempted(const struct btf *btf)
{
	int id = btf__find_by_name_kind(btf, "kvm_steal_time", BTF_KIND_STRUCT);
	const struct btf_member *m;
	const struct btf_type *t;

	if (id <= 0)
		return 0;
	t = btf__type_by_id(btf, (uint32_t)id);
	m = btf_members(t);
	for (unsigned i = 0; i < btf_vlen(t); i++, m++)
		if (!strcmp(btf__name_by_offset(btf, m->name_off), "preempted"))
			return 1;
	return 0;
}

enum ls_vcpu_flag ls_vcpu_probe(const struct btf *btf, uint64_t rq_off,
				uint64_t *steal_off)
{
	uint64_t size;

	*steal_off = 0;
	if (!kvm_steal_time_feature())
		return LS_VCPU_NO_HOST;
	if (!btf || !has_preempted(btf) ||
	    ls_btf_percpu_var(btf, "steal_time", steal_off, &size)) {
		*steal_off = 0;
		return LS_VCPU_NO_BTF;
	}
	if (!rq_off) {
		*steal_off = 0;
		return LS_VCPU_NO_BASES;
	}
	return LS_VCPU_READ;
}

const char *ls_vcpu_reason(enum ls_vcpu_flag f)
{
	switch (f) {
	case LS_VCPU_READ:
		return "a running holder's CPU steal_time.preempted, through "
		       "its per-CPU base: running and vcpu-preempted apart";
	case LS_VCPU_NO_HOST:
		return "no KVM steal time in CPUID (bare metal or another "
		       "hypervisor): vcpu-preempted is not known";
	case LS_VCPU_NO_BTF:
		return "no steal_time/kvm_steal_time.preempted in the kernel's "
		       "BTF: vcpu-preempted is not known";
	case LS_VCPU_NO_BASES:
		return "per-CPU bases unknown (no runqueues in .data..percpu): "
		       "vcpu-preempted is not known";
	}
	return "?";
}

enum ls_vcpu_flag ls_vcpu_check(void)
{
	struct btf *btf = ls_kernel_btf();
	uint64_t rq_off = 0, size, off;
	enum ls_vcpu_flag f;

	if (btf && ls_btf_percpu_var(btf, "runqueues", &rq_off, &size))
		rq_off = 0;
	f = ls_vcpu_probe(btf, rq_off, &off);
	return f;
}
