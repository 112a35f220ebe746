// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* chains_text.c - a lock's wait-for chains as text: its blocked-holder
 * shares, then its top chains with their waits, time and root cause. */
#include "view/chains_text.h"
#include "view/fmt.h"

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

void ls_print_chains(FILE *f, const struct ls_snapshot *s,
		     const struct ls_row *r)
{
	struct ls_chain_sum sum;
	size_t idx[LS_CHAINS_SHOWN], n, total;
	char t[16], line[3 * LS_NAME_MAX + LS_FN_MAX + 96];

	if (!s->chains_on || !ls_kind_has_owner(r->key.kind))
		return;
	ls_chains_sum(s, &r->key, &sum);
	if (!sum.waits)
		return;
	fprintf(f,
		"  holder waiting on another lock: %.1f%% of waits, %.1f%% "
		"of wait time (%llu waits, %s; depth <= %u)\n",
		pct(sum.waits, r->st.contentions),
		pct(sum.wait_ns, r->st.total_ns), (unsigned long long)sum.waits,
		ls_fmt_dur(t, sizeof(t), sum.wait_ns, LS_DUR_FIXED),
		sum.max_depth);
	if (sum.cycles)
		fprintf(f,
			"  !! CYCLE: %llu waits on a chain that comes back to "
			"a lock already on it: a deadlock in the making\n",
			(unsigned long long)sum.cycles);
	n = ls_chains_ranked(s, &r->key, idx, LS_CHAINS_SHOWN, &total);
	for (size_t i = 0; i < n; i++) {
		const struct ls_chainrow *c = &s->chains[idx[i]];

		fprintf(f, "    %s%s: %llu waits, %s, holder tid %u\n",
			c->v.cycles ? "!! " : "",
			ls_chain_path(c, r->name, line, sizeof(line)),
			(unsigned long long)c->v.waits,
			ls_fmt_dur(t, sizeof(t), c->v.wait_ns, LS_DUR_FIXED),
			c->v.tid);
	}
	if (total > n)
		fprintf(f, "    (%zu more chains)\n", total - n);
}
