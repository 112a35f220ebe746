// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* record_read.c - a record's JSON document into struct ls_rec, checking
 * every field it uses (rows of one lock class are summed in
 * record_classes.c; the field readers every part shares are
 * record_fields.c's). */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "export/record.h"
#include "export/record_int.h"
#include "util/untrusted_text.h"

static struct json_object *member(struct ls_rd *rd, struct json_object *o,
				  const char *path, const char *key,
				  json_type type, int *err)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v) ||
	    !json_object_is_type(v, type)) {
		*err = ls_rd_bad(rd, "%s%s%s: missing or not %s %s", path,
				 *path ? "." : "", key,
				 type == json_type_array ||
						 type == json_type_object
					 ? "an"
					 : "a",
				 json_type_to_name(type));
		return NULL;
	}
	return v;
}

/* Like ls_rd_u64, but a missing key reads as 0. */
static int opt_u64(struct ls_rd *rd, struct json_object *o, const char *path,
		   const char *key, uint64_t *out)
{
	*out = 0;
	if (!json_object_object_get_ex(o, key, NULL))
		return 0;
	return ls_rd_u64(rd, o, path, key, out);
}

static int get_secs(struct ls_rd *rd, struct json_object *o, const char *path,
		    const char *key, double *out)
{
	struct json_object *v;
	double d;

	if (!json_object_object_get_ex(o, key, &v) ||
	    (!json_object_is_type(v, json_type_double) &&
	     !json_object_is_type(v, json_type_int)))
		return ls_rd_bad(rd, "%s.%s: missing or not a number", path,
				 key);
	d = json_object_get_double(v);
	if (!isfinite(d) || d < 0 || d > 1e9)
		return ls_rd_bad(rd, "%s.%s: %g is not a duration in seconds",
				 path, key, d);
	*out = d;
	return 0;
}

static int read_lock(struct ls_rd *rd, struct json_object *o, const char *path,
		     struct ls_rec_lock *l)
{
	static const struct {
		const char *key;
		size_t off;
	} fields[] = {
		{"contentions", offsetof(struct ls_rec_lock, contentions)},
		{"total_ns", offsetof(struct ls_rec_lock, total_ns)},
		{"spin_ns", offsetof(struct ls_rec_lock, spin_ns)},
		{"sleep_ns", offsetof(struct ls_rec_lock, sleep_ns)},
		{"max_ns", offsetof(struct ls_rec_lock, max_ns)},
		{"spin_won", offsetof(struct ls_rec_lock, spin_won)},
		{"spin_failed", offsetof(struct ls_rec_lock, spin_failed)},
		{"gave_up", offsetof(struct ls_rec_lock, gave_up)},
		{"begins", offsetof(struct ls_rec_lock, begins)},
		{"peak_waiters", offsetof(struct ls_rec_lock, peak_waiters)},
	};
	static const struct {
		const char *key;
		size_t off;
	} probe_fields[] = {
		{"osq_ns", offsetof(struct ls_rec_lock, osq_ns)},
		{"osq_bailouts", offsetof(struct ls_rec_lock, osq_bailouts)},
		{"slow_path_ns", offsetof(struct ls_rec_lock, slow_ns)},
		{"slow_path_untraced_ns",
		 offsetof(struct ls_rec_lock, slow_untraced_ns)},
	};
	struct json_object *v;
	const char *s;
	int err = 0;

	if (!json_object_is_type(o, json_type_object))
		return ls_rd_bad(rd, "%s: not an object", path);
	memset(l, 0, sizeof(*l));
	l->instances = 1;
	v = member(rd, o, path, "name", json_type_string, &err);
	if (!v)
		return err;
	s = json_object_get_string(v);
	if (!*s || (size_t)json_object_get_string_len(v) >= sizeof(l->name) ||
	    strlen(s) != (size_t)json_object_get_string_len(v) ||
	    ls_text_unsafe(s))
		return ls_rd_bad(
			rd,
			"%s.name: empty, too long or holds control "
			"characters (C0, C1, bidirectional overrides or "
			"bytes that are not UTF-8)",
			path);
	memcpy(l->name, s, strlen(s) + 1);
	ls_rd_strip_addr(l->name);
	v = member(rd, o, path, "kind", json_type_string, &err);
	if (!v)
		return err;
	if (ls_rd_kind(json_object_get_string(v), &l->kind)) {
		char k[40];

		return ls_rd_bad(rd, "%s.kind: unknown lock kind '%s'", path,
				 ls_text_excerpt(k, sizeof(k),
						 json_object_get_string(v)));
	}
	for (size_t i = 0; i < sizeof(fields) / sizeof(*fields); i++) {
		err = ls_rd_u64(rd, o, path, fields[i].key,
				(uint64_t *)((char *)l + fields[i].off));
		if (err)
			return err;
	}
	for (size_t i = 0; i < sizeof(probe_fields) / sizeof(*probe_fields);
	     i++) {
		err = opt_u64(rd, o, path, probe_fields[i].key,
			      (uint64_t *)((char *)l + probe_fields[i].off));
		if (err)
			return err;
	}
	err = ls_rec_read_estimate(rd, o, path, l);
	return err ? err : ls_rec_read_holder(rd, o, path, l);
}

