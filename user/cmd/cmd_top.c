// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * cmd_top.c - the live view: a full-screen view on a terminal, plain text
 * frames (-b, or stdout not a terminal) otherwise.  This loop reads the
 * collector; the views only get snapshots.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include "cmd/commands.h"
#include "util/log.h"
#include "util/outfile.h"
#include "cmd/run.h"
#include "view/top_text.h"
#include "view/text.h"
#include "view/tui.h"

/* The first frame comes after at most this long: data within 0.5 s of exec
 * (attaching takes about 0.2 s; 0.1 s of data under contention shows it). */
#define LS_FIRST_FRAME_S 0.1

/* One command's collector, snapshots and clocks. */
struct top_run {
	const struct ls_opts *o;
	struct ls_collector *c;
	struct ls_snapshot tot, delta; /* totals since start, the interval */
	int have_delta;
	struct ls_top_frame fr;
	char srcs[256];	 /* "tracepoints (tp_btf), ..." for batch frames */
	char names[128]; /* "tracepoints, cpu sampler" for the screen */
	uint64_t t0;	 /* mono ns of the first read */
	double cpu_prev; /* agent CPU seconds at the previous read */
	struct ls_child child;
};

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static double cpu_secs(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru))
		return -1;
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
	       (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

static void source_names(const struct ls_source *src, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < LS_SRC_MAX && off < len; i++)
		if (src[i].active)
			off += (size_t)snprintf(buf + off, len - off, "%s%s",
						off ? ", " : "", src[i].name);
}

/* Read the maps and make the interval's delta in place (one snapshot of
 * totals, refreshed: the delta holds the changed rows); 0 or -errno. */
static int next_frame(struct top_run *r)
{
	uint64_t prev_ns = r->tot.mono_ns;
	double cpu;
	int err = ls_snap_delta_start(&r->delta, &r->tot);

	if (!err)
		err = ls_collector_read(r->c, &r->tot);
	if (err)
		return err;
	ls_collector_next_epoch(r->c);
	err = ls_snap_delta_finish(&r->delta, &r->tot);
	if (err)
		return err;
	r->have_delta = 1;
	cpu = cpu_secs();
	r->fr.delta = &r->delta;
	r->fr.cur = &r->tot;
	r->fr.secs = (double)(r->tot.mono_ns - prev_ns) / 1e9;
	if (r->fr.secs <= 0)
		r->fr.secs = 1e-9;
	r->fr.uptime = (double)(r->tot.mono_ns - r->t0) / 1e9;
	r->fr.agent_cpu = cpu >= 0 && r->cpu_prev >= 0
				  ? 100.0 * (cpu - r->cpu_prev) / r->fr.secs
				  : -1;
	r->fr.when = time(NULL);
	r->cpu_prev = cpu;
	return 0;
}

/* Seconds to the next frame: the first one comes early. */
static double frame_wait(double interval, uint32_t frames)
{
	return !frames && interval > LS_FIRST_FRAME_S ? LS_FIRST_FRAME_S
						      : interval;
}

static int run_batch(struct top_run *r)
{
	const struct ls_opts *o = r->o;
	uint32_t frames = 0;
	int err = 0;
	/* frames keep time: each is due one interval after the one before
	 * was due, not after it was printed (a read of a big table would
	 * otherwise push every later frame back by its own length) */
	uint64_t due = r->tot.mono_ns;

	while (!ls_stop) {
		uint64_t now = mono_ns();
		int last;
		char cost[LS_TOP_LINE];

		due += (uint64_t)(frame_wait(o->interval, frames) * 1e9);
		if (due < now && now - due > (uint64_t)(o->interval * 1e9))
			due = now; /* more than a frame behind: start again */
		last = ls_wait(due > now ? (double)(due - now) / 1e9 : 0,
			       &r->child);

		err = next_frame(r);
		if (err)
			break;
		ls_snap_filter(&r->delta, &o->filter);
		ls_rows_sort_first(r->delta.rows, r->delta.nrows, o->sort, 0,
				   o->nlocks);
		ls_top_cost(cost, sizeof(cost), &r->fr);
		ls_print_frame(stdout, &r->delta, r->fr.secs, o->nlocks,
			       r->srcs, cost);
		/* a frame at a time to a pipe or a file; a write error ends
		 * the run (reported: -ECANCELED) */
		if (ls_out_flush(stdout, "standard output"))
			return -ECANCELED;
		frames++; /* every frame: only the first comes early */
		if (last || (o->count_set && frames >= o->count))
			break;
	}
	return err;
}

static void read_owner(struct top_run *r, struct ls_top *t,
		       struct ls_owner *owner, int *have)
{
	if (t->mode != LS_TOP_DETAIL)
		return;
	ls_collector_owner(r->c, &t->detail, owner);
	*have = 1;
}

