// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The alias table of merged slab caches and the rule that names a lock in
 * one: one member with a lock there, several, none, a kind mismatch,
 * members the table misses, generic members, cut names. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "model/model.h"
#include "model/slab_alias.h"

/* Struct layouts as BTF would give them: a lock of @kind at @off. */
static const struct {
	const char *type;
	uint64_t off;
	unsigned kind;
	const char *field;
} layout[] = {
	{"file_lock_context", 0, LS_KIND_SPINLOCK,
	 "file_lock_context.flc_lock"},
	{"unix_sock", 0x380, LS_KIND_SPINLOCK, "unix_sock.lock"},
	{"unix_sock", 0xbc, LS_KIND_SPINLOCK,
	 "unix_sock.sk.sk_receive_queue.lock"},
	{"signal_struct", 0x10, LS_KIND_SPINLOCK,
	 "signal_struct.wait_chldexit.lock"},
	{"damon_region", 0x8, LS_KIND_SPINLOCK, "damon_region.lock"},
	{"ftrace_event_field", 0x8, LS_KIND_MUTEX, "ftrace_event_field.m"},
	{"mem_cgroup_per_node", 0x98, LS_KIND_SPINLOCK,
	 "mem_cgroup_per_node.lruvec.lru_lock"},
	{"pool_workqueue", 0x0, LS_KIND_SPINLOCK, "pool_workqueue.pool.lock"},
	{"an_alias_whose_name_is_longer_than_31", 0x8, LS_KIND_SPINLOCK,
	 "an_alias_whose_name_is_longer_than_31.lock"},
};

static unsigned calls;

static int fake_field(void *ctx, const char *type, uint64_t off, unsigned kind,
		      char *out, size_t len)
{
	(void)ctx;
	calls++;
	for (size_t i = 0; i < sizeof(layout) / sizeof(*layout); i++)
		if (!strcmp(layout[i].type, type) && layout[i].off == off &&
		    layout[i].kind == kind) {
			snprintf(out, len, "%s", layout[i].field);
			return 0;
		}
	return -ENOENT;
}

/* This machine's listing, in directory order (not sorted). */
static void machine(struct ls_slab_aliases *a)
{
	static const char *const links[][2] = {
		{"xfs_extfree_intent", ":0000056"},
		{"UNIX", ":A-0001152"},
		{"ftrace_event_field", ":0000056"},
		{"pool_workqueue", ":0000512"},
		{"file_lock_ctx", ":0000056"},
		{"signal_cache", ":A-0001152"},
		{"mem_cgroup_per_node", ":0000512"},
		{"UNIX-STREAM", ":A-0001152"},
		{"sgpool-16", ":0000512"},
		{"Acpi-Parse", ":0000056"},
		{"task_struct", ":0009920"}, /* merged with nothing */
	};

	ls_slab_aliases_init(a);
	for (size_t i = 0; i < sizeof(links) / sizeof(*links); i++)
		assert_int_equal(
			ls_slab_aliases_add(a, links[i][0], links[i][1]), 0);
	ls_slab_aliases_done(a);
}

static enum ls_slab_verdict name(const struct ls_slab_aliases *a,
				 const char *cache, int refcount, uint64_t off,
				 unsigned kind, char *out, size_t len)
{
	return ls_slab_name(a, cache, refcount, off, kind, fake_field, NULL,
			    out, len);
}

/* The verdict and name of the lock of @kind at @off in @cache. */
static void expect(const struct ls_slab_aliases *a, const char *cache,
		   int refcount, uint64_t off, unsigned kind,
		   enum ls_slab_verdict v, const char *want)
{
	char out[LS_NAME_MAX];
	enum ls_slab_verdict got =
		name(a, cache, refcount, off, kind, out, sizeof(out));

	if (got != v || strcmp(out, want))
		fail_msg("%s+0x%llx (refcount %d, kind %u): verdict %d '%s', "
			 "wanted %d '%s'",
			 cache, (unsigned long long)off, refcount, kind, got,
			 out, v, want);
}

/* exactly one member's struct has a lock of the kind there: named */
static void one_alias(void **state)
{
	struct ls_slab_aliases a;

	(void)state;
	machine(&a);
	expect(&a, "ftrace_event_field", 4, 0, LS_KIND_SPINLOCK, LS_SLAB_NAMED,
	       "file_lock_context.flc_lock");
	expect(&a, "pool_workqueue", 3, 0x98, LS_KIND_SPINLOCK, LS_SLAB_NAMED,
	       "mem_cgroup_per_node.lruvec.lru_lock");
	/* two members (UNIX, UNIX-STREAM) give the same type.field: one */
	expect(&a, "signal_cache", 3, 0x380, LS_KIND_SPINLOCK, LS_SLAB_NAMED,
	       "unix_sock.lock");
	expect(&a, "signal_cache", 3, 0xbc, LS_KIND_SPINLOCK, LS_SLAB_NAMED,
	       "unix_sock.sk.sk_receive_queue.lock");
	/* the first member's own struct, when it alone has the lock */
	expect(&a, "signal_cache", 3, 0x10, LS_KIND_SPINLOCK, LS_SLAB_NAMED,
	       "signal_struct.wait_chldexit.lock");
	ls_slab_aliases_free(&a);
}

