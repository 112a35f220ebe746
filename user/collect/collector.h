/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * collector.h - the public face of user/collect/, the only part of
 * lockscope that talks to libbpf.
 *
 * Lifecycle (lifecycle.c): ls_collector_start() plans each source's
 * mechanism (plan.c, features.c, fprobes.c), opens the skeleton, configures
 * it (rodata, map sizes, autoload), loads and attaches each source on its
 * own; ls_collector_read() fills a model snapshot with batch lookups
 * (read.c, forget.c); ls_collector_owner() asks who holds a lock (owner.c);
 * ls_collector_stop() detaches and frees everything.
 */
#ifndef LS_COLLECTOR_H
#define LS_COLLECTOR_H

#include <stddef.h>
#include <stdint.h>
#include "model/kallsyms.h"
#include "model/model.h"
#include "model/sources.h"

struct ls_collector_opts {
	uint32_t tgid;	      /* 0: all processes */
	uint32_t stack_every; /* caller stack every Nth contention; 0: never */
	uint32_t max_locks, max_tasks, max_callers, max_stacks;
	unsigned sample_hz;	       /* cpu-clock sampler frequency; 0: off */
	int no_tracepoints;	       /* leave the tracepoint source off */
	enum ls_probe_mode probe_mode; /* function probes: --source */
	int run_stats;	    /* enable BPF run-time stats (fd-scoped) */
	int read_waiting;   /* list the tasks waiting now in each snapshot */
	uint32_t forget;    /* drop locks idle this many epochs; 0: keep all */
#define LS_DEF_FORGET 60    /* top's and serve's default */
	int with_addr;	    /* put raw addresses in lock names */
	int by_class;	    /* fold each lock class into one row (--by class) */
	int stacks;	    /* stacks are read (record, --folded): with
			     * by_class, each read keeps its lock-to-class map */
	int by_cgroup;	    /* waits by lock and cgroup (--by cgroup) */
	const char *cgroup; /* --cgroup: only tasks in this cgroup subtree */
	const struct ls_filter *fold_filter; /* applied before folding */
	int hold;      /* --hold: hold times of contended locks (hold.bpf.c) */
	int no_chains; /* --no-chains: no wait-for chains (chains.bpf.h) */
	int whatif;    /* whatif: delay injection (bpf/whatif.bpf.h) */
	uint32_t budget_ppm;  /* --budget, parts per million; 0: exact */
	int verbose;	      /* libbpf debug output */
	const char *kallsyms; /* path, default /proc/kallsyms */
};

/* Names of the functions whose samples count as spinning. */
const char *const *ls_spin_funcs(size_t *n);

static inline void ls_collector_opts_default(struct ls_collector_opts *o)
{
	*o = (struct ls_collector_opts){
		.stack_every = LS_DEF_STACK_EVERY,
		.max_locks = LS_DEF_MAX_LOCKS,
		.max_tasks = LS_DEF_MAX_TASKS,
		.max_callers = LS_DEF_MAX_CALLERS,
		.max_stacks = LS_DEF_MAX_STACKS,
		.sample_hz = 99,
		.kallsyms = "/proc/kallsyms",
	};
}

struct ls_collector; /* opaque */

/* Probe only: fill @src (LS_SRC_MAX entries) without loading anything. */
void ls_probe_sources(const struct ls_collector_opts *o, struct ls_source *src);

/* Which build of the BPF objects to load (objects.c): one doctor line. */
enum ls_bpf_build {
	LS_BUILD_MAIN = 0, /* atomic fetch ops (kernels 5.12+) */
	LS_BUILD_COMPAT,   /* atomic add only: bpf/common.bpf.h's stand-ins */
	LS_BUILD_BAD,	   /* LOCKSCOPE_BPF_OBJECT names neither */
};
/* Probe the kernel (or read LOCKSCOPE_BPF_OBJECT); @why: one line. */
enum ls_bpf_build ls_bpf_build_choose(char *why, size_t len);

/* Why ls_collector_start() failed; it has printed the one line. */
enum ls_start_err {
	LS_START_OK = 0,
	LS_START_FAILED,    /* the kernel or the system refused: exit 1 */
	LS_START_BAD_INPUT, /* an option this machine cannot honour: exit 2 */
};

/* Where lock names come from, one row each in `lockscope doctor`. */
enum ls_names_src {
	LS_NAMES_KALLSYMS = 0, /* data symbols for static locks */
	LS_NAMES_SLAB,	       /* bpf_get_kmem_cache + BTF */
	LS_NAMES_SLAB_ALIASES, /* members of merged caches (/sys/kernel/slab) */
	LS_NAMES_PERCPU,       /* per-CPU areas + .data..percpu BTF */
	LS_NAMES_CORE,	       /* mmap_lock, siglock of the current task */
	LS_NAMES_MAX,
};

struct ls_naming_row {
	char name[32];
	int available;
	char reason[200];
};

