// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * report_whatif.c - `lockscope report` of a whatif result (its JSON, read
 * back: untrusted text is escaped, numbers checked): per lock, the
 * dose-response plot, throughput in % of the zero-delay mean against the
 * delay per acquisition, every run a point (critical, control, zero), each
 * arm's fitted line and the band its slope's 95% interval spans, and the
 * verdict with the difference's interval.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "view/html.h"
#include "view/report_whatif.h"

#define W 1000
#define H 520
#define ML 56
#define MR 24
#define MT 24
#define MB 48
#define CRIT "#d62728"
#define CTRL "#1f77b4"
#define ZERO "#555"

static double num(struct json_object *o, const char *k)
{
	struct json_object *v;
	double d;

	if (!json_object_object_get_ex(o, k, &v) || !v)
		return NAN;
	d = json_object_get_double(v);
	return isfinite(d) ? d : NAN;
}

static struct json_object *get(struct json_object *o, const char *k)
{
	struct json_object *v = NULL;

	return o && json_object_object_get_ex(o, k, &v) ? v : NULL;
}

static const char *str(struct json_object *o, const char *k)
{
	struct json_object *v = get(o, k);

	return v && json_object_is_type(v, json_type_string)
		       ? json_object_get_string(v)
		       : "?";
}

/* A run's x: the dose BPF measured (the requested delay in results
 * written before doses were). */
static double run_x(struct json_object *r)
{
	double x = num(r, "dose_us");

	return isnan(x) ? num(r, "delay_us") : x;
}

struct plot {
	double xmax, ymin, ymax;
	double xstep; /* between the x axis' ticks */
};

/* Round the x axis up to a whole number of 1, 2 or 5 x 10^k steps, four
 * or five of them: doses are measured, not round numbers. */
