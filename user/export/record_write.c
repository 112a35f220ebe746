// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* record_write.c - records as JSON (the schema), CSV and lkp lines. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "export/json.h"
#include "export/metrics.h"
#include "export/record.h"
#include "export/record_write.h"
#include "export/csv.h"

static struct json_object *argv_json(char **argv, int argc)
{
	struct json_object *a;

	if (!argv)
		return NULL;
	a = json_object_new_array();
	for (int i = 0; i < argc; i++)
		json_object_array_add(a, json_object_new_string(argv[i]));
	return a;
}

static struct json_object *options_json(const struct ls_rec_meta *m)
{
	struct json_object *o = json_object_new_object();
	struct json_object *kinds = json_object_new_array();
	const struct ls_collector_opts *c = m->col;
	const struct ls_filter *f = m->filter;

	json_object_object_add(o, "pid",
			       c->tgid ? json_object_new_int64(c->tgid) : NULL);
	json_object_object_add(o, "sample_hz",
			       json_object_new_int64(c->sample_hz));
	json_object_object_add(o, "stack_every",
			       json_object_new_int64(c->stack_every));
	json_object_object_add(o, "tracepoints",
			       json_object_new_boolean(!c->no_tracepoints));
	json_object_object_add(o, "max_locks",
			       json_object_new_int64(c->max_locks));
	json_object_object_add(o, "max_tasks",
			       json_object_new_int64(c->max_tasks));
	json_object_object_add(o, "addresses",
			       json_object_new_boolean(c->with_addr));
	json_object_object_add(o, "hold", json_object_new_boolean(c->hold));
	json_object_object_add(o, "lock_filter",
			       f && f->name ? json_object_new_string(f->name)
					    : NULL);
	for (unsigned k = 0; f && k < LS_KIND_MAX; k++)
		if (f->kind_mask & (1U << k))
			json_object_array_add(
				kinds, json_object_new_string(ls_kind_name(k)));
	json_object_object_add(o, "kind_filter", kinds);
	return o;
}

static struct json_object *run_json(const struct ls_rec_meta *m)
{
	struct json_object *o = json_object_new_object();
	char ts[32];

	strftime(ts, sizeof(ts), "%Y-%m-%dT%H:%M:%SZ", gmtime(&m->started));
	json_object_object_add(o, "started", json_object_new_string(ts));
	json_object_object_add(o, "kernel_release",
			       json_object_new_string(m->kernel_release));
	json_object_object_add(o, "kernel_version",
			       json_object_new_string(m->kernel_version));
	json_object_object_add(o, "machine",
			       json_object_new_string(m->machine));
	json_object_object_add(o, "cpus", json_object_new_int64(m->cpus));
	json_object_object_add(o, "lockscope_cmdline",
			       argv_json(m->ls_argv, m->ls_argc));
	json_object_object_add(o, "command", argv_json(m->argv, m->argc));
	json_object_object_add(o, "exit_status",
			       m->argv ? json_object_new_int(m->exit_status)
				       : NULL);
	json_object_object_add(o, "duration_s",
			       json_object_new_double(m->duration_s));
	json_object_object_add(o, "interval_s",
			       m->interval_s > 0
				       ? json_object_new_double(m->interval_s)
				       : NULL);
	json_object_object_add(o, "interrupted",
			       json_object_new_boolean(m->interrupted));
	json_object_object_add(o, "sources",
			       ls_sources_to_json(m->src, m->nsrc));
	json_object_object_add(o, "options", options_json(m));
	return o;
}

struct json_object *ls_record_json(const struct ls_rec_meta *m,
				   const struct ls_snapshot *totals)
{
	struct json_object *o = json_object_new_object(), *tot;

	json_object_object_add(o, "schema",
			       json_object_new_string(LS_REC_SCHEMA));
	json_object_object_add(o, "schema_version",
			       json_object_new_int(LS_REC_VERSION));
	json_object_object_add(o, "lockscope_version",
			       json_object_new_string(m->version));
	json_object_object_add(o, "run", run_json(m));
	tot = ls_snap_head_json(totals);
	if (m->stacks)
		json_object_object_add(tot, "stacks",
				       ls_stacks_to_json(m->stacks));
	json_object_object_add(o, "totals", tot);
	return o;
}

