// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The live view's model without a terminal: rates, interval extrema, layout,
 * row and header text, sorting, filtering, keys, detail text, owner words. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "model/hist.h"
#include "model/model.h"
#include "view/hist_text.h"
#include "view/text.h"
#include "view/top_model.h"
#include "view/top_text.h"

#define MS 1000000ULL

static struct ls_row *mkrow(struct ls_snapshot *s, uint64_t addr, unsigned kind,
			    const char *name, uint64_t n, uint64_t spin,
			    uint64_t sleep)
{
	struct ls_lock_key k = {.addr = addr, .kind = kind};
	struct ls_row *r = ls_snap_add_row(s, &k);

	snprintf(r->name, sizeof(r->name), "%s", name);
	r->st.contentions = n;
	r->st.begins = n;
	r->st.spin_ns = spin;
	r->st.sleep_ns = sleep;
	r->st.total_ns = spin + sleep;
	r->st.min_ns = 500;
	r->st.max_ns = n ? (spin + sleep) / n * 4 : 0;
	if (n) {
		r->hi.hist[ls_hist_slot((spin + sleep) / n)] = n;
		r->hi.hist_spin[ls_hist_slot(spin / n + 1)] = n;
	}
	return r;
}

/* Three locks; the genl mutex leads in count and spin, mmap_lock in sleep. */
static void fill(struct ls_snapshot *s)
{
	struct ls_row *r;

	ls_snap_init(s);
	r = mkrow(s, 0x1000, LS_KIND_MUTEX, "mutex@genl_rcv_msg", 13173,
		  24860000, 720000);
	r->st.spin_won = 13000;
	r->st.spin_failed = 173;
	r->st.waiters = 1;
	r->st.peak_waiters = 2;
	ls_row_add_caller(r, "genl_rcv_msg", 10);
	mkrow(s, 0x2000, LS_KIND_RWSEM_W, "mmap_lock", 18, 0, 122 * MS);
	r = mkrow(s, 0x3000, LS_KIND_SPINLOCK, "spinlock@__schedule", 128,
		  2530000, 0);
	ls_row_add_caller(r, "__schedule", 3);
	ls_snap_index(s);
}

static const char *row_name(const struct ls_top *t, size_t i)
{
	return i < t->nview ? t->view[i]->name : "(none)";
}

static void layout_widths(void **state)
{
	struct ls_top_layout l;
	int end;

	(void)state;
	ls_top_layout(&l, 80);
	assert_false(l.shown[LS_COL_CALLER]); /* no room at 80 columns */
	assert_int_equal(l.w[LS_COL_NAME], 19);
	end = l.x[LS_COL_WON] + l.w[LS_COL_WON];
	assert_int_equal(end, 80);
	for (int c = 1; c < LS_COL_PRE; c++)
		assert_int_equal(l.x[c], l.x[c - 1] + l.w[c - 1] + 1);
	assert_false(l.shown[LS_COL_PRE]); /* from 85 columns on */
	ls_top_layout(&l, 85);
	assert_true(l.shown[LS_COL_PRE]);
	assert_int_equal(l.w[LS_COL_NAME], 19);
	assert_int_equal(l.x[LS_COL_PRE] + l.w[LS_COL_PRE], 85);

	ls_top_layout(&l, 120);
	assert_true(l.shown[LS_COL_PRE]);
	assert_int_equal(l.x[LS_COL_PRE],
			 l.x[LS_COL_WON] + l.w[LS_COL_WON] + 1);
	assert_true(l.shown[LS_COL_CALLER]);
	assert_true(l.w[LS_COL_NAME] > 19);
	assert_int_equal(l.x[LS_COL_CALLER] + l.w[LS_COL_CALLER], 120);

	ls_top_layout(&l, 60); /* narrow: columns drop, the name keeps 12 */
	assert_false(l.shown[LS_COL_WON]);
	assert_false(l.shown[LS_COL_PEAK]);
	assert_true(l.shown[LS_COL_COUNT] && l.shown[LS_COL_SPIN]);
	assert_true(l.w[LS_COL_NAME] >= 12);
	for (int c = 0; c < LS_COL_NR; c++)
		if (l.shown[c])
			assert_true(l.x[c] + l.w[c] <= 60);
}

