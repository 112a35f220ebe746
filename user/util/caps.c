// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* caps.c - name the missing capabilities before anything fails obscurely. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <linux/capability.h>
#include <sys/syscall.h>
#include "util/caps.h"
#include "util/log.h"

#define LS_CAP_SYS_ADMIN 21
#define LS_CAP_PERFMON 38
#define LS_CAP_BPF 39

int ls_caps_missing(uint64_t eff, char *buf, size_t len)
{
	int bpf = !(eff & (1ULL << LS_CAP_BPF));
	int perfmon = !(eff & (1ULL << LS_CAP_PERFMON));

	if (len)
		buf[0] = '\0';
	if (eff & (1ULL << LS_CAP_SYS_ADMIN))
		return 0;
	snprintf(buf, len, "%s%s%s", bpf ? "CAP_BPF" : "",
		 bpf && perfmon ? " and " : "", perfmon ? "CAP_PERFMON" : "");
	return bpf + perfmon;
}

int ls_caps_lack(char *buf, size_t len)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[2];
	uint64_t eff;

	if (len)
		buf[0] = '\0';
	memset(data, 0, sizeof(data));
	if (syscall(SYS_capget, &hdr, data))
		return 0; /* cannot tell: let the kernel decide */
	eff = (uint64_t)data[1].effective << 32 | data[0].effective;
	return ls_caps_missing(eff, buf, len);
}

int ls_caps_check(void)
{
	char missing[64], why[160];

	if (!ls_caps_lack(missing, sizeof(missing)))
		return 0;
	snprintf(why, sizeof(why),
		 "missing %s (run as root, or grant CAP_BPF and CAP_PERFMON)",
		 missing);
	ls_fail("start", "tracing", why);
	return -EPERM;
}
