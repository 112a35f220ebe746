// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * record_lazy.c - a record's large arrays (the lock rows of the totals and
 * of every interval, the sampled stacks) left out of its JSON document and
 * read one element at a time from the file's text, so that reading a record
 * takes memory in proportion to its C form, not to a JSON tree of the whole
 * file (about 12 times the file).  The scan finds the arrays and copies the
 * rest, with [] in their place, for json-c to parse; anything it does not
 * follow makes it give up, and the caller parses the whole file instead.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>
#include "export/record.h"
#include "export/record_int.h"

/* Where a value sits, for the arrays to leave out. */
enum ctx {
	CTX_OTHER = 0,
	CTX_ROOT,      /* the record object */
	CTX_TOTALS,    /* "totals" */
	CTX_INTERVALS, /* the "intervals" array */
	CTX_INTERVAL,  /* one interval object */
};

struct scan {
	const char *b;
	size_t len, i;
	struct ls_rd_text *t;
	size_t nintervals;     /* elements of "intervals" so far */
	int totals, intervals; /* seen: given twice, the scan gives up */
};

static void ws(struct scan *sc)
{
	while (sc->i < sc->len &&
	       (sc->b[sc->i] == ' ' || sc->b[sc->i] == '\t' ||
		sc->b[sc->i] == '\r' || sc->b[sc->i] == '\n'))
		sc->i++;
}

/* A string at sc->i: its content in [*s, *e); -1 if it has an escape and
 * @plain, or no end. */
static int str(struct scan *sc, size_t *s, size_t *e, int plain)
{
	*s = ++sc->i;
	for (; sc->i < sc->len; sc->i++) {
		if (sc->b[sc->i] == '\\') {
			if (plain)
				return -1;
			sc->i++;
		} else if (sc->b[sc->i] == '"') {
			*e = sc->i++;
			return 0;
		} else if (!sc->b[sc->i]) {
			return -1;
		}
	}
	return -1;
}

static int key_is(const struct scan *sc, size_t s, size_t e, const char *k)
{
	return e - s == strlen(k) && !memcmp(sc->b + s, k, e - s);
}

/* The span to fill for the array of key [@s, @e) of an object in @ctx, or
 * NULL if it is kept in the document. */
static struct ls_rd_span *span_for(struct scan *sc, enum ctx ctx, size_t s,
				   size_t e)
{
	if (ctx == CTX_TOTALS && key_is(sc, s, e, "locks"))
		return &sc->t->totals_locks;
	if (ctx == CTX_TOTALS && key_is(sc, s, e, "stacks"))
		return &sc->t->stacks;
	if (ctx == CTX_INTERVAL && key_is(sc, s, e, "locks"))
		return &sc->t->iv_locks[sc->nintervals - 1];
	return NULL;
}

/* The context of the value of key [@s, @e) in @ctx; -1 for a second
 * "totals" or "intervals" (json-c keeps the last: not followed here). */
static int ctx_of(struct scan *sc, enum ctx ctx, size_t s, size_t e)
{
	if (ctx == CTX_ROOT && key_is(sc, s, e, "totals"))
		return sc->totals++ ? -1 : CTX_TOTALS;
	if (ctx == CTX_ROOT && key_is(sc, s, e, "intervals"))
		return sc->intervals++ ? -1 : CTX_INTERVALS;
	return CTX_OTHER;
}

static int value(struct scan *sc, enum ctx ctx, unsigned depth,
		 struct ls_rd_span *sp);

static int object(struct scan *sc, enum ctx ctx, unsigned depth)
{
	int first = 1;

	sc->i++;
	for (;;) {
		size_t s, e;
		int in;

		ws(sc);
		if (sc->i < sc->len && sc->b[sc->i] == '}' && first) {
			sc->i++;
			return 0;
		}
		/* keys where arrays are left out must be read as written */
		if (sc->i >= sc->len || sc->b[sc->i] != '"' ||
		    str(sc, &s, &e, ctx != CTX_OTHER))
			return -1;
		ws(sc);
		if (sc->i >= sc->len || sc->b[sc->i++] != ':')
			return -1;
		ws(sc);
		in = ctx_of(sc, ctx, s, e);
		if (in < 0 ||
		    value(sc, (enum ctx)in, depth + 1, span_for(sc, ctx, s, e)))
			return -1;
		ws(sc);
		if (sc->i >= sc->len)
			return -1;
		if (sc->b[sc->i] == '}') {
			sc->i++;
			return 0;
		}
		if (sc->b[sc->i++] != ',')
			return -1;
		first = 0;
	}
}

static int array(struct scan *sc, enum ctx ctx, unsigned depth)
{
	int first = 1;

	sc->i++;
	for (;;) {
		enum ctx el = CTX_OTHER;

		ws(sc);
		if (sc->i < sc->len && sc->b[sc->i] == ']' && first) {
			sc->i++;
			return 0;
		}
		if (ctx == CTX_INTERVALS) {
			struct ls_rd_span *p;

			if (sc->nintervals == sc->t->iv_cap) {
				size_t cap =
					sc->t->iv_cap ? 2 * sc->t->iv_cap : 64;

				p = realloc(sc->t->iv_locks, cap * sizeof(*p));
				if (!p)
					return -1;
				sc->t->iv_locks = p;
				sc->t->iv_cap = cap;
			}
			memset(&sc->t->iv_locks[sc->nintervals++], 0,
			       sizeof(*p));
			el = CTX_INTERVAL;
		}
		if (value(sc, el, depth + 1, NULL))
			return -1;
		ws(sc);
		if (sc->i >= sc->len)
			return -1;
		if (sc->b[sc->i] == ']') {
			sc->i++;
			return 0;
		}
		if (sc->b[sc->i++] != ',')
			return -1;
		first = 0;
	}
}

