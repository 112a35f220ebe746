// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* top_model.c - the live view's state: rows shown, selection, keys. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "view/top_model.h"

const enum ls_sort ls_top_sort_order[] = {
	LS_SORT_TOTAL,	 LS_SORT_NAME,	 LS_SORT_KIND, LS_SORT_COUNT,
	LS_SORT_SPIN,	 LS_SORT_SLEEP,	 LS_SORT_AVG,  LS_SORT_MAX_WAIT,
	LS_SORT_WAITERS, LS_SORT_PEAK,	 LS_SORT_WON,  LS_SORT_PRE,
	LS_SORT_BLK,	 LS_SORT_CALLER,
};
const unsigned ls_top_nsorts =
	sizeof(ls_top_sort_order) / sizeof(*ls_top_sort_order);

/* The sort key of each column. */
static const enum ls_sort col_sort[LS_COL_NR] = {
	[LS_COL_NAME] = LS_SORT_NAME,	  [LS_COL_KIND] = LS_SORT_KIND,
	[LS_COL_COUNT] = LS_SORT_COUNT,	  [LS_COL_SPIN] = LS_SORT_SPIN,
	[LS_COL_SLEEP] = LS_SORT_SLEEP,	  [LS_COL_AVG] = LS_SORT_AVG,
	[LS_COL_MAX] = LS_SORT_MAX_WAIT,  [LS_COL_WAIT] = LS_SORT_WAITERS,
	[LS_COL_PEAK] = LS_SORT_PEAK,	  [LS_COL_WON] = LS_SORT_WON,
	[LS_COL_PRE] = LS_SORT_PRE,	  [LS_COL_BLK] = LS_SORT_BLK,
	[LS_COL_CALLER] = LS_SORT_CALLER,
};

void ls_top_init(struct ls_top *t, enum ls_sort sort, double interval)
{
	memset(t, 0, sizeof(*t));
	t->sort = sort;
	t->interval = interval;
	t->page = 1;
	for (unsigned i = 0; i < ls_top_nsorts; i++)
		if (ls_top_sort_order[i] == sort)
			t->menu = i;
}

void ls_top_free(struct ls_top *t)
{
	free(t->view);
	t->view = NULL;
	t->nview = t->view_cap = 0;
}

int ls_top_sort_col(enum ls_sort s)
{
	for (int c = 0; c < LS_COL_NR; c++)
		if (col_sort[c] == s)
			return c;
	return -1;
}

const char *ls_top_sort_label(enum ls_sort s)
{
	switch (s) {
	case LS_SORT_TOTAL:
		return "total wait";
	case LS_SORT_COUNT:
		return "contentions/s";
	case LS_SORT_SPIN:
		return "spin ms/s";
	case LS_SORT_SLEEP:
		return "sleep ms/s";
	case LS_SORT_AVG:
		return "avg wait";
	case LS_SORT_MAX_WAIT:
		return "max wait";
	case LS_SORT_WAITERS:
		return "waiters now";
	case LS_SORT_PEAK:
		return "peak waiters";
	case LS_SORT_NAME:
		return "lock name";
	case LS_SORT_KIND:
		return "kind";
	case LS_SORT_WON:
		return "spin won %";
	case LS_SORT_PRE:
		return "preempted holder %";
	case LS_SORT_CALLER:
		return "top caller";
	default:
		return "?";
	}
}

static int same_key(const struct ls_lock_key *a, const struct ls_lock_key *b)
{
	return a->addr == b->addr && a->kind == b->kind;
}

/* Keep the selection on its lock (once the user moved it) and on screen. */
static void fix_sel(struct ls_top *t)
{
	size_t n = t->nview, page = t->page ? t->page : 1;

	if (!n) {
		t->sel = t->top = 0;
		return;
	}
	if (t->have_sel) {
		for (size_t i = 0; i < n; i++)
			if (same_key(&t->view[i]->key, &t->sel_key)) {
				t->sel = i;
				break;
			}
	}
	if (t->sel >= n)
		t->sel = n - 1;
	if (t->have_sel)
		t->sel_key = t->view[t->sel]->key;
	if (t->sel < t->top)
		t->top = t->sel;
	if (t->sel >= t->top + page)
		t->top = t->sel - page + 1;
	if (t->top + page > n)
		t->top = n > page ? n - page : 0;
}

void ls_top_set_page(struct ls_top *t, unsigned page)
{
	t->page = page ? page : 1;
	fix_sel(t);
}

