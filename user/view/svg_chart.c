// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* svg_chart.c - the report's charts as inline SVG written from C: log2 wait
 * histograms (spin and sleep stacked, or base and new overlaid) and line
 * charts of a time series. */
#include <math.h>
#include <stdio.h>
#include "model/model.h"
#include "view/fmt.h"
#include "view/html.h"

#define W 560
#define H 230
#define ML 64 /* margins: left (y labels), right, top, bottom (x labels) */
#define MR 24
#define MT 24
#define MB 58

/* A y-axis value as a short label: 0, 12, 3.5k, 1.2M, 0.25. */
static const char *num(char *buf, size_t len, double v)
{
	if (v >= 1e6)
		snprintf(buf, len, "%.3gM", v / 1e6);
	else if (v >= 1e4)
		snprintf(buf, len, "%.3gk", v / 1e3);
	else
		snprintf(buf, len, "%.3g", v);
	return buf;
}

/* Axes, three grid lines from 0 to @ymax, and the y title. */
static void frame(FILE *f, double ymax, const char *ytitle)
{
	char b[32];

	for (int i = 0; i <= 2; i++) {
		double y = MT + (H - MT - MB) * (1.0 - i / 2.0);

		fprintf(f,
			"<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" "
			"stroke=\"#ddd\"/>\n<text x=\"%d\" y=\"%.1f\" "
			"text-anchor=\"end\">%s</text>\n",
			ML, y, W - MR, y, ML - 4, y + 4,
			num(b, sizeof(b), ymax * i / 2.0));
	}
	fprintf(f,
		"<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" "
		"stroke=\"#333\"/>\n<line x1=\"%d\" y1=\"%d\" x2=\"%d\" "
		"y2=\"%d\" stroke=\"#333\"/>\n",
		ML, MT, ML, H - MB, ML, H - MB, W - MR, H - MB);
	fprintf(f, "<text x=\"4\" y=\"%d\">", MT - 8);
	ls_html_text(f, ytitle);
	fputs("</text>\n", f);
}

static void key(FILE *f, int x, const char *colour, const char *label)
{
	fprintf(f,
		"<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" "
		"fill=\"%s\"/><text x=\"%d\" y=\"%d\">",
		x, H - 14, colour, x + 14, H - 5);
	ls_html_text(f, label);
	fputs("</text>\n", f);
}

void ls_svg_hist(FILE *f, const char *cls, const uint64_t *a, const uint64_t *b,
		 const char *label_a, const char *label_b,
		 enum ls_hist_style style)
{
	double ta = 0, tb = 0, ymax = 0, bw;
	double va[LS_HIST_SLOTS], vb[LS_HIST_SLOTS];
	int lo = -1, hi = -1, n;
	const int ph = H - MT - MB;
	const char *ca = style == LS_HIST_STACKED ? LS_HTML_SPIN : LS_HTML_BASE;
	const char *cb = style == LS_HIST_STACKED ? LS_HTML_SLEEP : LS_HTML_NEW;
	char r0[24], r1[24];

