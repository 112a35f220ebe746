/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* caps.h - does this process hold what loading and attaching BPF needs? */
#ifndef LS_CAPS_H
#define LS_CAPS_H

#include <stddef.h>
#include <stdint.h>

/*
 * Name the capabilities missing from the effective set @eff (bit N is
 * capability N) into @buf: "" when CAP_SYS_ADMIN is there (kernels before
 * 5.8 know nothing else) or both CAP_BPF and CAP_PERFMON are, else
 * "CAP_BPF", "CAP_PERFMON" or "CAP_BPF and CAP_PERFMON".  Returns the
 * number of capabilities named.
 */
int ls_caps_missing(uint64_t eff, char *buf, size_t len);

/* The same for this process (capget): the count, names in @buf; 0 when
 * it cannot tell. */
int ls_caps_lack(char *buf, size_t len);

/*
 * Check this process: 0, or print one line "lockscope: failed to start
 * tracing: missing ..." and return -EPERM.
 */
int ls_caps_check(void);

#endif
