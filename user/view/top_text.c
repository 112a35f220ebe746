// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* top_text.c - what the live view says: columns, rows, header, detail, help. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "model/hist.h"
#include "view/top_text.h"

/* clang-format off */
static const struct {
	const char *title;
	int width; /* at 80 columns */
	int left; /* text, left-aligned */
} cols[LS_COL_NR] = {
	[LS_COL_NAME] = { "LOCK", 19, 1 },
	[LS_COL_KIND] = { "KIND", 8, 1 },
	[LS_COL_COUNT] = { "CONT/s", 6, 0 },
	[LS_COL_SPIN] = { "SPINms", 6, 0 },
	[LS_COL_SLEEP] = { "SLEEPms", 7, 0 },
	[LS_COL_AVG] = { "AVG", 6, 0 },
	[LS_COL_MAX] = { "MAX", 7, 0 },
	[LS_COL_WAIT] = { "WAIT", 4, 0 },
	[LS_COL_PEAK] = { "PEAK", 4, 0 },
	[LS_COL_WON] = { "WON%", 4, 0 },
	[LS_COL_CALLER] = { "CALLER", 0, 1 },
};
/* clang-format on */

#define NAME_MIN 12

static int same_key(const struct ls_lock_key *a, const struct ls_lock_key *b)
{
	return a->addr == b->addr && a->kind == b->kind;
}

const char *ls_top_fmt_ns(char *buf, size_t len, uint64_t ns)
{
	static const char *const unit[] = {"us", "ms", "s"};
	double v = (double)ns;
	int u = -1;

	if (ns < 1000) {
		snprintf(buf, len, "%lluns", (unsigned long long)ns);
		return buf;
	}
	/* three significant digits; 999.6us rounds to 1.00ms, not 1000us */
	while (u < 2 && (u < 0 || v >= 999.5)) {
		v /= 1000.0;
		u++;
	}
	if (v < 9.995)
		snprintf(buf, len, "%.2f%s", v, unit[u]);
	else if (v < 99.95)
		snprintf(buf, len, "%.1f%s", v, unit[u]);
	else
		snprintf(buf, len, "%.0f%s", v, unit[u]);
	return buf;
}

/* Rates in at most 6 characters. */
static const char *fmt_rate(char *buf, size_t len, double v)
{
	if (v <= 0)
		snprintf(buf, len, "0");
	else if (v < 9.95)
		snprintf(buf, len, "%.1f", v);
	else if (v < 99999.5)
		snprintf(buf, len, "%.0f", v);
	else if (v < 99999.5e3)
		snprintf(buf, len, "%.0fk", v / 1e3);
	else
		snprintf(buf, len, "%.0fM", v / 1e6);
	return buf;
}

static const char *fmt_ms(char *buf, size_t len, double v)
{
	if (v <= 0)
		snprintf(buf, len, "0");
	else if (v < 9.995)
		snprintf(buf, len, "%.2f", v);
	else if (v < 99.95)
		snprintf(buf, len, "%.1f", v);
	else
		snprintf(buf, len, "%.0f", v);
	return buf;
}

void ls_top_layout(struct ls_top_layout *l, int width)
{
	static const enum ls_top_col drop[] = {LS_COL_WON,   LS_COL_PEAK,
					       LS_COL_KIND,  LS_COL_MAX,
					       LS_COL_SLEEP, LS_COL_AVG};
	int used = 0, x = 0, extra;

	memset(l, 0, sizeof(*l));
	l->width = width;
	for (int c = 0; c < LS_COL_CALLER; c++) {
		l->shown[c] = 1;
		l->w[c] = cols[c].width;
		used += l->w[c] + (c ? 1 : 0);
	}
	extra = width - used; /* used is 80 */
	if (extra >= 16) {
		/* the caller gets 15 first, then half of what is left */
		int avail = extra - 1, caller = 15 + (avail - 15) / 2;
		int grow = avail - caller;

		if (grow > 40) {
			caller += grow - 40;
			grow = 40;
		}
		l->w[LS_COL_NAME] += grow;
		l->shown[LS_COL_CALLER] = 1;
		l->w[LS_COL_CALLER] = caller;
	} else if (extra >= 0) {
		l->w[LS_COL_NAME] += extra;
	} else {
		int shrink = -extra;
		int by = cols[LS_COL_NAME].width - NAME_MIN;

		if (by > shrink)
			by = shrink;
		l->w[LS_COL_NAME] -= by;
		shrink -= by;
		for (unsigned i = 0;
		     shrink > 0 && i < sizeof(drop) / sizeof(*drop); i++) {
			l->shown[drop[i]] = 0;
			shrink -= l->w[drop[i]] + 1;
			l->w[drop[i]] = 0;
		}
		if (shrink < 0) /* dropping freed more than needed */
			l->w[LS_COL_NAME] -= shrink;
	}
	for (int c = 0; c < LS_COL_NR; c++) {
		if (!l->shown[c])
			continue;
		l->x[c] = x;
		x += l->w[c] + 1;
	}
}

