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

static const char *const tgt_name[LS_TGT_MAX] = {
	[LS_TGT_OSQ] = "osq_lock",
	[LS_TGT_MUTEX] = "__mutex_lock",
	[LS_TGT_RWSEM_W] = "rwsem_down_write_slowpath",
	[LS_TGT_RWSEM_R] = "rwsem_down_read_slowpath",
};

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
	struct btf *btf = btf__load_vmlinux_btf();
	int fentry_ok, kprobe_ok;
	const char *fentry_probe = "osq_lock";

	for (int t = 0; t < LS_TGT_MAX && btf; t++)
		if (btf__find_by_name_kind(btf, tgt_name[t], BTF_KIND_FUNC) >
		    0) {
			fentry_probe = tgt_name[t];
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
		const struct ls_ksym *found[LS_MAX_CLONES];
		size_t n = 0, off = 0;
		int plain = 0;

		memset(p, 0, sizeof(*p));
		snprintf(s->name, sizeof(s->name), "probe %s", tgt_name[t]);
		if (ks)
			n = ls_ksyms_clones(ks, tgt_name[t], found,
					    LS_MAX_CLONES);
		for (size_t i = 0; i < n; i++) {
			p->addr[p->nsyms++] = found[i]->addr;
			plain |= !strcmp(found[i]->name, tgt_name[t]);
			off += (size_t)snprintf(
				s->symbols + off,
				off < sizeof(s->symbols)
					? sizeof(s->symbols) - off
					: 0,
				"%s%s", i ? "," : "", found[i]->name);
			if (off >= sizeof(s->symbols))
				off = sizeof(s->symbols) - 1;
		}
		p->in_btf = plain && btf &&
			    btf__find_by_name_kind(btf, tgt_name[t],
						   BTF_KIND_FUNC) > 0;
		set_mech(s, p, LS_MECH_NONE, LS_WHY_NO_KSYMS);
		if (!ks) {
			snprintf(s->reason, sizeof(s->reason),
				 "kallsyms unreadable: cannot resolve %s",
				 tgt_name[t]);
			continue;
		}
		s->why = LS_WHY_ABSENT;
		if (!n) {
			snprintf(s->reason, sizeof(s->reason),
				 "%s is not in this kernel%s", tgt_name[t],
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
				 "fentry/fexit on %s (in BTF)", tgt_name[t]);
			continue;
		}
		if (o->probe_mode != LS_PROBE_FENTRY && kprobe_ok) {
			set_mech(s, p, LS_MECH_KPROBE, LS_WHY_OK);
			snprintf(s->reason, sizeof(s->reason),
				 "kprobe/kretprobe on %s%s%.150s%s", s->symbols,
				 o->probe_mode == LS_PROBE_KPROBE
					 ? " (--source kprobe"
				 : !p->in_btf ? " (not in BTF: no fentry"
					      : " (fentry refused: ",
				 o->probe_mode != LS_PROBE_KPROBE && p->in_btf
					 ? fentry_why
					 : "",
				 ")");
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
	btf__free(btf);
}

void ls_probes_configure(struct ls_collector *c)
{
	int slow = 0;

	for (int t = 0; t < LS_TGT_MAX; t++) {
		struct tgt_progs p = progs_of(c->skel, t);
		enum ls_mech m = c->tgt[t].mech;

		bpf_program__set_autoload(p.fentry, m == LS_MECH_FENTRY);
		bpf_program__set_autoload(p.fexit, m == LS_MECH_FENTRY);
		bpf_program__set_autoload(p.kp, m == LS_MECH_KPROBE);
		bpf_program__set_autoload(p.kretp, m == LS_MECH_KPROBE);
		if (m == LS_MECH_FENTRY) {
			bpf_program__set_attach_target(p.fentry, 0,
						       tgt_name[t]);
			bpf_program__set_attach_target(p.fexit, 0, tgt_name[t]);
		}
		slow |= t != LS_TGT_OSQ && m != LS_MECH_NONE;
	}
	c->skel->rodata->probes_on = slow;
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

static int kprobe_pmu_type(int *retprobe_bit)
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

/* A k(ret)probe on an address: handles clones that share one name. */
static struct bpf_link *attach_kprobe_addr(struct bpf_program *prog, int type,
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

void ls_probes_attach(struct ls_collector *c)
{
	int type = -1, ret_bit = 0;

	for (int t = 0; t < LS_TGT_MAX; t++) {
		struct ls_source *s = &c->src[LS_SRC_PROBE + t];
		struct ls_tgt_plan *p = &c->tgt[t];
		struct tgt_progs pr = progs_of(c->skel, t);
		int err = 0;

		if (p->mech == LS_MECH_FENTRY) {
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
				type = kprobe_pmu_type(&ret_bit);
			if (type < 0)
				err = -type;
			for (unsigned i = 0; type >= 0 && i < p->nsyms; i++) {
				struct bpf_link *e, *x;

				e = attach_kprobe_addr(pr.kp, type, ret_bit, 0,
						       p->addr[i]);
				if (!e) {
					err = errno;
					continue;
				}
				x = attach_kprobe_addr(pr.kretp, type, ret_bit,
						       1, p->addr[i]);
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
}

void ls_probes_detach(struct ls_collector *c)
{
	for (int t = 0; t < LS_TGT_MAX; t++)
		detach_one(&c->tgt[t]);
}
