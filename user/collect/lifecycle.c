// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * lifecycle.c - the collector's life: open the skeleton, configure it
 * (rodata, map sizes, autoload), load with fallbacks (fentry to kprobe,
 * tp_btf to raw_tp) once the open-file limit holds what it needs, attach
 * each source on its own, stop and free.
 */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "collect/collector_int.h"
#include "collect/features.h"
#include "collect/whatif.h"
#include "model/mapmem.h"
#include "util/caps.h"
#include "util/log.h"
#include "owner.skel.h"

static int libbpf_verbose;
int ls_libbpf_quiet;

static int libbpf_print(enum libbpf_print_level level, const char *fmt,
			va_list ap)
{
	if (ls_libbpf_quiet && !libbpf_verbose)
		return 0;
	if (level == LIBBPF_DEBUG && !libbpf_verbose)
		return 0;
	if (level == LIBBPF_INFO && !libbpf_verbose)
		return 0;
	return vfprintf(ls_log_stream ? ls_log_stream : stderr, fmt, ap);
}

static int open_and_configure(struct ls_collector *c, int use_btf)
{
	const struct ls_collector_opts *o = &c->o;
	struct lockscope_bpf *skel;
	int tp = !o->no_tracepoints;

	skel = ls_main_open(c->build);
	if (!skel)
		return -errno;
	c->skel = skel;
	skel->rodata->targ_tgid = o->tgid;
	skel->rodata->stack_every = o->stack_every;
	if (c->have_ks && o->sample_hz)
		ls_spin_ranges_set(c);
	bpf_map__set_max_entries(skel->maps.lock_stats, o->max_locks);
	bpf_map__set_max_entries(skel->maps.task_state, o->max_tasks);
	bpf_map__set_max_entries(skel->maps.lock_callers, o->max_callers);
	bpf_map__set_max_entries(skel->maps.spin_callers, o->max_callers);
	bpf_map__set_max_entries(skel->maps.holder_sites, o->max_callers);
	if (ls_probe_spin_end_insert()) {
		bpf_map__set_map_flags(skel->maps.holder_sites,
				       BPF_F_NO_PREALLOC);
		skel->rodata->spin_end_insert = 1;
	}
	bpf_map__set_max_entries(skel->maps.stacks, o->max_stacks);
	bpf_map__set_max_entries(skel->maps.lock_ident, o->max_locks);
	bpf_map__set_max_entries(skel->maps.lock_rows, o->max_locks);
	bpf_map__set_max_entries(skel->maps.free_rows, o->max_locks);
	skel->rodata->max_slots = o->max_locks;
	skel->rodata->slot_stride =
		c->ncpus_possible > 0 ? (__u32)c->ncpus_possible : 1;
	bpf_map__set_max_entries(skel->maps.percpu_base,
				 c->ncpus_possible < LS_MAX_CPUS
					 ? (__u32)c->ncpus_possible
					 : LS_MAX_CPUS);
	skel->rodata->percpu_rq_off = c->rq_off;
	skel->rodata->steal_time_off = c->steal_off;
	skel->rodata->osq_node_off = c->osq_node_off;
	bpf_map__set_max_entries(skel->maps.osq_vcpu, o->max_locks);
	bpf_program__set_autoload(skel->progs.begin_btf, tp && use_btf);
	bpf_program__set_autoload(skel->progs.end_btf, tp && use_btf);
	bpf_program__set_autoload(skel->progs.begin_raw, tp && !use_btf);
	bpf_program__set_autoload(skel->progs.end_raw, tp && !use_btf);
	bpf_program__set_autoload(skel->progs.cpu_sample,
				  o->sample_hz &&
					  c->src[LS_SRC_SAMPLER].available);
	bpf_map__set_max_entries(skel->maps.probe_state, o->max_tasks);
	skel->rodata->hold_on = o->hold;
	skel->rodata->budget_ppm = o->budget_ppm;
	bpf_map__set_max_entries(skel->maps.hold_watch,
				 o->hold ? o->max_locks : 1);
	ls_probes_configure(c);
	ls_cgroup_configure(c);
	ls_chains_configure(c);
	ls_whatif_configure(c);
	return 0;
}

/* Descriptors open now (those of /proc/self/fd but its own). */
static unsigned fds_open(void)
{
	DIR *d = opendir("/proc/self/fd");
	unsigned n = 0;

	if (!d)
		return 0;
	while (readdir(d))
		n++;
	closedir(d);
	return n > 3 ? n - 3 : 0; /* ".", ".." and the directory's */
}

/*
 * Does the open-file limit hold what the configured object needs: a
 * descriptor per map and program, a link per program, a perf event and a
 * link per online CPU for the sampler, LS_FD_SPARE for what loads later
 * (kernel BTF, /proc files)?  Raises the soft limit up to
 * the hard one if needed; else -EMFILE, the figures in c->fd_need and
 * c->fd_limit.
 */
