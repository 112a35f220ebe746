// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * hold.c - --hold: hold times of contended locks (bpf/hold.bpf.c).  Plan
 * (per lock function: fentry/fexit when it is a BTF function and the kernel
 * allows fentry, else kprobe/kretprobe on every clone, else nothing; one
 * doctor row saying whether --hold can work), then the object's lifecycle
 * (open, configure: share hold_watch, counters and losses with the main
 * object, autoload per target; load, falling back from fentry to kprobe;
 * attach), reading hold_stats into the snapshot, stop.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "collect/collector_int.h"
#include "collect/features.h"
#include "hold.skel.h"

/* What a probed function does; decides its programs and success test. */
enum role {
	ACQ_VOID,  /* acquire, returns nothing: always holds on return */
	ACQ_ZERO,  /* acquire, returns 0 on success (interruptible, killable) */
	ACQ_ONE,   /* trylock, returns 1 on success */
	REL,	   /* release */
	DOWNGRADE, /* downgrade_write: a write hold becomes a read hold */
};

/* Lock families: each needs its release probed, else holds never close. */
enum family { FAM_MUTEX, FAM_RWSEM_W, FAM_RWSEM_R, FAM_MAX };

struct htgt {
	const char *func; /* kernel function (clones: func.constprop.N ...) */
	const char *prog; /* its fentry/fexit program in hold.bpf.c */
	enum role role;
	enum ls_hold_mode mode;
	enum family fam;
	int required; /* the family is off without it */
};

static const struct htgt tgts[] = {
	{"mutex_lock", "hold_mutex_lock", ACQ_VOID, LS_HOLD_EXCL, FAM_MUTEX, 1},
	{"mutex_lock_interruptible", "hold_mutex_lock_intr", ACQ_ZERO,
	 LS_HOLD_EXCL, FAM_MUTEX, 0},
	{"mutex_lock_killable", "hold_mutex_lock_kill", ACQ_ZERO, LS_HOLD_EXCL,
	 FAM_MUTEX, 0},
	{"mutex_lock_io", "hold_mutex_lock_io", ACQ_VOID, LS_HOLD_EXCL,
	 FAM_MUTEX, 0},
	{"mutex_trylock", "hold_mutex_trylock", ACQ_ONE, LS_HOLD_EXCL,
	 FAM_MUTEX, 0},
	{"mutex_unlock", "hold_mutex_unlock", REL, LS_HOLD_EXCL, FAM_MUTEX, 1},
	{"down_write", "hold_down_write", ACQ_VOID, LS_HOLD_EXCL, FAM_RWSEM_W,
	 1},
	{"down_write_killable", "hold_down_write_kill", ACQ_ZERO, LS_HOLD_EXCL,
	 FAM_RWSEM_W, 0},
	{"down_write_trylock", "hold_down_write_try", ACQ_ONE, LS_HOLD_EXCL,
	 FAM_RWSEM_W, 0},
	{"up_write", "hold_up_write", REL, LS_HOLD_EXCL, FAM_RWSEM_W, 1},
	{"downgrade_write", "hold_downgrade", DOWNGRADE, LS_HOLD_EXCL,
	 FAM_RWSEM_W, 0},
	{"down_read", "hold_down_read", ACQ_VOID, LS_HOLD_SHARED, FAM_RWSEM_R,
	 1},
	{"down_read_interruptible", "hold_down_read_intr", ACQ_ZERO,
	 LS_HOLD_SHARED, FAM_RWSEM_R, 0},
	{"down_read_killable", "hold_down_read_kill", ACQ_ZERO, LS_HOLD_SHARED,
	 FAM_RWSEM_R, 0},
	{"down_read_trylock", "hold_down_read_try", ACQ_ONE, LS_HOLD_SHARED,
	 FAM_RWSEM_R, 0},
	{"up_read", "hold_up_read", REL, LS_HOLD_SHARED, FAM_RWSEM_R, 1},
};
#define NTGT (sizeof(tgts) / sizeof(tgts[0]))

struct tplan {
	enum ls_mech mech;
	unsigned nsyms;
	uint64_t addr[LS_MAX_CLONES];
	int in_btf;
};

