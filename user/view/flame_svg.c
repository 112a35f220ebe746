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
#include "util/slots.h"

#define FW 1180	 /* width */
#define FH 17	 /* row height */
#define CHAR_W 7 /* about one character at 11px */

struct node {
	char *name;
	size_t len, parent; /* strlen(name); the parent's index */
	uint64_t w;
	size_t child, next; /* first child, next sibling: index + 1, 0 none */
	size_t last;	    /* last child: index + 1, 0 none */
};

/* Nodes, and a hash index of them by parent and name (open addressing:
 * index + 1, 0 empty; nslot a power of two, at least twice n): a stack is
 * added in time linear in its frames, however many siblings there are. */
struct tree {
	struct node *v;
	size_t n, cap;
	unsigned depth;
	size_t *slot, nslot;
};

/* A child's identity, as ls_slots_find compares it. */
struct key {
	const struct tree *t;
	size_t parent, len;
	const char *name;
};

static int same_node(const void *ctx, size_t pos)
{
	const struct key *k = ctx;
	const struct node *nd = &k->t->v[pos];

	return nd->parent == k->parent && nd->len == k->len &&
	       !memcmp(nd->name, k->name, k->len);
}

/* The slot of (@parent, @name): its node's, or the empty one for it. */
static size_t *slot_of(const struct tree *t, size_t parent, const char *name,
		       size_t len)
{
	struct key k = {t, parent, len, name};
	uint64_t h = ls_hash_bytes(LS_HASH_INIT, &parent, sizeof(parent));

	return ls_slots_find(t->slot, t->nslot, ls_hash_bytes(h, name, len),
			     same_node, &k);
}

static int reindex(struct tree *t)
{
	size_t n = t->nslot ? 2 * t->nslot : 1024;

	free(t->slot);
	t->slot = calloc(n, sizeof(*t->slot));
	t->nslot = t->slot ? n : 0;
	if (!t->slot)
		return -ENOMEM;
	for (size_t i = 1; i < t->n; i++) /* the root has no parent */
		*slot_of(t, t->v[i].parent, t->v[i].name, t->v[i].len) = i + 1;
	return 0;
}

/* The child of @parent named @name (@len bytes), made if absent. */
static long child_of(struct tree *t, size_t parent, const char *name,
		     size_t len)
{
	struct node *nd;
	size_t *slot;

	if (2 * (t->n + 1) > t->nslot && reindex(t))
		return -ENOMEM;
	slot = slot_of(t, parent, name, len);
	if (*slot)
		return (long)(*slot - 1);
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
	nd->len = len;
	nd->parent = parent;
	t->n++;
	*slot = t->n;
	if (t->v[parent].last)
		t->v[t->v[parent].last - 1].next = t->n;
	else
		t->v[parent].child = t->n;
	t->v[parent].last = t->n;
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
	free(t.slot);
	return err;
}
