/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* text.h - plain text output of snapshots (hist report, top frames). */
#ifndef LS_VIEW_TEXT_H
#define LS_VIEW_TEXT_H

#include <stdio.h>
#include "model/model.h"
#include "model/sources.h"

/* "losses: none" or "losses: 3 (end without begin 2, stack failed 1)". */
void ls_print_losses(FILE *f, const struct ls_snapshot *s);
/* When a full table lost data between @then and @now (loss counters):
 * "lockscope: lost data in the last 60s: lock map full 5, ... (of N
 * begins)" (every reason that grew) and the hint line; returns 1, or 0
 * and prints nothing. */
int ls_print_loss_notice(FILE *f, const uint64_t now[LS_LOSS_MAX],
			 const uint64_t then[LS_LOSS_MAX], uint64_t begins,
			 double secs);
/* The steal line: hypervisor steal time of @s, per CPU. */
void ls_print_steal(FILE *f, const struct ls_snapshot *s);
/* hist report for @s (rows already filtered and sorted), @n locks. */
void ls_print_hist(FILE *f, const struct ls_snapshot *s, double secs,
		   unsigned n, const char *sources, unsigned hz,
		   unsigned stack_every);
/* One top frame: @d is the interval delta, @secs its length; @extra, if
 * not NULL, is one more header line (lockscope's cost). */
void ls_print_frame(FILE *f, const struct ls_snapshot *d, double secs,
		    unsigned n, const char *sources, const char *extra);

#endif