static void row_text(void **state)
{
	struct ls_snapshot s;
	struct ls_top_layout l;
	char b[LS_TOP_LINE];

	(void)state;
	fill(&s);
	ls_top_layout(&l, 80);
	ls_top_titles(b, sizeof(b), &l);
	assert_string_equal(b, "LOCK                KIND     CONT/s SPINms "
			       "SLEEPms    AVG     MAX WAIT PEAK WON%");
	/* rates over a 1 s interval, then over 2 s: halved */
	ls_top_row(b, sizeof(b),
		   ls_snap_find(
			   &s, &(struct ls_lock_key){0x1000, LS_KIND_MUTEX, 0}),
		   1.0, &l);
	assert_string_equal(b, "mutex@genl_rcv_msg  mutex     13173   24.9    "
			       "0.72 1.94us  7.76us    1    2   99");
	ls_top_row(b, sizeof(b),
		   ls_snap_find(
			   &s, &(struct ls_lock_key){0x1000, LS_KIND_MUTEX, 0}),
		   2.0, &l);
	assert_string_equal(b, "mutex@genl_rcv_msg  mutex      6586   12.4    "
			       "0.36 1.94us  7.76us    1    2   99");
	/* a sleeping lock: no spin phases, so no WON% */
	ls_top_row(b, sizeof(b),
		   ls_snap_find(&s, &(struct ls_lock_key){0x2000,
							  LS_KIND_RWSEM_W, 0}),
		   1.0, &l);
	assert_string_equal(b, "mmap_lock           rwsem:W      18      0     "
			       "122 6.78ms  27.1ms    0    0    -");
	assert_true(strlen(b) <= 80);
	/* wide: the caller column appears */
	ls_top_layout(&l, 120);
	ls_top_row(b, sizeof(b), &s.rows[0], 1.0, &l);
	assert_non_null(strstr(b, " genl_rcv_msg"));
	assert_true(strlen(b) <= 120);
	ls_snap_free(&s);
}

/* top -b prints a row's AVG and MAX exactly as the full screen does (they
 * had two formatters: "1.9us" in batch frames, "1.94us" on the screen). */
static void batch_cells_match_screen(void **state)
{
	struct ls_snapshot s;
	struct ls_top_layout l;
	char b[LS_TOP_LINE], *buf = NULL, *line;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	unsigned rows = 0;

	(void)state;
	fill(&s);
	/* waiters, no wait this interval: "-" on both */
	mkrow(&s, 0x4000, LS_KIND_MUTEX, "mutex@text_poke_set", 0, 0, 0)
		->st.waiters = 2;
	ls_snap_index(&s);
	ls_top_layout(&l, 80);
	ls_print_frame(f, &s, 1.0, 10, "tracepoints", NULL);
	fclose(f);
	for (line = strtok(buf, "\n"); line; line = strtok(NULL, "\n")) {
		char name[64], kind[16], avg[16], mx[16], want[2][16];
		const struct ls_row *r = NULL;

		if (sscanf(line, "%63s %15s %*s %*s %*s %15s %15s", name, kind,
			   avg, mx) != 4)
			continue;
		for (size_t i = 0; i < s.nrows; i++)
			if (!strcmp(s.rows[i].name, name))
				r = &s.rows[i];
		if (!r)
			continue;
		/* the screen's cells, cut out of its row */
		ls_top_row(b, sizeof(b), r, 1.0, &l);
		snprintf(want[0], sizeof(want[0]), "%.*s", l.w[LS_COL_AVG],
			 b + l.x[LS_COL_AVG]);
		snprintf(want[1], sizeof(want[1]), "%.*s", l.w[LS_COL_MAX],
			 b + l.x[LS_COL_MAX]);
		assert_string_equal(avg, want[0] + strspn(want[0], " "));
		assert_string_equal(mx, want[1] + strspn(want[1], " "));
		rows++;
	}
	assert_int_equal(rows, 4);
	free(buf);
	ls_snap_free(&s);
}

