/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* sources.h - what each data source can do on this kernel, and why. */
#ifndef LS_SOURCES_H
#define LS_SOURCES_H

#include <stdio.h>
#include <linux/types.h>
#include "lockscope.h"

enum ls_source_id {
	LS_SRC_TP = 0,	/* lock:contention_begin/end */
	LS_SRC_SAMPLER, /* cpu-clock perf_event sampler */
	LS_SRC_PROBE,	/* first function-probe target: LS_SRC_PROBE + ls_target
			 */
	LS_SRC_MAX = LS_SRC_PROBE + LS_TGT_MAX, /* one per probe target */
};

/* How function probes may attach (--source). */
enum ls_probe_mode {
	LS_PROBE_AUTO = 0, /* fentry where possible, else kprobe */
	LS_PROBE_FENTRY,
	LS_PROBE_KPROBE,
	LS_PROBE_NONE,
};

struct ls_source {
	char name[48]; /* "tracepoints", "cpu sampler", ... */
	char mech[48]; /* mechanism chosen or probed: "tp_btf", "raw_tp", ... */
	char symbols[160]; /* kernel symbols it attaches to (probes) */
	int available;	   /* the kernel offers it */
	int active;	   /* lockscope uses it now */
	char reason[256];  /* one line: why (not) available / active */
};

/* Print the doctor table. */
void ls_sources_print(FILE *f, const struct ls_source *src, unsigned n);
/* Short "tracepoints (tp_btf), cpu sampler" list of active sources. */
const char *ls_sources_active(const struct ls_source *src, unsigned n,
			      char *buf, size_t len);

#endif
