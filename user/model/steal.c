// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* steal.c - steal time per CPU from /proc/stat's text: the 8th value of
 * each "cpu" line (user nice system idle iowait irq softirq steal). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/steal.h"

#define STEAL_FIELD 8 /* 1-based: the steal column */

/* The steal column of the cpu line at @p (after its label); -EINVAL. */
static int steal_of(const char *p, uint64_t *v)
{
	char *end;

	for (int i = 1; i <= STEAL_FIELD; i++) {
		while (*p == ' ')
			p++;
		if (*p < '0' || *p > '9')
			return -EINVAL;
		*v = strtoull(p, &end, 10);
		p = end;
	}
	return 0;
}

int ls_steal_parse(const char *text, struct ls_steal *out)
{
	const char *p = text;
	int have_total = 0;

	memset(out, 0, sizeof(*out));
	while (p && *p) {
		if (!strncmp(p, "cpu ", 4)) {
			if (steal_of(p + 4, &out->total))
				return -EINVAL;
			have_total = 1;
		} else if (!strncmp(p, "cpu", 3) && p[3] >= '0' &&
			   p[3] <= '9') {
			char *end;
			unsigned long n = strtoul(p + 3, &end, 10);
			uint64_t v;

			if (*end != ' ' || steal_of(end, &v))
				return -EINVAL;
			if (n < LS_STEAL_CPUS) {
				out->cpu[n] = v;
				if (n + 1 > out->ncpus)
					out->ncpus = (unsigned)n + 1;
			}
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	if (!have_total) {
		out->ncpus = 0;
		return -EINVAL;
	}
	if (!out->ncpus) { /* a "cpu" line alone: one CPU */
		out->ncpus = 1;
		out->cpu[0] = out->total;
	}
	return 0;
}

static uint64_t sub(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

void ls_steal_sub(struct ls_steal *d, const struct ls_steal *a,
		  const struct ls_steal *b)
{
	struct ls_steal r = {0};

	if (a->ncpus && b->ncpus) {
		r.ncpus = a->ncpus;
		r.total = sub(a->total, b->total);
		for (unsigned i = 0; i < a->ncpus; i++)
			r.cpu[i] = sub(a->cpu[i], i < b->ncpus ? b->cpu[i] : 0);
	}
	*d = r;
}

void ls_steal_format(char *buf, size_t len, const struct ls_steal *s, long hz)
{
	size_t off;
	unsigned top = 0;

	if (!s->ncpus || hz <= 0) {
		snprintf(buf, len, "not known");
		return;
	}
	off = (size_t)snprintf(buf, len, "%.2fs (",
			       (double)s->total / (double)hz);
	if (s->ncpus > 8) {
		for (unsigned i = 1; i < s->ncpus; i++)
			if (s->cpu[i] > s->cpu[top])
				top = i;
		if (off < len)
			snprintf(buf + off, len - off, "most on cpu%u %.2fs)",
				 top, (double)s->cpu[top] / (double)hz);
		return;
	}
	for (unsigned i = 0; i < s->ncpus && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%scpu%u %.2fs",
					i ? ", " : "", i,
					(double)s->cpu[i] / (double)hz);
	if (off < len)
		snprintf(buf + off, len - off, ")");
}
