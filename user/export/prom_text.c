// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* prom_text.c - the exposition: Prometheus text format 0.0.4 or
 * OpenMetrics 1.0 of the series, the sampler, lockscope's own state and
 * the process, written from one update of the series allocator. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "export/prom.h"
#include "export/prom_budget.h"
#include "export/prom_write.h"
#include "export/prom_cgroup.h"
#include "model/hist.h"

/*
 * Histogram buckets: every second boundary of the log2 slots, 2^8 ns
 * (256 ns) to 2^30 ns (1.07 s), then +Inf.  Cumulative counts at any subset
 * of the slot boundaries are exact; one slot in two keeps 13 series per
 * lock instead of 33.  Slot i holds [2^i, 2^(i+1)) ns, so the bucket
 * le=2^k ns counts waits below 2^k ns (a wait of exactly 2^k ns, an integer
 * number of ns, falls in the next bucket).
 */
#define BUCKET_FIRST 8
#define BUCKET_STEP 2

#define LABELS_MAX 1024

static void series_labels(const struct ls_prom *p,
			  const struct ls_prom_series *s, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	ls_prom_label(buf, len, &off, "lock", s->lock);
	ls_prom_label(buf, len, &off, "kind", s->kind);
	ls_prom_label(buf, len, &off, "caller", s->caller);
	if (p->with_addr) {
		char a[24];

		if (s < p->other || s >= p->other + LS_KIND_MAX)
			snprintf(a, sizeof(a), "%" PRIx64, s->addr);
		else
			snprintf(a, sizeof(a), "other");
		ls_prom_label(buf, len, &off, "addr", a);
	}
}

/* Every exported lock series: own ones, then "other" per kind. */
static size_t all_series(const struct ls_prom *p,
			 const struct ls_prom_series **out)
{
	size_t n = 0;

	for (size_t i = 0; i < p->max_series; i++)
		if (p->series[i].used)
			out[n++] = &p->series[i];
	/* "other" of a kind, once it ever held a lock: a counter series
	 * does not come and go */
	for (unsigned k = 0; k < LS_KIND_MAX; k++)
		if (p->other[k].nlocks || p->other[k].c.contentions ||
		    p->other[k].c.total_ns)
			out[n++] = &p->other[k];
	return n;
}

enum lock_field {
	F_CONTENTIONS,
	F_SPIN_S,
	F_SLEEP_S,
	F_SPIN_WON,
	F_SPIN_FAILED,
	F_GAVE_UP,
	F_WAITERS,
	F_PEAK,
	F_OSQ_S,
	F_OSQ_CALLS,
	F_OSQ_BAILOUTS,
	F_SLOW_S,
	F_SLOW_CALLS,
	F_OSQ_PREV_PREEMPTED,
};

static const struct {
	const char *name, *type, *unit, *help;
} lock_fields[] = {
	[F_CONTENTIONS] = {"lockscope_lock_contentions", "counter", NULL,
			   "Contended waits on the lock that completed."},
	[F_SPIN_S] = {"lockscope_lock_spin_seconds", "counter", "seconds",
		      "Time waiters spent spinning (spinlocks, a mutex's "
		      "optimistic spin)."},
	[F_SLEEP_S] = {"lockscope_lock_sleep_seconds", "counter", "seconds",
		       "Time waiters spent blocked."},
	[F_SPIN_WON] = {"lockscope_lock_spins_won", "counter", NULL,
			"Mutex spin phases that ended holding the lock."},
	[F_SPIN_FAILED] = {"lockscope_lock_spins_failed", "counter", NULL,
			   "Mutex spin phases that fell back to sleeping."},
	[F_GAVE_UP] = {"lockscope_lock_waits_given_up", "counter", NULL,
		       "Waits that ended without the lock (signal, timeout)."},
	[F_WAITERS] = {"lockscope_lock_waiters", "gauge", NULL,
		       "Tasks waiting for the lock at the last collection."},
	[F_PEAK] = {"lockscope_lock_peak_waiters", "gauge", NULL,
		    "Most tasks waiting at once during the last collection "
		    "interval (largest over the locks of a series)."},
	[F_OSQ_S] = {"lockscope_lock_osq_seconds", "counter", "seconds",
		     "Time in osq_lock() queued to spin on the lock (function "
		     "probe; part of the spin time)."},
	[F_OSQ_CALLS] = {"lockscope_lock_osq_calls", "counter", NULL,
			 "osq_lock() calls for the lock (function probe)."},
	[F_OSQ_BAILOUTS] =
		{"lockscope_lock_osq_bailouts", "counter", NULL,
		 "osq_lock() calls that gave up spinning (function probe)."},
	[F_SLOW_S] = {"lockscope_lock_slowpath_seconds", "counter", "seconds",
		      "Time in the mutex or rwsem slow-path function, entry to "
		      "exit (function probe; contains spin and sleep)."},
	[F_SLOW_CALLS] = {"lockscope_lock_slowpath_calls", "counter", NULL,
			  "Calls of the mutex or rwsem slow-path function "
			  "(function probe)."},
	[F_OSQ_PREV_PREEMPTED] = {"lockscope_lock_osq_bailouts_vcpu_preempted",
				  "counter", NULL,
				  "osq_lock() bail-outs while the vCPU of the "
				  "spinner queued ahead was preempted by the "
				  "hypervisor (steal_time.preempted)."},
};

