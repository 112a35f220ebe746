// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* hist.c - the one log2 histogram: bounds, counts and quantiles (slots:
 * bpf/decide.h). */
#include <string.h>
#include "model/hist.h"

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
