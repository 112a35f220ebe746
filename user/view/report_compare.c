// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * report_compare.c - the HTML report of a compare (BASE... -- NEW...): each
 * side's runs, the change table (one function, ready for more columns),
 * both sides' wait distributions overlaid per lock, each side's flame
 * graph.  Every text from a record is escaped.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "view/flame_svg.h"
#include "view/fmt.h"
#include "view/html.h"
#include "view/report.h"

#define MAX_ROWS 60 /* rows of the change table beyond the changed ones */

static const char *const side_name[2] = {"base", "new"};

static void side(FILE *f, const struct ls_cmp_input *in, int s)
{
	uint64_t loss[LS_LOSS_MAX] = {0};
	int any = 0;

	fprintf(f, "<tr><th class=\"l\">%s</th><td class=\"l w\">",
		side_name[s]);
	for (size_t i = 0; i < in->n; i++) {
		ls_html_text(f, in->files[i]);
		fputs(i + 1 < in->n ? ", " : "", f);
		for (unsigned l = 0; l < LS_LOSS_MAX; l++)
			loss[l] += in->recs[i].totals.loss[l];
	}
	fputs("</td><td class=\"l w\">", f);
	ls_html_text(f, in->recs[0].kernel);
	fputs("</td><td class=\"l w\">", f);
	ls_html_text(f, in->recs[0].has_command ? in->recs[0].command : "");
	fputs("</td><td class=\"l w\">", f);
	for (unsigned l = 0; l < LS_LOSS_MAX; l++)
		if (loss[l]) {
			fprintf(f, "%s%s %llu", any ? ", " : "",
				ls_loss_name(l), (unsigned long long)loss[l]);
			any = 1;
		}
	fprintf(f, "%s</td></tr>\n", any ? "" : "none");
}

static void cell_side(FILE *f, const struct ls_cmp *c,
		      const struct ls_cmp_row *r, int s)
{
	char b[32], e[32];
	const char *est = ls_cmp_est_text(e, sizeof(e), r, s);

	/* an estimate under --budget: "~", its standard error below */
	fprintf(f, "<td>%s%s", *est ? "~" : "",
		ls_fmt_num(b, sizeof(b), r->mean[s]));
	if (*est) {
		fputs("<br><small>", f);
		ls_html_text(f, est);
		fputs("</small>", f);
	}
	fputs("</td>", f);
	if (c->runs[s] > 1 && r->present[s])
		fprintf(f, "<td>&#177;%.0f%%</td>",
			ls_sd_pct(r->mean[s], r->sd[s]));
	else
		fputs("<td></td>", f);
}

/* The change table: every changed row, then the largest other changes. */
static void change_table(FILE *f, const struct ls_cmp *c)
{
	size_t shown = 0, other = 0;

	fprintf(f,
		"<h2>Changes</h2>\n<p>%zu of %zu metrics changed: Welch's "
		"test over the runs, Benjamini-Hochberg adjusted p below "
		"%.2g (the 95%% interval excludes 0) and |effect| beyond "
		"--threshold %.3g%%; %zu got worse (every metric is "
		"lower-is-better). Marked rows: <span class=\"regressed\">"
		"worse</span>, better. ~: estimated under --budget, its "
		"standard error part of the test.</p>\n"
		"<table class=\"changes\">\n<tr><th class=\"l\">metric</th>"
		"<th>base</th><th>%%stddev</th><th>new</th><th>%%stddev</th>"
		"<th>%%change</th><th>effect [95%% interval]</th>"
		"<th>p adj</th><th class=\"l\">verdict</th></tr>\n",
		c->nchanged, c->n, LS_STATS_ALPHA, c->threshold, c->nregressed);
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < c->n; i++) {
			const struct ls_cmp_row *r = &c->rows[i];
			char b[32], ef[80];

			if (pass == 0 ? !r->changed
				      : r->changed || r->minor ||
						other++ >= MAX_ROWS)
				continue;
			shown++;
			fprintf(f, "<tr class=\"%s\"><td class=\"l\">",
				!r->changed    ? "same"
				: r->regressed ? "regressed"
					       : "improved");
			ls_html_text(f, r->id.key);
			fputs("</td>", f);
			cell_side(f, c, r, 0);
			cell_side(f, c, r, 1);
			fprintf(f, "<td>%s</td><td>",
				ls_cmp_change_text(b, sizeof(b), r));
			ls_html_text(f, ls_cmp_effect_text(ef, sizeof(ef), r));
			if (isnan(r->res.p_adj))
				fputs("</td><td>-", f);
			else
				fprintf(f, "</td><td>%.2g", r->res.p_adj);
			fprintf(f, "</td><td class=\"l\">%s</td></tr>\n",
				ls_verdict_name(r->res.verdict));
		}
	fputs("</table>\n", f);
	if (shown < c->n)
		fprintf(f,
			"<p class=\"note\">%zu rows of minor locks or small "
			"changes left out: <code>lockscope compare --format "
			"csv</code> lists every one.</p>\n",
			c->n - shown);
}