/* Room for one more lock row in @s (zeroed); NULL when out of memory. */
static struct ls_rec_lock *lock_slot(struct ls_rec_snap *s, size_t n,
				     size_t *cap)
{
	if (n == *cap) {
		size_t c = *cap ? 2 * *cap : 64;
		struct ls_rec_lock *p = realloc(s->locks, c * sizeof(*p));

		if (!p)
			return NULL;
		s->locks = p;
		*cap = c;
	}
	return &s->locks[n];
}

/* The lock rows of a snapshot (one at a time from the text when @sp is
 * set); for the totals, @hists takes each row's histograms too. */
static int read_locks(struct ls_rd *rd, struct json_object *snap,
		      const char *path, struct ls_rec_snap *s,
		      const struct ls_rd_span *sp, struct ls_rec *hists)
{
	struct ls_rd_elems it;
	struct json_object *a, *o;
	size_t n = 0, cap = 0;
	char p[96];
	int err = 0, more;

	a = member(rd, snap, path, "locks", json_type_array, &err);
	if (!a)
		return err;
	if (ls_rd_elems_open(&it, a, rd->text, sp))
		return ls_rd_bad(rd, "%s.locks: out of memory", path);
	while ((more = ls_rd_elems_next(&it, &o)) > 0) {
		struct ls_rec_lock *l = lock_slot(s, n, &cap);

		if (!l) {
			err = ls_rd_bad(rd, "%s.locks: out of memory", path);
			break;
		}
		snprintf(p, sizeof(p), "%s.locks[%zu]", path, n);
		err = read_lock(rd, o, p, l);
		if (!err)
			err = ls_rec_read_cgroups(rd, o, p, l, s);
		if (!err)
			err = ls_rec_read_chains(rd, o, p, l, s);
		if (!err && hists)
			err = ls_rec_read_hist_row(rd, o, p, hists);
		if (err)
			break;
		n++;
	}
	ls_rd_elems_close(&it);
	if (more < 0) {
		ls_rd_bad(rd, "%s.locks[%zu]: malformed JSON", path, n);
		return more;
	}
	if (err)
		return err;
	err = ls_rec_sums_fit(rd, path, s->locks, n);
	if (err)
		return err;
	if (n && n < cap) { /* give back the room grown into */
		struct ls_rec_lock *fit = realloc(s->locks, n * sizeof(*fit));

		s->locks = fit ? fit : s->locks;
	}
	s->nlocks = n;
	ls_rec_snap_merge(s);
	ls_rec_cgroups_merge(s);
	ls_rec_chains_merge(s);
	return 0;
}

static int read_sampler(struct ls_rd *rd, struct json_object *snap,
			const char *path, struct ls_rec_snap *s)
{
	struct json_object *smp, *funcs;
	char p[96];
	int err = 0;
	size_t n;

	snprintf(p, sizeof(p), "%s.sampler", path);
	smp = member(rd, snap, path, "sampler", json_type_object, &err);
	if (!smp)
		return err;
	err = ls_rd_u64(rd, smp, p, "samples", &s->samples);
	if (err)
		return err;
	funcs = member(rd, smp, p, "spin_functions", json_type_array, &err);
	if (!funcs)
		return err;
	n = json_object_array_length(funcs);
	if (n > LS_MAX_SPIN_RANGES)
		return ls_rd_bad(rd,
				 "%s.spin_functions: %zu entries, at most %d",
				 p, n, LS_MAX_SPIN_RANGES);
	for (size_t i = 0; i < n; i++) {
		struct json_object *f = json_object_array_get_idx(funcs, i);
		struct ls_rec_spin *sp = &s->spin[i];
		struct json_object *v;
		char fp[128];

		snprintf(fp, sizeof(fp), "%s.spin_functions[%zu]", p, i);
		if (!json_object_is_type(f, json_type_object))
			return ls_rd_bad(rd, "%s: not an object", fp);
		v = member(rd, f, fp, "function", json_type_string, &err);
		if (!v)
			return err;
		if (!json_object_get_string_len(v) ||
		    (size_t)json_object_get_string_len(v) >= sizeof(sp->fn) ||
		    strchr(json_object_get_string(v), ' ') ||
		    ls_text_unsafe(json_object_get_string(v)))
			return ls_rd_bad(
				rd,
				"%s.function: empty, too long or not one word",
				fp);
		snprintf(sp->fn, sizeof(sp->fn), "%s",
			 json_object_get_string(v));
		err = ls_rd_u64(rd, f, fp, "samples", &sp->samples);
		if (err)
			return err;
		if (sp->samples > s->samples)
			return ls_rd_bad(
				rd,
				"%s.samples: more than the %llu samples taken",
				fp, (unsigned long long)s->samples);
	}
	s->nspin = (unsigned)n;
	return 0;
}

