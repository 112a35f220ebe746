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
#include "util/untrusted_text.h"
#include "serve/privs.h"

#ifndef CAP_BPF
#define CAP_BPF 39
#endif

/* errno after getpwnam/getpwuid found nothing: 0 or one of these (see
 * getpwnam(3)) means no such account, anything else a failed lookup. */
static int lookup_failed(int err)
{
	return err && err != ENOENT && err != ESRCH && err != EBADF &&
	       err != EPERM;
}

/* @s as a uid: all digits, at most 4294967294 ((uid_t)-1 means none). */
static int parse_uid(const char *s, uid_t *uid)
{
	unsigned long long v;

	if (!*s || strspn(s, "0123456789") != strlen(s) || strlen(s) > 10)
		return -EINVAL;
	v = strtoull(s, NULL, 10);
	if (v >= 4294967295ULL)
		return -EINVAL;
	*uid = (uid_t)v;
	return 0;
}

int ls_privs_plan(struct ls_privs *p, const char *user, int allow_root)
{
	struct passwd *pw;
	int numeric, err;
	char obj[96], a[65];
	uid_t uid = 0;

	memset(p, 0, sizeof(*p));
	p->uid = getuid();
	p->gid = getgid();
	snprintf(obj, sizeof(obj), "user '%s'",
		 ls_text_safe(a, sizeof(a), user));
	errno = 0;
	pw = getpwnam(user);
	err = errno;
	numeric = !parse_uid(user, &uid);
	if (!pw && !lookup_failed(err) && numeric) {
		errno = 0;
		pw = getpwuid(uid);
		err = errno;
	}
	if (!pw && lookup_failed(err)) {
		ls_fail_errno("find", obj, err);
		return -err;
	}
	if (!pw && !numeric && !user[strspn(user, "0123456789")]) {
		ls_fail("parse", obj, "a uid is at most 4294967294");
		return -EINVAL;
	}
	if (!pw) {
		char why[64];

		snprintf(why, sizeof(why), "no account has uid %u",
			 (unsigned)uid);
		ls_fail("find", obj, numeric ? why : "no such user");
		ls_hint("name an existing unprivileged user (or its uid) "
			"with --user");
		return -ENOENT;
	}
	if (pw->pw_uid == 0 && !allow_root) {
		ls_fail("use", obj,
			"it is uid 0 (root), which keeps write access to "
			"root's files");
		ls_hint("pick an unprivileged user with --user (default "
			"nobody), or add --allow-root");
		return -EPERM;
	}
	/* switch only when running as root: else only capabilities go */
	p->change_id = geteuid() == 0 && pw->pw_uid != 0;
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
