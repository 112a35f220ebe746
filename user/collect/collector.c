// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* collector.c - open, configure, load, attach, read; nothing else uses libbpf.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "util/caps.h"
#include "collect/collector.h"
#include "util/log.h"
#include "model/naming.h"
#include "collect/features.h"
#include "collect/collector_int.h"
#include "owner.skel.h"

/* Functions whose samples count as spinning, with every clone. */
static const char *const spin_funcs[] = {
	"osq_lock",
	"mutex_spin_on_owner",
	"mutex_optimistic_spin",
	"rwsem_spin_on_owner",
	"rwsem_optimistic_spin",
	"rtmutex_spin_on_owner",
	"native_queued_spin_lock_slowpath",
	"__pv_queued_spin_lock_slowpath",
	"queued_spin_lock_slowpath",
	"queued_read_lock_slowpath",
	"queued_write_lock_slowpath",
	"resilient_queued_spin_lock_slowpath",
};

const char *const *ls_spin_funcs(size_t *n)
{
	*n = sizeof(spin_funcs) / sizeof(*spin_funcs);
	return spin_funcs;
}

#define BATCH 256

static int libbpf_verbose, libbpf_quiet;

static int libbpf_print(enum libbpf_print_level level, const char *fmt,
			va_list ap)
{
	if (libbpf_quiet && !libbpf_verbose)
		return 0;
	if (level == LIBBPF_DEBUG && !libbpf_verbose)
		return 0;
	if (level == LIBBPF_INFO && !libbpf_verbose)
		return 0;
	return vfprintf(ls_log_stream ? ls_log_stream : stderr, fmt, ap);
}

static void probe_sources(const struct ls_collector_opts *o,
			  const struct ls_ksyms *ks, struct ls_source *src,
			  struct ls_tgt_plan *tgt)
{
	struct ls_source *s;
	char why[200];

	memset(src, 0, sizeof(*src) * LS_SRC_MAX);
	s = &src[LS_SRC_TP];
	ls_source_set_mech(s, ls_probe_tracepoints(s));
	s->available = s->mech_id != LS_MECH_NONE;
	s->why = s->available ? LS_WHY_OK : LS_WHY_ABSENT;
	if (o->no_tracepoints) {
		snprintf(s->reason, sizeof(s->reason), "disabled by option");
		s->why = LS_WHY_DISABLED;
	}

	s = &src[LS_SRC_SAMPLER];
	snprintf(s->name, sizeof(s->name), "cpu sampler");
	ls_source_set_mech(s, LS_MECH_PERF_EVENT);
	if (!o->sample_hz) {
		s->available = !ls_probe_sampler(99, why, sizeof(why));
		snprintf(s->reason, sizeof(s->reason), "disabled by -F 0");
		s->why = LS_WHY_DISABLED;
	} else {
		s->available = !ls_probe_sampler(o->sample_hz, s->reason,
						 sizeof(s->reason));
		s->why = s->available ? LS_WHY_OK : LS_WHY_REFUSED;
		if (s->available)
			snprintf(s->reason, sizeof(s->reason),
				 "cpu-clock at %u Hz per CPU", o->sample_hz);
	}

	ls_probes_plan(o, ks, src, tgt);
}

void ls_probe_sources(const struct ls_collector_opts *o, struct ls_source *src)
{
	struct ls_tgt_plan tgt[LS_TGT_MAX];
	struct ls_ksyms ks;
	int have = !ls_ksyms_load(&ks, o->kallsyms);

	probe_sources(o, have ? &ks : NULL, src, tgt);
	if (have)
		ls_ksyms_free(&ks);
}

