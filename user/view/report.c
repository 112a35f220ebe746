// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * report.c - the HTML report of records: one section per record, built of
 * parts in a table (run, losses, top locks, histograms, time series, flame
 * graph); a new part (holder states, say) is a function and a row there.
 * Every text from a record is escaped.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "view/chain_graph.h"
#include "view/flame_svg.h"
#include "view/fmt.h"
#include "view/html.h"
#include "view/report.h"

struct part_ctx {
	FILE *f;
	const struct ls_rec *r;
	const char *file;
	size_t *top; /* top locks (indices into r->totals.locks) */
	size_t ntop;
};

static int by_wait(const void *a, const void *b, void *arg)
{
	const struct ls_rec_snap *s = arg;
	const struct ls_rec_lock *x = &s->locks[*(const size_t *)a];
	const struct ls_rec_lock *y = &s->locks[*(const size_t *)b];

	if (x->total_ns != y->total_ns)
		return x->total_ns > y->total_ns ? -1 : 1;
	return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

size_t ls_report_top(const struct ls_rec_snap *s, size_t *order, size_t max)
{
	size_t *all = malloc((s->nlocks ? s->nlocks : 1) * sizeof(*all));
	size_t n = s->nlocks < max ? s->nlocks : max;

	if (!all)
		return 0;
	for (size_t i = 0; i < s->nlocks; i++)
		all[i] = i;
	qsort_r(all, s->nlocks, sizeof(*all), by_wait, (void *)s);
	memcpy(order, all, n * sizeof(*order));
	free(all);
	return n;
}

static void row_kv(FILE *f, const char *k, const char *v)
{
	fprintf(f, "<tr><th class=\"l\">%s</th><td class=\"l w\">", k);
	ls_html_text(f, v);
	fputs("</td></tr>\n", f);
}

static void part_run(const struct part_ctx *p)
{
	const struct ls_rec *r = p->r;
	char b[64];

	fputs("<h3>Run</h3>\n<table class=\"meta\">\n", p->f);
	row_kv(p->f, "file", p->file);
	row_kv(p->f, "kernel", r->kernel);
	snprintf(b, sizeof(b), "%u", r->cpus);
	row_kv(p->f, "CPUs", b);
	row_kv(p->f, "command", r->has_command ? r->command : "(none)");
	if (r->has_command) {
		snprintf(b, sizeof(b), "%d", r->exit_status);
		row_kv(p->f, "exit status", b);
	}
	snprintf(b, sizeof(b), "%.2fs%s", r->duration_s,
		 r->interrupted ? " (interrupted)" : "");
	row_kv(p->f, "duration", b);
	if (r->interval_s > 0)
		snprintf(b, sizeof(b), "%.2fs, %zu intervals", r->interval_s,
			 r->nintervals);
	else
		snprintf(b, sizeof(b), "none (recorded without -i)");
	row_kv(p->f, "time series", b);
	fputs("</table>\n", p->f);
}

static void part_losses(const struct part_ctx *p)
{
	const struct ls_rec_snap *s = &p->r->totals;
	int any = 0;

	fputs("<h3>Events and losses</h3>\n<table class=\"losses\">\n", p->f);
	for (unsigned c = 0; c < LS_CTR_MAX; c++)
		if (s->ctr[c])
			fprintf(p->f,
				"<tr><th class=\"l\">%s</th><td>%llu</td>"
				"</tr>\n",
				ls_ctr_name(c), (unsigned long long)s->ctr[c]);
	for (unsigned l = 0; l < LS_LOSS_MAX; l++) {
		if (!s->loss[l])
			continue;
		any = 1;
		fprintf(p->f,
			"<tr><th class=\"l\">lost: %s</th><td>%llu</td>"
			"</tr>\n",
			ls_loss_name(l), (unsigned long long)s->loss[l]);
	}
	fprintf(p->f, "<tr><th class=\"l\">losses</th><td>%s</td></tr>\n",
		any ? "see above" : "none");
	fputs("</table>\n", p->f);
}

static void part_locks(const struct part_ctx *p)
{
	const struct ls_rec_snap *s = &p->r->totals;
	char a[24], b[24], c[24], d[24], e[24];

	fputs("<h3>Top locks</h3>\n<table class=\"top-locks\">\n<tr>"
	      "<th class=\"l\">lock</th><th class=\"l\">kind</th>"
	      "<th>contentions</th><th>total wait</th><th>spin</th>"
	      "<th>sleep</th><th>avg</th><th>max</th><th>peak waiters</th>"
	      "</tr>\n",
	      p->f);
	for (size_t i = 0; i < p->ntop; i++) {
		const struct ls_rec_lock *l = &s->locks[p->top[i]];

		fputs("<tr><td class=\"l\">", p->f);
		ls_html_text(p->f, l->name);
		fprintf(p->f,
			"</td><td class=\"l\">%s</td><td>%llu</td><td>%s</td>"
			"<td>%s</td><td>%s</td><td>%s</td><td>%s</td>"
			"<td>%llu</td></tr>\n",
			ls_kind_name(l->kind),
			(unsigned long long)l->contentions,
			ls_fmt_dur(a, sizeof(a), l->total_ns, LS_DUR_FIXED),
			ls_fmt_dur(b, sizeof(b), l->spin_ns, LS_DUR_FIXED),
			ls_fmt_dur(c, sizeof(c), l->sleep_ns, LS_DUR_FIXED),
			ls_fmt_dur(d, sizeof(d),
				   l->contentions ? l->total_ns / l->contentions
						  : 0,
				   LS_DUR_FIXED),
			ls_fmt_dur(e, sizeof(e), l->max_ns, LS_DUR_FIXED),
			(unsigned long long)l->peak_waiters);
	}
	fputs("</table>\n", p->f);
	if (s->nlocks > p->ntop)
		fprintf(p->f,
			"<p class=\"note\">%zu more locks not shown (-n to "
			"draw more).</p>\n",
			s->nlocks - p->ntop);
}

static void part_hists(const struct part_ctx *p)
{
	fputs("<h3>Wait histograms: spin and sleep phases</h3>\n"
	      "<div class=\"charts\">\n",
	      p->f);
	for (size_t i = 0; i < p->ntop; i++) {
		const struct ls_rec_lock *l = &p->r->totals.locks[p->top[i]];
		const struct ls_rec_hist *h =
			ls_rec_find_hist(p->r, l->name, l->kind);

		if (!h)
			continue;
		fputs("<div><h4>", p->f);
		ls_html_text(p->f, l->name);
		fprintf(p->f, " (%s)</h4>\n", ls_kind_name(l->kind));
		ls_svg_hist(p->f, "ls-hist", h->spin, h->sleep, "spin", "sleep",
			    LS_HIST_STACKED);
		fputs("</div>\n", p->f);
	}
	fputs("</div>\n", p->f);
}

static void series_chart(const struct part_ctx *p, const double *x, double *y,
			 int wait, const char *title)
{
	struct ls_svg_line lines[10];
	size_t n = p->r->nintervals, nl = p->ntop < 10 ? p->ntop : 10;

	for (size_t i = 0; i < nl; i++) {
		const struct ls_rec_lock *l = &p->r->totals.locks[p->top[i]];

		for (size_t t = 0; t < n; t++) {
			const struct ls_rec_snap *iv = &p->r->intervals[t];
			const struct ls_rec_lock *il =
				ls_rec_find(iv, l->name, l->kind);
			double d = iv->duration_s > 0 ? iv->duration_s : 1;

			y[i * n + t] = !il    ? 0
				       : wait ? (double)il->total_ns / 1e6 / d
					      : (double)il->contentions / d;
		}
		lines[i].label = l->name;
		lines[i].y = &y[i * n];
	}
	ls_svg_lines(p->f,
		     wait ? "ls-series ls-series-wait"
			  : "ls-series ls-series-rate",
		     title, x, n, lines, nl);
}

static void part_series(const struct part_ctx *p)
{
	size_t n = p->r->nintervals;
	size_t nl = p->ntop < 10 ? p->ntop : 10;
	double *x, *y;

	fputs("<h3>Time series</h3>\n", p->f);
	if (!n || !nl) {
		fputs("<p class=\"note\">No time series: recorded without "
		      "-i, or no lock was contended.</p>\n",
		      p->f);
		return;
	}
	x = calloc(n, sizeof(*x));
	y = calloc(n * nl, sizeof(*y));
	if (!x || !y) {
		free(x);
		free(y);
		fputs("<p class=\"note\">Out of memory.</p>\n", p->f);
		return;
	}
	for (size_t t = 0; t < n; t++)
		x[t] = p->r->intervals[t].t_s;
	fputs("<div class=\"charts\">\n", p->f);
	series_chart(p, x, y, 0, "contentions/s");
	series_chart(p, x, y, 1, "wait ms/s");
	fputs("</div>\n<p class=\"key\">", p->f);
	for (size_t i = 0; i < nl; i++) {
		fprintf(p->f, "<span style=\"background:%s\"></span>",
			ls_html_line_colour(i));
		ls_html_text(p->f, p->r->totals.locks[p->top[i]].name);
	}
	fputs("</p>\n", p->f);
	free(x);
	free(y);
}

static void part_flame(const struct part_ctx *p)
{
	uint64_t w = ls_stacks_wait_total(&p->r->stacks);
	char b[24];

	fputs("<h3>Where waiters waited: flame graph of sampled stacks</h3>\n",
	      p->f);
	if (!w) {
		fputs("<p class=\"note\">No sampled stacks with wait time in "
		      "this record (--stack-every 0, or written before "
		      "lockscope kept them).</p>\n",
		      p->f);
		return;
	}
	fprintf(p->f,
		"<p class=\"note\">Width: wait time of the sampled waits "
		"(%s in all, the same data as <code>--folded</code>); the "
		"lock at the bottom, its callers above.</p>\n",
		ls_fmt_dur(b, sizeof(b), w, LS_DUR_FIXED));
	if (ls_svg_flame(p->f, &p->r->stacks, 1))
		fputs("<p class=\"note\">Out of memory.</p>\n", p->f);
}

static void part_chains(const struct part_ctx *p)
{
	int n;

	fputs("<h3>Who waited on whom: wait-for chains</h3>\n", p->f);
	if (!p->r->totals.nedges) {
		fputs("<p class=\"note\">No wait began behind a holder that "
		      "was "
		      "itself waiting on another lock (or the record was made "
		      "with --no-chains, or before lockscope followed "
		      "chains).</p>\n",
		      p->f);
		return;
	}
	fputs("<p class=\"note\">An arrow X &rarr; Y: waits on X began while "
	      "X's holder, off its CPU, was itself waiting on Y; its width "
	      "and label: the wait time of those waits on X. Red: a chain "
	      "that came back to a lock already on it (a deadlock in the "
	      "making).</p>\n",
	      p->f);
	n = ls_svg_chain_graph(p->f, &p->r->totals);
	if (n < 0)
		fputs("<p class=\"note\">Out of memory.</p>\n", p->f);
	else if ((size_t)n < p->r->totals.nedges)
		fprintf(p->f,
			"<p class=\"note\">The %d heaviest of %zu edges.</p>\n",
			n, p->r->totals.nedges);
}

/* The parts of a record's section, in order. */
static void (*const parts[])(const struct part_ctx *) = {
	part_run,    part_losses, part_locks,  part_hists,
	part_series, part_flame,  part_chains,
};

int ls_report_records(FILE *f, const struct ls_rec *recs, char *const *files,
		      size_t n, unsigned nlocks)
{
	size_t *top = calloc(nlocks, sizeof(*top));

	if (!top)
		return -ENOMEM;
	ls_html_page_open(f, "lockscope report");
	fputs("<h1>lockscope report</h1>\n", f);
	for (size_t k = 0; k < n; k++) {
		struct part_ctx p = {f, &recs[k], files[k], top, 0};

		p.ntop = ls_report_top(&recs[k].totals, top, nlocks);
		fprintf(f, "<section class=\"record\" id=\"record-%zu\">\n<h2>",
			k + 1);
		ls_html_text(f, files[k]);
		fputs("</h2>\n", f);
		for (size_t i = 0; i < sizeof(parts) / sizeof(*parts); i++)
			parts[i](&p);
		fputs("</section>\n", f);
	}
	ls_html_page_close(f);
	free(top);
	return 0;
}