static void nice_x(struct plot *p)
{
	double raw = p->xmax / 4, mag = pow(10, floor(log10(raw))),
	       f = raw / mag;

	p->xstep = (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag;
	p->xmax = ceil(p->xmax / p->xstep - 1e-9) * p->xstep;
}

static double px(const struct plot *p, double x)
{
	return ML + (W - ML - MR) * x / p->xmax;
}

static double py(const struct plot *p, double y)
{
	return MT + (H - MT - MB) * (p->ymax - y) / (p->ymax - p->ymin);
}

/* One arm's line and the band of its slope's interval, from x = 0. */
static void arm_line(FILE *f, const struct plot *p, struct json_object *arm,
		     const char *colour)
{
	struct json_object *s = get(arm, "slope_pct_per_us");
	double a = num(arm, "intercept_pct"), b = num(s, "value"),
	       lo = num(s, "lo"), hi = num(s, "hi"), x = p->xmax;

	if (isnan(a) || isnan(b) || isnan(lo) || isnan(hi))
		return;
	fprintf(f,
		"<polygon points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f\" "
		"fill=\"%s\" fill-opacity=\"0.3\"/>\n",
		px(p, 0), py(p, a), px(p, x),
		py(p, fmax(p->ymin, fmin(p->ymax, a + lo * x))), px(p, x),
		py(p, fmax(p->ymin, fmin(p->ymax, a + hi * x))), colour);
	fprintf(f,
		"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
		"stroke=\"%s\" stroke-width=\"2\"/>\n",
		px(p, 0), py(p, a), px(p, x),
		py(p, fmax(p->ymin, fmin(p->ymax, a + b * x))), colour);
}

static void axes(FILE *f, const struct plot *p)
{
	for (int i = 0; i <= 4; i++) {
		double y = p->ymin + (p->ymax - p->ymin) * i / 4;

		fprintf(f,
			"<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" "
			"stroke=\"#ddd\"/><text x=\"%d\" y=\"%.1f\" "
			"text-anchor=\"end\">%+.0f%%</text>\n",
			ML, py(p, y), W - MR, py(p, y), ML - 4, py(p, y) + 4,
			y);
	}
	for (int i = 0; i * p->xstep <= p->xmax * (1 + 1e-9); i++) {
		double x = i * p->xstep;

		fprintf(f,
			"<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%g"
			"</text>\n",
			px(p, x), H - MB + 16, x);
	}
	fprintf(f,
		"<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" "
		"stroke=\"#333\"/>"
		"<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" "
		"stroke=\"#333\"/>\n"
		"<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">mean delay "
		"given per "
		"acquisition (us)</text>\n<text x=\"4\" y=\"%d\">throughput, "
		"%% "
		"of zero delay</text>\n",
		ML, MT, ML, H - MB, ML, H - MB, W - MR, H - MB, (W + ML) / 2,
		H - MB + 32, MT - 8);
	fprintf(f,
		"<circle cx=\"%d\" cy=\"%d\" r=\"4\" fill=\"%s\"/><text "
		"x=\"%d\" "
		"y=\"%d\">critical</text><circle cx=\"%d\" cy=\"%d\" r=\"4\" "
		"fill=\"%s\"/><text x=\"%d\" y=\"%d\">control</text><circle "
		"cx=\"%d\" cy=\"%d\" r=\"4\" fill=\"%s\"/><text x=\"%d\" "
		"y=\"%d\">zero delay</text>\n",
		ML + 10, H - 8, CRIT, ML + 18, H - 4, ML + 110, H - 8, CTRL,
		ML + 118, H - 4, ML + 210, H - 8, ZERO, ML + 218, H - 4);
}

static void lock_plot(FILE *f, struct json_object *l)
{
	struct json_object *runs = get(l, "runs"), *arms = get(l, "arms"),
			   *d = get(l, "difference_pct_per_us");
	size_t n = runs && json_object_is_type(runs, json_type_array)
			   ? json_object_array_length(runs)
			   : 0;
	struct plot p = {0, 0, 0, 1};

	for (size_t i = 0; i < n; i++) {
		struct json_object *r = json_object_array_get_idx(runs, i);
		double x = run_x(r), y = num(r, "pct_of_base");

		if (isnan(x) || isnan(y))
			continue;
		p.xmax = fmax(p.xmax, x);
		p.ymin = fmin(p.ymin, y);
		p.ymax = fmax(p.ymax, y);
	}
	if (!(p.xmax > 0))
		p.xmax = 1;
	nice_x(&p);
	p.ymin = floor(p.ymin / 10 - 1) * 10;
	p.ymax = ceil(p.ymax / 10 + 1) * 10;
	fputs("<h2>", f);
	ls_html_text(f, str(l, "name"));
	fputs(": ", f);
	ls_html_text(f, str(l, "verdict"));
	fputs("</h2>\n<p>-L ", f);
	ls_html_text(f, str(l, "lock"));
	fprintf(f,
		": the critical section's own effect (critical - control) "
		"%+.3f %%/us, 95%% interval [%+.3f, %+.3f]; fit check: ",
		num(d, "value"), num(d, "lo"), num(d, "hi"));
	ls_html_text(f, str(get(l, "fit"), "check"));
	if (!isnan(num(l, "bound_pct_per_us")) &&
	    num(l, "bound_pct_per_us") < 0)
		fprintf(f,
			"; a lock that alone bounded the throughput would show "
			"about %+.3f %%/us",
			num(l, "bound_pct_per_us"));
	fputs("</p>\n", f);
	fprintf(f,
		"<svg class=\"ls-whatif\" width=\"%d\" height=\"%d\" "
		"viewBox=\"0 0 %d %d\">\n",
		W, H, W, H);
	axes(f, &p);
	arm_line(f, &p, get(arms, "control"), CTRL);
	arm_line(f, &p, get(arms, "critical"), CRIT);
	for (size_t i = 0; i < n; i++) {
		struct json_object *r = json_object_array_get_idx(runs, i);
		double x = run_x(r), y = num(r, "pct_of_base");
		const char *arm = str(r, "arm");

		if (isnan(x) || isnan(y))
			continue;
		fprintf(f,
			"<circle cx=\"%.1f\" cy=\"%.1f\" r=\"6\" fill=\"%s\">"
			"<title>%s, %.2f us: %+.1f%%</title></circle>\n",
			px(&p, x) + (!strcmp(arm, "control") ? 4 : 0),
			py(&p, y),
			!strcmp(arm, "critical")  ? CRIT
			: !strcmp(arm, "control") ? CTRL
						  : ZERO,
			!strcmp(arm, "critical")  ? "critical"
			: !strcmp(arm, "control") ? "control"
						  : "zero",
			x, y);
	}
	fputs("</svg>\n", f);
}

int ls_report_whatif(FILE *f, struct json_object *j)
{
	struct json_object *locks = get(j, "locks"), *x = get(j, "experiment");
	size_t n = locks && json_object_is_type(locks, json_type_array)
			   ? json_object_array_length(locks)
			   : 0;

	ls_html_page_open(f, "lockscope whatif");
	fputs("<h1>lockscope whatif</h1>\n<table class=\"meta\">\n", f);
	fprintf(f, "<tr><th>rounds</th><td>%g</td></tr>\n", num(x, "rounds"));
	fputs("<tr><th>throughput</th><td>", f);
	ls_html_text(f, str(x, "unit"));
	fprintf(f,
		"</td></tr>\n<tr><th>placebo (A/A)</th><td>%s</td></tr>\n"
		"<tr><th>cap per acquisition</th><td>%g us</td></tr>\n"
		"<tr><th>budget</th><td>%g ms per CPU per s</td></tr>\n"
		"</table>\n<p class=\"note\">",
		json_object_get_boolean(get(x, "placebo")) ? "yes" : "no",
		num(x, "cap_ns") / 1e3, num(x, "budget_ns_per_cpu_s") / 1e6);
	ls_html_text(f, str(x, "injection"));
	fputs(".</p>\n<p class=\"note\">Bands: the lines "
	      "each arm's slope interval allows. Only contended acquisitions "
	      "are delayed; a speed-up is extrapolated from slow-downs.</p>\n",
	      f);
	for (size_t i = 0; i < n; i++)
		lock_plot(f, json_object_array_get_idx(locks, i));
	ls_html_page_close(f);
	return ferror(f) ? -EIO : 0;
}
