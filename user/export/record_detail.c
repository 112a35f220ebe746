// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * record_detail.c - what only pictures need from a record: the totals' spin
 * and sleep histograms per lock class, and the sampled waiter stacks
 * (totals.stacks).  Both are optional (older files lack the stacks); what is
 * there is checked like every other field.  Histograms are kept sorted by
 * class, stacks indexed: a record of n locks reads in O(n log n).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "export/record.h"
#include "export/record_int.h"
#include "util/untrusted_text.h"

/* A non-negative integer, or an error naming @path. */
static int u64_of(struct ls_rd *rd, struct json_object *v, const char *path,
		  uint64_t *out)
{
	if (!v || !json_object_is_type(v, json_type_int) ||
	    json_object_get_int64(v) < 0)
		return ls_rd_bad(
			rd, "%s: missing or not a non-negative integer", path);
	*out = json_object_get_uint64(v);
	return 0;
}

/* Histogram @key of lock row @o into @h (added): at most LS_HIST_SLOTS. */
static int read_slots(struct ls_rd *rd, struct json_object *o, const char *path,
		      const char *key, uint64_t *h)
{
	struct json_object *a;
	char p[128];
	size_t n;

	if (!json_object_object_get_ex(o, key, &a))
		return 0;
	if (!json_object_is_type(a, json_type_array) ||
	    (n = json_object_array_length(a)) > LS_HIST_SLOTS)
		return ls_rd_bad(rd, "%s.%s: not an array of at most %d slots",
				 path, key, LS_HIST_SLOTS);
	for (size_t i = 0; i < n; i++) {
		uint64_t v;
		int err;

		snprintf(p, sizeof(p), "%s.%s[%zu]", path, key, i);
		err = u64_of(rd, json_object_array_get_idx(a, i), p, &v);
		if (err)
			return err;
		h[i] = h[i] + v < h[i] ? UINT64_MAX : h[i] + v;
	}
	return 0;
}

/* The lock class of row @o into @h (name checked by the lock reader
 * already); -EINVAL if it has none. */
static int class_of(struct json_object *o, struct ls_rec_hist *h)
{
	struct json_object *n, *k;

	if (!json_object_object_get_ex(o, "name", &n) ||
	    !json_object_object_get_ex(o, "kind", &k) ||
	    ls_rd_kind(json_object_get_string(k), &h->kind))
		return -EINVAL;
	snprintf(h->name, sizeof(h->name), "%s", json_object_get_string(n));
	ls_rd_strip_addr(h->name);
	return 0;
}

static int cmp_hist(const void *a, const void *b)
{
	const struct ls_rec_hist *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : (x->kind > y->kind) - (x->kind < y->kind);
}

static void add_slots(uint64_t *d, const uint64_t *s)
{
	for (unsigned i = 0; i < LS_HIST_SLOTS; i++)
		d[i] = d[i] + s[i] < d[i] ? UINT64_MAX : d[i] + s[i];
}

/* One histogram per lock class: sorted by name and kind, the rows of one
 * class summed (ls_rec_find_hist searches that order). */
static void merge_hists(struct ls_rec *r)
{
	size_t keep = 0;

	qsort(r->hists, r->nhists, sizeof(*r->hists), cmp_hist);
	for (size_t i = 0; i < r->nhists; i++) {
		struct ls_rec_hist *d = &r->hists[keep ? keep - 1 : 0];

		if (keep && !cmp_hist(d, &r->hists[i])) {
			add_slots(d->all, r->hists[i].all);
			add_slots(d->spin, r->hists[i].spin);
			add_slots(d->sleep, r->hists[i].sleep);
		} else {
			if (keep != i)
				r->hists[keep] = r->hists[i];
			keep++;
		}
	}
	r->nhists = keep;
	if (keep && keep < r->hists_cap) { /* give back the room grown into */
		struct ls_rec_hist *fit =
			realloc(r->hists, keep * sizeof(*fit));

		if (fit) {
			r->hists = fit;
			r->hists_cap = keep;
		}
	}
}

int ls_rec_read_hist_row(struct ls_rd *rd, struct json_object *o,
			 const char *path, struct ls_rec *r)
{
	struct ls_rec_hist *h;
	int err;

	if (r->nhists == r->hists_cap) {
		size_t cap = r->hists_cap ? 2 * r->hists_cap : 64;

		h = realloc(r->hists, cap * sizeof(*h));
		if (!h)
			return ls_rd_bad(rd, "totals.locks: out of memory");
		r->hists = h;
		r->hists_cap = cap;
	}
	h = &r->hists[r->nhists++];
	memset(h, 0, sizeof(*h));
	if (class_of(o, h))
		return ls_rd_bad(rd, "%s: bad lock", path);
	err = read_slots(rd, o, path, "hist_log2_ns", h->all);
	if (!err)
		err = read_slots(rd, o, path, "hist_spin_log2_ns", h->spin);
	if (!err)
		err = read_slots(rd, o, path, "hist_sleep_log2_ns", h->sleep);
	return err;
}