/* Fill rodata spin ranges from kallsyms; every clone of every function. */
static void set_spin_ranges(struct ls_collector *c)
{
	struct lockscope_bpf__rodata *ro = c->skel->rodata;
	const struct ls_ksym *found[8];
	unsigned n = 0;

	for (size_t f = 0; f < sizeof(spin_funcs) / sizeof(*spin_funcs); f++) {
		size_t k = ls_ksyms_clones(&c->ks, spin_funcs[f], found, 8);
		unsigned idx = c->nfuncs;

		if (!k || idx >= LS_MAX_SPIN_RANGES)
			continue;
		snprintf(c->func_name[idx], sizeof(c->func_name[idx]), "%s",
			 spin_funcs[f]);
		c->nfuncs++;
		for (size_t j = 0; j < k && n < LS_MAX_SPIN_RANGES; j++) {
			uint64_t end = ls_ksyms_end(&c->ks, found[j]);

			if (!end)
				continue;
			ro->spin_ranges[n].start = found[j]->addr;
			ro->spin_ranges[n].end = end;
			ro->spin_ranges[n].func = idx;
			n++;
		}
	}
	ro->n_spin_ranges = n;
}

static int open_and_configure(struct ls_collector *c, int use_btf)
{
	const struct ls_collector_opts *o = &c->o;
	struct lockscope_bpf *skel;
	int tp = !o->no_tracepoints;

	skel = lockscope_bpf__open();
	if (!skel)
		return -errno;
	c->skel = skel;
	skel->rodata->targ_tgid = o->tgid;
	skel->rodata->stack_every = o->stack_every;
	if (c->have_ks && o->sample_hz)
		set_spin_ranges(c);
	bpf_map__set_max_entries(skel->maps.lock_stats, o->max_locks);
	bpf_map__set_max_entries(skel->maps.task_state, o->max_tasks);
	bpf_map__set_max_entries(skel->maps.lock_callers, o->max_callers);
	bpf_map__set_max_entries(skel->maps.spin_callers, o->max_callers);
	bpf_map__set_max_entries(skel->maps.stacks, o->max_stacks);
	bpf_program__set_autoload(skel->progs.begin_btf, tp && use_btf);
	bpf_program__set_autoload(skel->progs.end_btf, tp && use_btf);
	bpf_program__set_autoload(skel->progs.begin_raw, tp && !use_btf);
	bpf_program__set_autoload(skel->progs.end_raw, tp && !use_btf);
	bpf_program__set_autoload(skel->progs.cpu_sample,
				  o->sample_hz &&
					  c->src[LS_SRC_SAMPLER].available);
	bpf_map__set_max_entries(skel->maps.probe_state, o->max_tasks);
	ls_probes_configure(c);
	return 0;
}

static int load(struct ls_collector *c)
{
	struct ls_source *tp = &c->src[LS_SRC_TP];
	int use_btf = tp->mech_id == LS_MECH_TP_BTF, err;

	err = open_and_configure(c, use_btf);
	if (err)
		return err;
	err = lockscope_bpf__load(c->skel);
	if (err && ls_probes_degrade(c, err)) {
		lockscope_bpf__destroy(c->skel);
		c->skel = NULL;
		err = open_and_configure(c, use_btf);
		if (!err)
			err = lockscope_bpf__load(c->skel);
	}
	if (err && use_btf && !c->o.no_tracepoints) {
		snprintf(tp->reason, sizeof(tp->reason),
			 "tp_btf failed to load (%s): using raw_tp",
			 ls_probe_why(err));
		lockscope_bpf__destroy(c->skel);
		c->skel = NULL;
		ls_source_set_mech(tp, LS_MECH_RAW_TP);
		err = open_and_configure(c, 0);
		if (!err)
			err = lockscope_bpf__load(c->skel);
	}
	return err;
}