/* Whole-wait histogram of lock (@name, @kind), summed over a side's runs. */
static void side_hist(const struct ls_cmp_input *in, const char *name,
		      unsigned kind, uint64_t *h)
{
	memset(h, 0, LS_HIST_SLOTS * sizeof(*h));
	for (size_t i = 0; i < in->n; i++) {
		const struct ls_rec_hist *rh =
			ls_rec_find_hist(&in->recs[i], name, kind);

		for (int s = 0; rh && s < LS_HIST_SLOTS; s++)
			h[s] += rh->all[s];
	}
}

static void overlay(FILE *f, const struct ls_cmp_input in[2],
		    const struct ls_rec_lock *l)
{
	uint64_t hb[LS_HIST_SLOTS], hn[LS_HIST_SLOTS];

	side_hist(&in[0], l->name, l->kind, hb);
	side_hist(&in[1], l->name, l->kind, hn);
	fputs("<div><h4>", f);
	ls_html_text(f, l->name);
	fprintf(f, " (%s)</h4>\n", ls_kind_name(l->kind));
	ls_svg_hist(f, "ls-overlay", hb, hn, "base", "new", LS_HIST_OVERLAID);
	fputs("</div>\n", f);
}

/* The top locks of the first run of each side (each lock once). */
static void distributions(FILE *f, const struct ls_cmp_input in[2],
			  unsigned nlocks)
{
	const struct ls_rec_snap *s0 = &in[0].recs[0].totals;
	const struct ls_rec_snap *s1 = &in[1].recs[0].totals;
	size_t *tb = calloc(nlocks, sizeof(*tb));
	size_t *tn = calloc(nlocks, sizeof(*tn));
	size_t nb, nn;

	fputs("<h2>Wait distributions, base and new overlaid</h2>\n"
	      "<p class=\"note\">Whole waits per log2 bucket, in percent of "
	      "each side's waits (all runs of a side together), for the locks "
	      "that waited longest in the first run of either side.</p>\n"
	      "<div class=\"charts\">\n",
	      f);
	nb = tb ? ls_report_top(s0, tb, nlocks) : 0;
	nn = tn ? ls_report_top(s1, tn, nlocks) : 0;
	for (size_t i = 0; i < nb; i++)
		overlay(f, in, &s0->locks[tb[i]]);
	for (size_t i = 0; i < nn; i++) {
		const struct ls_rec_lock *l = &s1->locks[tn[i]];
		size_t j = 0;

		while (j < nb && (s0->locks[tb[j]].kind != l->kind ||
				  strcmp(s0->locks[tb[j]].name, l->name)))
			j++;
		if (j == nb)
			overlay(f, in, l);
	}
	fputs("</div>\n", f);
	free(tb);
	free(tn);
}

static void flames(FILE *f, const struct ls_cmp_input in[2])
{
	for (int s = 0; s < 2; s++) {
		struct ls_stacks *st = calloc(in[s].n, sizeof(*st));
		uint64_t w = 0;

		fprintf(f,
			"<h2>Flame graph of sampled waiter stacks: %s</h2>\n",
			side_name[s]);
		if (!st) {
			fputs("<p class=\"note\">Out of memory.</p>\n", f);
			continue;
		}
		for (size_t i = 0; i < in[s].n; i++) {
			st[i] = in[s].recs[i].stacks;
			w += ls_stacks_wait_total(&st[i]);
		}
		if (!w)
			fputs("<p class=\"note\">No sampled stacks with wait "
			      "time on this side.</p>\n",
			      f);
		else if (ls_svg_flame(f, st, in[s].n))
			fputs("<p class=\"note\">Out of memory.</p>\n", f);
		free(st);
	}
}

int ls_report_compare(FILE *f, const struct ls_cmp *c,
		      const struct ls_cmp_input in[2], unsigned nlocks)
{
	ls_html_page_open(f, "lockscope report: compare");
	fputs("<h1>lockscope report: compare</h1>\n<table class=\"meta\">\n"
	      "<tr><th class=\"l\">side</th><th class=\"l\">records</th>"
	      "<th class=\"l\">kernel (first run)</th><th class=\"l\">"
	      "command</th><th class=\"l\">losses</th></tr>\n",
	      f);
	side(f, &in[0], 0);
	side(f, &in[1], 1);
	fputs("</table>\n", f);
	change_table(f, c);
	distributions(f, in, nlocks);
	flames(f, in);
	ls_html_page_close(f);
	return 0;
}
