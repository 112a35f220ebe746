/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * html.h - the pieces of lockscope's HTML report: escaped text, the page
 * around it (one self-contained file: inline CSS and SVG, no script, and a
 * Content-Security-Policy that lets the browser load nothing), and SVG
 * charts drawn from C: stacked or overlaid log2 histograms, line charts.
 */
#ifndef LS_VIEW_HTML_H
#define LS_VIEW_HTML_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* @s with & < > " ' escaped: safe in text and in quoted attributes. */
void ls_html_text(FILE *f, const char *s);
/* The page up to <body> with @title (lockscope's own text), and its end. */
void ls_html_page_open(FILE *f, const char *title);
void ls_html_page_close(FILE *f);

/* Colours of the pictures: spin and sleep, base and new, lines. */
#define LS_HTML_SPIN "#e6550d"
#define LS_HTML_SLEEP "#3182bd"
#define LS_HTML_BASE "#3182bd"
#define LS_HTML_NEW "#e6550d"
const char *ls_html_line_colour(size_t i);

/* How the two series of a histogram are drawn. */
enum ls_hist_style {
	LS_HIST_STACKED = 0, /* counts, b on top of a (spin, sleep) */
	LS_HIST_OVERLAID,    /* shares of each series' total, over each other
			      * (base, new) */
};

/*
 * A log2 histogram of waits (slot i: [2^i, 2^(i+1)) ns) as an SVG with
 * class @cls, the slots from the lowest to the highest that counted; each
 * bar says its range and counts on hover (an SVG title).
 */
void ls_svg_hist(FILE *f, const char *cls, const uint64_t *a, const uint64_t *b,
		 const char *label_a, const char *label_b,
		 enum ls_hist_style style);

/* One line of a line chart: @y has the chart's @n points. */
struct ls_svg_line {
	const char *label; /* from a record: escaped */
	const double *y;
};

/* A line chart over @x (seconds), class @cls, y axis titled @ytitle. */
void ls_svg_lines(FILE *f, const char *cls, const char *ytitle, const double *x,
		  size_t n, const struct ls_svg_line *lines, size_t nlines);

#endif