static void attach_tracepoints(struct ls_collector *c)
{
	struct ls_source *s = &c->src[LS_SRC_TP];
	int btf = s->mech_id == LS_MECH_TP_BTF;
	struct bpf_program *p[2] = {
		btf ? c->skel->progs.begin_btf : c->skel->progs.begin_raw,
		btf ? c->skel->progs.end_btf : c->skel->progs.end_raw,
	};

	if (c->o.no_tracepoints || !s->available)
		return;
	for (int i = 0; i < 2; i++) {
		c->tp_links[i] = bpf_program__attach(p[i]);
		if (!c->tp_links[i]) {
			int err = errno;

			snprintf(s->reason, sizeof(s->reason),
				 "attaching %s failed: %s",
				 bpf_program__name(p[i]), ls_probe_why(err));
			s->why = LS_WHY_FAILED;
			return;
		}
	}
	s->active = 1;
}

static void attach_sampler(struct ls_collector *c)
{
	struct ls_source *s = &c->src[LS_SRC_SAMPLER];
	int attached = 0, err = 0;

	if (!c->o.sample_hz || !s->available)
		return;
	if (!c->have_ks) {
		snprintf(s->reason, sizeof(s->reason),
			 "kallsyms unreadable: spin functions cannot be "
			 "located");
		s->why = LS_WHY_NO_KSYMS;
		return;
	}
	c->perf_links =
		calloc((size_t)c->ncpus_possible, sizeof(*c->perf_links));
	if (!c->perf_links)
		return;
	for (int cpu = 0; cpu < c->ncpus_possible; cpu++) {
		int fd = ls_perf_open_cpu_clock(cpu, c->o.sample_hz);

		if (fd < 0) {
			if (errno != ENODEV) /* offline CPU */
				err = errno;
			continue;
		}
		c->perf_links[cpu] = bpf_program__attach_perf_event(
			c->skel->progs.cpu_sample, fd);
		if (!c->perf_links[cpu]) {
			err = errno;
			close(fd);
			continue;
		}
		attached++;
	}
	if (!attached) {
		snprintf(s->reason, sizeof(s->reason),
			 "no CPU could be sampled: %s", ls_probe_why(err));
		s->why = LS_WHY_FAILED;
		return;
	}
	s->active = 1;
	snprintf(s->reason, sizeof(s->reason),
		 "cpu-clock at %u Hz on %d CPUs, %u spin functions found",
		 c->o.sample_hz, attached, c->nfuncs);
}

struct ls_collector *ls_collector_start(const struct ls_collector_opts *o)
{
	struct ls_collector *c;
	int err;

	if (ls_caps_check()) /* one line naming what is missing */
		return NULL;
	c = calloc(1, sizeof(*c));
	if (!c) {
		ls_fail("allocate", "collector", strerror(ENOMEM));
		return NULL;
	}
	c->o = *o;
	c->stats_fd = -1;
	libbpf_verbose = o->verbose;
	libbpf_set_print(libbpf_print);
	c->ncpus_possible = libbpf_num_possible_cpus();
	if (c->ncpus_possible <= 0) {
		ls_fail("count", "possible CPUs", strerror(-c->ncpus_possible));
		goto fail;
	}
	err = ls_ksyms_load(&c->ks, o->kallsyms);
	c->have_ks = !err;
	if (err) {
		ls_fail_errno("read", o->kallsyms, err);
		if (err == -EPERM)
			ls_hint("addresses are hidden: run as root or lower "
				"kernel.kptr_restrict");
	}
	probe_sources(o, c->have_ks ? &c->ks : NULL, c->src, c->tgt);
	c->stack_caller = calloc(o->max_stacks, sizeof(*c->stack_caller));
	c->pcpu = calloc((size_t)c->ncpus_possible, sizeof(uint64_t));
	c->keys = calloc(BATCH, sizeof(struct ls_caller_key) >
						sizeof(struct ls_lock_key)
					? sizeof(struct ls_caller_key)
					: sizeof(struct ls_lock_key));
	c->vals = calloc(BATCH, sizeof(struct ls_lock_stats));
	if (!c->stack_caller || !c->pcpu || !c->keys || !c->vals) {
		ls_fail("allocate", "collector buffers", strerror(ENOMEM));
		goto fail;
	}
	err = load(c);
	if (err) {
		ls_fail_errno("load", "BPF object", err);
		if (err == -EPERM || err == -EACCES)
			ls_hint("run as root, or grant CAP_BPF, CAP_PERFMON "
				"and CAP_SYS_RESOURCE");
		goto fail;
	}
	if (o->run_stats) {
		c->stats_fd = bpf_enable_stats(BPF_STATS_RUN_TIME);
		if (c->stats_fd < 0)
			c->stats_fd =
				-1; /* cost stays unknown, shown as such */
	}
	attach_tracepoints(c);
	attach_sampler(c);
	ls_probes_attach(c);
	if (!ls_collector_active(c)) {
		ls_fail("attach", "any source", "no source could be started");
		ls_hint("see 'lockscope doctor' for the reason of each source");
		goto fail;
	}
	return c;
fail:
	ls_collector_stop(c);
	return NULL;
}

