// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * cmd_whatif.c - lockscope whatif: a causal experiment.  PROGRAM runs once
 * per round, lock, delay level and arm, in a randomised interleaved order
 * with zero-delay controls; in each run the kernel busy-waits the delay
 * at every contended acquisition of the lock (critical arm) or before it
 * (control arm), and the run's throughput comes from PROGRAM.  The lines
 * of throughput against delay (analysis/whatif.c) say whether the lock's
 * critical section is on the workload's critical path.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <json-c/json.h>
#include "cmd/commands.h"
#include "cmd/numbers.h"
#include "cmd/run.h"
#include "collect/whatif.h"
#include "model/model.h"
#include "util/log.h"
#include "util/outfile.h"
#include "view/whatif_out.h"

#define WIF_POLL_MS 20 /* heartbeat period */
/* The locks PROGRAM creates are selected from the rows read every poll
 * during a run's first WIF_EAGER_S, then every WIF_SELECT_S: a full read
 * of the maps is CPU that PROGRAM's runs would lose to lockscope. */
#define WIF_EAGER_S 0.5
#define WIF_SELECT_S 0.25
#define WIF_KEEP (64 * 1024) /* last bytes of PROGRAM's output kept */
#define WIF_EOF_GRACE_S 1.0  /* PROGRAM gone, its output still open */

struct wif {
	const struct ls_opts *o;
	struct ls_wif_opts wo;	       /* o->wif, the metric resolved */
	char **argv;		       /* PROGRAM, as run */
	char cg_rel[64], cg_dir[4200]; /* PROGRAM's own cgroup, or "" */
	int procs_fd;		       /* its cgroup.procs, or -1 */
	struct ls_collector *c;
	struct ls_snapshot cur, start, delta;
	struct ls_filter filt[LS_WIF_MAX_TARGETS];
	struct ls_wif_exp e;
	/* zero runs: the selected locks' tenure and wait, summed */
	uint64_t ten_ns[LS_WIF_MAX_TARGETS], tens[LS_WIF_MAX_TARGETS];
	uint64_t wait_ns[LS_WIF_MAX_TARGETS], waits[LS_WIF_MAX_TARGETS];
	struct ls_lock_key sel[LS_WIF_MAX_LOCKS];
	unsigned nsel;
	int sel_full; /* a matching lock found no room in wif_sel */
	char out[2 * WIF_KEEP];
	size_t nout;
};

static double mono_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Keep PROGRAM's output, its last WIF_KEEP bytes at least; 1 at EOF. */
static int drain(struct wif *w, int fd)
{
	for (;;) {
		ssize_t r;

		if (w->nout + 4096 > sizeof(w->out)) {
			memmove(w->out, w->out + w->nout - WIF_KEEP, WIF_KEEP);
			w->nout = WIF_KEEP;
		}
		r = read(fd, w->out + w->nout, 4096);
		if (r > 0) {
			w->nout += (size_t)r;
			continue;
		}
		if (!r)
			return 1;
		return errno == EAGAIN || errno == EINTR ? 0 : 1;
	}
}

static int key_selected(const struct wif *w, const struct ls_lock_key *k)
{
	for (unsigned i = 0; i < w->nsel; i++)
		if (!ls_key_cmp(&w->sel[i], k))
			return 1;
	return 0;
}

/* Select every lock of target @t that contended since the run began. */
static void select_active(struct wif *w, unsigned t)
{
	struct ls_wif_target *g = &w->e.t[t];

	for (size_t i = 0; i < w->cur.nrows; i++) {
		const struct ls_row *r = &w->cur.rows[i], *s0;

		if (!ls_row_match(r, &w->filt[t]) || key_selected(w, &r->key))
			continue;
		s0 = ls_snap_find(&w->start, &r->key);
		if (s0 && s0->st.begins == r->st.begins &&
		    s0->st.contentions == r->st.contentions)
			continue;
		if (w->nsel == LS_WIF_MAX_LOCKS ||
		    ls_whatif_select(w->c, &r->key)) {
			w->sel_full = 1;
			continue;
		}
		w->sel[w->nsel++] = r->key;
		if (!g->name[0]) {
			snprintf(g->name, sizeof(g->name), "%s", r->name);
			g->kind = r->key.kind;
		}
	}
}

