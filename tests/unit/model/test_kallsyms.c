// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/mman.h>
#include <cmocka.h>
#include "model/kallsyms.h"
#include "model/naming.h"

static const char sample[] =
	"ffffffff813de0a0 T osq_lock\n"
	"ffffffff813de1f0 T osq_unlock\n"
	"ffffffff821fbb40 t __mutex_lock.constprop.0\n"
	"ffffffff821fc570 t __mutex_lock_killable_slowpath\n"
	"ffffffff82200fc0 T __lock_text_start\n"
	"ffffffff82201c70 T __pv_queued_spin_lock_slowpath\n"
	"ffffffff82202a08 T __lock_text_end\n"
	"ffffffff81f02110 t genl_rcv_msg\n"
	"ffffffff81f02400 t genl_rcv\n"
	"ffffffff81000000 T _stext\n"
	"ffffffff83000000 d text_mutex\n"
	"ffffffff83000100 d other_data\n"
	"ffffffff81500000 t foo.isra.0\n"
	"ffffffff81500100 t foo.part.1\n"
	"ffffffff81500200 t foo.llvm.123456\n"
	"ffffffff81500300 t foo.constprop.0.isra.0\n"
	"ffffffff81500400 t foobar\n"
	"ffffffff81500500 t foo.cold\n"
	"ffffffff81500600 t foo.other\n"
	"ffffffffc0001000 t mod_fn\t[some_module]\n"
	"ffffffff814b8500 T bpf_trace_run2\n"
	"garbage line\n"
	"\n";

static void parse_and_find(void **state)
{
	struct ls_ksyms ks;
	const struct ls_ksym *s, *next;

	(void)state;
	assert_int_equal(ls_ksyms_parse(&ks, sample, sizeof(sample) - 1), 0);
	assert_int_equal(ks.n, 21);
	s = ls_ksyms_find(&ks, 0xffffffff813de0a5ULL, &next);
	assert_non_null(s);
	assert_string_equal(s->name, "osq_lock");
	assert_string_equal(next->name, "osq_unlock");
	assert_int_equal(ls_ksyms_end(&ks, s), 0xffffffff813de1f0ULL);
	s = ls_ksyms_find(&ks, 0xffffffffc0001010ULL, NULL);
	assert_string_equal(s->name, "mod_fn");
	assert_null(ls_ksyms_find(&ks, 0x1000, NULL));
	assert_int_equal(ks.lock_text_start, 0xffffffff82200fc0ULL);
	assert_int_equal(ks.lock_text_end, 0xffffffff82202a08ULL);
	s = ls_ksyms_find(&ks, 0xffffffff83000000ULL, NULL);
	assert_true(ls_ksym_is_data(s));
	ls_ksyms_free(&ks);
}

/* Input already in address order (as /proc/kallsyms is): no sort, same
 * lookups, ties kept in file order, markers found. */
static void sorted_input(void **state)
{
	static const char in[] = "ffffffff81000000 T _stext\n"
				 "ffffffff813de0a0 T osq_lock\n"
				 "ffffffff813de0a0 T osq_lock_alias\n"
				 "ffffffff82200fc0 T __lock_text_start\n"
				 "ffffffff82201000 t _x\n"
				 "ffffffff82202a08 T __lock_text_end\n";
	const struct ls_ksym *s, *next;
	struct ls_ksyms ks;

	(void)state;
	assert_int_equal(ls_ksyms_parse(&ks, in, sizeof(in) - 1), 0);
	assert_int_equal(ks.n, 6);
	assert_string_equal(ks.syms[1].name, "osq_lock");
	assert_string_equal(ks.syms[2].name, "osq_lock_alias");
	s = ls_ksyms_find(&ks, 0xffffffff813de0b0ULL, &next);
	assert_non_null(s);
	assert_string_equal(next->name, "__lock_text_start");
	assert_int_equal(ks.lock_text_start, 0xffffffff82200fc0ULL);
	assert_int_equal(ks.lock_text_end, 0xffffffff82202a08ULL);
	ls_ksyms_free(&ks);
}

static void clones(void **state)
{
	struct ls_ksyms ks;
	const struct ls_ksym *out[8];
	size_t n;

	(void)state;
	assert_true(
		ls_sym_is_clone_of("__mutex_lock.constprop.0", "__mutex_lock"));
	assert_true(ls_sym_is_clone_of("__mutex_lock", "__mutex_lock"));
	assert_false(
		ls_sym_is_clone_of("__mutex_lock_slowpath", "__mutex_lock"));
	assert_false(ls_sym_is_clone_of("foo.other", "foo"));
	assert_false(ls_sym_is_clone_of("foo.", "foo"));
	assert_true(ls_sym_is_clone_of("foo.llvm.123456", "foo"));
	assert_int_equal(ls_ksyms_parse(&ks, sample, sizeof(sample) - 1), 0);
	n = ls_ksyms_clones(&ks, "foo", out, 8);
	assert_int_equal(n, 5); /* isra, part, llvm, constprop.isra, cold */
	n = ls_ksyms_clones(&ks, "__mutex_lock", out, 8);
	assert_int_equal(n, 1);
	assert_string_equal(out[0]->name, "__mutex_lock.constprop.0");
	n = ls_ksyms_clones(&ks, "rwsem_down_write_slowpath", out, 8);
	assert_int_equal(n, 0);
	ls_ksyms_free(&ks);
}

