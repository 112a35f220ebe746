// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* netaddr.c - the listen address of `lockscope serve`, parsed and printed. */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include "serve/netaddr.h"

int ls_parse_listen(const char *s, struct sockaddr_storage *ss, socklen_t *len,
		    const char **why)
{
	char host[INET6_ADDRSTRLEN + 8];
	const char *colon, *port_s;
	unsigned long port;
	char *end;
	size_t hl;

	memset(ss, 0, sizeof(*ss));
	*why = "expected ADDR:PORT, [ADDR6]:PORT or :PORT";
	if (!s || !*s)
		return -EINVAL;
	if (*s == '[') {
		const char *close = strchr(s, ']');

		if (!close || close[1] != ':')
			return -EINVAL;
		hl = (size_t)(close - s - 1);
		if (!hl || hl >= sizeof(host))
			return -EINVAL;
		memcpy(host, s + 1, hl);
		host[hl] = '\0';
		port_s = close + 2;
	} else {
		colon = strrchr(s, ':');
		if (!colon)
			return -EINVAL;
		hl = (size_t)(colon - s);
		if (hl >= sizeof(host) || memchr(s, ':', hl))
			return -EINVAL; /* IPv6 needs brackets */
		memcpy(host, s, hl);
		host[hl] = '\0';
		port_s = colon + 1;
	}
	errno = 0;
	port = isdigit((unsigned char)*port_s) ? strtoul(port_s, &end, 10) : 0;
	if (!isdigit((unsigned char)*port_s) || *end || errno || port > 65535) {
		*why = "the port must be a number from 0 to 65535";
		return -EINVAL;
	}
	if (*s == '[' || !*host) {
		struct sockaddr_in6 *a = (struct sockaddr_in6 *)ss;

		a->sin6_family = AF_INET6;
		a->sin6_port = htons((uint16_t)port);
		if (*host && inet_pton(AF_INET6, host, &a->sin6_addr) != 1) {
			*why = "not a numeric IPv6 address";
			return -EINVAL;
		}
		*len = sizeof(*a);
	} else {
		struct sockaddr_in *a = (struct sockaddr_in *)ss;

		a->sin_family = AF_INET;
		a->sin_port = htons((uint16_t)port);
		if (!strcmp(host, "localhost"))
			a->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		else if (inet_pton(AF_INET, host, &a->sin_addr) != 1) {
			*why = "not a numeric IPv4 address (use [ADDR] for "
			       "IPv6)";
			return -EINVAL;
		}
		*len = sizeof(*a);
	}
	return 0;
}

const char *ls_addr_str(const struct sockaddr *sa, char *buf, size_t len)
{
	char a[INET6_ADDRSTRLEN];

	if (sa->sa_family == AF_INET6) {
		const struct sockaddr_in6 *s6 = (const void *)sa;

		inet_ntop(AF_INET6, &s6->sin6_addr, a, sizeof(a));
		snprintf(buf, len, "[%s]:%u", a, ntohs(s6->sin6_port));
	} else {
		const struct sockaddr_in *s4 = (const void *)sa;

		inet_ntop(AF_INET, &s4->sin_addr, a, sizeof(a));
		snprintf(buf, len, "%s:%u", a, ntohs(s4->sin_port));
	}
	return buf;
}