static void csv_rows(FILE *f, const struct ls_rec_snap *s, size_t iv)
{
	for (size_t i = 0; i < s->nlocks; i++) {
		const struct ls_rec_lock *l = &s->locks[i];

		fprintf(f, "%zu,%.6f,%.6f,", iv, s->t_s, s->duration_s);
		ls_csv_field(f, l->name);
		fprintf(f,
			",%s,%u,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%"
			"llu,%llu\n",
			ls_kind_name(l->kind), l->instances,
			(unsigned long long)l->contentions,
			(unsigned long long)l->total_ns,
			(unsigned long long)(l->contentions
						     ? l->total_ns /
							       l->contentions
						     : 0),
			(unsigned long long)l->max_ns,
			(unsigned long long)l->spin_ns,
			(unsigned long long)l->sleep_ns,
			(unsigned long long)l->spin_won,
			(unsigned long long)l->spin_failed,
			(unsigned long long)l->gave_up,
			(unsigned long long)l->begins,
			(unsigned long long)l->peak_waiters);
	}
}

static void print_csv(FILE *f, struct ls_rec *r)
{
	fprintf(f, "interval,t_s,duration_s,lock,kind,instances,contentions,"
		   "total_ns,avg_ns,max_ns,spin_ns,sleep_ns,spin_won,spin_"
		   "failed,gave_up,begins,peak_waiters\n");
	r->totals.t_s = r->duration_s;
	csv_rows(f, &r->totals, 0);
	for (size_t i = 0; i < r->nintervals; i++)
		csv_rows(f, &r->intervals[i], i + 1);
}

/* One snapshot's lkp lines: event counters, losses by reason, metrics. */
static int print_lkp_snap(FILE *f, const struct ls_rec_snap *s)
{
	const size_t skip = sizeof(LS_METRIC_PREFIX) - 1;
	struct ls_stats st = {0};
	char b[64], k[64];
	int err;

	for (unsigned i = 0; i < LS_CTR_MAX; i++)
		fprintf(f, "events.%s: %llu\n",
			ls_name_key(k, sizeof(k), ls_ctr_name(i)),
			(unsigned long long)s->ctr[i]);
	for (unsigned i = 0; i < LS_LOSS_MAX; i++)
		fprintf(f, "loss.%s: %llu\n",
			ls_name_key(k, sizeof(k), ls_loss_name(i)),
			(unsigned long long)s->loss[i]);
	err = ls_snap_stats(s, &st);
	/* lkp-tests puts "lockscope." before every key itself */
	for (size_t i = 0; !err && i < st.n; i++)
		fprintf(f, "%s: %s\n", st.v[i].key + skip,
			ls_fmt_num(b, sizeof(b), st.v[i].v));
	ls_stats_free(&st);
	return err;
}

/*
 * The totals, then with -i one block per interval, each opened by a
 * "time: " line (seconds from the start to the interval's end), as
 * lkp-tests monitors print a time series.
 */
static int print_lkp(FILE *f, const struct ls_rec *r)
{
	char b[64];
	int err;

	fprintf(f, "run.duration_s: %s\n",
		ls_fmt_num(b, sizeof(b), r->duration_s));
	fprintf(f, "run.cpus: %u\n", r->cpus);
	if (r->has_command)
		fprintf(f, "run.exit_status: %d\n", r->exit_status);
	fprintf(f, "run.interrupted: %d\n", r->interrupted);
	err = print_lkp_snap(f, &r->totals);
	for (size_t i = 0; !err && i < r->nintervals; i++) {
		const struct ls_rec_snap *s = &r->intervals[i];

		fprintf(f, "time: %s\n", ls_fmt_num(b, sizeof(b), s->t_s));
		fprintf(f, "run.duration_s: %s\n",
			ls_fmt_num(b, sizeof(b), s->duration_s));
		err = print_lkp_snap(f, s);
	}
	return err;
}

int ls_record_print_rec(FILE *f, struct ls_rec *r, enum ls_rec_format fmt)
{
	int e = 0;

	if (fmt == LS_REC_CSV)
		print_csv(f, r);
	else
		e = print_lkp(f, r);
	if (!e && ferror(f))
		e = -EIO;
	return e;
}

int ls_record_print(FILE *f, struct json_object *doc, enum ls_rec_format fmt,
		    char *err, size_t errlen)
{
	struct ls_rec r;
	int e;

	if (fmt == LS_REC_JSON) {
		fputs(json_object_to_json_string_ext(
			      doc, JSON_C_TO_STRING_PRETTY |
					   JSON_C_TO_STRING_NOSLASHESCAPE),
		      f);
		fputc('\n', f);
		return ferror(f) ? -EIO : 0;
	}
	/* CSV and lkp print what the reader sees: one row per lock class */
	e = ls_rec_from_json(doc, &r, err, errlen);
	if (e)
		return e;
	e = ls_record_print_rec(f, &r, fmt);
	ls_rec_free(&r);
	return e;
}
