// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* top_text.c - the live view's table: column layout for a screen width,
 * the title line and one line per lock. */
#include <string.h>
#include "view/fmt.h"
#include "view/top_text.h"

/* clang-format off */
static const struct {
	const char *title;
	int width; /* at 80 columns */
	int left; /* text, left-aligned */
} cols[LS_COL_NR] = {
	[LS_COL_NAME] = { "LOCK", 19, 1 },
	[LS_COL_KIND] = { "KIND", 8, 1 },
	[LS_COL_COUNT] = { "CONT/s", 6, 0 },
	[LS_COL_SPIN] = { "SPINms", 6, 0 },
	[LS_COL_SLEEP] = { "SLEEPms", 7, 0 },
	[LS_COL_AVG] = { "AVG", 6, 0 },
	[LS_COL_MAX] = { "MAX", 7, 0 },
	[LS_COL_WAIT] = { "WAIT", 4, 0 },
	[LS_COL_PEAK] = { "PEAK", 4, 0 },
	[LS_COL_WON] = { "WON%", 4, 0 },
	[LS_COL_PRE] = { "PRE%", 4, 0 },
	[LS_COL_BLK] = { "BLK%", 4, 0 },
	[LS_COL_CALLER] = { "CALLER", 0, 1 },
};
/* clang-format on */

#define NAME_MIN 12

void ls_top_layout(struct ls_top_layout *l, int width)
{
	static const enum ls_top_col drop[] = {LS_COL_WON,   LS_COL_PEAK,
					       LS_COL_KIND,  LS_COL_MAX,
					       LS_COL_SLEEP, LS_COL_AVG};
	int used = 0, x = 0, extra;

	memset(l, 0, sizeof(*l));
	l->width = width;
	for (int c = 0; c < LS_COL_PRE; c++) {
		l->shown[c] = 1;
		l->w[c] = cols[c].width;
		used += l->w[c] + (c ? 1 : 0);
	}
	extra = width - used; /* used is 80 */
	if (extra >= cols[LS_COL_PRE].width + 1) {
		/* PRE% from 85 columns on: at 80 the name keeps its width */
		l->shown[LS_COL_PRE] = 1;
		l->w[LS_COL_PRE] = cols[LS_COL_PRE].width;
		extra -= l->w[LS_COL_PRE] + 1;
	}
	if (extra >= cols[LS_COL_BLK].width + 1) {
		/* BLK% from 90 columns on */
		l->shown[LS_COL_BLK] = 1;
		l->w[LS_COL_BLK] = cols[LS_COL_BLK].width;
		extra -= l->w[LS_COL_BLK] + 1;
	}
	if (extra >= 16) {
		/* the caller gets 15 first, then half of what is left */
		int avail = extra - 1, caller = 15 + (avail - 15) / 2;
		int grow = avail - caller;

		if (grow > 40) {
			caller += grow - 40;
			grow = 40;
		}
		l->w[LS_COL_NAME] += grow;
		l->shown[LS_COL_CALLER] = 1;
		l->w[LS_COL_CALLER] = caller;
	} else if (extra >= 0) {
		l->w[LS_COL_NAME] += extra;
	} else {
		int shrink = -extra;
		int by = cols[LS_COL_NAME].width - NAME_MIN;

		if (by > shrink)
			by = shrink;
		l->w[LS_COL_NAME] -= by;
		shrink -= by;
		for (unsigned i = 0;
		     shrink > 0 && i < sizeof(drop) / sizeof(*drop); i++) {
			l->shown[drop[i]] = 0;
			shrink -= l->w[drop[i]] + 1;
			l->w[drop[i]] = 0;
		}
		if (shrink < 0) /* dropping freed more than needed */
			l->w[LS_COL_NAME] -= shrink;
	}
	for (int c = 0; c < LS_COL_NR; c++) {
		if (!l->shown[c])
			continue;
		l->x[c] = x;
		x += l->w[c] + 1;
	}
}