/* Put @s into @line at the column's place, cut or padded to its width. */
static void put(char *line, const struct ls_top_layout *l, int c, const char *s)
{
	int w = l->w[c], n = (int)strlen(s);

	if (!l->shown[c] || w <= 0)
		return;
	if (n > w)
		n = w;
	if (cols[c].left)
		memcpy(line + l->x[c], s, (size_t)n);
	else
		memcpy(line + l->x[c] + (w - n), s, (size_t)n);
}

static void finish(char *buf, size_t len, char *line, int width)
{
	int end = width;

	while (end > 0 && line[end - 1] == ' ')
		end--;
	line[end] = '\0';
	snprintf(buf, len, "%s", line);
}

void ls_top_titles(char *buf, size_t len, const struct ls_top_layout *l)
{
	char line[LS_TOP_LINE];
	int width = l->width < LS_TOP_LINE - 1 ? l->width : LS_TOP_LINE - 1;

	memset(line, ' ', sizeof(line));
	for (int c = 0; c < LS_COL_NR; c++)
		if (l->x[c] + l->w[c] <= width)
			put(line, l, c, cols[c].title);
	finish(buf, len, line, width);
}

void ls_top_row(char *buf, size_t len, const struct ls_row *r, double secs,
		const struct ls_top_layout *l)
{
	char line[LS_TOP_LINE], f[LS_COL_NR][LS_NAME_MAX];
	int width = l->width < LS_TOP_LINE - 1 ? l->width : LS_TOP_LINE - 1;
	double won = ls_row_spin_won_pct(r);

	if (secs <= 0)
		secs = 1;
	snprintf(f[LS_COL_NAME], sizeof(f[0]), "%s", r->name);
	snprintf(f[LS_COL_KIND], sizeof(f[0]), "%s", ls_kind_name(r->key.kind));
	fmt_rate(f[LS_COL_COUNT], sizeof(f[0]),
		 (double)r->st.contentions / secs);
	fmt_ms(f[LS_COL_SPIN], sizeof(f[0]),
	       (double)r->st.spin_ns / 1e6 / secs);
	fmt_ms(f[LS_COL_SLEEP], sizeof(f[0]),
	       (double)r->st.sleep_ns / 1e6 / secs);
	if (r->st.contentions)
		ls_top_fmt_ns(f[LS_COL_AVG], sizeof(f[0]), ls_row_avg_ns(r));
	else
		snprintf(f[LS_COL_AVG], sizeof(f[0]), "-");
	if (r->st.contentions) {
		char d[32];

		ls_top_fmt_ns(d, sizeof(d), r->st.max_ns);
		snprintf(f[LS_COL_MAX], sizeof(f[0]), "%s%s",
			 r->max_bound ? "<" : "", d);
	} else {
		snprintf(f[LS_COL_MAX], sizeof(f[0]), "-");
	}
	snprintf(f[LS_COL_WAIT], sizeof(f[0]), "%lld",
		 (long long)(r->st.waiters > 0 ? r->st.waiters : 0));
	snprintf(f[LS_COL_PEAK], sizeof(f[0]), "%llu",
		 (unsigned long long)r->st.peak_waiters);
	if (won >= 0)
		snprintf(f[LS_COL_WON], sizeof(f[0]), "%.0f", won);
	else
		snprintf(f[LS_COL_WON], sizeof(f[0]), "-");
	snprintf(f[LS_COL_CALLER], sizeof(f[0]), "%s", ls_row_top_caller(r));
	memset(line, ' ', sizeof(line));
	for (int c = 0; c < LS_COL_NR; c++)
		if (l->x[c] + l->w[c] <= width)
			put(line, l, c, f[c]);
	finish(buf, len, line, width);
}