/* The zero run's tenure and wait of the locks selected for @t. */
static void add_tenure(struct wif *w, unsigned t)
{
	if (ls_snap_delta(&w->cur, &w->start, &w->delta))
		return;
	for (size_t i = 0; i < w->delta.nrows; i++) {
		const struct ls_row *r = &w->delta.rows[i];

		if (!key_selected(w, &r->key))
			continue;
		w->ten_ns[t] += r->st.tenure_ns;
		w->tens[t] += ls_row_tenures(r);
		w->wait_ns[t] += r->st.total_ns;
		w->waits[t] += r->st.contentions;
	}
}

static int read_cur(struct wif *w)
{
	int err = ls_collector_read(w->c, &w->cur);

	if (err)
		ls_fail_errno("read", "BPF maps", err);
	return err;
}

/*
 * One run of PROGRAM: delay @delay_ns in @mode at the locks of target
 * @t (t < 0: none, the pre-run).  Fills @rec; 0, or 1 after printing why.
 */
static int run_once(struct wif *w, int t, enum ls_wif_mode mode,
		    uint64_t delay_ns, struct ls_wif_run_rec *rec)
{
	struct ls_child child = {0};
	double t0, t_end = 0, t_done = 0, t_read = 0;
	int fds[2], eof = 0, rc = 1;
	size_t nsel;

	w->nout = 0;
	w->nsel = 0;
	w->sel_full = 0;
	ls_whatif_clear(w->c);
	if (read_cur(w) || ls_snap_copy(&w->start, &w->cur))
		return 1;
	if (pipe2(fds, O_CLOEXEC)) {
		ls_fail_errno("create", "a pipe for PROGRAM's output", -errno);
		return 1;
	}
	fcntl(fds[0], F_SETFL, O_NONBLOCK);
	if (t >= 0)
		ls_whatif_arm(w->c, mode, delay_ns, w->e.budget_ns);
	t0 = mono_s();
	if (ls_child_start_cg(&child, w->argv, fds[1], w->procs_fd)) {
		ls_whatif_disarm(w->c);
		close(fds[0]);
		close(fds[1]);
		return 1;
	}
	close(fds[1]);
	while (!ls_stop) {
		struct pollfd p = {fds[0], POLLIN, 0};

		if (!eof && poll(&p, 1, WIF_POLL_MS) > 0 && drain(w, fds[0])) {
			eof = 1;
			t_end = mono_s();
		}
		if (eof) {
			struct timespec step = {0, WIF_POLL_MS * 1000000L};

			nanosleep(&step, NULL);
		}
		ls_whatif_beat(w->c);
		if (t >= 0 && (mono_s() - t0 < WIF_EAGER_S ||
			       mono_s() - t_read >= WIF_SELECT_S)) {
			t_read = mono_s();
			if (!read_cur(w))
				select_active(w, (unsigned)t);
		}
		if (ls_wait(0, &child) && !t_done)
			t_done = mono_s();
		if (t_done && (eof || mono_s() - t_done > WIF_EOF_GRACE_S))
			break;
	}
	ls_whatif_disarm(w->c); /* every delay stops here */
	ls_child_finish(&child);
	if (ls_stop) {
		ls_fail("finish", "the experiment",
			"interrupted (every delay stopped)");
		goto out;
	}
	rec->wall_s = (eof && t_end < t_done ? t_end : t_done) - t0;
	if (child.status) {
		char why[96];

		snprintf(why, sizeof(why), "PROGRAM exited with status %d",
			 child.status);
		ls_fail("run", "the experiment", why);
		goto out;
	}
	if (ls_whatif_counts(w->c, &rec->cnt, &nsel) || read_cur(w))
		goto out;
	rec->nsel = (unsigned)nsel;
	if (t >= 0 && !delay_ns)
		add_tenure(w, (unsigned)t);
	if (ls_wif_metric_value(&w->wo, w->out, w->nout, rec->wall_s,
				&rec->tput)) {
		ls_fail("read", "PROGRAM's throughput",
			"its output has no such figure");
		if (w->wo.metric == LS_METRIC_STRESSNG)
			ls_hint("give stress-ng --metrics-brief");
		goto out;
	}
	rc = 0;
out:
	close(fds[0]);
	return rc;
}

