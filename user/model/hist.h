/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* hist.h - the one log2 histogram: slot i counts values in [2^i, 2^(i+1)). */
#ifndef LS_HIST_H
#define LS_HIST_H

#include <stdint.h>
#include <linux/types.h>
#include "lockscope.h"
#include "decide.h" /* ls_hist_slot: the slot of a value, BPF's own */

/* Lower bound of slot @i in ns (0 for slot 0). */
uint64_t ls_hist_lo(unsigned i);
/* Sum of counts. */
uint64_t ls_hist_count(const __u64 *h);
/* Count of slots 0..@last: the values below ls_hist_lo(@last + 1). */
uint64_t ls_hist_cum(const __u64 *h, unsigned last);

#endif
