// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* cmd_hist.c - trace for a while, then print histograms and spin shares
 * (and with --folded, the sampled waiter stacks for flame graphs). */
#include <stdio.h>
#include <string.h>
#include <json-c/json.h>
#include "cmd/commands.h"
#include "cmd/folded_out.h"
#include "export/json.h"
#include "util/log.h"
#include "cmd/run.h"
#include "view/text.h"

static void print_hist(const struct ls_opts *o, struct ls_collector *c,
		       const struct ls_snapshot *snap, double secs)
{
	char srcs[256];

	ls_sources_active(ls_collector_sources(c), LS_SRC_MAX, srcs,
			  sizeof(srcs));
	if (o->json) {
		struct json_object *j = ls_snap_to_json(snap, o->col.with_addr);

		json_object_object_add(j, "duration_s",
				       json_object_new_double(secs));
		json_object_object_add(
			j, "sources",
			ls_sources_to_json(ls_collector_sources(c),
					   LS_SRC_MAX));
		puts(json_object_to_json_string_ext(j,
						    JSON_C_TO_STRING_PRETTY));
		json_object_put(j);
	} else {
		ls_print_hist(stdout, snap, secs, o->nlocks, srcs,
			      ls_collector_sources(c)[LS_SRC_SAMPLER].active
				      ? o->col.sample_hz
				      : 0,
			      o->col.stack_every);
	}
}

int ls_cmd_hist(const struct ls_opts *o)
{
	struct ls_collector *c;
	struct ls_snapshot snap;
	struct ls_stacks stacks;
	struct ls_folded_out fo;
	struct ls_child child = {0};
	uint64_t t0;
	double secs;
	enum ls_start_err why;
	int err, rc = 0;

	ls_snap_init(&snap);
	ls_stacks_init(&stacks);
	ls_install_signals();
	/* a bad path fails now, not after the run */
	rc = ls_folded_open(&fo, o->folded);
	if (rc)
		return rc;
	c = ls_collector_start(&o->col, &why);
	if (!c) {
		ls_folded_abort(&fo);
		return why == LS_START_BAD_INPUT ? 2 : 1;
	}
	err = ls_collector_read(c, &snap); /* start time */
	t0 = snap.mono_ns;
	if (err) {
		ls_fail_errno("read", "BPF maps", err);
		rc = 1;
		goto cleanup;
	}
	if (o->argv && ls_child_start(&child, o->argv)) {
		rc = 1;
		goto cleanup;
	}
	if (!o->argv && !o->duration)
		fprintf(stderr,
			"lockscope: tracing lock contention, Ctrl-C to end\n");
	ls_wait(o->duration ? o->duration : 1e9, &child);
	ls_child_finish(&child);
	err = ls_collector_read(c, &snap);
	if (err) {
		ls_fail_errno("read", "BPF maps", err);
		rc = 1;
		goto cleanup;
	}
	secs = (double)(snap.mono_ns - t0) / 1e9;
	ls_snap_filter(&snap, &o->filter);
	ls_rows_sort(snap.rows, snap.nrows, o->sort, 0);
	/* --folded -: the folded stacks are the standard output */
	if (!o->folded || strcmp(o->folded, "-"))
		print_hist(o, c, &snap, secs);
	if (o->folded) {
		err = ls_collector_stacks(c, &snap, &stacks);
		if (err) {
			ls_fail_errno("read", "sampled stacks", err);
			rc = 1;
			goto cleanup;
		}
		ls_stacks_sort(&stacks);
		if (ls_folded_finish(&fo, &stacks))
			rc = 1;
	}
cleanup:
	ls_folded_abort(&fo);
	ls_stacks_free(&stacks);
	ls_snap_free(&snap);
	ls_collector_stop(c);
	return ls_exit_status(&child, rc);
}
