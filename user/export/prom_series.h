/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * prom_series.h - which lock goes into which Prometheus series.
 *
 * Pure C: `lockscope serve` feeds it one snapshot per collection interval;
 * prom.h writes the exposition of the result.
 *
 * Cardinality is bounded: at most max_series label sets (lock, kind,
 * caller) of their own, the other locks summed into lock="other" of their
 * kind.  Which locks get a series of their own follows recent wait time
 * (an exponentially decaying sum, half-life about a minute), with
 * hysteresis: a lock in "other" replaces the weakest own series only when
 * it waited more than twice as long recently, and a series is kept at
 * least a minute.  A lock that changes series takes only its future
 * increments along (its past stays where it was counted), so every
 * exported counter only grows and no increment is counted twice: rates
 * summed over the series stay exact.
 */
#ifndef LS_EXPORT_PROM_SERIES_H
#define LS_EXPORT_PROM_SERIES_H

#include <stdint.h>
#include "model/model.h"

#define LS_PROM_DEF_MAX_SERIES 50
/* Collections a lock without any caller waits for one before it is
 * exported as "<kind>@?" (its first contention normally brings a stack). */
#define LS_PROM_PENDING_ROUNDS 3
#define LS_PROM_HALF_LIFE_S 60.0 /* of the recent-wait ranking */
#define LS_PROM_MIN_AGE_S 60.0	 /* a series is kept at least this long */
#define LS_PROM_MAX_SWAPS 4	 /* series replaced per update, at most */
/* Wait-for chains: the classes of the locks holders waited on that get a
 * blocked_on label of their own, the first met (the others: "other"),
 * and the chains of a lock counted (most wait first). */
#define LS_PROM_CHAIN_TO 8
#define LS_PROM_CHAIN_ROWS 16

/* Counters of a lock or a series (cumulative). */
struct ls_prom_counts {
	uint64_t contentions, total_ns, spin_ns, sleep_ns;
	uint64_t spin_won, spin_failed, gave_up;
	/* function probes (zero unless a probe source is active) */
	uint64_t osq_ns, osq_calls, osq_bailouts, slow_ns, slow_calls;
	uint64_t osq_prev_preempted; /* bail-outs, previous vCPU preempted */
	__u64 hist[LS_HIST_SLOTS];
	/* the holder side: by holder state at wait start, handoff tenure */
	uint64_t holder_waits[LS_HOLDER_MAX], holder_ns[LS_HOLDER_MAX];
	uint64_t tenure_ns;
	/* wait time of chained waits by blocked_on class (ls_prom.chain_to;
	 * the last: other) */
	uint64_t chain_ns[LS_PROM_CHAIN_TO + 1];
};

/* One exported label set and the sums of its locks. */
struct ls_prom_series {
	char lock[LS_NAME_MAX];
	char kind[24];
	char caller[LS_FN_MAX];
	uint64_t addr;		      /* with_addr only */
	int used;		      /* own series: slot in use */
	uint64_t born;		      /* update round it was created in */
	unsigned nlocks;	      /* locks assigned now */
	struct ls_prom_counts c;      /* sums, from the last update */
	struct ls_prom_counts frozen; /* "other": left by locks promoted */
	uint64_t waiters;	      /* now */
	uint64_t peak_waiters; /* largest interval peak among the locks */
	double score;	       /* recent wait of its locks (rebalancing) */
};

/* Where a lock's stats go. */
struct ls_prom_slot {
	struct ls_lock_key key;
	int32_t series;	 /* index into series[], LS_PROM_OTHER or _PENDING */
	uint32_t rounds; /* collections seen while pending */
	double score;	 /* decaying sum of wait time per collection, ns */
	uint64_t last_total;	     /* total_ns at the previous update */
	struct ls_prom_counts *base; /* counters when it changed series */
	/* at the previous update: the lock's row there, its lock_rows slot;
	 * now: 1 + its row in this update's snapshot, 0 when not there */
	size_t row, now;
	uint32_t row_slot;
};
#define LS_PROM_OTHER (-1)
#define LS_PROM_PENDING (-2)

struct ls_prom {
	unsigned max_series;
	int with_addr;	  /* add an addr label (raw kernel address) */
	double decay;	  /* per update: score *= decay */
	uint64_t min_age; /* updates a series lives at least */
	struct ls_prom_series *series; /* max_series own series, by slot */
	size_t nseries;		       /* own series in use */
	struct ls_prom_series other[LS_KIND_MAX]; /* lock="other" per kind */
	struct ls_prom_slot *slots;		  /* sorted by key */
	size_t nslots, slots_cap;
	/* blocked_on classes of chains, first met first, never reassigned:
	 * every chain counter only grows */
	char chain_to[LS_PROM_CHAIN_TO][LS_NAME_MAX];
	unsigned nchain_to;
	uint64_t round;		    /* updates so far */
	uint64_t promoted, demoted; /* series changes so far */
	/* from the last update */
	size_t nrows, npending, nother;
	uint64_t epoch;
};

/* @interval_s: time between updates, for the ranking's half-life. */
void ls_prom_init(struct ls_prom *p, unsigned max_series, int with_addr,
		  double interval_s);
void ls_prom_free(struct ls_prom *p);
/* Assign @s's rows to series, rebalance, recompute every series' sums.
 * @last: the snapshot given to the previous update (NULL: none, or it is
 * gone), where a lock that left the tables since (forgotten, or forgotten
 * and made again) is found: what it counted stays in its series, and its
 * slot goes.  0 or -ENOMEM. */
int ls_prom_update(struct ls_prom *p, const struct ls_snapshot *s,
		   const struct ls_snapshot *last);
/* Peak waiters of @r during the interval of snapshot epoch @epoch. */
uint64_t ls_prom_interval_peak(const struct ls_row *r, uint64_t epoch);

#endif
