/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * prom_cgroup.h - serve --by cgroup: waits by waiter cgroup as Prometheus
 * series with a bounded cgroup label.
 *
 * Each cgroup's waits, summed over every lock the BPF side counted (-p and
 * --cgroup apply, the row filters -L and -T do not), go through the lock
 * series' machinery (prom_series.h) as one pseudo-row per cgroup: at most K
 * cgroups (--max-cgroups) have series of their own, ranked by recent wait
 * with the same hysteresis and minimum age, the rest summed into
 * cgroup="other"; every counter only grows.  The label is the cgroup's
 * path below the cgroup v2 mount; cgroups gone by the read share one
 * series, cgroup="(gone)"; raw ids are never exported.
 *
 * Families: lockscope_cgroup_waits_total{cgroup},
 * lockscope_cgroup_wait_seconds_total{cgroup}, and the gauges
 * lockscope_cgroup_series_limit, lockscope_cgroups{series="own|other"}.
 */
#ifndef LS_EXPORT_PROM_CGROUP_H
#define LS_EXPORT_PROM_CGROUP_H

#include <stdio.h>
#include "export/prom.h"

#define LS_PROM_DEF_MAX_CGROUPS 20

/* Put @s's cgroup rows into @cg (an ls_prom of K series, ls_prom_init'ed),
 * with @scratch (initialised, reused) holding one row per cgroup.  @last:
 * the snapshot of the previous update (NULL at first); the entries it has
 * and @s lost (their lock forgotten) keep counting in @carry (initialised,
 * kept from update to update: one row per cgroup), so that no counter goes
 * back.  0 or -ENOMEM. */
int ls_prom_cg_update(struct ls_prom *cg, const struct ls_snapshot *s,
		      const struct ls_snapshot *last,
		      struct ls_snapshot *scratch, struct ls_snapshot *carry);
/* The cgroup families of @cg into @f. */
void ls_prom_cg_write(FILE *f, enum ls_prom_format fmt,
		      const struct ls_prom *cg);

#endif
