// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include <linux/types.h>
#include "lockscope.h"
#include "model/mapmem.h"

#define GIB (1ULL << 30)
#define MIB (1ULL << 20)

static const struct ls_map_sizes defaults = {LS_DEF_MAX_LOCKS,
					     LS_DEF_MAX_TASKS,
					     LS_DEF_MAX_CALLERS,
					     LS_DEF_MAX_STACKS,
					     0,
					     0};

/* The kernel's formulas worked by hand for small maps. */
static void map_formulas(void **state)
{
	(void)state;
	/* 3 entries, 4-byte key, 12-byte value, 2 CPUs: elements of
	 * 48 + 8 + 16 bytes for 3 + 2 entries, 2 free-list pointers,
	 * 4 buckets of 16 */
	assert_int_equal(ls_mapmem_hash(3, 4, 12, 2), 72 * 5 + 8 * 2 + 16 * 4);
	/* 5 stacks of 128 bytes: bucket headers of 16, 8 pointers of 8 */
	assert_int_equal(ls_mapmem_stack(5, 128), 144 * 5 + 8 * 8);
	/* the lock table dominates; it grows linearly with --max-locks:
	 * rows of 1424 bytes (key, counters, histograms), page-aligned, a
	 * queue element of 4 bytes each, and hash entries of key -> row */
	assert_int_equal(sizeof(struct ls_lock_row), 1424);
	assert_int_equal(ls_mapmem_rows(3), 8192 + 4 * 4);
	assert_int_equal(ls_mapmem_rows(16777216),
			 16777216ULL * 1424 + 16777217ULL * 4);
	assert_true(ls_mapmem_hash(16777216, sizeof(struct ls_lock_key),
				   sizeof(__u32), 2) > GIB);
}

/* Each lock's identity (lock_ident) and its osq bail-outs' previous vCPU
 * (osq_vcpu) cost a hash entry each per --max-locks, its wait-for chains
 * (lock_chains) one per 4 locks,
 * plus a per-CPU scratch value and a per-CPU base. */
static void ident_counted(void **state)
{
	struct ls_map_sizes m = defaults;
	uint64_t a, b;

	(void)state;
	a = ls_mapmem_need(&m, 2);
	m.locks *= 2;
	b = ls_mapmem_need(&m, 2);
	assert_int_equal(
		b - a,
		ls_mapmem_hash(2 * LS_DEF_MAX_LOCKS, sizeof(struct ls_lock_key),
			       sizeof(__u32), 2) -
			ls_mapmem_hash(LS_DEF_MAX_LOCKS,
				       sizeof(struct ls_lock_key),
				       sizeof(__u32), 2) +
			ls_mapmem_hash(2 * LS_DEF_MAX_LOCKS,
				       sizeof(struct ls_lock_key),
				       sizeof(struct ls_lock_ident), 2) -
			ls_mapmem_hash(LS_DEF_MAX_LOCKS,
				       sizeof(struct ls_lock_key),
				       sizeof(struct ls_lock_ident), 2) +
			ls_mapmem_rows(2 * LS_DEF_MAX_LOCKS) -
			ls_mapmem_rows(LS_DEF_MAX_LOCKS) +
			ls_mapmem_hash(2 * LS_DEF_MAX_LOCKS,
				       sizeof(struct ls_lock_key),
				       sizeof(struct ls_osq_vcpu), 2) -
			ls_mapmem_hash(LS_DEF_MAX_LOCKS,
				       sizeof(struct ls_lock_key),
				       sizeof(struct ls_osq_vcpu), 2) +
			ls_mapmem_hash(LS_CHAIN_ENTRIES(2 * LS_DEF_MAX_LOCKS),
				       sizeof(struct ls_chain_key),
				       sizeof(struct ls_chain_val), 2) -
			ls_mapmem_hash(LS_CHAIN_ENTRIES(LS_DEF_MAX_LOCKS),
				       sizeof(struct ls_chain_key),
				       sizeof(struct ls_chain_val), 2));
	/* 16384 identities of 64 bytes: 2 MiB and a bit */
	assert_true(ls_mapmem_hash(LS_DEF_MAX_LOCKS, 16,
				   sizeof(struct ls_lock_ident), 2) > 2 * MIB);
}

static void defaults_fit(void **state)
{
	char why[256] = "";
	uint64_t need = ls_mapmem_need(&defaults, 2);

	(void)state;
	/* about 34 MiB on 2 CPUs (the holder side's histogram and sites and
	 * the lock identities included): fits in 10% of 1 GiB */
	assert_true(need > 28 * MIB && need < 40 * MIB);
	assert_int_equal(ls_mapmem_check(&defaults, 2, GIB, why, sizeof(why)),
			 0);
	assert_string_equal(why, "");
	/* more CPUs cost more: spare elements and per-CPU arrays */
	assert_true(ls_mapmem_need(&defaults, 64) > need);
	/* --hold adds hold_watch and hold_stats per lock, hold_tasks per task
	 */
	{
		struct ls_map_sizes h = defaults;

		h.hold = 1;
		assert_int_equal(
			ls_mapmem_need(&h, 2) - need,
			ls_mapmem_hash(LS_DEF_MAX_LOCKS, 8, 4, 2) +
				ls_mapmem_hash(LS_DEF_MAX_LOCKS, 16,
					       sizeof(struct ls_hold_stats),
					       2) +
				ls_mapmem_hash(LS_DEF_MAX_TASKS, 4,
					       sizeof(struct ls_holds), 2));
	}
	/* --by cgroup adds lock_cgroups, one entry per lock and cgroup */
	{
		struct ls_map_sizes g = defaults;

		g.cgroup = 1;
		assert_int_equal(ls_mapmem_need(&g, 2) - need,
				 ls_mapmem_hash(LS_DEF_MAX_LOCKS, 24, 32, 2));
	}
}

