// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* record_holders.c - the holder side of a record's lock rows (the "holder"
 * object): read and checked, optional (older files read as 0), and summed
 * over a lock class without wrapping. */
#include <string.h>
#include "export/record.h"
#include "export/record_int.h"

/* @key of @o as a non-negative integer into @out; -1 if it is not one. */
static int u64_of(struct json_object *o, const char *key, uint64_t *out)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v) ||
	    !json_object_is_type(v, json_type_int) ||
	    json_object_get_int64(v) < 0)
		return -1;
	*out = json_object_get_uint64(v);
	return 0;
}

int ls_rec_read_holder(struct ls_rd *rd, struct json_object *lock,
		       const char *path, struct ls_rec_lock *l)
{
	struct json_object *h, *w;

	if (!json_object_object_get_ex(lock, "holder", &h))
		return 0;
	if (!json_object_is_type(h, json_type_object))
		return ls_rd_bad(rd, "%s.holder: not an object", path);
	for (int ns = 0; ns < 2; ns++) {
		const char *key = ns ? "wait_ns" : "waits";
		uint64_t *out = ns ? l->holder_ns : l->holder_waits;

		if (!json_object_object_get_ex(h, key, &w) ||
		    !json_object_is_type(w, json_type_object))
			return ls_rd_bad(rd,
					 "%s.holder.%s: missing or not an "
					 "object",
					 path, key);
		for (unsigned s = 0; s < LS_HOLDER_MAX; s++) {
			/* files before the vCPU split: running includes it */
			if (s == LS_HOLDER_VCPU_PREEMPTED &&
			    !json_object_object_get_ex(w, ls_holder_name(s),
						       NULL)) {
				out[s] = 0;
				continue;
			}
			if (u64_of(w, ls_holder_name(s), &out[s]))
				return ls_rd_bad(rd,
						 "%s.holder.%s.%s: missing or "
						 "not a non-negative integer",
						 path, key, ls_holder_name(s));
		}
	}
	if (u64_of(h, "tenure_ns", &l->tenure_ns))
		return ls_rd_bad(rd,
				 "%s.holder.tenure_ns: missing or not a "
				 "non-negative integer",
				 path);
	return 0;
}

/* The holder counters of @l, in one array for summing. */
static void fields(const struct ls_rec_lock *l, uint64_t v[])
{
	memcpy(v, l->holder_waits, sizeof(l->holder_waits));
	memcpy(v + LS_HOLDER_MAX, l->holder_ns, sizeof(l->holder_ns));
	v[2 * LS_HOLDER_MAX] = l->tenure_ns;
}

#define NFIELDS (2 * LS_HOLDER_MAX + 1)

int ls_rec_holder_sums_fit(struct ls_rd *rd, const char *path,
			   const struct ls_rec_lock *locks, size_t n)
{
	uint64_t sum[NFIELDS] = {0}, v[NFIELDS];

	for (size_t i = 0; i < n; i++) {
		fields(&locks[i], v);
		for (unsigned f = 0; f < NFIELDS; f++)
			if (__builtin_add_overflow(sum[f], v[f], &sum[f]))
				return ls_rd_bad(
					rd,
					"%s.locks: the holder counters "
					"of the locks add up to more "
					"than 2^64-1",
					path);
	}
	return 0;
}

void ls_rec_holder_merge(struct ls_rec_lock *d, const struct ls_rec_lock *s)
{
	for (unsigned i = 0; i < LS_HOLDER_MAX; i++) {
		d->holder_waits[i] += s->holder_waits[i];
		d->holder_ns[i] += s->holder_ns[i];
	}
	d->tenure_ns += s->tenure_ns;
	d->chain_waits += s->chain_waits; /* wait-for chains, record_chains.c */
	d->chain_ns += s->chain_ns;
	d->has_chains |= s->has_chains;
}