struct ls_hold {
	struct hold_bpf *skel;
	struct tplan t[NTGT];
	int kprobe_ok;
	struct bpf_link *links[NTGT * 2 * LS_MAX_CLONES];
	unsigned nlinks;
};

/* Each target's mechanism (@t); fills the doctor row @s. */
static void plan(const struct ls_collector_opts *o, const struct ls_ksyms *ks,
		 struct ls_source *s, struct tplan *t, int *kprobe_ok_out)
{
	char fwhy[200], kwhy[200], absent[160] = "";
	struct btf *btf = ls_kernel_btf();
	int fentry_ok, kprobe_ok, fam_ok[FAM_MAX];
	unsigned nf = 0, nk = 0;
	size_t off = 0;

	memset(s, 0, sizeof(*s));
	snprintf(s->name, sizeof(s->name), "hold (--hold)");
	fentry_ok = !ls_probe_fentry("mutex_unlock", fwhy, sizeof(fwhy));
	kprobe_ok = !ls_probe_kprobe(kwhy, sizeof(kwhy));
	*kprobe_ok_out = kprobe_ok;
	for (unsigned i = 0; i < NTGT; i++) {
		const struct ls_ksym *found[LS_MAX_CLONES];
		size_t n = ks ? ls_ksyms_clones(ks, tgts[i].func, found,
						LS_MAX_CLONES)
			      : 0;
		int plain = 0;

		memset(&t[i], 0, sizeof(t[i]));
		for (size_t j = 0; j < n; j++) {
			t[i].addr[t[i].nsyms++] = found[j]->addr;
			plain |= !strcmp(found[j]->name, tgts[i].func);
		}
		t[i].in_btf = plain && btf &&
			      btf__find_by_name_kind(btf, tgts[i].func,
						     BTF_KIND_FUNC) > 0;
		/* fentry reaches the plain function only: with clones beside
		 * it, kprobes on every address where the kernel has them */
		if (o->probe_mode != LS_PROBE_KPROBE && fentry_ok &&
		    t[i].in_btf &&
		    (n == 1 || !kprobe_ok || o->probe_mode == LS_PROBE_FENTRY))
			t[i].mech = LS_MECH_FENTRY;
		else if (o->probe_mode != LS_PROBE_FENTRY && kprobe_ok && n)
			t[i].mech = LS_MECH_KPROBE;
		if (!n)
			off += (size_t)snprintf(
				absent + off,
				off < sizeof(absent) ? sizeof(absent) - off : 0,
				"%s%s", off ? "," : "", tgts[i].func);
		if (off >= sizeof(absent))
			off = sizeof(absent) - 1;
	}
	for (int f = 0; f < FAM_MAX; f++)
		fam_ok[f] = 1;
	for (unsigned i = 0; i < NTGT; i++)
		if (tgts[i].required && t[i].mech == LS_MECH_NONE)
			fam_ok[tgts[i].fam] = 0;
	off = 0;
	for (unsigned i = 0; i < NTGT; i++) {
		if (!fam_ok[tgts[i].fam] || o->probe_mode == LS_PROBE_NONE)
			t[i].mech = LS_MECH_NONE;
		nf += t[i].mech == LS_MECH_FENTRY;
		nk += t[i].mech == LS_MECH_KPROBE;
		if (t[i].mech != LS_MECH_NONE && off < sizeof(s->symbols))
			off += (size_t)snprintf(
				s->symbols + off, sizeof(s->symbols) - off,
				"%s%s", off ? "," : "", tgts[i].func);
	}
	ls_source_set_mech(s, nf >= nk && nf ? LS_MECH_FENTRY
			      : nk	     ? LS_MECH_KPROBE
					     : LS_MECH_NONE);
	s->available = nf + nk > 0;
	if (!ks) {
		s->why = LS_WHY_NO_KSYMS;
		snprintf(s->reason, sizeof(s->reason),
			 "kallsyms unreadable: lock functions cannot be "
			 "located");
	} else if (o->probe_mode == LS_PROBE_NONE) {
		s->why = LS_WHY_DISABLED;
		snprintf(s->reason, sizeof(s->reason),
			 "function probes disabled by "
			 "--source none");
	} else if (!s->available) {
		s->why = LS_WHY_REFUSED;
		snprintf(s->reason, sizeof(s->reason),
			 "no fentry (%.90s), no kprobes "
			 "(%.90s)",
			 fwhy, kwhy);
	} else {
		s->why = o->hold ? LS_WHY_OK : LS_WHY_DISABLED;
		snprintf(s->reason, sizeof(s->reason),
			 "%s fentry/fexit on %u, kprobes on %u of %zu lock "
			 "functions%s%.100s",
			 o->hold ? "--hold:" : "off; --hold arms", nf, nk, NTGT,
			 absent[0] ? "; absent: " : "", absent);
	}
}

