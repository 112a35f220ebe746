/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * prom.h - the series of prom_series.h, the cpu sampler and lockscope's own
 * state as Prometheus text exposition (0.0.4) or OpenMetrics 1.0.
 *
 * Pure C (no libbpf, no HTTP): `lockscope serve` renders one page per
 * collection interval and serves it.
 */
#ifndef LS_EXPORT_PROM_H
#define LS_EXPORT_PROM_H

#include <stdint.h>
#include <stdio.h>
#include "export/prom_series.h"
#include "model/sources.h"

#define LS_PROM_CT_TEXT "text/plain; version=0.0.4; charset=utf-8"
#define LS_PROM_CT_OPENMETRICS                                                 \
	"application/openmetrics-text; version=1.0.0; charset=utf-8"

enum ls_prom_format {
	LS_PROM_TEXT = 0,    /* Prometheus text format 0.0.4 */
	LS_PROM_OPENMETRICS, /* OpenMetrics 1.0.0 text */
};

/* Everything that is not in the snapshot: lockscope's own state. */
struct ls_prom_meta {
	const char *version;
	const struct ls_source *src; /* may be NULL */
	unsigned nsrc;
	uint32_t lock_table_size; /* capacity of the BPF lock table */
	uint32_t forget;	  /* --forget: intervals; 0: never */
	uint64_t forgotten;	  /* locks forgotten so far */
	int run_stats; /* BPF run-time stats on: prog[] is meaningful */
	int probes;    /* a function-probe source is active: osq, slow path */
	double interval_s; /* collection interval */
	uint64_t collections, collection_errors;
	double collection_s;	     /* duration of the last collection */
	double last_collection_unix; /* wall clock of the last collection */
	/* the process (Prometheus' standard process_* metrics) */
	int have_process;
	double cpu_s, start_unix;
	uint64_t rss_bytes, vsz_bytes, max_fds;
	/* serve --by cgroup: the cgroup series (prom_cgroup.h), or NULL */
	const struct ls_prom *cg;
};

/*
 * The whole exposition into a malloc'ed buffer (NUL-terminated).  @cur is
 * the snapshot given to the last update; @prev the one before it (NULL at
 * first) for the per-interval spin share.  Returns 0 or -errno.
 */
int ls_prom_render(char **buf, size_t *len, const struct ls_prom *p,
		   const struct ls_snapshot *cur,
		   const struct ls_snapshot *prev, const struct ls_prom_meta *m,
		   enum ls_prom_format fmt);

/* Shortest decimal text that reads back as @v ("+Inf", "NaN" too). */
const char *ls_prom_float(char *buf, size_t len, double v);

#endif