#define LS_FD_SPARE 4
static int fds_fit(struct ls_collector *c)
{
	struct bpf_object *obj = c->skel->obj;
	unsigned need = fds_open() + LS_FD_SPARE;
	struct bpf_program *p;
	struct bpf_map *m;
	struct rlimit rl;

	bpf_object__for_each_map(m, obj) need += bpf_map__autocreate(m);
	bpf_object__for_each_program(p, obj) need +=
		bpf_program__autoload(p) ? 2 : 0;
	if (c->o.sample_hz)
		need += 2 * (unsigned)(c->ncpus_online > 0 ? c->ncpus_online
							   : c->ncpus_possible);
	if (getrlimit(RLIMIT_NOFILE, &rl) || rl.rlim_cur >= need)
		return 0;
	if (rl.rlim_max == RLIM_INFINITY || rl.rlim_max >= need) {
		rl.rlim_cur = need;
		if (!setrlimit(RLIMIT_NOFILE, &rl))
			return 0;
	}
	c->fd_need = need;
	c->fd_limit = (unsigned long long)rl.rlim_cur;
	return -EMFILE;
}

static int load(struct ls_collector *c)
{
	struct ls_source *tp = &c->src[LS_SRC_TP];
	int use_btf = tp->mech_id == LS_MECH_TP_BTF, err;

	err = open_and_configure(c, use_btf);
	if (!err)
		err = fds_fit(c);
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

/* Any source active? */
static int any_active(const struct ls_collector *c)
{
	for (int i = 0; i < LS_SRC_MAX; i++)
		if (c->src[i].active)
			return 1;
	return 0;
}

/*
 * --source fentry or kprobe is a choice, not a wish: when no function
 * probe can use that mechanism it fails, in one line, instead of going on
 * without probes.  @attached: judge what attached, else what was planned.
 * auto (and none) never fail here: they degrade with a reason per source.
 */
static int probes_honoured(const struct ls_collector *c, int attached)
{
	enum ls_probe_mode mode = c->o.probe_mode;
	enum ls_mech m = mode == LS_PROBE_FENTRY   ? LS_MECH_FENTRY
			 : mode == LS_PROBE_KPROBE ? LS_MECH_KPROBE
						   : LS_MECH_NONE;
	const struct ls_source *shown = NULL;
	char what[64];

	if (m == LS_MECH_NONE)
		return 1;
	snprintf(what, sizeof(what), "function probes by %s", ls_mech_name(m));
	if (c->refused[0]) { /* the kernel refuses the mechanism itself */
		ls_fail("attach", what, c->refused);
		return 0;
	}
	for (int t = 0; t < LS_TGT_MAX; t++) {
		const struct ls_source *s = &c->src[LS_SRC_PROBE + t];

		if (s->mech_id == m && (attached ? s->active : s->available))
			return 1;
		/* the reason shown: the first failure, else the first row */
		if (!shown ||
		    (shown->why != LS_WHY_FAILED && s->why == LS_WHY_FAILED))
			shown = s;
	}
	ls_fail("attach", what, shown->reason);
	return 0;
}

/*
 * --hold is a request: where its probes cannot work (@err: ls_hold_start's
 * result, once tried), it fails in one line with a hint, like --source.
 */
static int hold_honoured(const struct ls_collector *c, int err)
{
	const struct ls_source *s = &c->src[LS_SRC_HOLD];

	if (!c->o.hold || (s->available && !err))
		return 1;
	ls_fail("attach", "hold probes (--hold)", s->reason);
	ls_hint("--hold needs fentry or kprobes on mutex_lock and friends; "
		"'lockscope doctor' shows what this kernel allows");
	return 0;
}

/*
 * Map sizes are preallocated in kernel memory at load: refuse, before
 * anything loads, sizes that would take more than LS_MAPMEM_SHARE percent
 * of MemAvailable (a kernel without that line is not checked).
 */
static int sizes_fit(const struct ls_collector_opts *o)
{
	const struct ls_map_sizes m = {o->max_locks,   o->max_tasks,
				       o->max_callers, o->max_stacks,
				       o->hold,	       o->by_cgroup};
	int ncpus = libbpf_num_possible_cpus();
	uint64_t avail;
	char why[256];

	if (ncpus <= 0 || ls_mem_available("/proc/meminfo", &avail))
		return 1;
	if (!ls_mapmem_check(&m, (unsigned)ncpus, avail, why, sizeof(why)))
		return 1;
	ls_fail("size", "the BPF maps", why);
	return 0;
}

struct ls_collector *ls_collector_start(const struct ls_collector_opts *o,
					enum ls_start_err *why)
{
	enum ls_start_err scratch;
	struct ls_collector *c;
	int err;

	if (!why)
		why = &scratch;
	*why = LS_START_BAD_INPUT;
	if (!sizes_fit(o))
		return NULL;
	*why = LS_START_FAILED;
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
		ls_fail("read", o->kallsyms, ls_ksyms_strerror(err));
		if (err == -EMSGSIZE || err == -EFBIG) { /* not kallsyms */
			*why = LS_START_BAD_INPUT;
			goto fail;
		}
		if (err == -EPERM)
			ls_hint("run as root or lower kernel.kptr_restrict");
	}
	c->ncpus_online = (int)sysconf(_SC_NPROCESSORS_ONLN);
	{
		char bwhy[300];

		c->build = ls_bpf_build_choose(bwhy, sizeof(bwhy));
		if (c->build == LS_BUILD_BAD) {
			ls_fail("parse", "LOCKSCOPE_BPF_OBJECT", bwhy);
			*why = LS_START_BAD_INPUT;
			goto fail;
		}
	}
	ls_names_init(c);
	ls_steal_start(c);
	ls_plan_sources(o, c->have_ks ? &c->ks : NULL, c->src, c->tgt,
			c->refused, sizeof(c->refused));
	if (!probes_honoured(c, 0) || !hold_honoured(c, 0))
		goto fail;
	if (ls_cgroup_start(c, why))
		goto fail;
	c->stack_caller = calloc(o->max_stacks, sizeof(*c->stack_caller));
	c->stack_frames = calloc(o->max_stacks, sizeof(*c->stack_frames));
	c->pcpu = calloc((size_t)c->ncpus_possible, sizeof(uint64_t));
	/* the largest key read in batches */
	c->keys = calloc(LS_BATCH, sizeof(struct ls_chain_key));
	c->vals = calloc(LS_BATCH, sizeof(struct ls_lock_stats));
	if (!c->stack_caller || !c->stack_frames || !c->pcpu || !c->keys ||
	    !c->vals) {
		ls_fail("allocate", "collector buffers", strerror(ENOMEM));
		goto fail;
	}
	err = load(c);
	if (err == -EMFILE && c->fd_need) {
		char r[160];

		snprintf(r, sizeof(r),
			 "%s: it needs about %u open files, the limit is %llu",
			 strerror(EMFILE), c->fd_need, c->fd_limit);
		ls_fail("load", "BPF object", r);
		ls_hint("raise the open-file limit: ulimit -n %u (systemd: "
			"LimitNOFILE=%u)",
			c->fd_need * 2, c->fd_need * 2);
		goto fail;
	}
	if (err) {
		ls_fail_errno("load", "BPF object", err);
		if (err == -EPERM || err == -EACCES)
			ls_hint("run as root, or grant CAP_BPF, CAP_PERFMON "
				"and CAP_SYS_RESOURCE");
		goto fail;
	}
	if (ls_cgroup_attach(c))
		goto fail;
	if (o->run_stats) {
		c->stats_fd = bpf_enable_stats(BPF_STATS_RUN_TIME);
		if (c->stats_fd < 0)
			c->stats_fd =
				-1; /* cost stays unknown, shown as such */
	}
	attach_tracepoints(c);
	attach_sampler(c);
	ls_probes_attach(c);
	if (!probes_honoured(c, 1) || !hold_honoured(c, ls_hold_start(c)))
		goto fail;
	if (!any_active(c)) {
		ls_fail("attach", "any source", "no source could be started");
		ls_hint("see 'lockscope doctor' for the reason of each source");
		goto fail;
	}
	*why = LS_START_OK;
	return c;
fail:
	ls_collector_stop(c);
	return NULL;
}

const struct ls_source *ls_collector_sources(const struct ls_collector *c)
{
	return c->src;
}

void ls_collector_next_epoch(struct ls_collector *c)
{
	c->skel->bss->epoch = ++c->epoch;
}

void ls_collector_stop(struct ls_collector *c)
{
	if (!c)
		return;
	ls_whatif_disarm(c); /* the kill switch, before the links go */
	for (int i = 0; i < 2; i++)
		bpf_link__destroy(c->tp_links[i]);
	ls_probes_detach(c);
	ls_hold_stop(c);
	ls_cgroup_stop(c);
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
	for (uint32_t i = 0; c->stack_frames && i < c->o.max_stacks; i++)
		free(c->stack_frames[i]);
	free(c->stack_frames);
	free(c->raw);
	free(c->hraw);
	free(c->mark);
	free(c->class_of);
	free(c->pcpu);
	free(c->keys);
	free(c->vals);
	free(c->idle);
	free(c->gone_locks);
	free(c->gone_callers);
	free(c->gone_holders);
	free(c->spin_cache);
	ls_rows_free(c);
	ls_names_free(c);
	ls_kernel_btf_free();
	free(c);
}