static int run_tui(struct top_run *r)
{
	const struct ls_opts *o = r->o;
	struct ls_owner owner;
	struct ls_top t;
	uint64_t deadline;
	uint32_t frames = 0;
	int err = 0, have_owner = 0;

	ls_top_init(&t, o->sort, o->interval);
	if (ls_tui_start()) {
		ls_top_free(&t);
		return -ECANCELED;
	}
	ls_tui_draw(&t, &r->fr, NULL);
	deadline = r->tot.mono_ns + (uint64_t)(frame_wait(t.interval, 0) * 1e9);
	while (!ls_stop) {
		uint64_t now = mono_ns();
		int key, flags, stop;

		if (now >= deadline) {
			if (!t.paused) {
				err = next_frame(r);
				if (err)
					break;
				err = ls_top_view(&t, &r->delta, &o->filter);
				if (err)
					break;
				read_owner(r, &t, &owner, &have_owner);
				t.msg[0] = '\0';
				ls_tui_draw(&t, &r->fr,
					    have_owner ? &owner : NULL);
				if (o->count_set && ++frames >= o->count)
					break;
			}
			deadline = (t.paused ? now : r->tot.mono_ns) +
				   (uint64_t)(t.interval * 1e9);
		}
		stop = ls_wait(0, &r->child); /* signal, or PROGRAM ended */
		if (stop) {
			if (!ls_stop && r->child.done && !t.paused) {
				/* one last frame with the program's end */
				if (!next_frame(r) &&
				    !ls_top_view(&t, &r->delta, &o->filter))
					ls_tui_draw(&t, &r->fr,
						    have_owner ? &owner : NULL);
			}
			break;
		}
		/* keys for up to 100 ms, then look at signals and the clock */
		now = mono_ns();
		key = ls_tui_key(now >= deadline ? 0
				 : deadline - now > 100000000ULL
					 ? 100
					 : (int)((deadline - now) / 1000000));
		if (key == -1)
			continue;
		if (key == LS_TUI_RESIZE) {
			ls_tui_draw(&t, &r->fr, have_owner ? &owner : NULL);
			continue;
		}
		flags = ls_top_key(&t, key);
		if (flags & LS_TOP_QUIT)
			break;
		if (flags & LS_TOP_REVIEW) {
			err = ls_top_view(&t, r->have_delta ? &r->delta : NULL,
					  &o->filter);
			if (err)
				break;
		}
		if (flags & LS_TOP_OWNER)
			read_owner(r, &t, &owner, &have_owner);
		if (flags & LS_TOP_RETIME)
			deadline =
				r->tot.mono_ns + (uint64_t)(t.interval * 1e9);
		if (flags & LS_TOP_REDRAW)
			ls_tui_draw(&t, &r->fr, have_owner ? &owner : NULL);
	}
	ls_tui_stop();
	ls_top_free(&t);
	return err;
}

/* Under the full-screen view the program's output goes to a file. */
static int child_log(char *path, size_t len)
{
	int fd;

	snprintf(path, len, "/tmp/lockscope-top-XXXXXX");
	fd = mkstemp(path);
	if (fd < 0)
		ls_fail_errno("create", path, errno);
	return fd;
}

int ls_cmd_top(const struct ls_opts *o)
{
	struct ls_collector_opts col = o->col;
	int batch = o->batch || !isatty(STDOUT_FILENO);
	char whybuf[160];
	const char *unusable =
		batch ? NULL : ls_tui_unusable(whybuf, sizeof(whybuf));
	struct top_run r;
	char logpath[64] = "";
	enum ls_start_err why;
	int err = 0, rc = 0, logfd = -1;

	if (unusable) { /* not asked for: the default view falls back */
		fprintf(stderr,
			"lockscope: no full-screen view: %s; printing plain "
			"text frames (-b)\n",
			unusable);
		batch = 1;
	}
	memset(&r, 0, sizeof(r));
	r.o = o;
	ls_snap_init(&r.tot);
	ls_snap_init(&r.delta);
	ls_install_signals();
	col.run_stats = 1;	   /* the header shows lockscope's own cost */
	col.read_waiting = !batch; /* the detail view lists waiting tasks */
	r.c = ls_collector_start(&col, &why);
	if (!r.c)
		return why == LS_START_BAD_INPUT ? 2 : 1;
	ls_sources_active(ls_collector_sources(r.c), LS_SRC_MAX, r.srcs,
			  sizeof(r.srcs));
	source_names(ls_collector_sources(r.c), r.names, sizeof(r.names));
	r.fr.sources = r.names;
	r.fr.sampler = ls_collector_sources(r.c)[LS_SRC_SAMPLER].active;
	r.fr.sample_hz = col.sample_hz;
	r.fr.stack_every = col.stack_every;
	r.fr.cost = 1;
	r.fr.agent_cpu = -1;
	r.fr.when = time(NULL);
	r.cpu_prev = cpu_secs();
	err = ls_collector_read(r.c, &r.tot);
	r.t0 = r.tot.mono_ns;
	r.fr.cur = &r.tot;
	if (!err && o->argv) {
		if (!batch) {
			logfd = child_log(logpath, sizeof(logpath));
			if (logfd < 0) {
				rc = 1;
				goto out;
			}
		}
		err = ls_child_start_io(&r.child, o->argv, logfd);
		if (err) {
			rc = 1;
			goto out;
		}
	}
	if (!err)
		err = batch ? run_batch(&r) : run_tui(&r);
	if (err == -ECANCELED) {
		rc = 1;
	} else if (err) {
		ls_fail_errno("read", "BPF maps", err);
		rc = 1;
	}
out:
	ls_child_finish(&r.child);
	rc = ls_exit_status(&r.child, rc);
	if (logfd >= 0) {
		struct stat st;

		if (!fstat(logfd, &st) && st.st_size > 0)
			fprintf(stderr,
				"lockscope: the output of %s is in %s\n",
				o->argv[0], logpath);
		else
			unlink(logpath);
		close(logfd);
	}
	ls_snap_free(&r.tot);
	ls_snap_free(&r.delta);
	ls_collector_stop(r.c);
	return rc;
}