/* Put @s into @line at the column's place, cut or padded to its width. */
static void put(char *line, const struct ls_top_layout *l, int c, const char *s)
{
	int w = l->w[c], n = (int)strlen(s);

	if (!l->shown[c] || w <= 0)
		return;
	if (n > w)
		n = w;
	if (cols[c].left)
		memcpy(line + l->x[c], s, (size_t)n);
	else
		memcpy(line + l->x[c] + (w - n), s, (size_t)n);
}

static void finish(char *buf, size_t len, char *line, int width)
{
	int end = width;

	while (end > 0 && line[end - 1] == ' ')
		end--;
	line[end] = '\0';
	snprintf(buf, len, "%s", line);
}

void ls_top_titles(char *buf, size_t len, const struct ls_top_layout *l)
{
	char line[LS_TOP_LINE];
	int width = l->width < LS_TOP_LINE - 1 ? l->width : LS_TOP_LINE - 1;

	memset(line, ' ', sizeof(line));
	for (int c = 0; c < LS_COL_NR; c++)
		if (l->x[c] + l->w[c] <= width)
			put(line, l, c, cols[c].title);
	finish(buf, len, line, width);
}

void ls_top_row(char *buf, size_t len, const struct ls_row *r, double secs,
		const struct ls_top_layout *l)
{
	char line[LS_TOP_LINE], f[LS_COL_NR][LS_NAME_MAX];
	int width = l->width < LS_TOP_LINE - 1 ? l->width : LS_TOP_LINE - 1;
	double won = ls_row_spin_won_pct(r), pre = ls_row_preempted_pct(r);
	double blk = ls_row_chain_pct(r);

	if (secs <= 0)
		secs = 1;
	snprintf(f[LS_COL_NAME], sizeof(f[0]), "%s", r->name);
	snprintf(f[LS_COL_KIND], sizeof(f[0]), "%s", ls_kind_name(r->key.kind));
	ls_fmt_per_s(f[LS_COL_COUNT], sizeof(f[0]),
		     (double)r->st.contentions / secs);
	ls_fmt_ms_per_s(f[LS_COL_SPIN], sizeof(f[0]),
			(double)r->st.spin_ns / 1e6 / secs);
	ls_fmt_ms_per_s(f[LS_COL_SLEEP], sizeof(f[0]),
			(double)r->st.sleep_ns / 1e6 / secs);
	if (r->st.contentions)
		ls_fmt_dur(f[LS_COL_AVG], sizeof(f[0]), ls_row_avg_ns(r),
			   LS_DUR_SHORT);
	else
		snprintf(f[LS_COL_AVG], sizeof(f[0]), "-");
	if (r->st.contentions) {
		char d[32];

		ls_fmt_dur(d, sizeof(d), r->st.max_ns, LS_DUR_SHORT);
		snprintf(f[LS_COL_MAX], sizeof(f[0]), "%s%s",
			 r->max_bound ? "<" : "", d);
	} else {
		snprintf(f[LS_COL_MAX], sizeof(f[0]), "-");
	}
	snprintf(f[LS_COL_WAIT], sizeof(f[0]), "%lld",
		 (long long)(r->st.waiters > 0 ? r->st.waiters : 0));
	snprintf(f[LS_COL_PEAK], sizeof(f[0]), "%llu",
		 (unsigned long long)r->st.peak_waiters);
	if (won >= 0)
		snprintf(f[LS_COL_WON], sizeof(f[0]), "%.0f", won);
	else
		snprintf(f[LS_COL_WON], sizeof(f[0]), "-");
	if (pre >= 0)
		snprintf(f[LS_COL_PRE], sizeof(f[0]), "%.0f", pre);
	else
		snprintf(f[LS_COL_PRE], sizeof(f[0]), "-");
	if (blk >= 0)
		snprintf(f[LS_COL_BLK], sizeof(f[0]), "%.0f", blk);
	else
		snprintf(f[LS_COL_BLK], sizeof(f[0]), "-");
	snprintf(f[LS_COL_CALLER], sizeof(f[0]), "%s", ls_row_top_caller(r));
	memset(line, ' ', sizeof(line));
	for (int c = 0; c < LS_COL_NR; c++)
		if (l->x[c] + l->w[c] <= width)
			put(line, l, c, f[c]);
	finish(buf, len, line, width);
}