/* Skip the value at sc->i; an array with @sp is left out: its span. */
static int value(struct scan *sc, enum ctx ctx, unsigned depth,
		 struct ls_rd_span *sp)
{
	size_t s, e;
	int err;

	if (depth > LS_REC_JSON_DEPTH || sc->i >= sc->len)
		return -1;
	switch (sc->b[sc->i]) {
	case '{':
		return object(sc,
			      ctx == CTX_OTHER && depth == 1 ? CTX_ROOT : ctx,
			      depth);
	case '[':
		s = sc->i;
		err = array(sc, ctx, depth);
		if (!err && sp && sp->end)
			return -1; /* given twice: json-c keeps the last */
		if (!err && sp) {
			sp->off = s;
			sp->end = sc->i;
			sp->depth = depth;
		}
		return err;
	case '"':
		return str(sc, &s, &e, 0);
	default: /* a number or literal: json-c judges it */
		s = sc->i;
		while (sc->i < sc->len && sc->b[sc->i] &&
		       !strchr(",]} \t\r\n", sc->b[sc->i]))
			sc->i++;
		return sc->i > s ? 0 : -1;
	}
}

/* Append [@s, @e) of the text to the document's text at *@o. */
static void copy(char *doc, size_t *o, const char *b, size_t s, size_t e)
{
	memcpy(doc + *o, b + s, e - s);
	*o += e - s;
}

static int cmp_span(const void *a, const void *b)
{
	const struct ls_rd_span *x = *(struct ls_rd_span *const *)a;
	const struct ls_rd_span *y = *(struct ls_rd_span *const *)b;

	return (x->off > y->off) - (x->off < y->off);
}

int ls_rd_text_scan(struct ls_rd_text *t, const char *buf, size_t len,
		    char **doc, size_t *doclen)
{
	struct scan sc = {.b = buf, .len = len, .t = t};
	struct ls_rd_span **all = NULL;
	size_t n = 0, o = 0, at = 0;

	memset(t, 0, sizeof(*t));
	t->buf = buf;
	ws(&sc);
	if (sc.i >= len || buf[sc.i] != '{' || value(&sc, CTX_OTHER, 1, NULL))
		goto fail;
	t->niv = sc.nintervals;
	all = malloc((t->niv + 2) * sizeof(*all));
	*doc = malloc(len + 1);
	if (!all || !*doc)
		goto fail;
	if (t->totals_locks.end)
		all[n++] = &t->totals_locks;
	if (t->stacks.end)
		all[n++] = &t->stacks;
	for (size_t i = 0; i < t->niv; i++)
		if (t->iv_locks[i].end)
			all[n++] = &t->iv_locks[i];
	qsort(all, n, sizeof(*all), cmp_span);
	for (size_t i = 0; i < n; i++) {
		copy(*doc, &o, buf, at, all[i]->off);
		copy(*doc, &o, "[]", 0, 2);
		at = all[i]->end;
	}
	copy(*doc, &o, buf, at, len);
	(*doc)[o] = '\0';
	*doclen = o;
	free(all);
	return 0;
fail:
	free(all);
	ls_rd_text_free(t);
	return -1;
}

void ls_rd_text_free(struct ls_rd_text *t)
{
	free(t->iv_locks);
	memset(t, 0, sizeof(*t));
}

int ls_rd_elems_open(struct ls_rd_elems *it, struct json_object *arr,
		     const struct ls_rd_text *t, const struct ls_rd_span *sp)
{
	memset(it, 0, sizeof(*it));
	it->arr = arr;
	if (!t || !sp || !sp->end)
		return 0; /* the document's own array */
	it->t = t;
	it->pos = sp->off + 1;
	it->end = sp->end - 1; /* at the closing ']' */
	/* json-c counts depth from 0, without the element itself */
	it->tok = json_tokener_new_ex(LS_REC_JSON_DEPTH - (int)sp->depth);
	return it->tok ? 0 : -ENOMEM;
}

int ls_rd_elems_next(struct ls_rd_elems *it, struct json_object **o)
{
	const char *b;

	json_object_put(it->cur);
	it->cur = NULL;
	if (!it->t) {
		if (!it->arr || it->i >= json_object_array_length(it->arr))
			return 0;
		*o = json_object_array_get_idx(it->arr, it->i++);
		return 1;
	}
	b = it->t->buf;
	while (it->pos < it->end && b[it->pos] && strchr(" \t\r\n", b[it->pos]))
		it->pos++;
	if (it->i && it->pos < it->end && b[it->pos] == ',')
		it->pos++; /* the scan checked the commas */
	while (it->pos < it->end && b[it->pos] && strchr(" \t\r\n", b[it->pos]))
		it->pos++;
	if (it->pos >= it->end)
		return 0;
	json_tokener_reset(it->tok);
	it->cur = json_tokener_parse_ex(it->tok, b + it->pos,
					(int)(it->end + 1 - it->pos));
	if (!it->cur || json_tokener_get_error(it->tok) != json_tokener_success)
		return -EAGAIN; /* not for us to judge: read the whole file */
	it->pos += json_tokener_get_parse_end(it->tok);
	it->i++;
	*o = it->cur;
	return 1;
}

void ls_rd_elems_close(struct ls_rd_elems *it)
{
	json_object_put(it->cur);
	if (it->tok)
		json_tokener_free(it->tok);
	memset(it, 0, sizeof(*it));
}
