/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * lockscope.h - the one contract between the BPF object and user space.
 *
 * Every type, limit, enum and flag shared by bpf/lockscope.bpf.c and user/
 * lives here and only here.  Fixed-width fields only: no pointers, no long,
 * no bool, so the layout is the same for the BPF target and the host.
 * The kernel's own constants that lockscope mirrors are in kernel_abi.h,
 * the decisions BPF makes from them in decide.h.
 */
#ifndef LOCKSCOPE_H
#define LOCKSCOPE_H

/* ---- limits ---------------------------------------------------------- */

#define LS_HIST_SLOTS 32  /* log2(ns) buckets: [2^i, 2^(i+1)) ns, last open */
#define LS_DEPTH 4	  /* nested waits tracked per task and per CPU */
#define LS_STACK_DEPTH 16 /* frames kept per sampled stack */
/* spin-function address ranges for the sampler */
#define LS_MAX_SPIN_RANGES 32
#define LS_DEF_MAX_LOCKS 16384	 /* default entries in lock_stats */
#define LS_DEF_MAX_TASKS 8192	 /* default entries in task_state */
#define LS_DEF_MAX_CALLERS 16384 /* default entries in lock_callers */
#define LS_DEF_MAX_STACKS 8192	 /* default entries in the stack map */
/* sample a caller stack every Nth contention */
#define LS_DEF_STACK_EVERY 256

/* ---- lock kinds, derived from the begin flags ------------------------- */

enum ls_kind {
	LS_KIND_UNKNOWN = 0,
	LS_KIND_SPINLOCK,
	LS_KIND_RWLOCK_R,
	LS_KIND_RWLOCK_W,
	LS_KIND_MUTEX,
	LS_KIND_RWSEM_R,
	LS_KIND_RWSEM_W,
	LS_KIND_RT_MUTEX,
	LS_KIND_RTLOCK_R, /* PREEMPT_RT rwlock/rwsem read side (RT|READ) */
	LS_KIND_RTLOCK_W, /* PREEMPT_RT rwlock/rwsem write side (RT|WRITE) */
	LS_KIND_PCPU_RWSEM_R,
	LS_KIND_PCPU_RWSEM_W,
	LS_KIND_SEMAPHORE,
	LS_KIND_MAX,
};

/* Waits of these kinds never sleep: their in-flight record lives per CPU. */
#define LS_KIND_IS_SPINNING(k)                                                 \
	((k) == LS_KIND_SPINLOCK || (k) == LS_KIND_RWLOCK_R ||                 \
	 (k) == LS_KIND_RWLOCK_W)

/* Locks recognised in BPF by their address relative to the current task. */
enum ls_known {
	LS_KNOWN_NONE = 0,
	LS_KNOWN_MMAP_LOCK, /* &current->mm->mmap_lock (mmap_sem before 5.8) */
	LS_KNOWN_SIGLOCK,   /* &current->sighand->siglock */
	LS_KNOWN_MAX,
};

/* Phase of an in-flight wait. */
enum ls_phase {
	LS_PHASE_SPIN = 0, /* spinning: spinlocks, a mutex's MUTEX|SPIN phase */
	LS_PHASE_SLEEP = 1, /* blocked */
};

/*
 * State of the task holding the lock when a wait begins (bpf/holders.bpf.h),
 * read from the lock's owner word: only mutex, rwsem and rt_mutex have one.
 * A mutex's wait takes the state read at its first begin (MUTEX|SPIN), when
 * the waiter starts waiting; its second begin (going to sleep) reads nothing.
 */
enum ls_holder {
	LS_HOLDER_UNKNOWN = 0,	  /* no owner word (spinlocks...), reader-owned
				   * rwsem, or a read that failed */
	LS_HOLDER_RUNNING,	  /* owner task on a CPU (task->on_cpu) */
	LS_HOLDER_PREEMPTED,	  /* runnable, off CPU (on_rq, not on_cpu) */
	LS_HOLDER_SLEEPING,	  /* blocked with the lock held (neither) */
	LS_HOLDER_FREE,		  /* owner word 0: released just then (handoff
				   * race between the fast path and the begin) */
	LS_HOLDER_VCPU_PREEMPTED, /* on a CPU whose vCPU the hypervisor
				   * preempted (steal_time.preempted,
				   * bpf/vcpu.bpf.h) */
	LS_HOLDER_MAX,
};

/* ls_wait.hflags: what the owner word said at the wait's first begin. */
#define LS_HF_OWNER_READ (1U << 0)  /* the lock has an owner word, read */
#define LS_HF_SAME_HOLDER (1U << 1) /* it named the last contended holder */

/* holder_sites: a holder's stack id when it was not sampled. */
#define LS_SITE_UNSAMPLED (-1)

/* ---- losses: every event not fully recorded, by reason --------------- */

