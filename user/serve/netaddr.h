/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* netaddr.h - the listen address of `lockscope serve`, parsed and printed. */
#ifndef LS_NETADDR_H
#define LS_NETADDR_H

#include <stddef.h>
#include <sys/socket.h>

#define LS_DEF_LISTEN "127.0.0.1:9464"

/*
 * Parse "ADDR:PORT" (numeric IPv4, or "localhost"), "[ADDR6]:PORT", or
 * ":PORT" (every address: IPv6 any, dual-stack).  PORT 0 asks the kernel
 * for a free port.  Returns 0, or -EINVAL with a reason in @why.
 */
int ls_parse_listen(const char *s, struct sockaddr_storage *ss, socklen_t *len,
		    const char **why);
/* "127.0.0.1:9464", "[::1]:9464" */
const char *ls_addr_str(const struct sockaddr *sa, char *buf, size_t len);

#endif
