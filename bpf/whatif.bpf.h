/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * whatif.bpf.h - delay injection for `lockscope whatif` (the contract is
 * the whatif section of lockscope.h): at a successful contention_end of a
 * selected lock (mode critical: the new holder's critical section grows)
 * or at a wait's first contention_begin (mode control: the same CPU time
 * burnt outside the critical section), busy-wait the armed delay with
 * a bounded loop polling the clock, when whatif_rule.h grants it.  Each
 * selected lock counts its contended acquisitions, its waits, its delays and
 * their measured ns, and every refusal by reason.  Off (rodata whatif_on = 0)
 * it costs nothing: the verifier drops the code.  Included once, from
 * lockscope.bpf.c, after ident.bpf.h (per-CPU bases).
 */
#ifndef LS_WHATIF_BPF_H
#define LS_WHATIF_BPF_H

#include "whatif_rule.h"

const volatile __u32 whatif_on = 0;
/* BTF offset of this CPU's preempt count in .data..percpu (x86:
 * __preempt_count or pcpu_hot.preempt_count), 0: read it from
 * thread_info.preempt_count where that exists, else refuse every delay */
const volatile __u64 wif_preempt_off = 0;

struct ls_wif_ctl wif_ctl = {};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, LS_WIF_MAX_LOCKS);
	__type(key, struct ls_lock_key);
	__type(value, struct ls_wif_lock);
} wif_sel SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct ls_wif_cpu);
} wif_cpu SEC(".maps");

struct thread_info___wif {
	int preempt_count;
} __attribute__((preserve_access_index));

/* 1 when this is not NMI context, as far as BPF can read it: the preempt
 * count's NMI bits, from thread_info (arm64 and others) or this CPU's
 * per-CPU copy (x86, through the per-CPU base ident.bpf.h learns). */
static __always_inline int wif_ctx_ok(void)
{
	struct task_struct *t = (struct task_struct *)bpf_get_current_task();
	struct thread_info___wif *ti = (void *)&t->thread_info;
	__u32 cpu = bpf_get_smp_processor_id(), pc = 0;
	__u64 *base;

	if (bpf_core_field_exists(ti->preempt_count)) {
		if (bpf_core_read(&pc, sizeof(pc), &ti->preempt_count))
			return 0;
		return !(pc & LS_WIF_NMI_MASK);
	}
	if (!wif_preempt_off || cpu >= LS_MAX_CPUS)
		return 0;
	base = bpf_map_lookup_elem(&percpu_base, &cpu);
	if (base && !*base)
		ident_learn_percpu(cpu);
	if (!base || !*base ||
	    bpf_probe_read_kernel(&pc, sizeof(pc),
				  (void *)(*base + wif_preempt_off)))
		return 0;
	return !(pc & LS_WIF_NMI_MASK);
}

/*
 * Busy-wait until @until (ktime ns), at most LS_WIF_MAX_LOOPS clock reads;
 * the clock when it stops.  A bounded loop, not bpf_loop: a bpf_loop
 * callback is a subprogram known only through a function pointer, and
 * kernels before 5.13 refuse the whole object for it (func_info and
 * subprogs disagree).  A global function: the verifier walks its loop
 * once, not once per path of the programs that call it.
 */
__noinline __u64 wif_spin(__u64 until)
{
	__u64 t = bpf_ktime_get_ns();

	for (__u32 i = 0; i < LS_WIF_MAX_LOOPS && t < until; i++)
		t = bpf_ktime_get_ns();
	return t;
}

/*
 * The hook: a contended acquisition of (@addr, @kind) at @site
 * (LS_WIF_CRITICAL: its successful end; LS_WIF_CONTROL: its wait's first
 * begin).  Counts it for a selected lock, and delays it when @site is
 * the armed mode.
 */
static __always_inline void whatif_at(__u64 addr, __u32 kind, __u32 site)
{
	struct ls_lock_key k = {.addr = addr, .kind = kind};
	struct ls_wif_ctl ctl;
	struct ls_wif_lock *l;
	struct ls_wif_cpu *cpu;
	__u32 zero = 0, v;
	__u64 t0, t1;

	if (!whatif_on || !*(volatile __u32 *)&wif_ctl.armed)
		return;
	l = bpf_map_lookup_elem(&wif_sel, &k);
	if (!l)
		return;
	__sync_fetch_and_add(site == LS_WIF_CRITICAL ? &l->ends : &l->begins,
			     1);
	ctl.mode = *(volatile __u32 *)&wif_ctl.mode;
	if (ctl.mode != site)
		return;
	ctl.delay_ns = *(volatile __u64 *)&wif_ctl.delay_ns;
	ctl.budget_ns = *(volatile __u64 *)&wif_ctl.budget_ns;
	ctl.beat_ns = *(volatile __u64 *)&wif_ctl.beat_ns;
	ctl.armed = 1;
	cpu = bpf_map_lookup_elem(&wif_cpu, &zero);
	if (!cpu)
		return;
	t0 = bpf_ktime_get_ns();
	v = ls_wif_decide(&ctl, cpu, t0, ctl.delay_ns ? wif_ctx_ok() : 1);
	if (v == LS_WIF_NO_DELAY)
		return;
	if (v != LS_WIF_DELAY) {
		if (v < LS_WIF_VERDICTS)
			__sync_fetch_and_add(&l->refused[v], 1);
		return;
	}
	t1 = wif_spin(t0 + ctl.delay_ns);
	if (t1 - t0 > ctl.delay_ns) /* the overshoot counts too */
		cpu->used_ns += t1 - t0 - ctl.delay_ns;
	__sync_fetch_and_add(&l->delayed, 1);
	__sync_fetch_and_add(&l->injected_ns, t1 - t0);
}

#endif /* LS_WHATIF_BPF_H */