static void long_names(void **state)
{
	char buf[2048], name[700];
	struct ls_ksyms ks;

	(void)state;
	memset(name, 'a', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	memcpy(name, "long_", 5);
	snprintf(buf, sizeof(buf),
		 "ffffffff81000000 t %s\nffffffff81000100 t "
		 "%.511s.constprop.0\n",
		 name, name);
	assert_int_equal(ls_ksyms_parse(&ks, buf, strlen(buf)), 0);
	assert_int_equal(ks.n, 2);
	/* kept, truncated to LS_SYM_MAX - 1 characters */
	assert_int_equal(strlen(ks.syms[0].name), LS_SYM_MAX - 1);
	assert_int_equal(strncmp(ks.syms[0].name, "long_aaa", 8), 0);
	ls_ksyms_free(&ks);
}

/* A symbol file (--kallsyms) is user input: names with terminal controls
 * are not a kernel's and are left out; a name cut at LS_SYM_MAX - 1 bytes
 * ends between characters. */
static void hostile_names(void **state)
{
	char buf[2048], name[700];
	struct ls_ksyms ks;

	(void)state;
	memcpy(name, "xy", 2);
	for (size_t i = 2; i + 3 < sizeof(name); i += 3)
		memcpy(name + i, "\xe2\x82\xac", 3); /* the euro sign */
	name[sizeof(name) - 1] = '\0';
	snprintf(buf, sizeof(buf),
		 "ffffffff81000000 t evil\x1b]0;owned\x07\n"
		 "ffffffff81000100 t over\xe2\x80\xaeride\n"
		 "ffffffff81000200 t %s\n"
		 "ffffffff81000300 t plain\n",
		 name);
	assert_int_equal(ls_ksyms_parse(&ks, buf, strlen(buf)), 0);
	assert_int_equal(ks.n, 2);
	assert_int_equal(strlen(ks.syms[0].name), 2 + 169 * 3);
	assert_memory_equal(ks.syms[0].name, name, 2 + 169 * 3);
	assert_string_equal(ks.syms[1].name, "plain");
	ls_ksyms_free(&ks);
}

static void hidden_and_empty(void **state)
{
	static const char hidden[] = "0000000000000000 T osq_lock\n"
				     "0000000000000000 t genl_rcv_msg\n";
	struct ls_ksyms ks;

	(void)state;
	assert_int_equal(ls_ksyms_parse(&ks, hidden, sizeof(hidden) - 1),
			 -EPERM);
	assert_int_equal(ls_ksyms_parse(&ks, "", 0), -ENODATA);
	assert_int_equal(ls_ksyms_parse(&ks, "zz\n", 3), -ENODATA);
	assert_int_equal(ls_ksyms_load(&ks, "/nonexistent/kallsyms"), -ENOENT);
}

/* A memfd holding @len bytes of @data; its /proc path in @path. */
static int memfd_with(const char *data, size_t len, char *path, size_t plen)
{
	int fd = memfd_create("kallsyms", 0);

	assert_true(fd >= 0);
	for (size_t off = 0; off < len;) {
		ssize_t n = write(fd, data + off, len - off);

		assert_true(n > 0);
		off += (size_t)n;
	}
	snprintf(path, plen, "/proc/self/fd/%d", fd);
	return fd;
}

/* Lines that straddle the reader's 64 KiB chunks: the file, streamed,
 * gives what the same bytes parsed in memory give. */
static void stream_equals_parse(void **state)
{
	size_t cap = 4 << 20, len = 0;
	char *buf = malloc(cap), path[64];
	struct ls_ksyms a, b;
	int fd;

	(void)state;
	assert_non_null(buf);
	for (unsigned i = 0; len + 700 < cap && i < 40000; i++) {
		unsigned pad = (i * 37) % 400; /* names of varied length */

		len += (size_t)snprintf(
			buf + len, cap - len, "ffffffff8%07x %c fn_%u_%.*s%s\n",
			i * 16, "tTdD"[i % 4], i, pad,
			"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
			"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
			"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
			"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
			"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
			"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
			"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
			"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
			"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
			"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
			"xxxxxxxxxxx",
			i % 3 ? "" : "\t[mod]");
	}
	/* and a last line without its newline */
	len += (size_t)snprintf(buf + len, cap - len,
				"ffffffff90000000 T last_one");
	assert_true(len > 3 * 65536);
	fd = memfd_with(buf, len, path, sizeof(path));
	assert_int_equal(ls_ksyms_parse(&a, buf, len), 0);
	assert_int_equal(ls_ksyms_load(&b, path), 0);
	assert_int_equal(a.n, b.n);
	for (size_t i = 0; i < a.n; i++) {
		assert_int_equal(a.syms[i].addr, b.syms[i].addr);
		assert_int_equal(a.syms[i].type, b.syms[i].type);
		assert_string_equal(a.syms[i].name, b.syms[i].name);
	}
	assert_string_equal(b.syms[b.n - 1].name, "last_one");
	ls_ksyms_free(&a);
	ls_ksyms_free(&b);
	close(fd);
	free(buf);
}

/* Input that is not kallsyms is refused within bounds, whatever its size. */
static void bounded_input(void **state)
{
	size_t big = (size_t)LS_KSYMS_FILE_MAX + 1;
	char line[LS_KSYMS_LINE_MAX + 64], path[64];
	struct ls_ksyms ks;
	char *nl;
	int fd;

	(void)state;
	/* endless bytes without a newline: fails after one line's worth */
	assert_int_equal(ls_ksyms_load(&ks, "/dev/zero"), -EMSGSIZE);
	assert_string_equal(ls_ksyms_strerror(-EMSGSIZE),
			    "a line is longer than 4096 bytes: not a kallsyms "
			    "file");
	/* a line of exactly LS_KSYMS_LINE_MAX bytes is read, one more is not */
	memset(line, 'a', sizeof(line));
	memcpy(line, "ffffffff81000000 T ", 19);
	line[LS_KSYMS_LINE_MAX] = '\n';
	assert_int_equal(ls_ksyms_parse(&ks, line, LS_KSYMS_LINE_MAX + 1), 0);
	assert_int_equal(strlen(ks.syms[0].name), LS_SYM_MAX - 1);
	ls_ksyms_free(&ks);
	line[LS_KSYMS_LINE_MAX] = 'a';
	line[LS_KSYMS_LINE_MAX + 1] = '\n';
	assert_int_equal(ls_ksyms_parse(&ks, line, LS_KSYMS_LINE_MAX + 2),
			 -EMSGSIZE);
	fd = memfd_with(line, LS_KSYMS_LINE_MAX + 2, path, sizeof(path));
	assert_int_equal(ls_ksyms_load(&ks, path), -EMSGSIZE);
	close(fd);
	/* more than LS_KSYMS_FILE_MAX bytes, even of short lines */
	nl = malloc(big);
	assert_non_null(nl);
	memset(nl, '\n', big);
	memcpy(nl, "ffffffff81000000 T a\n", 21);
	assert_int_equal(ls_ksyms_parse(&ks, nl, big), -EFBIG);
	fd = memfd_with(nl, big, path, sizeof(path));
	assert_int_equal(ls_ksyms_load(&ks, path), -EFBIG);
	assert_null(ks.syms);
	close(fd);
	/* ... but exactly the limit is read */
	assert_int_equal(ls_ksyms_parse(&ks, nl, big - 1), 0);
	assert_int_equal(ks.n, 1);
	ls_ksyms_free(&ks);
	free(nl);
	assert_string_equal(ls_ksyms_strerror(-EFBIG),
			    "larger than 64 MiB: not a kallsyms file");
}

static void callers(void **state)
{
	struct ls_ksyms ks;
	uint64_t ips[] = {
		0xffffffffc0026478ULL, /* BPF program: not in kallsyms */
		0xffffffff814b85e2ULL, /* bpf_trace_run2 */
		0xffffffff82201c80ULL, /* in lock text */
		0xffffffff821fbb60ULL, /* __mutex_lock.constprop.0 */
		0xffffffff81f02150ULL, /* genl_rcv_msg */
		0xffffffff81f02410ULL,
	};

	(void)state;
	assert_int_equal(ls_ksyms_parse(&ks, sample, sizeof(sample) - 1), 0);
	assert_string_equal(ls_caller_of(&ks, ips, 6), "genl_rcv_msg");
	assert_null(ls_caller_of(&ks, ips, 4));
	/* without the tracing frame, unknown module code is a caller */
	assert_string_equal(ls_caller_of(&ks, ips, 1), "mod_fn");
	assert_true(ls_is_lock_fn_name("_raw_spin_lock_irqsave"));
	assert_true(ls_is_lock_fn_name("rwsem_down_write_slowpath"));
	assert_false(ls_is_lock_fn_name("genl_rcv_msg"));
	/* fexit on mutex_lock (--hold) puts a trampoline between the lock
	 * function and its caller */
	assert_true(ls_is_lock_fn_name("bpf_trampoline_6442503930"));
	assert_true(ls_is_lock_fn_name("ftrace_trampoline"));
	ls_ksyms_free(&ks);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parse_and_find),
		cmocka_unit_test(sorted_input),
		cmocka_unit_test(clones),
		cmocka_unit_test(long_names),
		cmocka_unit_test(hidden_and_empty),
		cmocka_unit_test(stream_equals_parse),
		cmocka_unit_test(bounded_input),
		cmocka_unit_test(callers),
		cmocka_unit_test(hostile_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
