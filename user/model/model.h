/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * model.h - what lockscope knows at one instant, in plain C.
 *
 * The collector fills a snapshot from the BPF maps; views and exporters read
 * snapshots and never call libbpf.  Everything here is unit-tested without
 * root.  One header for the model, one file per job: snapshot.c (the
 * container), index.c (finding rows by key), delta.c (intervals), sort.c
 * (figures, sort, filter), enum_names.c (names of kinds, losses, counters),
 * owner.c (owner words), holder.c (the holder side: states, sites, tenure),
 * fold.c (lock classes), steal.c (steal time from /proc/stat), cgrows.c
 * (--by cgroup rows; cgpath.c resolves their ids), intern.c (function
 * names kept once, pointed at by rows), hold.c and holdtab.c (--hold
 * figures, kept beside the rows that have them).
 */
#ifndef LS_MODEL_H
#define LS_MODEL_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <linux/types.h>
#include "lockscope.h"
#include "decide.h" /* ls_kind_has_owner and BPF's other decisions */
#include "model/intern.h"
#include "model/steal.h"

/* A task's comm (15 bytes) once made safe (util/untrusted_text.h): any
 * user names its tasks, each byte may become a 4-byte \xHH. */
#define LS_COMM_MAX 64
#define LS_NAME_MAX 160	 /* display name of a lock */
#define LS_ROW_CALLERS 4 /* callers kept per lock, most sampled first */
#define LS_PROG_MAX 16	 /* BPF programs whose run-time stats are kept */
#define LS_ROW_HOLDERS 3 /* holder sites, pairs and tids kept per lock */

/* Function names in rows are interned (ls_intern): copying a row copies
 * pointers, and a name lives as long as the process. */
struct ls_caller {
	const char *fn;
	uint64_t samples;
};

/* Sampled holder tenure by site, (waiter site -> holder site) pair or tid. */
struct ls_hold_site {
	const char *fn;
	uint64_t tenure_ns, count;
};

struct ls_hold_pair {
	const char *waiter, *holder;
	uint64_t tenure_ns, count;
};

struct ls_hold_tid {
	uint32_t tid;
	uint64_t tenure_ns, count;
};

struct ls_row {
	struct ls_lock_key key;
	struct ls_lock_stats st; /* totals since start (or a delta) */
	struct ls_lock_hists hi; /* its histograms, the same way */
	char name[LS_NAME_MAX];
	struct ls_caller callers[LS_ROW_CALLERS];
	unsigned ncallers;
	uint64_t caller_samples; /* every sampled stack of this lock */
	uint64_t caller_wait_ns; /* wait time of those sampled waits (a
				  * counter: deltas hold its increase) */
	int vcpu_known; /* holder_*[LS_HOLDER_VCPU_PREEMPTED] was measured
			 * (user/collect/vcpu.c); else running includes it */
	/* osq_lock bail-outs whose previous node was read, and of those the
	 * ones whose previous vCPU was preempted (bpf/osq.bpf.h; counters:
	 * deltas hold their increase); osq_vcpu_known: that vCPU's preempted
	 * flag was read (else prev_preempted is unknown, never 0) */
	uint64_t osq_prev_read, osq_prev_preempted;
	int osq_vcpu_known;
	int max_bound; /* delta rows: st.max_ns is an upper bound of the
			* interval's longest wait, not the wait itself */
	/* sampled holders (cumulative, like callers), most tenure first;
	 * hold_sampled_ns sums every sampled site, kept or not */
	struct ls_hold_site hsites[LS_ROW_HOLDERS];
	struct ls_hold_pair hpairs[LS_ROW_HOLDERS];
	struct ls_hold_tid htids[LS_ROW_HOLDERS];
	unsigned nhsites, nhpairs, nhtids;
	uint64_t hold_sampled_ns, hold_sampled;
	/* identity (model/ident.h): the class, the name without its
	 * instance suffix, is its first cls_len bytes (ls_row_class); where
	 * it came from, the CPU of per-CPU data, rows folded in */
	unsigned cls_len;
	unsigned origin;    /* enum ls_origin */
	unsigned pcpu;	    /* per-CPU data: 1 + its CPU; 0 otherwise */
	unsigned instances; /* locks this row stands for (--by class); 0: 1 */
	/* (--hold figures are not here but in the snapshot's holds: most
	 * rows have none; ls_snap_hold) */
	/* wait-for chains (chains.c): this lock's chained waits and their
	 * wait time, from the snapshot's chains (deltas in a delta) */
	uint64_t chain_waits, chain_ns;
	/* the read (snapshot's gen) that added the row or last changed it,
	 * the read that last found its lock (collect/read.c), and the read
	 * that saved it before changing it (ls_snap_save_row) */
	uint64_t changed, seen, saved;
};

