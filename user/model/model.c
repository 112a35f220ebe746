// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* model.c - snapshots in plain C: the lock table, its index, deltas
 * between two snapshots, sort and filter. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "model/model.h"

void ls_snap_init(struct ls_snapshot *s)
{
	memset(s, 0, sizeof(*s));
}

void ls_snap_free(struct ls_snapshot *s)
{
	free(s->kidx);
	free(s->rows);
	free(s->cpu_all);
	free(s->cpu_spin);
	free(s->spin_callers);
	free(s->waiting);
	memset(s, 0, sizeof(*s));
}

void ls_snap_clear(struct ls_snapshot *s)
{
	s->nrows = 0;
	s->kidx_n = 0;
	s->nspin_callers = 0;
	s->nwaiting = 0;
}

int ls_snap_set_ncpus(struct ls_snapshot *s, unsigned ncpus)
{
	uint64_t *a = calloc(ncpus ? ncpus : 1, sizeof(*a));
	uint64_t *b = calloc(ncpus ? ncpus : 1, sizeof(*b));

	if (!a || !b) {
		free(a);
		free(b);
		return -ENOMEM;
	}
	free(s->cpu_all);
	free(s->cpu_spin);
	s->cpu_all = a;
	s->cpu_spin = b;
	s->ncpus = ncpus;
	return 0;
}

struct ls_row *ls_snap_add_row(struct ls_snapshot *s,
			       const struct ls_lock_key *key)
{
	struct ls_row *r;

	if (s->nrows == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 256;

		r = realloc(s->rows, cap * sizeof(*r));
		if (!r)
			return NULL;
		s->rows = r;
		s->cap = cap;
	}
	r = &s->rows[s->nrows++];
	memset(r, 0, sizeof(*r));
	r->key = *key;
	s->kidx_n = 0; /* index again before finding */
	return r;
}

int ls_key_cmp(const struct ls_lock_key *a, const struct ls_lock_key *b)
{
	if (a->addr != b->addr)
		return a->addr < b->addr ? -1 : 1;
	if (a->kind != b->kind)
		return a->kind < b->kind ? -1 : 1;
	return 0;
}

static uint64_t key_hash(const struct ls_lock_key *k)
{
	uint64_t h =
		(k->addr ^ ((uint64_t)k->kind << 59)) * 0x9e3779b97f4a7c15ULL;

	return h ^ (h >> 29);
}

/*
 * Open addressing, at most half full: a slot holds row + 1 in its low 32
 * bits (0: empty) and the key's hash in the high 32, so most lookups touch
 * one slot and one row.  Indexing moves no rows (over a kilobyte each).
 * With 10k locks read every second, sorting rows and binary searches over
 * them were most of the agent's time.
 */
void ls_snap_index(struct ls_snapshot *s)
{
	size_t cap = 64;

	s->kidx_n = 0;
	if (s->nrows >= UINT32_MAX)
		return; /* ls_snap_find scans */
	while (cap < 2 * s->nrows)
		cap *= 2;
	if (cap > s->kidx_cap) {
		uint64_t *k = realloc(s->kidx, cap * sizeof(*k));

		if (!k)
			return;
		s->kidx = k;
		s->kidx_cap = cap;
	}
	cap = s->kidx_cap;
	memset(s->kidx, 0, cap * sizeof(*s->kidx));
	for (size_t i = 0; i < s->nrows; i++) {
		uint64_t h = key_hash(&s->rows[i].key);
		size_t j = h & (cap - 1);

		while (s->kidx[j])
			j = (j + 1) & (cap - 1);
		s->kidx[j] = (h & 0xffffffff00000000ULL) | (uint64_t)(i + 1);
	}
	s->kidx_n = s->nrows;
}

