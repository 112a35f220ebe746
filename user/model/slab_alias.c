// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * slab_alias.c - the table of merged slab caches and the naming rule for a
 * lock in one (see slab_alias.h).  Pure C: the listing comes from
 * user/collect/slab_sysfs.c, the struct fields from a callback.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/ident.h"
#include "model/model.h"
#include "model/slab_alias.h"

#define MEMBERS_MAX 64 /* members of one merged cache tried, at most */

void ls_slab_aliases_init(struct ls_slab_aliases *a)
{
	memset(a, 0, sizeof(*a));
}

void ls_slab_aliases_free(struct ls_slab_aliases *a)
{
	free(a->v);
	ls_slab_aliases_init(a);
}

int ls_slab_aliases_add(struct ls_slab_aliases *a, const char *name,
			const char *target)
{
	struct ls_slab_alias *e;

	if (a->n == LS_SLAB_ALIAS_MAX || strlen(name) >= LS_SLAB_NAME_MAX ||
	    strlen(target) >= LS_SLAB_NAME_MAX || !*name || !*target) {
		a->skipped++;
		return -E2BIG;
	}
	if (a->n == a->cap) {
		size_t cap = a->cap ? a->cap * 2 : 256;

		e = realloc(a->v, cap * sizeof(*e));
		if (!e)
			return -ENOMEM;
		a->v = e;
		a->cap = cap;
	}
	e = &a->v[a->n++];
	snprintf(e->name, sizeof(e->name), "%s", name);
	snprintf(e->target, sizeof(e->target), "%s", target);
	return 0;
}

static int by_target(const void *x, const void *y)
{
	const struct ls_slab_alias *p = x, *q = y;
	int c = strcmp(p->target, q->target);

	return c ? c : strcmp(p->name, q->name);
}

void ls_slab_aliases_done(struct ls_slab_aliases *a)
{
	if (a->n)
		qsort(a->v, a->n, sizeof(*a->v), by_target);
}

size_t ls_slab_aliases_merged(const struct ls_slab_aliases *a)
{
	size_t merged = 0;

	for (size_t i = 1; i < a->n; i++)
		if (!strcmp(a->v[i].target, a->v[i - 1].target) &&
		    (i < 2 || strcmp(a->v[i].target, a->v[i - 2].target)))
			merged++;
	return merged;
}

void ls_slab_aliases_reason(const struct ls_slab_aliases *a, char *out,
			    size_t len)
{
	switch (a->state) {
	case LS_ALIAS_NO_SYSFS:
		snprintf(
			out, len,
			"no /sys/kernel/slab (not SLUB, or no sysfs): locks of "
			"caches merged with others keep the cache+offset form");
		return;
	case LS_ALIAS_UNREADABLE:
		snprintf(out, len,
			 "/sys/kernel/slab unreadable (%s): locks of caches "
			 "merged with others keep the cache+offset form",
			 strerror(a->err));
		return;
	case LS_ALIAS_READ:
		break;
	}
	if (!ls_slab_aliases_merged(a))
		snprintf(
			out, len,
			"/sys/kernel/slab: no cache merged with another "
			"(slab_nomerge or debug flags): each cache is its own");
	else
		snprintf(out, len,
			 "%zu merged caches in /sys/kernel/slab (%zu "
			 "aliases%s): "
			 "a lock there is named when one member's struct has a "
			 "lock of its kind at its offset",
			 ls_slab_aliases_merged(a), a->n,
			 a->skipped ? ", some not kept" : "");
}

/* The first and last+1 index of the aliases of @target. */
static void group_of(const struct ls_slab_aliases *a, const char *target,
		     size_t *lo, size_t *hi)
{
	size_t l = 0, h = a->n;

	while (l < h) { /* first entry whose target is not below @target */
		size_t m = l + (h - l) / 2;

		if (strcmp(a->v[m].target, target) < 0)
			l = m + 1;
		else
			h = m;
	}
	*lo = l;
	while (l < a->n && !strcmp(a->v[l].target, target))
		l++;
	*hi = l;
}

/* The merged cache @cache is in: its target, or NULL.  A name cut at
 * LS_CACHE_NAME - 1 bytes (BPF keeps no more) matches the aliases it
 * starts, when they are all in one merged cache. */