enum ls_loss {
	LS_LOSS_TASK_MAP_FULL = 0, /* begin dropped: task_state full */
	LS_LOSS_LOCK_MAP_FULL,	   /* wait not aggregated: lock_stats full */
	LS_LOSS_DEPTH,	       /* begin dropped: nesting deeper than LS_DEPTH */
	LS_LOSS_END_UNMATCHED, /* end without a begin seen (in flight at start)
				*/
	LS_LOSS_STACK,	       /* caller stack could not be taken */
	LS_LOSS_CALLER_MAP_FULL, /* caller sample dropped: lock_callers full */
	LS_LOSS_SAMPLE_MAP_FULL, /* spin sample's caller dropped: spin_callers
				    full */
	LS_LOSS_ORPHANED,	 /* wait left open under a later one's end */
	LS_LOSS_PROBE_NESTED,	 /* slow path entered while one was open */
	LS_LOSS_OSQ_OUTER, /* osq_lock() call whose outer lock is unknown */
	LS_LOSS_RECURSION, /* program runs the kernel skipped (nested on one
			    * CPU); filled by user space from bpf_prog_info */
	LS_LOSS_HOLDER_MAP_FULL, /* sampled tenure not kept by site:
				  * holder_sites full (counted unsampled) */
	LS_LOSS_IDENT_MAP_FULL,	 /* lock identity not kept: lock_ident full */
	/* --hold: acquire dropped, LS_HOLD_DEPTH watched locks already held */
	LS_LOSS_HOLD_DEPTH,
	/* --hold: hold_tasks or hold_stats full */
	LS_LOSS_HOLD_MAP_FULL,
	/* --hold: release of a watched lock whose acquire was not seen (held
	 * at start) */
	LS_LOSS_HOLD_UNMATCHED,
	/* lock not kept: every lock_rows row taken (rows of forgotten locks
	 * come back a read later); its waits count as LS_LOSS_LOCK_MAP_FULL */
	LS_LOSS_ROWS_FULL,
	/* --by cgroup: wait (or its holder) not attributed to a cgroup:
	 * lock_cgroups full, or the waiter changed cgroup while it waited */
	LS_LOSS_CGROUP_MAP_FULL,
	LS_LOSS_OSQ_MAP_FULL, /* osq bail-out's vCPU not counted: osq_vcpu full
			       */
	LS_LOSS_CHAIN_MAP_FULL, /* a wait's chain not credited: lock_chains
				 * full (the wait itself is counted) */
	LS_LOSS_MAX,
};

/* ---- plain event counters -------------------------------------------- */

enum ls_counter {
	LS_CTR_BEGIN = 0, /* contention_begin events seen (after pid filter) */
	LS_CTR_END,	  /* contention_end events seen (after pid filter) */
	LS_CTR_PHASE,	  /* second begins that turned a spin into a sleep */
	LS_CTR_RECORDED,  /* waits aggregated into lock_stats */
	LS_CTR_SAMPLES,	  /* cpu-clock samples taken */
	LS_CTR_SAMPLES_KERNEL, /* ... of which in kernel mode */
	LS_CTR_SAMPLES_SPIN,   /* ... of which inside a spin function */
	LS_CTR_STACKS,	       /* caller stacks taken at begin */
	LS_CTR_OSQ_CALLS,      /* osq_lock() calls seen by a function probe */
	LS_CTR_OSQ_BAILOUTS,   /* ... that returned false */
	LS_CTR_SLOW_CALLS,     /* slow-path calls seen by function probes */
	LS_CTR_HOLDER_STACKS,  /* holder stacks taken at contention_end */
	/* --hold: holds of watched locks measured */
	LS_CTR_HOLDS,
	/* running holders whose CPU's steal_time could not be read (its
	 * per-CPU base not learnt yet): left running */
	LS_CTR_VCPU_UNREAD,
	/* chains (bpf/chains.bpf.h): walks begun behind a holder not running,
	 * hops read from lockscope's own open waits, from task_struct.blocker
	 */
	LS_CTR_CHAIN_WALKS,
	LS_CTR_CHAIN_HOPS_OWN,
	LS_CTR_CHAIN_HOPS_BLOCKER,
	LS_CTR_MAX,
};

/* ---- maps ------------------------------------------------------------- */

/* lock_stats key: one row per lock address and kind. */
struct ls_lock_key {
	__u64 addr;
	__u32 kind; /* enum ls_kind */
	__u32 pad;
};

/*
 * One lock's counters, in its lock_rows row (ls_lock_row.st): shared by the
 * CPUs, updated with atomics (a per-CPU copy of this much state per lock
 * would cost ncpus times the memory).  Times in ns.
 */