/* Whether a running holder's vCPU preemption is read (vcpu.c). */
enum ls_vcpu_flag {
	LS_VCPU_READ = 0, /* steal_time.preempted through per-CPU bases */
	LS_VCPU_NO_HOST,  /* no KVM steal time (bare metal, other host) */
	LS_VCPU_NO_BTF,	  /* no steal_time or its preempted in BTF */
	LS_VCPU_NO_BASES, /* per-CPU bases cannot be learnt */
};
struct btf;
/* The flag's availability, and steal_time's .data..percpu offset in
 * @steal_off (0 unless LS_VCPU_READ); @rq_off: runqueues' offset. */
enum ls_vcpu_flag ls_vcpu_probe(const struct btf *btf, uint64_t rq_off,
				uint64_t *steal_off);
/* The same for this machine's kernel, loading its BTF (doctor). */
enum ls_vcpu_flag ls_vcpu_check(void);
/* Doctor's line for @f. */
const char *ls_vcpu_reason(enum ls_vcpu_flag f);

/* NULL when cgroup v2 is mounted (its mount point in @mount), else why
 * --cgroup and --by cgroup cannot work here, in one line (cgroup.c). */
const char *ls_cgroup_check(char *mount, size_t len);
/* Whether an osq_lock() bail-out's previous vCPU is read (osq.c). */
enum ls_osq_flag {
	LS_OSQ_READ = 0,  /* previous node and its vCPU's preempted flag */
	LS_OSQ_NODE_ONLY, /* previous node only: no preempted flag here */
	LS_OSQ_NO_BTF,	  /* no osq_node in the kernel's BTF */
	LS_OSQ_NO_BASES,  /* per-CPU bases cannot be learnt */
};
/* The flag for a kernel with @btf, runqueues at @rq_off and steal_time
 * at @steal_off (0: not read); osq_node's .data..percpu offset in
 * @node_off (0 unless READ or NODE_ONLY). */
enum ls_osq_flag ls_osq_probe(const struct btf *btf, uint64_t rq_off,
			      uint64_t steal_off, uint64_t *node_off);
/* The same for this machine's kernel (doctor). */
enum ls_osq_flag ls_osq_check(void);
/* Doctor's line for @f. */
const char *ls_osq_reason(enum ls_osq_flag f);

/* Which sources wait-for chains can follow here (chains.c). */
enum ls_chain_flag {
	LS_CHAINS_BLOCKER = 0, /* own waits, then task_struct.blocker */
	LS_CHAINS_OWN_ONLY,    /* own waits only: no blocker field */
	LS_CHAINS_NO_BTF,      /* kernel BTF unreadable */
};
enum ls_chain_flag ls_chains_check(void);
/* Doctor's line for @f. */
const char *ls_chains_reason(enum ls_chain_flag f);

/* Fill @rows (LS_NAMES_MAX) for a kernel whose tracepoints run by @tp's
 * mechanism and whose kallsyms has @data_syms data symbols. */
void ls_naming_probe(const struct ls_source *tp, size_t data_syms,
		     struct ls_naming_row *rows);

/* Start collecting; NULL on failure, with @why (may be NULL) set. */
struct ls_collector *ls_collector_start(const struct ls_collector_opts *o,
					enum ls_start_err *why);
/* Fill @snap with everything since start; 0 or -errno. */
int ls_collector_read(struct ls_collector *c, struct ls_snapshot *snap);
/*
 * Who holds the lock @key now, read from its owner word (mutex, rwsem,
 * rt_mutex) by a BPF program run on demand, loaded on first use.  Always
 * fills @o; state LS_OWNER_UNKNOWN with o->why when it cannot tell.
 */
void ls_collector_owner(struct ls_collector *c, const struct ls_lock_key *key,
			struct ls_owner *o);
/*
 * The sampled waiter stacks as the last ls_collector_read() saw them, of
 * the locks in @named (that snapshot, filtered as wanted: stacks of other
 * locks are left out), named like its rows, added to @out with their
 * samples and wait time since ls_collector_mark_stacks() (else since
 * start).  Stack frames are resolved once per stack.  0 or -errno.
 */
struct ls_stacks;
int ls_collector_stacks(struct ls_collector *c, struct ls_snapshot *named,
			struct ls_stacks *out);
/*
 * Count stacks from the last read on (record: from its first read), @s.
 * Only the entries of locks in @s are marked: a lock born between the read
 * of the locks and the walk of its callers is counted from zero, like the
 * row a later read finds.
 */
int ls_collector_mark_stacks(struct ls_collector *c,
			     const struct ls_snapshot *s);
/* Start a new interval for peak waiters. */
void ls_collector_next_epoch(struct ls_collector *c);
/* Locks forgotten so far (o.forget), idle that long. */
uint64_t ls_collector_forgotten(const struct ls_collector *c);
const struct ls_source *ls_collector_sources(const struct ls_collector *c);
void ls_collector_stop(struct ls_collector *c);

#endif
