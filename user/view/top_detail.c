// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* top_detail.c - the live view's page of one lock: the interval beside
 * the totals, probes, owner, callers, waiting tasks and its histogram. */
#include <stdlib.h>
#include <string.h>
#include "view/cgroup_text.h"
#include "view/chains_text.h"
#include "view/fmt.h"
#include "view/hist_text.h"
#include "view/holders_text.h"
#include "view/top_lines.h"
#include "view/top_text.h"

static int same_key(const struct ls_lock_key *a, const struct ls_lock_key *b)
{
	return a->addr == b->addr && a->kind == b->kind;
}

static int cmp_since(const void *a, const void *b)
{
	const struct ls_waiter *x = *(const struct ls_waiter *const *)a;
	const struct ls_waiter *y = *(const struct ls_waiter *const *)b;

	if (x->since_ns != y->since_ns)
		return x->since_ns < y->since_ns ? -1 : 1;
	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

static void detail_waiting(FILE *f, const struct ls_snapshot *cur,
			   const struct ls_lock_key *key)
{
	const struct ls_waiter **w;
	size_t n = 0;
	char age[32];

	w = calloc(cur->nwaiting ? cur->nwaiting : 1, sizeof(*w));
	if (!w) {
		fprintf(f, "waiting tasks: (out of memory)\n");
		return;
	}
	for (size_t i = 0; i < cur->nwaiting; i++)
		if (same_key(&cur->waiting[i].key, key))
			w[n++] = &cur->waiting[i];
	qsort(w, n, sizeof(*w), cmp_since);
	if (LS_KIND_IS_SPINNING(key->kind))
		fprintf(f, "waiting tasks: not listed for spinning locks "
			   "(their waits last microseconds)\n");
	else if (!n)
		fprintf(f, "waiting tasks: none when read\n");
	else {
		fprintf(f, "waiting tasks (%zu), longest first:\n", n);
		fprintf(f, "  %8s %8s  %-16s %-6s %s\n", "TID", "PID", "COMM",
			"PHASE", "WAITING");
	}
	for (size_t i = 0; i < n; i++)
		fprintf(f, "  %8u %8u  %-16s %-6s %s\n", w[i]->tid, w[i]->tgid,
			w[i]->comm,
			w[i]->phase == LS_PHASE_SPIN ? "spin" : "sleep",
			ls_fmt_dur(age, sizeof(age),
				   cur->waiting_ns > w[i]->since_ns
					   ? cur->waiting_ns - w[i]->since_ns
					   : 0,
				   LS_DUR_SHORT));
	free(w);
}

static void detail_owner(FILE *f, const struct ls_owner *o)
{
	if (!o) {
		fprintf(f, "owner: not read yet\n");
		return;
	}
	switch (o->state) {
	case LS_OWNER_TASK:
		fprintf(f,
			"owner: tid %u (%s), pid %u   (read each refresh, o: "
			"now)\n",
			o->tid, o->comm, o->tgid);
		break;
	case LS_OWNER_NONE:
		fprintf(f, "owner: none, the lock was free   (read each "
			   "refresh, o: now)\n");
		break;
	case LS_OWNER_READERS:
		fprintf(f, "owner: %llu reader%s",
			(unsigned long long)o->nreaders,
			o->nreaders == 1 ? "" : "s");
		/* the owner word keeps the last reader in: a hint, no more */
		if (o->tid)
			fprintf(f, ", the last to enter tid %u (%s)", o->tid,
				o->comm);
		fprintf(f, "   (o: read now)\n");
		break;
	default:
		fprintf(f, "owner: unknown: %s\n", o->why[0] ? o->why : "?");
	}
}

void ls_top_detail(FILE *f, const struct ls_top *t,
		   const struct ls_top_frame *fr, const struct ls_owner *owner,
		   int width)
{
	const struct ls_row *d =
		fr->delta ? ls_snap_find(fr->delta, &t->detail) : NULL;
	const struct ls_row *c =
		fr->cur ? ls_snap_find(fr->cur, &t->detail) : NULL;
	const struct ls_row *h = t->hist_total ? c : d;
	double secs = fr->secs > 0 ? fr->secs : 1, won;
	char a[32], b[32], x[96], y[96];
	int bars;

	if (!c) {
		fprintf(f, "this lock is no longer in the lock table\n");
		return;
	}
	/* two columns: the last interval and the totals since start */
	fprintf(f, "%s (%s)\n", c->name, ls_kind_name(c->key.kind));
	fprintf(f, "  %-22s %24s %24s\n", "", "last interval", "since start");
	if (d) {
		snprintf(x, sizeof(x), "%.1f/s",
			 (double)d->st.contentions / secs);
		fprintf(f, "  %-22s %24s %24llu\n", "contentions", x,
			(unsigned long long)c->st.contentions);
		snprintf(x, sizeof(x), "%.2f / %.2f ms/s",
			 (double)d->st.spin_ns / 1e6 / secs,
			 (double)d->st.sleep_ns / 1e6 / secs);
		ls_fmt_dur(a, sizeof(a), c->st.spin_ns, LS_DUR_SHORT);
		ls_fmt_dur(b, sizeof(b), c->st.sleep_ns, LS_DUR_SHORT);
		snprintf(y, sizeof(y), "%s / %s", a, b);
		fprintf(f, "  %-22s %24s %24s\n", "spin / sleep", x, y);
		if (d->st.contentions) {
			ls_fmt_dur(a, sizeof(a), ls_row_avg_ns(d),
				   LS_DUR_SHORT);
			ls_fmt_dur(b, sizeof(b), d->st.max_ns, LS_DUR_SHORT);
			snprintf(x, sizeof(x), "%s / %s%s", a,
				 d->max_bound ? "<" : "", b);
		} else {
			snprintf(x, sizeof(x), "- / -");
		}
		ls_fmt_dur(a, sizeof(a), ls_row_avg_ns(c), LS_DUR_SHORT);
		ls_fmt_dur(b, sizeof(b), c->st.max_ns, LS_DUR_SHORT);
		snprintf(y, sizeof(y), "%s / %s", a, b);
		fprintf(f, "  %-22s %24s %24s\n", "avg / max wait", x, y);
		snprintf(x, sizeof(x), "%llu / %llu",
			 (unsigned long long)d->st.peak_waiters,
			 (unsigned long long)d->st.gave_up);
		snprintf(y, sizeof(y), "%llu / %llu",
			 (unsigned long long)c->st.peak_waiters_all,
			 (unsigned long long)c->st.gave_up);
		fprintf(f, "  %-22s %24s %24s\n", "peak waiters / gave up", x,
			y);
	} else {
		fprintf(f, "  %-22s %24s %24llu\n", "contentions", "none",
			(unsigned long long)c->st.contentions);
		ls_fmt_dur(a, sizeof(a), c->st.spin_ns, LS_DUR_SHORT);
		ls_fmt_dur(b, sizeof(b), c->st.sleep_ns, LS_DUR_SHORT);
		snprintf(y, sizeof(y), "%s / %s", a, b);
		fprintf(f, "  %-22s %24s %24s\n", "spin / sleep", "-", y);
		ls_fmt_dur(a, sizeof(a), ls_row_avg_ns(c), LS_DUR_SHORT);
		ls_fmt_dur(b, sizeof(b), c->st.max_ns, LS_DUR_SHORT);
		snprintf(y, sizeof(y), "%s / %s", a, b);
		fprintf(f, "  %-22s %24s %24s\n", "avg / max wait", "-", y);
	}
	if (c->st.osq_calls || c->st.slow_calls) {
		/* function probes: parts of the wait above, never added to it
		 */
		ls_fmt_dur(a, sizeof(a), c->st.osq_ns, LS_DUR_SHORT);
		fprintf(f,
			"osq_lock (part of spin): %s in %llu calls, %llu "
			"bailed out",
			a, (unsigned long long)c->st.osq_calls,
			(unsigned long long)c->st.osq_bailouts);
		if (c->osq_vcpu_known && c->st.osq_bailouts)
			fprintf(f, " (%llu with the previous vCPU preempted)",
				(unsigned long long)c->osq_prev_preempted);
		fprintf(f, ", peak %llu spinners\n",
			(unsigned long long)c->st.osq_peak);
		ls_fmt_dur(a, sizeof(a), c->st.slow_ns, LS_DUR_SHORT);
		ls_fmt_dur(b, sizeof(b), c->st.slow_untraced_ns, LS_DUR_SHORT);
		fprintf(f,
			"slow path: %s in %llu calls, %s outside tracepoint "
			"waits%s\n",
			a, (unsigned long long)c->st.slow_calls, b,
			c->key.kind == LS_KIND_RWSEM_W ? " (writer spin)" : "");
	}
	won = ls_row_spin_won_pct(c);
	fprintf(f, "waiting now: %lld",
		(long long)(c->st.waiters > 0 ? c->st.waiters : 0));
	if (won >= 0)
		fprintf(f,
			"   spin won the lock: %llu of %llu spin phases "
			"(%.1f%%)",
			(unsigned long long)c->st.spin_won,
			(unsigned long long)(c->st.spin_won +
					     c->st.spin_failed),
			won);
	fputc('\n', f);
	detail_owner(f, owner);
	if (c->ncallers) {
		char line[LS_TOP_LINE];

		snprintf(line, sizeof(line),
			 "callers (%llu sampled stacks, one every %u "
			 "contentions):",
			 (unsigned long long)c->caller_samples,
			 fr->stack_every);
		for (unsigned i = 0; i < c->ncallers; i++)
			ls_line_cat(line, sizeof(line), "%s %s %.0f%%",
				    i ? "," : "", c->callers[i].fn,
				    100.0 * (double)c->callers[i].samples /
					    (double)c->caller_samples);
		ls_wrap_page(f, line, width);
	} else {
		fprintf(f,
			"callers: none sampled yet (one stack every %u "
			"contentions)\n",
			fr->stack_every);
	}
	if (d && ls_kind_has_owner(c->key.kind)) {
		fputs("holder at wait start, last interval: ", f);
		ls_print_holder_states(f, d);
		fputc('\n', f);
	}
	fputs("holders since start:\n", f);
	ls_print_holders(f, c, 0);
	ls_print_chains(f, fr->cur, c);
	if (fr->cur->by_cgroup) {
		/* --by cgroup: who waited and who held, over the interval */
		if (d)
			ls_print_cgroups_rate(f, fr->delta, d, secs, "");
		else
			fprintf(f, "waits by cgroup: none in the last "
				   "interval\n");
	}
	detail_waiting(f, fr->cur, &t->detail);
	fprintf(f, "wait histogram, %s (t: %s):\n",
		t->hist_total ? "since start" : "last interval",
		t->hist_total ? "last interval" : "since start");
	if (!h) {
		fprintf(f, "    (no waits)\n");
		return;
	}
	bars = width - 52;
	if (bars < 10)
		bars = 10;
	if (bars > 60)
		bars = 60;
	if (h->st.spin_ns && h->st.sleep_ns)
		ls_hist_print(f, "spin", h->hi.hist_spin, "sleep",
			      h->hi.hist_sleep, bars);
	else if (h->st.spin_ns)
		ls_hist_print(f, "spin", h->hi.hist_spin, NULL, NULL, bars);
	else
		ls_hist_print(f, "sleep", h->hi.hist_sleep, NULL, NULL, bars);
}