struct ls_lock_stats {
	__u64 contentions; /* completed waits */
	__u64 total_ns;	   /* wait time, first begin to end */
	__u64 spin_ns;	   /* time in a SPIN phase */
	__u64 sleep_ns;	   /* time in a SLEEP phase */
	__u64 min_ns;	   /* ~0 until the first completed wait */
	__u64 max_ns;
	__u64 spin_won;	    /* mutex spin phases that ended holding the lock */
	__u64 spin_failed;  /* mutex spin phases that fell back to sleep */
	__u64 gave_up;	    /* waits that ended with ret < 0 */
	__u64 begins;	    /* waits started (first begins) */
	__s64 waiters;	    /* gauge: begins seen minus their ends */
	__u64 peak_waiters; /* max of the gauge during peak_epoch */
	__u64 peak_epoch;   /* user space's interval number for peak_waiters */
	__u64 peak_waiters_all; /* max of the gauge since start */
	__u32 known;		/* enum ls_known */
	__u32 slot;		/* its row in lock_rows */
	/* function probes (fentry/kprobe); zero where they are off */
	__u64 osq_ns; /* time inside osq_lock() for this lock */
	__u64 osq_calls;
	__u64 osq_bailouts; /* osq_lock() returned false */
	__s64 osq_spinners; /* gauge: tasks inside osq_lock() now */
	__u64 osq_peak;	    /* max of osq_spinners since start */
	__u64 slow_ns;	    /* slow-path function entry to exit */
	__u64 slow_calls;
	__u64 slow_untraced_ns; /* slow-path time outside tracepoint waits:
				 * the rwsem writer's optimistic spin */
	/*
	 * The holder side (bpf/holders.bpf.h).  Waits by the holder's state
	 * at their first begin: holder_waits[] sums to contentions (plus the
	 * rwsem writer spins only a slow-path probe saw, as unknown), and
	 * holder_ns[] to total_ns.  Tenure: from one successful end to the
	 * next on this lock while the second waiter waited, the first
	 * holder's time with others queued, handoff latency included (an
	 * upper bound).  tenure_ns = tenure summed over holder_sites +
	 * tenure_unsampled_ns + tenure_unseen_ns; ls_lock_hists.hist_tenure
	 * counts them.
	 */
	__u64 holder_waits[LS_HOLDER_MAX];
	__u64 holder_ns[LS_HOLDER_MAX];
	__u64 tenure_ns;
	__u64 tenure_unsampled_ns; /* holder's stack not sampled */
	__u64 tenure_unseen_ns;	   /* holder not seen taking it under
				    * contention (took it uncontended, or
				    * before the run) */
	/* handoff state (not totals): the last holder that took the lock
	 * under contention */
	__u64 handoff_ns;  /* its contention_end (ktime), 0: none yet */
	__u64 holder_task; /* its task_struct address: compared with owner
			    * words in BPF, never exported */
	__u64 holder_ends; /* successful ends: the holder-stack sampler */
	__s32 holder_site; /* its stack id, LS_SITE_UNSAMPLED if none */
	__u32 holder_tid;
	/*
	 * --budget (bpf/budget_rule.h): the times, histograms and holder
	 * states above are then sums over sampled waits, each weighted by the
	 * N it was sampled at (1 in N): unbiased estimates.  Their variance
	 * estimates (sum of w(w-1)x^2, x in LS_EST_UNIT_NS units, clamped at
	 * LS_EST_X_MAX) travel here.  All zero without --budget.
	 */
	__u64 sampled;	  /* waits timed (sampled) */
	__u64 est_weight; /* sum of their weights: the contentions' estimate */
	__u64 var_count;  /* sum of w(w-1): a count estimate's variance */
	__u64 var_total;  /* total_ns's variance, LS_EST_UNIT_NS^2 units */
	__u64 var_spin;	  /* spin_ns's */
	__u64 var_sleep;  /* sleep_ns's */
};

/* A lock's log2 histograms. */
struct ls_lock_hists {
	__u64 hist[LS_HIST_SLOTS];	  /* whole waits */
	__u64 hist_spin[LS_HIST_SLOTS];	  /* spin phases */
	__u64 hist_sleep[LS_HIST_SLOTS];  /* sleep phases */
	__u64 hist_tenure[LS_HIST_SLOTS]; /* holder tenures */
};

/*
 * lock_rows value: one lock's figures.  lock_rows is an mmapable array:
 * user space reads every row in place, without a system call or a walk of
 * a hash, and compares it with what it read before (only changed locks
 * cost it more).  lock_stats (hash: lock key -> row number) finds the row;
 * st.slot is the row's own number.  The key is written last when a lock
 * takes a row and cleared by user space when it forgets the lock: a row
 * without an address is free (bpf/rows.bpf.h).
 */
struct ls_lock_row {
	struct ls_lock_key key;
	struct ls_lock_stats st;
	struct ls_lock_hists hi;
};

#define LS_NO_SLOT 0xffffffffU /* no free row in lock_rows */

/* spare_slot value, per CPU: a row taken for an entry that was not made,
 * kept for the next one (as slot + 1; 0: none), and the rows this CPU
 * handed out (counted in the compat build only: user space maps rows up
 * to the highest, cpu + (taken - 1) * possible CPUs). */
struct ls_slot_cpu {
	__u32 spare;
	__u32 taken;
};

/* lock_callers key: sampled caller stacks of a lock. */
struct ls_caller_key {
	__u64 addr;
	__u32 kind;
	__s32 stack_id; /* in the stacks map */
};

/* lock_callers value: how often the stack was sampled, and the whole wait
 * time of those sampled waits (added at their ends): flame graph weights. */
struct ls_caller_val {
	__u64 count;
	__u64 wait_ns;
};

/* One in-flight wait. */
struct ls_wait {
	__u64 addr;
	__u64 start_ns; /* first begin */
	__u64 phase_ns; /* start of the current phase */
	__u32 kind;
	__u16 phase;  /* enum ls_phase */
	__u16 weight; /* --budget: the wait's weight N (sampled 1 in N), 0:
		       * not sampled (counted, not timed); 1 without budget */
	__u32 tid;    /* the waiter: per-CPU records of other tasks are stale */
	__u32 stack_ref; /* sampled caller stack: its id + 1; 0 if none */
	__u16 holder;	 /* enum ls_holder, read at the first begin */
	__u16 hflags;	 /* LS_HF_* */
	__u32 hstack;	 /* a spinlock's holder stack, taken at begin: id + 1 */
	/* its wait-for chain (bpf/chains.bpf.h), walked at the first begin
	 * behind a holder not running; chain_depth 0: none */
	__u64 chain_next; /* the lock the holder itself waited on */
	__u64 chain_root; /* the chain's last lock */
	__u32 chain_tid;  /* that holder's tid */
	__u8 chain_depth; /* hops followed, 1..LS_CHAIN_DEPTH */
	__u8 chain_flags; /* LS_CF_* */
	__u8 chain_state; /* enum ls_holder: the root lock's holder */
	__u8 chain_kinds; /* LS_CHAIN_KINDS(next kind, root kind) */
	/* the lock's row in lock_rows when the wait began, + 1 (0: none):
	 * the end finds its figures without a lock_stats look-up */
	__u32 row;
	__u32 pad0;
};

