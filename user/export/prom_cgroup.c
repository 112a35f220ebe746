// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* prom_cgroup.c - serve --by cgroup (export/prom_cgroup.h): one pseudo-row
 * per cgroup ranked into a bounded set of series by prom_series.c, written
 * as the lockscope_cgroup_* families. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "export/prom_cgroup.h"
#include "model/cgpath.h"
#include "util/untrusted_text.h"

/* The pseudo-row of cgroup @id named @path, found or appended. */
static struct ls_row *row_of(struct ls_snapshot *t, uint64_t id,
			     const char *path)
{
	struct ls_lock_key k = {.addr = id, .kind = LS_KIND_UNKNOWN};
	struct ls_row *r = ls_snap_find(t, &k);

	if (r)
		return r;
	r = ls_snap_add_row(t, &k);
	if (!r)
		return NULL;
	/* too long: its end, marked, cut between characters (a label value
	 * must be UTF-8, or Prometheus drops the whole scrape) */
	ls_text_copy_tail(r->name, sizeof(r->name), path);
	r->ncallers = 1; /* labels are final: never pending a caller */
	r->callers[0].fn =
		"-"; /* a literal lives as long as an interned name */
	r->st.min_ns = ~0ULL;
	return r; /* unindexed: ls_snap_find scans (few cgroups) */
}

/* Add @c's counts to @r. */
static void add_cg(struct ls_row *r, const struct ls_cg_val *v)
{
	r->st.contentions += v->waits;
	r->st.begins += v->begins;
	r->st.total_ns += v->wait_ns;
	if (v->max_ns > r->st.max_ns)
		r->st.max_ns = v->max_ns;
}

/* The pseudo-row of @c's cgroup in @t. */
static struct ls_row *cg_row(struct ls_snapshot *t, const struct ls_cgrow *c)
{
	/* every gone cgroup in one series: one label, one series */
	int gone = !strcmp(c->path, LS_CG_GONE);

	return row_of(t, gone ? 0 : c->cgid, c->path);
}

/* What the waiter entries of @last that @s lost (their lock forgotten,
 * or forgotten and made again) counted, into @carry: both are sorted by
 * ls_cgrow_cmp. */
static int carry_gone(struct ls_snapshot *carry, const struct ls_snapshot *s,
		      const struct ls_snapshot *last)
{
	size_t j = 0;

	for (size_t i = 0; i < last->ncgrows; i++) {
		const struct ls_cgrow *c = &last->cgrows[i];
		const struct ls_cgrow *now = NULL;
		struct ls_row *r;

		while (j < s->ncgrows && ls_cgrow_cmp(&s->cgrows[j], c) < 0)
			j++;
		if (j < s->ncgrows && !ls_cgrow_cmp(&s->cgrows[j], c))
			now = &s->cgrows[j];
		if (c->role != LS_CG_WAITER ||
		    (now && now->v.waits >= c->v.waits &&
		     now->v.wait_ns >= c->v.wait_ns))
			continue;
		r = cg_row(carry, c);
		if (!r)
			return -ENOMEM;
		add_cg(r, &c->v);
	}
	return 0;
}

int ls_prom_cg_update(struct ls_prom *cg, const struct ls_snapshot *s,
		      const struct ls_snapshot *last,
		      struct ls_snapshot *scratch, struct ls_snapshot *carry)
{
	if (last && carry_gone(carry, s, last))
		return -ENOMEM;
	ls_snap_clear(scratch);
	scratch->epoch = s->epoch;
	for (size_t i = 0; i < carry->nrows; i++) {
		const struct ls_row *c = &carry->rows[i];
		struct ls_row *r = row_of(scratch, c->key.addr, c->name);
		struct ls_cg_val v = {.waits = c->st.contentions,
				      .begins = c->st.begins,
				      .wait_ns = c->st.total_ns,
				      .max_ns = c->st.max_ns};

		if (!r)
			return -ENOMEM;
		add_cg(r, &v);
	}
	for (size_t i = 0; i < s->ncgrows; i++) {
		const struct ls_cgrow *c = &s->cgrows[i];
		struct ls_row *r;

		if (c->role != LS_CG_WAITER)
			continue;
		r = cg_row(scratch, c);
		if (!r)
			return -ENOMEM;
		add_cg(r, &c->v);
	}
	return ls_prom_update(cg, scratch, NULL);
}