static uint64_t all_samples(const struct ls_snapshot *s)
{
	uint64_t n = 0;

	for (unsigned i = 0; i < LS_SPIN_SLOTS; i++)
		n += s->func_samples[i];
	return n;
}

/* Append to a line buffer, never past its end. */
static void cat(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void cat(char *buf, size_t len, const char *fmt, ...)
{
	size_t n = strlen(buf);
	va_list ap;

	if (n + 1 >= len)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + n, len - n, fmt, ap);
	va_end(ap);
}

static void spin_line(char *buf, size_t len, const struct ls_top_frame *fr)
{
	const struct ls_snapshot *d = fr->delta;
	uint64_t all = all_samples(d), spin = 0, shown = 0;
	int used[LS_MAX_SPIN_RANGES] = {0};

	if (!fr->sampler) {
		snprintf(buf, len, "spin: cpu sampler off");
		return;
	}
	for (unsigned i = 0; i < d->nfuncs; i++)
		spin += d->func_samples[i];
	if (!all) {
		snprintf(buf, len, "spin: no cpu samples this interval");
		return;
	}
	snprintf(buf, len, "spin: %.2f%% of CPU (%llu of %llu samples)",
		 100.0 * (double)spin / (double)all, (unsigned long long)spin,
		 (unsigned long long)all);
	/* the spin functions, most sampled first */
	while (shown < spin) {
		int best = -1;

		for (unsigned i = 0; i < d->nfuncs; i++)
			if (!used[i] && d->func_samples[i] &&
			    (best < 0 ||
			     d->func_samples[i] > d->func_samples[best]))
				best = (int)i;
		if (best < 0)
			break;
		used[best] = 1;
		shown += d->func_samples[best];
		cat(buf, len, "%s %s %.2f%%",
		    shown == d->func_samples[best] ? ":" : ",",
		    d->func_name[best],
		    100.0 * (double)d->func_samples[best] / (double)all);
	}
}

void ls_top_cost(char *buf, size_t len, const struct ls_top_frame *fr)
{
	const struct ls_snapshot *d = fr->delta;
	uint64_t ns = 0;

	snprintf(buf, len, "cost:");
	if (!fr->cost || !d || !d->nprogs) {
		cat(buf, len, " BPF run-time stats unavailable");
	} else {
		for (unsigned p = 0; p < d->nprogs; p++) {
			const struct ls_prog_stat *ps = &d->prog[p];
			char name[32], *sfx;

			/* begin_btf -> begin, cpu_sample -> sample */
			snprintf(name, sizeof(name), "%s",
				 strncmp(ps->name, "cpu_", 4) ? ps->name
							      : ps->name + 4);
			sfx = strrchr(name, '_');
			if (sfx &&
			    (!strcmp(sfx, "_btf") || !strcmp(sfx, "_raw")))
				*sfx = '\0';
			if (ps->run_cnt)
				cat(buf, len, " %s %lluns", name,
				    (unsigned long long)(ps->run_ns /
							 ps->run_cnt));
			else
				cat(buf, len, " %s -", name);
			ns += ps->run_ns;
		}
		cat(buf, len, " per run, BPF %.2f%% CPU",
		    fr->secs > 0 ? 100.0 * (double)ns / (fr->secs * 1e9) : 0.0);
	}
	if (fr->agent_cpu >= 0)
		cat(buf, len, ", agent %.1f%% CPU", fr->agent_cpu);
}

static void loss_line(char *buf, size_t len, const struct ls_top_frame *fr)
{
	const struct ls_snapshot *c = fr->cur, *d = fr->delta;
	int any = 0;

	snprintf(buf, len, "losses:");
	for (unsigned i = 0; i < LS_LOSS_MAX; i++) {
		if (!c->loss[i])
			continue;
		cat(buf, len, "%s %s %llu", any ? "," : "", ls_loss_name(i),
		    (unsigned long long)c->loss[i]);
		if (d && d->loss[i])
			cat(buf, len, " (+%llu)",
			    (unsigned long long)d->loss[i]);
		any = 1;
	}
	if (!any)
		cat(buf, len, " none");
	else
		cat(buf, len, " since start");
}

