// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "model/ident.h"
#include "model/naming.h"

/* Objects every 192 bytes in an order-1 slab (8 KiB) of 4 KiB pages. */
static void slab_offsets(void **state)
{
	uint64_t off = 0, slab = 0xffff888004a3c000ULL;

	(void)state;
	assert_int_equal(
		ls_slab_offset(slab + 0x40, 192, 192, 0, 1, 4096, &off), 0);
	assert_int_equal(off, 0x40);
	/* the 3rd object, 8 bytes in */
	assert_int_equal(
		ls_slab_offset(slab + 2 * 192 + 8, 192, 192, 0, 1, 4096, &off),
		0);
	assert_int_equal(off, 8);
	/* an address in the second page of the slab: same arithmetic */
	assert_int_equal(
		ls_slab_offset(slab + 4096 + 64, 192, 192, 0, 1, 4096, &off),
		0);
	assert_int_equal(off, (4096 + 64) % 192);
	/* a wrong order gives a different offset: the base is aligned down
	 * to the slab's size, not to a page */
	assert_int_equal(
		ls_slab_offset(slab + 4096 + 64, 192, 192, 0, 0, 4096, &off),
		0);
	assert_int_equal(off, 64);
}

/* slub_debug red zones: each object sits red_left_pad bytes into its
 * stride; addresses in the pads or past the object are no field. */
static void red_zones(void **state)
{
	uint64_t off = 7, slab = 0xffff888010000000ULL;

	(void)state;
	/* stride 256 = 64 red zone + 128 object + 64 metadata */
	assert_int_equal(ls_slab_offset(slab + 256 + 64 + 16, 256, 128, 64, 0,
					4096, &off),
			 0);
	assert_int_equal(off, 16);
	assert_int_equal(
		ls_slab_offset(slab + 256 + 63, 256, 128, 64, 0, 4096, &off),
		-ERANGE);
	assert_int_equal(ls_slab_offset(slab + 256 + 64 + 128, 256, 128, 64, 0,
					4096, &off),
			 -ERANGE);
	/* the last byte of the object is still in it */
	assert_int_equal(
		ls_slab_offset(slab + 64 + 127, 256, 128, 64, 0, 4096, &off),
		0);
	assert_int_equal(off, 127);
}

static void bad_layouts(void **state)
{
	uint64_t off = 99;

	(void)state;
	assert_int_equal(ls_slab_offset(0x1000, 0, 0, 0, 0, 4096, &off),
			 -EINVAL); /* no size */
	assert_int_equal(ls_slab_offset(0x1000, 64, 128, 0, 0, 4096, &off),
			 -EINVAL); /* object bigger than its stride */
	assert_int_equal(ls_slab_offset(0x1000, 64, 32, 64, 0, 4096, &off),
			 -EINVAL); /* red zone fills the stride */
	assert_int_equal(ls_slab_offset(0x1000, 8192, 8192, 0, 0, 4096, &off),
			 -EINVAL); /* object bigger than the slab */
	assert_int_equal(ls_slab_offset(0x1000, 64, 64, 0, 0, 3000, &off),
			 -EINVAL); /* page size not a power of two */
	assert_int_equal(ls_slab_offset(0x1000, 64, 64, 0, 40, 4096, &off),
			 -EINVAL); /* absurd order */
	assert_int_equal(off, 99);
	/* an object of the whole slab: offset is the address's low bits */
	assert_int_equal(ls_slab_offset(0x12345, 8192, 8192, 0, 1, 4096, &off),
			 0);
	assert_int_equal(off, 0x345);
}

static void cache_types(void **state)
{
	char t[4][64];

	(void)state;
	assert_int_equal(ls_cache_types("sock_inode_cache", t, 4), 3);
	assert_string_equal(t[0], "socket_alloc");
	assert_string_equal(t[1], "sock_inode_cache");
	assert_string_equal(t[2], "sock_inode");
	assert_int_equal(ls_cache_types("task_struct", t, 4), 1);
	assert_string_equal(t[0], "task_struct");
	assert_int_equal(ls_cache_types("kernfs_node_cache", t, 4), 3);
	assert_string_equal(t[0], "kernfs_node");
	assert_int_equal(ls_cache_types("foo_cachep", t, 4), 2);
	assert_string_equal(t[1], "foo");
	/* generic caches hold no one type */
	assert_int_equal(ls_cache_types("kmalloc-192", t, 4), 0);
	assert_int_equal(ls_cache_types("kmalloc-cg-1k", t, 4), 0);
	assert_true(ls_cache_is_generic("dma-kmalloc-64"));
	assert_true(ls_cache_is_generic("kmem_cache"));
	assert_false(ls_cache_is_generic("kmem_cache_node"));
	assert_int_equal(ls_cache_types("sock_inode_cache", t, 1), 1);
}