static void interval_extrema(void **state)
{
	struct ls_snapshot prev, cur, d;
	struct ls_row *p, *c;

	(void)state;
	ls_snap_init(&prev);
	ls_snap_init(&cur);
	ls_snap_init(&d);
	p = mkrow(&prev, 0x1000, LS_KIND_MUTEX, "a", 100, 100000, 0);
	p->st.max_ns = 10 * MS;
	p->st.waiters = 3;
	p->st.peak_epoch = 4;
	p->st.peak_waiters = 5;
	c = mkrow(&cur, 0x1000, LS_KIND_MUTEX, "a", 110, 110000, 0);
	/* ten more waits of about 1us: no new maximum */
	c->st.max_ns = 10 * MS;
	memcpy(c->hi.hist, p->hi.hist, sizeof(c->hi.hist));
	c->hi.hist[ls_hist_slot(1000)] += 10;
	c->st.waiters = 1;
	c->st.peak_epoch = 4; /* no wait began in epoch 5 */
	c->st.peak_waiters = 5;
	cur.epoch = 5;
	ls_snap_index(&prev);
	ls_snap_index(&cur);
	assert_int_equal(ls_snap_delta(&cur, &prev, &d), 0);
	assert_int_equal(d.nrows, 1);
	assert_int_equal(d.rows[0].st.contentions, 10);
	/* the interval's longest wait is below the top of its slot */
	assert_true(d.rows[0].max_bound);
	assert_int_equal(d.rows[0].st.max_ns, 1024);
	/* the gauge stood at 3 when the interval began and only fell */
	assert_int_equal(d.rows[0].st.peak_waiters, 3);

	/* a new maximum in the interval is exact; a begin in the epoch keeps
	 * the kernel's peak */
	cur.rows[0].st.max_ns = 20 * MS;
	cur.rows[0].hi.hist[ls_hist_slot(20 * MS)]++;
	cur.rows[0].st.contentions++;
	cur.rows[0].st.peak_epoch = 5;
	cur.rows[0].st.peak_waiters = 7;
	assert_int_equal(ls_snap_delta(&cur, &prev, &d), 0);
	assert_false(d.rows[0].max_bound);
	assert_int_equal(d.rows[0].st.max_ns, 20 * MS);
	assert_int_equal(d.rows[0].st.peak_waiters, 7);
	ls_snap_free(&prev);
	ls_snap_free(&cur);
	ls_snap_free(&d);
}

static void view_sort_filter(void **state)
{
	struct ls_snapshot s;
	struct ls_filter base = {0};
	struct ls_top t;

	(void)state;
	fill(&s);
	ls_top_init(&t, LS_SORT_TOTAL, 1.0);
	assert_int_equal(ls_top_view(&t, &s, &base), 0);
	assert_int_equal(t.nview, 3);
	assert_string_equal(row_name(&t, 0), "mmap_lock"); /* 122 ms total */
	assert_string_equal(row_name(&t, 1), "mutex@genl_rcv_msg");

	/* '>' walks from total to name, kind, count: each re-sorts */
	assert_true(ls_top_key(&t, '>') & LS_TOP_REVIEW);
	assert_int_equal(t.sort, LS_SORT_NAME);
	ls_top_view(&t, &s, &base);
	assert_string_equal(row_name(&t, 0), "mmap_lock");
	assert_string_equal(row_name(&t, 2), "spinlock@__schedule");
	ls_top_key(&t, '>');
	ls_top_key(&t, '>');
	assert_int_equal(t.sort, LS_SORT_COUNT);
	ls_top_view(&t, &s, &base);
	assert_string_equal(row_name(&t, 0), "mutex@genl_rcv_msg");
	assert_string_equal(row_name(&t, 2), "mmap_lock");
	assert_true(ls_top_key(&t, 'r') & LS_TOP_REVIEW); /* reversed */
	ls_top_view(&t, &s, &base);
	assert_string_equal(row_name(&t, 0), "mmap_lock");
	/* '<' at the first key stays there */
	t.sort = LS_SORT_TOTAL;
	assert_int_equal(ls_top_key(&t, '<'), 0);

	/* spin won %: the mutex (99%) above locks without spin phases */
	t.sort = LS_SORT_WON;
	t.reverse = 0;
	ls_top_view(&t, &s, &base);
	assert_string_equal(row_name(&t, 0), "mutex@genl_rcv_msg");

	/* the typed filter narrows, Esc while typing restores */
	ls_top_key(&t, '/');
	assert_true(t.editing);
	ls_top_key(&t, 'g');
	assert_true(ls_top_key(&t, 'e') & LS_TOP_REVIEW);
	ls_top_key(&t, 'n');
	ls_top_view(&t, &s, &base);
	assert_int_equal(t.nview, 1);
	assert_string_equal(row_name(&t, 0), "mutex@genl_rcv_msg");
	assert_int_equal(t.nrows_all, 3);
	ls_top_key(&t, LS_KEY_BACKSPACE);
	assert_string_equal(t.filter, "ge");
	ls_top_key(&t, LS_KEY_ESC);
	assert_false(t.editing);
	assert_string_equal(t.filter, "");
	ls_top_view(&t, &s, &base);
	assert_int_equal(t.nview, 3);
	/* Enter keeps it; Esc in the list clears it */
	ls_top_key(&t, '/');
	ls_top_key(&t, 'm');
	ls_top_key(&t, 'm');
	ls_top_key(&t, LS_KEY_ENTER);
	assert_false(t.editing);
	ls_top_view(&t, &s, &base);
	assert_int_equal(t.nview, 1);
	assert_string_equal(row_name(&t, 0), "mmap_lock");
	ls_top_key(&t, LS_KEY_ESC);
	ls_top_view(&t, &s, &base);
	assert_int_equal(t.nview, 3);
	/* the command line's filter applies underneath */
	base.kind_mask = 1U << LS_KIND_SPINLOCK;
	ls_top_view(&t, &s, &base);
	assert_int_equal(t.nview, 1);
	assert_string_equal(row_name(&t, 0), "spinlock@__schedule");
	ls_top_free(&t);
	ls_snap_free(&s);
}