static void add(struct ls_slab_aliases *a, const char *name, const char *target)
{
	assert_int_equal(ls_slab_aliases_add(a, name, target), 0);
	ls_slab_aliases_done(a);
}

/* several members have one: every candidate, sorted, in any listing order */
static void several_aliases(void **state)
{
	static const char *const both =
		"{file_lock_context.flc_lock|pool_workqueue.pool.lock}";
	struct ls_slab_aliases a, b;
	char out[LS_NAME_MAX];

	(void)state;
	machine(&a);
	add(&a, "damon_region", ":0000056");
	expect(&a, "ftrace_event_field", 5, 0x8, LS_KIND_SPINLOCK,
	       LS_SLAB_NAMED, "damon_region.lock");
	ls_slab_aliases_init(&b);
	add(&b, "pool_workqueue", ":0000512");
	add(&b, "mem_cgroup_per_node", ":0000512");
	/* pool_workqueue.pool.lock at 0, nothing of mem_cgroup_per_node */
	expect(&b, "pool_workqueue", 2, 0, LS_KIND_SPINLOCK, LS_SLAB_NAMED,
	       "pool_workqueue.pool.lock");
	/* a second struct with a lock at 0 makes it ambiguous */
	add(&b, "file_lock_ctx", ":0000512");
	expect(&b, "pool_workqueue", 3, 0, LS_KIND_SPINLOCK, LS_SLAB_AMBIGUOUS,
	       both);
	/* the same set listed the other way round: the same name */
	ls_slab_aliases_free(&b);
	ls_slab_aliases_init(&b);
	add(&b, "file_lock_ctx", ":0000512");
	add(&b, "mem_cgroup_per_node", ":0000512");
	add(&b, "pool_workqueue", ":0000512");
	expect(&b, "file_lock_ctx", 3, 0, LS_KIND_SPINLOCK, LS_SLAB_AMBIGUOUS,
	       both);
	/* no room for every candidate: the cache+offset form, never a cut
	 * list */
	assert_int_equal(
		name(&b, "file_lock_ctx", 3, 0, LS_KIND_SPINLOCK, out, 40),
		LS_SLAB_NONE);
	assert_string_equal(out, "file_lock_ctx+0x0");
	ls_slab_aliases_free(&a);
	ls_slab_aliases_free(&b);
}

/* no member has a lock there, or none of the row's kind: cache+offset */
static void no_alias_and_kind(void **state)
{
	struct ls_slab_aliases a;

	(void)state;
	machine(&a);
	expect(&a, "ftrace_event_field", 4, 0x30, LS_KIND_SPINLOCK,
	       LS_SLAB_NONE, "ftrace_event_field+0x30");
	/* a mutex contention where file_lock_context has a spinlock */
	expect(&a, "ftrace_event_field", 4, 0, LS_KIND_MUTEX, LS_SLAB_NONE,
	       "ftrace_event_field+0x0");
	/* ... and the first member's mutex at 8 is found for a mutex only */
	expect(&a, "ftrace_event_field", 4, 0x8, LS_KIND_MUTEX, LS_SLAB_NAMED,
	       "ftrace_event_field.m");
	expect(&a, "ftrace_event_field", 4, 0x8, LS_KIND_SPINLOCK, LS_SLAB_NONE,
	       "ftrace_event_field+0x8");
	ls_slab_aliases_free(&a);
}

/* members the table may miss never let one candidate pass for certain */
static void unknown_members(void **state)
{
	static const char *const sig =
		"{signal_cache+0x10|signal_struct.wait_chldexit.lock}";
	struct ls_slab_aliases a, none;

	(void)state;
	machine(&a);
	/* refcount says 5 caches, the listing has 4: merged after it */
	expect(&a, "ftrace_event_field", 5, 0, LS_KIND_SPINLOCK,
	       LS_SLAB_AMBIGUOUS,
	       "{file_lock_context.flc_lock|ftrace_event_field+0x0}");
	/* merged (refcount 3) but not in the listing */
	expect(&a, "new_cache", 3, 0x10, LS_KIND_SPINLOCK, LS_SLAB_NONE,
	       "new_cache+0x10");
	/* no listing at all (no sysfs): the first member's struct is only a
	 * candidate */
	ls_slab_aliases_init(&none);
	none.state = LS_ALIAS_NO_SYSFS;
	expect(&none, "signal_cache", 3, 0x10, LS_KIND_SPINLOCK,
	       LS_SLAB_AMBIGUOUS, sig);
	expect(NULL, "signal_cache", 3, 0x10, LS_KIND_SPINLOCK,
	       LS_SLAB_AMBIGUOUS, sig);
	/* a cache alone (refcount 1, or -1 for boot caches) needs no table */
	expect(&none, "signal_cache", 1, 0x10, LS_KIND_SPINLOCK, LS_SLAB_NAMED,
	       "signal_struct.wait_chldexit.lock");
	expect(&none, "signal_cache", -1, 0x10, LS_KIND_SPINLOCK, LS_SLAB_NAMED,
	       "signal_struct.wait_chldexit.lock");
	/* refcount not read: a complete listing without a link for it says
	 * it is its own; without a listing, it may be merged */
	expect(&a, "signal_struct", 0, 0x10, LS_KIND_SPINLOCK, LS_SLAB_NAMED,
	       "signal_struct.wait_chldexit.lock");
	expect(&none, "signal_cache", 0, 0x10, LS_KIND_SPINLOCK,
	       LS_SLAB_AMBIGUOUS, sig);
	/* ... and with a listing, its members decide */
	expect(&a, "ftrace_event_field", 0, 0, LS_KIND_SPINLOCK, LS_SLAB_NAMED,
	       "file_lock_context.flc_lock");
	ls_slab_aliases_free(&a);
}

