/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * record_write.h - build a record (docs/record-schema.md) from snapshots and
 * write it as JSON, CSV or lkp-style "key: value" lines.  Pure C.
 */
#ifndef LS_RECORD_WRITE_H
#define LS_RECORD_WRITE_H

#include <stdio.h>
#include <time.h>
#include <json-c/json.h>
#include "collect/collector.h"
#include "model/model.h"
#include "model/sources.h"

enum ls_rec_format {
	LS_REC_JSON = 0,
	LS_REC_CSV,
	LS_REC_LKP,
};

struct ls_rec_meta {
	const char *version; /* "lockscope 0.1" */
	const char *kernel_release, *kernel_version, *machine;
	unsigned cpus;
	time_t started;
	char **ls_argv; /* lockscope's own command line */
	int ls_argc;
	char **argv; /* COMMAND ARGS, NULL if none */
	int argc;
	int exit_status; /* COMMAND's, when argv */
	int interrupted; /* stopped by a signal before its end */
	double duration_s;
	double interval_s; /* 0: no time series */
	const struct ls_source *src;
	unsigned nsrc;
	const struct ls_collector_opts *col;
	const struct ls_filter *filter;
	const struct ls_stacks *stacks; /* sampled waiter stacks, or NULL */
};

/*
 * The time series: interval snapshots as JSON, and which lock each row
 * belongs to, so rows can be named and filtered by the names the locks
 * have at the end (a lock's name depends on its most sampled caller, which
 * can change during a run).
 */
struct ls_series {
	struct json_object *arr; /* owned until ls_record_json() */
	struct ls_series_ref *refs;
	size_t nrefs, cap;
};

void ls_series_init(struct ls_series *s);
/* Append the interval @d (a delta) that ended @t_s after the start. */
int ls_series_add(struct ls_series *s, const struct ls_snapshot *d, double t_s,
		  double dur_s, int with_addr);
/* Rename rows after @final (indexed), keep those matching @f. */
int ls_series_finish(struct ls_series *s, const struct ls_snapshot *final,
		     const struct ls_filter *f);
void ls_series_free(struct ls_series *s);

/* The whole document; takes the series' array (@s may be NULL). */
struct json_object *ls_record_json(const struct ls_rec_meta *m,
				   const struct ls_snapshot *totals,
				   struct ls_series *s);
/* Print @doc in @fmt; 0 or -errno (-EINVAL with @err if it does not read
 * back, which would be a bug). */
int ls_record_print(FILE *f, struct json_object *doc, enum ls_rec_format fmt,
		    char *err, size_t errlen);

#endif