/*
 * Append @text to @lines as lines of at most @width characters, broken after
 * ", " (else a space), continuation lines indented by two; at most @max
 * lines in all.  Returns the new count.
 */
/* Where to end a line of @p that has @room characters: after ", ", else
 * after a space, else at @room (the whole rest if it fits). */
static int cut_at(const char *p, int room)
{
	int len = (int)strlen(p);

	if (len <= room)
		return len;
	for (int k = room; k > room / 3; k--)
		if (p[k - 1] == ' ' && k >= 2 && p[k - 2] == ',')
			return k;
	for (int k = room; k > room / 3; k--)
		if (p[k - 1] == ' ')
			return k;
	return room;
}

/*
 * Append @text to @lines as lines of at most @width characters, broken by
 * cut_at(), continuation lines indented by two; at most @max lines in all
 * (the last one keeps the rest).  Returns the new count.
 */
static unsigned wrap(char lines[][LS_TOP_LINE], unsigned n, unsigned max,
		     const char *text, int width)
{
	const char *p = text;
	int indent = 0;

	if (width < 20)
		width = 20;
	while (*p && n < max) {
		int cut = n + 1 < max ? cut_at(p, width - indent)
				      : (int)strlen(p);

		snprintf(lines[n], LS_TOP_LINE, "%*s%.*s", indent, "", cut, p);
		n++;
		p += cut;
		indent = 2;
	}
	return n;
}

/* The same into a text page. */
static void fwrap(FILE *f, const char *text, int width)
{
	const char *p = text;
	int indent = 0;

	if (width < 20)
		width = 20;
	while (*p) {
		int cut = cut_at(p, width - indent);

		fprintf(f, "%*s%.*s\n", indent, "", cut, p);
		p += cut;
		indent = 2;
	}
}

unsigned ls_top_header(const struct ls_top *t, const struct ls_top_frame *fr,
		       int width, char lines[][LS_TOP_LINE], unsigned max)
{
	const struct ls_snapshot *d = fr->delta;
	char ts[16], buf[LS_TOP_LINE];
	unsigned n = 0;
	double secs = fr->secs > 0 ? fr->secs : 1;

	strftime(ts, sizeof(ts), "%H:%M:%S", localtime(&fr->when));
	snprintf(buf, sizeof(buf),
		 "lockscope top%s  %s  up %.0fs  every %gs  sources: %s",
		 t->paused ? " [PAUSED]" : "", ts, fr->uptime, t->interval,
		 fr->sources ? fr->sources : "?");
	n = wrap(lines, n, max, buf, width);
	if (d)
		snprintf(buf, sizeof(buf),
			 "events/s: %.0f begins, %.0f ends   locks: %zu of %zu "
			 "  tasks waiting: %zu",
			 (double)d->ctr[LS_CTR_BEGIN] / secs,
			 (double)d->ctr[LS_CTR_END] / secs, t->view.nrows,
			 d->nrows, d->nwaiting);
	else
		snprintf(buf, sizeof(buf),
			 "collecting the first %gs interval ...", t->interval);
	n = wrap(lines, n, max, buf, width);
	if (fr->cur) {
		loss_line(buf, sizeof(buf), fr);
		n = wrap(lines, n, max, buf, width);
	}
	if (d) {
		spin_line(buf, sizeof(buf), fr);
		n = wrap(lines, n, max, buf, width);
		ls_top_cost(buf, sizeof(buf), fr);
		n = wrap(lines, n, max, buf, width);
	}
	return n;
}