static void lock_family(const struct ls_prom_out *o, const struct ls_prom *p,
			const struct ls_prom_series **all, size_t n,
			enum lock_field fld)
{
	char name[96], labels[LABELS_MAX];
	int counter = !strcmp(lock_fields[fld].type, "counter");

	ls_prom_family(o, lock_fields[fld].name, lock_fields[fld].type,
		       lock_fields[fld].unit, lock_fields[fld].help);
	snprintf(name, sizeof(name), "%s%s", lock_fields[fld].name,
		 counter ? "_total" : "");
	for (size_t i = 0; i < n; i++) {
		const struct ls_prom_series *s = all[i];

		series_labels(p, s, labels, sizeof(labels));
		switch (fld) {
		case F_CONTENTIONS:
			ls_prom_sample_u64(o, name, labels, s->c.contentions);
			break;
		case F_SPIN_S:
			ls_prom_sample_f(o, name, labels,
					 (double)s->c.spin_ns / 1e9);
			break;
		case F_SLEEP_S:
			ls_prom_sample_f(o, name, labels,
					 (double)s->c.sleep_ns / 1e9);
			break;
		case F_SPIN_WON:
			ls_prom_sample_u64(o, name, labels, s->c.spin_won);
			break;
		case F_SPIN_FAILED:
			ls_prom_sample_u64(o, name, labels, s->c.spin_failed);
			break;
		case F_GAVE_UP:
			ls_prom_sample_u64(o, name, labels, s->c.gave_up);
			break;
		case F_WAITERS:
			ls_prom_sample_u64(o, name, labels, s->waiters);
			break;
		case F_PEAK:
			ls_prom_sample_u64(o, name, labels, s->peak_waiters);
			break;
		case F_OSQ_S:
			ls_prom_sample_f(o, name, labels,
					 (double)s->c.osq_ns / 1e9);
			break;
		case F_OSQ_CALLS:
			ls_prom_sample_u64(o, name, labels, s->c.osq_calls);
			break;
		case F_OSQ_BAILOUTS:
			ls_prom_sample_u64(o, name, labels, s->c.osq_bailouts);
			break;
		case F_SLOW_S:
			ls_prom_sample_f(o, name, labels,
					 (double)s->c.slow_ns / 1e9);
			break;
		case F_SLOW_CALLS:
			ls_prom_sample_u64(o, name, labels, s->c.slow_calls);
			break;
		case F_OSQ_PREV_PREEMPTED:
			ls_prom_sample_u64(o, name, labels,
					   s->c.osq_prev_preempted);
			break;
		}
	}
}

