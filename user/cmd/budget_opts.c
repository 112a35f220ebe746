// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * budget_opts.c - --budget: serve's default of 1% (where nothing it was
 * asked for needs every wait timed), exact elsewhere; the options a budget
 * cannot honour (--hold, --by cgroup, --no-tracepoints, an explicit
 * --source fentry/kprobe) are errors when --budget is given.  Under a
 * budget the function probes stay off: they would time every slow-path
 * call, and their split of a wait needs its tracepoint times.
 */
#include <errno.h>
#include "cmd/budget_opts.h"
#include "util/log.h"

uint32_t ls_budget_ppm(double pct)
{
	return (uint32_t)(pct * 10000.0 + 0.5);
}

/* What in @o needs every wait timed, NULL if nothing. */
static const char *needs_exact(const struct ls_opts *o)
{
	if (o->col.hold)
		return "--hold times every acquisition";
	if (o->col.by_cgroup)
		return "--by cgroup needs every wait's time";
	if (o->col.no_tracepoints)
		return "--no-tracepoints leaves only the function probes, "
		       "which "
		       "time every call";
	if (o->col.probe_mode == LS_PROBE_FENTRY ||
	    o->col.probe_mode == LS_PROBE_KPROBE)
		return "the function probes time every slow-path call";
	return NULL;
}

int ls_budget_resolve(struct ls_opts *o)
{
	const char *why = needs_exact(o);

	if (!o->budget_set && o->cmd == LS_CMD_SERVE && !why)
		o->col.budget_ppm = LS_SERVE_DEF_BUDGET_PPM;
	if (!o->col.budget_ppm)
		return 0;
	if (why) {
		ls_fail("parse", "--budget", why);
		ls_hint("drop --budget (or give --budget 0) for exact figures");
		return -EINVAL;
	}
	o->col.probe_mode = LS_PROBE_NONE;
	return 0;
}