static void set_filters(struct wif *w)
{
	for (unsigned t = 0; t < w->e.nt; t++) {
		struct ls_filter *f = &w->filt[t];

		*f = (struct ls_filter){0};
		if (ls_parse_addr(w->e.t[t].spec, &f->addr))
			f->name = w->e.t[t].spec;
	}
}

/*
 * Without -L or without --delays: one run of PROGRAM without delays (the
 * pre-run).  Without -L, its most waited-on locks are the targets;
 * without --delays, the levels are sized from the targets' contention
 * rate in it.
 */
static int prerun(struct wif *w)
{
	unsigned want = w->o->count_set ? w->o->count : LS_WIF_DEF_TOP;
	struct ls_wif_run_rec rec = {0};
	double top = 0;
	unsigned at = 0;

	if (want > LS_WIF_MAX_TARGETS)
		want = LS_WIF_MAX_TARGETS;
	if (run_once(w, -1, LS_WIF_OFF, 0, &rec) ||
	    ls_snap_delta(&w->cur, &w->start, &w->delta))
		return 1;
	ls_rows_sort(w->delta.rows, w->delta.nrows, LS_SORT_TOTAL, 0);
	for (size_t i = 0;
	     !w->o->wif.nlocks && i < w->delta.nrows && w->e.nt < want; i++) {
		const struct ls_row *r = &w->delta.rows[i];
		struct ls_wif_target *g = &w->e.t[w->e.nt];

		if (!r->st.contentions)
			continue;
		ls_row_class(r, g->spec, sizeof(g->spec));
		w->e.nt++;
		w->e.picked = 1;
	}
	if (!w->e.nt) {
		ls_fail("pick", "locks", "PROGRAM contended on no lock");
		return 1;
	}
	set_filters(w);
	if (w->wo.ndelays)
		return 0;
	for (unsigned t = 0; t < w->e.nt; t++) {
		uint64_t n = 0;

		for (size_t i = 0; i < w->delta.nrows; i++)
			if (ls_row_match(&w->delta.rows[i], &w->filt[t]))
				n += w->delta.rows[i].st.contentions;
		if (rec.wall_s > 0 && (double)n / rec.wall_s > top) {
			top = (double)n / rec.wall_s;
			at = t;
		}
	}
	ls_wif_auto_delays(&w->wo, top, w->e.ncpus);
	fprintf(stderr,
		"lockscope: whatif: delays %g,%g,%g us, sized from the "
		"pre-run: %.0f contended acquisitions/s of %s\n",
		w->wo.delays_us[0], w->wo.delays_us[1], w->wo.delays_us[2], top,
		w->e.t[at].spec);
	return 0;
}

/*
 * PROGRAM's own cgroup v2, so that only its tasks' acquisitions are seen
 * and delayed (the collector's --cgroup filter), never another process's
 * use of the same lock.  Without cgroup v2: said, and the experiment goes
 * on with every task's acquisitions.
 */
static void scope_start(struct wif *w, struct ls_collector_opts *co)
{
	char mount[4096], procs[4300];
	const char *no = ls_cgroup_check(mount, sizeof(mount));

	w->procs_fd = -1;
	snprintf(w->cg_rel, sizeof(w->cg_rel), "/lockscope-whatif.%d",
		 (int)getpid());
	snprintf(w->cg_dir, sizeof(w->cg_dir), "%s%s", no ? "" : mount,
		 w->cg_rel);
	snprintf(procs, sizeof(procs), "%s/cgroup.procs", w->cg_dir);
	if (no || mkdir(w->cg_dir, 0755) ||
	    (w->procs_fd = open(procs, O_WRONLY | O_CLOEXEC)) < 0) {
		fprintf(stderr,
			"lockscope: PROGRAM cannot have a cgroup of its own "
			"(%s): other processes' acquisitions of the chosen "
			"locks are delayed too\n",
			no ? no : strerror(errno));
		if (!no)
			rmdir(w->cg_dir);
		w->cg_dir[0] = 0;
		return;
	}
	co->cgroup = w->cg_rel;
}

static void scope_stop(struct wif *w)
{
	if (w->procs_fd >= 0)
		close(w->procs_fd);
	if (w->cg_dir[0] && rmdir(w->cg_dir))
		fprintf(stderr, "lockscope: failed to remove %s: %s\n",
			w->cg_dir, strerror(errno));
}