int ls_collector_active(const struct ls_collector *c)
{
	for (int i = 0; i < LS_SRC_MAX; i++)
		if (c->src[i].active)
			return 1;
	return 0;
}

const struct ls_source *ls_collector_sources(const struct ls_collector *c)
{
	return c->src;
}

const struct ls_ksyms *ls_collector_ksyms(const struct ls_collector *c)
{
	return c->have_ks ? &c->ks : NULL;
}

void ls_collector_next_epoch(struct ls_collector *c)
{
	c->skel->bss->epoch = ++c->epoch;
}

void ls_collector_stop(struct ls_collector *c)
{
	if (!c)
		return;
	for (int i = 0; i < 2; i++)
		bpf_link__destroy(c->tp_links[i]);
	ls_probes_detach(c);
	if (c->perf_links)
		for (int cpu = 0; cpu < c->ncpus_possible; cpu++)
			bpf_link__destroy(c->perf_links[cpu]);
	free(c->perf_links);
	owner_bpf__destroy(c->owner);
	lockscope_bpf__destroy(c->skel);
	if (c->stats_fd >= 0)
		close(c->stats_fd);
	ls_ksyms_free(&c->ks);
	free(c->stack_caller);
	free(c->pcpu);
	free(c->keys);
	free(c->vals);
	free(c->idle);
	free(c->gone_locks);
	free(c->gone_callers);
	free(c->spin_cache);
	free(c);
}

/* Sum each slot of a per-CPU u64 array map over the CPUs into @out. */
static int read_percpu(struct ls_collector *c, struct bpf_map *map,
		       uint64_t *out, unsigned n)
{
	int fd = bpf_map__fd(map);

	for (unsigned i = 0; i < n; i++) {
		__u32 key = i;

		if (bpf_map_lookup_elem(fd, &key, c->pcpu))
			return -errno;
		out[i] = 0;
		for (int cpu = 0; cpu < c->ncpus_possible; cpu++)
			out[i] += c->pcpu[cpu];
	}
	return 0;
}

/* Iterate a hash map with batch lookups (get_next_key on old kernels). */
static int
read_hash(struct ls_collector *c, struct bpf_map *map, size_t ksz, size_t vsz,
	  int (*fn)(struct ls_collector *, const void *, const void *, void *),
	  void *arg)
{
	int fd = bpf_map__fd(map), err = 0;
	__u64 in = 0, out = 0;
	void *inp = NULL;
	LIBBPF_OPTS(bpf_map_batch_opts, opts);

	for (;;) {
		__u32 count = BATCH;

		err = bpf_map_lookup_batch(fd, inp, &out, c->keys, c->vals,
					   &count, &opts);
		if (err && errno != ENOENT) {
			if (errno == EINVAL || errno == ENOTSUP)
				break; /* no batch ops: fall back below */
			return -errno;
		}
		for (__u32 i = 0; i < count; i++) {
			int e = fn(c, (char *)c->keys + i * ksz,
				   (char *)c->vals + i * vsz, arg);

			if (e)
				return e;
		}
		if (err) /* ENOENT: done */
			return 0;
		in = out;
		inp = &in;
	}
	/* Fallback: one key at a time. */
	{
		char key[64], next[64];
		void *prev = NULL;

		while (!bpf_map_get_next_key(fd, prev, next)) {
			if (!bpf_map_lookup_elem(fd, next, c->vals)) {
				int e = fn(c, next, c->vals, arg);

				if (e)
					return e;
			}
			memcpy(key, next, ksz);
			prev = key;
		}
	}
	return 0;
}

