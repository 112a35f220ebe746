// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * whatif.c - delay injection from user space (bpf/whatif.bpf.h): whether
 * it can run on this kernel, the rodata it needs (the preempt count's
 * place, to refuse NMI context), the wif_sel map of selected locks, the
 * control word in the bss (arm, heartbeat, kill switch) and the counts.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "collect/btf_names.h"
#include "collect/collector_int.h"
#include "collect/features.h"
#include "collect/whatif.h"

/* Offset of @member in the struct named @type, or -1. */
static long member_off(const struct btf *btf, const char *type,
		       const char *member)
{
	int id = btf__find_by_name_kind(btf, type, BTF_KIND_STRUCT);
	const struct btf_member *m;
	const struct btf_type *t;

	if (id <= 0)
		return -1;
	t = btf__type_by_id(btf, (uint32_t)id);
	m = btf_members(t);
	for (unsigned i = 0; i < btf_vlen(t); i++, m++)
		if (!strcmp(btf__name_by_offset(btf, m->name_off), member))
			return (long)(btf_member_bit_offset(t, i) / 8);
	return -1;
}

/* 1 when the kernel has the lock tracepoints (5.19+), in its BTF. */
static int has_lock_tracepoints(const struct btf *btf)
{
	return btf && btf__find_by_name_kind(btf, "btf_trace_contention_end",
					     BTF_KIND_TYPEDEF) > 0;
}

void ls_whatif_probe(uint64_t rq_off, struct ls_wif_probe *p)
{
	const struct btf *btf = ls_kernel_btf();
	uint64_t off = 0, size;
	long m;

	memset(p, 0, sizeof(*p));
	p->ctx = LS_WIF_CTX_NONE;
	if (btf && member_off(btf, "thread_info", "preempt_count") >= 0) {
		p->ctx = LS_WIF_CTX_THREAD_INFO;
	} else if (btf && rq_off &&
		   !ls_btf_percpu_var(btf, "__preempt_count", &off, &size)) {
		p->ctx = LS_WIF_CTX_PERCPU;
		p->preempt_off = off;
	} else if (btf && rq_off &&
		   !ls_btf_percpu_var(btf, "pcpu_hot", &off, &size) &&
		   (m = member_off(btf, "pcpu_hot", "preempt_count")) >= 0) {
		p->ctx = LS_WIF_CTX_PERCPU;
		p->preempt_off = off + (uint64_t)m;
	}
	if (!has_lock_tracepoints(btf)) {
		snprintf(p->why, sizeof(p->why),
			 "no: the kernel has no lock:contention_end tracepoint "
			 "in its BTF (5.19+ needed)");
		return;
	}
	if (p->ctx == LS_WIF_CTX_NONE) {
		snprintf(p->why, sizeof(p->why),
			 "no: the preempt count is not in BTF (or per-CPU "
			 "bases cannot be learnt): NMI context could not be "
			 "refused");
		return;
	}
	p->can_run = 1;
	snprintf(p->why, sizeof(p->why),
		 "yes: busy-waits polling the clock at contention_end "
		 "(critical) or begin (control), cap %llu us, budget per CPU; "
		 "NMI refused "
		 "by the preempt count (%s); no before-release mode (no "
		 "function probes used)",
		 (unsigned long long)(LS_WIF_CAP_NS / 1000),
		 p->ctx == LS_WIF_CTX_THREAD_INFO ? "thread_info.preempt_count"
						  : "per-CPU __preempt_count");
}

void ls_whatif_check(struct ls_wif_probe *p)
{
	const struct btf *btf = ls_kernel_btf();
	uint64_t rq = 0, size;

	if (btf && ls_btf_percpu_var(btf, "runqueues", &rq, &size))
		rq = 0;
	ls_whatif_probe(rq, p);
}

void ls_whatif_configure(struct ls_collector *c)
{
	struct ls_wif_probe p;

	if (!c->o.whatif)
		return;
	ls_whatif_probe(c->rq_off, &p);
	c->skel->rodata->whatif_on = 1;
	c->skel->rodata->wif_preempt_off = p.preempt_off;
}

int ls_whatif_select(struct ls_collector *c, const struct ls_lock_key *k)
{
	struct ls_wif_lock zero = {0};
	int fd = bpf_map__fd(c->skel->maps.wif_sel);

	if (!bpf_map_update_elem(fd, k, &zero, BPF_NOEXIST))
		return 0;
	if (errno == EEXIST)
		return 0;
	return errno == E2BIG ? -ENOSPC : -errno;
}

int ls_whatif_selected(struct ls_collector *c, const struct ls_lock_key *k)
{
	struct ls_wif_lock v;

	return !bpf_map_lookup_elem(bpf_map__fd(c->skel->maps.wif_sel), k, &v);
}

void ls_whatif_clear(struct ls_collector *c)
{
	int fd = bpf_map__fd(c->skel->maps.wif_sel);
	struct ls_lock_key k, next;

	/* delete from the first key each time: a walk of a hash being
	 * emptied could skip keys */
	for (int i = 0; i < 4 * LS_WIF_MAX_LOCKS; i++) {
		if (bpf_map_get_next_key(fd, NULL, &next))
			return;
		k = next;
		bpf_map_delete_elem(fd, &k);
	}
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

void ls_whatif_beat(struct ls_collector *c)
{
	*(volatile __u64 *)&c->skel->bss->wif_ctl.beat_ns = mono_ns();
}

void ls_whatif_arm(struct ls_collector *c, enum ls_wif_mode mode,
		   uint64_t delay_ns, uint64_t budget_ns)
{
	volatile struct ls_wif_ctl *ctl = &c->skel->bss->wif_ctl;

	ctl->armed = 0;
	__sync_synchronize();
	ctl->beat_ns = mono_ns();
	ctl->delay_ns = delay_ns;
	ctl->budget_ns = budget_ns;
	ctl->mode = mode;
	__sync_synchronize();
	ctl->armed = 1;
}

void ls_whatif_disarm(struct ls_collector *c)
{
	if (!c || !c->skel || !c->skel->bss)
		return;
	*(volatile __u32 *)&c->skel->bss->wif_ctl.armed = 0;
	__sync_synchronize();
}

int ls_whatif_counts(struct ls_collector *c, struct ls_wif_lock *sum,
		     size_t *nsel)
{
	int fd = bpf_map__fd(c->skel->maps.wif_sel), err;
	struct ls_lock_key k, next, *prev = NULL;
	struct ls_wif_lock v;

	memset(sum, 0, sizeof(*sum));
	*nsel = 0;
	while (!(err = bpf_map_get_next_key(fd, prev, &next))) {
		k = next;
		prev = &k;
		if (bpf_map_lookup_elem(fd, &k, &v))
			continue;
		(*nsel)++;
		sum->ends += v.ends;
		sum->begins += v.begins;
		sum->delayed += v.delayed;
		sum->injected_ns += v.injected_ns;
		for (int i = 0; i < LS_WIF_VERDICTS; i++)
			sum->refused[i] += v.refused[i];
		if (*nsel > LS_WIF_MAX_LOCKS)
			break;
	}
	return err && errno != ENOENT ? -errno : 0;
}
