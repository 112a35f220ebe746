// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * cmd_compare.c - compare BASE records with NEW records (--by cgroup: also
 * each lock's waits by cgroup).  Exit status: 0, 1 when a metric got worse
 * beyond the threshold, 2 on bad input.
 */
#include <stdio.h>
#include <stdlib.h>
#include "analysis/classes.h"
#include "cmd/commands.h"
#include "util/log.h"
#include "util/untrusted_text.h"
#include "view/compare_table.h"

int ls_read_side(char *const *files, int n, struct ls_rec *recs, int by_class,
		 int pictures)
{
	for (int i = 0; i < n; i++) {
		char why[256], obj[300], a[257];

		if (ls_rec_read_file(files[i], &recs[i], why, sizeof(why))) {
			snprintf(obj, sizeof(obj), "record '%s'",
				 ls_text_safe(a, sizeof(a), files[i]));
			ls_fail("read", obj, why);
			if (files[i][0] == '-')
				ls_hint("options go before --: everything "
					"after it is a NEW file");
			return -1;
		}
		if (!pictures) /* histograms and stacks: 1.1 KB a lock */
			ls_rec_detail_free(&recs[i]);
		if (by_class) /* match by lock class */
			ls_rec_fold_classes(&recs[i]);
	}
	return 0;
}

/* --by cgroup: every record must carry its locks' cgroups; 0 or -1. */
static int by_cgroup(char *const *files, int n, struct ls_rec *recs)
{
	for (int i = 0; i < n; i++) {
		char obj[300], a[257];

		if (!recs[i].totals.has_cgroups) {
			snprintf(obj, sizeof(obj), "record '%s' by cgroup",
				 ls_text_safe(a, sizeof(a), files[i]));
			ls_fail("compare", obj, "its locks have no cgroups");
			ls_hint("make the records with record --by cgroup");
			return -1;
		}
		recs[i].totals.by_cgroup = 1;
	}
	return 0;
}

int ls_cmd_compare(const struct ls_opts *o)
{
	struct ls_rec *recs[2];
	struct ls_cmp_input in[2];
	struct ls_cmp cmp;
	int n[2] = {o->nfiles, o->argc}, rc = 2;

	recs[0] = calloc((size_t)n[0], sizeof(struct ls_rec));
	recs[1] = calloc((size_t)n[1], sizeof(struct ls_rec));
	if (!recs[0] || !recs[1]) {
		ls_fail_errno("read", "records", -12);
		goto out;
	}
	if (ls_read_side(o->files, n[0], recs[0], 1, 0) ||
	    ls_read_side(o->argv, n[1], recs[1], 1, 0))
		goto out;
	if (o->col.by_cgroup && (by_cgroup(o->files, n[0], recs[0]) ||
				 by_cgroup(o->argv, n[1], recs[1])))
		goto out;
	if (ls_compare(recs[0], (size_t)n[0], recs[1], (size_t)n[1],
		       o->threshold, o->min_share_set ? o->min_share : 1.0,
		       &cmp)) {
		ls_fail("compare", "records", "out of memory");
		goto out;
	}
	in[0] = (struct ls_cmp_input){recs[0], o->files, (size_t)n[0]};
	in[1] = (struct ls_cmp_input){recs[1], o->argv, (size_t)n[1]};
	if (o->format == LS_FMT_JSON) {
		struct json_object *j = ls_cmp_to_json(&cmp, in);

		puts(json_object_to_json_string_ext(
			j, JSON_C_TO_STRING_PRETTY |
				   JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(j);
	} else if (o->format == LS_FMT_CSV) {
		ls_cmp_print_csv(stdout, &cmp);
	} else {
		ls_cmp_print_text(stdout, &cmp, in);
	}
	rc = cmp.nregressed ? 1 : 0; /* main checks the output */
	ls_cmp_free(&cmp);
out:
	for (int s = 0; s < 2; s++) {
		for (int i = 0; recs[s] && i < n[s]; i++)
			ls_rec_free(&recs[s][i]);
		free(recs[s]);
	}
	return rc;
}