static void wait_histogram(const struct ls_prom_out *o, const struct ls_prom *p,
			   const struct ls_prom_series **all, size_t n)
{
	const char *name = "lockscope_lock_wait_seconds";
	char labels[LABELS_MAX + 32], b[40], sn[64];

	ls_prom_family(
		o, name, "histogram", "seconds",
		"Whole waits for the lock, first contention to acquisition.");
	for (size_t i = 0; i < n; i++) {
		const struct ls_prom_series *s = all[i];
		size_t base;
		uint64_t count = ls_hist_count(s->c.hist);

		series_labels(p, s, labels, sizeof(labels));
		base = strlen(labels);
		snprintf(sn, sizeof(sn), "%s_bucket", name);
		for (unsigned k = BUCKET_FIRST; k < LS_HIST_SLOTS;
		     k += BUCKET_STEP) {
			size_t off = base;

			ls_prom_label(
				labels, sizeof(labels), &off, "le",
				ls_prom_float(b, sizeof(b),
					      (double)ls_hist_lo(k) / 1e9));
			ls_prom_sample_u64(o, sn, labels,
					   ls_hist_cum(s->c.hist, k - 1));
			labels[base] = '\0';
		}
		{
			size_t off = base;

			ls_prom_label(labels, sizeof(labels), &off, "le",
				      "+Inf");
			ls_prom_sample_u64(o, sn, labels, count);
			labels[base] = '\0';
		}
		snprintf(sn, sizeof(sn), "%s_sum", name);
		ls_prom_sample_f(o, sn, labels, (double)s->c.total_ns / 1e9);
		snprintf(sn, sizeof(sn), "%s_count", name);
		ls_prom_sample_u64(o, sn, labels, count);
	}
}

static void self_metrics(const struct ls_prom_out *o, const struct ls_prom *p,
			 const struct ls_snapshot *s,
			 const struct ls_prom_meta *m)
{
	char l[256], b[64];

	ls_prom_family(o, "lockscope_build", "info", NULL,
		       "lockscope's version.");
	ls_prom_one_label(l, sizeof(l), "version",
			  m->version ? m->version : "");
	ls_prom_sample_u64(o, "lockscope_build_info", l, 1);

	if (m->src && m->nsrc) {
		ls_prom_family(
			o, "lockscope_source_active", "gauge", NULL,
			"1 when the data source is collecting (see lockscope "
			"doctor).");
		for (unsigned i = 0; i < m->nsrc; i++) {
			size_t off = 0;

			l[0] = '\0';
			ls_prom_label(l, sizeof(l), &off, "source",
				      m->src[i].name);
			ls_prom_label(l, sizeof(l), &off, "mechanism",
				      m->src[i].mech);
			ls_prom_sample_u64(o, "lockscope_source_active", l,
					   m->src[i].active ? 1 : 0);
		}
	}

	ls_prom_single_u64(o, "lockscope_collections", "counter", NULL,
			   "Reads of the BPF maps into a snapshot.",
			   m->collections);
	ls_prom_single_u64(
		o, "lockscope_collection_errors", "counter", NULL,
		"Reads of the BPF maps that failed (the last good snapshot is "
		"served).",
		m->collection_errors);
	ls_prom_single_f(
		o, "lockscope_collection_duration_seconds", "gauge", "seconds",
		"How long the last collection took (map reads and series "
		"assignment).",
		m->collection_s);
	ls_prom_single_f(o, "lockscope_collection_interval_seconds", "gauge",
			 "seconds", "Configured time between collections.",
			 m->interval_s);
	ls_prom_single_f(o, "lockscope_last_collection_timestamp_seconds",
			 "gauge", "seconds",
			 "Unix time of the last successful collection.",
			 m->last_collection_unix);

	ls_prom_single_u64(
		o, "lockscope_lock_table_entries", "gauge", NULL,
		"Locks in the BPF lock table (after -p/-T/-L filters).",
		p->nrows);
	ls_prom_single_u64(o, "lockscope_lock_table_size", "gauge", NULL,
			   "Capacity of the BPF lock table (--max-locks).",
			   m->lock_table_size);
	ls_prom_single_u64(
		o, "lockscope_forget_after_intervals", "gauge", NULL,
		"Collections a lock stays idle before it leaves the tables "
		"(--forget; 0: never).",
		m->forget);
	ls_prom_single_u64(
		o, "lockscope_locks_forgotten", "counter", NULL,
		"Idle locks that left the tables; what they counted stays in "
		"their series.",
		m->forgotten);
	ls_prom_family(
		o, "lockscope_locks", "gauge", NULL,
		"Locks by where they are exported: own series, summed into the "
		"series of lock other, or pending a caller.");
	ls_prom_one_label(l, sizeof(l), "series", "own");
	ls_prom_sample_u64(o, "lockscope_locks", l,
			   p->nrows - p->nother - p->npending);
	ls_prom_one_label(l, sizeof(l), "series", "other");
	ls_prom_sample_u64(o, "lockscope_locks", l, p->nother);
	ls_prom_one_label(l, sizeof(l), "series", "pending");
	ls_prom_sample_u64(o, "lockscope_locks", l, p->npending);
	ls_prom_single_u64(
		o, "lockscope_lock_series_limit", "gauge", NULL,
		"Most locks exported as their own series (--max-series).",
		p->max_series);

	ls_prom_family(o, "lockscope_lock_series_changes", "counter", NULL,
		       "Locks moved from lock other into a series of their own "
		       "(promoted) and series given up for them (demoted).");
	ls_prom_one_label(l, sizeof(l), "change", "promoted");
	ls_prom_sample_u64(o, "lockscope_lock_series_changes_total", l,
			   p->promoted);
	ls_prom_one_label(l, sizeof(l), "change", "demoted");
	ls_prom_sample_u64(o, "lockscope_lock_series_changes_total", l,
			   p->demoted);

	ls_prom_family(o, "lockscope_events", "counter", NULL,
		       "Events seen by lockscope's BPF programs.");
	for (unsigned i = 0; i < LS_CTR_MAX; i++) {
		ls_prom_one_label(l, sizeof(l), "event",
				  ls_name_key(b, sizeof(b), ls_ctr_name(i)));
		ls_prom_sample_u64(o, "lockscope_events_total", l, s->ctr[i]);
	}
	ls_prom_budget(o, &s->budget);
	ls_prom_family(o, "lockscope_losses", "counter", NULL,
		       "Events lockscope could not record fully, by reason.");
	for (unsigned i = 0; i < LS_LOSS_MAX; i++) {
		ls_prom_one_label(l, sizeof(l), "reason",
				  ls_name_key(b, sizeof(b), ls_loss_name(i)));
		ls_prom_sample_u64(o, "lockscope_losses_total", l, s->loss[i]);
	}
}