/* Row @r's class (its name without the instance suffix; its whole name
 * if it has no class), copied into @buf of @len bytes; returns @buf. */
static inline const char *ls_row_class(const struct ls_row *r, char *buf,
				       size_t len)
{
	if (r->cls_len)
		snprintf(buf, len, "%.*s", (int)r->cls_len, r->name);
	else
		snprintf(buf, len, "%s", r->name);
	return buf;
}

/* A task waiting on a sleeping lock now (from the BPF task_state map). */
struct ls_waiter {
	struct ls_lock_key key;
	uint64_t since_ns; /* CLOCK_MONOTONIC start of the wait */
	uint32_t tid, tgid;
	uint32_t phase;		/* enum ls_phase */
	char comm[LS_COMM_MAX]; /* from /proc, made safe; "?" when gone */
};

/* Who holds a lock, as far as its owner word tells (see owner.bpf.c). */
enum ls_owner_state {
	LS_OWNER_UNKNOWN = 0, /* not readable: why[] says why */
	LS_OWNER_NONE,	      /* the lock was free when read */
	LS_OWNER_TASK,	      /* held by tid/tgid/comm */
	LS_OWNER_READERS,     /* rwsem held by readers (nreaders) */
};

struct ls_owner {
	enum ls_owner_state state;
	uint32_t tid, tgid;	/* the task the owner word names, confirmed in
				 * /proc; 0 if none (for readers: the last one) */
	char comm[LS_COMM_MAX]; /* made safe */
	uint64_t nreaders;
	uint64_t mono_ns; /* when read */
	char why[96];
};

/* --by cgroup: one lock's waits by one cgroup of its waiters (the BPF map
 * lock_cgroups), its path below the cgroup v2 mount resolved once read:
 * LS_CG_GONE (model/cgpath.h) when the cgroup no longer exists.  The path
 * is safe to print (util/untrusted_text.h: unsafe bytes as \xHH); one
 * longer than the field keeps its end, after a leading "...";
 * path_changed says which of the two happened. */
#define LS_CG_PATH_MAX 256
struct ls_cgrow {
	struct ls_lock_key key;
	uint32_t role; /* enum ls_cg_role: the waiter's or the holder's */
	uint64_t cgid;
	struct ls_cg_val v;
	char path[LS_CG_PATH_MAX];
	unsigned path_changed; /* enum ls_text_change bits */
};

/* One wait-for chain of a lock (the BPF map lock_chains, bpf/lockscope.h):
 * the waits whose holder was itself waiting on lock @next, the chain
 * ending at lock @root (the root cause), cumulative like rows. */
struct ls_chainrow {
	struct ls_lock_key key; /* the waited lock */
	struct ls_lock_key next, root;
	struct ls_chain_val v;
	/* named when read (ls_chains_name), from the rows of that read */
	char next_name[LS_NAME_MAX], root_name[LS_NAME_MAX];
	char next_cls[LS_NAME_MAX]; /* next's class (its name if none) */
	const char *root_site;	    /* interned; "" when none was sampled */
};

/* --hold: the hold times of the lock at one address, in each row of it
 * (each kind), by enum ls_hold_mode. */
struct ls_holdrow {
	struct ls_lock_key key;
	struct ls_hold_stats hold[LS_HOLD_MODES];
};

/* The hold times of a snapshot's rows that have some (holdtab.c), in no
 * order, found by key through @slot: open addressing, a slot holds an
 * entry + 1 (0: empty), @nslots a power of two, at most half of them
 * used. */
struct ls_holdtab {
	struct ls_holdrow *v;
	size_t n, cap;
	uint32_t *slot;
	size_t nslots;
};

/* A lock's chains summed (chains.c). */
struct ls_chain_sum {
	uint64_t waits, wait_ns, cycles, capped;
	uint32_t max_depth;
	size_t nchains;
};

struct ls_spin_caller {
	uint32_t func;
	const char *fn; /* interned */
	uint64_t samples;
};

struct ls_prog_stat {
	char name[32];
	uint64_t run_cnt, run_ns, misses;
};

/* --budget (bpf/budget.bpf.h): the sampler in force and its own cost,
 * summed over CPUs (counters since start; a delta's are the interval's). */
