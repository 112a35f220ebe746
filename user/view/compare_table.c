// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* compare_table.c - print a comparison the way the kernel test robot does. */
#include <math.h>
#include <string.h>
#include "export/csv.h"
#include "view/compare_table.h"
#include "util/untrusted_text.h"

static const char *const presence_names[] = {
	[LS_CMP_BOTH] = "both",
	[LS_CMP_ONLY_BASE] = "only_base",
	[LS_CMP_ONLY_NEW] = "only_new",
};

static const char *const est_names[] = {
	[LS_MEST_EXACT] = "exact",
	[LS_MEST_ESTIMATE] = "estimate",
	[LS_MEST_TIMED] = "timed",
};

/* "12901", "~12901" (an estimate), or "-" when no run of the side has
 * the metric */
static const char *mean_cell(char *b, size_t n, const struct ls_cmp_row *r,
			     int side)
{
	char v[32];

	if (!r->present[side])
		return "-";
	snprintf(b, n, "%s%s", r->est[side] != LS_MEST_EXACT ? "~" : "",
		 ls_fmt_num(v, sizeof(v), r->mean[side]));
	return b;
}

const char *ls_cmp_est_text(char *b, size_t n, const struct ls_cmp_row *r,
			    int side)
{
	if (!r->present[side] || r->est[side] == LS_MEST_EXACT)
		return "";
	if (r->est[side] == LS_MEST_TIMED)
		return "timed waits";
	if (!(r->se[side] > 0))
		return "estimate";
	snprintf(b, n, "se \u00b1%.1f%%",
		 ls_sd_pct(r->mean[side], r->se[side]));
	return b;
}

/* "  ~ base se ±1.2%, new timed waits": what the row's estimates are */
static void est_note(FILE *f, const struct ls_cmp_row *r)
{
	char b[2][32];
	const char *t[2] = {ls_cmp_est_text(b[0], sizeof(b[0]), r, 0),
			    ls_cmp_est_text(b[1], sizeof(b[1]), r, 1)};

	if (!*t[0] && !*t[1])
		return;
	fputs("  ~", f);
	for (int s = 0; s < 2; s++)
		if (*t[s])
			fprintf(f, "%s %s %s", s && *t[0] ? "," : "",
				s ? "new" : "base", t[s]);
}

/* " ±  3%", or blanks for a single run or a missing side */
static const char *sd_cell(char *b, size_t n, const struct ls_cmp *c,
			   const struct ls_cmp_row *r, int side)
{
	if (c->runs[side] < 2 || !r->present[side])
		return "      ";
	snprintf(b, n, " \u00b1%3.0f%%", ls_sd_pct(r->mean[side], r->sd[side]));
	return b;
}

const char *ls_cmp_change_text(char *b, size_t n, const struct ls_cmp_row *r)
{
	if (r->presence == LS_CMP_ONLY_NEW)
		return "(new)";
	if (r->presence == LS_CMP_ONLY_BASE)
		return "(gone)";
	if (isinf(r->change_pct))
		return "(was 0)"; /* never "+inf%": no ratio to 0 */
	snprintf(b, n, "%+.1f%%", r->change_pct);
	return b;
}

/* "+12.3%", "-100%", "+4512%" */
static const char *pct(char *b, size_t n, double v)
{
	if (fabs(v) < 99.95)
		snprintf(b, n, "%+.1f%%", v);
	else
		snprintf(b, n, "%+.0f%%", v);
	return b;
}

const char *ls_cmp_effect_text(char *b, size_t n, const struct ls_cmp_row *r)
{
	char e[24], lo[24], hi[24];

	if (!r->res.tested)
		return "-";
	if (isnan(r->res.effect_pct))
		return "(base 0)";
	snprintf(b, n, "%s [%s, %s]", pct(e, sizeof(e), r->res.effect_pct),
		 pct(lo, sizeof(lo), r->res.lo_pct),
		 pct(hi, sizeof(hi), r->res.hi_pct));
	return b;
}