static void instances(void **state)
{
	struct ls_instances in;

	(void)state;
	ls_inst_init(&in);
	assert_int_equal(ls_inst_get(&in, 0x1000, "task_struct.pi_lock"), 1);
	assert_int_equal(ls_inst_get(&in, 0x2000, "task_struct.pi_lock"), 2);
	assert_int_equal(ls_inst_get(&in, 0x3000, "rq.__lock#cpu0"), 1);
	/* stable: asking again gives the same numbers */
	assert_int_equal(ls_inst_get(&in, 0x2000, "task_struct.pi_lock"), 2);
	assert_int_equal(ls_inst_get(&in, 0x1000, "task_struct.pi_lock"), 1);
	/* a dropped lock's number is not given again */
	ls_inst_drop(&in, 0x1000);
	assert_int_equal(ls_inst_get(&in, 0x4000, "task_struct.pi_lock"), 3);
	assert_int_equal(ls_inst_get(&in, 0x1000, "task_struct.pi_lock"), 4);
	/* a caller-form lock whose name changes gets a number in the new
	 * name */
	assert_int_equal(ls_inst_get(&in, 0x5000, "mutex@a"), 1);
	assert_int_equal(ls_inst_get(&in, 0x6000, "mutex@b"), 1);
	assert_int_equal(ls_inst_get(&in, 0x5000, "mutex@b"), 2);
	/* many locks: the table grows and keeps every number */
	for (uint64_t a = 1; a <= 5000; a++)
		assert_int_equal(ls_inst_get(&in, a << 20, "x"), a);
	for (uint64_t a = 1; a <= 5000; a += 7)
		assert_int_equal(ls_inst_get(&in, a << 20, "x"), a);
	for (uint64_t a = 1; a <= 5000; a++)
		ls_inst_drop(&in, a << 20);
	assert_int_equal(ls_inst_get(&in, 1 << 20, "x"), 5001);
	ls_inst_free(&in);
}

static void names_and_classes(void **state)
{
	char out[64];
	unsigned o;

	(void)state;
	ls_inst_name(out, sizeof(out), "task_struct.pi_lock", 1);
	assert_string_equal(out, "task_struct.pi_lock");
	ls_inst_name(out, sizeof(out), "task_struct.pi_lock", 12);
	assert_string_equal(out, "task_struct.pi_lock#12");
	ls_name_class(out, sizeof(out), "task_struct.pi_lock#12");
	assert_string_equal(out, "task_struct.pi_lock");
	ls_name_class(out, sizeof(out), "rq.__lock#cpu1");
	assert_string_equal(out, "rq.__lock");
	ls_name_class(out, sizeof(out), "rq.__lock#cpu1#2");
	assert_string_equal(out, "rq.__lock");
	ls_name_class(out, sizeof(out), "mutex@genl_rcv_msg");
	assert_string_equal(out, "mutex@genl_rcv_msg");
	ls_name_class(out, sizeof(out), "odd#name");
	assert_string_equal(out, "odd#name");
	ls_name_class(out, sizeof(out), "trailing#");
	assert_string_equal(out, "trailing#");
	assert_int_equal(ls_origin_parse("percpu", &o), 0);
	assert_int_equal(o, LS_ORIGIN_PERCPU);
	assert_string_equal(ls_origin_name(LS_ORIGIN_STATIC), "static");
	assert_int_equal(ls_origin_parse("bogus", &o), -EINVAL);
	assert_true(ls_origin_is_named(LS_ORIGIN_SLAB, "task_struct.pi_lock"));
	assert_false(ls_origin_is_named(LS_ORIGIN_SLAB, "kmalloc-192+0x40"));
	/* the candidates of a merged cache name no one field */
	assert_false(ls_origin_is_named(LS_ORIGIN_SLAB, "{a.lock|b.lock}"));
	assert_false(ls_origin_is_named(LS_ORIGIN_CALLER, "mutex@f"));
	assert_false(ls_origin_is_named(LS_ORIGIN_STATIC, "mutex@f"));
}