struct ls_budget_snap {
	uint32_t ppm;	       /* the budget; 0: exact, nothing sampled */
	uint32_t n_min, n_max; /* 1 in N in force, over the CPUs that ran */
	uint64_t runs;	       /* begin and end program runs */
	uint64_t sruns;	       /* ... of timed (sampled) waits */
	uint64_t cost_ns;      /* the programs' estimate of their own time */
	uint64_t windows;      /* adaptation windows closed */
	uint64_t over;	       /* ... over budget even at LS_BUDGET_N_MAX */
};

struct ls_snapshot {
	uint64_t mono_ns; /* CLOCK_MONOTONIC when read */
	uint64_t epoch;	  /* interval the peak_waiters fields belong to */
	uint64_t ctr[LS_CTR_MAX];
	uint64_t loss[LS_LOSS_MAX];
	struct ls_row *rows;
	size_t nrows, cap;
	/* cpu-clock sampler: func_name[i] names spin_samples slot i */
	unsigned nfuncs;
	char func_name[LS_MAX_SPIN_RANGES][48];
	uint64_t func_samples[LS_SPIN_SLOTS]; /* summed over CPUs */
	unsigned ncpus;
	uint64_t *cpu_all, *cpu_spin; /* per CPU: all samples, spin samples */
	struct ls_spin_caller *spin_callers;
	size_t nspin_callers, spin_cap;
	/* lockscope's own cost (BPF run-time stats), when enabled */
	struct ls_prog_stat prog[LS_PROG_MAX];
	unsigned nprogs;
	/* tasks waiting on sleeping locks when read (a gauge, not a delta) */
	struct ls_waiter *waiting;
	size_t nwaiting, waiting_cap;
	uint64_t waiting_ns;   /* CLOCK_MONOTONIC right after they were read */
	struct ls_steal steal; /* hypervisor steal since start (a counter) */
	struct ls_budget_snap budget;
	/* --by cgroup: waits by lock and cgroup (cumulative, like rows) */
	struct ls_cgrow *cgrows;
	size_t ncgrows, cgrows_cap;
	int by_cgroup; /* collected --by cgroup: cgrows are meaningful */
	/* wait-for chains (chains.c; cumulative, like rows), sorted by
	 * ls_chain_cmp; chains_on: they were collected */
	struct ls_chainrow *chains;
	size_t nchains, chains_cap;
	int chains_on;
	/* --hold: the hold times of the rows that have them, by row key; a
	 * part of those rows (copied, saved and put back with them), not a
	 * list of the read */
	struct ls_holdtab holds;
	/* ls_snap_index: a hash of the keys to rows, kidx_cap slots (a power
	 * of two), valid while kidx_n == nrows; rows stay where they are */
	uint64_t *kidx;
	size_t kidx_n, kidx_cap;
	/* gen: which read of its collector filled it (they are numbered
	 * from 1); live: that collector, which may refresh its rows in place
	 * (NULL for deltas and folds).  A row of a live snapshot that changed
	 * at read n (ls_row.changed) held the same figures at every read of
	 * that collector since n: ls_snap_delta skips it when prev is a live
	 * snapshot of that collector read since. */
	uint64_t gen;
	const void *live;
	/* while a read refreshes this snapshot for an interval's delta made
	 * in place (ls_snap_delta_start): where rows go before they change */
	struct ls_snapshot *saving;
};

/* ---- the container (snapshot.c) --------------------------------------- */
void ls_snap_init(struct ls_snapshot *s);
void ls_snap_free(struct ls_snapshot *s);
/* Empty the rows and callers, keep allocations. */
void ls_snap_clear(struct ls_snapshot *s);
/* Empty everything but the rows: spin callers, waiting tasks, cgroup rows. */
void ls_snap_clear_lists(struct ls_snapshot *s);
int ls_snap_set_ncpus(struct ls_snapshot *s, unsigned ncpus);
/* Append a row for @key (zeroed stats); NULL on allocation failure. */
struct ls_row *ls_snap_add_row(struct ls_snapshot *s,
			       const struct ls_lock_key *key);
/* ---- finding rows (index.c) -------------------------------------------- */
/* Order of lock keys: address, then kind. */
int ls_key_cmp(const struct ls_lock_key *a, const struct ls_lock_key *b);
/* A hash of a lock key, every bit of it mixed. */
uint64_t ls_key_hash(const struct ls_lock_key *k);
/* Index the rows by key for ls_snap_find (rows are not moved). */
void ls_snap_index(struct ls_snapshot *s);
/* Index the row just appended, keeping a valid index valid (else the next
 * ls_snap_index builds it again). */
