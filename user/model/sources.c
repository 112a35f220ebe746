// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* sources.c - the data sources, their names and their status lines. */
#include <string.h>
#include "model/sources.h"

void ls_sources_print(FILE *f, const struct ls_source *src, unsigned n)
{
	fprintf(f, "%-32s %-10s %-9s %-7s %s\n", "SOURCE", "MECHANISM",
		"AVAILABLE", "ACTIVE", "REASON");
	for (unsigned i = 0; i < n; i++)
		fprintf(f, "%-32s %-10s %-9s %-7s %s\n", src[i].name,
			src[i].mech[0] ? src[i].mech : "-",
			src[i].available ? "yes" : "no",
			src[i].active ? "yes" : "no", src[i].reason);
}

const char *ls_sources_active(const struct ls_source *src, unsigned n,
			      char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < n && off < len; i++) {
		if (!src[i].active)
			continue;
		off += (size_t)snprintf(buf + off, len - off, "%s%s (%s)",
					off ? ", " : "", src[i].name,
					src[i].mech);
	}
	if (!off)
		snprintf(buf, len, "none");
	return buf;
}
