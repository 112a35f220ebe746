// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* privs.c - drop to an unprivileged user and no capabilities. */
#include <cap-ng.h>
#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/capability.h>
#include <sys/prctl.h>
#include "util/log.h"
#include "serve/privs.h"

#ifndef CAP_BPF
#define CAP_BPF 39
#endif

int ls_privs_plan(struct ls_privs *p, const char *user)
{
	struct passwd *pw;
	char obj[96];

	memset(p, 0, sizeof(*p));
	p->uid = getuid();
	p->gid = getgid();
	if (geteuid() != 0)
		return 0; /* nothing to switch from: only capabilities go */
	snprintf(obj, sizeof(obj), "user '%.64s'", user);
	errno = 0;
	pw = getpwnam(user);
	if (!pw) {
		ls_fail("find", obj, errno ? strerror(errno) : "no such user");
		ls_hint("name an existing unprivileged user with --user");
		return -ENOENT;
	}
	p->change_id = pw->pw_uid != 0;
	p->uid = pw->pw_uid;
	p->gid = pw->pw_gid;
	snprintf(p->user, sizeof(p->user), "%s", pw->pw_name);
	return 0;
}

int ls_privs_bpf_cap(void)
{
	FILE *f = fopen("/proc/sys/kernel/cap_last_cap", "r");
	int last = -1;

	if (f) {
		if (fscanf(f, "%d", &last) != 1)
			last = -1;
		fclose(f);
	}
	return last >= CAP_BPF ? CAP_BPF : CAP_SYS_ADMIN;
}

int ls_privs_drop(const struct ls_privs *p, int keep_cap)
{
	int rc;

	capng_clear(CAPNG_SELECT_BOTH);
	if (keep_cap >= 0 &&
	    capng_update(CAPNG_ADD, CAPNG_EFFECTIVE | CAPNG_PERMITTED,
			 (unsigned)keep_cap)) {
		ls_fail("keep", "capability", "libcap-ng refused it");
		return -EINVAL;
	}
	if (p->change_id) {
		rc = capng_change_id((int)p->uid, (int)p->gid,
				     CAPNG_DROP_SUPP_GRP |
					     CAPNG_CLEAR_BOUNDING);
		if (rc) {
			char obj[96];

			snprintf(obj, sizeof(obj), "to user '%s'", p->user);
			ls_fail("switch", obj,
				errno ? strerror(errno) : "libcap-ng failed");
			return -EPERM;
		}
	} else {
		/* Not root: clearing the bounding set needs CAP_SETPCAP. */
		rc = capng_apply(CAPNG_SELECT_BOTH);
		if (rc)
			rc = capng_apply(CAPNG_SELECT_CAPS);
		if (rc) {
			ls_fail("drop", "capabilities",
				errno ? strerror(errno) : "libcap-ng failed");
			return -EPERM;
		}
	}
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)) {
		ls_fail_errno("set", "no_new_privs", errno);
		return -errno;
	}
	return 0;
}

const char *ls_privs_describe(char *buf, size_t len)
{
	struct passwd *pw = getpwuid(geteuid());
	char who[96];
	char *caps = NULL;

	snprintf(who, sizeof(who), "uid %u (%s), gid %u", (unsigned)geteuid(),
		 pw ? pw->pw_name : "?", (unsigned)getegid());
	/* the kernel's view of this thread, not libcap-ng's cached state */
	if (capng_get_caps_process() ||
	    capng_have_capabilities(CAPNG_SELECT_CAPS) == CAPNG_NONE) {
		snprintf(buf, len, "%s, capabilities: none", who);
		return buf;
	}
	caps = capng_print_caps_text(CAPNG_PRINT_BUFFER, CAPNG_EFFECTIVE);
	snprintf(buf, len, "%s, capabilities: %s", who, caps ? caps : "?");
	free(caps);
	return buf;
}