void ls_snap_index_last(struct ls_snapshot *s);
struct ls_row *ls_snap_find(const struct ls_snapshot *s,
			    const struct ls_lock_key *key);
/* Forget @row's callers and sampled holders: the collector reads them
 * again, whole, for a row whose lock changed. */
void ls_row_clear_sites(struct ls_row *row);
/* Add @samples for caller @fn to @row, keeping the top LS_ROW_CALLERS. */
void ls_row_add_caller(struct ls_row *row, const char *fn, uint64_t samples);
/* Add spin samples of @func attributed to caller @fn. */
int ls_snap_add_spin_caller(struct ls_snapshot *s, uint32_t func,
			    const char *fn, uint64_t samples);
/* Append a lock x cgroup row; -ENOMEM on allocation failure. */
int ls_snap_add_cgrow(struct ls_snapshot *s, const struct ls_cgrow *c);
/* Order of cgroup rows: lock key, role, cgroup id (qsort comparator). */
int ls_cgrow_cmp(const void *a, const void *b);
/* The cgroup rows of lock @k in @role (enum ls_cg_role; rows sorted by
 * ls_cgrow_cmp): how many, the first at *@first. */
size_t ls_snap_cgrows_of(const struct ls_snapshot *s,
			 const struct ls_lock_key *k, uint32_t role,
			 size_t *first);
/* The indices into s->cgrows of those rows, most wait time first (ties:
 * most waits, most begun, then path), at most @max of them in @idx;
 * returns how many, *@total the rows there are. */
size_t ls_cgrows_ranked(const struct ls_snapshot *s,
			const struct ls_lock_key *k, uint32_t role, size_t *idx,
			size_t max, size_t *total);
/* Append a waiting task; -ENOMEM on allocation failure. */
int ls_snap_add_waiter(struct ls_snapshot *s, const struct ls_waiter *w);
/* cpu-clock samples of @s: all of them, and those inside spin functions. */
uint64_t ls_snap_samples(const struct ls_snapshot *s);
uint64_t ls_snap_spin_samples(const struct ls_snapshot *s);
/* Deep copy @src into @dst (dst initialised). */
int ls_snap_copy(struct ls_snapshot *dst, const struct ls_snapshot *src);

/* ---- wait-for chains (chains.c) ---------------------------------------- */
/* Append a chain; -ENOMEM on allocation failure. */
int ls_snap_add_chain(struct ls_snapshot *s, const struct ls_chainrow *c);
/* Order of chains: lock key, next, root (qsort comparator). */
int ls_chain_cmp(const void *a, const void *b);
/* Each chain of @out (sorted) less the same chain in @prev (sorted); the
 * chains without a new wait are dropped. */
void ls_chains_delta(struct ls_snapshot *out, const struct ls_snapshot *prev);
/* The chains of lock @k summed into @sum. */
void ls_chains_sum(const struct ls_snapshot *s, const struct ls_lock_key *k,
		   struct ls_chain_sum *sum);
/* The indices into s->chains of lock @k's chains, most wait time first,
 * at most @max in @idx; returns how many, *@total the chains it has. */
size_t ls_chains_ranked(const struct ls_snapshot *s,
			const struct ls_lock_key *k, size_t *idx, size_t max,
			size_t *total);
/* Name each chain's next and root locks from the rows of @s (indexed):
 * a row's name ("mm_struct.mmap_lock"), else the kind and "@?" (the
 * address with @with_addr); the root site is the root lock's most sampled
 * holder site. */
void ls_chains_name(struct ls_snapshot *s, int with_addr);
/* Each row's chain_waits and chain_ns from @s's chains (sorted). */
void ls_chains_rows(struct ls_snapshot *s);
/* Chained waits in percent of the row's waits; -1 for a kind without an
 * owner word or a row without waits. */
double ls_row_chain_pct(const struct ls_row *r);
/* The state of the root lock's holder most of @c's waits saw. */
unsigned ls_chain_root_state(const struct ls_chainrow *c);
/* @c as one line into @buf, the waited lock named @lock:
 * "pipe_inode_info.mutex <- (holder waits on) mm_struct.mmap_lock <-
 * (holder running) do_mprotect_pkey"; hops between the next and the root
 * lock are "...", a cycle ends "<- (cycle)". */
