// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* sources.c - the data sources, their names and their status lines. */
#include <string.h>
#include "model/sources.h"

static const char *const mech_names[LS_MECH_MAX] = {
	[LS_MECH_NONE] = "none",     [LS_MECH_TP_BTF] = "tp_btf",
	[LS_MECH_RAW_TP] = "raw_tp", [LS_MECH_PERF_EVENT] = "perf_event",
	[LS_MECH_FENTRY] = "fentry", [LS_MECH_KPROBE] = "kprobe",
};

const char *ls_mech_name(enum ls_mech m)
{
	return (unsigned)m < LS_MECH_MAX ? mech_names[m] : "?";
}

void ls_source_set_mech(struct ls_source *s, enum ls_mech m)
{
	s->mech_id = m;
	snprintf(s->mech, sizeof(s->mech), "%s", ls_mech_name(m));
}

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