/* PROGRAM's command line as run, and the metric --metric auto picks:
 * stress-ng is given --metrics-brief when it prints no metrics. */
static int program_argv(struct wif *w)
{
	size_t n = 0;

	w->argv = w->o->argv;
	if (!ls_wif_auto_metric(&w->wo, w->o->argv))
		goto said;
	while (w->o->argv[n])
		n++;
	w->argv = calloc(n + 2, sizeof(*w->argv));
	if (!w->argv) {
		ls_fail("allocate", "PROGRAM's command line", strerror(ENOMEM));
		return 1;
	}
	memcpy(w->argv, w->o->argv, n * sizeof(*w->argv));
	w->argv[n] = (char *)"--metrics-brief";
said:
	if (w->o->wif.metric == LS_METRIC_AUTO)
		fprintf(stderr,
			"lockscope: whatif: throughput from %s%s (--metric "
			"auto)\n",
			w->wo.metric == LS_METRIC_STRESSNG
				? "stress-ng's bogo ops/s (real time)"
				: "PROGRAM's wall time (1/s)",
			w->argv != w->o->argv
				? "; --metrics-brief added to its command line"
				: "");
	return 0;
}

static int experiment(struct wif *w)
{
	const struct ls_wif_opts *wo = &w->wo;
	struct ls_wif_run *sched;
	size_t n;
	double t0 = mono_s();

	sched = calloc((size_t)wo->rounds * w->e.nt * ls_wif_block(wo->ndelays),
		       sizeof(*sched));
	w->e.runs =
		calloc((size_t)wo->rounds * w->e.nt * ls_wif_block(wo->ndelays),
		       sizeof(*w->e.runs));
	if (!sched || !w->e.runs) {
		free(sched);
		ls_fail("allocate", "the schedule", strerror(ENOMEM));
		return 1;
	}
	n = ls_wif_schedule(w->e.nt, wo->ndelays, wo->rounds, w->e.seed, sched);
	fprintf(stderr,
		"lockscope: whatif PERTURBS the kernel on purpose: busy-waits "
		"of up to %g us at every contended acquisition of %u lock%s "
		"(capped at %llu us, %llu%% of each CPU per second), %zu runs "
		"of PROGRAM%s; Ctrl-C stops every delay at once\n",
		wo->delays_us[wo->ndelays - 1], w->e.nt, w->e.nt > 1 ? "s" : "",
		(unsigned long long)(LS_WIF_CAP_NS / 1000),
		(unsigned long long)(w->e.budget_ns * 100 / LS_WIF_WINDOW_NS),
		n, wo->placebo ? " (placebo: nothing injected)" : "");
	for (size_t i = 0; i < n; i++) {
		struct ls_wif_run_rec *rec = &w->e.runs[i];
		const struct ls_wif_run *r = &sched[i];
		double us = r->arm == LS_ARM_ZERO ? 0 : wo->delays_us[r->level];
		uint64_t ns = wo->placebo ? 0 : (uint64_t)(us * 1000 + 0.5);

		rec->run = *r;
		rec->delay_us = us;
		if (run_once(w, r->target,
			     r->arm == LS_ARM_CONTROL ? LS_WIF_CONTROL
						      : LS_WIF_CRITICAL,
			     ns, rec)) {
			free(sched);
			return 1;
		}
		w->e.nruns++;
		if (w->sel_full)
			fprintf(stderr,
				"lockscope: run %zu: more than %d locks "
				"matched '%s': the first %d were delayed\n",
				i + 1, LS_WIF_MAX_LOCKS, w->e.t[r->target].spec,
				LS_WIF_MAX_LOCKS);
	}
	free(sched);
	for (unsigned t = 0; t < w->e.nt; t++) {
		struct ls_wif_target *g = &w->e.t[t];

		g->tenure_is_wait = !w->tens[t];
		g->tenure_us = w->tens[t] ? (double)w->ten_ns[t] /
						    (double)w->tens[t] / 1e3
			       : w->waits[t] ? (double)w->wait_ns[t] /
						       (double)w->waits[t] / 1e3
					     : 0;
	}
	memcpy(w->e.loss, w->cur.loss, sizeof(w->e.loss));
	w->e.secs = mono_s() - t0;
	ls_wif_exp_analyse(&w->e);
	return 0;
}