/* task_state value (key: __u32 tid) and cpu_state value. */
struct ls_waits {
	struct ls_wait w[LS_DEPTH];
	__u32 depth;
	__u32 tgid;
};

/*
 * holder_sites key: tenure of sampled holders, by the holder's stack (taken
 * at its own contention_end), the stack of the waiter that took the lock
 * after it (LS_SITE_UNSAMPLED if that end was not sampled) and the holder's
 * tid.  Value: struct ls_holder_val.
 */
struct ls_holder_key {
	__u64 addr;
	__u32 kind;
	__s32 holder_site;
	__s32 waiter_site;
	__u32 holder_tid;
};

struct ls_holder_val {
	__u64 tenure_ns;
	__u64 count;
};

/* Function probe targets. */
enum ls_target {
	LS_TGT_OSQ = 0, /* osq_lock(struct optimistic_spin_queue *) */
	LS_TGT_MUTEX,	/* __mutex_lock(struct mutex *, ...), any clone */
	LS_TGT_RWSEM_W, /* rwsem_down_write_slowpath(struct rw_semaphore *, ...)
			 */
	LS_TGT_RWSEM_R, /* rwsem_down_read_slowpath(struct rw_semaphore *, ...)
			 */
	LS_TGT_MAX,
};

/* What a slow-path function's return value says (gave-up waits). */
enum ls_ret_kind {
	LS_RET_NONE = 0, /* nothing (void, or not an error code) */
	LS_RET_INT,	 /* int: < 0 when the waiter gave up */
	LS_RET_ERRPTR,	 /* pointer: ERR_PTR(-EINTR) when it gave up */
};

/* probe_state value (key: __u32 tid): open function-probe calls. */
struct ls_probe_task {
	__u64 slow_lock; /* lock of the open slow path, 0 if none */
	__u64 slow_start;
	__u64 slow_tp_ns; /* tracepoint wait inside this slow-path call */
	__u32 slow_kind;
	__u32 osq_kind;	 /* kind of the outer lock of the open osq_lock() */
	__u64 osq_outer; /* outer lock address, 0 if unknown */
	__u64 osq_start; /* 0 if no osq_lock() open */
	/* probe-only rows: first sleep of the open slow path, 0 if none */
	__u64 sleep_start;
};

/* Spin-function address range, set by user space from kallsyms. */
struct ls_spin_range {
	__u64 start;
	__u64 end;  /* exclusive */
	__u32 func; /* index into user space's list of spin functions */
	__u32 pad;
};

/* spin_callers key: sampled stacks inside spin functions. Value: __u64. */
struct ls_spin_key {
	__u32 func;
	__s32 stack_id;
};

/* Per-CPU sample totals in spin_samples (array index = func). */
#define LS_SPIN_FUNC_OTHER LS_MAX_SPIN_RANGES	   /* kernel, not spinning */
#define LS_SPIN_FUNC_USER (LS_MAX_SPIN_RANGES + 1) /* user mode */
#define LS_SPIN_SLOTS (LS_MAX_SPIN_RANGES + 2)

/*
 * Owner of one lock, read on demand by the "syscall" program in owner.bpf.c
 * (run with BPF_PROG_TEST_RUN; nothing runs on the hot path).  Only the
 * kinds whose lock word names its owner: mutex, rwsem, rt_mutex.
 */
struct ls_owner_args {
	__u64 addr;    /* in: lock address, from contention_begin */
	__u32 kind;    /* in: enum ls_kind */
	__s32 err;     /* out: 0, or -errno of the first read that failed */
	__u64 owner;   /* out: the owner word as read (flag bits included) */
	__u64 count;   /* out: rwsem count word (readers, writer bit) */
	__u32 tid;     /* out: pid field of the task the owner word points to */
	__u32 tgid;    /* out: its tgid */
	char comm[16]; /* out: its comm */
};

/*
 * ---- lock identity (bpf/ident.bpf.h): what memory a lock lives in ------
 *
 * Filled once per lock, at its first contention_begin, into lock_ident
 * (keyed like lock_stats, bounded the same way; a full map is the loss
 * LS_LOSS_IDENT_MAP_FULL).  User space turns it into a type.field name
 * with BTF (user/collect/btf_names.c).  percpu_base[cpu] is the start of
 * that CPU's per-CPU area, learnt from its run queue: the current task's
 * se.cfs_rq->rq minus the BTF offset of `runqueues` (rodata
 * percpu_rq_off, set by user space; 0 leaves it off).
 */
#define LS_CACHE_NAME 32 /* slab cache name kept, truncated */
#define LS_MAX_CPUS 1024 /* percpu_base entries at most */
/* struct kvm_steal_time.preempted: the vCPU is preempted by the host
 * (KVM_VCPU_PREEMPTED, arch/x86/include/uapi/asm/kvm_para.h) */
#define LS_KVM_VCPU_PREEMPTED 0x1

