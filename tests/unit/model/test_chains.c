// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Wait-for chains: the walk BPF runs (bpf/chain_walk.h, the same code) on
 * a synthetic state of tasks and locks, cycles and handoffs included; the
 * model's sums, ranks, intervals and the text and JSON a lock shows. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "export/chains_json.h"
#include "model/model.h"
#include "view/chains_text.h"

#define LS_CHAIN_FN static inline
#include "chain_walk.h"

/* The synthetic state: tasks 1..8, each waiting on at most one lock (a
 * task_state entry, or its blocker), locks 0x100.. each held by a task in
 * a state. */
#define NT 9
#define NL 8
struct world {
	uint64_t waits_on[NT]; /* task -> lock, 0: none */
	uint32_t wait_kind[NT];
	int via_blocker[NT];
	uint64_t holder[NL]; /* lock index -> task, 0: free */
	uint32_t state[NL];  /* its holder's state */
	unsigned reads;	     /* holder reads made: the walk is bounded */
};

static unsigned lock_ix(uint64_t lock)
{
	return (unsigned)((lock - 0x100) / 0x10) % NL;
}

static __u32 ls_chain_wait_of(void *env, __u64 task, __u64 *lock, __u32 *kind,
			      __u32 *tid)
{
	struct world *w = env;

	if (task >= NT || !w->waits_on[task])
		return 0;
	*lock = w->waits_on[task];
	*kind = w->wait_kind[task];
	*tid = (__u32)(1000 + task);
	return w->via_blocker[task] ? LS_CF_BLOCKER : LS_CF_OWN;
}

static __u32 ls_chain_holder_of(void *env, __u64 lock, __u32 kind, __u64 *task)
{
	struct world *w = env;
	unsigned i = lock_ix(lock);

	(void)kind;
	w->reads++;
	*task = w->holder[i];
	return w->holder[i] ? w->state[i] : LS_HOLDER_FREE;
}

#define L(i) (0x100ULL + 0x10ULL * (i))

static void walk(struct world *w, struct ls_wait *wt, uint64_t lock,
		 uint64_t holder)
{
	__u64 seen[LS_CHAIN_SEEN];

	memset(wt, 0xa5, sizeof(*wt)); /* stale fields from an older wait */
	wt->addr = lock;
	wt->kind = LS_KIND_MUTEX;
	wt->chain_depth = 0;
	ls_chain_walk(w, wt, holder, seen, ls_chain_wait_of,
		      ls_chain_holder_of);
}

/* pipe mutex L0 held by task 1, asleep waiting on mmap_lock L1 (a reader)
 * held by task 2, running: one hop, root L1, root holder running. */
static void one_hop(void **state)
{
	struct world w = {0};
	struct ls_wait wt;

	(void)state;
	w.waits_on[1] = L(1);
	w.wait_kind[1] = LS_KIND_RWSEM_R;
	w.holder[1] = 2;
	w.state[1] = LS_HOLDER_RUNNING;
	walk(&w, &wt, L(0), 1);
	assert_int_equal(wt.chain_depth, 1);
	assert_int_equal(wt.chain_next, L(1));
	assert_int_equal(wt.chain_root, L(1));
	assert_int_equal(wt.chain_tid, 1001);
	assert_int_equal(wt.chain_state, LS_HOLDER_RUNNING);
	assert_int_equal(wt.chain_flags, LS_CF_OWN);
	assert_int_equal(LS_CHAIN_NEXT_KIND(wt.chain_kinds), LS_KIND_RWSEM_R);
	assert_int_equal(LS_CHAIN_ROOT_KIND(wt.chain_kinds), LS_KIND_RWSEM_R);
}

/* a holder that waits on no lock: no chain, nothing else read */
static void no_wait_no_chain(void **state)
{
	struct world w = {0};
	struct ls_wait wt;

	(void)state;
	walk(&w, &wt, L(0), 1);
	assert_int_equal(wt.chain_depth, 0);
	assert_int_equal(w.reads, 0);
}

/* A's holder waits on B, B's on C, C's on A: a cycle, reported, the walk
 * stops after reading each lock's holder once. */
static void cycle_stops(void **state)
{
	struct world w = {0};
	struct ls_wait wt;

	(void)state;
	w.waits_on[1] = L(1); /* A = L0 held by 1, waiting on B */
	w.wait_kind[1] = LS_KIND_MUTEX;
	w.holder[1] = 2;
	w.state[1] = LS_HOLDER_SLEEPING;
	w.waits_on[2] = L(2); /* B held by 2, waiting on C */
	w.wait_kind[2] = LS_KIND_MUTEX;
	w.via_blocker[2] = 1;
	w.holder[2] = 3;
	w.state[2] = LS_HOLDER_SLEEPING;
	w.waits_on[3] = L(0); /* C held by 3, waiting on A */
	w.wait_kind[3] = LS_KIND_MUTEX;
	walk(&w, &wt, L(0), 1);
	assert_true(wt.chain_flags & LS_CF_CYCLE);
	assert_false(wt.chain_flags & LS_CF_CAPPED);
	assert_int_equal(wt.chain_flags & (LS_CF_OWN | LS_CF_BLOCKER),
			 LS_CF_OWN | LS_CF_BLOCKER);
	assert_int_equal(wt.chain_depth, 3);
	assert_int_equal(wt.chain_next, L(1));
	assert_int_equal(wt.chain_root, L(0)); /* the lock met again */
	assert_int_equal(w.reads, 2);
	assert_true(wt.chain_depth <= LS_CHAIN_DEPTH);
}