static void keys_and_modes(void **state)
{
	struct ls_snapshot s;
	struct ls_filter base = {0};
	struct ls_top t;
	int f;

	(void)state;
	fill(&s);
	ls_top_init(&t, LS_SORT_COUNT, 1.0);
	ls_top_set_page(&t, 2);
	ls_top_view(&t, &s, &base);
	/* the selection follows its lock once moved, and stays on screen */
	ls_top_key(&t, LS_KEY_DOWN);
	assert_int_equal(t.sel, 1);
	assert_string_equal(row_name(&t, 1), "spinlock@__schedule");
	t.sort = LS_SORT_NAME;
	ls_top_view(&t, &s, &base);
	assert_string_equal(row_name(&t, t.sel), "spinlock@__schedule");
	assert_int_equal(t.sel, 2);
	assert_int_equal(t.top, 1);
	ls_top_key(&t, LS_KEY_HOME);
	assert_int_equal(t.sel, 0);
	assert_int_equal(t.top, 0);

	/* Enter opens the selected lock and asks for its owner */
	f = ls_top_key(&t, LS_KEY_ENTER);
	assert_true(f & LS_TOP_OWNER);
	assert_int_equal(t.mode, LS_TOP_DETAIL);
	assert_int_equal(t.detail.addr, 0x2000); /* mmap_lock, first by name */
	ls_top_key(&t, 't');
	assert_true(t.hist_total);
	ls_top_key(&t, '?');
	assert_int_equal(t.mode, LS_TOP_HELP);
	ls_top_key(&t, 'x'); /* any key leaves help, back to the lock */
	assert_int_equal(t.mode, LS_TOP_DETAIL);
	ls_top_key(&t, LS_KEY_ESC);
	assert_int_equal(t.mode, LS_TOP_LIST);

	/* pause, interval ladder */
	ls_top_key(&t, 'p');
	assert_true(t.paused);
	ls_top_key(&t, 'p');
	assert_false(t.paused);
	assert_true(ls_top_key(&t, '+') & LS_TOP_RETIME);
	assert_true(t.interval == 2.0);
	ls_top_key(&t, '-');
	ls_top_key(&t, '-');
	assert_true(t.interval == 0.5);
	assert_true(ls_top_interval_step(60, 1) == 60);
	assert_true(ls_top_interval_step(0.1, -1) == 0.1);
	assert_true(ls_top_interval_step(1.5, 1) == 2);
	assert_true(ls_top_interval_step(1.5, -1) == 1);

	/* the sort menu picks a key */
	ls_top_key(&t, 's');
	assert_int_equal(t.mode, LS_TOP_SORTMENU);
	ls_top_key(&t, LS_KEY_UP);
	f = ls_top_key(&t, LS_KEY_ENTER);
	assert_true(f & LS_TOP_REVIEW);
	assert_int_equal(t.mode, LS_TOP_LIST);
	assert_int_equal(t.sort, LS_SORT_TOTAL);
	ls_top_key(&t, LS_KEY_F0 + 6);
	assert_int_equal(t.mode, LS_TOP_SORTMENU);
	ls_top_key(&t, LS_KEY_ESC);
	assert_int_equal(t.sort, LS_SORT_TOTAL);

	/* q quits from the list, a lock and help; typed into a filter it
	 * is a letter */
	assert_true(ls_top_key(&t, 'q') & LS_TOP_QUIT);
	assert_true(ls_top_key(&t, LS_KEY_F0 + 10) & LS_TOP_QUIT);
	ls_top_key(&t, '/');
	assert_false(ls_top_key(&t, 'q') & LS_TOP_QUIT);
	assert_string_equal(t.filter, "q");
	ls_top_free(&t);
	ls_snap_free(&s);
}