/* Without --max-locks the lock table doubles from the default while all
 * maps fit in 0.5% of MemAvailable, up to 131072 locks. */
static void auto_locks(void **state)
{
	struct ls_map_sizes m = defaults;
	uint32_t prev = 0;

	(void)state;
	assert_int_equal(ls_mapmem_auto_locks(&m, 2, 0), LS_DEF_MAX_LOCKS);
	assert_int_equal(ls_mapmem_auto_locks(&m, 2, 1 * GIB),
			 LS_DEF_MAX_LOCKS);
	assert_int_equal(ls_mapmem_auto_locks(&m, 2, 1024 * GIB),
			 LS_AUTO_MAX_LOCKS);
	for (uint64_t gib = 1; gib <= 64; gib *= 2) {
		uint32_t n = ls_mapmem_auto_locks(&m, 2, gib * GIB);

		m.locks = n;
		assert_true(n >= prev);
		assert_true((n & (n - 1)) == 0);
		if (n > LS_DEF_MAX_LOCKS) /* it fits, and twice would not */
			assert_true(ls_mapmem_need(&m, 2) <= gib * GIB / 200);
		m.locks = n * 2;
		if (n < LS_AUTO_MAX_LOCKS)
			assert_true(ls_mapmem_need(&m, 2) > gib * GIB / 200);
		prev = n;
	}
	/* the other maps count: --max-tasks as big leaves less room */
	m = defaults;
	m.tasks = 1U << 20;
	assert_true(ls_mapmem_auto_locks(&m, 2, 24 * GIB) <
		    ls_mapmem_auto_locks(&defaults, 2, 24 * GIB));
}

static void too_big_is_named(void **state)
{
	struct ls_map_sizes m = defaults;
	char why[256];

	(void)state;
	m.locks = 16777216; /* the largest the command line accepts */
	assert_int_equal(ls_mapmem_check(&m, 2, 24 * GIB, why, sizeof(why)),
			 -E2BIG);
	/* lock_rows 22.3 GiB (key, counters, histograms), lock_stats (key
	 * -> row) 1.4 GiB, lock_ident 2.3 GiB, osq_vcpu 1.5 GiB, lock_chains
	 * 0.75 GiB */
	assert_non_null(strstr(why, "--max-locks 16777216 preallocates 28.2"));
	assert_non_null(strstr(why, "GiB of kernel memory"));
	assert_non_null(
		strstr(why, "more than 10% of MemAvailable (24.0 GiB)"));
	/* the option that takes the most is the one named */
	m = defaults;
	m.tasks = 4000000;
	assert_int_equal(ls_mapmem_check(&m, 2, 4 * GIB, why, sizeof(why)),
			 -E2BIG);
	assert_non_null(strstr(why, "--max-tasks 4000000 "));
	/* the limit is 10%: just below fits, just above does not */
	m = defaults;
	/* (MemAvailable is taken in whole hundredths) */
	assert_int_equal(ls_mapmem_check(&m, 2,
					 (ls_mapmem_need(&m, 2) + 9) / 10 * 100,
					 why, sizeof(why)),
			 0);
	assert_int_equal(ls_mapmem_check(&m, 2,
					 ls_mapmem_need(&m, 2) * 10 - 1000, why,
					 sizeof(why)),
			 -E2BIG);
}

static void meminfo(void **state)
{
	static const char text[] = "MemTotal:       24683380 kB\n"
				   "MemFree:        23425296 kB\n"
				   "MemAvailable:   24275948 kB\n"
				   "Buffers:           12345 kB\n";
	uint64_t b = 0;

	(void)state;
	assert_int_equal(ls_meminfo_parse(text, sizeof(text) - 1, &b), 0);
	assert_int_equal(b, 24275948ULL * 1024);
	assert_int_equal(ls_meminfo_parse("MemTotal: 5 kB\n", 15, &b), -ENOENT);
	assert_int_equal(ls_meminfo_parse("MemAvailable: x kB\n", 19, &b),
			 -ENOENT);
	assert_int_equal(ls_meminfo_parse("MemAvailable: 5 MB\n", 19, &b),
			 -ENOENT);
	assert_int_equal(
		ls_meminfo_parse("MemAvailable: 99999999999999999999 kB\n", 38,
				 &b),
		-ENOENT);
	/* not NUL-terminated: the length bounds the parse */
	assert_int_equal(ls_meminfo_parse("MemAvailable: 7 kB", 18, &b), 0);
	assert_int_equal(b, 7 * 1024);
	assert_int_equal(ls_mem_available("/nonexistent/meminfo", &b), -ENOENT);
	/* the real file has the line (Linux 3.14 and later) */
	assert_int_equal(ls_mem_available("/proc/meminfo", &b), 0);
	assert_true(b > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(map_formulas),
		cmocka_unit_test(ident_counted),
		cmocka_unit_test(defaults_fit),
		cmocka_unit_test(auto_locks),
		cmocka_unit_test(too_big_is_named),
		cmocka_unit_test(meminfo),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
