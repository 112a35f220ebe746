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
	LS_SRC_PROBE_END = LS_SRC_PROBE + LS_TGT_MAX, /* one per probe target */
	/* probe-only rows: the slow-path probes make the rows when the
	 * tracepoints are off; sched_switch marks the end of spinning */
	LS_SRC_ROWS = LS_SRC_PROBE_END,
	LS_SRC_QSPIN, /* queued spinlock slow path: found, never probed */
	LS_SRC_HOLD,  /* --hold: lock/unlock probes */
	LS_SRC_MAX,
};

/* How function probes may attach (--source). */
enum ls_probe_mode {
	LS_PROBE_AUTO = 0, /* fentry where possible, else kprobe */
	LS_PROBE_FENTRY,
	LS_PROBE_KPROBE,
	LS_PROBE_NONE,
};

/* How a source reaches the kernel. */
enum ls_mech {
	LS_MECH_NONE = 0,
	LS_MECH_TP_BTF,	    /* tracepoints through BTF-typed programs */
	LS_MECH_RAW_TP,	    /* tracepoints through raw tracepoint programs */
	LS_MECH_PERF_EVENT, /* cpu-clock perf events */
	LS_MECH_FENTRY,	    /* fentry/fexit on a BTF function */
	LS_MECH_KPROBE,	    /* kprobe/kretprobe on kallsyms addresses */
	LS_MECH_MAX,
};

/* Why a source is or is not in use: decisions read this, not the text. */
enum ls_why {
	LS_WHY_OK = 0,	 /* available (and active once attached) */
	LS_WHY_DISABLED, /* switched off by an option */
	LS_WHY_ABSENT,	 /* this kernel lacks the hook or the function */
	LS_WHY_NO_KSYMS, /* kallsyms unreadable: addresses unknown */
	LS_WHY_REFUSED,	 /* the kernel refuses the mechanism */
	LS_WHY_FAILED,	 /* load or attach failed */
	LS_WHY_UNNEEDED, /* another source already gives what it would */
	LS_WHY_UNSAFE,	 /* the kernel would allow it; lockscope will not */
};

struct ls_source {
	char name[48];	      /* "tracepoints", "cpu sampler", ... */
	enum ls_mech mech_id; /* decides; mech is its name, for display */
	enum ls_why why;      /* decides; reason explains it, for display */
	char mech[48];	      /* ls_mech_name(mech_id) */
	char symbols[160];    /* kernel symbols it attaches to (probes) */
	int available;	      /* the kernel offers it */
	int active;	      /* lockscope uses it now */
	char reason[256];     /* one line: why (not) available / active */
};

/* Display name of a mechanism: the one table of them. */
const char *ls_mech_name(enum ls_mech m);
/* Set @s's mechanism and its display name. */
void ls_source_set_mech(struct ls_source *s, enum ls_mech m);
/* Print the doctor table. */
void ls_sources_print(FILE *f, const struct ls_source *src, unsigned n);
/* Short "tracepoints (tp_btf), cpu sampler" list of active sources. */
const char *ls_sources_active(const struct ls_source *src, unsigned n,
			      char *buf, size_t len);

#endif