static void header_text(void **state)
{
	struct ls_snapshot cur, d;
	struct ls_top t;
	struct ls_top_frame fr = {0};
	char lines[LS_TOP_HEADER_LINES][LS_TOP_LINE];
	unsigned n;

	(void)state;
	fill(&cur);
	fill(&d);
	d.ctr[LS_CTR_BEGIN] = 26000;
	d.ctr[LS_CTR_END] = 25990;
	d.nfuncs = 2;
	snprintf(d.func_name[0], sizeof(d.func_name[0]), "osq_lock");
	snprintf(d.func_name[1], sizeof(d.func_name[1]), "mutex_spin_on_owner");
	d.func_samples[0] = 3;
	d.func_samples[1] = 1;
	d.func_samples[LS_SPIN_FUNC_OTHER] = 96;
	d.func_samples[LS_SPIN_FUNC_USER] = 100;
	d.nprogs = 3;
	snprintf(d.prog[0].name, sizeof(d.prog[0].name), "begin_btf");
	d.prog[0].run_cnt = 26000;
	d.prog[0].run_ns = 26000 * 94;
	snprintf(d.prog[1].name, sizeof(d.prog[1].name), "end_btf");
	d.prog[1].run_cnt = 25990;
	d.prog[1].run_ns = 25990 * 80;
	snprintf(d.prog[2].name, sizeof(d.prog[2].name), "cpu_sample");
	cur.loss[LS_LOSS_END_UNMATCHED] = 7;
	d.loss[LS_LOSS_END_UNMATCHED] = 2;
	d.steal.ncpus = 2; /* steal ticks this interval */
	d.steal.cpu[1] = d.steal.total = (uint64_t)sysconf(_SC_CLK_TCK) / 2;
	ls_top_init(&t, LS_SORT_TOTAL, 2.0);
	ls_top_view(&t, &d, NULL);
	fr.delta = &d;
	fr.cur = &cur;
	fr.secs = 2.0;
	fr.uptime = 10;
	fr.sources = "tracepoints, cpu sampler";
	fr.sampler = 1;
	fr.cost = 1;
	fr.agent_cpu = 0.4;
	fr.when = 0;
	n = ls_top_header(&t, &fr, 80, lines, LS_TOP_HEADER_LINES);
	assert_int_equal(n, 6);
	assert_string_equal(lines[5], "steal (hypervisor): 0.50s (cpu0 0.00s, "
				      "cpu1 0.50s)");
	for (unsigned i = 0; i < n; i++)
		assert_true(strlen(lines[i]) <= 80);
	assert_non_null(strstr(lines[0],
			       "every 2s  sources: tracepoints, cpu sampler"));
	assert_string_equal(lines[1], "events/s: 13000 begins, 12995 ends   "
				      "locks: 3 of 3   tasks waiting: 0");
	assert_string_equal(lines[2],
			    "losses: end without begin 7 (+2) since start");
	assert_string_equal(lines[3],
			    "spin: 2.00% of CPU (4 of 200 samples): osq_lock "
			    "1.50%, mutex_spin_on_owner 0.50%");
	assert_string_equal(lines[4], "cost: begin 94ns end 80ns sample - per "
				      "run, BPF 0.23% CPU, agent 0.4% CPU");

	/* paused; no losses; sampler off; stats off */
	t.paused = 1;
	memset(cur.loss, 0, sizeof(cur.loss));
	fr.sampler = 0;
	fr.cost = 0;
	n = ls_top_header(&t, &fr, 60, lines, LS_TOP_HEADER_LINES);
	assert_non_null(strstr(lines[0], "lockscope top [PAUSED]"));
	for (unsigned i = 0; i < n; i++) {
		assert_true(strlen(lines[i]) <= 60);
		if (!strncmp(lines[i], "losses", 6))
			assert_string_equal(lines[i], "losses: none");
	}
	/* a narrow screen wraps the long lines instead of cutting them */
	assert_true(n > 5);
	ls_top_free(&t);
	ls_snap_free(&cur);
	ls_snap_free(&d);
}

