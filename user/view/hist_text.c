// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* hist_text.c - one or two log2 histograms side by side as text rows with
 * bars (hist's report and the live view's lock page). */
#include <string.h>
#include "model/hist.h"
#include "view/fmt.h"
#include "view/hist_text.h"

static void range_str(char *buf, size_t len, unsigned i)
{
	char lo[16], hi[16];

	ls_fmt_dur(lo, sizeof(lo), ls_hist_lo(i), LS_DUR_FIXED);
	if (i == LS_HIST_SLOTS - 1)
		snprintf(buf, len, "%s -> ...", lo);
	else
		snprintf(buf, len, "%s -> %s", lo,
			 ls_fmt_dur(hi, sizeof(hi), 1ULL << (i + 1),
				    LS_DUR_FIXED));
}

void ls_hist_print(FILE *f, const char *la, const __u64 *a, const char *lb,
		   const __u64 *b, int width)
{
	ls_hist_print_of(f, "wait", la, a, lb, b, width);
}

void ls_hist_print_of(FILE *f, const char *what, const char *la, const __u64 *a,
		      const char *lb, const __u64 *b, int width)
{
	int first = -1, last = -1;
	uint64_t max = 0;
	char r[40];

	if (width < 1)
		width = 1;
	if (width > LS_HIST_BAR_MAX)
		width = LS_HIST_BAR_MAX;

	for (int i = 0; i < LS_HIST_SLOTS; i++) {
		uint64_t v = a[i] + (b ? b[i] : 0);

		if (!v)
			continue;
		if (first < 0)
			first = i;
		last = i;
		if (v > max)
			max = v;
	}
	if (first < 0) {
		fprintf(f, "    (no %ss)\n", what);
		return;
	}
	if (b)
		fprintf(f, "    %-20s %10s %10s  |%-*s|\n", what, la, lb, width,
			"spin=#  sleep=.");
	else
		fprintf(f, "    %-20s %10s  |%-*s|\n", what, la, width, "");
	for (int i = first; i <= last; i++) {
		int na = (int)((double)a[i] * width / (double)max + 0.5);
		int nb =
			b ? (int)((double)b[i] * width / (double)max + 0.5) : 0;
		char bars[LS_HIST_BAR_MAX + 1];

		if (a[i] && !na)
			na = 1;
		if (b && b[i] && !nb)
			nb = 1;
		if (na + nb > width)
			nb = width - na;
		memset(bars, '#', (size_t)na);
		memset(bars + na, '.', (size_t)nb);
		bars[na + nb] = '\0';
		range_str(r, sizeof(r), (unsigned)i);
		if (b)
			fprintf(f, "    %-20s %10llu %10llu  |%-*s|\n", r,
				(unsigned long long)a[i],
				(unsigned long long)b[i], width, bars);
		else
			fprintf(f, "    %-20s %10llu  |%-*s|\n", r,
				(unsigned long long)a[i], width, bars);
	}
}
