// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* cgroup_text.c - a lock's waits by cgroup as text lines under its hist
 * block (--by cgroup): by the waiter's cgroup (waits, share of the lock's
 * waits, wait time, longest wait), then by the holder's (waits begun while
 * a task of the cgroup held the lock, share of the waits begun); the
 * cgroups beyond LS_CG_SHOWN summed in one line. */
#include <string.h>
#include "view/cgroup_text.h"
#include "view/fmt.h"

static void line(FILE *f, const char *path, uint64_t n, uint64_t all,
		 const char *wait, const char *max)
{
	fprintf(f, "    %-40.40s %10llu %6.1f%% %9s %9s\n", path,
		(unsigned long long)n,
		all ? 100.0 * (double)n / (double)all : 0.0, wait, max);
}

/* The rows of @role: waits (waiter) or waits begun (holder) out of @all. */
static void table(FILE *f, const struct ls_snapshot *s, const struct ls_row *r,
		  uint32_t role, uint64_t all)
{
	size_t idx[LS_CG_SHOWN], total, first, n;
	uint64_t rest = 0, rest_ns = 0;
	int w = role == LS_CG_WAITER;
	char a[16], b[16];

	n = ls_cgrows_ranked(s, &r->key, role, idx, LS_CG_SHOWN, &total);
	ls_snap_cgrows_of(s, &r->key, role, &first);
	if (w)
		fprintf(f, "  waits by waiter cgroup (%zu cgroup%s):\n", total,
			total == 1 ? "" : "s");
	else
		fprintf(f,
			"  waits begun by holder cgroup (%zu cgroup%s; the "
			"holder task is known for mutex, rwsem writer and "
			"rt_mutex owners):\n",
			total, total == 1 ? "" : "s");
	if (!total) {
		fprintf(f, "    (none recorded%s)\n",
			w ? ": see the losses" : "");
		return;
	}
	fprintf(f, "    %-40s %10s %7s %9s %9s\n", "CGROUP",
		w ? "WAITS" : "BEGUN", "SHARE", w ? "WAIT" : "",
		w ? "MAX" : "");
	for (size_t i = 0; i < n; i++) {
		const struct ls_cgrow *c = &s->cgrows[idx[i]];

		line(f, c->path, w ? c->v.waits : c->v.begins, all,
		     w ? ls_fmt_dur(a, sizeof(a), c->v.wait_ns, LS_DUR_SHORT)
		       : "",
		     w ? ls_fmt_dur(b, sizeof(b), c->v.max_ns, LS_DUR_SHORT)
		       : "");
	}
	if (n == total)
		return;
	for (size_t i = first; i < first + total; i++) {
		int shown = 0;

		for (size_t j = 0; j < n; j++)
			shown |= idx[j] == i;
		if (!shown) {
			rest += w ? s->cgrows[i].v.waits
				  : s->cgrows[i].v.begins;
			rest_ns += s->cgrows[i].v.wait_ns;
		}
	}
	{
		char other[48];

		snprintf(other, sizeof(other), "(%zu other cgroups)",
			 total - n);
		line(f, other, rest, all,
		     w ? ls_fmt_dur(a, sizeof(a), rest_ns, LS_DUR_SHORT) : "",
		     w ? "-" : "");
	}
}

void ls_print_cgroups(FILE *f, const struct ls_snapshot *s,
		      const struct ls_row *r)
{
	size_t first, n;
	uint64_t all = 0;

	if (!s->by_cgroup)
		return;
	n = ls_snap_cgrows_of(s, &r->key, LS_CG_WAITER, &first);
	for (size_t i = first; i < first + n; i++)
		all += s->cgrows[i].v.waits;
	table(f, s, r, LS_CG_WAITER, all);
	if (ls_kind_has_owner(r->key.kind))
		table(f, s, r, LS_CG_HOLDER, r->st.begins);
}
