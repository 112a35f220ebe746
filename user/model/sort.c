// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* sort.c - per-row figures (average, minimum, spin won), the sort keys
 * and their names, and the row filter (-T, -L, the live view's /). */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "model/model.h"

uint64_t ls_row_avg_ns(const struct ls_row *r)
{
	return r->st.contentions ? r->st.total_ns / r->st.contentions : 0;
}

uint64_t ls_row_min_ns(const struct ls_row *r)
{
	return r->st.contentions && r->st.min_ns != ~0ULL ? r->st.min_ns : 0;
}

double ls_row_spin_won_pct(const struct ls_row *r)
{
	uint64_t n = r->st.spin_won + r->st.spin_failed;

	return n ? 100.0 * (double)r->st.spin_won / (double)n : -1.0;
}

const char *ls_row_top_caller(const struct ls_row *r)
{
	return r->ncallers ? r->callers[0].fn : "";
}

static const char *const sort_names[LS_SORT_NR] = {
	[LS_SORT_TOTAL] = "total",     [LS_SORT_COUNT] = "count",
	[LS_SORT_SPIN] = "spin",       [LS_SORT_SLEEP] = "sleep",
	[LS_SORT_AVG] = "avg",	       [LS_SORT_MAX_WAIT] = "max",
	[LS_SORT_WAITERS] = "waiters", [LS_SORT_PEAK] = "peak",
	[LS_SORT_NAME] = "name",       [LS_SORT_KIND] = "kind",
	[LS_SORT_WON] = "won",	       [LS_SORT_CALLER] = "caller",
	[LS_SORT_PRE] = "pre",	       [LS_SORT_BLK] = "blk",
};

int ls_sort_parse(const char *s, enum ls_sort *out)
{
	for (unsigned i = 0; i < LS_SORT_NR; i++)
		if (!strcasecmp(s, sort_names[i])) {
			*out = (enum ls_sort)i;
			return 0;
		}
	return -EINVAL;
}

static enum ls_sort sort_key;
static int sort_rev;

static uint64_t sort_val(const struct ls_row *r)
{
	switch (sort_key) {
	case LS_SORT_COUNT:
		return r->st.contentions;
	case LS_SORT_SPIN:
		return r->st.spin_ns;
	case LS_SORT_SLEEP:
		return r->st.sleep_ns;
	case LS_SORT_AVG:
		return ls_row_avg_ns(r);
	case LS_SORT_MAX_WAIT:
		return r->st.max_ns;
	case LS_SORT_WAITERS:
		return r->st.waiters > 0 ? (uint64_t)r->st.waiters : 0;
	case LS_SORT_PEAK:
		return r->st.peak_waiters;
	case LS_SORT_WON: {
		double w = ls_row_spin_won_pct(r);

		/* rows without spin phases sort below 0% */
		return w < 0 ? 0 : (uint64_t)(w * 1000.0) + 1;
	}
	case LS_SORT_PRE: {
		double p = ls_row_preempted_pct(r);

		/* rows without an owner word sort below 0% */
		return p < 0 ? 0 : (uint64_t)(p * 1000.0) + 1;
	}
	case LS_SORT_BLK: {
		double b = ls_row_chain_pct(r);

		return b < 0 ? 0 : (uint64_t)(b * 1000.0) + 1;
	}
	default:
		return r->st.total_ns;
	}
}

static int cmp_rows(const void *a, const void *b)
{
	const struct ls_row *x = a, *y = b;
	int c;

	if (sort_key == LS_SORT_NAME)
		c = strcmp(x->name, y->name);
	else if (sort_key == LS_SORT_KIND)
		c = strcmp(ls_kind_name(x->key.kind),
			   ls_kind_name(y->key.kind));
	else if (sort_key == LS_SORT_CALLER)
		c = strcmp(ls_row_top_caller(x), ls_row_top_caller(y));
	else {
		uint64_t vx = sort_val(x), vy = sort_val(y);

		c = vx == vy ? 0 : (vx > vy ? -1 : 1);
	}
	if (!c) /* stable tie-break: total wait, then key */
		c = x->st.total_ns == y->st.total_ns
			    ? ls_key_cmp(&x->key, &y->key)
			    : (x->st.total_ns > y->st.total_ns ? -1 : 1);
	return sort_rev ? -c : c;
}

struct sort_ent {
	uint64_t v; /* sort_val, once per row */
	size_t i;   /* the row's place before sorting */
	const struct ls_row *r;
};

static int cmp_ents(const void *a, const void *b)
{
	const struct sort_ent *x = a, *y = b;

	if (sort_key != LS_SORT_NAME && sort_key != LS_SORT_KIND &&
	    sort_key != LS_SORT_CALLER && x->v != y->v)
		return (x->v > y->v ? -1 : 1) * (sort_rev ? -1 : 1);
	return cmp_rows(x->r, y->r);
}

/* Entries of @n rows sorted by @key, the rows an array (@rows) or
 * pointers to them (@ptrs, when not NULL): NULL if out of memory. */
static struct sort_ent *sorted_ents(const struct ls_row *rows,
				    const struct ls_row *const *ptrs, size_t n,
				    enum ls_sort key, int reverse)
{
	struct sort_ent *e;

	sort_key = key; /* also for cmp_rows when this fails */
	sort_rev = reverse;
	e = malloc(n * sizeof(*e));
	if (!e)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		e[i].r = ptrs ? ptrs[i] : &rows[i];
		e[i].v = sort_val(e[i].r);
		e[i].i = i;
	}
	qsort(e, n, sizeof(*e), cmp_ents);
	return e;
}