struct ls_row *ls_snap_find(const struct ls_snapshot *s,
			    const struct ls_lock_key *key)
{
	if (s->kidx_n == s->nrows && s->kidx_cap) {
		uint64_t h = key_hash(key), tag = h & 0xffffffff00000000ULL;
		size_t cap = s->kidx_cap, j = h & (cap - 1);
		int moved = 0;

		for (; s->kidx[j]; j = (j + 1) & (cap - 1)) {
			size_t r = (size_t)(s->kidx[j] & 0xffffffffULL) - 1;

			if ((s->kidx[j] & 0xffffffff00000000ULL) != tag)
				continue;
			if (r < s->nrows && !ls_key_cmp(&s->rows[r].key, key))
				return &s->rows[r];
			moved = 1; /* rows sorted since indexing */
		}
		if (!moved)
			return NULL;
	}
	for (size_t i = 0; i < s->nrows; i++)
		if (!ls_key_cmp(&s->rows[i].key, key))
			return &s->rows[i];
	return NULL;
}

void ls_row_add_caller(struct ls_row *row, const char *fn, uint64_t samples)
{
	unsigned i;

	row->caller_samples += samples;
	for (i = 0; i < row->ncallers; i++)
		if (!strcmp(row->callers[i].fn, fn))
			break;
	if (i == row->ncallers) {
		if (row->ncallers < LS_ROW_CALLERS) {
			i = row->ncallers++;
		} else {
			i = LS_ROW_CALLERS - 1;
			if (row->callers[i].samples >= samples)
				return; /* still counted in caller_samples */
			row->callers[i].samples = 0;
		}
		{
			size_t n = strnlen(fn, sizeof(row->callers[i].fn) - 1);

			memcpy(row->callers[i].fn, fn, n);
			row->callers[i].fn[n] = '\0';
		}
	}
	row->callers[i].samples += samples;
	while (i > 0 && row->callers[i].samples > row->callers[i - 1].samples) {
		struct ls_caller t = row->callers[i];

		row->callers[i] = row->callers[i - 1];
		row->callers[i - 1] = t;
		i--;
	}
}

int ls_snap_add_spin_caller(struct ls_snapshot *s, uint32_t func,
			    const char *fn, uint64_t samples)
{
	struct ls_spin_caller *c;

	for (size_t i = 0; i < s->nspin_callers; i++) {
		c = &s->spin_callers[i];
		if (c->func == func && !strcmp(c->fn, fn)) {
			c->samples += samples;
			return 0;
		}
	}
	if (s->nspin_callers == s->spin_cap) {
		size_t cap = s->spin_cap ? s->spin_cap * 2 : 64;

		c = realloc(s->spin_callers, cap * sizeof(*c));
		if (!c)
			return -ENOMEM;
		s->spin_callers = c;
		s->spin_cap = cap;
	}
	c = &s->spin_callers[s->nspin_callers++];
	c->func = func;
	snprintf(c->fn, sizeof(c->fn), "%s", fn);
	c->samples = samples;
	return 0;
}