static const char *p_cell(char *b, size_t n, double p)
{
	if (isnan(p))
		return "-";
	if (p < 0.001)
		return "<0.001";
	snprintf(b, n, "%.3f", p);
	return b;
}

/* Rows the text table shows: counted changes; with too few runs, the
 * rows that would have counted */
static int shown(const struct ls_cmp_row *r)
{
	return r->changed || (r->res.verdict == LS_VERDICT_FEW_RUNS &&
			      r->res.p_adj < LS_STATS_ALPHA);
}

static void side_header(FILE *f, const char *label,
			const struct ls_cmp_input *in)
{
	const struct ls_rec *r0 = &in->recs[0];
	uint64_t loss[LS_LOSS_MAX] = {0}, lost = 0;
	int same_cmd = 1, same_kernel = 1;

	fprintf(f, "%s:", label);
	for (size_t i = 0; i < in->n; i++) {
		const struct ls_rec *r = &in->recs[i];

		fputc(' ', f); /* a path as typed: made safe */
		ls_text_put(f, in->files[i]);
		same_cmd &= !strcmp(r->command, r0->command);
		same_kernel &= !strcmp(r->kernel, r0->kernel);
		for (unsigned l = 0; l < LS_LOSS_MAX; l++)
			loss[l] += r->totals.loss[l];
	}
	fprintf(f, "\n  kernel %s%s, %u CPUs, %s%s\n", r0->kernel,
		same_kernel ? "" : " (differs between runs!)", r0->cpus,
		r0->has_command ? "command: " : "no command", r0->command);
	if (!same_cmd)
		fprintf(f, "  note: the runs of this side ran different "
			   "commands\n");
	/* waits in flight at the start are normal; the rest undercount */
	for (unsigned l = 0; l < LS_LOSS_MAX; l++)
		if (l != LS_LOSS_END_UNMATCHED && l != LS_LOSS_STACK)
			lost += loss[l];
	if (lost) {
		fprintf(f, "  note: events lost in these runs:");
		for (unsigned l = 0, first = 1; l < LS_LOSS_MAX; l++) {
			if (l == LS_LOSS_END_UNMATCHED || l == LS_LOSS_STACK ||
			    !loss[l])
				continue;
			fprintf(f, "%s %s %llu", first ? "" : ",",
				ls_loss_name(l), (unsigned long long)loss[l]);
			first = 0;
		}
		fputc('\n', f);
	}
}

static void one_sided(FILE *f, const struct ls_cmp *c,
		      enum ls_cmp_presence which, const char *label)
{
	int n = 0;

	for (size_t i = 0; i < c->n; i++) {
		const struct ls_cmp_row *r = &c->rows[i];

		if (r->presence != which ||
		    strcmp(r->id.metric, "contentions") || r->id.kind < 0)
			continue;
		fprintf(f, "%s %s (%s, %s contentions%s%s)", n ? "," : label,
			r->id.lock, ls_kind_name((unsigned)r->id.kind),
			ls_fmt_num((char[32]){0}, 32,
				   r->mean[which == LS_CMP_ONLY_NEW]),
			r->changed ? "" : ", ",
			r->changed ? "" : ls_verdict_name(r->res.verdict));
		n++;
	}
	if (n)
		fputc('\n', f);
}

/* Which runs were made under --budget, and what that does to the test. */
static void budget_note(FILE *f, const struct ls_cmp *c)
{
	if (!c->budget_runs[0] && !c->budget_runs[1])
		return;
	fprintf(f,
		"~ estimated under --budget (in %zu of %zu base runs, %zu of "
		"%zu new): each run's standard error joins its side's "
		"variance in the test.\n",
		c->budget_runs[0], c->runs[0], c->budget_runs[1], c->runs[1]);
	if (c->budget_runs[0] < c->runs[0] || c->budget_runs[1] < c->runs[1])
		fprintf(f,
			"mixed: exact runs and budget runs; %zu metric%s of "
			"the timed waits only (max, tenure, chains) not "
			"compared.\n",
			c->nmixed, c->nmixed == 1 ? "" : "s");
}

