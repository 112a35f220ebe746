// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* hist.c - the one log2 histogram: counts, quantiles and printable bounds. */
#include <string.h>
#include "model/hist.h"

unsigned ls_hist_slot(uint64_t v)
{
	unsigned r = 0;

	while (v > 1) {
		v >>= 1;
		r++;
	}
	return r < LS_HIST_SLOTS ? r : LS_HIST_SLOTS - 1;
}

uint64_t ls_hist_lo(unsigned i)
{
	return i ? 1ULL << i : 0;
}

uint64_t ls_hist_count(const __u64 *h)
{
	uint64_t n = 0;

	for (unsigned i = 0; i < LS_HIST_SLOTS; i++)
		n += h[i];
	return n;
}

uint64_t ls_hist_cum(const __u64 *h, unsigned last)
{
	uint64_t n = 0;

	for (unsigned i = 0; i <= last && i < LS_HIST_SLOTS; i++)
		n += h[i];
	return n;
}

uint64_t ls_hist_pct(const __u64 *h, double pct)
{
	uint64_t n = ls_hist_count(h), seen = 0;
	double rank;

	if (!n)
		return 0;
	rank = pct / 100.0 * (double)n;
	for (unsigned i = 0; i < LS_HIST_SLOTS; i++) {
		seen += h[i];
		if ((double)seen >= rank && seen)
			return 1ULL << (i + 1);
	}
	return 1ULL << LS_HIST_SLOTS;
}

void ls_hist_add(__u64 *h, const __u64 *d)
{
	for (unsigned i = 0; i < LS_HIST_SLOTS; i++)
		h[i] += d[i];
}

const char *ls_fmt_ns(char *buf, size_t len, uint64_t ns)
{
	if (ns < 1000)
		snprintf(buf, len, "%lluns", (unsigned long long)ns);
	else if (ns < 1000000)
		snprintf(buf, len, "%.1fus", ns / 1e3);
	else if (ns < 1000000000)
		snprintf(buf, len, "%.2fms", ns / 1e6);
	else
		snprintf(buf, len, "%.2fs", ns / 1e9);
	return buf;
}

static void range_str(char *buf, size_t len, unsigned i)
{
	char lo[16], hi[16];

	ls_fmt_ns(lo, sizeof(lo), ls_hist_lo(i));
	if (i == LS_HIST_SLOTS - 1)
		snprintf(buf, len, "%s -> ...", lo);
	else
		snprintf(buf, len, "%s -> %s", lo,
			 ls_fmt_ns(hi, sizeof(hi), 1ULL << (i + 1)));
}

void ls_hist_print(FILE *f, const char *la, const __u64 *a, const char *lb,
		   const __u64 *b)
{
	ls_hist_print_w(f, la, a, lb, b, 30);
}

void ls_hist_print_w(FILE *f, const char *la, const __u64 *a, const char *lb,
		     const __u64 *b, int width)
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
		fprintf(f, "    (no waits)\n");
		return;
	}
	if (b)
		fprintf(f, "    %-20s %10s %10s  |%-*s|\n", "wait", la, lb,
			width, "spin=#  sleep=.");
	else
		fprintf(f, "    %-20s %10s  |%-*s|\n", "wait", la, width, "");
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
