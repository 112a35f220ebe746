// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * fprobes.c - function probes on osq_lock, __mutex_lock and the
 * rwsem slow paths: plan (which mechanism per target and why), configure,
 * attach (fentry/fexit by BTF name, kprobes by address on every clone).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <sys/syscall.h>
#include <bpf/btf.h>
#include "collect/collector_int.h"
#include "collect/features.h"
#include "model/symsel.h"

#define tgt_name(t) ls_target_name(t)

/* Arguments before the return value in each fexit program (fprobes.bpf.h):
 * the kernel's BTF prototype must have as many for fentry to be used. */
static const unsigned fexit_args[LS_TGT_MAX] = {
	[LS_TGT_OSQ] = 1,
	[LS_TGT_MUTEX] = 5,
	[LS_TGT_RWSEM_W] = 2,
	[LS_TGT_RWSEM_R] = 3,
};

/* Arguments of BTF function @name, or -1 when it is not in BTF. */
static int btf_nargs(const struct btf *btf, const char *name)
{
	const struct btf_type *t;
	int id;

	if (!btf)
		return -1;
	id = btf__find_by_name_kind(btf, name, BTF_KIND_FUNC);
	if (id <= 0)
		return -1;
	t = btf__type_by_id(btf, btf__type_by_id(btf, (__u32)id)->type);
	return t ? btf_vlen(t) : -1;
}

struct tgt_progs {
	struct bpf_program *fentry, *fexit, *kp, *kretp;
};

static struct tgt_progs progs_of(struct lockscope_bpf *skel, int t)
{
	switch (t) {
	case LS_TGT_OSQ:
		return (struct tgt_progs){skel->progs.osq_enter_fentry,
					  skel->progs.osq_exit_fexit,
					  skel->progs.osq_enter_kp,
					  skel->progs.osq_exit_kp};
	case LS_TGT_MUTEX:
		return (struct tgt_progs){skel->progs.mutex_enter_fentry,
					  skel->progs.mutex_exit_fexit,
					  skel->progs.mutex_enter_kp,
					  skel->progs.mutex_exit_kp};
	case LS_TGT_RWSEM_W:
		return (struct tgt_progs){skel->progs.wslow_enter_fentry,
					  skel->progs.wslow_exit_fexit,
					  skel->progs.wslow_enter_kp,
					  skel->progs.wslow_exit_kp};
	default:
		return (struct tgt_progs){skel->progs.rslow_enter_fentry,
					  skel->progs.rslow_exit_fexit,
					  skel->progs.rslow_enter_kp,
					  skel->progs.rslow_exit_kp};
	}
}

/* The mutex callers' fentry/fexit programs (fprobes.bpf.h), in pairs. */
static void caller_progs(struct lockscope_bpf *skel, struct bpf_program **p)
{
	p[0] = skel->progs.mcall_plain_enter;
	p[1] = skel->progs.mcall_plain_exit;
	p[2] = skel->progs.mcall_kill_enter;
	p[3] = skel->progs.mcall_kill_exit;
	p[4] = skel->progs.mcall_intr_enter;
	p[5] = skel->progs.mcall_intr_exit;
}

/* Can fentry reach the mutex slow path through its callers?  Each must be
 * a BTF function of one argument (the lock). */
static int callers_in_btf(const struct ls_ksyms *ks, const struct btf *btf,
			  struct ls_symsel *cs)
{
	ls_symsel_callers(ks, LS_TGT_MUTEX, cs);
	for (size_t i = 0; i < cs->n; i++)
		if (btf_nargs(btf, cs->syms[i]->name) != 1)
			return 0;
	return cs->n > 0;
}

static void set_mech(struct ls_source *s, struct ls_tgt_plan *p, enum ls_mech m,
		     enum ls_why why)
{
	p->mech = m;
	ls_source_set_mech(s, m);
	s->available = m != LS_MECH_NONE;
	s->why = why;
}

void ls_probes_plan(const struct ls_collector_opts *o,
		    const struct ls_ksyms *ks, struct ls_source *src,
		    struct ls_tgt_plan *tgt, char *refused, size_t len)
{
	char fentry_why[200], kprobe_why[200];
	struct btf *btf = ls_kernel_btf();
	int fentry_ok, kprobe_ok;
	const char *fentry_probe = "osq_lock";