static char *detail(const struct ls_top *t, const struct ls_top_frame *fr,
		    const struct ls_owner *o)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	ls_top_detail(f, t, fr, o, 80);
	fclose(f);
	return buf;
}

/* Issue 11 item 11: a program's ns per run needs LS_TOP_COST_MIN_RUNS runs
 * in the interval before it means something ("begin 44728ns" from a
 * handful of cold runs on an idle system). */
static void cost_needs_runs(void **state)
{
	struct ls_snapshot d;
	struct ls_top_frame fr = {0};
	char b[LS_TOP_LINE];

	(void)state;
	ls_snap_init(&d);
	d.nprogs = 3;
	snprintf(d.prog[0].name, sizeof(d.prog[0].name), "begin_btf");
	d.prog[0].run_cnt = 3; /* idle: three cold runs */
	d.prog[0].run_ns = 3 * 44728;
	snprintf(d.prog[1].name, sizeof(d.prog[1].name), "end_btf");
	d.prog[1].run_cnt = LS_TOP_COST_MIN_RUNS - 1;
	d.prog[1].run_ns = (LS_TOP_COST_MIN_RUNS - 1) * 900;
	snprintf(d.prog[2].name, sizeof(d.prog[2].name), "cpu_sample");
	d.prog[2].run_cnt = LS_TOP_COST_MIN_RUNS;
	d.prog[2].run_ns = LS_TOP_COST_MIN_RUNS * 1182;
	fr.delta = &d;
	fr.secs = 1.0;
	fr.cost = 1;
	fr.agent_cpu = -1;
	ls_top_cost(b, sizeof(b), &fr);
	/* the CPU share still counts every run */
	assert_string_equal(b, "cost: begin - end - sample 1182ns per run, "
			       "BPF 0.03% CPU");
}

