// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* steal.c - the hypervisor's steal time since the collector started, from
 * /proc/stat at start and at each read (parsed by model/steal.c). */
#include <stdio.h>
#include "collect/collector_int.h"

/* /proc/stat's steal now into @out; ncpus 0 when it cannot be read. */
static void steal_now(struct ls_steal *out)
{
	static char text[65536];
	FILE *f = fopen("/proc/stat", "r");
	size_t n = 0;

	out->ncpus = 0;
	if (!f)
		return;
	n = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[n] = 0;
	ls_steal_parse(text, out);
}

void ls_steal_start(struct ls_collector *c)
{
	steal_now(&c->steal0);
}

void ls_steal_since(struct ls_collector *c, struct ls_steal *out)
{
	struct ls_steal now;

	steal_now(&now);
	ls_steal_sub(out, &now, &c->steal0);
}