	for (int t = 0; t < LS_TGT_MAX && btf; t++)
		if (btf__find_by_name_kind(btf, tgt_name(t), BTF_KIND_FUNC) >
		    0) {
			fentry_probe = tgt_name(t);
			break;
		}
	fentry_ok =
		!ls_probe_fentry(fentry_probe, fentry_why, sizeof(fentry_why));
	kprobe_ok = !ls_probe_kprobe(kprobe_why, sizeof(kprobe_why));
	refused[0] = '\0';
	if (o->probe_mode == LS_PROBE_FENTRY && !fentry_ok)
		snprintf(refused, len, "%s", fentry_why);
	else if (o->probe_mode == LS_PROBE_KPROBE && !kprobe_ok)
		snprintf(refused, len, "%s", kprobe_why);

	for (int t = 0; t < LS_TGT_MAX; t++) {
		struct ls_source *s = &src[LS_SRC_PROBE + t];
		struct ls_tgt_plan *p = &tgt[t];
		struct ls_symsel sel = {0}, cs;
		const struct ls_ksym *found[1];
		char cnote[240] = "";
		char note[240] = "";
		int nargs;

		memset(p, 0, sizeof(*p));
		snprintf(s->name, sizeof(s->name), "probe %s", tgt_name(t));
		if (ks)
			ls_symsel_pick(ks, (enum ls_target)t, &sel);
		for (size_t i = 0; i < sel.n && i < LS_MAX_CLONES; i++)
			p->addr[p->nsyms++] = sel.syms[i]->addr;
		snprintf(s->symbols, sizeof(s->symbols), "%s", sel.list);
		p->ret = sel.ret;
		nargs = sel.single_plain ? btf_nargs(btf, tgt_name(t)) : -1;
		p->in_btf = nargs >= 0 && (unsigned)nargs == fexit_args[t];
		snprintf(p->kp_list, sizeof(p->kp_list), "%s", sel.list);
		if (t == LS_TGT_MUTEX && sel.n && !p->in_btf && ks &&
		    callers_in_btf(ks, btf, &cs)) {
			p->callers = 1;
			snprintf(cnote, sizeof(cnote), "%.160s (%.70s)",
				 cs.list, cs.reason);
		}
		if (sel.reason[0] && sel.n)
			snprintf(note, sizeof(note), " (%s)", sel.reason);
		else if (nargs >= 0 && !p->in_btf)
			snprintf(note, sizeof(note),
				 " (fexit wants %u arguments, BTF has %d)",
				 fexit_args[t], nargs);
		set_mech(s, p, LS_MECH_NONE, LS_WHY_NO_KSYMS);
		if (!ks) {
			snprintf(s->reason, sizeof(s->reason),
				 "kallsyms unreadable: cannot resolve %s",
				 tgt_name(t));
			continue;
		}
		s->why = LS_WHY_ABSENT;
		if (!sel.n) {
			snprintf(s->reason, sizeof(s->reason), "%.180s%s",
				 sel.reason,
				 ls_ksyms_clones(ks, "rt_mutex_slowlock_block",
						 found, 1)
					 ? " (PREEMPT_RT: mutexes and rwsems "
					   "are rt_mutexes, seen by the "
					   "tracepoints)"
					 : "");
			continue;
		}
		if (o->probe_mode == LS_PROBE_NONE) {
			snprintf(s->reason, sizeof(s->reason),
				 "found %s; disabled by --source none",
				 s->symbols);
			s->why = LS_WHY_DISABLED;
			continue;
		}
		if (o->probe_mode != LS_PROBE_KPROBE && fentry_ok &&
		    p->in_btf) {
			set_mech(s, p, LS_MECH_FENTRY, LS_WHY_OK);
			snprintf(s->reason, sizeof(s->reason),
				 "fentry/fexit on %s (in BTF)", tgt_name(t));
			continue;
		}
		if (o->probe_mode != LS_PROBE_KPROBE && fentry_ok &&
		    p->callers) {
			set_mech(s, p, LS_MECH_FENTRY, LS_WHY_OK);
			snprintf(s->symbols, sizeof(s->symbols), "%s", cs.list);
			snprintf(s->reason, sizeof(s->reason),
				 "fentry/fexit on %s", cnote);
			continue;
		}
		p->callers = 0;
		if (o->probe_mode != LS_PROBE_FENTRY && kprobe_ok) {
			set_mech(s, p, LS_MECH_KPROBE, LS_WHY_OK);
			snprintf(s->reason, sizeof(s->reason),
				 "kprobe/kretprobe on %s%s%.150s%s%s",
				 s->symbols,
				 o->probe_mode == LS_PROBE_KPROBE
					 ? " (--source kprobe"
				 : note[0]    ? ""
				 : !p->in_btf ? " (not in BTF: no fentry"
					      : " (fentry refused: ",
				 o->probe_mode != LS_PROBE_KPROBE && !note[0] &&
						 p->in_btf
					 ? fentry_why
					 : "",
				 o->probe_mode == LS_PROBE_KPROBE || !note[0]
					 ? ")"
					 : "",
				 note);
			continue;
		}
		{
			char f[240] = "", k[240] = "";

			if (o->probe_mode != LS_PROBE_KPROBE)
				snprintf(f, sizeof(f), "; fentry: %s",
					 p->in_btf ? fentry_why : "not in BTF");
			if (o->probe_mode != LS_PROBE_FENTRY)
				snprintf(k, sizeof(k), "; kprobe: %s",
					 kprobe_why);
			/* refused by the kernel, or only not in BTF */
			if ((o->probe_mode != LS_PROBE_KPROBE && p->in_btf) ||
			    o->probe_mode != LS_PROBE_FENTRY)
				s->why = LS_WHY_REFUSED;
			snprintf(s->reason, sizeof(s->reason),
				 "found %.80s%s%s", s->symbols, f, k);
		}
	}
}

