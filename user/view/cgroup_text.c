// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* cgroup_text.c - a lock's waits by cgroup as text lines (--by cgroup):
 * under its hist block and top's frames and detail page.  By the waiter's
 * cgroup (waits, share of the lock's waits, wait time, longest wait), then
 * by the holder's (waits begun while a task of the cgroup held the lock,
 * share of the waits begun); the cgroups beyond LS_CG_SHOWN summed in one
 * line.  hist prints counts and times; top the interval's rates, as its
 * rows do. */
#include <string.h>
#include "view/cgroup_text.h"
#include "view/fmt.h"
#include "util/untrusted_text.h"

/* How one table prints: counts since start, or rates over @secs. */
struct cg_fmt {
	const char *indent;
	double secs; /* > 0: per second over the interval (top) */
};

static void line(FILE *f, const struct cg_fmt *m, const char *path, uint64_t n,
		 uint64_t all, const char *wait, const char *max)
{
	/* the path in 40 columns, cut between characters */
	fprintf(f, "%s  ", m->indent);
	ls_text_pad(f, path, 40);
	if (m->secs > 0) /* the holder's lines have no wait time */
		fprintf(f, " %10.0f %6.1f%%%s%*s\n", (double)n / m->secs,
			all ? 100.0 * (double)n / (double)all : 0.0,
			wait[0] ? " " : "", wait[0] ? 9 : 0, wait);
	else
		fprintf(f, " %10llu %6.1f%% %9s %9s\n", (unsigned long long)n,
			all ? 100.0 * (double)n / (double)all : 0.0, wait, max);
}

/* Wait time @ns as the table shows it: a duration, or ms/s. */
static const char *wait_cell(char *buf, size_t len, const struct cg_fmt *m,
			     uint64_t ns)
{
	if (m->secs > 0) {
		snprintf(buf, len, "%.2f", (double)ns / 1e6 / m->secs);
		return buf;
	}
	return ls_fmt_dur(buf, len, ns, LS_DUR_SHORT);
}

static void title(FILE *f, const struct cg_fmt *m, int w, size_t total)
{
	const char *when = m->secs > 0 ? ", last interval" : "";

	if (w)
		fprintf(f, "%swaits by waiter cgroup (%zu cgroup%s%s):\n",
			m->indent, total, total == 1 ? "" : "s", when);
	else if (m->secs > 0) /* top: within 80 columns */
		fprintf(f, "%swaits begun by holder cgroup (%zu cgroup%s%s):\n",
			m->indent, total, total == 1 ? "" : "s", when);
	else
		fprintf(f,
			"%swaits begun by holder cgroup (%zu cgroup%s; the "
			"holder task is known for mutex, rwsem writer and "
			"rt_mutex owners):\n",
			m->indent, total, total == 1 ? "" : "s");
	if (!total) {
		fprintf(f, "%s  (none recorded%s)\n", m->indent,
			w ? ": see the losses" : "");
		return;
	}
	if (m->secs > 0)
		fprintf(f, "%s  %-40s %10s %7s%s\n", m->indent, "CGROUP",
			w ? "WAITS/s" : "BEGUN/s", "SHARE",
			w ? "  WAITms/s" : "");
	else
		fprintf(f, "%s  %-40s %10s %7s %9s %9s\n", m->indent, "CGROUP",
			w ? "WAITS" : "BEGUN", "SHARE", w ? "WAIT" : "",
			w ? "MAX" : "");
}

/* The rows of @role: waits (waiter) or waits begun (holder) out of @all. */
static void table(FILE *f, const struct cg_fmt *m, const struct ls_snapshot *s,
		  const struct ls_row *r, uint32_t role, uint64_t all)
{
	size_t idx[LS_CG_SHOWN], total, first, n;
	uint64_t rest = 0, rest_ns = 0;
	int w = role == LS_CG_WAITER;
	char a[16], b[16], other[48];

	n = ls_cgrows_ranked(s, &r->key, role, idx, LS_CG_SHOWN, &total);
	ls_snap_cgrows_of(s, &r->key, role, &first);
	title(f, m, w, total);
	for (size_t i = 0; i < n; i++) {
		const struct ls_cgrow *c = &s->cgrows[idx[i]];

		line(f, m, c->path, w ? c->v.waits : c->v.begins, all,
		     w ? wait_cell(a, sizeof(a), m, c->v.wait_ns) : "",
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
	snprintf(other, sizeof(other), "(%zu other cgroups)", total - n);
	line(f, m, other, rest, all,
	     w ? wait_cell(a, sizeof(a), m, rest_ns) : "", w ? "-" : "");
}

static void print_both(FILE *f, const struct cg_fmt *m,
		       const struct ls_snapshot *s, const struct ls_row *r)
{
	size_t first, n;
	uint64_t all = 0;

	if (!s->by_cgroup)
		return;
	n = ls_snap_cgrows_of(s, &r->key, LS_CG_WAITER, &first);
	for (size_t i = first; i < first + n; i++)
		all += s->cgrows[i].v.waits;
	table(f, m, s, r, LS_CG_WAITER, all);
	if (ls_kind_has_owner(r->key.kind))
		table(f, m, s, r, LS_CG_HOLDER, r->st.begins);
}

void ls_print_cgroups(FILE *f, const struct ls_snapshot *s,
		      const struct ls_row *r)
{
	const struct cg_fmt m = {"  ", 0};

	print_both(f, &m, s, r);
}

void ls_print_cgroups_rate(FILE *f, const struct ls_snapshot *d,
			   const struct ls_row *r, double secs,
			   const char *indent)
{
	const struct cg_fmt m = {indent, secs > 0 ? secs : 1e-9};

	print_both(f, &m, d, r);
}
