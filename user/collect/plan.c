// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * plan.c - before anything loads: which mechanism each data source will
 * use on this kernel (tracepoints, sampler, function probes), and why.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "collect/collector_int.h"
#include "collect/features.h"

/*
 * Probe-only rows: when the tracepoints will not run (absent before 5.19,
 * or --no-tracepoints), the slow-path probes make the mutex and rwsem
 * rows, and a sched_switch raw tracepoint tells spinning from sleeping.
 */
static void plan_rows(const struct ls_collector_opts *o, struct ls_source *src)
{
	struct ls_source *s = &src[LS_SRC_ROWS];
	const struct ls_source *tp = &src[LS_SRC_TP];
	char list[128] = "";
	size_t off = 0;

	snprintf(s->name, sizeof(s->name), "probe-only rows");
	ls_source_set_mech(s, LS_MECH_NONE);
	for (int t = LS_TGT_MUTEX; t < LS_TGT_MAX; t++) {
		const struct ls_source *p = &src[LS_SRC_PROBE + t];

		if (p->available && off < sizeof(list))
			off += (size_t)snprintf(list + off, sizeof(list) - off,
						"%s%s", off ? ", " : "",
						p->name + strlen("probe "));
	}
	if (!o->no_tracepoints && tp->mech_id != LS_MECH_NONE) {
		s->why = LS_WHY_UNNEEDED;
		snprintf(s->reason, sizeof(s->reason),
			 "not needed: the tracepoints make the rows");
		return;
	}
	if (!list[0]) {
		s->why = LS_WHY_ABSENT;
		snprintf(s->reason, sizeof(s->reason),
			 "tracepoints off and no slow-path probe: no mutex or "
			 "rwsem rows");
		return;
	}
	ls_source_set_mech(s, LS_MECH_RAW_TP);
	s->available = 1;
	s->why = LS_WHY_OK;
	snprintf(s->reason, sizeof(s->reason),
		 "tracepoints %s: rows from %s; spin ends at the first "
		 "sleep (sched_switch); no spinlock rows",
		 o->no_tracepoints ? "disabled by option" : "absent", list);
}

/* The queued spinlock slow path is found and explained, never probed. */
static void plan_qspin(const struct ls_ksyms *ks, struct ls_source *s)
{
	static const char *const fn[] = {"native_queued_spin_lock_slowpath",
					 "__pv_queued_spin_lock_slowpath"};
	const struct ls_ksym *sym[2];
	char names[96] = "", kw[64];
	size_t off = 0, n;
	int bl = -1;

	snprintf(s->name, sizeof(s->name), "probe queued_spin_lock_slowpath");
	ls_source_set_mech(s, LS_MECH_NONE);
	s->why = LS_WHY_ABSENT;
	for (size_t i = 0; ks && i < 2; i++) {
		n = ls_ksyms_clones(ks, fn[i], sym, 2);
		if (!n || off >= sizeof(names))
			continue;
		off += (size_t)snprintf(names + off, sizeof(names) - off,
					"%s%s", off ? "," : "", fn[i]);
		if (bl <= 0)
			bl = ls_probe_kprobe(kw, sizeof(kw))
				     ? -ENOENT
				     : ls_kprobe_blacklisted(sym[0]->name);
	}
	if (!names[0]) {
		snprintf(s->reason, sizeof(s->reason),
			 "no queued spinlock slow path in kallsyms");
		return;
	}
	s->why = LS_WHY_UNSAFE;
	snprintf(s->reason, sizeof(s->reason),
		 "found %s (kprobe blacklist: %s); not probed: its return is "
		 "inside the critical section (every contended hold grows) "
		 "and its entry counts pending-bit spins",
		 names,
		 bl > 0		 ? "listed"
		 : bl == 0	 ? "not listed"
		 : bl == -ENOENT ? "no kprobes here"
				 : "unreadable");
}

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
	plan_rows(o, src);
	plan_qspin(ks, &src[LS_SRC_QSPIN]);
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
