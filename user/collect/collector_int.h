/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* collector_int.h - shared by the collector's files; nothing else includes it.
 */
#ifndef LS_COLLECTOR_INT_H
#define LS_COLLECTOR_INT_H

#include <bpf/libbpf.h>
#include "collect/collector.h"
#include "model/ident.h"
#include "model/slab_alias.h"
#include "lockscope.skel.h"

#define LS_MAX_CLONES 8 /* clones of one function kept from kallsyms */
#define LS_BATCH 256	/* entries per batch lookup */

/* How one function-probe target is (to be) attached. */
struct ls_tgt_plan {
	enum ls_mech mech; /* LS_MECH_FENTRY, LS_MECH_KPROBE or none */
	unsigned nsyms;
	uint64_t addr[LS_MAX_CLONES]; /* every clone, from kallsyms */
	int in_btf; /* the plain name is a BTF function (fentry possible) */
	enum ls_ret_kind ret; /* what the return value says (gave up) */
	/* mutex: fentry on the noinline callers of __mutex_lock, which has
	 * no BTF entry; kp_list keeps the kprobe symbols for a fallback */
	int callers;
	char kp_list[160];
	struct bpf_link *links[2 * LS_MAX_CLONES];
	unsigned nlinks;
};

struct ls_collector {
	struct ls_collector_opts o;
	enum ls_bpf_build build; /* which build of the objects (objects.c) */
	struct lockscope_bpf *skel;
	struct ls_ksyms ks;
	int have_ks;
	struct ls_source src[LS_SRC_MAX];
	struct ls_tgt_plan tgt[LS_TGT_MAX];
	char refused[200]; /* why an explicit --source is refused, or "" */
	struct bpf_link *tp_links[2];
	struct bpf_link *rows_link; /* sched_switch, probe-only rows */
	struct bpf_link **perf_links;
	int ncpus_possible, ncpus_online;
	int stats_fd;
	/* the open-file limit was too low: descriptors needed, the limit */
	unsigned fd_need;
	unsigned long long fd_limit;
	unsigned nfuncs;
	char func_name[LS_MAX_SPIN_RANGES][48];
	const char **stack_caller; /* stack id -> caller, resolved once */
	char **stack_frames;	   /* stack id -> folded frames, once */
	/* lock_callers as the last read saw it, and as marked (stacks.c) */
	struct ls_raw_caller *raw, *mark;
	size_t nraw, raw_cap, nmark;
	/* --by class: each lock of the last read and its class row's address
	 * (ls_class_key), sorted by lock: its stacks find their row */
	struct ls_class_of *class_of;
	size_t nclass_of, class_of_cap;
	/* holder_sites as the last walk saw it; sites_kept: raw and hraw are
	 * still what the maps hold, sites_sorted: sorted by lock (sites.c) */
	struct ls_raw_holder *hraw;
	size_t nhraw, hraw_cap;
	int sites_kept, sites_sorted;
	size_t cursor;	   /* a refreshing read: the row after the last found */
	uint64_t *pcpu;	   /* scratch for per-CPU values */
	void *keys, *vals; /* batch scratch */
	uint64_t epoch;
	struct owner_bpf
		*owner; /* owner reader (owner.bpf.c), loaded on first use */
	struct ls_hold *hold; /* --hold (hold.c), NULL without it */
	int owner_err;	      /* its load error (negative errno), once failed */
	/* forgetting idle locks: rows marked in this read, keys to delete */
	uint8_t *idle;
	size_t idle_cap;
	struct ls_lock_key *gone_locks;
	struct ls_caller_key *gone_callers;
	size_t ngone_locks, ngone_callers, gone_locks_cap, gone_callers_cap;
	struct ls_holder_key *gone_holders;
	size_t ngone_holders, gone_holders_cap;
	uint64_t forgotten;
	/* lock_rows mapped in place, its first rows_mapped rows; rows of
	 * locks forgotten in this read, and in the one before (rows.c) */
	struct ls_lock_row *rows;
	size_t rows_mapped;
	uint32_t *slots_gone, *slots_wait;
	size_t nslots_gone, nslots_wait;
	/* spin_callers as last read, and the spin sample count then */
	struct ls_spin_caller *spin_cache;
	size_t nspin_cache, spin_cache_cap;
	uint64_t spin_seen;
	int spin_dirty, spin_cache_ok;
	/* names from memory layout (names.c) */
	struct btf *btf;	    /* the kernel's BTF, NULL if absent */
	uint64_t rq_off, pcpu_size; /* runqueues in .data..percpu; size */
	uint64_t steal_off; /* steal_time in .data..percpu (vcpu.c); 0: off */
	uint64_t osq_node_off;	/* osq_node in .data..percpu (osq.c); 0: off */
	struct ls_steal steal0; /* /proc/stat's steal at start (steal.c) */
	uint64_t page_size;
	uint64_t *pcpu_base;	    /* per CPU, as BPF learnt it; 0: not yet */
	unsigned nbases;	    /* CPUs with a base */
	uint64_t reads;		    /* snapshots read so far */
	uint64_t bases_read;	    /* reads when they were last read */
	struct ls_ident_ent *ident; /* per lock key, open addressing */
	size_t nident, ident_cap;
	/* names.c: the struct fields callers made certain, remembered */
	struct ls_gen_memo *gen_memo;
	unsigned ngen_memo, gen_memo_next;
	struct ls_instances inst; /* #2, #3 ... of names shared by locks */
	struct ls_slab_aliases aliases; /* merged slab caches (slab_sysfs.c) */
	struct ls_cgroups *cg; /* --cgroup, --by cgroup (cgroup.c), or NULL */
};