enum ls_ident_src {
	LS_IDENT_NONE = 0,  /* not a slab object (or the cache is unknown) */
	LS_IDENT_SLAB,	    /* a slab object: the cache fields are filled */
	LS_IDENT_NO_KFUNC,  /* bpf_get_kmem_cache is absent on this kernel */
	LS_IDENT_NO_BTF_TP, /* raw_tp fallback: kfuncs cannot be called */
	LS_IDENT_MAX,
};

struct ls_lock_ident {
	char cache[LS_CACHE_NAME]; /* kmem_cache.name */
	__u32 size;		   /* object stride in the slab */
	__u32 object_size;	   /* the object without metadata */
	__u32 red_left_pad;	   /* red zone before each object */
	__u32 order;		   /* slab page order (kmem_cache.oo) */
	__u32 min_order;	   /* fallback slab order (kmem_cache.min) */
	__u32 src;		   /* enum ls_ident_src */
	__u32 cpu;		   /* CPU of the first contention */
	__s32 refcount;		   /* kmem_cache.refcount: caches merged into
				    * it, itself included (<= 1: alone) */
};

/* ---- hold times (--hold): probes on lock and unlock (bpf/hold.bpf.c) ---
 *
 * Separate object, loaded only with --hold.  The contention path adds each
 * lock to hold_watch when its lock_stats entry is created (its first
 * contention); the acquire/release probes ignore every other lock after
 * one hash lookup.  A hold runs from the acquire function's return to the
 * release function's entry, per task, in the mode the acquire gave.
 */
#define LS_HOLD_DEPTH 8 /* watched locks held at once by one task */

enum ls_hold_mode {
	LS_HOLD_EXCL = 0, /* mutex, rwsem writer: one holder at a time */
	LS_HOLD_SHARED,	  /* rwsem reader: holds overlap */
	LS_HOLD_MODES,
};

/* hold_stats key: one row per lock address and mode. */
struct ls_hold_key {
	__u64 addr;
	__u32 mode; /* enum ls_hold_mode */
	__u32 pad;
};

/* hold_stats value, updated with atomics.  Times in ns. */
struct ls_hold_stats {
	__u64 count;	/* completed holds */
	__u64 total_ns; /* summed hold time */
	__u64 max_ns;
	__u64 hist[LS_HIST_SLOTS]; /* log2 histogram of hold times */
};

/* One hold in flight. */
struct ls_held {
	__u64 addr;
	__u64 start_ns; /* acquire returned */
	__u32 mode;	/* enum ls_hold_mode */
	__u32 pad;
};

/* hold_tasks value (key: __u32 tid): watched locks the task holds. */
struct ls_holds {
	struct ls_held h[LS_HOLD_DEPTH];
	__u64 pending;	    /* kprobe mode: lock of the open acquire call */
	__u32 pending_mode; /* its mode */
	__u32 n;	    /* entries of h[] in use */
};

/*
 * ---- cgroups (bpf/cgroup.bpf.h): waits by the waiter's cgroup ----------
 *
 * With --by cgroup, each wait is also added to lock_cgroups under the
 * waiter's cgroup v2 id (bpf_get_current_cgroup_id: the kernfs id, which is
 * the cgroup directory's inode number).  The entry is created at the wait's
 * first begin and updated at its end, looked up with the id read again
 * (same task); a missing entry is the loss LS_LOSS_CGROUP_MAP_FULL.  The
 * holder's cgroup, where the owner word names the holder task (holders.bpf.h)
 * and --by cgroup is on, counts the wait begun under role LS_CG_HOLDER (only
 * begins: the holder is not known at the end).  With --cgroup, only tasks
 * in that cgroup or below it are seen at all (bpf_current_task_under_cgroup
 * on cgroup_sel, a one-slot cgroup array).
 */
#define LS_DEF_MAX_LOCK_CGROUPS 16384 /* default entries in lock_cgroups */

enum ls_cg_role {
	LS_CG_WAITER = 0, /* cgid: the waiter's cgroup */
	LS_CG_HOLDER,	  /* cgid: the holder's cgroup at the wait's begin */
	LS_CG_ROLES,
};

struct ls_cg_key {
	__u64 addr; /* lock address, as in ls_lock_key */
	__u64 cgid; /* cgroup v2 id */
	__u32 kind; /* enum ls_kind */
	__u32 role; /* enum ls_cg_role */
};

struct ls_cg_val {
	__u64 begins;  /* waits begun by (holder: under) this cgroup's tasks */
	__u64 waits;   /* ... completed (waiter role only) */
	__u64 wait_ns; /* their wait time, first begin to end (waiter) */
	__u64 max_ns;  /* the longest of them (waiter) */
};

_Static_assert(sizeof(struct ls_cg_key) == 24, "ls_cg_key layout");
_Static_assert(sizeof(struct ls_cg_val) == 32, "ls_cg_val layout");

/*
 * ---- whatif: delay injection (bpf/whatif.bpf.h, `lockscope whatif`) -----
 *
 * Loaded only for whatif (rodata whatif_on).  User space puts the keys of
 * the selected locks (at most LS_WIF_MAX_LOCKS) into wif_sel as their rows
 * appear, then arms one mode and one delay at a time through the bss
 * struct ls_wif_ctl.  Mode critical busy-waits delay_ns at each successful
 * contention_end of a selected lock (the new holder's critical section
 * grows); mode control burns the same delay at the lock's first
 * contention_begin of a wait (outside the critical section: the CPU cost
 * alone).  Every delay is refused, and counted by reason, when it would
 * exceed the cap, this CPU's budget for the current window, when user
 * space's heartbeat is older than LS_WIF_STALL_NS (stall watchdog), or in
 * NMI context (or when the context cannot be read).  Disarming (armed = 0)
 * is the kill switch; the links die with lockscope's file descriptors.
 * The decision itself is bpf/whatif_rule.h, shared with the unit tests.
 */
