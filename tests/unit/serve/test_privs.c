// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The privilege drop of `lockscope serve`, in forked children (it cannot be
 * undone): both outcomes, every capability gone and CAP_BPF kept alone (what
 * serve does on kernels that refuse bpf() to unprivileged processes).
 * Needs root: skipped otherwise.
 */
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

	if (!pw || ls_privs_plan(&pv, "nobody") || !pv.change_id)
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
	if (geteuid() != 0)
		skip();
	assert_int_equal(ls_privs_plan(&pv, "no-such-user-here"), -2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_drop_everything),
		cmocka_unit_test(test_keep_cap_bpf_alone),
		cmocka_unit_test(test_unknown_user),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
