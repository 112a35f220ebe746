// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "collect/btf_names.h"
#include "lockscope.h"
#include "model/slab_alias.h"

/*
 * A small BTF with the shapes kernels have:
 *   struct qspinlock { int val; }            typedef arch_spinlock_t
 *   struct raw_spinlock { arch_spinlock_t raw_lock; }   typedef raw_spinlock_t
 *   struct spinlock { union { struct raw_spinlock rlock; }; } typedef
 * spinlock_t struct mutex { long owner; raw_spinlock_t wait_lock; }        (16
 * bytes) struct inner { int a; spinlock_t locks[4]; }                  (20
 * bytes) union u { struct mutex um; spinlock_t us; }                   (16
 * bytes) struct outer { int x;                  0 struct inner in;        4
 *     struct { int pad; struct mutex m; };   24 (m at 32)
 *     union u uu;             48
 *     const struct mutex cm;  64
 *     int flags:3;            80
 *   }                                                             (84 bytes)
 *   struct rq { int x; raw_spinlock_t __lock; }
 *   .data..percpu: runqueues (struct rq) at 64, cpu_lock (spinlock_t) at 128
 */
static struct btf *small_btf(void)
{
	struct btf *b = btf__new_empty();
	int i32, lng, qs, arch, rs, rst, un, sl, slt, mx, arr, inner, anon, uu,
		cmx, rq, v1, v2;

	assert_non_null(b);
	i32 = btf__add_int(b, "int", 4, BTF_INT_SIGNED);
	lng = btf__add_int(b, "long", 8, BTF_INT_SIGNED);
	qs = btf__add_struct(b, "qspinlock", 4);
	btf__add_field(b, "val", i32, 0, 0);
	arch = btf__add_typedef(b, "arch_spinlock_t", qs);
	rs = btf__add_struct(b, "raw_spinlock", 4);
	btf__add_field(b, "raw_lock", arch, 0, 0);
	rst = btf__add_typedef(b, "raw_spinlock_t", rs);
	un = btf__add_union(b, NULL, 4);
	btf__add_field(b, "rlock", rs, 0, 0);
	sl = btf__add_struct(b, "spinlock", 4);
	btf__add_field(b, NULL, un, 0, 0);
	slt = btf__add_typedef(b, "spinlock_t", sl);
	mx = btf__add_struct(b, "mutex", 16);
	btf__add_field(b, "owner", lng, 0, 0);
	btf__add_field(b, "wait_lock", rst, 64, 0);
	arr = btf__add_array(b, i32, slt, 4);
	inner = btf__add_struct(b, "inner", 20);
	btf__add_field(b, "a", i32, 0, 0);
	btf__add_field(b, "locks", arr, 32, 0);
	anon = btf__add_struct(b, NULL, 24);
	btf__add_field(b, "pad", i32, 0, 0);
	btf__add_field(b, "m", mx, 64, 0);
	uu = btf__add_union(b, "u", 16);
	btf__add_field(b, "um", mx, 0, 0);
	btf__add_field(b, "us", slt, 0, 0);
	cmx = btf__add_const(b, mx);
	btf__add_struct(b, "outer", 84);
	btf__add_field(b, "x", i32, 0, 0);
	btf__add_field(b, "in", inner, 32, 0);
	btf__add_field(b, NULL, anon, 24 * 8, 0);
	btf__add_field(b, "uu", uu, 48 * 8, 0);
	btf__add_field(b, "cm", cmx, 64 * 8, 0);
	btf__add_field(b, "flags", i32, 80 * 8, 3);
	rq = btf__add_struct(b, "rq", 8);
	btf__add_field(b, "x", i32, 0, 0);
	btf__add_field(b, "__lock", rst, 32, 0);
	v1 = btf__add_var(b, "runqueues", BTF_VAR_GLOBAL_ALLOCATED, rq);
	v2 = btf__add_var(b, "cpu_lock", BTF_VAR_GLOBAL_ALLOCATED, slt);
	assert_true(v2 > 0);
	assert_int_equal(btf__add_datasec(b, ".data..percpu", 256) > 0, 1);
	assert_int_equal(btf__add_datasec_var_info(b, v1, 64, 8), 0);
	assert_int_equal(btf__add_datasec_var_info(b, v2, 128, 4), 0);
	return b;
}

static void check(const struct btf *b, uint64_t off, unsigned kind,
		  const char *want)
{
	char out[128] = "";
	int err = ls_btf_struct_field(b, "outer", off, kind, out, sizeof(out));

	if (!want) {
		if (!err)
			fail_msg("offset %llu: found %s, wanted none",
				 (unsigned long long)off, out);
		return;
	}
	if (err)
		fail_msg("offset %llu: nothing found, wanted %s",
			 (unsigned long long)off, want);
	assert_string_equal(out, want);
}