void ls_top_status(char *buf, size_t len, const struct ls_top *t)
{
	if (t->editing) {
		snprintf(buf, len, "filter: %s_   (Enter keep, Esc cancel)",
			 t->filter);
		return;
	}
	switch (t->mode) {
	case LS_TOP_DETAIL:
		snprintf(buf, len,
			 "Esc back  arrows scroll  t: histograms %s  o: owner  "
			 "? help  q quit",
			 t->hist_total ? "of the interval" : "since start");
		break;
	case LS_TOP_HELP:
		snprintf(buf, len,
			 "arrows scroll   any other key: back   q quit");
		break;
	case LS_TOP_SORTMENU:
		snprintf(buf, len,
			 "sort by: arrows pick, Enter sort, Esc cancel");
		break;
	default:
		snprintf(buf, len, "sort: %s%s%s%s  ",
			 ls_top_sort_label(t->sort), t->reverse ? " (rev)" : "",
			 t->filter[0] ? "  filter: " : "", t->filter);
		/* a message replaces the key list until the next frame */
		if (t->msg[0])
			cat(buf, len, "%s", t->msg);
		else
			cat(buf, len,
			    "? help / filter <> sort Enter open p pause +- %gs "
			    "q quit",
			    t->interval);
	}
}

/* ---- detail ----------------------------------------------------------- */

