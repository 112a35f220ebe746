// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * chains.c - the collector's side of wait-for chains (bpf/chains.bpf.h):
 * switch them on or off and size lock_chains before load, read it into
 * the snapshot, and say which sources the walk can use on this kernel
 * (doctor).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "collect/collector_int.h"
#include "collect/features.h"

/* The batch buffers hold lock_chains' keys (lifecycle.c sizes them). */
_Static_assert(sizeof(struct ls_chain_key) >= sizeof(struct ls_holder_key),
	       "batch key buffer");

void ls_chains_configure(struct ls_collector *c)
{
	c->skel->rodata->chains_on = !c->o.no_chains;
	bpf_map__set_max_entries(
		c->skel->maps.lock_chains,
		c->o.no_chains ? 1 : LS_CHAIN_ENTRIES(c->o.max_locks));
}

static int add_chain(struct ls_collector *c, const void *k, const void *v,
		     void *arg)
{
	const struct ls_chain_key *ck = k;
	struct ls_chainrow r = {
		.key = {.addr = ck->addr, .kind = ck->kind},
		.next = {.addr = ck->next,
			 .kind = LS_CHAIN_NEXT_KIND(ck->kinds)},
		.root = {.addr = ck->root,
			 .kind = LS_CHAIN_ROOT_KIND(ck->kinds)}};

	(void)c;
	memcpy(&r.v, v, sizeof(r.v));
	return ls_snap_add_chain(arg, &r);
}

int ls_chains_read(struct ls_collector *c, struct ls_snapshot *s)
{
	int err;

	s->nchains = 0;
	s->chains_on = !c->o.no_chains;
	if (c->o.no_chains)
		return 0;
	err = ls_read_hash(c, c->skel->maps.lock_chains,
			   sizeof(struct ls_chain_key),
			   sizeof(struct ls_chain_val), add_chain, s);
	if (err)
		return err;
	qsort(s->chains, s->nchains, sizeof(*s->chains), ls_chain_cmp);
	if (s->kidx_n != s->nrows)
		ls_snap_index(s);
	ls_chains_name(s, c->o.with_addr);
	return 0;
}

/* task_struct has a member @name in @btf: 1, 0, or -1 unreadable. */
static int task_has(const struct btf *btf, const char *name)
{
	const struct btf_type *t;
	const struct btf_member *m;
	int id;

	if (!btf)
		return -1;
	id = btf__find_by_name_kind(btf, "task_struct", BTF_KIND_STRUCT);
	if (id < 0)
		return -1;
	t = btf__type_by_id(btf, (__u32)id);
	m = btf_members(t);
	for (unsigned i = 0; i < btf_vlen(t); i++)
		if (!strcmp(btf__name_by_offset(btf, m[i].name_off), name))
			return 1;
	return 0;
}

enum ls_chain_flag ls_chains_check(void)
{
	int b = task_has(ls_kernel_btf(), "blocker");

	if (b < 0)
		return LS_CHAINS_NO_BTF;
	return b ? LS_CHAINS_BLOCKER : LS_CHAINS_OWN_ONLY;
}

const char *ls_chains_reason(enum ls_chain_flag f)
{
	switch (f) {
	case LS_CHAINS_BLOCKER:
		return "a holder's own open wait (task_state, any lock "
		       "lockscope saw it begin), else task_struct.blocker "
		       "(the mutex, semaphore or rwsem the kernel says it "
		       "sleeps on)";
	case LS_CHAINS_OWN_ONLY:
		return "a holder's own open wait only (task_state): no "
		       "task_struct.blocker in this kernel's BTF "
		       "(CONFIG_DETECT_HUNG_TASK_BLOCKER, 6.16+)";
	case LS_CHAINS_NO_BTF:
		return "kernel BTF unreadable: chains need CO-RE";
	}
	return "?";
}
