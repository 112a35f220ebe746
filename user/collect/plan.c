// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * plan.c - before anything loads: which mechanism each data source will
 * use on this kernel (tracepoints, sampler, function probes), and why.
 */
#include <stdio.h>
#include <string.h>
#include "collect/collector_int.h"
#include "collect/features.h"

void ls_plan_sources(const struct ls_collector_opts *o,
		     const struct ls_ksyms *ks, struct ls_source *src,
		     struct ls_tgt_plan *tgt, char *refused, size_t len)
{
	struct ls_source *s;
	char why[200];

	memset(src, 0, sizeof(*src) * LS_SRC_MAX);
	s = &src[LS_SRC_TP];
	ls_source_set_mech(s, ls_probe_tracepoints(s));
	s->available = s->mech_id != LS_MECH_NONE;
	s->why = s->available ? LS_WHY_OK : LS_WHY_ABSENT;
	if (o->no_tracepoints) {
		snprintf(s->reason, sizeof(s->reason), "disabled by option");
		s->why = LS_WHY_DISABLED;
	}

	s = &src[LS_SRC_SAMPLER];
	snprintf(s->name, sizeof(s->name), "cpu sampler");
	ls_source_set_mech(s, LS_MECH_PERF_EVENT);
	if (!o->sample_hz) {
		s->available = !ls_probe_sampler(99, why, sizeof(why));
		snprintf(s->reason, sizeof(s->reason), "disabled by -F 0");
		s->why = LS_WHY_DISABLED;
	} else {
		s->available = !ls_probe_sampler(o->sample_hz, s->reason,
						 sizeof(s->reason));
		s->why = s->available ? LS_WHY_OK : LS_WHY_REFUSED;
		if (s->available)
			snprintf(s->reason, sizeof(s->reason),
				 "cpu-clock at %u Hz per CPU", o->sample_hz);
	}

	ls_probes_plan(o, ks, src, tgt, refused, len);
	ls_hold_plan(o, ks, &src[LS_SRC_HOLD]);
}

void ls_probe_sources(const struct ls_collector_opts *o, struct ls_source *src)
{
	struct ls_tgt_plan tgt[LS_TGT_MAX];
	struct ls_ksyms ks;
	int have = !ls_ksyms_load(&ks, o->kallsyms);
	char refused[200]; /* shown in the table's reasons */

	ls_plan_sources(o, have ? &ks : NULL, src, tgt, refused,
			sizeof(refused));
	if (have)
		ls_ksyms_free(&ks);
}