const char *ls_chain_path(const struct ls_chainrow *c, const char *lock,
			  char *buf, size_t len);

/* ---- lock classes (fold.c) ------------------------------------------- */
/* --by class: fold the rows of one class and kind into one row named by
 * the class, row->instances the locks it stands for; its key is a hash of
 * the class (stable across snapshots).  0 or -ENOMEM (@s unchanged). */
int ls_snap_fold_class(struct ls_snapshot *s);
/* The address a class row of @cls (its first @n bytes) takes (never 0). */
uint64_t ls_class_key(const char *cls, size_t n);

/* ---- intervals (delta.c) ---------------------------------------------- */
/* @out = @cur with every row, counter and sample replaced by its increase
 * since @prev (rows absent from prev are new: their totals are the delta).
 * Rows without any change are dropped.  Peak waiters is the interval's
 * peak; max wait is the interval's longest wait when it set a new maximum,
 * else an upper bound from the histogram (row->max_bound set). */
int ls_snap_delta(const struct ls_snapshot *cur, const struct ls_snapshot *prev,
		  struct ls_snapshot *out);
/*
 * The same delta made in place, for a snapshot that one collector reads
 * again and again: an interval then holds its changed rows twice, not every
 * row.  ls_snap_delta_start(@d, @s) before a read of @s gives @d the
 * figures of @s but its rows; during the read, ls_snap_save_row(@s, @row)
 * puts each row into @d before the read changes it (once per read); after
 * the read, ls_snap_delta_finish(@d, @s) turns @d into what
 * ls_snap_delta(@s, @s before the read, @d) would make.  A snapshot read
 * whole (not live: --by class, or a failed read) is copied whole at the
 * start.  0 or -ENOMEM (@d is then empty).
 */
int ls_snap_delta_start(struct ls_snapshot *d, struct ls_snapshot *s);
int ls_snap_save_row(struct ls_snapshot *s,
		     struct ls_row *row); /* snapshot.c */
int ls_snap_delta_finish(struct ls_snapshot *d, struct ls_snapshot *s);
/* After a failed read of @s: @s as it was before the read (from @d, which
 * ends empty), so that the last good read stands; 0, or -ENOMEM with @s
 * empty and not live (the next read reads it whole). */
int ls_snap_delta_abort(struct ls_snapshot *d, struct ls_snapshot *s);

/* ---- per-row figures (sort.c) ------------------------------------------ */
uint64_t ls_row_avg_ns(const struct ls_row *r);
uint64_t ls_row_min_ns(const struct ls_row *r); /* 0 when no waits */
/* Spin phases that won the lock, in percent of spin phases (-1: none). */
double ls_row_spin_won_pct(const struct ls_row *r);
const char *ls_row_top_caller(const struct ls_row *r); /* "" if unknown */

/* ---- sorting and filtering (sort.c) ------------------------------------ */
enum ls_sort {
	LS_SORT_TOTAL = 0, /* total wait */
	LS_SORT_COUNT,	   /* contentions */
	LS_SORT_SPIN,
	LS_SORT_SLEEP,
	LS_SORT_AVG,
	LS_SORT_MAX_WAIT,
	LS_SORT_WAITERS,
	LS_SORT_PEAK,
	LS_SORT_NAME,
	LS_SORT_KIND,
	LS_SORT_WON,	/* spin-won percent */
	LS_SORT_CALLER, /* top caller's name */
	LS_SORT_PRE,	/* preempted-holder percent */
	LS_SORT_BLK,	/* blocked-holder (chained waits) percent */
	LS_SORT_NR,
};
int ls_sort_parse(const char *s, enum ls_sort *out);
/* Sort, descending for numbers (ascending for name and kind) unless @reverse.
 */
void ls_rows_sort(struct ls_row *rows, size_t n, enum ls_sort key, int reverse);
/* The same order for an array of row pointers (the rows stay put). */
void ls_row_ptrs_sort(const struct ls_row **v, size_t n, enum ls_sort key,
		      int reverse);
/* The same order for the first @k rows only; the others follow them in no
 * order (top -b prints the first few of a big table). */
void ls_rows_sort_first(struct ls_row *rows, size_t n, enum ls_sort key,
			int reverse, size_t k);