/*
 * Rows are kilobytes each: sort small entries (each row's sort value
 * computed once), then move every row once along the permutation's
 * cycles.  Sorting the rows themselves copied 10k rows of 3.8 KB through a
 * merge buffer of their size on every frame of a big table.
 */
void ls_rows_sort(struct ls_row *rows, size_t n, enum ls_sort key, int reverse)
{
	struct sort_ent *e;
	struct ls_row *tmp;

	if (n < 2)
		return;
	e = sorted_ents(rows, NULL, n, key, reverse);
	tmp = malloc(sizeof(*tmp));
	if (!e || !tmp) { /* sort in place, slower */
		free(e);
		free(tmp);
		qsort(rows, n, sizeof(*rows), cmp_rows);
		return;
	}
	/* row k takes the row that was at e[k].i; a moved entry points at
	 * itself */
	for (size_t k = 0; k < n; k++) {
		size_t j = k;

		if (e[k].i == k)
			continue;
		*tmp = rows[k];
		while (e[j].i != k) {
			size_t from = e[j].i;

			rows[j] = rows[from];
			e[j].i = j;
			j = from;
		}
		rows[j] = *tmp;
		e[j].i = j;
	}
	free(tmp);
	free(e);
}

static int cmp_ptrs(const void *a, const void *b)
{
	return cmp_rows(*(const struct ls_row *const *)a,
			*(const struct ls_row *const *)b);
}

void ls_row_ptrs_sort(const struct ls_row **v, size_t n, enum ls_sort key,
		      int reverse)
{
	struct sort_ent *e;

	if (n < 2)
		return;
	e = sorted_ents(NULL, v, n, key, reverse);
	if (!e) { /* slower: each sort value computed per comparison */
		qsort(v, n, sizeof(*v), cmp_ptrs);
		return;
	}
	for (size_t i = 0; i < n; i++)
		v[i] = e[i].r;
	free(e);
}

void ls_rows_sort_first(struct ls_row *rows, size_t n, enum ls_sort key,
			int reverse, size_t k)
{
	struct sort_ent *e;
	size_t *at, *was; /* where row i is now; which row place p holds */
	struct ls_row *tmp;

	if (k >= n / 2) {
		ls_rows_sort(rows, n, key, reverse);
		return;
	}
	e = sorted_ents(rows, NULL, n, key, reverse);
	at = malloc(n * sizeof(*at));
	was = malloc(n * sizeof(*was));
	tmp = malloc(sizeof(*tmp));
	if (!e || !at || !was || !tmp) {
		free(e);
		free(at);
		free(was);
		free(tmp);
		ls_rows_sort(rows, n, key, reverse);
		return;
	}
	for (size_t i = 0; i < n; i++)
		at[i] = was[i] = i;
	/* swap the p-th row in order into place p, k swaps */
	for (size_t p = 0; p < k; p++) {
		size_t q = at[e[p].i], o = was[p];

		if (q == p)
			continue;
		*tmp = rows[p];
		rows[p] = rows[q];
		rows[q] = *tmp;
		at[o] = q;
		was[q] = o;
		at[e[p].i] = p;
		was[p] = e[p].i;
	}
	free(tmp);
	free(was);
	free(at);
	free(e);
}

int ls_row_match(const struct ls_row *r, const struct ls_filter *f)
{
	if (!f)
		return 1;
	if (f->kind_mask && !(f->kind_mask & (1U << r->key.kind)))
		return 0;
	/* a folded row (--by class) was filtered by address before folding */
	if (f->addr && r->key.addr != f->addr && !r->instances)
		return 0;
	/* (a row's class is the start of its name) */
	if (f->name && *f->name && !strstr(r->name, f->name))
		return 0;
	return 1;
}

void ls_snap_filter(struct ls_snapshot *s, const struct ls_filter *f)
{
	size_t keep = 0;

	for (size_t i = 0; i < s->nrows; i++)
		if (ls_row_match(&s->rows[i], f)) {
			if (keep != i)
				s->rows[keep] = s->rows[i];
			keep++;
		}
	if (keep != s->nrows) {
		s->kidx_n = 0;
		s->nrows = keep;
		ls_snap_holds_prune(s); /* theirs go with them */
	}
}