/* two locks whose holders wait on each other */
static void two_lock_cycle(void **state)
{
	struct world w = {0};
	struct ls_wait wt;

	(void)state;
	w.waits_on[1] = L(1);
	w.holder[1] = 2;
	w.state[1] = LS_HOLDER_SLEEPING;
	w.waits_on[2] = L(0);
	walk(&w, &wt, L(0), 1);
	assert_true(wt.chain_flags & LS_CF_CYCLE);
	assert_int_equal(wt.chain_depth, 2);
	assert_int_equal(wt.chain_root, L(0));
}

/* a holder named by the owner word while still waiting on that very lock
 * is being handed it: no chain, no cycle */
static void handoff_is_no_cycle(void **state)
{
	struct world w = {0};
	struct ls_wait wt;

	(void)state;
	w.waits_on[1] = L(0);
	walk(&w, &wt, L(0), 1);
	assert_int_equal(wt.chain_depth, 0);
	/* ... and further down the chain it ends the chain there */
	w.waits_on[1] = L(1);
	w.holder[1] = 2;
	w.state[1] = LS_HOLDER_PREEMPTED;
	w.waits_on[2] = L(1);
	walk(&w, &wt, L(0), 1);
	assert_int_equal(wt.chain_depth, 1);
	assert_false(wt.chain_flags & LS_CF_CYCLE);
	assert_int_equal(wt.chain_state, LS_HOLDER_PREEMPTED);
}

/* a chain longer than the bound: LS_CHAIN_DEPTH hops, flagged capped */
static void depth_capped(void **state)
{
	struct world w = {0};
	struct ls_wait wt;

	(void)state;
	for (unsigned t = 1; t < NT - 1; t++) {
		w.waits_on[t] = L(t);
		w.holder[t] = t + 1;
		w.state[t] = LS_HOLDER_SLEEPING;
	}
	walk(&w, &wt, L(0), 1);
	assert_int_equal(wt.chain_depth, LS_CHAIN_DEPTH);
	assert_true(wt.chain_flags & LS_CF_CAPPED);
	assert_false(wt.chain_flags & LS_CF_CYCLE);
	assert_int_equal(wt.chain_root, L(LS_CHAIN_DEPTH));
	assert_int_equal(w.reads, LS_CHAIN_DEPTH);
}

static void blocker_decode(void **state)
{
	(void)state;
	assert_int_equal(ls_blocker_kind(0xffff888800001000ULL | 0),
			 LS_KIND_MUTEX);
	assert_int_equal(ls_blocker_kind(0xffff888800001000ULL | 1),
			 LS_KIND_SEMAPHORE);
	assert_int_equal(ls_blocker_kind(0xffff888800001000ULL | 2),
			 LS_KIND_RWSEM_R);
	assert_int_equal(ls_blocker_kind(0xffff888800001000ULL | 3),
			 LS_KIND_RWSEM_W);
	assert_true(ls_chain_follows(LS_HOLDER_SLEEPING));
	assert_true(ls_chain_follows(LS_HOLDER_PREEMPTED));
	assert_false(ls_chain_follows(LS_HOLDER_RUNNING));
	assert_false(ls_chain_follows(LS_HOLDER_VCPU_PREEMPTED));
	assert_false(ls_chain_follows(LS_HOLDER_UNKNOWN));
	assert_false(ls_chain_follows(LS_HOLDER_FREE));
}

/* ---- the model and its outputs ---------------------------------------- */

static void add_lock(struct ls_snapshot *s, uint64_t addr, unsigned kind,
		     const char *name, uint64_t waits, uint64_t ns)
{
	struct ls_lock_key k = {.addr = addr, .kind = kind};
	struct ls_row *r = ls_snap_add_row(s, &k);

	snprintf(r->name, sizeof(r->name), "%s", name);
	r->st.contentions = waits;
	r->st.total_ns = ns;
}

static void add_chain(struct ls_snapshot *s, uint64_t lock, uint64_t next,
		      uint64_t root, uint64_t waits, uint64_t ns,
		      uint64_t cycles)
{
	struct ls_chainrow c = {
		.key = {.addr = lock, .kind = LS_KIND_MUTEX},
		.next = {.addr = next, .kind = LS_KIND_RWSEM_R},
		.root = {.addr = root, .kind = LS_KIND_RWSEM_R}};

	c.v.waits = waits;
	c.v.wait_ns = ns;
	c.v.cycles = cycles;
	c.v.max_depth = next == root ? 1 : 3;
	c.v.root_waits[LS_HOLDER_RUNNING] = waits;
	c.v.tid = 77;
	c.v.flags = LS_CF_OWN;
	assert_int_equal(ls_snap_add_chain(s, &c), 0);
}

