// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* kconfig.c - read the kernel's build options lockscope depends on from
 * /proc/config.gz or /boot/config-RELEASE (zlib reads either). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <zlib.h>
#include "collect/kconfig.h"

#define LS_KCONFIG_LINES 100000 /* a config has about 10k: bound the read */

static const struct ls_kconfig_opt opts[] = {
	{"CONFIG_BPF_SYSCALL", "the bpf() system call", ""},
	{"CONFIG_BPF_EVENTS", "BPF programs on tracepoints", ""},
	{"CONFIG_DEBUG_INFO_BTF", "kernel BTF: CO-RE and tp_btf", ""},
	{"CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS", "fentry function probes",
	 ""},
	{"CONFIG_KPROBES", "kprobe function probes", ""},
	{"CONFIG_KALLSYMS_ALL", "data symbols: names of static locks", ""},
	{"CONFIG_PARAVIRT_SPINLOCKS", "the paravirt spinlock slow path", ""},
	{"CONFIG_PREEMPT_RT", "mutexes and rwsems built on rt_mutex", ""},
	{"CONFIG_DETECT_HUNG_TASK_BLOCKER", "task_struct.blocker", ""},
};

const struct ls_kconfig_opt *ls_kconfig_opts(size_t *n)
{
	*n = sizeof(opts) / sizeof(*opts);
	return opts;
}

static void parse_line(struct ls_kconfig_opt *out, size_t n, const char *l)
{
	for (size_t i = 0; i < n; i++) {
		size_t k = strlen(out[i].name);
		const char *v = NULL;

		if (!strncmp(l, out[i].name, k) && l[k] == '=')
			v = l + k + 1;
		else if (!strncmp(l, "# ", 2) &&
			 !strncmp(l + 2, out[i].name, k) &&
			 !strcmp(l + 2 + k, " is not set\n"))
			v = "not set";
		if (!v)
			continue;
		snprintf(out[i].value, sizeof(out[i].value), "%.*s",
			 (int)strcspn(v, "\n"), v);
		return;
	}
}

int ls_kconfig_read(struct ls_kconfig_opt *out, size_t n, char *path,
		    size_t len)
{
	struct utsname u;
	char line[512];
	gzFile f;

	snprintf(path, len, "/proc/config.gz");
	f = gzopen(path, "rb");
	if (!f && !uname(&u)) {
		snprintf(path, len, "/boot/config-%s", u.release);
		f = gzopen(path, "rb");
	}
	if (!f)
		return errno ? -errno : -ENOENT;
	for (size_t i = 0;
	     i < LS_KCONFIG_LINES && gzgets(f, line, sizeof(line)); i++)
		parse_line(out, n, line);
	gzclose(f);
	return 0;
}