static int cmp_since(const void *a, const void *b)
{
	const struct ls_waiter *x = *(const struct ls_waiter *const *)a;
	const struct ls_waiter *y = *(const struct ls_waiter *const *)b;

	if (x->since_ns != y->since_ns)
		return x->since_ns < y->since_ns ? -1 : 1;
	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

static void detail_waiting(FILE *f, const struct ls_snapshot *cur,
			   const struct ls_lock_key *key)
{
	const struct ls_waiter **w;
	size_t n = 0;
	char age[32];

	w = calloc(cur->nwaiting ? cur->nwaiting : 1, sizeof(*w));
	if (!w) {
		fprintf(f, "waiting tasks: (out of memory)\n");
		return;
	}
	for (size_t i = 0; i < cur->nwaiting; i++)
		if (same_key(&cur->waiting[i].key, key))
			w[n++] = &cur->waiting[i];
	qsort(w, n, sizeof(*w), cmp_since);
	if (LS_KIND_IS_SPINNING(key->kind))
		fprintf(f, "waiting tasks: not listed for spinning locks "
			   "(their waits last microseconds)\n");
	else if (!n)
		fprintf(f, "waiting tasks: none when read\n");
	else {
		fprintf(f, "waiting tasks (%zu), longest first:\n", n);
		fprintf(f, "  %8s %8s  %-16s %-6s %s\n", "TID", "PID", "COMM",
			"PHASE", "WAITING");
	}
	for (size_t i = 0; i < n; i++)
		fprintf(f, "  %8u %8u  %-16s %-6s %s\n", w[i]->tid, w[i]->tgid,
			w[i]->comm,
			w[i]->phase == LS_PHASE_SPIN ? "spin" : "sleep",
			ls_top_fmt_ns(age, sizeof(age),
				      cur->waiting_ns > w[i]->since_ns
					      ? cur->waiting_ns - w[i]->since_ns
					      : 0));
	free(w);
}

static void detail_owner(FILE *f, const struct ls_owner *o)
{
	if (!o) {
		fprintf(f, "owner: not read yet\n");
		return;
	}
	switch (o->state) {
	case LS_OWNER_TASK:
		fprintf(f,
			"owner: tid %u (%s), pid %u   (read each refresh, o: "
			"now)\n",
			o->tid, o->comm, o->tgid);
		break;
	case LS_OWNER_NONE:
		fprintf(f, "owner: none, the lock was free   (read each "
			   "refresh, o: now)\n");
		break;
	case LS_OWNER_READERS:
		fprintf(f, "owner: %llu reader%s",
			(unsigned long long)o->nreaders,
			o->nreaders == 1 ? "" : "s");
		/* the owner word keeps the last reader in: a hint, no more */
		if (o->tid)
			fprintf(f, ", the last to enter tid %u (%s)", o->tid,
				o->comm);
		fprintf(f, "   (o: read now)\n");
		break;
	default:
		fprintf(f, "owner: unknown: %s\n", o->why[0] ? o->why : "?");
	}
}

void ls_top_detail(FILE *f, const struct ls_top *t,
		   const struct ls_top_frame *fr, const struct ls_owner *owner,
		   int width)
{
	const struct ls_row *d =
		fr->delta ? ls_snap_find(fr->delta, &t->detail) : NULL;
	const struct ls_row *c =
		fr->cur ? ls_snap_find(fr->cur, &t->detail) : NULL;
	const struct ls_row *h = t->hist_total ? c : d;
	double secs = fr->secs > 0 ? fr->secs : 1, won;
	char a[32], b[32], x[96], y[96];
	int bars;

	if (!c) {
		fprintf(f, "this lock is no longer in the lock table\n");
		return;
	}
	/* two columns: the last interval and the totals since start */
	fprintf(f, "%s (%s)\n", c->name, ls_kind_name(c->key.kind));
	fprintf(f, "  %-22s %24s %24s\n", "", "last interval", "since start");
	if (d) {
		snprintf(x, sizeof(x), "%.1f/s",
			 (double)d->st.contentions / secs);
		fprintf(f, "  %-22s %24s %24llu\n", "contentions", x,
			(unsigned long long)c->st.contentions);
		snprintf(x, sizeof(x), "%.2f / %.2f ms/s",
			 (double)d->st.spin_ns / 1e6 / secs,
			 (double)d->st.sleep_ns / 1e6 / secs);
		ls_top_fmt_ns(a, sizeof(a), c->st.spin_ns);
		ls_top_fmt_ns(b, sizeof(b), c->st.sleep_ns);
		snprintf(y, sizeof(y), "%s / %s", a, b);
		fprintf(f, "  %-22s %24s %24s\n", "spin / sleep", x, y);
		if (d->st.contentions) {
			ls_top_fmt_ns(a, sizeof(a), ls_row_avg_ns(d));
			ls_top_fmt_ns(b, sizeof(b), d->st.max_ns);
			snprintf(x, sizeof(x), "%s / %s%s", a,
				 d->max_bound ? "<" : "", b);
		} else {
			snprintf(x, sizeof(x), "- / -");
		}
		ls_top_fmt_ns(a, sizeof(a), ls_row_avg_ns(c));
		ls_top_fmt_ns(b, sizeof(b), c->st.max_ns);
		snprintf(y, sizeof(y), "%s / %s", a, b);
		fprintf(f, "  %-22s %24s %24s\n", "avg / max wait", x, y);
		snprintf(x, sizeof(x), "%llu / %llu",
			 (unsigned long long)d->st.peak_waiters,
			 (unsigned long long)d->st.gave_up);
		snprintf(y, sizeof(y), "%llu / %llu",
			 (unsigned long long)c->st.peak_waiters_all,
			 (unsigned long long)c->st.gave_up);
		fprintf(f, "  %-22s %24s %24s\n", "peak waiters / gave up", x,
			y);
	} else {
		fprintf(f, "  %-22s %24s %24llu\n", "contentions", "none",
			(unsigned long long)c->st.contentions);
		ls_top_fmt_ns(a, sizeof(a), c->st.spin_ns);
		ls_top_fmt_ns(b, sizeof(b), c->st.sleep_ns);
		snprintf(y, sizeof(y), "%s / %s", a, b);
		fprintf(f, "  %-22s %24s %24s\n", "spin / sleep", "-", y);
		ls_top_fmt_ns(a, sizeof(a), ls_row_avg_ns(c));
		ls_top_fmt_ns(b, sizeof(b), c->st.max_ns);
		snprintf(y, sizeof(y), "%s / %s", a, b);
		fprintf(f, "  %-22s %24s %24s\n", "avg / max wait", "-", y);
	}
	if (c->st.osq_calls || c->st.slow_calls) {
		/* function probes: parts of the wait above, never added to it
		 */
		ls_top_fmt_ns(a, sizeof(a), c->st.osq_ns);
		fprintf(f,
			"osq_lock (part of spin): %s in %llu calls, %llu "
			"bailed out, peak %llu spinners\n",
			a, (unsigned long long)c->st.osq_calls,
			(unsigned long long)c->st.osq_bailouts,
			(unsigned long long)c->st.osq_peak);
		ls_top_fmt_ns(a, sizeof(a), c->st.slow_ns);
		ls_top_fmt_ns(b, sizeof(b), c->st.slow_untraced_ns);
		fprintf(f,
			"slow path: %s in %llu calls, %s outside tracepoint "
			"waits%s\n",
			a, (unsigned long long)c->st.slow_calls, b,
			c->key.kind == LS_KIND_RWSEM_W ? " (writer spin)" : "");
	}
	won = ls_row_spin_won_pct(c);
	fprintf(f, "waiting now: %lld",
		(long long)(c->st.waiters > 0 ? c->st.waiters : 0));
	if (won >= 0)
		fprintf(f,
			"   spin won the lock: %llu of %llu spin phases "
			"(%.1f%%)",
			(unsigned long long)c->st.spin_won,
			(unsigned long long)(c->st.spin_won +
					     c->st.spin_failed),
			won);
	fputc('\n', f);
	detail_owner(f, owner);
	if (c->ncallers) {
		char line[LS_TOP_LINE];

		snprintf(line, sizeof(line),
			 "callers (%llu sampled stacks, one every %u "
			 "contentions):",
			 (unsigned long long)c->caller_samples,
			 fr->stack_every);
		for (unsigned i = 0; i < c->ncallers; i++)
			cat(line, sizeof(line), "%s %s %.0f%%", i ? "," : "",
			    c->callers[i].fn,
			    100.0 * (double)c->callers[i].samples /
				    (double)c->caller_samples);
		fwrap(f, line, width);
	} else {
		fprintf(f,
			"callers: none sampled yet (one stack every %u "
			"contentions)\n",
			fr->stack_every);
	}
	detail_waiting(f, fr->cur, &t->detail);
	fprintf(f, "wait histogram, %s (t: %s):\n",
		t->hist_total ? "since start" : "last interval",
		t->hist_total ? "last interval" : "since start");
	if (!h) {
		fprintf(f, "    (no waits)\n");
		return;
	}
	bars = width - 52;
	if (bars < 10)
		bars = 10;
	if (bars > 60)
		bars = 60;
	if (h->st.spin_ns && h->st.sleep_ns)
		ls_hist_print_w(f, "spin", h->st.hist_spin, "sleep",
				h->st.hist_sleep, bars);
	else if (h->st.spin_ns)
		ls_hist_print_w(f, "spin", h->st.hist_spin, NULL, NULL, bars);
	else
		ls_hist_print_w(f, "sleep", h->st.hist_sleep, NULL, NULL, bars);
}

void ls_top_help(FILE *f)
{
	fputs("lockscope top: the most contended kernel locks, refreshed every "
	      "interval\n"
	      "\n"
	      "Keys\n"
	      "  Up Down PgUp PgDn Home End   select a lock\n"
	      "  Enter                        open it: histograms, callers, "
	      "waiters, owner\n"
	      "  Esc Enter Left (in a lock)   back to the list\n"
	      "  < >   , .                    sort by the column left / right\n"
	      "  s F6                         sort menu\n"
	      "  r I                          reverse the order\n"
	      "  / F3 F4                      filter by name (Esc clears)\n"
	      "  p Space                      pause (the screen keeps its "
	      "interval)\n"
	      "  + -                          longer / shorter interval\n"
	      "  t (in a lock)                histograms of the interval / "
	      "since start\n"
	      "  o (in a lock)                read the owner again\n"
	      "  ? h F1                       this help\n"
	      "  q F10 Ctrl-C                 quit\n"
	      "\n"
	      "Columns (rates over the last interval)\n"
	      "  LOCK     symbol, known lock (mmap_lock, siglock) or "
	      "kind@caller\n"
	      "  CONT/s   contentions per second (lock:contention_begin/end)\n"
	      "  SPINms   ms per second spent spinning (mutex optimistic "
	      "spin,\n"
	      "           spinlocks), SLEEPms the same for sleeping\n"
	      "  AVG MAX  wait per contention; MAX <x: the interval set no "
	      "new\n"
	      "           maximum, its longest wait was below x (histogram)\n"
	      "  WAIT     tasks waiting now; PEAK: most at once in the "
	      "interval\n"
	      "  WON%     mutex spin phases that got the lock without "
	      "sleeping\n"
	      "  CALLER   most sampled caller (a stack every Nth contention)\n"
	      "\n"
	      "Header\n"
	      "  spin:    share of cpu-clock samples inside spin functions\n"
	      "           (osq_lock, mutex_spin_on_owner, queued spinlock slow "
	      "paths)\n"
	      "  cost:    ns per run of each BPF program (BPF run-time "
	      "stats),\n"
	      "           their CPU share, and this program's own CPU share\n"
	      "  losses:  every event not fully recorded, by reason, since "
	      "start\n",
	      f);
}
