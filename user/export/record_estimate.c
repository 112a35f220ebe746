// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* record_estimate.c - the --budget fields of a record: the budget of a
 * snapshot, and its lock rows' "estimated", "timed_waits" and "*_se_ns",
 * read and checked, optional
 * (older files and exact runs read as exact), and merged over a lock
 * class, where the variances of independent estimates add up. */
#include <math.h>
#include "export/record.h"
#include "export/record_int.h"

/* A standard error in ns: a finite number, 0 or more; -EINVAL if not. */
static int se_of(struct ls_rd *rd, struct json_object *o, const char *path,
		 const char *key, double *out)
{
	struct json_object *v;
	double d;

	*out = 0;
	if (!json_object_object_get_ex(o, key, &v))
		return 0;
	if (!json_object_is_type(v, json_type_double) &&
	    !json_object_is_type(v, json_type_int))
		return ls_rd_bad(rd, "%s.%s: not a number", path, key);
	d = json_object_get_double(v);
	if (!isfinite(d) || d < 0 || d > 1e18)
		return ls_rd_bad(rd, "%s.%s: %g is not a standard error in ns",
				 path, key, d);
	*out = d;
	return 0;
}

int ls_rec_read_estimate(struct ls_rd *rd, struct json_object *o,
			 const char *path, struct ls_rec_lock *l)
{
	struct json_object *v;
	int err;

	if (json_object_object_get_ex(o, "estimated", &v)) {
		if (!json_object_is_type(v, json_type_boolean))
			return ls_rd_bad(rd, "%s.estimated: not a boolean",
					 path);
		l->estimated = json_object_get_boolean(v);
	}
	if (json_object_object_get_ex(o, "timed_waits", NULL)) {
		err = ls_rd_u64(rd, o, path, "timed_waits", &l->timed_waits);
		if (err)
			return err;
	}
	err = se_of(rd, o, path, "total_se_ns", &l->total_se_ns);
	if (!err)
		err = se_of(rd, o, path, "spin_se_ns", &l->spin_se_ns);
	if (!err)
		err = se_of(rd, o, path, "sleep_se_ns", &l->sleep_se_ns);
	return err;
}

void ls_rec_estimate_merge(struct ls_rec_lock *d, const struct ls_rec_lock *s)
{
	d->estimated |= s->estimated;
	/* a count of waits: saturate rather than wrap (it only sizes the
	 * events an estimate rests on) */
	if (__builtin_add_overflow(d->timed_waits, s->timed_waits,
				   &d->timed_waits))
		d->timed_waits = UINT64_MAX;
	d->total_se_ns = hypot(d->total_se_ns, s->total_se_ns);
	d->spin_se_ns = hypot(d->spin_se_ns, s->spin_se_ns);
	d->sleep_se_ns = hypot(d->sleep_se_ns, s->sleep_se_ns);
}

int ls_rec_read_budget(struct ls_rd *rd, struct json_object *snap,
		       const char *path, struct ls_rec_snap *s)
{
	struct json_object *b, *v;
	double d;

	s->budget_pct = 0;
	if (!json_object_object_get_ex(snap, "budget", &b))
		return 0;
	if (!json_object_is_type(b, json_type_object))
		return ls_rd_bad(rd, "%s.budget: not an object", path);
	if (!json_object_object_get_ex(b, "budget_pct", &v))
		return 0;
	if (!json_object_is_type(v, json_type_double) &&
	    !json_object_is_type(v, json_type_int))
		return ls_rd_bad(rd, "%s.budget.budget_pct: not a number",
				 path);
	d = json_object_get_double(v);
	if (!isfinite(d) || d < 0 || d > 100)
		return ls_rd_bad(rd,
				 "%s.budget.budget_pct: %g is not a share in "
				 "percent",
				 path, d);
	s->budget_pct = d;
	return 0;
}
