/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * record.h - a `lockscope record` file read back into plain C.
 *
 * The file format is documented in docs/record-schema.md (JSON Schema in
 * docs/record-schema.json).  The reader checks everything it uses and turns
 * every problem into one line of text; it never trusts the input.  Counters,
 * losses and function-probe fields that a file lacks (it was written before
 * they existed) read as 0; present, they must be valid.  Lock rows
 * are matched by name and kind, never by address: rows of one snapshot that
 * share both are summed into one lock class.
 */
#ifndef LS_RECORD_H
#define LS_RECORD_H

#include <stddef.h>
#include <stdint.h>
#include <json-c/json.h>
#include "model/model.h"
#include "model/stacks.h"

#define LS_REC_SCHEMA "lockscope-record"
#define LS_REC_VERSION 1
#define LS_REC_MAX_BYTES (1024UL * 1024 * 1024) /* larger files are refused */
#define LS_REC_TEXT_MAX 512

/* One lock class: every row of a snapshot with this name and kind. */
struct ls_rec_lock {
	char name[LS_NAME_MAX]; /* without a " [addr]" suffix */
	unsigned kind;		/* enum ls_kind */
	unsigned instances;	/* rows merged (locks at different addresses) */
	uint64_t contentions, total_ns, spin_ns, sleep_ns, max_ns;
	uint64_t spin_won, spin_failed, gave_up, begins, peak_waiters;
	/* function probes; 0 where they were off (or in older files) */
	uint64_t osq_ns, osq_bailouts, slow_ns, slow_untraced_ns;
	/* the holder side ("holder"); 0 in older files */
	uint64_t holder_waits[LS_HOLDER_MAX], holder_ns[LS_HOLDER_MAX];
	uint64_t tenure_ns;
	/* wait-for chains ("chains"): chained waits and their wait time;
	 * has_chains 0 in older files and with --no-chains */
	uint64_t chain_waits, chain_ns;
	int has_chains;
	/* --budget (record_estimate.c): times, histograms and holder states
	 * estimated from timed waits, with these standard errors in ns; 0
	 * when exact (and in older files) */
	int estimated;
	uint64_t timed_waits;
	double total_se_ns, spin_se_ns, sleep_se_ns;
};

struct ls_rec_spin {
	char fn[48];
	uint64_t samples;
};

/* The totals of a run, or one interval of its time series. */
/* --by cgroup: one lock's waits by one cgroup of its waiters (`cgroups`
 * of a lock row; the path as written, "(gone)" included). */
struct ls_rec_cg {
	char lock[LS_NAME_MAX]; /* the lock's name, as ls_rec_lock's */
	unsigned kind;
	char path[LS_CG_PATH_MAX];
	uint64_t waits, wait_ns;
};

/* Wait-for chains of the lock rows (`chains`): an edge from lock @from to
 * the lock @to its holders waited on, summed over every lock of those
 * names and kinds (record_chains.c). */
struct ls_rec_edge {
	char from[LS_NAME_MAX], to[LS_NAME_MAX]; /* names, as ls_rec_lock's */
	unsigned from_kind, to_kind;
	uint64_t waits, wait_ns, cycles;
};

struct ls_rec_snap {
	double t_s; /* intervals: end of the interval, seconds from start */
	double duration_s;
	uint64_t ctr[LS_CTR_MAX];
	uint64_t loss[LS_LOSS_MAX];
	uint64_t samples; /* every cpu-clock sample */
	unsigned nspin;
	struct ls_rec_spin spin[LS_MAX_SPIN_RANGES];
	struct ls_rec_lock *locks; /* sorted by name, then kind */
	size_t nlocks;
	/* per-cgroup waits, sorted by lock, kind, path (record_cgroups.c) */
	struct ls_rec_cg *cgs;
	size_t ncgs;
	int has_cgroups; /* the lock rows carry `cgroups` */
	/* wait-for chain edges, sorted by from, kind, to (record_chains.c) */
	struct ls_rec_edge *edges;
	size_t nedges;
	int by_cgroup;	   /* compare --by cgroup: metrics per lock x cgroup */
	double budget_pct; /* --budget in force; 0: exact (or older files) */
};

/* Wait histograms of one lock class in the totals (log2 ns slots). */
struct ls_rec_hist {
	char name[LS_NAME_MAX];
	unsigned kind;
	uint64_t all[LS_HIST_SLOTS];			    /* whole waits */
	uint64_t spin[LS_HIST_SLOTS], sleep[LS_HIST_SLOTS]; /* phases */
};

struct ls_rec {
	int version;
	char kernel[LS_REC_TEXT_MAX];  /* run.kernel_release */
	char command[LS_REC_TEXT_MAX]; /* run.command joined; "" if none */
	int has_command;
	int exit_status; /* -1: no command */
	int interrupted;
	unsigned cpus;
	double duration_s;
	double interval_s; /* 0: no time series */
	struct ls_rec_snap totals;
	struct ls_rec_snap *intervals;
	size_t nintervals;
	/* for pictures (record_detail.c): the totals' histograms, by name
	 * and kind, and the sampled waiter stacks (none in older files) */
	struct ls_rec_hist *hists;
	size_t nhists, hists_cap;
	struct ls_stacks stacks;
};

/*
 * Parse a record from @buf (@len bytes, need not be NUL-terminated).
 * Returns 0, or -EINVAL with a one-line reason in @err ("truncated JSON",
 * "schema version 2 is not supported ...", "totals.locks[3].kind: ...").
 */
int ls_rec_parse(const char *buf, size_t len, struct ls_rec *r, char *err,
		 size_t errlen);
/* The same from a parsed JSON document. */
int ls_rec_from_json(struct json_object *root, struct ls_rec *r, char *err,
		     size_t errlen);
/* Read and parse @path; -errno or -EINVAL, reason in @err. */
int ls_rec_read_file(const char *path, struct ls_rec *r, char *err,
		     size_t errlen);
void ls_rec_free(struct ls_rec *r);
/* Drop @r's histograms and stacks (only pictures draw them). */
void ls_rec_detail_free(struct ls_rec *r);
/* Sort @s's locks by name and kind and sum the rows that share both (the
 * reader does it; call again after renaming rows). */
void ls_rec_snap_merge(struct ls_rec_snap *s);
/* Sum the cgroup rows of one lock, kind and cgroup (after renaming). */
void ls_rec_cgroups_merge(struct ls_rec_snap *s);

/* The histograms of a lock class in the totals; NULL if the file has none.
 */
const struct ls_rec_hist *ls_rec_find_hist(const struct ls_rec *r,
					   const char *name, unsigned kind);

/* Find a lock class in a snapshot (binary search); NULL if absent. */
const struct ls_rec_lock *ls_rec_find(const struct ls_rec_snap *s,
				      const char *name, unsigned kind);

#endif
