// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The privilege drop of `lockscope serve`, in forked children (it cannot be
 * undone): both outcomes, every capability gone and CAP_BPF kept alone (what
 * serve does on kernels that refuse bpf() to unprivileged processes); these
 * need root, skipped otherwise.  And the resolution of --user: names and
 * numbers alike, root refused by either unless allowed (any user).
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <pwd.h>
#include <sys/wait.h>
#include <linux/capability.h>
#include <cmocka.h>
#include "serve/privs.h"

#ifndef CAP_BPF
#define CAP_BPF 39
#endif

static unsigned long long status_field(const char *key, int base)
{
	char line[256];
	unsigned long long v = ~0ULL;
	FILE *f = fopen("/proc/self/status", "r");

	if (!f)
		return v;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, strlen(key)))
			v = strtoull(line + strlen(key), NULL, base);
	fclose(f);
	return v;
}

/* Child: drop keeping @keep, then check what the kernel says.  Exit codes
 * name the first check that failed. */
static int child(int keep)
{
	struct ls_privs pv;
	struct passwd *pw = getpwnam("nobody");
	unsigned long long want = keep >= 0 ? 1ULL << keep : 0;

	if (!pw || ls_privs_plan(&pv, "nobody", 0) || !pv.change_id)
		return 10;
	if (ls_privs_drop(&pv, keep))
		return 11;
	if (getuid() != pw->pw_uid || geteuid() != pw->pw_uid ||
	    status_field("Uid:", 10) != pw->pw_uid)
		return 12;
	if (getgid() != pw->pw_gid || getgroups(0, NULL) != 0)
		return 13;
	if (status_field("CapEff:", 16) != want ||
	    status_field("CapPrm:", 16) != want)
		return 14;
	if (status_field("CapBnd:", 16) != 0 ||
	    status_field("CapInh:", 16) != 0 ||
	    status_field("CapAmb:", 16) != 0)
		return 15;
	if (status_field("NoNewPrivs:", 10) != 1)
		return 16;
	/* and there is no way back */
	if (!setuid(0) || !seteuid(0))
		return 17;
	return 0;
}

static int run_child(int keep)
{
	pid_t pid = fork();
	int st;

	if (!pid)
		_exit(child(keep));
	assert_true(pid > 0);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	return WEXITSTATUS(st);
}

static void test_drop_everything(void **state)
{
	(void)state;
	if (geteuid() != 0 || !getpwnam("nobody"))
		skip();
	assert_int_equal(run_child(-1), 0);
}

static void test_keep_cap_bpf_alone(void **state)
{
	(void)state;
	if (geteuid() != 0 || !getpwnam("nobody"))
		skip();
	assert_int_equal(ls_privs_bpf_cap(), CAP_BPF); /* this kernel >= 5.8 */
	assert_int_equal(run_child(CAP_BPF), 0);
}

static void test_unknown_user(void **state)
{
	struct ls_privs pv;

	(void)state;
	assert_int_equal(ls_privs_plan(&pv, "no-such-user-here", 0), -ENOENT);
	assert_int_equal(ls_privs_plan(&pv, "no-such-user-here", 1), -ENOENT);
}

static void test_root_refused_by_name_and_number(void **state)
{
	const char *spellings[] = {"root", "0", "00"};
	struct ls_privs pv;

	(void)state;
	for (unsigned i = 0; i < 3; i++)
		assert_int_equal(ls_privs_plan(&pv, spellings[i], 0), -EPERM);
}

static void test_root_allowed(void **state)
{
	struct ls_privs pv;

	(void)state;
	assert_int_equal(ls_privs_plan(&pv, "root", 1), 0);
	assert_int_equal(pv.uid, 0);
	assert_string_equal(pv.user, "root");
	assert_false(pv.change_id); /* root already, or not root at all */
	assert_int_equal(ls_privs_plan(&pv, "0", 1), 0);
	assert_int_equal(pv.uid, 0);
	assert_int_equal(pv.gid, 0);
	assert_string_equal(pv.user, "root");
}

/* A number resolves to the same account as its name. */
static void test_number_like_name(void **state)
{
	struct passwd *pw = getpwnam("nobody");
	struct ls_privs by_name, by_num;
	char num[16];

	(void)state;
	if (!pw)
		skip();
	snprintf(num, sizeof(num), "%u", (unsigned)pw->pw_uid);
	assert_int_equal(ls_privs_plan(&by_name, "nobody", 0), 0);
	assert_int_equal(ls_privs_plan(&by_num, num, 0), 0);
	assert_int_equal(by_num.uid, by_name.uid);
	assert_int_equal(by_num.gid, by_name.gid);
	assert_string_equal(by_num.user, "nobody");
	assert_int_equal(by_num.change_id, geteuid() == 0);
}

/* A number needs an account (it gives the group); a number that is no
 * uid at all is bad input of its own kind. */
static void test_number_without_account(void **state)
{
	struct ls_privs pv;

	(void)state;
	if (getpwuid(3999999999U))
		skip();
	assert_int_equal(ls_privs_plan(&pv, "3999999999", 0), -ENOENT);
	assert_int_equal(ls_privs_plan(&pv, "4294967295", 0), -EINVAL);
	assert_int_equal(ls_privs_plan(&pv, "18446744073709551616", 1),
			 -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_drop_everything),
		cmocka_unit_test(test_keep_cap_bpf_alone),
		cmocka_unit_test(test_unknown_user),
		cmocka_unit_test(test_root_refused_by_name_and_number),
		cmocka_unit_test(test_root_allowed),
		cmocka_unit_test(test_number_like_name),
		cmocka_unit_test(test_number_without_account),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