static int add_lock(struct ls_collector *c, const void *k, const void *v,
		    void *arg)
{
	struct ls_snapshot *s = arg;
	struct ls_row *r = ls_snap_add_row(s, k);

	(void)c;
	if (!r)
		return -ENOMEM;
	memcpy(&r->st, v, sizeof(r->st));
	return 0;
}

static const char *resolve_stack(struct ls_collector *c, __s32 id)
{
	uint64_t ips[LS_STACK_DEPTH] = {};
	const char *fn;

	if (id < 0 || (uint32_t)id >= c->o.max_stacks)
		return "?";
	if (c->stack_caller[id])
		return c->stack_caller[id];
	if (bpf_map_lookup_elem(bpf_map__fd(c->skel->maps.stacks), &id, ips))
		return "?";
	fn = c->have_ks ? ls_caller_of(&c->ks, ips, LS_STACK_DEPTH) : NULL;
	c->stack_caller[id] = fn ? fn : "?";
	return c->stack_caller[id];
}

/*
 * ---- forgetting idle locks (long-running views: top) ----
 * A lock with no begin for o.forget epochs and nobody waiting leaves the
 * tables, with its callers, so that locks of exited processes and closed
 * files do not fill them up.  Its row is still in the snapshot that found
 * it idle.  A begin racing with the delete either re-creates the entry or,
 * if its end finds none, is counted as lost ("lock map full"): nothing
 * goes uncounted.
 */
static int grow(void **buf, size_t *cap, size_t n, size_t size)
{
	size_t ncap = *cap ? *cap * 2 : 256;
	void *p;

	if (n < *cap)
		return 0;
	p = realloc(*buf, ncap * size);
	if (!p)
		return -ENOMEM;
	*buf = p;
	*cap = ncap;
	return 0;
}

static void mark_idle(struct ls_collector *c, struct ls_snapshot *s)
{
	if (!c->o.forget || c->epoch < c->o.forget || !s->nrows)
		return;
	if (s->nrows > c->idle_cap) {
		uint8_t *p = realloc(c->idle, s->nrows);

		if (!p)
			return;
		c->idle = p;
		c->idle_cap = s->nrows;
	}
	for (size_t i = 0; i < s->nrows; i++) {
		const struct ls_lock_stats *st = &s->rows[i].st;

		c->idle[i] = c->epoch - st->peak_epoch >= c->o.forget &&
			     st->waiters <= 0 && !st->osq_calls &&
			     !st->slow_calls && /* probes do not mark epochs */
			     !grow((void **)&c->gone_locks, &c->gone_locks_cap,
				   c->ngone_locks, sizeof(*c->gone_locks));
		if (c->idle[i])
			c->gone_locks[c->ngone_locks++] = s->rows[i].key;
	}
}

static void forget_caller(struct ls_collector *c, const struct ls_caller_key *k)
{
	if (!grow((void **)&c->gone_callers, &c->gone_callers_cap,
		  c->ngone_callers, sizeof(*c->gone_callers)))
		c->gone_callers[c->ngone_callers++] = *k;
}