static int print_result(struct wif *w, struct ls_out *out)
{
	struct json_object *j;

	if (!w->o->json)
		ls_wif_print(stdout, &w->e);
	if (!w->o->json && !w->o->output)
		return 0;
	j = ls_wif_to_json(&w->e);
	if (!j) {
		ls_fail("allocate", "the JSON result", strerror(ENOMEM));
		return 1;
	}
	if (w->o->json)
		puts(json_object_to_json_string_ext(j,
						    JSON_C_TO_STRING_PRETTY));
	if (w->o->output)
		fprintf(out->f, "%s\n",
			json_object_to_json_string_ext(
				j, JSON_C_TO_STRING_PRETTY));
	json_object_put(j);
	return w->o->output && ls_out_commit(out) ? 1 : 0;
}

int ls_cmd_whatif(const struct ls_opts *o)
{
	struct ls_collector_opts co = o->col;
	struct ls_wif_probe probe;
	struct ls_out out = {0};
	enum ls_start_err why;
	struct wif *w;
	int rc = 1, err;

	ls_whatif_check(&probe);
	if (!probe.can_run) {
		ls_fail("run", "whatif", probe.why);
		return 1;
	}
	if (o->output) { /* a bad path fails now, not after the runs */
		err = ls_out_open(&out, o->output);
		if (err)
			return ls_out_open_status(err);
	}
	w = calloc(1, sizeof(*w));
	if (!w) {
		ls_fail("allocate", "the experiment", strerror(ENOMEM));
		goto abort;
	}
	w->o = o;
	w->wo = o->wif;
	ls_snap_init(&w->cur);
	ls_snap_init(&w->start);
	ls_snap_init(&w->delta);
	w->e.rounds = o->wif.rounds;
	w->e.placebo = o->wif.placebo;
	w->e.budget_ns = LS_WIF_DEF_BUDGET_NS;
	w->e.seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
	w->e.ctx_how = probe.why;
	w->e.ncpus = (unsigned)sysconf(_SC_NPROCESSORS_ONLN);
	for (unsigned i = 0; i < o->wif.nlocks; i++)
		snprintf(w->e.t[i].spec, sizeof(w->e.t[i].spec), "%s",
			 o->wif.locks[i]);
	w->e.nt = o->wif.nlocks;
	ls_install_signals();
	co.whatif = 1;
	co.sample_hz = 0; /* no sampler: nothing runs in perf_event context */
	co.forget = 0;
	scope_start(w, &co);
	w->c = ls_collector_start(&co, &why);
	if (!w->c) {
		rc = why == LS_START_BAD_INPUT ? 2 : 1;
		goto cleanup;
	}
	if (program_argv(w))
		goto cleanup;
	w->e.unit = ls_wif_metric_unit(&w->wo);
	if (!w->e.nt || !w->wo.ndelays) {
		if (prerun(w))
			goto cleanup;
	} else {
		set_filters(w);
	}
	w->e.ndelays = w->wo.ndelays;
	memcpy(w->e.delays_us, w->wo.delays_us, sizeof(w->e.delays_us));
	if (experiment(w))
		goto cleanup;
	rc = print_result(w, &out);
	out.f = NULL; /* committed (or failed and removed) */
	for (unsigned t = 0; t < w->e.nt; t++)
		if (!w->e.t[t].name[0]) {
			char obj[LS_NAME_MAX + 16];

			snprintf(obj, sizeof(obj), "lock '%s'", w->e.t[t].spec);
			ls_fail("find", obj,
				"no lock of that name or address contended in "
				"PROGRAM's runs: nothing was delayed");
			ls_hint("'lockscope hist -- PROGRAM' names the locks "
				"PROGRAM contends on");
			rc = 1;
		}
cleanup:
	ls_collector_stop(w->c);
	scope_stop(w);
	ls_snap_free(&w->cur);
	ls_snap_free(&w->start);
	ls_snap_free(&w->delta);
	free(w->e.runs);
	if (w->argv && w->argv != o->argv)
		free(w->argv);
	free(w);
abort:
	if (o->output && out.f)
		ls_out_abort(&out);
	return rc;
}