/*
 * Rows (rows.c): call @fn with the key and counters of every lock in
 * lock_rows (mapped in place); copy the histograms of row @slot; note the
 * row of a forgotten lock (its key cleared at once); hand back the rows
 * noted a read ago; unmap.
 */
int ls_rows_read(struct ls_collector *c,
		 int (*fn)(struct ls_collector *, const void *, const void *,
			   void *),
		 void *arg);
void ls_hists_copy(struct ls_collector *c, uint32_t slot,
		   struct ls_lock_hists *out);
void ls_rows_forget(struct ls_collector *c, uint32_t slot);
void ls_rows_recycle(struct ls_collector *c);
void ls_rows_free(struct ls_collector *c);
/* The skeletons opened over build @b of their objects (objects.c); NULL
 * and errno on failure. */
struct hold_bpf;
struct lockscope_bpf *ls_main_open(enum ls_bpf_build b);
struct hold_bpf *ls_hold_open(enum ls_bpf_build b);

/* Steal time (steal.c): note it at start; since start into @out. */
void ls_steal_start(struct ls_collector *c);
void ls_steal_since(struct ls_collector *c, struct ls_steal *out);
/* --budget: the per-CPU sampler state into s->budget (budget.c). */
int ls_budget_read(struct ls_collector *c, struct ls_snapshot *s);

/* The cgroup side (cgroup.c): before load, find the v2 mount and open
 * --cgroup (-1 after saying why, @why set); set rodata and map size;
 * after load, set the filter; read lock_cgroups into @s; free. */
int ls_cgroup_start(struct ls_collector *c, enum ls_start_err *why);
/* Wait-for chains (chains.c): rodata and map size; read lock_chains. */
void ls_chains_configure(struct ls_collector *c);
int ls_chains_read(struct ls_collector *c, struct ls_snapshot *s);
void ls_cgroup_configure(struct ls_collector *c);
int ls_cgroup_attach(struct ls_collector *c);
int ls_cgroup_read(struct ls_collector *c, struct ls_snapshot *s);
void ls_cgroup_stop(struct ls_collector *c);

/* libbpf's messages are muted while this is set (owner.c's first load). */
extern int ls_libbpf_quiet;

/*
 * Each source's mechanism, before load (plan.c).  @refused gets why the
 * kernel refuses the mechanism --source asks for explicitly, or "".
 */
void ls_plan_sources(const struct ls_collector_opts *o,
		     const struct ls_ksyms *ks, struct ls_source *src,
		     struct ls_tgt_plan *tgt, char *refused, size_t len);
/* Spin-function ranges into the skeleton's rodata (spinfuncs.c). */
void ls_spin_ranges_set(struct ls_collector *c);
/* --by class (stacks.c): remember the class of every row of @s before
 * the fold (0 or -ENOMEM); the row of @named a lock's stacks go to. */