/* Delete what mark_idle and add_caller collected, one batch per map. */
static void forget_idle(struct ls_collector *c)
{
	int fd_l = bpf_map__fd(c->skel->maps.lock_stats);
	int fd_c = bpf_map__fd(c->skel->maps.lock_callers);
	LIBBPF_OPTS(bpf_map_batch_opts, opts);
	__u32 n = (__u32)c->ngone_locks;

	if (n && bpf_map_delete_batch(fd_l, c->gone_locks, &n, &opts))
		for (size_t i = n; i < c->ngone_locks; i++) /* not batched */
			bpf_map_delete_elem(fd_l, &c->gone_locks[i]);
	c->forgotten += c->ngone_locks;
	n = (__u32)c->ngone_callers;
	if (n && bpf_map_delete_batch(fd_c, c->gone_callers, &n, &opts))
		for (size_t i = n; i < c->ngone_callers; i++)
			bpf_map_delete_elem(fd_c, &c->gone_callers[i]);
	c->ngone_locks = c->ngone_callers = 0;
	if (c->idle)
		memset(c->idle, 0, c->idle_cap);
}

static int add_caller(struct ls_collector *c, const void *k, const void *v,
		      void *arg)
{
	const struct ls_caller_key *ck = k;
	struct ls_snapshot *s = arg;
	struct ls_lock_key lk = {.addr = ck->addr, .kind = ck->kind};
	struct ls_row *r = ls_snap_find(s, &lk);

	if (r)
		ls_row_add_caller(r, resolve_stack(c, ck->stack_id),
				  *(const __u64 *)v);
	if (r && c->idle && c->idle[r - s->rows])
		forget_caller(c, ck);
	return 0;
}

static int add_spin_caller(struct ls_collector *c, const void *k, const void *v,
			   void *arg)
{
	const struct ls_spin_key *sk = k;

	return ls_snap_add_spin_caller(arg, sk->func,
				       resolve_stack(c, sk->stack_id),
				       *(const __u64 *)v);
}