void ls_cmp_print_text(FILE *f, const struct ls_cmp *c,
		       const struct ls_cmp_input in[2])
{
	char b0[32], b1[32], s0[32], s1[32], ch[32], ef[96], pa[16];
	char h0[32], h1[32];
	size_t nshown = 0;
	int few_runs = c->runs[0] < LS_STATS_MIN_RUNS ||
		       c->runs[1] < LS_STATS_MIN_RUNS;

	side_header(f, "base", &in[0]);
	side_header(f, "new", &in[1]);
	snprintf(h0, sizeof(h0), "base (%zu run%s)", c->runs[0],
		 c->runs[0] == 1 ? "" : "s");
	snprintf(h1, sizeof(h1), "new (%zu run%s)", c->runs[1],
		 c->runs[1] == 1 ? "" : "s");
	fprintf(f, "\n%16s %27s\n", h0, h1);
	fprintf(f, "---------------- ---------------------------\n");
	fprintf(f,
		"         %%stddev     %%change         %%stddev  %-28s "
		"%6s %s\n",
		"effect [95% interval]", "p adj", "verdict");
	fprintf(f, "             \\          |                \\\n");
	for (size_t i = 0; i < c->n; i++) {
		const struct ls_cmp_row *r = &c->rows[i];

		if (!shown(r))
			continue;
		fprintf(f, "%10s%s %10s %10s%s  %-28s %6s %-9s %s",
			mean_cell(b0, sizeof(b0), r, 0),
			sd_cell(s0, sizeof(s0), c, r, 0),
			ls_cmp_change_text(ch, sizeof(ch), r),
			mean_cell(b1, sizeof(b1), r, 1),
			sd_cell(s1, sizeof(s1), c, r, 1),
			ls_cmp_effect_text(ef, sizeof(ef), r),
			p_cell(pa, sizeof(pa), r->res.p_adj),
			ls_verdict_name(r->res.verdict), r->id.key);
		est_note(f, r);
		fputc('\n', f);
		nshown++;
	}
	if (!nshown)
		fprintf(f, "%10s\n", "(no metric changed)");
	fprintf(f,
		"\n%zu of %zu metrics changed: Welch's t-test across runs, "
		"Benjamini-Hochberg adjusted p < %g over the %zu tested, and "
		"|effect| > %g%%; %zu got worse (every metric is "
		"lower-is-better).\n",
		c->nchanged, c->n, LS_STATS_ALPHA, c->ntested, c->threshold,
		c->nregressed);
	if (few_runs)
		fprintf(f,
			"fewer than %d runs on a side: rows shown are not "
			"counted and the exit status is 0; record %d or more "
			"runs a side.\n",
			LS_STATS_MIN_RUNS, LS_STATS_MIN_RUNS);
	if (c->nfew_events)
		fprintf(f,
			"%zu metric%s resting on fewer than %d events per run "
			"(sampler hits, give-ups, sleeps) not tested.\n",
			c->nfew_events, c->nfew_events == 1 ? "" : "s",
			LS_CMP_MIN_EVENTS);
	if (c->nminor_locks)
		fprintf(f,
			"%zu lock%s below %g%% of all contentions and of all "
			"wait time on both sides left out (--min-share).\n",
			c->nminor_locks, c->nminor_locks == 1 ? "" : "s",
			c->min_share);
	budget_note(f, c);
	one_sided(f, c, LS_CMP_ONLY_BASE, "only in base:");
	one_sided(f, c, LS_CMP_ONLY_NEW, "only in new:");
}

static struct json_object *num(double v)
{
	return isfinite(v) ? json_object_new_double(v) : NULL;
}

static struct json_object *side_json(const struct ls_cmp_input *in,
				     size_t budget_runs)
{
	struct json_object *o = json_object_new_object();
	struct json_object *files = json_object_new_array();

	for (size_t i = 0; i < in->n; i++) {
		struct json_object *r = json_object_new_object();

		json_object_object_add(r, "file",
				       json_object_new_string(in->files[i]));
		json_object_object_add(
			r, "kernel_release",
			json_object_new_string(in->recs[i].kernel));
		json_object_object_add(
			r, "command",
			in->recs[i].has_command
				? json_object_new_string(in->recs[i].command)
				: NULL);
		json_object_object_add(
			r, "duration_s",
			json_object_new_double(in->recs[i].duration_s));
		json_object_array_add(files, r);
	}
	json_object_object_add(o, "runs", json_object_new_uint64(in->n));
	json_object_object_add(o, "budget_runs",
			       json_object_new_uint64(budget_runs));
	json_object_object_add(o, "records", files);
	return o;
}