void ls_probes_configure(struct ls_collector *c)
{
	int slow = 0;

	for (int t = 0; t < LS_TGT_MAX; t++) {
		struct tgt_progs p = progs_of(c->skel, t);
		enum ls_mech m = c->tgt[t].mech;

		int cl = m == LS_MECH_FENTRY && c->tgt[t].callers;

		bpf_program__set_autoload(p.fentry, m == LS_MECH_FENTRY && !cl);
		bpf_program__set_autoload(p.fexit, m == LS_MECH_FENTRY && !cl);
		if (t == LS_TGT_MUTEX) {
			struct bpf_program *cp[6];

			caller_progs(c->skel, cp);
			for (int i = 0; i < 6; i++)
				bpf_program__set_autoload(cp[i], cl);
		}
		bpf_program__set_autoload(p.kp, m == LS_MECH_KPROBE);
		bpf_program__set_autoload(p.kretp, m == LS_MECH_KPROBE);
		if (m == LS_MECH_FENTRY) {
			bpf_program__set_attach_target(p.fentry, 0,
						       tgt_name(t));
			bpf_program__set_attach_target(p.fexit, 0, tgt_name(t));
		}
		slow |= t != LS_TGT_OSQ && m != LS_MECH_NONE;
		c->skel->rodata->ret_kind[t] = c->tgt[t].ret;
	}
	c->skel->rodata->probes_on = slow;
	c->skel->rodata->probe_rows = c->src[LS_SRC_ROWS].available;
	bpf_program__set_autoload(c->skel->progs.sleep_mark,
				  c->src[LS_SRC_ROWS].available);
}

int ls_probes_degrade(struct ls_collector *c, int err)
{
	int retry = 0;
	char why[200];
	int kprobe_ok = !ls_probe_kprobe(why, sizeof(why));

	for (int t = 0; t < LS_TGT_MAX; t++) {
		struct ls_source *s = &c->src[LS_SRC_PROBE + t];
		struct ls_tgt_plan *p = &c->tgt[t];

		if (p->mech != LS_MECH_FENTRY)
			continue;
		retry = 1;
		if (p->callers) {
			p->callers = 0;
			snprintf(s->symbols, sizeof(s->symbols), "%s",
				 p->kp_list);
		}
		if (kprobe_ok && c->o.probe_mode != LS_PROBE_FENTRY) {
			set_mech(s, p, LS_MECH_KPROBE, LS_WHY_OK);
			snprintf(s->reason, sizeof(s->reason),
				 "fentry failed to load (%s): kprobe on %s",
				 ls_probe_why(err), s->symbols);
		} else {
			set_mech(s, p, LS_MECH_NONE, LS_WHY_FAILED);
			snprintf(s->reason, sizeof(s->reason),
				 "fentry failed to load: %s",
				 ls_probe_why(err));
		}
	}
	return retry;
}

static void detach_one(struct ls_tgt_plan *p)
{
	for (unsigned i = 0; i < p->nlinks; i++)
		bpf_link__destroy(p->links[i]);
	p->nlinks = 0;
}

int ls_kprobe_pmu_type(int *retprobe_bit)
{
	char buf[64];
	FILE *f = fopen("/sys/bus/event_source/devices/kprobe/type", "r");
	int type = -1;

	if (!f)
		return -errno;
	if (fscanf(f, "%d", &type) != 1)
		type = -EINVAL;
	fclose(f);
	*retprobe_bit = 0;
	f = fopen("/sys/bus/event_source/devices/kprobe/format/retprobe", "r");
	if (f) {
		if (fgets(buf, sizeof(buf), f) && !strncmp(buf, "config:", 7))
			*retprobe_bit = atoi(buf + 7);
		fclose(f);
	}
	return type;
}

