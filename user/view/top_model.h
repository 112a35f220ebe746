/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * top_model.h - the live view's state and keys, without curses.
 *
 * What `lockscope top` shows is decided here and in top_text.h from model
 * snapshots: which rows, in which order, which one is selected, and what a
 * key does.  tui.c only puts lines on the screen and turns curses keys
 * into LS_KEY_* values; cmd_top.c reads the collector.  All of it is
 * unit-tested without root or a terminal.
 */
#ifndef LS_TOP_MODEL_H
#define LS_TOP_MODEL_H

#include <stddef.h>
#include "model/model.h"

enum ls_top_mode {
	LS_TOP_LIST = 0, /* one row per lock */
	LS_TOP_DETAIL,	 /* one lock: histograms, callers, waiters, owner */
	LS_TOP_HELP,
	LS_TOP_SORTMENU, /* pick the sort column from a list */
};

/* Keys as the view hands them over; printable characters are themselves. */
enum {
	LS_KEY_ENTER = '\n',
	LS_KEY_ESC = 27,
	LS_KEY_UP = 0x1000,
	LS_KEY_DOWN,
	LS_KEY_LEFT,
	LS_KEY_RIGHT,
	LS_KEY_PGUP,
	LS_KEY_PGDN,
	LS_KEY_HOME,
	LS_KEY_END,
	LS_KEY_BACKSPACE,
	LS_KEY_F0 = 0x1100, /* LS_KEY_F0 + n is function key Fn */
};

/* What the command loop has to do after a key (ls_top_key's result). */
#define LS_TOP_QUIT 0x01
#define LS_TOP_REDRAW 0x02
#define LS_TOP_REVIEW 0x04 /* sort or filter changed: rebuild the rows */
#define LS_TOP_RETIME 0x08 /* the interval changed */
#define LS_TOP_OWNER 0x10  /* a lock was opened: read its owner now */

/* Columns of the list, left to right. */
enum ls_top_col {
	LS_COL_NAME = 0,
	LS_COL_KIND,
	LS_COL_COUNT, /* contentions/s */
	LS_COL_SPIN,  /* ms spent spinning per second */
	LS_COL_SLEEP, /* ms spent sleeping per second */
	LS_COL_AVG,
	LS_COL_MAX,
	LS_COL_WAIT,   /* waiters now */
	LS_COL_PEAK,   /* peak waiters in the interval */
	LS_COL_WON,    /* spin phases that won the lock, % */
	LS_COL_PRE,    /* waits whose holder was preempted, % */
	LS_COL_BLK,    /* waits whose holder waited on another lock, % */
	LS_COL_CALLER, /* most sampled caller */
	LS_COL_NR,
};

#define LS_TOP_FILTER_MAX 64
#define LS_TOP_LINE 512 /* longest line the model formats */

struct ls_top {
	enum ls_top_mode mode, back; /* back: where help returns to */
	enum ls_sort sort;
	int reverse; /* ascending numbers, descending names */
	char filter[LS_TOP_FILTER_MAX];	    /* name substring, "" = all */
	char filter_old[LS_TOP_FILTER_MAX]; /* restored by Esc */
	int editing; /* the filter line has the keyboard */
	int paused;
	double interval; /* seconds */
	int hist_total;	 /* detail: histograms since start, not the interval */
	/* the interval's rows, filtered and sorted: pointers into the
	 * snapshot last given to ls_top_view, which must outlive them */
	const struct ls_row **view;
	size_t nview, view_cap;
	size_t nrows_all; /* rows before filtering */
	size_t sel, top;  /* selected row, first row on screen */
	struct ls_lock_key sel_key;
	int have_sel;
	struct ls_lock_key detail; /* the lock the detail view shows */
	size_t scroll;		   /* first line shown of detail and help */
	unsigned menu; /* sort menu cursor: index into ls_top_sort_order */
	unsigned page; /* rows on screen, set by the view */
	char msg[96];  /* shown once in the status line */
};

void ls_top_init(struct ls_top *t, enum ls_sort sort, double interval);
void ls_top_free(struct ls_top *t);

/* Rebuild t->view from @delta: rows matching @base (command-line filter) and
 * the typed name filter, in sort order; the selection follows its lock.
 * The view points into @delta's rows (no copy): @delta stays as it is
 * until the next call.  @delta NULL empties the view.  0 or -ENOMEM. */
int ls_top_view(struct ls_top *t, const struct ls_snapshot *delta,
		const struct ls_filter *base);
/* The screen shows @page rows: keep the selected row among them. */
void ls_top_set_page(struct ls_top *t, unsigned page);
/* Apply one key; returns LS_TOP_* flags. */
int ls_top_key(struct ls_top *t, int key);
/* Next (dir > 0) or previous interval on the 0.1 .. 60 s ladder. */
double ls_top_interval_step(double cur, int dir);

/* Sort keys in the order < and > walk them (total wait, then the columns). */
extern const enum ls_sort ls_top_sort_order[];
extern const unsigned ls_top_nsorts;
/* The column of a sort key (-1: none). */
int ls_top_sort_col(enum ls_sort s);
const char *ls_top_sort_label(enum ls_sort s); /* "spin ms/s", ... */

#endif
