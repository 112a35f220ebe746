/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * whatif.h - the collector's side of `lockscope whatif` (whatif.c): can
 * delays be injected here and how is NMI context told apart (doctor's
 * line), the object's configuration, the selected locks, arming and the
 * kill switch, the heartbeat, and the per-lock counts.
 */
#ifndef LS_COLLECT_WHATIF_H
#define LS_COLLECT_WHATIF_H

#include <stddef.h>
#include <stdint.h>
#include "collect/collector.h"

/* How BPF tells NMI context apart before it delays. */
enum ls_wif_ctx_src {
	LS_WIF_CTX_THREAD_INFO = 0, /* thread_info.preempt_count (CO-RE) */
	LS_WIF_CTX_PERCPU,	    /* the per-CPU preempt count (x86) */
	LS_WIF_CTX_NONE,	    /* unreadable: every delay is refused */
};

struct ls_wif_probe {
	int can_run;		 /* lock tracepoints and a context source */
	enum ls_wif_ctx_src ctx; /* what BPF reads */
	uint64_t preempt_off;	 /* .data..percpu offset (LS_WIF_CTX_PERCPU) */
	char why[240];		 /* one line for doctor and failures */
};

/* Probe this kernel (its BTF); @rq_off: runqueues'
 * per-CPU offset (0: per-CPU bases cannot be learnt). */
void ls_whatif_probe(uint64_t rq_off, struct ls_wif_probe *p);
/* The same for doctor, finding runqueues itself. */
void ls_whatif_check(struct ls_wif_probe *p);

struct ls_collector;
/* Between open and load (lifecycle.c): rodata and map sizes. */
void ls_whatif_configure(struct ls_collector *c);
/* Add @k to the selected locks (counts start at 0): 0, or -ENOSPC when
 * LS_WIF_MAX_LOCKS are selected; a key already there is kept (0). */
int ls_whatif_select(struct ls_collector *c, const struct ls_lock_key *k);
/* Whether @k is selected. */
int ls_whatif_selected(struct ls_collector *c, const struct ls_lock_key *k);
/* Drop every selected lock (and its counts). */
void ls_whatif_clear(struct ls_collector *c);
/* Arm @mode with @delay_ns per acquisition and @budget_ns per CPU per
 * second; the heartbeat is set first. */
void ls_whatif_arm(struct ls_collector *c, enum ls_wif_mode mode,
		   uint64_t delay_ns, uint64_t budget_ns);
/* The heartbeat (stall watchdog: BPF refuses delays LS_WIF_STALL_NS after
 * the last one). */
void ls_whatif_beat(struct ls_collector *c);
/* The kill switch: no delay from the next event on. */
void ls_whatif_disarm(struct ls_collector *c);
/* The counts of every selected lock, summed into @sum; @nsel: how many. */
int ls_whatif_counts(struct ls_collector *c, struct ls_wif_lock *sum,
		     size_t *nsel);

#endif