int ls_top_view(struct ls_top *t, const struct ls_snapshot *delta,
		const struct ls_filter *base)
{
	struct ls_filter byname = {0};

	t->nview = 0;
	t->nrows_all = delta ? delta->nrows : 0;
	if (!delta) {
		fix_sel(t);
		return 0;
	}
	if (delta->nrows > t->view_cap) {
		const struct ls_row **v =
			realloc(t->view, delta->nrows * sizeof(*v));

		if (!v)
			return -ENOMEM;
		t->view = v;
		t->view_cap = delta->nrows;
	}
	byname.name = t->filter;
	for (size_t i = 0; i < delta->nrows; i++) {
		const struct ls_row *r = &delta->rows[i];

		if (ls_row_match(r, base) &&
		    (!t->filter[0] || ls_row_match(r, &byname)))
			t->view[t->nview++] = r;
	}
	ls_row_ptrs_sort(t->view, t->nview, t->sort, t->reverse);
	fix_sel(t);
	return 0;
}

double ls_top_interval_step(double cur, int dir)
{
	static const double ladder[] = {0.1, 0.2, 0.5, 1, 2, 3, 5, 10, 30, 60};
	const int n = sizeof(ladder) / sizeof(*ladder);

	if (dir > 0) {
		for (int i = 0; i < n; i++)
			if (ladder[i] > cur + 1e-9)
				return ladder[i];
		return cur > ladder[n - 1] ? cur : ladder[n - 1];
	}
	for (int i = n - 1; i >= 0; i--)
		if (ladder[i] < cur - 1e-9)
			return ladder[i];
	return cur < ladder[0] ? cur : ladder[0];
}

static unsigned sort_index(enum ls_sort s)
{
	for (unsigned i = 0; i < ls_top_nsorts; i++)
		if (ls_top_sort_order[i] == s)
			return i;
	return 0;
}

static int set_sort(struct ls_top *t, enum ls_sort s, int reverse)
{
	t->sort = s;
	t->reverse = reverse;
	snprintf(t->msg, sizeof(t->msg), "sorted by %s%s", ls_top_sort_label(s),
		 reverse ? ", reversed" : "");
	return LS_TOP_REVIEW | LS_TOP_REDRAW;
}

static int edit_key(struct ls_top *t, int key)
{
	size_t n = strlen(t->filter);

	switch (key) {
	case LS_KEY_ENTER:
	case '\r':
		t->editing = 0;
		return LS_TOP_REDRAW;
	case LS_KEY_ESC:
		t->editing = 0;
		memcpy(t->filter, t->filter_old, sizeof(t->filter));
		return LS_TOP_REVIEW | LS_TOP_REDRAW;
	case LS_KEY_BACKSPACE:
	case 127:
	case 8:
		if (n)
			t->filter[n - 1] = '\0';
		return LS_TOP_REVIEW | LS_TOP_REDRAW;
	case 21: /* Ctrl-U */
		t->filter[0] = '\0';
		return LS_TOP_REVIEW | LS_TOP_REDRAW;
	default:
		if (key < 32 || key > 126 || n + 1 >= sizeof(t->filter))
			return 0;
		t->filter[n] = (char)key;
		t->filter[n + 1] = '\0';
		return LS_TOP_REVIEW | LS_TOP_REDRAW;
	}
}

/* Keys that work in the list and the detail view alike; -1 if not one. */
static int common_key(struct ls_top *t, int key)
{
	double iv;

	switch (key) {
	case 'q':
	case 'Q':
	case LS_KEY_F0 + 10:
		return LS_TOP_QUIT;
	case '?':
	case 'h':
	case LS_KEY_F0 + 1:
		t->back = t->mode;
		t->mode = LS_TOP_HELP;
		t->scroll = 0;
		return LS_TOP_REDRAW;
	case 'p':
	case ' ':
		t->paused = !t->paused;
		snprintf(t->msg, sizeof(t->msg), "%s",
			 t->paused ? "paused: the screen keeps this interval"
				   : "resumed");
		return LS_TOP_REDRAW;
	case '+':
	case '=':
	case '-':
	case '_':
		iv = ls_top_interval_step(t->interval,
					  key == '+' || key == '=' ? 1 : -1);
		if (iv == t->interval)
			return 0;
		t->interval = iv;
		snprintf(t->msg, sizeof(t->msg), "interval %gs", iv);
		return LS_TOP_RETIME | LS_TOP_REDRAW;
	default:
		return -1;
	}
}

