// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* chains.c - wait-for chains of a snapshot (bpf/chains.bpf.h): their
 * order, intervals, a lock's chains summed and ranked, and the names,
 * root state and root site a view prints for one. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include "model/model.h"
#include "model/snapshot_int.h"

int ls_snap_add_chain(struct ls_snapshot *s, const struct ls_chainrow *c)
{
	if (ls_snap_reserve((void **)&s->chains, &s->chains_cap,
			    s->nchains + 1 > s->chains_cap
				    ? (s->chains_cap ? s->chains_cap * 2 : 64)
				    : s->chains_cap,
			    sizeof(*s->chains)))
		return -ENOMEM;
	s->chains[s->nchains++] = *c;
	return 0;
}

int ls_chain_cmp(const void *a, const void *b)
{
	const struct ls_chainrow *x = a, *y = b;
	int c = ls_key_cmp(&x->key, &y->key);

	if (!c)
		c = ls_key_cmp(&x->next, &y->next);
	if (!c)
		c = ls_key_cmp(&x->root, &y->root);
	return c;
}

static uint64_t sub(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

void ls_chains_delta(struct ls_snapshot *out, const struct ls_snapshot *prev)
{
	size_t j = 0, keep = 0;

	for (size_t i = 0; i < out->nchains; i++) {
		struct ls_chainrow *c = &out->chains[i];

		while (j < prev->nchains &&
		       ls_chain_cmp(&prev->chains[j], c) < 0)
			j++;
		if (j < prev->nchains && !ls_chain_cmp(&prev->chains[j], c)) {
			const struct ls_chain_val *p = &prev->chains[j].v;

			c->v.waits = sub(c->v.waits, p->waits);
			c->v.wait_ns = sub(c->v.wait_ns, p->wait_ns);
			c->v.cycles = sub(c->v.cycles, p->cycles);
			c->v.capped = sub(c->v.capped, p->capped);
			for (unsigned h = 0; h < LS_HOLDER_MAX; h++)
				c->v.root_waits[h] = sub(c->v.root_waits[h],
							 p->root_waits[h]);
		}
		if (c->v.waits)
			out->chains[keep++] = *c;
	}
	out->nchains = keep;
}

/* The first chain of lock @k (chains sorted), *@n how many it has. */
static size_t chains_of(const struct ls_snapshot *s,
			const struct ls_lock_key *k, size_t *n)
{
	size_t lo = 0, hi = s->nchains;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ls_key_cmp(&s->chains[mid].key, k) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	*n = 0;
	while (lo + *n < s->nchains && !ls_key_cmp(&s->chains[lo + *n].key, k))
		(*n)++;
	return lo;
}

void ls_chains_sum(const struct ls_snapshot *s, const struct ls_lock_key *k,
		   struct ls_chain_sum *sum)
{
	size_t n, first = chains_of(s, k, &n);

	*sum = (struct ls_chain_sum){.nchains = n};
	for (size_t i = first; i < first + n; i++) {
		const struct ls_chain_val *v = &s->chains[i].v;

		sum->waits += v->waits;
		sum->wait_ns += v->wait_ns;
		sum->cycles += v->cycles;
		sum->capped += v->capped;
		if (v->max_depth > sum->max_depth)
			sum->max_depth = v->max_depth;
	}
}

size_t ls_chains_ranked(const struct ls_snapshot *s,
			const struct ls_lock_key *k, size_t *idx, size_t max,
			size_t *total)
{
	size_t n, first = chains_of(s, k, &n), kept = 0;

	*total = n;
	for (size_t i = first; i < first + n; i++) {
		const struct ls_chain_val *v = &s->chains[i].v;
		size_t at = kept < max ? kept++ : max;

		/* insertion: cycles first (loud), then wait time, waits */
		while (at > 0) {
			const struct ls_chain_val *u =
				&s->chains[idx[at - 1]].v;
			int above = (v->cycles > 0) != (u->cycles > 0)
					    ? v->cycles > 0
				    : v->wait_ns != u->wait_ns
					    ? v->wait_ns > u->wait_ns
					    : v->waits > u->waits;

			if (!above)
				break;
			if (at < max)
				idx[at] = idx[at - 1];
			at--;
		}
		if (at < max)
			idx[at] = i;
	}
	return kept;
}

static void name_of(const struct ls_snapshot *s, const struct ls_lock_key *k,
		    int with_addr, char *buf, size_t len)
{
	const struct ls_row *r = ls_snap_find(s, k);

	if (r && r->name[0])
		snprintf(buf, len, "%s", r->name);
	else if (with_addr)
		snprintf(buf, len, "%s@%llx", ls_kind_base(k->kind),
			 (unsigned long long)k->addr);
	else
		snprintf(buf, len, "%s@?", ls_kind_base(k->kind));
}

void ls_chains_name(struct ls_snapshot *s, int with_addr)
{
	for (size_t i = 0; i < s->nchains; i++) {
		struct ls_chainrow *c = &s->chains[i];
		/* a rwsem's owner word names a writer only: the sites of
		 * its writers (its readers' are not the root holder's) */
		struct ls_lock_key wk = {.addr = c->root.addr,
					 .kind = c->root.kind};
		const struct ls_row *r;

		if (wk.kind == LS_KIND_RWSEM_R)
			wk.kind = LS_KIND_RWSEM_W;
		r = ls_snap_find(s, &wk);

		const struct ls_row *nr = ls_snap_find(s, &c->next);

		name_of(s, &c->next, with_addr, c->next_name,
			sizeof(c->next_name));
		if (nr && nr->name[0])
			ls_row_class(nr, c->next_cls, sizeof(c->next_cls));
		else
			snprintf(c->next_cls, sizeof(c->next_cls), "%s",
				 c->next_name);
		name_of(s, &c->root, with_addr, c->root_name,
			sizeof(c->root_name));
		c->root_site = r && r->nhsites ? r->hsites[0].fn : "";
	}
	ls_chains_rows(s);
}

void ls_chains_rows(struct ls_snapshot *s)
{
	for (size_t i = 0; i < s->nrows; i++) {
		struct ls_chain_sum sum;

		ls_chains_sum(s, &s->rows[i].key, &sum);
		s->rows[i].chain_waits = sum.waits;
		s->rows[i].chain_ns = sum.wait_ns;
	}
}

double ls_row_chain_pct(const struct ls_row *r)
{
	if (!ls_kind_has_owner(r->key.kind) || !r->st.contentions)
		return -1;
	return 100.0 * (double)r->chain_waits / (double)r->st.contentions;
}

unsigned ls_chain_root_state(const struct ls_chainrow *c)
{
	unsigned best = LS_HOLDER_UNKNOWN;

	for (unsigned h = 0; h < LS_HOLDER_MAX; h++)
		if (c->v.root_waits[h] > c->v.root_waits[best])
			best = h;
	return best;
}

const char *ls_chain_path(const struct ls_chainrow *c, const char *lock,
			  char *buf, size_t len)
{
	int n = snprintf(buf, len, "%s <- (holder waits on) %s", lock,
			 c->next_name);

	if (n >= 0 && (size_t)n < len && c->v.max_depth > 1)
		n += snprintf(
			buf + n, len - (size_t)n, "%s <- (holder waits on) %s",
			c->v.max_depth > 2 ? " <- ..." : "", c->root_name);
	if (n >= 0 && (size_t)n < len) {
		if (c->v.cycles)
			snprintf(buf + n, len - (size_t)n, " <- (cycle)");
		else
			snprintf(buf + n, len - (size_t)n,
				 " <- (holder %s)%s%s",
				 ls_holder_name(ls_chain_root_state(c)),
				 c->root_site[0] ? " " : "", c->root_site);
	}
	return buf;
}