/* Display names: layout names stay, #N for a second lock, #cpuN for
 * per-CPU data, the kernel image is "static". */
static void row_names(void **state)
{
	char cls[LS_NAME_MAX], long_cls[LS_NAME_MAX];
	struct ls_instances in;
	struct ls_row r;

	(void)state;
	ls_inst_init(&in);
	memset(&r, 0, sizeof(r));
	r.key.kind = LS_KIND_SPINLOCK;
	r.key.addr = 0xffff888001000000ULL;
	r.origin = LS_ORIGIN_SLAB;
	/* the collector's class, as it leaves it: the row's name */
	snprintf(r.name, sizeof(r.name), "task_struct.pi_lock");
	r.cls_len = (unsigned)strlen(r.name);
	ls_name_row(NULL, &r, &in, 0);
	assert_string_equal(r.name, "task_struct.pi_lock");
	r.key.addr += 0x4000;
	ls_name_row(NULL, &r, &in, 0);
	assert_string_equal(r.name, "task_struct.pi_lock#2");
	ls_name_row(NULL, &r, &in, 1);
	assert_string_equal(r.name, "task_struct.pi_lock#2 [ffff888001004000]");
	assert_string_equal(ls_row_class(&r, cls, sizeof(cls)),
			    "task_struct.pi_lock");
	r.origin = LS_ORIGIN_PERCPU;
	r.pcpu = 2;
	snprintf(r.name, sizeof(r.name), "rq.__lock");
	r.cls_len = (unsigned)strlen(r.name);
	ls_name_row(NULL, &r, &in, 0);
	assert_string_equal(r.name, "rq.__lock#cpu1");
	assert_string_equal(ls_row_class(&r, cls, sizeof(cls)), "rq.__lock");
	/* a class too long for its name with "#cpuN": the part that fits */
	memset(long_cls, 'x', sizeof(long_cls) - 1);
	long_cls[sizeof(long_cls) - 1] = '\0';
	snprintf(r.name, sizeof(r.name), "%s", long_cls);
	r.cls_len = (unsigned)strlen(r.name);
	ls_name_row(NULL, &r, &in, 0);
	assert_int_equal(r.cls_len, LS_NAME_MAX - 16);
	assert_int_equal(strncmp(r.name + r.cls_len, "#cpu1", 5), 0);
	/* a row with no class stands for itself: its whole name */
	r.cls_len = 0;
	snprintf(r.name, sizeof(r.name), "mutex@genl_rcv_msg");
	assert_string_equal(ls_row_class(&r, cls, sizeof(cls)),
			    "mutex@genl_rcv_msg");
	memset(&r, 0, sizeof(r));
	r.key.kind = LS_KIND_MUTEX;
	r.key.addr = 0xffffffff83000000ULL;
	ls_row_add_caller(&r, "genl_rcv_msg", 3);
	ls_name_row(NULL, &r, &in, 0);
	assert_string_equal(r.name, "mutex@genl_rcv_msg");
	assert_int_equal(r.origin, LS_ORIGIN_STATIC);
	/* the caller form takes the most sampled caller, ties by name, not
	 * the first one sampled */
	memset(&r, 0, sizeof(r));
	r.key.kind = LS_KIND_MUTEX;
	r.key.addr = 0xffff888002000000ULL;
	ls_row_add_caller(&r, "anon_pipe_write", 2);
	ls_row_add_caller(&r, "anon_pipe_read", 2);
	ls_name_row(NULL, &r, NULL, 0);
	assert_string_equal(r.name, "mutex@anon_pipe_read");
	assert_int_equal(r.origin, LS_ORIGIN_CALLER);
	ls_row_add_caller(&r, "anon_pipe_write", 1);
	ls_name_row(NULL, &r, NULL, 0);
	assert_string_equal(r.name, "mutex@anon_pipe_write");
	ls_inst_free(&in);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(slab_offsets),
		cmocka_unit_test(red_zones),
		cmocka_unit_test(bad_layouts),
		cmocka_unit_test(cache_types),
		cmocka_unit_test(instances),
		cmocka_unit_test(names_and_classes),
		cmocka_unit_test(row_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
