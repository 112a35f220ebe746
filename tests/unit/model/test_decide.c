// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The decisions the BPF programs make (bpf/decide.h), run here as the same
 * code: histogram slots, kinds from contention flags, owner words, holder
 * states. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <linux/types.h>
#include "lockscope.h"
#include "decide.h"

#define TASK 0xffff888812345600ULL /* a task_struct address */

static void hist_slot(void **state)
{
	(void)state;
	assert_int_equal(ls_hist_slot(0), 0);
	assert_int_equal(ls_hist_slot(1), 0);
	/* each power of two opens its slot; the one below closes the last */
	for (unsigned i = 1; i < LS_HIST_SLOTS; i++) {
		assert_int_equal(ls_hist_slot(1ULL << i), i);
		assert_int_equal(ls_hist_slot((1ULL << i) - 1), i - 1);
		assert_int_equal(ls_hist_slot((1ULL << i) + 1), i);
	}
	/* the last slot is open: every larger value lands there */
	assert_int_equal(ls_hist_slot(1ULL << 40), LS_HIST_SLOTS - 1);
	assert_int_equal(ls_hist_slot(~0ULL), LS_HIST_SLOTS - 1);
}

static void kind_of_flags(void **state)
{
	(void)state;
	/* what the kernel's locking code passes to contention_begin */
	assert_int_equal(ls_kind_of_flags(LS_LCB_SPIN), LS_KIND_SPINLOCK);
	assert_int_equal(ls_kind_of_flags(LS_LCB_SPIN | LS_LCB_READ),
			 LS_KIND_RWLOCK_R);
	assert_int_equal(ls_kind_of_flags(LS_LCB_SPIN | LS_LCB_WRITE),
			 LS_KIND_RWLOCK_W);
	/* a mutex's optimistic spin phase is still a mutex */
	assert_int_equal(ls_kind_of_flags(LS_LCB_MUTEX | LS_LCB_SPIN),
			 LS_KIND_MUTEX);
	assert_int_equal(ls_kind_of_flags(LS_LCB_MUTEX), LS_KIND_MUTEX);
	assert_int_equal(ls_kind_of_flags(LS_LCB_READ), LS_KIND_RWSEM_R);
	assert_int_equal(ls_kind_of_flags(LS_LCB_WRITE), LS_KIND_RWSEM_W);
	assert_int_equal(ls_kind_of_flags(0), LS_KIND_SEMAPHORE);
	assert_int_equal(ls_kind_of_flags(LS_LCB_RT), LS_KIND_RT_MUTEX);
	assert_int_equal(ls_kind_of_flags(LS_LCB_RT | LS_LCB_READ),
			 LS_KIND_RTLOCK_R);
	assert_int_equal(ls_kind_of_flags(LS_LCB_RT | LS_LCB_WRITE),
			 LS_KIND_RTLOCK_W);
	assert_int_equal(ls_kind_of_flags(LS_LCB_PERCPU | LS_LCB_READ),
			 LS_KIND_PCPU_RWSEM_R);
	assert_int_equal(ls_kind_of_flags(LS_LCB_PERCPU | LS_LCB_WRITE),
			 LS_KIND_PCPU_RWSEM_W);
	/* every flag combination names a real kind */
	for (unsigned f = 0; f < 64; f++) {
		__u32 k = ls_kind_of_flags(f);

		assert_true(k > LS_KIND_UNKNOWN && k < LS_KIND_MAX);
	}
}

static void owner_words(void **state)
{
	__u32 none = LS_HOLDER_MAX;

	(void)state;
	assert_true(ls_kind_has_owner(LS_KIND_MUTEX));
	assert_true(ls_kind_has_owner(LS_KIND_RWSEM_R));
	assert_true(ls_kind_has_owner(LS_KIND_RWSEM_W));
	assert_true(ls_kind_has_owner(LS_KIND_RT_MUTEX));
	assert_false(ls_kind_has_owner(LS_KIND_SPINLOCK));
	assert_false(ls_kind_has_owner(LS_KIND_RWLOCK_W));
	assert_false(ls_kind_has_owner(LS_KIND_SEMAPHORE));
	/* mutex: the low 3 bits are flags, the rest the owner task */
	assert_true(ls_owner_task(LS_KIND_MUTEX, TASK | 0x5, &none) == TASK);
	assert_int_equal(ls_owner_task(LS_KIND_MUTEX, 0x7, &none), 0);
	assert_int_equal(none, LS_HOLDER_FREE);
	/* rwsem: reader-owned names the last reader only: unknown */
	assert_int_equal(ls_owner_task(LS_KIND_RWSEM_W,
				       TASK | LS_RWSEM_READER_OWNED, &none),
			 0);
	assert_int_equal(none, LS_HOLDER_UNKNOWN);
	assert_int_equal(
		ls_owner_task(LS_KIND_RWSEM_R, LS_RWSEM_READER_OWNED, &none),
		0);
	assert_int_equal(none, LS_HOLDER_UNKNOWN);
	/* its non-spinnable bit (2) is only a flag */
	assert_true(ls_owner_task(LS_KIND_RWSEM_W, TASK | 0x2, &none) == TASK);
	assert_int_equal(ls_owner_task(LS_KIND_RWSEM_W, 0, &none), 0);
	assert_int_equal(none, LS_HOLDER_FREE);
	/* rt_mutex: bit 0 says it has waiters, not that readers own it */
	assert_true(ls_owner_task(LS_KIND_RT_MUTEX, TASK | 0x1, &none) == TASK);
	assert_int_equal(ls_owner_task(LS_KIND_RT_MUTEX, 0x1, &none), 0);
	assert_int_equal(none, LS_HOLDER_FREE);
	assert_true(ls_owner_addr(TASK | LS_OWNER_FLAGS) == TASK);
}

static void holder_states(void **state)
{
	(void)state;
	assert_int_equal(ls_holder_of_task(1, 1, 0), LS_HOLDER_RUNNING);
	assert_int_equal(ls_holder_of_task(1, 0, 0), LS_HOLDER_RUNNING);
	assert_int_equal(ls_holder_of_task(0, 1, 0), LS_HOLDER_PREEMPTED);
	assert_int_equal(ls_holder_of_task(0, 0, 0), LS_HOLDER_SLEEPING);
	/* queued but its dequeue delayed: it blocked */
	assert_int_equal(ls_holder_of_task(0, 1, 1), LS_HOLDER_SLEEPING);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(hist_slot),
		cmocka_unit_test(kind_of_flags),
		cmocka_unit_test(owner_words),
		cmocka_unit_test(holder_states),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