/* comm of @tid in process @tgid from /proc; 0 or -errno. */
static int read_comm(uint32_t tgid, uint32_t tid, char *buf, size_t len)
{
	char path[64];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%u/task/%u/comm", tgid, tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n <= 0)
		return n < 0 ? -errno : -ENOENT;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

static int add_waiting(struct ls_collector *c, const void *k, const void *v,
		       void *arg)
{
	const struct ls_waits *ws = v;
	struct ls_snapshot *s = arg;
	struct ls_waiter w = {.tid = *(const __u32 *)k, .tgid = ws->tgid};
	__u32 depth = ws->depth < LS_DEPTH ? ws->depth : LS_DEPTH;

	(void)c;
	if (!depth)
		return 0;
	if (read_comm(w.tgid, w.tid, w.comm, sizeof(w.comm)))
		snprintf(w.comm, sizeof(w.comm), "?");
	for (__u32 i = 0; i < depth; i++) {
		w.key.addr = ws->w[i].addr;
		w.key.kind = ws->w[i].kind;
		w.since_ns = ws->w[i].start_ns;
		w.phase = ws->w[i].phase;
		if (ls_snap_add_waiter(s, &w))
			return -ENOMEM;
	}
	return 0;
}

static int owner_load(struct ls_collector *c)
{
	if (c->owner || c->owner_err)
		return c->owner_err;
	/* a refusal is reported in the view, not as a verifier log */
	libbpf_quiet = 1;
	c->owner = owner_bpf__open_and_load();
	libbpf_quiet = 0;
	if (!c->owner)
		c->owner_err = errno ? -errno : -EINVAL;
	return c->owner_err;
}

void ls_collector_owner(struct ls_collector *c, const struct ls_lock_key *key,
			struct ls_owner *o)
{
	struct ls_owner_args a = {.addr = key->addr, .kind = key->kind};
	LIBBPF_OPTS(bpf_test_run_opts, opts, .ctx_in = &a,
		    .ctx_size_in = sizeof(a));
	struct timespec ts;
	char comm[16];
	int err, ok;

	memset(o, 0, sizeof(*o));
	clock_gettime(CLOCK_MONOTONIC, &ts);
	o->mono_ns = (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
	if (key->kind != LS_KIND_MUTEX && key->kind != LS_KIND_RWSEM_R &&
	    key->kind != LS_KIND_RWSEM_W && key->kind != LS_KIND_RT_MUTEX) {
		snprintf(o->why, sizeof(o->why),
			 "a %s does not record its owner",
			 ls_kind_name(key->kind));
		return;
	}
	err = owner_load(c);
	if (err) {
		snprintf(o->why, sizeof(o->why),
			 "the kernel refused the owner reader: %s",
			 ls_probe_why(err));
		return;
	}
	err = bpf_prog_test_run_opts(
		bpf_program__fd(c->owner->progs.read_owner), &opts);
	if (err) {
		snprintf(o->why, sizeof(o->why),
			 "running the owner reader failed: %s",
			 ls_probe_why(-errno));
		return;
	}
	if (a.err && !(a.owner & ~LS_OWNER_FLAGS) && a.err != -ENOENT) {
		snprintf(o->why, sizeof(o->why), "lock memory unreadable: %s",
			 strerror(-a.err));
		return;
	}
	if (a.err == -ENOENT) {
		snprintf(o->why, sizeof(o->why),
			 "this kernel's %s has no owner field",
			 ls_kind_name(key->kind));
		return;
	}
	/* Believe the task only if /proc shows it with the same comm. */
	ok = !a.err && a.tid && !read_comm(a.tgid, a.tid, comm, sizeof(comm)) &&
	     !strncmp(comm, a.comm, sizeof(comm) - 1);
	if (ok) {
		o->tid = a.tid;
		o->tgid = a.tgid;
		memcpy(o->comm, a.comm, sizeof(o->comm));
		o->comm[sizeof(o->comm) - 1] = '\0';
	}
	ls_owner_decode(o, key->kind, a.owner, a.count, ok);
}

/* Run-time stats (when enabled) and the kernel's recursion misses, which
 * are losses whether or not stats are on. */
/*
 * spin_callers changes only with a spin sample: while the sampler's spin
 * count stands still, the last read stands (a full walk of the map's
 * buckets is a third of a read).  A sample counts before it lands in the
 * map, so a change is read twice before the copy is trusted again.
 */
static int read_spin_callers(struct ls_collector *c, struct ls_snapshot *s)
{
	uint64_t n = s->ctr[LS_CTR_SAMPLES_SPIN];
	int err;

	if (!c->src[LS_SRC_SAMPLER].active)
		return 0;
	if (c->spin_cache_ok && n == c->spin_seen && !c->spin_dirty) {
		for (size_t i = 0; i < c->nspin_cache; i++) {
			const struct ls_spin_caller *sc = &c->spin_cache[i];

			err = ls_snap_add_spin_caller(s, sc->func, sc->fn,
						      sc->samples);
			if (err)
				return err;
		}
		return 0;
	}
	err = read_hash(c, c->skel->maps.spin_callers,
			sizeof(struct ls_spin_key), sizeof(__u64),
			add_spin_caller, s);
	if (err)
		return err;
	c->spin_cache_ok = 0;
	if (s->nspin_callers > c->spin_cache_cap) {
		struct ls_spin_caller *p =
			realloc(c->spin_cache, s->nspin_callers * sizeof(*p));

		if (!p)
			return 0; /* no copy: read again next time */
		c->spin_cache = p;
		c->spin_cache_cap = s->nspin_callers;
	}
	if (s->nspin_callers)
		memcpy(c->spin_cache, s->spin_callers,
		       s->nspin_callers * sizeof(*c->spin_cache));
	c->nspin_cache = s->nspin_callers;
	c->spin_dirty = n != c->spin_seen;
	c->spin_seen = n;
	c->spin_cache_ok = 1;
	return 0;
}

static void read_prog_stats(struct ls_collector *c, struct ls_snapshot *s)
{
	struct bpf_program *p;
	uint64_t misses = 0;

	s->nprogs = 0;
	bpf_object__for_each_program(p, c->skel->obj)
	{
		struct bpf_prog_info info = {};
		__u32 len = sizeof(info);
		struct ls_prog_stat *ps;
		int fd = bpf_program__fd(p);

		if (fd < 0 || bpf_obj_get_info_by_fd(fd, &info, &len))
			continue;
		misses += info.recursion_misses;
		if (c->stats_fd < 0 || s->nprogs >= LS_PROG_MAX)
			continue;
		ps = &s->prog[s->nprogs++];
		snprintf(ps->name, sizeof(ps->name), "%s",
			 bpf_program__name(p));
		ps->run_cnt = info.run_cnt;
		ps->run_ns = info.run_time_ns;
		ps->misses = info.recursion_misses;
	}
	s->loss[LS_LOSS_RECURSION] = misses;
}

int ls_collector_read(struct ls_collector *c, struct ls_snapshot *s)
{
	struct timespec ts;
	int err;

	ls_snap_clear(s);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	s->mono_ns = (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
	s->epoch = c->epoch;
	if (!s->cpu_all && ls_snap_set_ncpus(s, (unsigned)c->ncpus_possible))
		return -ENOMEM;
	err = read_percpu(c, c->skel->maps.counters, s->ctr, LS_CTR_MAX);
	if (!err)
		err = read_percpu(c, c->skel->maps.losses, s->loss,
				  LS_LOSS_MAX);
	if (err)
		return err;
	/* Sampler: per-slot totals and per-CPU all/spin counts. */
	memset(s->cpu_all, 0, s->ncpus * sizeof(uint64_t));
	memset(s->cpu_spin, 0, s->ncpus * sizeof(uint64_t));
	s->nfuncs = c->nfuncs;
	memcpy(s->func_name, c->func_name, sizeof(s->func_name));
	for (__u32 i = 0; i < LS_SPIN_SLOTS; i++) {
		if (bpf_map_lookup_elem(bpf_map__fd(c->skel->maps.spin_samples),
					&i, c->pcpu))
			return -errno;
		s->func_samples[i] = 0;
		for (int cpu = 0; cpu < c->ncpus_possible; cpu++) {
			s->func_samples[i] += c->pcpu[cpu];
			s->cpu_all[cpu] += c->pcpu[cpu];
			if (i < LS_MAX_SPIN_RANGES)
				s->cpu_spin[cpu] += c->pcpu[cpu];
		}
	}
	err = read_hash(c, c->skel->maps.lock_stats, sizeof(struct ls_lock_key),
			sizeof(struct ls_lock_stats), add_lock, s);
	if (err)
		return err;
	ls_snap_index(s);
	mark_idle(c, s);
	err = read_hash(c, c->skel->maps.lock_callers,
			sizeof(struct ls_caller_key), sizeof(__u64), add_caller,
			s);
	forget_idle(c);
	if (!err)
		err = read_spin_callers(c, s);
	if (err)
		return err;
	for (size_t i = 0; i < s->nrows; i++)
		ls_name_row(c->have_ks ? &c->ks : NULL, &s->rows[i],
			    c->o.with_addr);
	if (c->o.read_waiting) {
		err = read_hash(c, c->skel->maps.task_state, sizeof(__u32),
				sizeof(struct ls_waits), add_waiting, s);
		if (err)
			return err;
		/* every wait listed began before this: ages are not negative */
		clock_gettime(CLOCK_MONOTONIC, &ts);
		s->waiting_ns = (uint64_t)ts.tv_sec * 1000000000ULL +
				(uint64_t)ts.tv_nsec;
	}
	read_prog_stats(c, s);
	return 0;
}
