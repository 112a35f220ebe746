/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * top_text.h - what the live view says, as plain text lines.
 *
 * Column layout for a screen width, the row and title lines, the header
 * (sources, events/s, losses, spin share, cost), the status line, and the
 * detail and help pages.  Pure C: the same lines go to curses and to tests.
 * One header, a file per part: top_text.c (columns and rows), top_header.c
 * (header and status lines), top_detail.c (a lock's page), top_help.c.
 */
#ifndef LS_TOP_TEXT_H
#define LS_TOP_TEXT_H

#include <stdio.h>
#include <time.h>
#include "view/top_model.h"

/* Everything a frame shows besides the state: the figures of one interval. */
struct ls_top_frame {
	const struct ls_snapshot
		*delta; /* last interval; NULL before the first */
	const struct ls_snapshot *cur; /* totals since start */
	double secs;		       /* length of the interval */
	double uptime;		       /* seconds since lockscope started */
	const char *sources; /* "tracepoints (tp_btf), cpu sampler (...)" */
	int sampler;	     /* the cpu sampler is active */
	unsigned sample_hz;
	unsigned stack_every; /* caller stack every Nth contention */
	int cost;	      /* BPF run-time stats are enabled */
	double agent_cpu; /* lockscope's own CPU use, % of one CPU; <0 unknown
			   */
	time_t when;	  /* wall clock of the frame */
};

/* Column positions at one screen width. */
struct ls_top_layout {
	int width;
	int shown[LS_COL_NR];
	int x[LS_COL_NR], w[LS_COL_NR];
};

void ls_top_layout(struct ls_top_layout *l, int width);
/* Column titles, and one row, padded to the layout's columns. */
void ls_top_titles(char *buf, size_t len, const struct ls_top_layout *l);
void ls_top_row(char *buf, size_t len, const struct ls_row *r, double secs,
		const struct ls_top_layout *l);

/* Header lines of a frame for a screen @width wide (long lines wrap, at
 * most @max lines of LS_TOP_LINE bytes); returns how many. */
#define LS_TOP_HEADER_LINES 8
unsigned ls_top_header(const struct ls_top *t, const struct ls_top_frame *fr,
		       int width, char lines[][LS_TOP_LINE], unsigned max);
/* The bottom line: sort, filter, keys; or the filter being typed. */
void ls_top_status(char *buf, size_t len, const struct ls_top *t);
/* lockscope's cost in one line: ns per run of each BPF program ("-" below
 * LS_TOP_COST_MIN_RUNS runs in the interval: a few cold runs say nothing),
 * their CPU share, the agent's CPU share. */
#define LS_TOP_COST_MIN_RUNS 100
void ls_top_cost(char *buf, size_t len, const struct ls_top_frame *fr);

/* The detail view of t->detail as text lines for @width columns.  @owner
 * may be NULL (not read). */
void ls_top_detail(FILE *f, const struct ls_top *t,
		   const struct ls_top_frame *fr, const struct ls_owner *owner,
		   int width);
void ls_top_help(FILE *f);

#endif
