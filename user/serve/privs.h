/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * privs.h - give up privileges once the BPF programs are attached
 * (libcap-ng).  Capabilities are per thread: call before starting threads.
 */
#ifndef LS_PRIVS_H
#define LS_PRIVS_H

#include <stddef.h>
#include <sys/types.h>

struct ls_privs {
	int change_id; /* started as root: switch to uid/gid */
	uid_t uid;
	gid_t gid;
	char user[64];
};

/*
 * Resolve @user, a name or a numeric uid: a name first, as chown(1) does,
 * then a number, which must have an account (it gives the group).  uid 0,
 * by either spelling, is refused unless @allow_root.  The switch itself
 * happens only when running as root (p->change_id).  Returns 0, or with
 * one line printed: -ENOENT (no such user), -EINVAL (not a uid), -EPERM
 * (root refused), another -errno (the account lookup failed).
 */
int ls_privs_plan(struct ls_privs *p, const char *user, int allow_root);
/*
 * Switch to the planned uid/gid (supplementary groups dropped), clear
 * every capability (effective, permitted, inheritable, ambient, and the
 * bounding set when allowed) except @keep_cap (-1: none), and set
 * no_new_privs.  Returns 0 or -errno (message printed).
 */
int ls_privs_drop(const struct ls_privs *p, int keep_cap);
/* The capability that lets a process use bpf() on kernels that refuse it
 * to unprivileged callers: CAP_BPF, or CAP_SYS_ADMIN before Linux 5.8. */
int ls_privs_bpf_cap(void);
/* "uid 65534 (nobody), gid 65534, capabilities: none" (effective ids and
 * capabilities as the kernel sees them). */
const char *ls_privs_describe(char *buf, size_t len);

#endif
