// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * owner.c - who holds a lock: runs owner.bpf.c's "syscall" program on
 * demand (BPF_PROG_TEST_RUN), loaded on first use, and believes the task
 * it names only when /proc confirms it.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "collect/collector_int.h"
#include "collect/features.h"
#include "model/naming.h"
#include "util/untrusted_text.h"
#include "owner.skel.h"

static int owner_load(struct ls_collector *c)
{
	if (c->owner || c->owner_err)
		return c->owner_err;
	/* a refusal is reported in the view, not as a verifier log */
	ls_libbpf_quiet = 1;
	c->owner = owner_bpf__open_and_load();
	ls_libbpf_quiet = 0;
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
	char comm[LS_COMM_MAX], bpf_comm[LS_COMM_MAX];
	int err, ok;

	memset(o, 0, sizeof(*o));
	clock_gettime(CLOCK_MONOTONIC, &ts);
	o->mono_ns = (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
	if (c->o.by_class) {
		snprintf(o->why, sizeof(o->why),
			 "a row of --by class stands for many locks");
		return;
	}
	if (!ls_kind_has_owner(key->kind)) {
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
	if (a.err && !ls_owner_addr(a.owner) && a.err != -ENOENT) {
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
	/* Believe the task only if /proc shows it with the same comm (both
	 * made safe the same way). */
	a.comm[sizeof(a.comm) - 1] = '\0';
	ls_text_copy(bpf_comm, sizeof(bpf_comm), a.comm);
	ok = !a.err && a.tid &&
	     !ls_read_comm(a.tgid, a.tid, comm, sizeof(comm)) &&
	     !strcmp(comm, bpf_comm);
	if (ok) {
		o->tid = a.tid;
		o->tgid = a.tgid;
		memcpy(o->comm, bpf_comm, sizeof(o->comm));
	}
	ls_owner_decode(o, key->kind, a.owner, a.count, ok);
}
