// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <sys/prctl.h>
#include "collect/collector_int.h"

/* Any user names its tasks: the comm lockscope prints (waiters, owners)
 * holds no terminal control and no character the kernel's 15-byte cut
 * split, whatever the name. */
static void comm_is_made_safe(void **state)
{
	char old[32] = "", buf[LS_COMM_MAX];

	(void)state;
	prctl(PR_GET_NAME, old);
	/* ESC [2J (clear screen), then a euro sign the kernel cuts */
	assert_int_equal(prctl(PR_SET_NAME, "\x1b[2J\x1b]0;x\x07"
					    "abc\xe2\x82\xac"),
			 0);
	assert_int_equal(ls_read_comm((uint32_t)getpid(), (uint32_t)gettid(),
				      buf, sizeof(buf)),
			 0);
	assert_string_equal(buf, "\\x1b[2J\\x1b]0;x\\x07abc\\xe2\\x82");
	assert_int_equal(prctl(PR_SET_NAME, "plain-name"), 0);
	assert_int_equal(ls_read_comm((uint32_t)getpid(), (uint32_t)gettid(),
				      buf, sizeof(buf)),
			 0);
	assert_string_equal(buf, "plain-name");
	prctl(PR_SET_NAME, old);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(comm_is_made_safe),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