/* a generic (kmalloc) member's objects may be of any type */
static void generic_member(void **state)
{
	struct ls_slab_aliases a;

	(void)state;
	ls_slab_aliases_init(&a);
	add(&a, "kmalloc-512", ":0000512");
	add(&a, "mem_cgroup_per_node", ":0000512");
	expect(&a, "kmalloc-512", 2, 0x98, LS_KIND_SPINLOCK, LS_SLAB_AMBIGUOUS,
	       "{kmalloc-512+0x98|mem_cgroup_per_node.lruvec.lru_lock}");
	expect(&a, "kmalloc-512", 2, 0x90, LS_KIND_SPINLOCK, LS_SLAB_NONE,
	       "kmalloc-512+0x90");
	ls_slab_aliases_free(&a);
}

/* BPF keeps 31 bytes of a cache's name: a cut name finds its aliases
 * when they are all in one merged cache */
static void cut_names(void **state)
{
	static const char *const full = "an_alias_whose_name_is_longer_than_31";
	struct ls_slab_aliases a;
	char cut[LS_CACHE_NAME];

	(void)state;
	memcpy(cut, full, sizeof(cut) - 1);
	cut[sizeof(cut) - 1] = '\0';
	ls_slab_aliases_init(&a);
	add(&a, full, ":0000064");
	add(&a, "file_lock_ctx", ":0000064");
	expect(&a, cut, 2, 0x8, LS_KIND_SPINLOCK, LS_SLAB_NAMED,
	       "an_alias_whose_name_is_longer_than_31.lock");
	/* the same 31 bytes start an alias of another merged cache */
	add(&a, "an_alias_whose_name_is_longer_th2", ":0000072");
	expect(&a, cut, 2, 0x8, LS_KIND_SPINLOCK, LS_SLAB_NONE,
	       "an_alias_whose_name_is_longer_t+0x8");
	ls_slab_aliases_free(&a);
}

/* bounded: over-long names and a full table are counted, not kept */
static void table_bounds(void **state)
{
	struct ls_slab_aliases a;
	char big[LS_SLAB_NAME_MAX + 8], why[200];

	(void)state;
	ls_slab_aliases_init(&a);
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	assert_int_equal(ls_slab_aliases_add(&a, big, ":0000056"), -E2BIG);
	assert_int_equal(ls_slab_aliases_add(&a, "", ":0000056"), -E2BIG);
	for (int i = 0; i < LS_SLAB_ALIAS_MAX; i++) {
		char n[32];

		snprintf(n, sizeof(n), "c%d", i);
		assert_int_equal(
			ls_slab_aliases_add(&a, n, i % 2 ? ":1" : ":2"), 0);
	}
	assert_int_equal(ls_slab_aliases_add(&a, "one_more", ":1"), -E2BIG);
	assert_int_equal(a.skipped, 3);
	ls_slab_aliases_done(&a);
	assert_int_equal(ls_slab_aliases_merged(&a), 2);
	ls_slab_aliases_reason(&a, why, sizeof(why));
	assert_non_null(strstr(why, "2 merged caches"));
	assert_non_null(strstr(why, "some not kept"));
	ls_slab_aliases_free(&a);
	/* a listing with no merged cache, and no listing */
	machine(&a);
	assert_int_equal(ls_slab_aliases_merged(&a), 3);
	ls_slab_aliases_free(&a);
	a.state = LS_ALIAS_NO_SYSFS;
	ls_slab_aliases_reason(&a, why, sizeof(why));
	assert_non_null(strstr(why, "no /sys/kernel/slab"));
	a.state = LS_ALIAS_READ;
	ls_slab_aliases_reason(&a, why, sizeof(why));
	assert_non_null(strstr(why, "no cache merged"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(one_alias),
		cmocka_unit_test(several_aliases),
		cmocka_unit_test(no_alias_and_kind),
		cmocka_unit_test(unknown_members),
		cmocka_unit_test(generic_member),
		cmocka_unit_test(cut_names),
		cmocka_unit_test(table_bounds),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
