// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * stacks.c - the sampled waiter stacks of lock_callers, whole, for flame
 * graphs: each stack's frames resolved once (kallsyms), its samples and the
 * wait time of its sampled waits (added in BPF at their ends).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "collect/collector_int.h"
#include "model/naming.h"
#include "model/stacks.h"

/* Frames of stack @id, root first; "[unknown]" when it cannot be read. */
static const char *frames_of(struct ls_collector *c, __s32 id)
{
	uint64_t ips[LS_STACK_DEPTH] = {};
	char buf[LS_STACK_DEPTH * (LS_FN_MAX + 1)];

	if (id < 0 || (uint32_t)id >= c->o.max_stacks)
		return "[unknown]";
	if (c->stack_frames[id])
		return c->stack_frames[id];
	if (bpf_map_lookup_elem(bpf_map__fd(c->skel->maps.stacks), &id, ips) ||
	    !c->have_ks ||
	    !ls_stack_frames(&c->ks, ips, LS_STACK_DEPTH, buf, sizeof(buf)))
		return "[unknown]"; /* not kept: kallsyms may come later */
	c->stack_frames[id] = strdup(buf);
	return c->stack_frames[id] ? c->stack_frames[id] : "[unknown]";
}

struct stacks_arg {
	struct ls_snapshot *named;
	struct ls_stacks *out;
};

static int add_stack(struct ls_collector *c, const void *k, const void *v,
		     void *arg)
{
	const struct ls_caller_key *ck = k;
	const struct ls_caller_val *cv = v;
	struct stacks_arg *a = arg;
	struct ls_lock_key lk = {.addr = ck->addr, .kind = ck->kind};
	const struct ls_row *r = ls_snap_find(a->named, &lk);

	if (!r || !cv->count)
		return 0;
	return ls_stacks_add(a->out, r->name, ck->kind,
			     frames_of(c, ck->stack_id), cv->count,
			     cv->wait_ns);
}

int ls_collector_stacks(struct ls_collector *c, struct ls_snapshot *named,
			struct ls_stacks *out)
{
	struct stacks_arg a = {named, out};

	ls_snap_index(named); /* rows may have moved (sort, filter) */
	return ls_read_hash(c, c->skel->maps.lock_callers,
			    sizeof(struct ls_caller_key),
			    sizeof(struct ls_caller_val), add_stack, &a);
}
