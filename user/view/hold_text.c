// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* hold_text.c - hold times (--hold) of one lock as text: a line per mode
 * held, then its log2 histogram (the hist report). */
#include "view/fmt.h"
#include "view/hist_text.h"
#include "view/hold_text.h"

void ls_print_hold(FILE *f, const struct ls_snapshot *s, const struct ls_row *r)
{
	const struct ls_hold_stats *hold = ls_snap_hold(s, &r->key);

	for (unsigned m = 0; hold && m < LS_HOLD_MODES; m++) {
		const struct ls_hold_stats *h = &hold[m];
		char t[16], a[16], p[16], mx[16];

		if (!h->count)
			continue;
		fprintf(f,
			"  hold (%s): %llu holds  total %s  avg %s  p99 <=%s  "
			"max %s%s\n",
			ls_hold_mode_name(m), (unsigned long long)h->count,
			ls_fmt_dur(t, sizeof(t), h->total_ns, LS_DUR_FIXED),
			ls_fmt_dur(a, sizeof(a), ls_hold_avg_ns(h),
				   LS_DUR_FIXED),
			ls_fmt_dur(p, sizeof(p), ls_hold_pct_ns(h, 99),
				   LS_DUR_FIXED),
			ls_fmt_dur(mx, sizeof(mx), h->max_ns, LS_DUR_FIXED),
			m == LS_HOLD_SHARED ? " (readers overlap: the total "
					      "may exceed the run)"
					    : "");
		ls_hist_print_of(f, "hold", ls_hold_mode_name(m), h->hist, NULL,
				 NULL, 30);
	}
}