static void world_snap(struct ls_snapshot *s)
{
	ls_snap_init(s);
	s->chains_on = 1;
	add_lock(s, 0x1000, LS_KIND_MUTEX, "pipe_inode_info.mutex", 100,
		 3000000);
	add_lock(s, 0x2000, LS_KIND_RWSEM_R, "mm_struct.mmap_lock", 10, 500);
	add_chain(s, 0x1000, 0x2000, 0x2000, 20, 600000, 0);
	add_chain(s, 0x1000, 0x2000, 0x3000, 5, 900000, 0);
	add_chain(s, 0x1000, 0x4000, 0x1000, 1, 10, 1);
	qsort(s->chains, s->nchains, sizeof(*s->chains), ls_chain_cmp);
	ls_snap_index(s);
	ls_chains_name(s, 0);
}

static void sums_and_ranks(void **state)
{
	struct ls_snapshot s;
	struct ls_lock_key k = {.addr = 0x1000, .kind = LS_KIND_MUTEX};
	struct ls_chain_sum sum;
	size_t idx[2], total, n;

	(void)state;
	world_snap(&s);
	ls_chains_sum(&s, &k, &sum);
	assert_int_equal(sum.waits, 26);
	assert_int_equal(sum.wait_ns, 1500010);
	assert_int_equal(sum.cycles, 1);
	assert_int_equal(sum.nchains, 3);
	/* the row's own figures (top's BLK% column, its sort key) */
	assert_int_equal(s.rows[0].chain_waits, 26);
	assert_int_equal(s.rows[0].chain_ns, 1500010);
	assert_true(ls_row_chain_pct(&s.rows[0]) == 26.0);
	assert_true(ls_row_chain_pct(&s.rows[1]) == 0.0);
	/* the cycle first (loud), then most wait time; at most 2 */
	n = ls_chains_ranked(&s, &k, idx, 2, &total);
	assert_int_equal(n, 2);
	assert_int_equal(total, 3);
	assert_true(s.chains[idx[0]].v.cycles == 1);
	assert_int_equal(s.chains[idx[1]].v.wait_ns, 900000);
	/* names from the rows; a lock without a row: its kind, no address */
	assert_string_equal(s.chains[idx[1]].next_name, "mm_struct.mmap_lock");
	assert_string_equal(s.chains[idx[1]].root_name, "rwsem@?");
	ls_snap_free(&s);
}

static void interval(void **state)
{
	struct ls_snapshot a, b, d;

	(void)state;
	world_snap(&a);
	world_snap(&b);
	b.chains[1].v.waits += 3; /* one chain moved, the others did not */
	b.chains[1].v.wait_ns += 30;
	ls_snap_init(&d);
	assert_int_equal(ls_snap_delta(&b, &a, &d), 0);
	assert_int_equal(d.nchains, 1);
	assert_int_equal(d.chains[0].v.waits, 3);
	assert_int_equal(d.chains[0].v.wait_ns, 30);
	ls_snap_free(&a);
	ls_snap_free(&b);
	ls_snap_free(&d);
}

static void text_and_json(void **state)
{
	struct ls_snapshot s;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct json_object *o, *a, *c0, *v;

	(void)state;
	world_snap(&s);
	ls_print_chains(f, &s, &s.rows[0]);
	fclose(f);
	assert_non_null(strstr(buf, "holder waiting on another lock: 26.0% "
				    "of waits, 50.0% of wait time"));
	assert_non_null(strstr(buf, "!! CYCLE: 1 waits"));
	assert_non_null(strstr(buf, "pipe_inode_info.mutex <- (holder waits "
				    "on) mm_struct.mmap_lock <- ... <- "
				    "(holder waits on) rwsem@? <- (holder "
				    "running)"));
	free(buf);
	o = ls_chains_to_json(&s, &s.rows[0], 0);
	assert_true(json_object_object_get_ex(o, "waits", &v));
	assert_int_equal(json_object_get_uint64(v), 26);
	assert_true(json_object_object_get_ex(o, "chains", &a));
	assert_int_equal(json_object_array_length(a), 3);
	c0 = json_object_array_get_idx(a, 0);
	assert_true(json_object_object_get_ex(c0, "cycles", &v));
	assert_int_equal(json_object_get_uint64(v), 1);
	json_object_put(o);
	/* a lock without chains: an empty block, no text */
	buf = NULL;
	f = open_memstream(&buf, &len);
	ls_print_chains(f, &s, &s.rows[1]);
	fclose(f);
	assert_int_equal(len, 0);
	free(buf);
	/* chains not collected: JSON null */
	s.chains_on = 0;
	assert_null(ls_chains_to_json(&s, &s.rows[0], 0));
	ls_snap_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(one_hop),
		cmocka_unit_test(no_wait_no_chain),
		cmocka_unit_test(cycle_stops),
		cmocka_unit_test(two_lock_cycle),
		cmocka_unit_test(handoff_is_no_cycle),
		cmocka_unit_test(depth_capped),
		cmocka_unit_test(blocker_decode),
		cmocka_unit_test(sums_and_ranks),
		cmocka_unit_test(interval),
		cmocka_unit_test(text_and_json),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