struct json_object *ls_cmp_to_json(const struct ls_cmp *c,
				   const struct ls_cmp_input in[2])
{
	struct json_object *o = json_object_new_object();
	struct json_object *rows = json_object_new_array();

	json_object_object_add(o, "schema",
			       json_object_new_string("lockscope-compare"));
	json_object_object_add(o, "schema_version", json_object_new_int(2));
	json_object_object_add(o, "threshold_pct",
			       json_object_new_double(c->threshold));
	json_object_object_add(o, "min_share_pct",
			       json_object_new_double(c->min_share));
	json_object_object_add(o, "alpha",
			       json_object_new_double(LS_STATS_ALPHA));
	json_object_object_add(o, "min_runs",
			       json_object_new_int(LS_STATS_MIN_RUNS));
	json_object_object_add(o, "min_events",
			       json_object_new_int(LS_CMP_MIN_EVENTS));
	json_object_object_add(o, "base", side_json(&in[0], c->budget_runs[0]));
	json_object_object_add(o, "new", side_json(&in[1], c->budget_runs[1]));
	for (size_t i = 0; i < c->n; i++) {
		const struct ls_cmp_row *r = &c->rows[i];
		struct json_object *j = json_object_new_object();

		json_object_object_add(j, "key",
				       json_object_new_string(r->id.key));
		json_object_object_add(
			j, "lock",
			r->id.kind >= 0 ? json_object_new_string(r->id.lock)
					: NULL);
		json_object_object_add(
			j, "kind",
			r->id.kind >= 0 ? json_object_new_string(ls_kind_name(
						  (unsigned)r->id.kind))
					: NULL);
		json_object_object_add(j, "metric",
				       json_object_new_string(r->id.metric));
		json_object_object_add(j, "base_mean", num(r->mean[0]));
		json_object_object_add(j, "base_stddev", num(r->sd[0]));
		json_object_object_add(j, "base_stddev_pct",
				       num(ls_sd_pct(r->mean[0], r->sd[0])));
		json_object_object_add(j, "base_runs_present",
				       json_object_new_int((int)r->present[0]));
		json_object_object_add(j, "new_mean", num(r->mean[1]));
		json_object_object_add(j, "new_stddev", num(r->sd[1]));
		json_object_object_add(j, "new_stddev_pct",
				       num(ls_sd_pct(r->mean[1], r->sd[1])));
		json_object_object_add(j, "new_runs_present",
				       json_object_new_int((int)r->present[1]));
		/* null when the base mean is 0 (infinite change) */
		json_object_object_add(j, "change_pct", num(r->change_pct));
		json_object_object_add(
			j, "presence",
			json_object_new_string(presence_names[r->presence]));
		json_object_object_add(
			j, "type",
			json_object_new_string(r->id.type == LS_METRIC_GAUGE
						       ? "gauge"
						       : "amount"));
		for (int sd = 0; sd < 2; sd++) {
			char k[24];

			snprintf(k, sizeof(k), "%s_estimate",
				 sd ? "new" : "base");
			json_object_object_add(
				j, k,
				json_object_new_string(est_names[r->est[sd]]));
			snprintf(k, sizeof(k), "%s_se", sd ? "new" : "base");
			json_object_object_add(j, k, num(r->se[sd]));
		}
		json_object_object_add(j, "base_events", num(r->events[0]));
		json_object_object_add(j, "new_events", num(r->events[1]));
		json_object_object_add(
			j, "scale",
			r->res.tested ? json_object_new_string(
						r->res.scale == LS_SCALE_LOG
							? "log"
							: "linear")
				      : NULL);
		/* null when not tested, or the base is 0 (linear scale) */
		json_object_object_add(j, "effect_pct", num(r->res.effect_pct));
		json_object_object_add(j, "effect_lo_pct", num(r->res.lo_pct));
		json_object_object_add(j, "effect_hi_pct", num(r->res.hi_pct));
		json_object_object_add(j, "df", num(r->res.df));
		json_object_object_add(j, "p", num(r->res.p));
		json_object_object_add(j, "p_adj", num(r->res.p_adj));
		json_object_object_add(j, "verdict",
				       json_object_new_string(ls_verdict_name(
					       r->res.verdict)));
		json_object_object_add(j, "minor",
				       json_object_new_boolean(r->minor));
		json_object_object_add(j, "changed",
				       json_object_new_boolean(r->changed));
		json_object_object_add(j, "regressed",
				       json_object_new_boolean(r->regressed));
		json_object_array_add(rows, j);
	}
	json_object_object_add(o, "changed",
			       json_object_new_uint64(c->nchanged));
	json_object_object_add(o, "regressed",
			       json_object_new_uint64(c->nregressed));
	json_object_object_add(o, "tested", json_object_new_uint64(c->ntested));
	json_object_object_add(o, "few_events",
			       json_object_new_uint64(c->nfew_events));
	json_object_object_add(o, "mixed", json_object_new_uint64(c->nmixed));
	json_object_object_add(o, "rows", rows);
	return o;
}