	for (int i = 0; i < LS_HIST_SLOTS; i++) {
		ta += (double)a[i];
		tb += (double)b[i];
		if (a[i] || b[i]) {
			if (lo < 0)
				lo = i;
			hi = i;
		}
	}
	fprintf(f,
		"<svg class=\"%s\" "
		"width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\">\n",
		cls, W, H, W, H);
	if (lo < 0) {
		fprintf(f, "<text x=\"%d\" y=\"%d\">no waits</text>\n</svg>\n",
			ML, H / 2);
		return;
	}
	n = hi - lo + 1;
	for (int i = lo; i <= hi; i++) {
		double x = (double)a[i], y = (double)b[i];

		if (style == LS_HIST_OVERLAID) {
			x = ta ? 100.0 * x / ta : 0;
			y = tb ? 100.0 * y / tb : 0;
		}
		va[i] = x;
		vb[i] = y;
		if (style == LS_HIST_STACKED && x + y > ymax)
			ymax = x + y;
		if (style == LS_HIST_OVERLAID && fmax(x, y) > ymax)
			ymax = fmax(x, y);
	}
	frame(f, ymax,
	      style == LS_HIST_STACKED ? "waits" : "% of the side's waits");
	bw = (double)(W - ML - MR) / n;
	for (int i = lo; i <= hi; i++) {
		double x = ML + bw * (i - lo);
		double ha = ymax ? ph * va[i] / ymax : 0;
		double hb = ymax ? ph * vb[i] / ymax : 0;
		double yb = style == LS_HIST_STACKED ? H - MB - ha - hb
						     : H - MB - hb;
		const char *op = style == LS_HIST_STACKED ? "1" : "0.55";

		ls_fmt_dur(r0, sizeof(r0), 1ULL << i, LS_DUR_FIXED);
		ls_fmt_dur(r1, sizeof(r1), 2ULL << i, LS_DUR_FIXED);
		fprintf(f,
			"<g><title>%s to %s: %s %.4g, %s %.4g%s</title>\n"
			"<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
			"height=\"%.1f\" fill=\"%s\" fill-opacity=\"%s\"/>\n"
			"<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
			"height=\"%.1f\" fill=\"%s\" fill-opacity=\"%s\"/>"
			"</g>\n",
			r0, r1, label_a, va[i], label_b, vb[i],
			style == LS_HIST_OVERLAID ? " (% of waits)" : "", x + 1,
			H - MB - ha, bw - 2, ha, ca, op, x + 1, yb, bw - 2, hb,
			cb, op);
		if (n <= 16 || (i - lo) % ((n + 15) / 16) == 0)
			fprintf(f,
				"<text x=\"%.1f\" y=\"%d\" text-anchor=\"end\" "
				"transform=\"rotate(-40 %.1f %d)\">%s</text>\n",
				x + bw / 2, H - MB + 12, x + bw / 2,
				H - MB + 12, r0);
	}
	key(f, ML, ca, label_a);
	key(f, ML + 120, cb, label_b);
	fputs("</svg>\n", f);
}

void ls_svg_lines(FILE *f, const char *cls, const char *ytitle, const double *x,
		  size_t n, const struct ls_svg_line *lines, size_t nlines)
{
	double ymax = 0, xmax = n ? x[n - 1] : 0;
	const int ph = H - MT - MB, pw = W - ML - MR;
	char b[32];

	for (size_t l = 0; l < nlines; l++)
		for (size_t i = 0; i < n; i++)
			ymax = fmax(ymax, lines[l].y[i]);
	if (ymax <= 0)
		ymax = 1;
	if (xmax <= 0)
		xmax = 1;
	fprintf(f,
		"<svg class=\"%s\" "
		"width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\">\n",
		cls, W, H, W, H);
	frame(f, ymax, ytitle);
	for (int i = 0; i <= 4; i++)
		fprintf(f,
			"<text x=\"%.1f\" y=\"%d\" "
			"text-anchor=\"middle\">%ss</text>\n",
			ML + pw * i / 4.0, H - MB + 14,
			num(b, sizeof(b), xmax * i / 4.0));
	for (size_t l = 0; l < nlines; l++) {
		const char *c = ls_html_line_colour(l);

		fprintf(f,
			"<polyline fill=\"none\" stroke=\"%s\" "
			"stroke-width=\"2\" points=\"",
			c);
		for (size_t i = 0; i < n; i++)
			fprintf(f, "%s%.1f,%.1f", i ? " " : "",
				ML + pw * x[i] / xmax,
				H - MB - ph * lines[l].y[i] / ymax);
		fputs("\"/>\n", f);
		for (size_t i = 0; i < n; i++) {
			fprintf(f,
				"<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" "
				"fill=\"%s\"><title>",
				ML + pw * x[i] / xmax,
				H - MB - ph * lines[l].y[i] / ymax, c);
			ls_html_text(f, lines[l].label);
			fprintf(f, " at %.2fs: %.4g</title></circle>\n", x[i],
				lines[l].y[i]);
		}
	}
	fputs("</svg>\n", f);
}