static void sampler_metrics(const struct ls_prom_out *o,
			    const struct ls_snapshot *s,
			    const struct ls_snapshot *prev)
{
	uint64_t all = 0, dall = 0;
	char l[128];

	for (unsigned i = 0; i < LS_SPIN_SLOTS; i++) {
		all += s->func_samples[i];
		dall += s->func_samples[i] -
			(prev && prev->func_samples[i] <= s->func_samples[i]
				 ? prev->func_samples[i]
				 : 0);
	}
	ls_prom_single_u64(
		o, "lockscope_cpu_samples", "counter", NULL,
		"cpu-clock samples taken by the sampler on all CPUs.", all);
	if (!s->nfuncs)
		return;
	ls_prom_family(
		o, "lockscope_spin_samples", "counter", NULL,
		"cpu-clock samples whose instruction pointer was in the spin "
		"function.");
	for (unsigned i = 0; i < s->nfuncs; i++) {
		ls_prom_one_label(l, sizeof(l), "function", s->func_name[i]);
		ls_prom_sample_u64(o, "lockscope_spin_samples_total", l,
				   s->func_samples[i]);
	}
	ls_prom_family(
		o, "lockscope_spin_share_ratio", "gauge", NULL,
		"Share of CPU time spent in the spin function during the last "
		"collection interval (0 to 1, over all CPUs).");
	for (unsigned i = 0; i < s->nfuncs; i++) {
		uint64_t d = s->func_samples[i];

		if (prev && prev->func_samples[i] <= d)
			d -= prev->func_samples[i];
		ls_prom_one_label(l, sizeof(l), "function", s->func_name[i]);
		ls_prom_sample_f(o, "lockscope_spin_share_ratio", l,
				 dall ? (double)d / (double)dall : 0.0);
	}
}

/* The hypervisor's steal time per CPU since start (/proc/stat's steal
 * column), when /proc/stat has one. */
static void steal_metrics(const struct ls_prom_out *o,
			  const struct ls_snapshot *s)
{
	long hz = sysconf(_SC_CLK_TCK);
	char l[32];

	if (!s->steal.ncpus || hz <= 0)
		return;
	ls_prom_family(
		o, "lockscope_cpu_steal_seconds", "counter", "seconds",
		"Time the hypervisor gave this vCPU's physical CPU to "
		"something "
		"else while the vCPU was runnable (steal), since start.");
	for (unsigned i = 0; i < s->steal.ncpus; i++) {
		snprintf(l, sizeof(l), "cpu=\"%u\"", i);
		ls_prom_sample_f(o, "lockscope_cpu_steal_seconds_total", l,
				 (double)s->steal.cpu[i] / (double)hz);
	}
}