static const char *target_of(const struct ls_slab_aliases *a, const char *cache)
{
	size_t cl = strlen(cache);
	const char *t = NULL;

	for (size_t i = 0; i < a->n; i++) {
		const char *n = a->v[i].name;

		if (!strcmp(n, cache))
			return a->v[i].target;
		if (cl == LS_CACHE_NAME - 1 && !strncmp(n, cache, cl)) {
			if (t && strcmp(t, a->v[i].target))
				return NULL; /* two merged caches: which? */
			t = a->v[i].target;
		}
	}
	return t;
}

static int cmp_str(const void *x, const void *y)
{
	return strcmp(*(const char *const *)x, *(const char *const *)y);
}

struct found {
	char names[MEMBERS_MAX + 1][LS_NAME_MAX];
	const char *sorted[MEMBERS_MAX + 1];
	size_t n;
};

static void add_found(struct found *f, const char *name)
{
	for (size_t i = 0; i < f->n; i++)
		if (!strcmp(f->names[i], name))
			return;
	if (f->n <= MEMBERS_MAX)
		snprintf(f->names[f->n++], LS_NAME_MAX, "%s", name);
}

/* The first struct of member @m with a lock there, into @f (nothing when
 * none has one).  A generic cache's objects may be anything: 1 in *@open. */
static void try_member(const char *m, uint64_t off, unsigned kind,
		       ls_slab_field_fn fn, void *ctx, struct found *f,
		       int *open)
{
	char types[4][64], cls[LS_NAME_MAX];
	size_t nt;

	if (ls_cache_is_generic(m)) {
		*open = 1;
		return;
	}
	nt = ls_cache_types(m, types, 4);
	for (size_t t = 0; t < nt; t++)
		if (!fn(ctx, types[t], off, kind, cls, sizeof(cls))) {
			add_found(f, cls);
			return;
		}
}

enum ls_slab_verdict ls_slab_name(const struct ls_slab_aliases *a,
				  const char *cache, int refcount, uint64_t off,
				  unsigned kind, ls_slab_field_fn fn, void *ctx,
				  char *out, size_t len)
{
	struct found *f = calloc(1, sizeof(*f));
	char plain[LS_NAME_MAX];
	const char *target = NULL;
	size_t lo = 0, hi = 0, used = 0;
	int open = 0;
	enum ls_slab_verdict v = LS_SLAB_NONE;

	snprintf(plain, sizeof(plain), "%s+0x%llx", cache,
		 (unsigned long long)off);
	snprintf(out, len, "%s", plain);
	if (!f)
		return LS_SLAB_NONE;
	if (refcount == 1 || refcount < 0) { /* alone: never merged */
		try_member(cache, off, kind, fn, ctx, f, &open);
	} else {
		/* members the table misses may hold anything; a cache of
		 * unknown refcount that a complete listing has no link for
		 * is its own (a directory: never merged) */
		target = a ? target_of(a, cache) : NULL;
		if (target) {
			group_of(a, target, &lo, &hi);
			open = refcount > 0 && hi - lo < (size_t)refcount;
		} else {
			open = refcount || !a || a->state != LS_ALIAS_READ;
			try_member(cache, off, kind, fn, ctx, f, &open);
		}
		for (size_t i = lo; i < hi && i - lo < MEMBERS_MAX; i++)
			try_member(a->v[i].name, off, kind, fn, ctx, f, &open);
		open |= hi - lo > MEMBERS_MAX;
	}
	if (f->n == 1 && !open) {
		snprintf(out, len, "%s", f->names[0]);
		v = LS_SLAB_NAMED;
	} else if (f->n) {
		if (open)
			add_found(f, plain);
		for (size_t i = 0; i < f->n; i++)
			f->sorted[i] = f->names[i];
		qsort(f->sorted, f->n, sizeof(*f->sorted), cmp_str);
		for (size_t i = 0; i <= f->n && used < len; i++) {
			int w = snprintf(out + used, len - used, "%s%s",
					 i ? (i < f->n ? "|" : "}") : "{",
					 i < f->n ? f->sorted[i] : "");

			used = w < 0 ? len : used + (size_t)w;
		}
		v = used < len ? LS_SLAB_AMBIGUOUS : LS_SLAB_NONE;
		if (v == LS_SLAB_NONE) /* no room for every candidate */
			snprintf(out, len, "%s", plain);
	}
	free(f);
	return v;
}