/* Safe text without ';' (the folded format's separator), not empty. */
static const char *text_of(struct json_object *v, size_t max)
{
	const char *s;

	if (!v || !json_object_is_type(v, json_type_string))
		return NULL;
	s = json_object_get_string(v);
	if (!*s || (size_t)json_object_get_string_len(v) >= max ||
	    strlen(s) != (size_t)json_object_get_string_len(v) ||
	    strchr(s, ';') || ls_text_unsafe(s))
		return NULL;
	return s;
}

static int read_stack(struct ls_rd *rd, struct json_object *o, size_t i,
		      struct ls_stacks *st)
{
	char frames[LS_STACK_DEPTH * (LS_FN_MAX + 1)], p[64];
	struct json_object *v, *fr;
	uint64_t samples, wait;
	const char *lock, *f;
	size_t off = 0, n;
	unsigned kind;
	int err;

	snprintf(p, sizeof(p), "totals.stacks[%zu]", i);
	v = NULL;
	json_object_object_get_ex(o, "lock", &v);
	lock = text_of(v, LS_NAME_MAX);
	v = NULL;
	json_object_object_get_ex(o, "kind", &v);
	if (!lock || !v || !json_object_is_type(v, json_type_string) ||
	    ls_rd_kind(json_object_get_string(v), &kind))
		return ls_rd_bad(rd, "%s: lock or kind missing or not text", p);
	if (!json_object_object_get_ex(o, "frames", &fr) ||
	    !json_object_is_type(fr, json_type_array) ||
	    (n = json_object_array_length(fr)) > LS_STACK_DEPTH)
		return ls_rd_bad(rd, "%s.frames: not an array of at most %d", p,
				 LS_STACK_DEPTH);
	frames[0] = '\0';
	for (size_t j = 0; j < n; j++) {
		f = text_of(json_object_array_get_idx(fr, j), LS_FN_MAX);
		if (!f)
			return ls_rd_bad(rd,
					 "%s.frames[%zu]: empty, too long, "
					 "holds ';' or control characters",
					 p, j);
		off += (size_t)snprintf(frames + off, sizeof(frames) - off,
					"%s%s", j ? ";" : "", f);
	}
	v = NULL;
	json_object_object_get_ex(o, "samples", &v);
	err = u64_of(rd, v, p, &samples);
	if (!err) {
		v = NULL;
		json_object_object_get_ex(o, "wait_ns", &v);
		err = u64_of(rd, v, p, &wait);
	}
	if (err)
		return err;
	if (ls_stacks_add(st, lock, kind, frames, samples, wait))
		return ls_rd_bad(rd, "%s: out of memory", p);
	return 0;
}

int ls_rec_read_detail(struct ls_rd *rd, struct json_object *tot,
		       struct ls_rec *r)
{
	struct ls_rd_elems it;
	struct json_object *a, *o;
	size_t i = 0;
	int err = 0, more;

	merge_hists(r);
	ls_stacks_init(&r->stacks);
	if (!json_object_object_get_ex(tot, "stacks", &a))
		return 0;
	if (!json_object_is_type(a, json_type_array))
		return ls_rd_bad(rd, "totals.stacks: not an array");
	if (ls_rd_elems_open(&it, a, rd->text,
			     rd->text ? &rd->text->stacks : NULL))
		return ls_rd_bad(rd, "totals.stacks: out of memory");
	for (; (more = ls_rd_elems_next(&it, &o)) > 0; i++) {
		if (!json_object_is_type(o, json_type_object))
			err = ls_rd_bad(rd, "totals.stacks[%zu]: not an object",
					i);
		if (!err)
			err = read_stack(rd, o, i, &r->stacks);
		if (err)
			break;
	}
	ls_rd_elems_close(&it);
	if (more < 0) {
		ls_rd_bad(rd, "totals.stacks[%zu]: malformed JSON", i);
		return more;
	}
	if (err)
		return err;
	ls_stacks_sort(&r->stacks);
	return 0;
}

void ls_rec_detail_free(struct ls_rec *r)
{
	free(r->hists);
	r->hists = NULL;
	r->nhists = r->hists_cap = 0;
	ls_stacks_free(&r->stacks);
}

const struct ls_rec_hist *ls_rec_find_hist(const struct ls_rec *r,
					   const char *name, unsigned kind)
{
	struct ls_rec_hist key;

	if (!r->nhists)
		return NULL;
	snprintf(key.name, sizeof(key.name), "%s", name);
	key.kind = kind;
	return bsearch(&key, r->hists, r->nhists, sizeof(*r->hists), cmp_hist);
}
