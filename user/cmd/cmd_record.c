// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * cmd_record.c - record per-lock stats of a run (a benchmark) to a file:
 * totals, run metadata and, with -i, one snapshot per interval.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <argp.h>
#include <sys/utsname.h>
#include "cmd/commands.h"
#include "cmd/folded_out.h"
#include "util/log.h"
#include "util/outfile.h"
#include "util/untrusted_text.h"
#include "export/record_write.h"
#include "cmd/run.h"

static double mono_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static enum ls_rec_format rec_format(int f)
{
	return f == LS_FMT_CSV	 ? LS_REC_CSV
	       : f == LS_FMT_LKP ? LS_REC_LKP
				 : LS_REC_JSON;
}

/* One interval, made in place in @d since the read before (@prev_ns): its
 * delta joins the series. */
static int add_interval(struct ls_series *series, struct ls_snapshot *d,
			struct ls_snapshot *tot, uint64_t prev_ns, uint64_t t0,
			int with_addr)
{
	int err = ls_snap_delta_finish(d, tot);

	if (err)
		return err;
	ls_rows_sort(d->rows, d->nrows, LS_SORT_TOTAL, 0);
	return ls_series_add(series, d, (double)(tot->mono_ns - t0) / 1e9,
			     (double)(tot->mono_ns - prev_ns) / 1e9, with_addr);
}

/* Read @tot again in place, the rows it changes saved into @d: a failed
 * read is undone, so @tot holds the last good one (*@kept), unless undoing
 * it ran out of memory; 0 or -errno. */
static int read_again(struct ls_collector *c, struct ls_snapshot *tot,
		      struct ls_snapshot *d, int *kept)
{
	int err = ls_snap_delta_start(d, tot), undo;

	*kept = 1;
	if (err)
		return err;
	err = ls_collector_read(c, tot);
	if (err && (undo = ls_snap_delta_abort(d, tot))) {
		ls_fail_errno("keep", "the last good read", undo);
		*kept = 0;
	}
	return err;
}

/* Say once how many cgroup names the record holds changed (escaped or
 * cut: util/untrusted_text.h), each cgroup counted once. */
static void note_changed_cgroups(const struct ls_snapshot *s)
{
	size_t n = 0, esc = 0, cut = 0;

	for (size_t i = 0; i < s->ncgrows; i++) {
		const struct ls_cgrow *c = &s->cgrows[i];
		int seen = 0;

		if (!c->path_changed)
			continue;
		for (size_t j = 0; j < i && !seen; j++)
			seen = s->cgrows[j].path_changed &&
			       s->cgrows[j].cgid == c->cgid;
		if (seen)
			continue;
		n++;
		esc += !!(c->path_changed & LS_TEXT_ESCAPED);
		cut += !!(c->path_changed & LS_TEXT_CUT);
	}
	if (n)
		fprintf(stderr,
			"lockscope: %zu cgroup name%s written changed: %zu "
			"with unsafe bytes as \\xHH, %zu cut to their last "
			"%d bytes (cgroup_changed in the record)\n",
			n, n == 1 ? "" : "s", esc, cut, LS_CG_PATH_MAX - 4);
}

static int write_record(const struct ls_opts *o, struct ls_collector *c,
			struct ls_out *out, struct ls_folded_out *fo,
			struct ls_rec_meta *m, const struct ls_snapshot *start,
			const struct ls_snapshot *final,
			struct ls_series *series, size_t *nlocks)
{
	struct ls_stacks stacks;
	struct ls_snapshot tot;
	char why[256] = "", obj[300], a[257];
	int err, ret;

	ls_snap_init(&tot);
	ls_stacks_init(&stacks);
	err = ls_snap_delta(final, start, &tot);
	if (!err) {
		/* stacks from the first read to the last, like the totals */
		ls_snap_filter(&tot, &o->filter);
		err = ls_collector_stacks(c, &tot, &stacks);
		ls_stacks_sort(&stacks);
	}
	if (err) {
		ls_stacks_free(&stacks);
		ls_snap_free(&tot);
		ls_out_abort(out);
		ls_fail_errno("build", "the record", err);
		return err;
	}
	ls_rows_sort(tot.rows, tot.nrows, LS_SORT_TOTAL, 0);
	*nlocks = tot.nrows;
	if (rec_format(o->format) == LS_REC_JSON)
		note_changed_cgroups(&tot);
	m->stacks = &stacks;
	err = ls_folded_finish(fo, &stacks);
	if (err) { /* said by folded_out.c */
		ls_stacks_free(&stacks);
		ls_snap_free(&tot);
		ls_out_abort(out);
		return err;
	}
	err = ls_record_write(out->f, m, &tot, series, final, &o->filter,
			      rec_format(o->format), why, sizeof(why));
	ls_stacks_free(&stacks);
	ls_snap_free(&tot);
	if (err && err != -EIO) {
		snprintf(obj, sizeof(obj), "file '%s'",
			 ls_text_safe(a, sizeof(a), o->output));
		ls_out_abort(out);
		if (err == -EINVAL)
			ls_fail("write", obj, why);
		else
			ls_fail_errno("write", obj, err);
		return err;
	}
	/* -EIO: the stream failed; the commit's flush names the reason
	 * (ENOSPC, ...) and keeps the old file */
	ret = ls_out_commit(out);
	return ret ? ret : err;
}