struct bpf_link *ls_kprobe_attach_addr(struct bpf_program *prog, int type,
				       int ret_bit, int ret, uint64_t addr)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = (__u32)type,
		.config = ret ? 1ULL << ret_bit : 0,
		.config1 = 0, /* no function name: probe by address */
		.config2 = addr,
	};
	struct bpf_link *l;
	int fd;

	fd = (int)syscall(__NR_perf_event_open, &attr, -1, 0, -1,
			  PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return NULL;
	l = bpf_program__attach_perf_event(prog, fd);
	if (!l) {
		int err = errno;

		close(fd);
		errno = err;
	}
	return l;
}

/* Probe-only rows: the sched_switch program, once a slow path attached. */
static void attach_rows(struct ls_collector *c)
{
	struct ls_source *s = &c->src[LS_SRC_ROWS];
	int slow = 0;

	for (int t = LS_TGT_MUTEX; t < LS_TGT_MAX; t++)
		slow |= c->src[LS_SRC_PROBE + t].active;
	if (!s->available)
		return;
	if (!slow) {
		snprintf(s->reason, sizeof(s->reason),
			 "no slow-path probe attached: no mutex or rwsem rows");
		s->why = LS_WHY_FAILED;
		return;
	}
	c->rows_link = bpf_program__attach(c->skel->progs.sleep_mark);
	if (!c->rows_link) {
		snprintf(s->reason, sizeof(s->reason),
			 "attaching raw_tp/sched_switch failed: %s",
			 ls_probe_why(errno));
		s->why = LS_WHY_FAILED;
		return;
	}
	s->active = 1;
}

void ls_probes_attach(struct ls_collector *c)
{
	int type = -1, ret_bit = 0;

	for (int t = 0; t < LS_TGT_MAX; t++) {
		struct ls_source *s = &c->src[LS_SRC_PROBE + t];
		struct ls_tgt_plan *p = &c->tgt[t];
		struct tgt_progs pr = progs_of(c->skel, t);
		int err = 0;

		if (p->mech == LS_MECH_FENTRY && p->callers) {
			struct bpf_program *cp[6];

			caller_progs(c->skel, cp);
			for (int i = 0; i < 6 && !err; i++) {
				p->links[p->nlinks] =
					bpf_program__attach(cp[i]);
				if (p->links[p->nlinks])
					p->nlinks++;
				else
					err = errno;
			}
		} else if (p->mech == LS_MECH_FENTRY) {
			p->links[p->nlinks] = bpf_program__attach(pr.fentry);
			if (p->links[p->nlinks])
				p->nlinks++;
			else
				err = errno;
			p->links[p->nlinks] = bpf_program__attach(pr.fexit);
			if (p->links[p->nlinks])
				p->nlinks++;
			else
				err = errno;
		} else if (p->mech == LS_MECH_KPROBE) {
			if (type < 0)
				type = ls_kprobe_pmu_type(&ret_bit);
			if (type < 0)
				err = -type;
			for (unsigned i = 0; type >= 0 && i < p->nsyms; i++) {
				struct bpf_link *e, *x;

				e = ls_kprobe_attach_addr(pr.kp, type, ret_bit,
							  0, p->addr[i]);
				if (!e) {
					err = errno;
					continue;
				}
				x = ls_kprobe_attach_addr(
					pr.kretp, type, ret_bit, 1, p->addr[i]);
				if (!x) {
					err = errno;
					bpf_link__destroy(e);
					continue;
				}
				p->links[p->nlinks++] = e;
				p->links[p->nlinks++] = x;
			}
		} else {
			continue;
		}
		if (err || !p->nlinks) {
			snprintf(s->reason, sizeof(s->reason),
				 "attaching %s to %s failed: %s",
				 ls_mech_name(p->mech), s->symbols,
				 ls_probe_why(err ? err : ENOENT));
			s->why = LS_WHY_FAILED;
			detach_one(p);
			continue;
		}
		s->active = 1;
	}
	attach_rows(c);
}

void ls_probes_detach(struct ls_collector *c)
{
	for (int t = 0; t < LS_TGT_MAX; t++)
		detach_one(&c->tgt[t]);
	bpf_link__destroy(c->rows_link);
	c->rows_link = NULL;
}
