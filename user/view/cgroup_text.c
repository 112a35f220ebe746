// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* cgroup_text.c - a lock's waits by the waiter's cgroup as text lines under
 * its hist block (--by cgroup): waits, share of the lock's waits, wait
 * time, longest wait; the cgroups beyond LS_CG_SHOWN summed in one line. */
#include <string.h>
#include "view/cgroup_text.h"
#include "view/fmt.h"

static void line(FILE *f, const char *path, uint64_t waits, uint64_t all,
		 uint64_t wait_ns, const char *max)
{
	char w[16];

	fprintf(f, "    %-40.40s %10llu %6.1f%% %9s %9s\n", path,
		(unsigned long long)waits,
		all ? 100.0 * (double)waits / (double)all : 0.0,
		ls_fmt_dur(w, sizeof(w), wait_ns, LS_DUR_SHORT), max);
}

void ls_print_cgroups(FILE *f, const struct ls_snapshot *s,
		      const struct ls_row *r)
{
	size_t idx[LS_CG_SHOWN], total, n, first;
	uint64_t all = 0, rest_w = 0, rest_ns = 0;
	char mx[16];

	if (!s->by_cgroup)
		return;
	n = ls_cgrows_ranked(s, &r->key, idx, LS_CG_SHOWN, &total);
	ls_snap_cgrows_of(s, &r->key, &first);
	for (size_t i = first; i < first + total; i++)
		all += s->cgrows[i].v.waits;
	fprintf(f, "  waits by waiter cgroup (%zu cgroup%s):\n", total,
		total == 1 ? "" : "s");
	if (!total) {
		fprintf(f, "    (none recorded: see the losses)\n");
		return;
	}
	fprintf(f, "    %-40s %10s %7s %9s %9s\n", "CGROUP", "WAITS", "SHARE",
		"WAIT", "MAX");
	for (size_t i = 0; i < n; i++) {
		const struct ls_cgrow *c = &s->cgrows[idx[i]];

		line(f, c->path, c->v.waits, all, c->v.wait_ns,
		     ls_fmt_dur(mx, sizeof(mx), c->v.max_ns, LS_DUR_SHORT));
	}
	if (n == total)
		return;
	for (size_t i = first; i < first + total; i++) {
		int shown = 0;

		for (size_t j = 0; j < n; j++)
			shown |= idx[j] == i;
		if (!shown) {
			rest_w += s->cgrows[i].v.waits;
			rest_ns += s->cgrows[i].v.wait_ns;
		}
	}
	{
		char other[48];

		snprintf(other, sizeof(other), "(%zu other cgroups)",
			 total - n);
		line(f, other, rest_w, all, rest_ns, "-");
	}
}