struct ls_class_of {
	struct ls_lock_key lock;
	uint64_t class_addr;
};
int ls_stacks_classes(struct ls_collector *c, const struct ls_snapshot *s);
/* Forgetting idle locks (forget.c): mark the idle rows of @s, collect the
 * callers of marked rows, then delete them all. */
void ls_forget_mark(struct ls_collector *c, struct ls_snapshot *s);
void ls_forget_caller(struct ls_collector *c, const struct ls_caller_key *k);
void ls_forget_holder(struct ls_collector *c, const struct ls_holder_key *k);
void ls_forget_idle(struct ls_collector *c);
/* One lock_callers entry. */
struct ls_raw_caller {
	struct ls_caller_key k;
	struct ls_caller_val v;
};
/* One holder_sites entry. */
struct ls_raw_holder {
	struct ls_holder_key k;
	struct ls_holder_val v;
};
/* Row @r (may be NULL) was added or changed by the read that filled @s:
 * its name, callers and holders are redone (every row of a full read). */
static inline int ls_read_changed(const struct ls_snapshot *s,
				  const struct ls_row *r)
{
	return r && r->changed == s->gen;
}
/* The callers and holder sites of the rows @s's read changed (sites.c):
 * walked when the programs flagged a change, else the last walk's. */
int ls_sites_read(struct ls_collector *c, struct ls_snapshot *s);
/* The caller function of stack @id, resolved once (maps.c). */
const char *ls_resolve_stack(struct ls_collector *c, __s32 id);
/* Keep an entry of lock_callers as read (stacks.c); 0 or -ENOMEM. */
int ls_stacks_keep(struct ls_collector *c, const struct ls_caller_key *k,
		   const struct ls_caller_val *v);

/* Every entry of hash @map (keys @ksz, values @vsz bytes, at most those of
 * lock_stats) through @fn, with batch lookups where the kernel has them
 * (maps.c); 0, -errno or @fn's error. */
int ls_read_hash(struct ls_collector *c, struct bpf_map *map, size_t ksz,
		 size_t vsz,
		 int (*fn)(struct ls_collector *, const void *, const void *,
			   void *),
		 void *arg);

/* Names from memory layout (names.c): set up and free; fill @row's class
 * and origin when its layout names it (once per lock); forget a lock. */
int ls_names_init(struct ls_collector *c);
void ls_names_free(struct ls_collector *c);
void ls_names_row(struct ls_collector *c, struct ls_row *row);
void ls_names_forget(struct ls_collector *c, const struct ls_lock_key *k);
/* comm of @tid in process @tgid from /proc, made safe to print
 * (util/untrusted_text.h: \xHH escapes); 0 or -errno (comm.c). */
int ls_read_comm(uint32_t tgid, uint32_t tid, char *buf, size_t len);

/* Function probes (fprobes.c). */
void ls_probes_plan(const struct ls_collector_opts *o,
		    const struct ls_ksyms *ks, struct ls_source *src,
		    struct ls_tgt_plan *tgt, char *refused, size_t len);
void ls_probes_configure(struct ls_collector *c);
/* After a failed load: move fentry targets to kprobe (or none); 1 = retry. */
int ls_probes_degrade(struct ls_collector *c, int err);
void ls_probes_attach(struct ls_collector *c);
void ls_probes_detach(struct ls_collector *c);
/* kprobe PMU type and its retprobe config bit; type or -errno. */
int ls_kprobe_pmu_type(int *retprobe_bit);
/* A k(ret)probe of @prog on address @addr (clones share a name); NULL and
 * errno on failure. */
struct bpf_link *ls_kprobe_attach_addr(struct bpf_program *prog, int type,
				       int ret_bit, int ret, uint64_t addr);

/*
 * --hold (hold.c).  ls_hold_plan fills the doctor row src[LS_SRC_HOLD]
 * (whether --hold can work here, and why); ls_hold_start, after the main
 * object is loaded, opens, loads and attaches hold.bpf.c sharing its maps:
 * 0, or -errno with the row's reason set.  ls_hold_read joins hold_stats
 * to the snapshot's rows (indexed).
 */
void ls_hold_plan(const struct ls_collector_opts *o, const struct ls_ksyms *ks,
		  struct ls_source *s);
int ls_hold_start(struct ls_collector *c);
int ls_hold_read(struct ls_collector *c, struct ls_snapshot *s);
void ls_hold_stop(struct ls_collector *c);

#endif
