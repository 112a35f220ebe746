// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* columns.c - which columns of a lock row each data source gives (doctor). */
#include "model/columns.h"

static const struct ls_column_group groups[] = {
	{"contentions, wait, spin/sleep split, histograms, waiters", LS_SRC_TP},
	{"spin share of CPU time and its callers", LS_SRC_SAMPLER},
	{"osq time, spinners, bail-outs", LS_SRC_PROBE + LS_TGT_OSQ},
	{"mutex slow path", LS_SRC_PROBE + LS_TGT_MUTEX},
	{"rwsem writer spin, write slow path", LS_SRC_PROBE + LS_TGT_RWSEM_W},
	{"rwsem read slow path", LS_SRC_PROBE + LS_TGT_RWSEM_R},
	{"mutex and rwsem rows from the probes alone", LS_SRC_ROWS},
	{"spinlock slow-path times by probe", LS_SRC_QSPIN},
	{"hold time of every acquisition (--hold)", LS_SRC_HOLD},
};

const struct ls_column_group *ls_column_groups(size_t *n)
{
	*n = sizeof(groups) / sizeof(groups[0]);
	return groups;
}

void ls_columns_print(FILE *f, const struct ls_source *src)
{
	fprintf(f, "columns on this kernel:\n");
	for (size_t i = 0; i < sizeof(groups) / sizeof(groups[0]); i++) {
		const struct ls_source *s = &src[groups[i].source];

		if (s->active)
			fprintf(f, "  %-58s from %s (%s)\n", groups[i].columns,
				s->name, s->mech);
		else
			fprintf(f, "  %-58s missing: %s not active\n",
				groups[i].columns, s->name);
	}
}