static void cost_metrics(const struct ls_prom_out *o,
			 const struct ls_snapshot *s,
			 const struct ls_prom_meta *m)
{
	char l[128];

	ls_prom_single_u64(
		o, "lockscope_bpf_stats_enabled", "gauge", NULL,
		"1 when BPF run-time statistics (lockscope's own cost) "
		"are on.",
		m->run_stats ? 1 : 0);
	if (!m->run_stats || !s->nprogs)
		return;
	ls_prom_family(o, "lockscope_bpf_program_runs", "counter", NULL,
		       "Runs of lockscope's BPF program.");
	for (unsigned i = 0; i < s->nprogs; i++) {
		ls_prom_one_label(l, sizeof(l), "program", s->prog[i].name);
		ls_prom_sample_u64(o, "lockscope_bpf_program_runs_total", l,
				   s->prog[i].run_cnt);
	}
	ls_prom_family(
		o, "lockscope_bpf_program_run_seconds", "counter", "seconds",
		"CPU time spent in lockscope's BPF program (kernel run-time "
		"stats).");
	for (unsigned i = 0; i < s->nprogs; i++) {
		ls_prom_one_label(l, sizeof(l), "program", s->prog[i].name);
		ls_prom_sample_f(o, "lockscope_bpf_program_run_seconds_total",
				 l, (double)s->prog[i].run_ns / 1e9);
	}
	ls_prom_family(o, "lockscope_bpf_program_recursion_misses", "counter",
		       NULL,
		       "Runs of lockscope's BPF program skipped because it was "
		       "already "
		       "running on the CPU.");
	for (unsigned i = 0; i < s->nprogs; i++) {
		ls_prom_one_label(l, sizeof(l), "program", s->prog[i].name);
		ls_prom_sample_u64(
			o, "lockscope_bpf_program_recursion_misses_total", l,
			s->prog[i].misses);
	}
}

static void process_metrics(const struct ls_prom_out *o,
			    const struct ls_prom_meta *m)
{
	if (!m->have_process)
		return;
	ls_prom_single_f(
		o, "process_cpu_seconds", "counter", "seconds",
		"User and system CPU time spent by lockscope's user space.",
		m->cpu_s);
	ls_prom_single_u64(o, "process_resident_memory_bytes", "gauge", "bytes",
			   "Resident memory size in bytes.", m->rss_bytes);
	ls_prom_single_u64(o, "process_virtual_memory_bytes", "gauge", "bytes",
			   "Virtual memory size in bytes.", m->vsz_bytes);
	ls_prom_single_f(
		o, "process_start_time_seconds", "gauge", "seconds",
		"Start time of the process since the Unix epoch in seconds.",
		m->start_unix);
	ls_prom_single_u64(o, "process_max_fds", "gauge", NULL,
			   "Maximum number of open file descriptors.",
			   m->max_fds);
}

/* The holder side: waits and their time by the holder's state when they
 * began (a holder_state label), and handoff tenure. */
static void holder_metrics(const struct ls_prom_out *o, const struct ls_prom *p,
			   const struct ls_prom_series **all, size_t n)
{
	char l[LABELS_MAX + 48];

	for (int secs = 0; secs < 2; secs++) {
		const char *name = secs ? "lockscope_lock_holder_wait_seconds"
					: "lockscope_lock_holder_waits";
		char sn[64];

		ls_prom_family(
			o, name, "counter", secs ? "seconds" : NULL,
			secs ? "Wait time by the state of the lock's holder "
			       "when the wait began."
			     : "Completed waits by the state of the lock's "
			       "holder when the wait began (owner word of a "
			       "mutex, rwsem or rt_mutex; else unknown).");
		snprintf(sn, sizeof(sn), "%s_total", name);
		for (size_t i = 0; i < n; i++)
			for (unsigned h = 0; h < LS_HOLDER_MAX; h++) {
				size_t off;

				series_labels(p, all[i], l, sizeof(l));
				off = strlen(l);
				ls_prom_label(l, sizeof(l), &off,
					      "holder_state",
					      ls_holder_name(h));
				if (secs)
					ls_prom_sample_f(
						o, sn, l,
						(double)all[i]->c.holder_ns[h] /
							1e9);
				else
					ls_prom_sample_u64(
						o, sn, l,
						all[i]->c.holder_waits[h]);
			}
	}
	ls_prom_family(
		o, "lockscope_lock_tenure_seconds", "counter", "seconds",
		"Holder tenure while others waited, one successful "
		"contention_end to the next: an upper bound (handoff latency "
		"included).");
	for (size_t i = 0; i < n; i++) {
		series_labels(p, all[i], l, sizeof(l));
		ls_prom_sample_f(o, "lockscope_lock_tenure_seconds_total", l,
				 (double)all[i]->c.tenure_ns / 1e9);
	}
}