static void detail_text(void **state)
{
	struct ls_snapshot cur, d;
	struct ls_waiter w = {.key = {0x1000, LS_KIND_MUTEX, 0}, .tgid = 40};
	struct ls_owner o = {.state = LS_OWNER_TASK, .tid = 41, .tgid = 40};
	struct ls_top t;
	struct ls_top_frame fr = {.secs = 1, .stack_every = 64};
	char *text, *a, *b;

	(void)state;
	fill(&cur);
	fill(&d);
	cur.waiting_ns = 10 * MS;
	w.tid = 42; /* waiting 3 ms, sleeping */
	w.since_ns = 7 * MS;
	w.phase = LS_PHASE_SLEEP;
	snprintf(w.comm, sizeof(w.comm), "stress-ng-netli");
	ls_snap_add_waiter(&cur, &w);
	w.tid = 43; /* waiting 5 ms: listed first */
	w.since_ns = 5 * MS;
	ls_snap_add_waiter(&cur, &w);
	w.tid = 44; /* on another lock: not listed */
	w.key.addr = 0x2000;
	ls_snap_add_waiter(&cur, &w);
	snprintf(o.comm, sizeof(o.comm), "stress-ng-netli");
	ls_top_init(&t, LS_SORT_TOTAL, 1.0);
	t.detail = (struct ls_lock_key){0x1000, LS_KIND_MUTEX, 0};
	fr.delta = &d;
	fr.cur = &cur;
	text = detail(&t, &fr, &o);
	assert_non_null(strstr(text, "mutex@genl_rcv_msg (mutex)\n"));
	assert_non_null(strstr(text, "13173.0/s"));
	assert_non_null(
		strstr(text, "owner: tid 41 (stress-ng-netli), pid 40"));
	assert_non_null(strstr(text, "callers (10 sampled stacks, one every 64 "
				     "contentions): genl_rcv_msg 100%"));
	a = strstr(text, "       43       40  stress-ng-netli  sleep  5.00ms");
	b = strstr(text, "       42       40  stress-ng-netli  sleep  3.00ms");
	assert_non_null(a);
	assert_non_null(b);
	assert_true(a < b);
	assert_null(strstr(text, "       44 "));
	assert_non_null(strstr(text, "waiting tasks (2), longest first"));
	/* the histogram comes from hist.c, spin only here */
	assert_non_null(strstr(text, "wait histogram, last interval"));
	assert_non_null(strstr(text, "1.0us -> 2.0us"));
	free(text);

	o.state = LS_OWNER_READERS;
	o.nreaders = 2;
	text = detail(&t, &fr, &o);
	assert_non_null(strstr(text, "owner: 2 readers, the last to enter tid "
				     "41 (stress-ng-netli)"));
	free(text);
	o.state = LS_OWNER_NONE;
	text = detail(&t, &fr, &o);
	assert_non_null(strstr(text, "owner: none, the lock was free"));
	free(text);
	o.state = LS_OWNER_UNKNOWN;
	snprintf(o.why, sizeof(o.why),
		 "the kernel refused the owner reader: EPERM");
	text = detail(&t, &fr, &o);
	assert_non_null(strstr(
		text,
		"owner: unknown: the kernel refused the owner reader: EPERM"));
	free(text);

	/* long caller lists wrap at the page width instead of being cut */
	ls_row_add_caller(&cur.rows[0], "a_rather_long_kernel_function_name",
			  5);
	ls_row_add_caller(&cur.rows[0], "another_rather_long_function_name", 4);
	ls_row_add_caller(&cur.rows[0], "yet_another_long_function_name", 3);
	text = detail(&t, &fr, &o);
	for (char *l = strtok(text, "\n"); l; l = strtok(NULL, "\n"))
		assert_true(strlen(l) <= 80);
	free(text);
	text = detail(&t, &fr, &o);
	assert_non_null(strstr(text, "yet_another_long_function_name 14%"));
	free(text);

	/* a spinlock lists no waiting tasks; a lock gone from the interval
	 * still shows its totals */
	t.detail = (struct ls_lock_key){0x3000, LS_KIND_SPINLOCK, 0};
	d.nrows = 0;
	text = detail(&t, &fr, NULL);
	assert_non_null(strstr(text, "spinlock@__schedule (spinlock)"));
	assert_non_null(strstr(text, "not listed for spinning locks"));
	assert_non_null(strstr(text, "  contentions                            "
				     "    none                      128\n"));
	assert_non_null(strstr(text, "owner: not read yet"));
	free(text);
	ls_top_free(&t);
	ls_snap_free(&cur);
	ls_snap_free(&d);
}

static void cgrow(struct ls_snapshot *s, uint32_t role, uint64_t cgid,
		  uint64_t n, uint64_t ns, const char *path)
{
	struct ls_cgrow r = {
		.key = {0x1000, LS_KIND_MUTEX, 0}, .role = role, .cgid = cgid};

	r.v.waits = role == LS_CG_WAITER ? n : 0;
	r.v.begins = role == LS_CG_HOLDER ? n : 0;
	r.v.wait_ns = ns;
	r.v.max_ns = ns ? MS : 0;
	snprintf(r.path, sizeof(r.path), "%s", path);
	assert_int_equal(ls_snap_add_cgrow(s, &r), 0);
}

/* top --by cgroup: the detail page lists the interval's waiters and
 * holders by cgroup, as rates like the rows; nothing without it. */