int ls_snap_add_waiter(struct ls_snapshot *s, const struct ls_waiter *w)
{
	if (s->nwaiting == s->waiting_cap) {
		size_t cap = s->waiting_cap ? s->waiting_cap * 2 : 64;
		struct ls_waiter *n = realloc(s->waiting, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		s->waiting = n;
		s->waiting_cap = cap;
	}
	s->waiting[s->nwaiting++] = *w;
	return 0;
}

uint64_t ls_snap_lost(const struct ls_snapshot *s)
{
	return s->loss[LS_LOSS_TASK_MAP_FULL] + s->loss[LS_LOSS_DEPTH] +
	       s->loss[LS_LOSS_LOCK_MAP_FULL] + s->loss[LS_LOSS_ORPHANED];
}

/* Make room for @n elements of @size in *@buf (capacity *@cap). */
static int reserve(void **buf, size_t *cap, size_t n, size_t size)
{
	void *p;

	if (n <= *cap)
		return 0;
	p = realloc(*buf, n * size);
	if (!p)
		return -ENOMEM;
	*buf = p;
	*cap = n;
	return 0;
}

/* Everything but the rows and their index; @dst's buffers are reused, so
 * a snapshot refreshed every second stops allocating after the first. */
static int copy_meta(struct ls_snapshot *dst, const struct ls_snapshot *src)
{
	struct ls_snapshot keep = *dst;
	size_t cpus_cap = dst->cpu_all ? dst->ncpus : 0;

	*dst = *src;
	dst->rows = keep.rows;
	dst->cap = keep.cap;
	dst->nrows = 0;
	dst->kidx = keep.kidx;
	dst->kidx_cap = keep.kidx_cap;
	dst->kidx_n = 0;
	dst->spin_callers = keep.spin_callers;
	dst->spin_cap = keep.spin_cap;
	dst->cpu_all = keep.cpu_all;
	dst->cpu_spin = keep.cpu_spin;
	dst->ncpus = keep.ncpus;
	dst->waiting = keep.waiting;
	dst->waiting_cap = keep.waiting_cap;
	if (reserve((void **)&dst->waiting, &dst->waiting_cap, src->nwaiting,
		    sizeof(*dst->waiting)))
		return -ENOMEM;
	if (src->nwaiting)
		memcpy(dst->waiting, src->waiting,
		       src->nwaiting * sizeof(*dst->waiting));
	if (src->ncpus) {
		if (src->ncpus > cpus_cap || !dst->cpu_all) {
			if (ls_snap_set_ncpus(dst, src->ncpus))
				return -ENOMEM;
		}
		dst->ncpus = src->ncpus;
		memcpy(dst->cpu_all, src->cpu_all,
		       src->ncpus * sizeof(uint64_t));
		memcpy(dst->cpu_spin, src->cpu_spin,
		       src->ncpus * sizeof(uint64_t));
	}
	if (reserve((void **)&dst->spin_callers, &dst->spin_cap,
		    src->nspin_callers, sizeof(*dst->spin_callers)))
		return -ENOMEM;
	if (src->nspin_callers)
		memcpy(dst->spin_callers, src->spin_callers,
		       src->nspin_callers * sizeof(*dst->spin_callers));
	return 0;
}

int ls_snap_copy(struct ls_snapshot *dst, const struct ls_snapshot *src)
{
	if (copy_meta(dst, src) || reserve((void **)&dst->rows, &dst->cap,
					   src->nrows, sizeof(*dst->rows)))
		goto fail;
	if (src->nrows)
		memcpy(dst->rows, src->rows, src->nrows * sizeof(*dst->rows));
	dst->nrows = src->nrows;
	if (src->kidx_n == src->nrows && src->kidx_cap) {
		if (src->kidx_cap != dst->kidx_cap) {
			uint64_t *k =
				realloc(dst->kidx, src->kidx_cap * sizeof(*k));

			if (!k)
				goto fail;
			dst->kidx = k;
			dst->kidx_cap = src->kidx_cap;
		}
		memcpy(dst->kidx, src->kidx,
		       src->kidx_cap * sizeof(*dst->kidx));
		dst->kidx_n = src->nrows;
	}
	return 0;
fail:
	ls_snap_free(dst);
	return -ENOMEM;
}

static uint64_t sub(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

void ls_stats_delta(const struct ls_lock_stats *cur,
		    const struct ls_lock_stats *prev, struct ls_lock_stats *out)
{
	*out = *cur;
	if (!prev)
		return;
	out->contentions = sub(cur->contentions, prev->contentions);
	out->total_ns = sub(cur->total_ns, prev->total_ns);
	out->spin_ns = sub(cur->spin_ns, prev->spin_ns);
	out->sleep_ns = sub(cur->sleep_ns, prev->sleep_ns);
	out->spin_won = sub(cur->spin_won, prev->spin_won);
	out->spin_failed = sub(cur->spin_failed, prev->spin_failed);
	out->gave_up = sub(cur->gave_up, prev->gave_up);
	out->begins = sub(cur->begins, prev->begins);
	out->osq_ns = sub(cur->osq_ns, prev->osq_ns);
	out->osq_calls = sub(cur->osq_calls, prev->osq_calls);
	out->osq_bailouts = sub(cur->osq_bailouts, prev->osq_bailouts);
	out->slow_ns = sub(cur->slow_ns, prev->slow_ns);
	out->slow_calls = sub(cur->slow_calls, prev->slow_calls);
	out->slow_untraced_ns =
		sub(cur->slow_untraced_ns, prev->slow_untraced_ns);
	for (unsigned i = 0; i < LS_HIST_SLOTS; i++) {
		out->hist[i] = sub(cur->hist[i], prev->hist[i]);
		out->hist_spin[i] = sub(cur->hist_spin[i], prev->hist_spin[i]);
		out->hist_sleep[i] =
			sub(cur->hist_sleep[i], prev->hist_sleep[i]);
	}
	/* min and max since start are all the kernel keeps; an interval's
	 * max is bounded by its histogram's highest slot. */
	if (!out->contentions) {
		out->min_ns = ~0ULL;
		out->max_ns = 0;
	}
}

/* Highest non-empty slot of @h, or -1. */
static int top_slot(const __u64 *h)
{
	for (int i = LS_HIST_SLOTS - 1; i >= 0; i--)
		if (h[i])
			return i;
	return -1;
}

/*
 * The kernel keeps the largest wait and the peak of the waiters gauge since
 * start (the peak also per epoch); turn them into the interval's figures.
 */
static void interval_extrema(struct ls_row *r, const struct ls_row *p,
			     uint64_t epoch, struct ls_lock_stats *d)
{
	int top = top_slot(d->hist);

	r->max_bound = 0;
	if (d->contentions && p && r->st.max_ns <= p->st.max_ns && top >= 0) {
		/* No new maximum: the longest wait of the interval lies in the
		 * highest slot of its histogram and not above the old max. */
		uint64_t hi = top < LS_HIST_SLOTS - 1 ? 1ULL << (top + 1)
						      : p->st.max_ns;

		d->max_ns = hi < p->st.max_ns ? hi : p->st.max_ns;
		r->max_bound = 1;
	}
	if (r->st.peak_epoch != epoch) {
		/* No wait began in this interval: the gauge only fell, so its
		 * peak is where it stood at the start (or now). */
		int64_t a = p ? p->st.waiters : 0, b = r->st.waiters;
		int64_t m = a > b ? a : b;

		d->peak_waiters = m > 0 ? (uint64_t)m : 0;
	}
}

int ls_snap_delta(const struct ls_snapshot *cur, const struct ls_snapshot *prev,
		  struct ls_snapshot *out)
{
	size_t keep = 0;
	int err;

	if (!prev)
		return ls_snap_copy(out, cur);
	/* rows are copied one by one below, only those that changed */
	err = copy_meta(out, cur);
	if (!err)
		err = reserve((void **)&out->rows, &out->cap, cur->nrows,
			      sizeof(*out->rows));
	if (err) {
		ls_snap_free(out);
		return err;
	}
	for (unsigned i = 0; i < LS_CTR_MAX; i++)
		out->ctr[i] = sub(cur->ctr[i], prev->ctr[i]);
	for (unsigned i = 0; i < LS_LOSS_MAX; i++)
		out->loss[i] = sub(cur->loss[i], prev->loss[i]);
	for (unsigned i = 0; i < LS_SPIN_SLOTS; i++)
		out->func_samples[i] =
			sub(cur->func_samples[i], prev->func_samples[i]);
	for (unsigned c = 0; c < cur->ncpus && c < prev->ncpus; c++) {
		out->cpu_all[c] = sub(cur->cpu_all[c], prev->cpu_all[c]);
		out->cpu_spin[c] = sub(cur->cpu_spin[c], prev->cpu_spin[c]);
	}
	for (unsigned p = 0; p < cur->nprogs && p < prev->nprogs; p++) {
		out->prog[p].run_cnt =
			sub(cur->prog[p].run_cnt, prev->prog[p].run_cnt);
		out->prog[p].run_ns =
			sub(cur->prog[p].run_ns, prev->prog[p].run_ns);
		out->prog[p].misses =
			sub(cur->prog[p].misses, prev->prog[p].misses);
	}
	for (size_t i = 0; i < out->nspin_callers; i++) {
		struct ls_spin_caller *c = &out->spin_callers[i];

		for (size_t j = 0; j < prev->nspin_callers; j++) {
			const struct ls_spin_caller *p = &prev->spin_callers[j];

			if (p->func == c->func && !strcmp(p->fn, c->fn)) {
				c->samples = sub(c->samples, p->samples);
				break;
			}
		}
	}
	for (size_t i = 0; i < cur->nrows; i++) {
		const struct ls_row *c = &cur->rows[i];
		const struct ls_row *p = ls_snap_find(prev, &c->key);
		struct ls_lock_stats d;

		/* most rows of a big table did not change: skip them early */
		if (p && c->st.begins == p->st.begins &&
		    c->st.contentions == p->st.contentions &&
		    c->st.waiters <= 0 && c->st.osq_calls == p->st.osq_calls &&
		    c->st.slow_calls == p->st.slow_calls)
			continue;
		ls_stats_delta(&c->st, p ? &p->st : NULL, &d);
		if (!d.contentions && !d.begins && d.waiters <= 0 &&
		    !d.osq_calls && !d.slow_calls)
			continue;
		/* callers keep their cumulative shares: they are sampled */
		out->rows[keep] = *c;
		interval_extrema(&out->rows[keep], p, cur->epoch, &d);
		out->rows[keep++].st = d;
	}
	out->nrows = keep;
	ls_snap_index(out);
	return 0;
}

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
};

const char *ls_sort_name(enum ls_sort k)
{
	return (unsigned)k < LS_SORT_NR ? sort_names[k] : "?";
}

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

void ls_rows_sort(struct ls_row *rows, size_t n, enum ls_sort key, int reverse)
{
	sort_key = key;
	sort_rev = reverse;
	if (n)
		qsort(rows, n, sizeof(*rows), cmp_rows);
}

int ls_row_match(const struct ls_row *r, const struct ls_filter *f)
{
	if (!f)
		return 1;
	if (f->kind_mask && !(f->kind_mask & (1U << r->key.kind)))
		return 0;
	if (f->addr && r->key.addr != f->addr)
		return 0;
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
	if (keep != s->nrows)
		s->kidx_n = 0;
	s->nrows = keep;
}

static const char *const kind_names[LS_KIND_MAX] = {
	[LS_KIND_UNKNOWN] = "unknown",
	[LS_KIND_SPINLOCK] = "spinlock",
	[LS_KIND_RWLOCK_R] = "rwlock:R",
	[LS_KIND_RWLOCK_W] = "rwlock:W",
	[LS_KIND_MUTEX] = "mutex",
	[LS_KIND_RWSEM_R] = "rwsem:R",
	[LS_KIND_RWSEM_W] = "rwsem:W",
	[LS_KIND_RT_MUTEX] = "rt_mutex",
	[LS_KIND_RTLOCK_R] = "rtlock:R",
	[LS_KIND_RTLOCK_W] = "rtlock:W",
	[LS_KIND_PCPU_RWSEM_R] = "pcpu-rwsem:R",
	[LS_KIND_PCPU_RWSEM_W] = "pcpu-rwsem:W",
	[LS_KIND_SEMAPHORE] = "semaphore",
};

const char *ls_kind_name(unsigned kind)
{
	return kind < LS_KIND_MAX ? kind_names[kind] : "unknown";
}

const char *ls_kind_base(unsigned kind)
{
	static char buf[LS_KIND_MAX][16];
	const char *n = ls_kind_name(kind);
	const char *colon = strchr(n, ':');

	if (!colon)
		return n;
	snprintf(buf[kind], sizeof(buf[kind]), "%.*s", (int)(colon - n), n);
	return buf[kind];
}

int ls_kind_parse(const char *s, uint32_t *mask)
{
	uint32_t m = 0;

	for (unsigned k = 1; k < LS_KIND_MAX; k++)
		if (!strcasecmp(s, kind_names[k]) ||
		    !strcasecmp(s, ls_kind_base(k)))
			m |= 1U << k;
	if (!m)
		return -EINVAL;
	*mask |= m;
	return 0;
}

static const char *const loss_names[LS_LOSS_MAX] = {
	[LS_LOSS_TASK_MAP_FULL] = "task map full",
	[LS_LOSS_LOCK_MAP_FULL] = "lock map full",
	[LS_LOSS_DEPTH] = "nesting too deep",
	[LS_LOSS_END_UNMATCHED] = "end without begin",
	[LS_LOSS_STACK] = "stack failed",
	[LS_LOSS_CALLER_MAP_FULL] = "caller map full",
	[LS_LOSS_SAMPLE_MAP_FULL] = "sample map full",
	[LS_LOSS_ORPHANED] = "begin without end",
	[LS_LOSS_PROBE_NESTED] = "probe nesting",
	[LS_LOSS_OSQ_OUTER] = "osq outer lock unknown",
	[LS_LOSS_RECURSION] = "skipped by kernel (nested)",
};

const char *ls_loss_name(unsigned loss)
{
	return loss < LS_LOSS_MAX ? loss_names[loss] : "?";
}

static const char *const ctr_names[LS_CTR_MAX] = {
	[LS_CTR_BEGIN] = "begins",
	[LS_CTR_END] = "ends",
	[LS_CTR_PHASE] = "spin-to-sleep",
	[LS_CTR_RECORDED] = "recorded",
	[LS_CTR_SAMPLES] = "samples",
	[LS_CTR_SAMPLES_KERNEL] = "kernel samples",
	[LS_CTR_SAMPLES_SPIN] = "spin samples",
	[LS_CTR_STACKS] = "caller stacks",
	[LS_CTR_OSQ_CALLS] = "osq_lock calls",
	[LS_CTR_OSQ_BAILOUTS] = "osq_lock bail-outs",
	[LS_CTR_SLOW_CALLS] = "slow-path calls",
};

const char *ls_ctr_name(unsigned ctr)
{
	return ctr < LS_CTR_MAX ? ctr_names[ctr] : "?";
}

const char *ls_known_name(unsigned known)
{
	switch (known) {
	case LS_KNOWN_MMAP_LOCK:
		return "mmap_lock";
	case LS_KNOWN_SIGLOCK:
		return "siglock";
	default:
		return NULL;
	}
}

void ls_owner_decode(struct ls_owner *o, unsigned kind, uint64_t owner,
		     uint64_t count, int task_ok)
{
	uint64_t task = owner & ~LS_OWNER_FLAGS;

	o->nreaders = 0;
	o->why[0] = '\0';
	if (kind == LS_KIND_RWSEM_R || kind == LS_KIND_RWSEM_W) {
		/* bit 63 of the count is a read-failure flag, not readers */
		uint64_t readers =
			(count & ~(1ULL << 63)) >> LS_RWSEM_READER_SHIFT;

		if (count & LS_RWSEM_WRITER_LOCKED) {
			if (task && !(owner & LS_RWSEM_READER_OWNED) &&
			    task_ok) {
				o->state = LS_OWNER_TASK;
				return;
			}
			o->state = LS_OWNER_UNKNOWN;
			snprintf(
				o->why, sizeof(o->why),
				"a writer holds it; its task is not confirmed");
		} else if (readers) {
			o->state = LS_OWNER_READERS;
			o->nreaders = readers;
		} else {
			o->state = LS_OWNER_NONE;
		}
		return;
	}
	if (!task) {
		o->state = LS_OWNER_NONE;
	} else if (task_ok) {
		o->state = LS_OWNER_TASK;
	} else {
		o->state = LS_OWNER_UNKNOWN;
		snprintf(o->why, sizeof(o->why),
			 "the owner word names no live task (lock freed?)");
	}
}
