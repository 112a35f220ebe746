// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* cmd_top.c - the live view; plain text frames every interval. */
#include <stdio.h>
#include "commands.h"
#include "log.h"
#include "run.h"
#include "view_text.h"

/* The first frame comes after at most this long: data within a second. */
#define LS_FIRST_FRAME_S 0.5

int ls_cmd_top(const struct ls_opts *o)
{
	struct ls_snapshot prev, cur, delta;
	struct ls_child child = { 0 };
	struct ls_collector *c;
	uint32_t frames = 0;
	int err = 0, rc = 0;
	char srcs[256];

	ls_snap_init(&prev);
	ls_snap_init(&cur);
	ls_snap_init(&delta);
	ls_install_signals();
	c = ls_collector_start(&o->col);
	if (!c)
		return 1;
	ls_sources_active(ls_collector_sources(c), LS_SRC_MAX, srcs, sizeof(srcs));
	err = ls_collector_read(c, &prev);
	if (!err && o->argv)
		err = ls_child_start(&child, o->argv);
	while (!err && !ls_stop) {
		int last = ls_wait(!frames && o->interval > LS_FIRST_FRAME_S ?
					   LS_FIRST_FRAME_S :
					   o->interval,
				   &child);
		double secs;

		err = ls_collector_read(c, &cur);
		if (err)
			break;
		ls_collector_next_epoch(c);
		err = ls_snap_delta(&cur, &prev, &delta);
		if (err)
			break;
		secs = (double)(cur.mono_ns - prev.mono_ns) / 1e9;
		ls_snap_filter(&delta, &o->filter);
		ls_rows_sort(delta.rows, delta.nrows, o->sort, 0);
		ls_print_frame(stdout, &delta, secs > 0 ? secs : 1, o->nlocks,
			       srcs);
		fflush(stdout); /* a frame at a time to a pipe or a file */
		{
			/* cur becomes prev; the next read refills the old prev */
			struct ls_snapshot t = prev;

			prev = cur;
			cur = t;
		}
		frames++;
		if (last || (o->count_set && frames >= o->count))
			break;
	}
	if (err) {
		ls_fail_errno("read", "BPF maps", err);
		rc = 1;
	}
	ls_child_finish(&child);
	if (child.pid && !rc)
		rc = child.status;
	ls_snap_free(&prev);
	ls_snap_free(&cur);
	ls_snap_free(&delta);
	ls_collector_stop(c);
	return rc;
}