static void detail_cgroups(void **state)
{
	struct ls_snapshot cur, d;
	struct ls_top t;
	struct ls_top_frame fr = {.secs = 2, .stack_every = 64};
	char *text, *a, *b;

	(void)state;
	fill(&cur);
	fill(&d);
	ls_top_init(&t, LS_SORT_TOTAL, 1.0);
	t.detail = (struct ls_lock_key){0x1000, LS_KIND_MUTEX, 0};
	fr.delta = &d;
	fr.cur = &cur;
	text = detail(&t, &fr, NULL);
	assert_null(strstr(text, "cgroup"));
	free(text);

	cur.by_cgroup = d.by_cgroup = 1;
	cgrow(&d, LS_CG_WAITER, 7, 3172, 2 * MS, "/b");
	cgrow(&d, LS_CG_WAITER, 5, 10000, 40 * MS, "/a");
	cgrow(&d, LS_CG_HOLDER, 5, 5000, 0, "/a");
	qsort(d.cgrows, d.ncgrows, sizeof(*d.cgrows), ls_cgrow_cmp);
	text = detail(&t, &fr, NULL);
	assert_non_null(strstr(text, "waits by waiter cgroup (2 cgroups, last "
				     "interval):\n"));
	/* 2 s: 10000 waits are 5000/s, 40 ms of wait 20 ms/s; the share is
	 * of the waits with a cgroup (13172) */
	a = strstr(text, "  /a                                     "
			 "        5000   75.9%     20.00\n");
	b = strstr(text, "  /b                                     "
			 "        1586   24.1%      1.00\n");
	assert_non_null(a);
	assert_non_null(b);
	assert_true(a < b); /* most wait time first */
	/* holders: the share is of all waits begun (13173) */
	assert_non_null(strstr(text, "  /a                                     "
				     "        2500   38.0%\n"));
	assert_non_null(strstr(text, "waits begun by holder cgroup (1 cgroup, "
				     "last interval):\n"));
	for (char *l = strtok(text, "\n"); l; l = strtok(NULL, "\n"))
		if (strlen(l) > 80)
			fail_msg("%zu columns: %s", strlen(l), l);
	free(text);

	/* a lock without waits this interval says so */
	d.nrows = 0;
	text = detail(&t, &fr, NULL);
	assert_non_null(
		strstr(text, "waits by cgroup: none in the last interval\n"));
	free(text);
	ls_top_free(&t);
	ls_snap_free(&cur);
	ls_snap_free(&d);
}

static void owner_words(void **state)
{
	struct ls_owner o;

	(void)state;
	ls_owner_decode(&o, LS_KIND_MUTEX, 0, 0, 0);
	assert_int_equal(o.state, LS_OWNER_NONE);
	/* flag bits alone (waiters, handoff) name no owner */
	ls_owner_decode(&o, LS_KIND_MUTEX, 0x3, 0, 0);
	assert_int_equal(o.state, LS_OWNER_NONE);
	ls_owner_decode(&o, LS_KIND_MUTEX, 0xffff888012345681ULL, 0, 1);
	assert_int_equal(o.state, LS_OWNER_TASK);
	ls_owner_decode(&o, LS_KIND_MUTEX, 0xffff888012345681ULL, 0, 0);
	assert_int_equal(o.state, LS_OWNER_UNKNOWN);
	assert_non_null(strstr(o.why, "no live task"));
	/* rwsem: a writer, three readers, free */
	ls_owner_decode(&o, LS_KIND_RWSEM_W, 0xffff888012345680ULL, 0x1, 1);
	assert_int_equal(o.state, LS_OWNER_TASK);
	ls_owner_decode(&o, LS_KIND_RWSEM_R, 0xffff888012345681ULL, 3 << 8, 1);
	assert_int_equal(o.state, LS_OWNER_READERS);
	assert_int_equal(o.nreaders, 3);
	/* bit 63 of the count is a flag, not readers */
	ls_owner_decode(&o, LS_KIND_RWSEM_R, 0, 1ULL << 63, 0);
	assert_int_equal(o.state, LS_OWNER_NONE);
}

static void hist_width(void **state)
{
	__u64 a[LS_HIST_SLOTS] = {0}, b[LS_HIST_SLOTS] = {0};
	char *buf = NULL, *line;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	a[10] = 8;
	b[12] = 2;
	ls_hist_print(f, "spin", a, "sleep", b, 40);
	fclose(f);
	/* every line: 50 characters and the bars; the largest bar is full */
	for (line = strtok(buf, "\n"); line; line = strtok(NULL, "\n"))
		assert_int_equal(strlen(line), 50 + 40);
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(layout_widths),
		cmocka_unit_test(row_text),
		cmocka_unit_test(batch_cells_match_screen),
		cmocka_unit_test(interval_extrema),
		cmocka_unit_test(view_sort_filter),
		cmocka_unit_test(keys_and_modes),
		cmocka_unit_test(header_text),
		cmocka_unit_test(cost_needs_runs),
		cmocka_unit_test(detail_text),
		cmocka_unit_test(detail_cgroups),
		cmocka_unit_test(owner_words),
		cmocka_unit_test(hist_width),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