struct ls_filter {
	uint32_t kind_mask; /* 1 << kind; 0 = all */
	const char *name;   /* substring of the name; NULL = all */
	uint64_t addr;	    /* exact lock address; 0 = all */
};
int ls_row_match(const struct ls_row *r, const struct ls_filter *f);
/* Drop rows that do not match, keeping order. */
void ls_snap_filter(struct ls_snapshot *s, const struct ls_filter *f);

/* ---- names of things (enum_names.c) ----------------------------------- */
const char *ls_kind_name(unsigned kind); /* "mutex", "rwsem:W", ... */
const char *ls_kind_base(unsigned kind); /* "mutex", "rwsem", ... */
/* Parse a kind name as printed (or its base: all sides); 0 or -EINVAL. */
int ls_kind_parse(const char *s, uint32_t *mask);
const char *ls_loss_name(unsigned loss);
/* What to raise when a full table lost events ("lock table full: raise
 * --max-locks"), the most important first; NULL if no table was full. */
const char *ls_loss_hint(const uint64_t loss[LS_LOSS_MAX]);
const char *ls_ctr_name(unsigned ctr);
const char *ls_known_name(unsigned known);
/* The type.field class of a recognised lock ("mm_struct.mmap_lock"). */
const char *ls_known_class(unsigned known);
/* @name as one snake_case word for metric keys and label values: lower
 * case, every run of other characters one '_', none at either end
 * ("skipped by kernel (nested)" -> "skipped_by_kernel_nested"). */
const char *ls_name_key(char *buf, size_t len, const char *name);

/* ---- hold times, --hold (hold.c) ------------------------------------- */
/* Put @st (the lock @k->addr held in mode @k->mode) into every row of that
 * address, whatever its kind; returns the rows it went to.  Call after
 * ls_snap_index().  A row's holds are kept only once one arrives. */
size_t ls_snap_add_hold(struct ls_snapshot *s, const struct ls_hold_key *k,
			const struct ls_hold_stats *st);
/* The hold times of the row of lock @k, by enum ls_hold_mode; NULL when it
 * has none (holdtab.c). */
const struct ls_hold_stats *ls_snap_hold(const struct ls_snapshot *s,
					 const struct ls_lock_key *k);
/* Drop the holds of rows that are gone (a read swept their locks); the
 * rows' index need not be valid (holdtab.c). */
void ls_snap_holds_prune(struct ls_snapshot *s);
/* @out = @cur minus @prev (NULL: @cur); the max since start stays. */
void ls_hold_delta(const struct ls_hold_stats *cur,
		   const struct ls_hold_stats *prev, struct ls_hold_stats *out);
/* @d plus @s (two locks of one class): counts and times add, the longest
 * stays. */
void ls_hold_add(struct ls_hold_stats *d, const struct ls_hold_stats *s);
uint64_t ls_hold_avg_ns(const struct ls_hold_stats *st); /* 0: no holds */
/* Upper bound in ns of the @pct percentile (0 < pct <= 100) of the hold
 * times, from the histogram: the top of the slot it falls in, never above
 * max_ns; 0 without holds. */
uint64_t ls_hold_pct_ns(const struct ls_hold_stats *st, double pct);
const char *ls_hold_mode_name(unsigned mode); /* "exclusive", "shared" */

/* ---- owner words (owner.c) -------------------------------------------- */
/* Decide who holds a lock of @kind from its owner and count words (as read
 * by owner.bpf.c); @task_ok says the task the owner word points to was
 * confirmed in /proc.  Fills o->state, o->nreaders and o->why. */
void ls_owner_decode(struct ls_owner *o, unsigned kind, uint64_t owner,
		     uint64_t count, int task_ok);

/* ---- the holder side (holder.c) --------------------------------------- */
const char *ls_holder_name(unsigned state); /* "running", "preempted", ... */
/* Add sampled tenure of holder site @holder_fn after which a waiter of
 * @waiter_fn (NULL: not sampled) took the lock, holder @tid. */
void ls_row_add_holder(struct ls_row *r, const char *holder_fn,
		       const char *waiter_fn, uint32_t tid, uint64_t tenure_ns,
		       uint64_t count);
/* Add row @s's sampled holder sites, pairs and tids to row @d's (a class
 * row: --by class). */
void ls_row_fold_holders(struct ls_row *d, const struct ls_row *s);
/* Waits whose holder was preempted, in percent of the lock's waits; -1 for
 * a kind without owner word or without waits. */
double ls_row_preempted_pct(const struct ls_row *r);
/* Handoff tenures counted (the tenure histogram's sum). */
uint64_t ls_row_tenures(const struct ls_row *r);

#endif