static void family(FILE *f, enum ls_prom_format fmt, const char *name,
		   const char *type, const char *help)
{
	int ctr = !strcmp(type, "counter") && fmt == LS_PROM_TEXT;

	if (fmt == LS_PROM_OPENMETRICS &&
	    !strcmp(name + strlen(name) - 8, "_seconds"))
		fprintf(f, "# TYPE %s %s\n# UNIT %s seconds\n# HELP %s %s\n",
			name, type, name, name, help);
	else if (fmt == LS_PROM_OPENMETRICS)
		fprintf(f, "# TYPE %s %s\n# HELP %s %s\n", name, type, name,
			help);
	else
		fprintf(f, "# HELP %s%s %s\n# TYPE %s%s %s\n", name,
			ctr ? "_total" : "", help, name, ctr ? "_total" : "",
			type);
}

/* name{cgroup="path"}: the path escaped as the text formats want. */
static void sample(FILE *f, const char *name, const char *path, double v)
{
	char b[40];

	fprintf(f, "%s{cgroup=\"", name);
	for (const char *c = path; *c; c++) {
		if (*c == '\\' || *c == '"')
			fputc('\\', f);
		if (*c == '\n')
			fputs("\\n", f);
		else
			fputc(*c, f);
	}
	fprintf(f, "\"} %s\n", ls_prom_float(b, sizeof(b), v));
}

/* Own series, then "other" once it ever held a cgroup. */
static size_t cg_series(const struct ls_prom *cg,
			const struct ls_prom_series **out)
{
	const struct ls_prom_series *o = &cg->other[LS_KIND_UNKNOWN];
	size_t n = 0;

	for (size_t i = 0; i < cg->max_series; i++)
		if (cg->series[i].used)
			out[n++] = &cg->series[i];
	if (o->nlocks || o->c.contentions || o->c.total_ns)
		out[n++] = o;
	return n;
}

void ls_prom_cg_write(FILE *f, enum ls_prom_format fmt,
		      const struct ls_prom *cg)
{
	const struct ls_prom_series **all =
		calloc(cg->max_series + 1, sizeof(*all));
	size_t n;

	if (!all)
		return;
	n = cg->series ? cg_series(cg, all) : 0;
	family(f, fmt, "lockscope_cgroup_waits", "counter",
	       "Completed waits of tasks in the cgroup (--by cgroup), every "
	       "lock; the cgroups beyond --max-cgroups in cgroup other.");
	for (size_t i = 0; i < n; i++)
		sample(f, "lockscope_cgroup_waits_total", all[i]->lock,
		       (double)all[i]->c.contentions);
	family(f, fmt, "lockscope_cgroup_wait_seconds", "counter",
	       "Wait time of tasks in the cgroup (--by cgroup), every lock.");
	for (size_t i = 0; i < n; i++)
		sample(f, "lockscope_cgroup_wait_seconds_total", all[i]->lock,
		       (double)all[i]->c.total_ns / 1e9);
	free(all);
	family(f, fmt, "lockscope_cgroup_series_limit", "gauge",
	       "Most cgroups exported as their own series (--max-cgroups).");
	fprintf(f, "lockscope_cgroup_series_limit %u\n", cg->max_series);
	family(f, fmt, "lockscope_cgroups", "gauge",
	       "Cgroups with waits by where they are exported: own series or "
	       "summed into cgroup other.");
	fprintf(f, "lockscope_cgroups{series=\"own\"} %zu\n",
		cg->nrows - cg->nother - cg->npending);
	fprintf(f, "lockscope_cgroups{series=\"other\"} %zu\n", cg->nother);
}
