/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* prom_budget.h - --budget's series in the exposition. */
#ifndef LS_PROM_BUDGET_H
#define LS_PROM_BUDGET_H

#include "export/prom_write.h"
#include "model/model.h"

/* lockscope_budget_ratio always; the sampling rate in force, the
 * programs' own cost and the windows over budget under a budget. */
void ls_prom_budget(const struct ls_prom_out *o,
		    const struct ls_budget_snap *b);

#endif