void ls_hold_plan(const struct ls_collector_opts *o, const struct ls_ksyms *ks,
		  struct ls_source *s)
{
	struct tplan t[NTGT];
	int kprobe_ok;

	plan(o, ks, s, t, &kprobe_ok);
}

/* The kprobe programs of a role: entry, and return (acquires only). */
static void kprobe_progs(struct hold_bpf *k, const struct htgt *g,
			 struct bpf_program **entry, struct bpf_program **ret)
{
	*ret = NULL;
	switch (g->role) {
	case REL:
		*entry = k->progs.hold_rel_kp;
		return;
	case DOWNGRADE:
		*entry = k->progs.hold_downgrade_kp;
		return;
	default:
		*entry = g->mode == LS_HOLD_SHARED ? k->progs.hold_acq_shared_kp
						   : k->progs.hold_acq_excl_kp;
		*ret = g->role == ACQ_VOID   ? k->progs.hold_ret_void_kp
		       : g->role == ACQ_ZERO ? k->progs.hold_ret_zero_kp
					     : k->progs.hold_ret_one_kp;
	}
}

static int open_configure_load(struct ls_collector *c, struct ls_hold *h)
{
	struct bpf_program *p, *e, *r;
	struct hold_bpf *k = ls_hold_open(c->build);
	int err;

	if (!k)
		return -errno;
	h->skel = k;
	k->rodata->targ_tgid = c->o.tgid;
	bpf_map__set_max_entries(k->maps.hold_watch, c->o.max_locks);
	bpf_map__set_max_entries(k->maps.hold_stats, c->o.max_locks);
	bpf_map__set_max_entries(k->maps.hold_tasks, c->o.max_tasks);
	err = bpf_map__reuse_fd(k->maps.hold_watch,
				bpf_map__fd(c->skel->maps.hold_watch));
	if (!err)
		err = bpf_map__reuse_fd(k->maps.counters,
					bpf_map__fd(c->skel->maps.counters));
	if (!err)
		err = bpf_map__reuse_fd(k->maps.losses,
					bpf_map__fd(c->skel->maps.losses));
	if (err)
		return err;
	bpf_object__for_each_program(p, k->obj) bpf_program__set_autoload(p, 0);
	for (unsigned i = 0; i < NTGT; i++) {
		if (h->t[i].mech == LS_MECH_FENTRY) {
			p = bpf_object__find_program_by_name(k->obj,
							     tgts[i].prog);
			if (p)
				bpf_program__set_autoload(p, 1);
		} else if (h->t[i].mech == LS_MECH_KPROBE) {
			kprobe_progs(k, &tgts[i], &e, &r);
			bpf_program__set_autoload(e, 1);
			if (r)
				bpf_program__set_autoload(r, 1);
		}
	}
	return hold_bpf__load(k);
}

