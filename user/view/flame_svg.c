// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * flame_svg.c - a flame graph in SVG, written from C: the folded stacks
 * (lock;frame;...;frame, weighted by the wait time of sampled waits) merged
 * into a tree, each node a box as wide as its weight, roots at the bottom.
 * Boxes narrower than a pixel are left out; names are escaped.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "export/folded.h"
#include "view/flame_svg.h"
#include "view/fmt.h"
#include "view/html.h"
#include "util/untrusted_text.h"

#define FW 1180	 /* width */
#define FH 17	 /* row height */
#define CHAR_W 7 /* about one character at 11px */

struct node {
	char *name;
	uint64_t w;
	size_t child, next; /* first child, next sibling: index + 1, 0 none */
};

struct tree {
	struct node *v;
	size_t n, cap;
	unsigned depth;
};

/* The child of @parent named @name (@len bytes), made if absent. */
static long child_of(struct tree *t, size_t parent, const char *name,
		     size_t len)
{
	size_t cur = t->v[parent].child, last = 0;
	struct node *nd;

	for (; cur; last = cur, cur = t->v[cur - 1].next) {
		nd = &t->v[cur - 1];
		if (strlen(nd->name) == len && !memcmp(nd->name, name, len))
			return (long)(cur - 1);
	}
	if (t->n == t->cap) {
		nd = realloc(t->v, 2 * t->cap * sizeof(*nd));
		if (!nd)
			return -ENOMEM;
		t->v = nd;
		t->cap *= 2;
	}
	nd = &t->v[t->n];
	memset(nd, 0, sizeof(*nd));
	nd->name = strndup(name, len);
	if (!nd->name)
		return -ENOMEM;
	t->n++;
	if (last)
		t->v[last - 1].next = t->n;
	else
		t->v[parent].child = t->n;
	return (long)(t->n - 1);
}

static int add_stack(struct tree *t, const struct ls_stack *s)
{
	char root[LS_NAME_MAX + 32];
	const char *p = s->frames;
	unsigned d = 1;
	long at;

	ls_folded_root(s, root, sizeof(root));
	t->v[0].w += s->wait_ns;
	at = child_of(t, 0, root, strlen(root));
	while (at >= 0) {
		size_t len = strcspn(p, ";");

		t->v[at].w += s->wait_ns;
		if (!*p)
			break;
		at = child_of(t, (size_t)at, p, len);
		p += len + (p[len] == ';');
		d++;
	}
	if (d > t->depth)
		t->depth = d;
	return at < 0 ? (int)at : 0;
}

/* A stable warm colour per name (the lock row gets a cool one). */
static void colour(char *buf, size_t len, const char *name, unsigned depth)
{
	unsigned h = 5381;

	for (const char *c = name; *c; c++)
		h = h * 33 + (unsigned char)*c;
	if (depth == 1)
		snprintf(buf, len, "rgb(%u,%u,%u)", 90 + h % 40,
			 140 + (h >> 8) % 50, 200 + (h >> 16) % 40);
	else
		snprintf(buf, len, "rgb(%u,%u,%u)", 215 + h % 40,
			 90 + (h >> 8) % 120, 40 + (h >> 16) % 50);
}

static void draw(FILE *f, const struct tree *t, size_t i, double x,
		 unsigned depth, double scale, unsigned height)
{
	const struct node *nd = &t->v[i];
	double w = (double)nd->w * scale, y = height - FH * (depth + 1.0);
	char c[32], dur[24];
	size_t fit;

	if (w < 1.0)
		return;
	colour(c, sizeof(c), nd->name, depth);
	ls_fmt_dur(dur, sizeof(dur), nd->w, LS_DUR_FIXED);
	fputs("<g><title>", f);
	ls_html_text(f, nd->name);
	fprintf(f, ": %s sampled wait, %.2f%%</title>", dur,
		100.0 * (double)nd->w / (double)t->v[0].w);
	fprintf(f,
		"<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%d\" "
		"fill=\"%s\" rx=\"2\"/>",
		x, y, w - 0.5, FH - 1, c);
	fit = w > 3 * CHAR_W ? (size_t)(w - 6) / CHAR_W : 0;
	if (fit) {
		/* at most @fit characters, cut between them, ".." when cut */
		size_t n = ls_text_fit(nd->name, fit);
		int cut = nd->name[n] != '\0';
		char *label;

		if (cut)
			n = ls_text_fit(nd->name, fit - 2);
		label = strndup(nd->name, n);
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\">", x + 3, y + FH - 5);
		if (label)
			ls_html_text(f, label);
		fputs(cut ? ".." : "", f);
		free(label);
		fputs("</text>", f);
	}
	fputs("</g>\n", f);
	for (size_t ch = nd->child; ch; ch = t->v[ch - 1].next) {
		draw(f, t, ch - 1, x, depth + 1, scale, height);
		x += (double)t->v[ch - 1].w * scale;
	}
}

int ls_svg_flame(FILE *f, const struct ls_stacks *st, size_t nsets)
{
	struct tree t = {.cap = 256};
	unsigned height;
	int err = 0;

	t.v = calloc(t.cap, sizeof(*t.v));
	if (!t.v)
		return -ENOMEM;
	t.v[0].name = strdup("all sampled waits");
	t.n = 1;
	if (!t.v[0].name)
		err = -ENOMEM;
	for (size_t k = 0; !err && k < nsets; k++)
		for (size_t i = 0; !err && i < st[k].n; i++)
			if (st[k].v[i].wait_ns)
				err = add_stack(&t, &st[k].v[i]);
	if (!err) {
		height = FH * (t.depth + 1) + 4;
		fprintf(f,
			"<svg class=\"ls-flame\" width=\"%d\" height=\"%u\" "
			"viewBox=\"0 0 %d %u\">\n",
			FW, height, FW, height);
		if (t.v[0].w)
			draw(f, &t, 0, 0, 0, (double)FW / (double)t.v[0].w,
			     height);
		fputs("</svg>\n", f);
	}
	for (size_t i = 0; i < t.n; i++)
		free(t.v[i].name);
	free(t.v);
	return err;
}
