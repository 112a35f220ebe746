/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * fmt.h - how every view writes a duration or a rate: one formatter each,
 * so a figure reads the same in hist, in top's full screen and in its batch
 * frames, and in the compare table.
 */
#ifndef LS_VIEW_FMT_H
#define LS_VIEW_FMT_H

#include <stddef.h>
#include <stdint.h>

/* How many digits a duration keeps.  Both pick the unit (ns, us, ms, s)
 * after rounding, so a value never reads "1000us". */
enum ls_dur_form {
	/* three significant digits, at most six characters ("1.93us",
	 * "627us", "12.3ms"): table cells (top's screen and batch frames) */
	LS_DUR_SHORT = 0,
	/* one decimal in us, two in ms and s ("6.3us", "166.97ms", "1.20s"):
	 * the hist report and histogram bounds, where sums and slot edges
	 * keep their digits */
	LS_DUR_FIXED,
};

/* @ns as a duration with its unit; returns @buf. */
const char *ls_fmt_dur(char *buf, size_t len, uint64_t ns,
		       enum ls_dur_form form);
/* Events per second in at most six characters: "0", "3.5", "57691",
 * "571k", "5M". */
const char *ls_fmt_per_s(char *buf, size_t len, double v);
/* Milliseconds per second with three significant digits ("0", "2.54",
 * "13.7", "307"). */
const char *ls_fmt_ms_per_s(char *buf, size_t len, double v);

#endif