static int attach(struct ls_hold *h, char *why, size_t len)
{
	int type = -1, ret_bit = 0;

	for (unsigned i = 0; i < NTGT; i++) {
		struct bpf_program *e, *r;
		struct bpf_link *l;

		if (h->t[i].mech == LS_MECH_FENTRY) {
			e = bpf_object__find_program_by_name(h->skel->obj,
							     tgts[i].prog);
			l = e ? bpf_program__attach(e) : NULL;
			if (!l) {
				snprintf(why, len, "fentry on %s: %s",
					 tgts[i].func, ls_probe_why(errno));
				return -1;
			}
			h->links[h->nlinks++] = l;
			continue;
		}
		if (h->t[i].mech != LS_MECH_KPROBE)
			continue;
		if (type < 0)
			type = ls_kprobe_pmu_type(&ret_bit);
		if (type < 0) {
			snprintf(why, len, "kprobe PMU: %s",
				 ls_probe_why(-type));
			return -1;
		}
		kprobe_progs(h->skel, &tgts[i], &e, &r);
		for (unsigned j = 0; j < h->t[i].nsyms; j++) {
			uint64_t a = h->t[i].addr[j];

			/* the return probe first: no entry without its exit */
			l = r ? ls_kprobe_attach_addr(r, type, ret_bit, 1, a)
			      : NULL;
			if (r && !l)
				goto failed;
			if (l)
				h->links[h->nlinks++] = l;
			l = ls_kprobe_attach_addr(e, type, ret_bit, 0, a);
			if (!l)
				goto failed;
			h->links[h->nlinks++] = l;
		}
		continue;
	failed:
		snprintf(why, len, "kprobe on %s: %s", tgts[i].func,
			 ls_probe_why(errno));
		return -1;
	}
	return 0;
}

int ls_hold_start(struct ls_collector *c)
{
	struct ls_source *s = &c->src[LS_SRC_HOLD];
	struct ls_hold *h;
	int err, degraded = 0;

	if (!c->o.hold)
		return 0;
	h = calloc(1, sizeof(*h));
	if (!h)
		return -ENOMEM;
	c->hold = h;
	plan(&c->o, c->have_ks ? &c->ks : NULL, s, h->t, &h->kprobe_ok);
	if (!s->available)
		return -EOPNOTSUPP;
	err = open_configure_load(c, h);
	if (err && h->kprobe_ok && c->o.probe_mode != LS_PROBE_FENTRY) {
		/* fentry refused at load: the same targets by kprobe */
		for (unsigned i = 0; i < NTGT; i++)
			if (h->t[i].mech == LS_MECH_FENTRY && h->t[i].nsyms) {
				h->t[i].mech = LS_MECH_KPROBE;
				degraded = 1;
			}
		if (degraded) {
			hold_bpf__destroy(h->skel);
			h->skel = NULL;
			err = open_configure_load(c, h);
		}
	}
	if (err) {
		s->why = LS_WHY_FAILED;
		snprintf(s->reason, sizeof(s->reason),
			 "hold.bpf.c failed to load: %s", ls_probe_why(err));
		return err;
	}
	if (attach(h, s->reason, sizeof(s->reason))) {
		s->why = LS_WHY_FAILED;
		return -EINVAL;
	}
	if (degraded)
		ls_source_set_mech(s, LS_MECH_KPROBE);
	s->active = 1;
	return 0;
}

static int add_hold(struct ls_collector *c, const void *k, const void *v,
		    void *arg)
{
	(void)c;
	ls_snap_add_hold(arg, k, v);
	return 0;
}

int ls_hold_read(struct ls_collector *c, struct ls_snapshot *s)
{
	struct ls_prog_stat sum = {.name = "hold probes"};
	struct bpf_program *p;
	int err;

	if (!c->hold || !c->hold->skel)
		return 0;
	err = ls_read_hash(c, c->hold->skel->maps.hold_stats,
			   sizeof(struct ls_hold_key),
			   sizeof(struct ls_hold_stats), add_hold, s);
	if (err)
		return err;
	/* the probes' cost, one line for all of them, and their misses */
	bpf_object__for_each_program(p, c->hold->skel->obj)
	{
		struct bpf_prog_info info = {};
		__u32 len = sizeof(info);
		int fd = bpf_program__fd(p);

		if (fd < 0 || bpf_obj_get_info_by_fd(fd, &info, &len))
			continue;
		sum.run_cnt += info.run_cnt;
		sum.run_ns += info.run_time_ns;
		sum.misses += info.recursion_misses;
	}
	s->loss[LS_LOSS_RECURSION] += sum.misses;
	if (c->stats_fd >= 0 && s->nprogs < LS_PROG_MAX)
		s->prog[s->nprogs++] = sum;
	return 0;
}

void ls_hold_stop(struct ls_collector *c)
{
	struct ls_hold *h = c->hold;

	if (!h)
		return;
	for (unsigned i = 0; i < h->nlinks; i++)
		bpf_link__destroy(h->links[i]);
	hold_bpf__destroy(h->skel);
	free(h);
	c->hold = NULL;
}
