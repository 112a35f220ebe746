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
 * The time series (record_series.c): each interval's JSON, with the keys
 * of its locks, spilled as one line to an unlinked file in $TMPDIR (or
 * /tmp) when it ends, and read back one interval at a time as the record
 * is written, its locks named after the names they have at the end (a
 * lock's name depends on its most sampled caller, which can change during
 * a run) and filtered by them.  A record so takes memory for its totals
 * and one interval, not for the whole run.
 */
struct ls_series {
	FILE *spill; /* NULL until the first interval */
	size_t n;    /* intervals spilled whole */
	int err;     /* a failed spill: no interval is added after it */
	char *line;  /* reading back */
	size_t linecap;
};

void ls_series_init(struct ls_series *s);
/* Make the scratch file (before the run: a full or missing $TMPDIR fails
 * here, not half way); *@dir names its directory.  0 or -errno. */
int ls_series_open(struct ls_series *s, const char **dir);
/* Append the interval @d (a delta) that ended @t_s after the start; 0 or
 * -errno (the spill's: ENOSPC, ...). */
int ls_series_add(struct ls_series *s, const struct ls_snapshot *d, double t_s,
		  double dur_s, int with_addr);
void ls_series_free(struct ls_series *s);

/* The document but its intervals: schema, run, totals with an empty
 * "locks" (ls_record_write streams them). */
struct json_object *ls_record_json(const struct ls_rec_meta *m,
				   const struct ls_snapshot *totals);
/* The whole record in @fmt: the document of ls_record_json() and @s's
 * intervals (NULL: none), named after @final's rows and kept by @filter;
 * CSV and lkp print what a reader of the JSON sees.  0 or -errno (-EINVAL
 * with @err if it does not read back, which would be a bug). */
int ls_record_write(FILE *f, const struct ls_rec_meta *m,
		    const struct ls_snapshot *totals, struct ls_series *s,
		    const struct ls_snapshot *final,
		    const struct ls_filter *filter, enum ls_rec_format fmt,
		    char *err, size_t errlen);
/* Print @doc in @fmt; 0 or -errno (-EINVAL with @err if it does not read
 * back, which would be a bug). */
int ls_record_print(FILE *f, struct json_object *doc, enum ls_rec_format fmt,
		    char *err, size_t errlen);
/* Print a record read back as CSV or lkp lines; 0 or -errno. */
struct ls_rec;
int ls_record_print_rec(FILE *f, struct ls_rec *r, enum ls_rec_format fmt);

#endif
