// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * cmd_report.c - records as one self-contained HTML page: `report IN...`
 * draws each record, `report BASE... -- NEW...` a compare.  Exit status:
 * 0, 2 on bad input (a record that does not read, a bad -o path), 1 when
 * the page cannot be written.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>
#include "cmd/commands.h"
#include "util/log.h"
#include "util/outfile.h"
#include "view/report.h"
#include "view/report_whatif.h"

#define LS_WHATIF_MAX_JSON (64 << 20) /* a whatif result read at most */

/* @path as a whatif result (its JSON has "lockscope_whatif"), else NULL:
 * then it is read as a record. */
static struct json_object *read_whatif(const char *path)
{
	struct json_object *j, *v;
	FILE *f = fopen(path, "re");
	char *buf;
	size_t n;

	if (!f)
		return NULL;
	buf = malloc(LS_WHATIF_MAX_JSON + 1);
	n = buf ? fread(buf, 1, LS_WHATIF_MAX_JSON + 1, f) : 0;
	fclose(f);
	if (!buf || n > LS_WHATIF_MAX_JSON || memchr(buf, 0, n)) {
		free(buf);
		return NULL;
	}
	buf[n] = 0;
	j = json_tokener_parse(buf);
	free(buf);
	if (j && json_object_is_type(j, json_type_object) &&
	    json_object_object_get_ex(j, "lockscope_whatif", &v))
		return j;
	json_object_put(j);
	return NULL;
}

/* The page of whatif result @j to -o. */
static int report_whatif(const struct ls_opts *o, struct json_object *j)
{
	struct ls_out out;
	int err = ls_out_open(&out, o->output), rc;

	if (err) {
		json_object_put(j);
		return ls_out_open_status(err);
	}
	err = ls_report_whatif(out.f, j);
	json_object_put(j);
	if (err) {
		ls_out_abort(&out);
		ls_fail_errno("draw", "the report", err);
		return 1;
	}
	rc = ls_out_commit(&out) ? 1 : 0;
	return rc;
}

int ls_cmd_report(const struct ls_opts *o)
{
	int n[2] = {o->nfiles, o->argv ? o->argc : 0}, rc = 2, err;
	unsigned nlocks = o->count_set ? o->count : 10;
	struct ls_rec *recs[2] = {NULL, NULL};
	struct ls_cmp_input in[2];
	struct ls_cmp cmp = {0};
	struct ls_out out;
	struct json_object *wj;

	if (n[0] == 1 && !n[1] && (wj = read_whatif(o->files[0])))
		return report_whatif(o, wj);
	recs[0] = calloc((size_t)n[0], sizeof(struct ls_rec));
	recs[1] = calloc((size_t)n[1] + 1, sizeof(struct ls_rec));
	if (!recs[0] || !recs[1]) {
		ls_fail_errno("read", "records", -ENOMEM);
		rc = 1;
		goto out;
	}
	/* a compare page matches locks by class, as compare does */
	if (ls_read_side(o->files, n[0], recs[0], n[1] > 0, 1) ||
	    ls_read_side(o->argv, n[1], recs[1], 1, 1))
		goto out;
	if (n[1] && ls_compare(recs[0], (size_t)n[0], recs[1], (size_t)n[1],
			       o->threshold,
			       o->min_share_set ? o->min_share : 1.0, &cmp)) {
		ls_fail("compare", "records", "out of memory");
		rc = 1;
		goto out;
	}
	/* the records read: now the path */
	err = ls_out_open(&out, o->output);
	if (err) {
		rc = ls_out_open_status(err);
		goto out;
	}
	in[0] = (struct ls_cmp_input){recs[0], o->files, (size_t)n[0]};
	in[1] = (struct ls_cmp_input){recs[1], o->argv, (size_t)n[1]};
	err = n[1] ? ls_report_compare(out.f, &cmp, in, nlocks)
		   : ls_report_records(out.f, recs[0], o->files, (size_t)n[0],
				       nlocks);
	if (err) {
		ls_out_abort(&out);
		ls_fail_errno("draw", "the report", err);
		rc = 1;
		goto out;
	}
	rc = ls_out_commit(&out) ? 1 : 0;
out:
	if (n[1] && cmp.rows)
		ls_cmp_free(&cmp);
	for (int s = 0; s < 2; s++)
		for (int i = 0; recs[s] && i < n[s]; i++)
			ls_rec_free(&recs[s][i]);
	free(recs[0]);
	free(recs[1]);
	return rc;
}