int ls_cmd_record(const struct ls_opts *o)
{
	/* the first read, the totals since (refreshed in place: the last
	 * good read) and an interval's delta, made in place */
	struct ls_snapshot start, tot, d;
	const struct ls_snapshot *final = &tot;
	struct ls_child child = {0};
	struct ls_series series;
	struct ls_folded_out fo;
	struct ls_collector *c;
	struct ls_rec_meta m = {0};
	struct utsname un;
	struct ls_out out;
	double t_start;
	size_t nlocks = 0;
	enum ls_start_err why;
	int err, rc = 0;

	ls_snap_init(&start);
	ls_snap_init(&tot);
	ls_snap_init(&d);
	ls_series_init(&series);
	ls_install_signals();
	/* a bad path fails now, not after the benchmark */
	err = ls_out_open(&out, o->output);
	if (err)
		return ls_out_open_status(err);
	rc = ls_folded_open(&fo, o->folded);
	if (rc) {
		ls_out_abort(&out);
		return rc;
	}
	if (o->interval_set) {
		const char *dir;

		err = ls_series_open(&series, &dir);
		if (err) {
			char obj[300], a[257];

			snprintf(obj, sizeof(obj), "a scratch file in '%s'",
				 ls_text_safe(a, sizeof(a), dir));
			ls_fail_errno("create", obj, err);
			ls_hint("-i keeps the intervals there until the end; "
				"set TMPDIR to a directory with room");
			ls_folded_abort(&fo);
			ls_out_abort(&out);
			return ls_out_open_status(err);
		}
	}
	c = ls_collector_start(&o->col, &why);
	if (!c) {
		ls_folded_abort(&fo);
		ls_out_abort(&out);
		return why == LS_START_BAD_INPUT ? 2 : 1;
	}
	m.started = time(NULL);
	err = ls_collector_read(c, &tot);
	t_start = mono_s();
	if (!err)
		err = ls_collector_mark_stacks(c, &tot);
	if (!err)
		err = ls_snap_copy(&start, &tot);
	if (err) {
		ls_fail_errno("read", "BPF maps", err);
		rc = 1;
		goto out_abort;
	}
	if (o->argv) {
		err = ls_child_start(&child, o->argv);
		if (err) {
			rc = 1;
			goto out_abort;
		}
	}
	if (!o->argv && !o->duration)
		fprintf(stderr, "lockscope: recording lock contention, Ctrl-C "
				"to end\n");
	for (unsigned long k = 1;; k++) {
		double now = mono_s() - t_start;
		double end = o->duration ? o->duration : 1e9;
		uint64_t prev_ns;
		int last, kept;

		if (now >= end)
			break;
		/* intervals end on a grid from the start, so the time spent
		 * reading counters does not push later intervals back */
		if (o->interval_set && k * o->interval < end)
			end = k * o->interval;
		last = ls_wait(end > now ? end - now : 0, &child);
		prev_ns = tot.mono_ns;
		err = read_again(c, &tot, &d, &kept);
		if (err) {
			/* keep what the last good read had */
			ls_fail_errno("read", "BPF maps", err);
			rc = 1;
			if (!kept)
				final = &start; /* the one left */
			break;
		}
		if (o->interval_set) {
			ls_collector_next_epoch(c);
			err = add_interval(&series, &d, &tot, prev_ns,
					   start.mono_ns, o->col.with_addr);
			if (err) {
				ls_fail_errno("keep", "the time series", err);
				rc = 1;
				break;
			}
		}
		if (last)
			break;
	}
	m.interrupted = !!ls_stop;
	ls_child_finish(&child);

	m.version = argp_program_version;
	uname(&un);
	m.kernel_release = un.release;
	m.kernel_version = un.version;
	m.machine = un.machine;
	m.cpus = (unsigned)sysconf(_SC_NPROCESSORS_ONLN);
	m.ls_argv = o->all_argv;
	m.ls_argc = o->all_argc;
	m.argv = o->argv;
	m.argc = o->argc;
	m.exit_status = child.status;
	m.duration_s = (double)(final->mono_ns - start.mono_ns) / 1e9;
	m.interval_s = o->interval_set ? o->interval : 0;
	m.src = ls_collector_sources(c);
	m.nsrc = LS_SRC_MAX;
	m.col = &o->col;
	m.filter = &o->filter;
	if (write_record(o, c, &out, &fo, &m, &start, final, &series, &nlocks))
		rc = 1;
	else if (strcmp(o->output, "-"))
		fprintf(stderr,
			"lockscope: recorded %zu locks in %.1fs%s to %s\n",
			nlocks, m.duration_s,
			m.interrupted ? " (interrupted)" : "", o->output);
	goto out;
out_abort:
	ls_out_abort(&out);
out:
	ls_folded_abort(&fo);
	rc = ls_exit_status(&child, rc);
	ls_series_free(&series);
	ls_snap_free(&start);
	ls_snap_free(&tot);
	ls_snap_free(&d);
	ls_collector_stop(c);
	return ls_exit_status(&child, rc);
}