#define LS_WIF_MAX_LOCKS 8	      /* selected locks at most */
#define LS_WIF_CAP_NS 100000ULL	      /* one delay at most: 100 us */
#define LS_WIF_STALL_NS 1000000000ULL /* heartbeat older than this: off */
/* The budget is kept per CPU in 10 ms windows: a short window spreads
 * the delays it refuses evenly over a run (a 1 s window gave the first
 * quarter of each second every delay and the rest none). */
#define LS_WIF_WINDOW_NS 10000000ULL /* budget window, per CPU */
#define LS_WIF_WINDOWS_PER_S (1000000000ULL / LS_WIF_WINDOW_NS)
#define LS_WIF_DEF_BUDGET_NS 2500000ULL /* per CPU per window: 25% */
#define LS_WIF_MAX_BUDGET_NS 5000000ULL /* at most half of each CPU */
/* clock reads in one delay at most: 100 us at 12 ns a read (a shorter
 * delay on a faster clock is measured as injected, not assumed) */
#define LS_WIF_MAX_LOOPS 8192
/* preempt_count bits of NMI nesting (include/linux/preempt.h) */
#define LS_WIF_NMI_MASK 0x00f00000U

enum ls_wif_mode {
	LS_WIF_OFF = 0,	 /* count nothing, delay nothing */
	LS_WIF_CRITICAL, /* delay at a successful contention_end */
	LS_WIF_CONTROL,	 /* delay at a wait's first contention_begin */
	LS_WIF_MODES,
};

/* Why a delay was or was not injected (bpf/whatif_rule.h). */
enum ls_wif_verdict {
	LS_WIF_DELAY = 0,   /* injected */
	LS_WIF_NO_DELAY,    /* delay 0 (a zero-delay round): counted only */
	LS_WIF_REF_CAP,	    /* refused: above LS_WIF_CAP_NS */
	LS_WIF_REF_BUDGET,  /* refused: this CPU's budget spent */
	LS_WIF_REF_STALL,   /* refused: user space's heartbeat is stale */
	LS_WIF_REF_CONTEXT, /* refused: NMI, or the context unreadable */
	LS_WIF_VERDICTS,
};

/* The control word, in the object's bss: written by user space only. */
struct ls_wif_ctl {
	__u64 delay_ns;	 /* per delayed acquisition */
	__u64 budget_ns; /* injected ns per CPU per LS_WIF_WINDOW_NS */
	__u64 beat_ns;	 /* user space's heartbeat (CLOCK_MONOTONIC) */
	__u32 mode;	 /* enum ls_wif_mode */
	__u32 armed;	 /* the kill switch: 0 stops every delay at once */
};

/* wif_sel value (key: struct ls_lock_key): one selected lock's counts
 * while armed, in both modes; atomics. */
struct ls_wif_lock {
	__u64 ends;			/* successful contention_ends (contended
					 * acquisitions) */
	__u64 begins;			/* waits begun (first begins) */
	__u64 delayed;			/* delays injected */
	__u64 injected_ns;		/* their measured length */
	__u64 refused[LS_WIF_VERDICTS]; /* by verdict (DELAY, NO_DELAY: 0) */
};

/* wif_cpu value: this CPU's budget window. */
struct ls_wif_cpu {
	__u64 window; /* now / LS_WIF_WINDOW_NS of the window counted */
	__u64 used_ns;
};

_Static_assert(sizeof(struct ls_wif_ctl) == 32, "ls_wif_ctl layout");
_Static_assert(sizeof(struct ls_wif_lock) == (4 + LS_WIF_VERDICTS) * 8,
	       "ls_wif_lock layout");
_Static_assert(sizeof(struct ls_wif_cpu) == 16, "ls_wif_cpu layout");
_Static_assert(LS_WIF_CAP_NS < LS_WIF_MAX_BUDGET_NS &&
		       LS_WIF_DEF_BUDGET_NS <= LS_WIF_MAX_BUDGET_NS &&
		       LS_WIF_MAX_BUDGET_NS < LS_WIF_WINDOW_NS,
	       "whatif budget limits");

/*
 * ---- the cost budget (--budget PCT; bpf/budget.bpf.h, bpf/budget_rule.h) -
 *
 * Every contention is counted exactly; the rest of a wait (clock reads,
 * times, histograms, holder state, chains, caller stacks) is measured on
 * waits sampled per CPU with probability 1/N (Bernoulli, a per-CPU
 * xorshift), each weighted N.  Each CPU measures its own programs' cost on
 * one run in LS_BUDGET_PROBE_EVERY (two clock reads), splits it between
 * sampled and unsampled runs, and at the end of each LS_BUDGET_WINDOW_NS
 * picks the N that keeps the window's estimated cost under budget_ppm of
 * the CPU, within [1, LS_BUDGET_N_MAX].  The cost the programs cannot see
 * (dispatch, the tracepoint itself) is not in it: user space states the
 * factor against the kernel's run-time statistics (docs/budget.md).
 */