/* Nested structs, arrays, unions, anonymous members, modifiers. */
static void walker(void **state)
{
	struct btf *b = small_btf();

	(void)state;
	check(b, 0, LS_KIND_SPINLOCK, NULL); /* an int */
	check(b, 4, LS_KIND_SPINLOCK, NULL); /* inner.a */
	check(b, 8, LS_KIND_SPINLOCK, "outer.in.locks[0]");
	check(b, 16, LS_KIND_SPINLOCK, "outer.in.locks[2]");
	check(b, 20, LS_KIND_SPINLOCK, "outer.in.locks[3]");
	check(b, 18, LS_KIND_SPINLOCK, NULL); /* inside a lock */
	/* an anonymous struct adds no name */
	check(b, 32, LS_KIND_MUTEX, "outer.m");
	check(b, 40, LS_KIND_SPINLOCK, "outer.m.wait_lock");
	/* the kind picks the union member */
	check(b, 48, LS_KIND_MUTEX, "outer.uu.um");
	check(b, 48, LS_KIND_SPINLOCK, "outer.uu.us");
	check(b, 56, LS_KIND_SPINLOCK, "outer.uu.um.wait_lock");
	/* through const */
	check(b, 64, LS_KIND_MUTEX, "outer.cm");
	/* a lock of another family is not believed */
	check(b, 8, LS_KIND_RWSEM_W, NULL);
	check(b, 32, LS_KIND_SPINLOCK, NULL);
	check(b, 80, LS_KIND_SPINLOCK, NULL); /* a bitfield */
	check(b, 84, LS_KIND_SPINLOCK, NULL); /* past the end */
	check(b, 1ULL << 40, LS_KIND_SPINLOCK, NULL);
	btf__free(b);
}

static void edges(void **state)
{
	struct btf *b = small_btf();
	char out[12] = "keep";
	int id = btf__find_by_name_kind(b, "outer", BTF_KIND_STRUCT);

	(void)state;
	/* no such struct */
	assert_int_equal(ls_btf_struct_field(b, "nosuch", 8, LS_KIND_SPINLOCK,
					     out, sizeof(out)),
			 -ENOENT);
	/* a path that does not fit the buffer is no name, not a cut one */
	assert_int_equal(ls_btf_struct_field(b, "outer", 56, LS_KIND_SPINLOCK,
					     out, sizeof(out)),
			 -ENOENT);
	strcpy(out, "o");
	assert_int_equal(ls_btf_field_at(b, (uint32_t)id, 56, LS_KIND_SPINLOCK,
					 out, sizeof(out)),
			 -ENOENT);
	assert_string_equal(out, "o");
	/* a struct that is the lock itself has no field */
	assert_int_equal(ls_btf_struct_field(b, "spinlock", 0, LS_KIND_SPINLOCK,
					     out, sizeof(out)),
			 -ENOENT);
	/* PREEMPT_RT kinds take any lock type */
	{
		char big[64];

		assert_int_equal(ls_btf_struct_field(b, "outer", 32,
						     LS_KIND_RTLOCK_W, big,
						     sizeof(big)),
				 0);
		assert_string_equal(big, "outer.m");
	}
	btf__free(b);
}

static void percpu(void **state)
{
	struct btf *b = small_btf();
	uint64_t off = 0, size = 0;
	char out[64];

	(void)state;
	assert_int_equal(ls_btf_percpu_var(b, "runqueues", &off, &size), 0);
	assert_int_equal(off, 64);
	assert_int_equal(size, 256);
	assert_int_equal(ls_btf_percpu_var(b, "nosuch", &off, &size), -ENOENT);
	assert_int_equal(
		ls_btf_percpu_field(b, 68, LS_KIND_SPINLOCK, out, sizeof(out)),
		0);
	assert_string_equal(out, "rq.__lock");
	/* a variable that is a lock: its name */
	assert_int_equal(
		ls_btf_percpu_field(b, 128, LS_KIND_SPINLOCK, out, sizeof(out)),
		0);
	assert_string_equal(out, "cpu_lock");
	assert_int_equal(
		ls_btf_percpu_field(b, 64, LS_KIND_SPINLOCK, out, sizeof(out)),
		-ENOENT);
	assert_int_equal(
		ls_btf_percpu_field(b, 200, LS_KIND_SPINLOCK, out, sizeof(out)),
		-ENOENT);
	btf__free(b);
}