static int read_snap(struct ls_rd *rd, struct json_object *o, const char *path,
		     struct ls_rec_snap *s, const struct ls_rd_span *sp,
		     struct ls_rec *hists)
{
	struct json_object *ctr, *loss;
	char p[96];
	int err = 0;

	if (!json_object_is_type(o, json_type_object))
		return ls_rd_bad(rd, "%s: not an object", path);
	ctr = member(rd, o, path, "counters", json_type_object, &err);
	if (!ctr)
		return err;
	snprintf(p, sizeof(p), "%s.counters", path);
	for (unsigned i = 0; i < LS_CTR_MAX; i++) {
		err = opt_u64(rd, ctr, p, ls_ctr_name(i), &s->ctr[i]);
		if (err)
			return err;
	}
	loss = member(rd, o, path, "losses", json_type_object, &err);
	if (!loss)
		return err;
	snprintf(p, sizeof(p), "%s.losses", path);
	for (unsigned i = 0; i < LS_LOSS_MAX; i++) {
		err = opt_u64(rd, loss, p, ls_loss_name(i), &s->loss[i]);
		if (err)
			return err;
	}
	err = read_sampler(rd, o, path, s);
	if (!err)
		err = ls_rec_read_budget(rd, o, path, s);
	if (err)
		return err;
	return read_locks(rd, o, path, s, sp, hists);
}

static void join_argv(struct json_object *a, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < json_object_array_length(a) && used < len; i++) {
		struct json_object *w = json_object_array_get_idx(a, i);
		int n;

		n = snprintf(buf + used, len - used, "%s%s", i ? " " : "",
			     json_object_is_type(w, json_type_string)
				     ? json_object_get_string(w)
				     : "?");
		if (n < 0)
			break;
		used += (size_t)n;
	}
}

static int read_run(struct ls_rd *rd, struct json_object *root,
		    struct ls_rec *r)
{
	struct json_object *run, *v;
	int err = 0;
	uint64_t u;

	run = member(rd, root, "", "run", json_type_object, &err);
	if (!run)
		return err;
	v = member(rd, run, "run", "kernel_release", json_type_string, &err);
	if (!v)
		return err;
	snprintf(r->kernel, sizeof(r->kernel), "%s", json_object_get_string(v));
	ls_text_make_safe(r->kernel);
	err = ls_rd_u64(rd, run, "run", "cpus", &u);
	if (err)
		return err;
	if (!u || u > 1U << 20)
		return ls_rd_bad(rd, "run.cpus: %llu is not a CPU count",
				 (unsigned long long)u);
	r->cpus = (unsigned)u;
	err = get_secs(rd, run, "run", "duration_s", &r->duration_s);
	if (err)
		return err;
	r->exit_status = -1;
	if (!json_object_object_get_ex(run, "command", &v))
		return ls_rd_bad(rd, "run.command: missing");
	if (v) {
		if (!json_object_is_type(v, json_type_array) ||
		    !json_object_array_length(v))
			return ls_rd_bad(
				rd,
				"run.command: not null or a non-empty array");
		r->has_command = 1;
		join_argv(v, r->command, sizeof(r->command));
		if (strlen(r->command) + 1 == sizeof(r->command))
			ls_text_trim_cut(
				r->command); /* cut between characters */
		ls_text_make_safe(r->command);
		err = ls_rd_u64(rd, run, "run", "exit_status", &u);
		if (err)
			return err;
		if (u > 255)
			return ls_rd_bad(rd,
					 "run.exit_status: %llu is above 255",
					 (unsigned long long)u);
		r->exit_status = (int)u;
	}
	if (!json_object_object_get_ex(run, "interval_s", &v))
		return ls_rd_bad(rd, "run.interval_s: missing");
	if (v) {
		err = get_secs(rd, run, "run", "interval_s", &r->interval_s);
		if (err)
			return err;
		if (r->interval_s <= 0)
			return ls_rd_bad(rd, "run.interval_s: must be above 0");
	}
	v = member(rd, run, "run", "interrupted", json_type_boolean, &err);
	if (!v)
		return err;
	r->interrupted = json_object_get_boolean(v);
	return 0;
}