#define LS_BUDGET_N_MAX 1024		 /* sample 1 in N at most */
#define LS_BUDGET_WINDOW_NS 100000000ULL /* adaptation window, per CPU */
#define LS_BUDGET_PROBE_EVERY 64	 /* runs per self-measured run */
#define LS_BUDGET_COST_FRAC 16		 /* cost_u/cost_s: ns x 16 */
#define LS_BUDGET_PPM_MAX 1000000U	 /* --budget 100 */
/* over budget at the floor: sample until the cost is within 1/8 of it */
#define LS_BUDGET_FLOOR_SLACK 8ULL
#define LS_EST_UNIT_NS 256ULL /* unit of the variance sums */
#define LS_EST_UNIT_SHIFT 8
#define LS_EST_X_MAX (1ULL << 21) /* a wait counts at most 0.54 s there */

/* budget_cpu value: one CPU's sampler and cost meter (no atomics: only
 * that CPU's programs write it). */
struct ls_budget_cpu {
	__u64 win_start;     /* ktime of this window's start, 0: none yet */
	__u64 win_runs;	     /* program runs in this window */
	__u64 win_sruns;     /* ... of sampled waits */
	__u64 probe_ns[2];   /* this window's measured runs: [0] unsampled */
	__u64 probe_runs[2]; /* [1] sampled */
	__u64 runs;	     /* since start: every run */
	__u64 sruns;	     /* ... of sampled waits */
	__u64 cost_ns;	     /* since start: the windows' estimated cost */
	__u64 windows;	     /* windows closed */
	__u64 over;	     /* ... whose cost N_MAX could not keep in budget */
	__u64 thresh;	     /* sampled when the xorshift is below: 2^32/n */
	__u32 n;	     /* 1 in n, in force (0 before the first run) */
	__u32 rng;	     /* xorshift32 state, seeded from prandom */
	__u32 cost_u;	     /* ns per unsampled run, x LS_BUDGET_COST_FRAC */
	__u32 cost_s;	     /* ns per sampled run, same unit */
	__u32 probe_left;    /* runs until the next measured one */
	__u32 pad;
};

_Static_assert(sizeof(struct ls_budget_cpu) == 13 * 8 + 6 * 4,
	       "ls_budget_cpu layout");
_Static_assert(LS_BUDGET_N_MAX <= 0xffff, "ls_wait.weight is 16 bits");
_Static_assert(LS_EST_UNIT_NS == (1ULL << LS_EST_UNIT_SHIFT), "est unit");
/* one variance term, w(w-1)x^2, fits in 64 bits */
_Static_assert(LS_EST_X_MAX *LS_EST_X_MAX <=
		       ~0ULL / ((__u64)LS_BUDGET_N_MAX * LS_BUDGET_N_MAX),
	       "variance term overflow");

/* ---- what must hold --------------------------------------------------- */

/* Used as index masks (x & (N - 1)) to bound array accesses in BPF. */
_Static_assert((LS_DEPTH & (LS_DEPTH - 1)) == 0,
	       "LS_DEPTH must be a power of two");
_Static_assert((LS_HIST_SLOTS & (LS_HIST_SLOTS - 1)) == 0,
	       "LS_HIST_SLOTS must be a power of two");
/* The sampler's extra slots come after every spin function's index. */
_Static_assert(LS_SPIN_FUNC_OTHER >= LS_MAX_SPIN_RANGES &&
		       LS_SPIN_FUNC_USER < LS_SPIN_SLOTS,
	       "spin_samples slots overlap");
/* Same layout on both sides: no hidden padding, 8-byte multiples. */
_Static_assert(sizeof(struct ls_lock_key) == 16, "ls_lock_key layout");
_Static_assert(sizeof(struct ls_caller_key) == 16, "ls_caller_key layout");
_Static_assert(sizeof(struct ls_caller_val) == 16, "ls_caller_val layout");
_Static_assert(sizeof(struct ls_wait) == 80, "ls_wait layout");
_Static_assert(sizeof(struct ls_waits) == 8 + LS_DEPTH * 80, "ls_waits layout");
_Static_assert(sizeof(struct ls_probe_task) == 56, "ls_probe_task layout");
_Static_assert(sizeof(struct ls_spin_range) == 24, "ls_spin_range layout");
_Static_assert(sizeof(struct ls_spin_key) == 8, "ls_spin_key layout");
_Static_assert(sizeof(struct ls_owner_args) == 56, "ls_owner_args layout");
_Static_assert(sizeof(struct ls_lock_ident) == LS_CACHE_NAME + 32,
	       "ls_lock_ident layout");
_Static_assert((LS_HOLD_DEPTH & (LS_HOLD_DEPTH - 1)) == 0,
	       "LS_HOLD_DEPTH must be a power of two");
_Static_assert(sizeof(struct ls_hold_key) == 16, "ls_hold_key layout");
_Static_assert(sizeof(struct ls_hold_stats) == (3 + LS_HIST_SLOTS) * 8,
	       "ls_hold_stats layout");
_Static_assert(sizeof(struct ls_held) == 24, "ls_held layout");
_Static_assert(sizeof(struct ls_holds) == 16 + LS_HOLD_DEPTH * 24,
	       "ls_holds layout");
_Static_assert(sizeof(struct ls_lock_stats) ==
		       (23 + 2 * LS_HOLDER_MAX + 7 + 6) * 8,
	       "ls_lock_stats layout");
