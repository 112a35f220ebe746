// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* chain_graph.c - the report's wait-for graph as inline SVG: the locks of
 * the heaviest chain edges on a circle, an arrow from each lock to the lock
 * its holders waited on, as wide as the wait time behind it (1 to 9 px),
 * labelled with it; an edge with cycles is red.  Every text is escaped. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "model/model.h"
#include "view/chain_graph.h"
#include "view/fmt.h"
#include "view/html.h"

#define W 900
#define H 520
#define R 190 /* the circle of nodes */

struct node {
	const char *name;
	unsigned kind;
	double x, y;
};

static int by_wait(const void *a, const void *b, void *arg)
{
	const struct ls_rec_edge *e = arg;
	const struct ls_rec_edge *x = &e[*(const size_t *)a];
	const struct ls_rec_edge *y = &e[*(const size_t *)b];

	if (x->wait_ns != y->wait_ns)
		return x->wait_ns > y->wait_ns ? -1 : 1;
	return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

static size_t node_of(struct node *n, size_t *nn, const char *name,
		      unsigned kind)
{
	for (size_t i = 0; i < *nn; i++)
		if (n[i].kind == kind && !strcmp(n[i].name, name))
			return i;
	n[*nn].name = name;
	n[*nn].kind = kind;
	return (*nn)++;
}

static void label(FILE *f, const struct node *n)
{
	char k[32];

	ls_html_text(f, n->name);
	snprintf(k, sizeof(k), " (%s)", ls_kind_name(n->kind));
	ls_html_text(f, k);
}

static void draw_edge(FILE *f, const struct node *a, const struct node *b,
		      const struct ls_rec_edge *e, double width)
{
	const char *colour = e->cycles ? "#c0392b" : "#2c6fbb";
	double dx = b->x - a->x, dy = b->y - a->y, d = sqrt(dx * dx + dy * dy);
	char t[24];

	ls_fmt_dur(t, sizeof(t), e->wait_ns, LS_DUR_SHORT);
	fputs("<g><title>", f);
	label(f, a);
	fputs(" holders waited on ", f);
	label(f, b);
	fprintf(f, ": %llu waits, %s%s</title>\n", (unsigned long long)e->waits,
		t, e->cycles ? ", cycles" : "");
	if (d < 1) { /* a lock whose holders waited on its own name */
		fprintf(f,
			"<circle cx=\"%.1f\" cy=\"%.1f\" r=\"22\" "
			"fill=\"none\" "
			"stroke=\"%s\" stroke-width=\"%.1f\"/>\n",
			a->x, a->y - 22, colour, width);
	} else {
		double ux = dx / d, uy = dy / d;
		double tx = b->x - 11 * ux, ty = b->y - 11 * uy;

		/* the arrowhead drawn, not a marker: the page references
		 * nothing, not even its own fragments */
		fprintf(f,
			"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			"stroke=\"%s\" stroke-width=\"%.1f\"/>\n"
			"<polygon points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f\" "
			"fill=\"%s\"/>\n",
			a->x + 10 * ux, a->y + 10 * uy, tx - 8 * ux,
			ty - 8 * uy, colour, width, tx, ty,
			tx - (12 + width) * ux - (5 + width) * uy,
			ty - (12 + width) * uy + (5 + width) * ux,
			tx - (12 + width) * ux + (5 + width) * uy,
			ty - (12 + width) * uy - (5 + width) * ux, colour);
	}
	/* beside the line's middle, clear of its width */
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" fill=\"%s\">%s</text></g>\n",
		(a->x + b->x) / 2 + 6 + width,
		(a->y + b->y) / 2 - 6 - (d < 1 ? 44 : 0), colour, t);
}

int ls_svg_chain_graph(FILE *f, const struct ls_rec_snap *s)
{
	size_t *idx,
		n = s->nedges < LS_GRAPH_EDGES ? s->nedges : LS_GRAPH_EDGES;
	struct node nodes[2 * LS_GRAPH_EDGES];
	size_t nn = 0, from[LS_GRAPH_EDGES], to[LS_GRAPH_EDGES];
	uint64_t top;

	if (!n)
		return 0;
	idx = malloc(s->nedges * sizeof(*idx));
	if (!idx)
		return -ENOMEM;
	for (size_t i = 0; i < s->nedges; i++)
		idx[i] = i;
	qsort_r(idx, s->nedges, sizeof(*idx), by_wait, s->edges);
	top = s->edges[idx[0]].wait_ns ? s->edges[idx[0]].wait_ns : 1;
	for (size_t i = 0; i < n; i++) {
		const struct ls_rec_edge *e = &s->edges[idx[i]];

		from[i] = node_of(nodes, &nn, e->from, e->from_kind);
		to[i] = node_of(nodes, &nn, e->to, e->to_kind);
	}
	for (size_t i = 0; i < nn; i++) {
		double a = 2 * M_PI * (double)i / (double)nn - M_PI / 2;

		nodes[i].x = W / 2 + R * 1.6 * cos(a);
		nodes[i].y = H / 2 + R * sin(a);
	}
	fprintf(f,
		"<svg class=\"ls-chains\" width=\"%d\" height=\"%d\" "
		"viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" "
		"font-size=\"12\">\n",
		W, H, W, H);
	for (size_t i = 0; i < n; i++)
		draw_edge(f, &nodes[from[i]], &nodes[to[i]], &s->edges[idx[i]],
			  1 + 8 * (double)s->edges[idx[i]].wait_ns /
					  (double)top);
	for (size_t i = 0; i < nn; i++) {
		int right = nodes[i].x >= W / 2;

		fprintf(f,
			"<circle cx=\"%.1f\" cy=\"%.1f\" r=\"8\" fill=\"#fff\" "
			"stroke=\"#333\" stroke-width=\"2\"/>\n<text "
			"x=\"%.1f\" "
			"y=\"%.1f\" text-anchor=\"%s\">",
			nodes[i].x, nodes[i].y, nodes[i].x + (right ? 12 : -12),
			nodes[i].y + 4, right ? "start" : "end");
		label(f, &nodes[i]);
		fputs("</text>\n", f);
	}
	fputs("</svg>\n", f);
	free(idx);
	return (int)n;
}