static int read_intervals(struct ls_rd *rd, struct json_object *root,
			  struct ls_rec *r)
{
	struct json_object *a;
	int err = 0;
	size_t n;

	a = member(rd, root, "", "intervals", json_type_array, &err);
	if (!a)
		return err;
	n = json_object_array_length(a);
	if (n && !r->interval_s)
		return ls_rd_bad(
			rd, "intervals: %zu given but run.interval_s is null",
			n);
	if (!n)
		return 0;
	r->intervals = calloc(n, sizeof(*r->intervals));
	if (!r->intervals)
		return ls_rd_bad(rd, "intervals: out of memory");
	r->nintervals = n;
	for (size_t i = 0; i < n; i++) {
		struct json_object *o = json_object_array_get_idx(a, i);
		struct ls_rec_snap *s = &r->intervals[i];
		char p[48];

		snprintf(p, sizeof(p), "intervals[%zu]", i);
		err = read_snap(rd, o, p, s,
				rd->text && i < rd->text->niv
					? &rd->text->iv_locks[i]
					: NULL,
				NULL);
		if (!err)
			err = get_secs(rd, o, p, "t_s", &s->t_s);
		if (!err)
			err = get_secs(rd, o, p, "duration_s", &s->duration_s);
		if (err)
			return err;
	}
	return 0;
}

/* What a JSON value that is not an object is, for a message. */
static const char *json_kind(struct json_object *o)
{
	switch (json_object_get_type(o)) {
	case json_type_null:
		return "JSON null";
	case json_type_boolean:
		return "a JSON boolean";
	case json_type_double:
	case json_type_int:
		return "a JSON number";
	case json_type_string:
		return "a JSON string";
	case json_type_array:
		return "a JSON array";
	default:
		return "a JSON object";
	}
}

int ls_rec_from_json(struct json_object *root, struct ls_rec *r, char *err,
		     size_t errlen)
{
	struct ls_rd rd = {err, errlen, NULL};

	return ls_rec_from_doc(&rd, root, r);
}

int ls_rec_from_doc(struct ls_rd *rdp, struct json_object *root,
		    struct ls_rec *r)
{
	struct ls_rd rd = *rdp;
	struct json_object *v;
	int64_t ver;
	int e = 0;

	memset(r, 0, sizeof(*r));
	r->exit_status = -1;
	if (!json_object_is_type(root, json_type_object))
		return ls_rd_bad(
			&rd, "the file holds %s, not a record (a JSON object)",
			json_kind(root));
	if (!json_object_object_get_ex(root, "schema", &v) ||
	    !json_object_is_type(v, json_type_string) ||
	    strcmp(json_object_get_string(v), LS_REC_SCHEMA))
		return ls_rd_bad(
			&rd, "not a lockscope record (no \"schema\": \"%s\")",
			LS_REC_SCHEMA);
	if (!json_object_object_get_ex(root, "schema_version", &v) ||
	    !json_object_is_type(v, json_type_int))
		return ls_rd_bad(&rd,
				 "schema_version: missing or not an integer");
	ver = json_object_get_int64(v);
	if (ver != LS_REC_VERSION)
		return ls_rd_bad(&rd,
				 "schema version %lld is not supported (this "
				 "lockscope reads version %d)",
				 (long long)ver, LS_REC_VERSION);
	r->version = (int)ver;
	e = read_run(&rd, root, r);
	if (!e) {
		v = member(&rd, root, "", "totals", json_type_object, &e);
		if (v)
			e = read_snap(&rd, v, "totals", &r->totals,
				      rd.text ? &rd.text->totals_locks : NULL,
				      r);
		if (!e)
			e = ls_rec_read_detail(&rd, v, r);
	}
	if (!e)
		r->totals.duration_s = r->duration_s;
	if (!e)
		e = read_intervals(&rd, root, r);
	if (e)
		ls_rec_free(r);
	return e;
}

void ls_rec_free(struct ls_rec *r)
{
	ls_rec_detail_free(r);
	free(r->totals.locks);
	ls_rec_cgroups_free(&r->totals);
	ls_rec_chains_free(&r->totals);
	for (size_t i = 0; i < r->nintervals; i++) {
		free(r->intervals[i].locks);
		ls_rec_cgroups_free(&r->intervals[i]);
		ls_rec_chains_free(&r->intervals[i]);
	}
	free(r->intervals);
	memset(r, 0, sizeof(*r));
}