/* a number, or an empty cell when there is none */
static const char *opt_num(char *b, size_t n, double v)
{
	return isfinite(v) ? ls_fmt_num(b, n, v) : "";
}

void ls_cmp_print_csv(FILE *f, const struct ls_cmp *c)
{
	fprintf(f, "key,lock,kind,metric,base_mean,base_stddev_pct,base_runs_"
		   "present,change_pct,new_mean,new_stddev_pct,new_runs_"
		   "present,presence,minor,changed,regressed,effect_pct,effect_"
		   "lo_pct,"
		   "effect_hi_pct,p,p_adj,verdict,base_estimate,base_se,new_"
		   "estimate,new_se\n");
	for (size_t i = 0; i < c->n; i++) {
		const struct ls_cmp_row *r = &c->rows[i];
		char a[32], b[32], d[32], e[32], g[32], x[5][32];

		ls_csv_field(f, r->id.key);
		fputc(',', f);
		ls_csv_field(f, r->id.lock);
		fprintf(f, ",%s,",
			r->id.kind >= 0 ? ls_kind_name((unsigned)r->id.kind)
					: "");
		ls_csv_field(f, r->id.metric);
		fprintf(f, ",%s,%s,%u,%s,%s,%s,%u,%s,%d,%d,%d",
			ls_fmt_num(a, sizeof(a), r->mean[0]),
			ls_fmt_num(b, sizeof(b),
				   ls_sd_pct(r->mean[0], r->sd[0])),
			r->present[0],
			isfinite(r->change_pct)
				? ls_fmt_num(d, sizeof(d), r->change_pct)
				: "",
			ls_fmt_num(e, sizeof(e), r->mean[1]),
			ls_fmt_num(g, sizeof(g),
				   ls_sd_pct(r->mean[1], r->sd[1])),
			r->present[1], presence_names[r->presence], r->minor,
			r->changed, r->regressed);
		fprintf(f, ",%s,%s,%s,%s,%s,%s",
			opt_num(x[0], sizeof(x[0]), r->res.effect_pct),
			opt_num(x[1], sizeof(x[1]), r->res.lo_pct),
			opt_num(x[2], sizeof(x[2]), r->res.hi_pct),
			opt_num(x[3], sizeof(x[3]), r->res.p),
			opt_num(x[4], sizeof(x[4]), r->res.p_adj),
			ls_verdict_name(r->res.verdict));
		fprintf(f, ",%s,%s,%s,%s\n", est_names[r->est[0]],
			ls_fmt_num(a, sizeof(a), r->se[0]),
			est_names[r->est[1]],
			ls_fmt_num(b, sizeof(b), r->se[1]));
	}
}