/* Wait-for chains: the wait time of waits whose holder was itself waiting
 * on another lock, by that lock's class (a bounded blocked_on label). */
static void chain_metrics(const struct ls_prom_out *o, const struct ls_prom *p,
			  const struct ls_prom_series **all, size_t n)
{
	char l[LABELS_MAX + 48 + LS_NAME_MAX];

	ls_prom_family(
		o, "lockscope_lock_chain_wait_seconds", "counter", "seconds",
		"Wait time of waits whose holder was itself waiting on another "
		"lock when they began, by that lock's class (blocked_on: the "
		"first 8 classes met, the others \"other\").");
	for (size_t i = 0; i < n; i++)
		for (unsigned k = 0; k <= LS_PROM_CHAIN_TO; k++) {
			size_t off;

			if (!all[i]->c.chain_ns[k])
				continue;
			series_labels(p, all[i], l, sizeof(l));
			off = strlen(l);
			ls_prom_label(l, sizeof(l), &off, "blocked_on",
				      k < p->nchain_to ? p->chain_to[k]
						       : "other");
			ls_prom_sample_f(
				o, "lockscope_lock_chain_wait_seconds_total", l,
				(double)all[i]->c.chain_ns[k] / 1e9);
		}
}

/* The whole exposition into @f: 0, -ENOMEM or -EIO when @f failed. */
static int write_all(FILE *f, const struct ls_prom *p,
		     const struct ls_snapshot *cur,
		     const struct ls_snapshot *prev,
		     const struct ls_prom_meta *m, enum ls_prom_format fmt)
{
	struct ls_prom_out o = {f, fmt};
	const struct ls_prom_series **all;
	size_t n;

	all = malloc((p->max_series + LS_KIND_MAX) * sizeof(*all));
	if (!all)
		return -ENOMEM;
	n = all_series(p, all);
	for (unsigned fld = F_CONTENTIONS; fld <= F_GAVE_UP; fld++)
		lock_family(&o, p, all, n, (enum lock_field)fld);
	wait_histogram(&o, p, all, n);
	lock_family(&o, p, all, n, F_WAITERS);
	lock_family(&o, p, all, n, F_PEAK);
	holder_metrics(&o, p, all, n);
	chain_metrics(&o, p, all, n);
	if (m->probes)
		for (unsigned fld = F_OSQ_S; fld <= F_SLOW_CALLS; fld++)
			lock_family(&o, p, all, n, (enum lock_field)fld);
	/* unknown (no steal time, no osq_node): absent, never 0 */
	if (m->probes && cur->nrows && cur->rows[0].osq_vcpu_known)
		lock_family(&o, p, all, n, F_OSQ_PREV_PREEMPTED);
	free(all);
	sampler_metrics(&o, cur, prev);
	steal_metrics(&o, cur);
	self_metrics(&o, p, cur, m);
	cost_metrics(&o, cur, m);
	process_metrics(&o, m);
	if (m->cg)
		ls_prom_cg_write(f, fmt, m->cg);
	if (fmt == LS_PROM_OPENMETRICS)
		fputs("# EOF\n", f);
	return ferror(f) ? -EIO : 0;
}

int ls_prom_render(char **buf, size_t *len, const struct ls_prom *p,
		   const struct ls_snapshot *cur,
		   const struct ls_snapshot *prev, const struct ls_prom_meta *m,
		   enum ls_prom_format fmt)
{
	FILE *f;
	int err;

	*buf = NULL;
	*len = 0;
	f = open_memstream(buf, len);
	if (!f)
		return -errno;
	err = write_all(f, p, cur, prev, m, fmt);
	if (fclose(f) && !err)
		err = -EIO;
	if (err) {
		free(*buf);
		*buf = NULL;
		*len = 0;
	}
	return err;
}