static void merged(const struct ls_slab_aliases *a, struct ls_btf_cache *bc,
		   const char *cache, uint64_t off, unsigned kind,
		   enum ls_slab_verdict v, const char *want)
{
	char out[128];

	assert_int_equal(ls_slab_name(a, cache, 3, off, kind,
				      ls_btf_cache_field, bc, out, sizeof(out)),
			 v);
	assert_string_equal(out, want);
}

/* A lock in a merged cache, through the BTF walker: every member's struct
 * tried at the offset, those larger than the cache's objects left out, a
 * lock of another kind never believed. */
static void merged_caches(void **state)
{
	struct btf *b = small_btf();
	struct ls_btf_cache bc = {b, 84};
	struct ls_slab_aliases a;

	(void)state;
	ls_slab_aliases_init(&a);
	assert_int_equal(ls_slab_aliases_add(&a, "outer", ":0000088"), 0);
	assert_int_equal(ls_slab_aliases_add(&a, "rq", ":0000088"), 0);
	assert_int_equal(ls_slab_aliases_add(&a, "inner", ":0000088"), 0);
	ls_slab_aliases_done(&a);
	/* rq.__lock and inner.locks[0] both start at 4 */
	merged(&a, &bc, "outer", 4, LS_KIND_SPINLOCK, LS_SLAB_AMBIGUOUS,
	       "{inner.locks[0]|rq.__lock}");
	/* objects of 16 bytes hold neither outer (84) nor inner (20) */
	bc.object_size = 16;
	merged(&a, &bc, "outer", 4, LS_KIND_SPINLOCK, LS_SLAB_NAMED,
	       "rq.__lock");
	bc.object_size = 84;
	/* a mutex at 32 in outer only; a spinlock contention there is none */
	merged(&a, &bc, "rq", 32, LS_KIND_MUTEX, LS_SLAB_NAMED, "outer.m");
	merged(&a, &bc, "rq", 32, LS_KIND_SPINLOCK, LS_SLAB_NONE, "rq+0x20");
	ls_slab_aliases_free(&a);
	btf__free(b);
}

/* Offset of member @name of struct @id, through anonymous members. */
static long member_off(const struct btf *b, uint32_t id, const char *name)
{
	const struct btf_type *t = btf__type_by_id(b, id);
	const struct btf_member *m = btf_members(t);

	for (unsigned i = 0; i < btf_vlen(t); i++, m++) {
		const char *n = btf__name_by_offset(b, m->name_off);
		long o = (long)btf_member_bit_offset(t, i) / 8, in;

		if (n && !strcmp(n, name))
			return o;
		if ((!n || !*n) && (in = member_off(b, m->type, name)) >= 0)
			return o + in;
	}
	return -1;
}

static void host(void **state, const char *type, const char *member,
		 unsigned kind, const char *want)
{
	struct btf *b = *state;
	int id = btf__find_by_name_kind(b, type, BTF_KIND_STRUCT);
	long off;
	char out[128];

	assert_true(id > 0);
	off = member_off(b, (uint32_t)id, member);
	assert_true(off >= 0);
	assert_int_equal(ls_btf_struct_field(b, type, (uint64_t)off, kind, out,
					     sizeof(out)),
			 0);
	assert_string_equal(out, want);
}

/* This host's kernel: the fields the issue names. */
static void host_kernel(void **state)
{
	struct btf *b = btf__load_vmlinux_btf();
	uint64_t off, size;
	char out[64];

	if (!b || libbpf_get_error(b))
		skip(); /* no /sys/kernel/btf/vmlinux */
	*state = b;
	host(state, "task_struct", "pi_lock", LS_KIND_SPINLOCK,
	     "task_struct.pi_lock");
	host(state, "mm_struct", "mmap_lock", LS_KIND_RWSEM_W,
	     "mm_struct.mmap_lock");
	host(state, "sighand_struct", "siglock", LS_KIND_SPINLOCK,
	     "sighand_struct.siglock");
	assert_int_equal(ls_btf_percpu_var(b, "runqueues", &off, &size), 0);
	{
		int id = btf__find_by_name_kind(b, "rq", BTF_KIND_STRUCT);
		long lo = member_off(b, (uint32_t)id, "__lock");

		if (lo < 0)
			skip(); /* an older rq without __lock */
		assert_int_equal(ls_btf_percpu_field(b, off + (uint64_t)lo,
						     LS_KIND_SPINLOCK, out,
						     sizeof(out)),
				 0);
		assert_string_equal(out, "rq.__lock");
	}
	btf__free(b);
	*state = NULL;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(walker),      cmocka_unit_test(edges),
		cmocka_unit_test(percpu),      cmocka_unit_test(merged_caches),
		cmocka_unit_test(host_kernel),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