_Static_assert(sizeof(struct ls_lock_hists) == 4 * LS_HIST_SLOTS * 8,
	       "ls_lock_hists layout");
/* mmapped rows are indexed by sizeof: the kernel rounds values up to 8 */
_Static_assert(sizeof(struct ls_lock_row) % 8 == 0, "ls_lock_row layout");
_Static_assert(sizeof(struct ls_holder_key) == 24, "ls_holder_key layout");
_Static_assert(sizeof(struct ls_holder_val) == 16, "ls_holder_val layout");
_Static_assert(LS_HOLDER_MAX <= 0xffff, "ls_wait.holder is 16 bits");

/*
 * ---- osq_lock bail-outs and the previous vCPU (bpf/osq.bpf.h) ----------
 *
 * Per lock (osq_vcpu, keyed like lock_stats, as many entries; a full map
 * is LS_LOSS_OSQ_MAP_FULL): of its osq_lock() bail-outs (osq_bailouts in
 * ls_lock_stats), those whose previous node in the queue was read, and of
 * those the ones whose previous vCPU had steal_time.preempted set
 * (LS_KVM_VCPU_PREEMPTED; only counted where steal_time_off is set).
 */
struct ls_osq_vcpu {
	__u64 prev_read;      /* bail-outs whose previous node was read */
	__u64 prev_preempted; /* ... whose previous vCPU was preempted */
};
_Static_assert(sizeof(struct ls_osq_vcpu) == 16, "ls_osq_vcpu layout");

/*
 * ---- wait-for chains (bpf/chains.bpf.h, bpf/chain_walk.h) -------------
 *
 * At a wait's first begin, when the holder is not running (sleeping or
 * preempted), the chain is followed: the lock that holder itself waits on
 * (lockscope's own open wait of its tid in task_state first, else
 * task_struct.blocker where the kernel has it), that lock's holder and its
 * state, and so on for at most LS_CHAIN_DEPTH hops; a lock met twice is a
 * cycle (flagged, the walk stops).  The chain travels with the wait
 * (ls_wait.chain_*); its end adds the wait to lock_chains under (lock, the
 * lock its holder waited on, the chain's last lock).  A full map is the
 * loss LS_LOSS_CHAIN_MAP_FULL.
 */
#define LS_CHAIN_DEPTH 4 /* hops followed at most */
/* entries in lock_chains for a lock table of @locks */
#define LS_CHAIN_ENTRIES(locks) ((locks) / 4 > 64 ? (locks) / 4 : 64)
/* locks a walk keeps: the waited one and one per hop (a power of two for
 * the index mask) */
#define LS_CHAIN_SEEN 8
#define LS_CF_CYCLE (1U << 0) /* a lock met twice: a deadlock in the making */
#define LS_CF_CAPPED                                                           \
	(1U << 1)		/* LS_CHAIN_DEPTH hops, the last holder still  \
				 * not running */
#define LS_CF_OWN (1U << 2)	/* a hop came from lockscope's own waits */
#define LS_CF_BLOCKER (1U << 3) /* ... from task_struct.blocker */
/* ls_wait.chain_kinds and ls_chain_key's kinds: two enum ls_kind */
#define LS_CHAIN_KINDS(next, root) ((__u8)((next) | ((root) << 4)))
#define LS_CHAIN_NEXT_KIND(k) ((k)&0xf)
#define LS_CHAIN_ROOT_KIND(k) (((k) >> 4) & 0xf)

/* lock_chains key: the waited lock, the lock its holder waited on, the
 * chain's last lock (the root cause; == next for one hop). */
struct ls_chain_key {
	__u64 addr;
	__u64 next;
	__u64 root;
	__u32 kind;  /* enum ls_kind of addr */
	__u32 kinds; /* LS_CHAIN_KINDS(next's kind, root's kind) */
};

/* lock_chains value: the waits with that chain and their wait time (first
 * begin to end), by the state of the root lock's holder; the cycles and
 * the capped walks among them. */
struct ls_chain_val {
	__u64 waits;
	__u64 wait_ns;
	__u64 cycles; /* waits whose chain met a lock twice (LS_CF_CYCLE) */
	__u64 capped; /* waits whose walk stopped at LS_CHAIN_DEPTH */
	__u64 root_waits[LS_HOLDER_MAX];
	__u32 max_depth; /* hops, at most LS_CHAIN_DEPTH */
	__u32 flags;	 /* LS_CF_OWN, LS_CF_BLOCKER: the hops' sources seen */
	__u32 tid;	 /* the holder that waited on next, last seen */
	__u32 pad;
};

_Static_assert(LS_KIND_MAX <= 16, "chain kinds are 4 bits");
_Static_assert(LS_CHAIN_SEEN >= LS_CHAIN_DEPTH + 1 &&
		       !(LS_CHAIN_SEEN & (LS_CHAIN_SEEN - 1)),
	       "LS_CHAIN_SEEN holds a chain, a power of two");
_Static_assert(LS_HOLDER_MAX <= 0xff, "ls_wait.chain_state is 8 bits");
_Static_assert(LS_CHAIN_DEPTH <= 0xff, "ls_wait.chain_depth is 8 bits");
_Static_assert(sizeof(struct ls_chain_key) == 32, "ls_chain_key layout");
_Static_assert(sizeof(struct ls_chain_val) == 48 + 8 * LS_HOLDER_MAX,
	       "ls_chain_val layout");

#endif /* LOCKSCOPE_H */