static int scroll_key(size_t *pos, int key, unsigned page)
{
	size_t p = *pos;

	switch (key) {
	case LS_KEY_UP:
		p = p ? p - 1 : 0;
		break;
	case LS_KEY_DOWN:
		p++;
		break;
	case LS_KEY_PGUP:
		p = p > page ? p - page : 0;
		break;
	case LS_KEY_PGDN:
		p += page;
		break;
	case LS_KEY_HOME:
		p = 0;
		break;
	case LS_KEY_END:
		p = (size_t)-1 / 2;
		break;
	default:
		return 0;
	}
	*pos = p;
	return 1;
}

static int list_key(struct ls_top *t, int key)
{
	size_t n = t->nview;
	unsigned i;

	switch (key) {
	case '/':
	case LS_KEY_F0 + 3:
	case LS_KEY_F0 + 4:
		t->editing = 1;
		memcpy(t->filter_old, t->filter, sizeof(t->filter));
		return LS_TOP_REDRAW;
	case LS_KEY_ESC:
		if (!t->filter[0])
			return 0;
		t->filter[0] = '\0'; /* Esc in the list clears the filter */
		return LS_TOP_REVIEW | LS_TOP_REDRAW;
	case '<':
	case ',':
	case '>':
	case '.':
		i = sort_index(t->sort);
		if (key == '<' || key == ',')
			i = i ? i - 1 : 0;
		else if (i + 1 < ls_top_nsorts)
			i++;
		if (ls_top_sort_order[i] == t->sort)
			return 0;
		return set_sort(t, ls_top_sort_order[i], 0);
	case 's':
	case LS_KEY_F0 + 6:
		t->mode = LS_TOP_SORTMENU;
		t->menu = sort_index(t->sort);
		return LS_TOP_REDRAW;
	case 'r':
	case 'I':
		return set_sort(t, t->sort, !t->reverse);
	case LS_KEY_ENTER:
	case '\r':
		if (!n)
			return 0;
		if (t->sel >= n)
			t->sel = n - 1;
		t->detail = t->view[t->sel]->key;
		t->mode = LS_TOP_DETAIL;
		t->scroll = 0;
		return LS_TOP_OWNER | LS_TOP_REDRAW;
	default:
		if (!n || !scroll_key(&t->sel, key, t->page ? t->page : 1))
			return 0;
		if (t->sel >= n)
			t->sel = n - 1;
		t->have_sel = 1;
		t->sel_key = t->view[t->sel]->key;
		fix_sel(t);
		return LS_TOP_REDRAW;
	}
}

int ls_top_key(struct ls_top *t, int key)
{
	int r;

	if (t->editing)
		return edit_key(t, key);
	if (t->mode == LS_TOP_HELP) {
		if (key == 'q' || key == LS_KEY_F0 + 10)
			return LS_TOP_QUIT;
		if (scroll_key(&t->scroll, key, t->page ? t->page : 1))
			return LS_TOP_REDRAW;
		t->mode = t->back;
		t->scroll = 0;
		return LS_TOP_REDRAW;
	}
	if (t->mode == LS_TOP_SORTMENU) {
		switch (key) {
		case LS_KEY_UP:
			t->menu = t->menu ? t->menu - 1 : 0;
			return LS_TOP_REDRAW;
		case LS_KEY_DOWN:
			if (t->menu + 1 < ls_top_nsorts)
				t->menu++;
			return LS_TOP_REDRAW;
		case LS_KEY_ENTER:
		case '\r':
			t->mode = LS_TOP_LIST;
			return set_sort(t, ls_top_sort_order[t->menu], 0);
		case 'q':
		case LS_KEY_F0 + 10:
			return LS_TOP_QUIT;
		default:
			t->mode = LS_TOP_LIST;
			return LS_TOP_REDRAW;
		}
	}
	r = common_key(t, key);
	if (r >= 0)
		return r;
	if (t->mode == LS_TOP_DETAIL) {
		switch (key) {
		case LS_KEY_ESC:
		case LS_KEY_ENTER:
		case '\r':
		case LS_KEY_LEFT:
		case LS_KEY_BACKSPACE:
		case 127:
			t->mode = LS_TOP_LIST;
			t->scroll = 0;
			return LS_TOP_REDRAW;
		case 't':
			t->hist_total = !t->hist_total;
			return LS_TOP_REDRAW;
		case 'o':
			return LS_TOP_OWNER | LS_TOP_REDRAW;
		default:
			return scroll_key(&t->scroll, key,
					  t->page ? t->page : 1)
				       ? LS_TOP_REDRAW
				       : 0;
		}
	}
	return list_key(t, key);
}
