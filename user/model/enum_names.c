// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* enum_names.c - the printable names of the contract's enums: lock kinds
 * (and their parser), losses, event counters, locks recognised in BPF, and
 * their one-word form for keys and label values. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include "model/model.h"

static const char *const kind_names[LS_KIND_MAX] = {
	[LS_KIND_UNKNOWN] = "unknown",
	[LS_KIND_SPINLOCK] = "spinlock",
	[LS_KIND_RWLOCK_R] = "rwlock:R",
	[LS_KIND_RWLOCK_W] = "rwlock:W",
	[LS_KIND_MUTEX] = "mutex",
	[LS_KIND_RWSEM_R] = "rwsem:R",
	[LS_KIND_RWSEM_W] = "rwsem:W",
	[LS_KIND_RT_MUTEX] = "rt_mutex",
	[LS_KIND_RTLOCK_R] = "rtlock:R",
	[LS_KIND_RTLOCK_W] = "rtlock:W",
	[LS_KIND_PCPU_RWSEM_R] = "pcpu-rwsem:R",
	[LS_KIND_PCPU_RWSEM_W] = "pcpu-rwsem:W",
	[LS_KIND_SEMAPHORE] = "semaphore",
};

const char *ls_kind_name(unsigned kind)
{
	return kind < LS_KIND_MAX ? kind_names[kind] : "unknown";
}

const char *ls_kind_base(unsigned kind)
{
	static char buf[LS_KIND_MAX][16];
	const char *n = ls_kind_name(kind);
	const char *colon = strchr(n, ':');

	if (!colon)
		return n;
	snprintf(buf[kind], sizeof(buf[kind]), "%.*s", (int)(colon - n), n);
	return buf[kind];
}

int ls_kind_parse(const char *s, uint32_t *mask)
{
	uint32_t m = 0;

	for (unsigned k = 1; k < LS_KIND_MAX; k++)
		if (!strcasecmp(s, kind_names[k]) ||
		    !strcasecmp(s, ls_kind_base(k)))
			m |= 1U << k;
	if (!m)
		return -EINVAL;
	*mask |= m;
	return 0;
}

static const char *const loss_names[LS_LOSS_MAX] = {
	[LS_LOSS_TASK_MAP_FULL] = "task map full",
	[LS_LOSS_LOCK_MAP_FULL] = "lock map full",
	[LS_LOSS_DEPTH] = "nesting too deep",
	[LS_LOSS_END_UNMATCHED] = "end without begin",
	[LS_LOSS_STACK] = "stack failed",
	[LS_LOSS_CALLER_MAP_FULL] = "caller map full",
	[LS_LOSS_SAMPLE_MAP_FULL] = "sample map full",
	[LS_LOSS_ORPHANED] = "begin without end",
	[LS_LOSS_PROBE_NESTED] = "probe nesting",
	[LS_LOSS_OSQ_OUTER] = "osq outer lock unknown",
	[LS_LOSS_RECURSION] = "skipped by kernel (nested)",
	[LS_LOSS_HOLDER_MAP_FULL] = "holder map full",
	[LS_LOSS_IDENT_MAP_FULL] = "name map full",
	[LS_LOSS_HOLD_DEPTH] = "hold: too many held",
	[LS_LOSS_HOLD_MAP_FULL] = "hold: map full",
	[LS_LOSS_HOLD_UNMATCHED] = "hold: release without acquire",
	[LS_LOSS_ROWS_FULL] = "lock rows full",
	[LS_LOSS_CGROUP_MAP_FULL] = "cgroup map full",
	[LS_LOSS_OSQ_MAP_FULL] = "osq vcpu map full",
	[LS_LOSS_CHAIN_MAP_FULL] = "chain map full",
};

const char *ls_loss_name(unsigned loss)
{
	return loss < LS_LOSS_MAX ? loss_names[loss] : "?";
}

/* Losses a bigger table would avoid, and the option that sizes it. */
static const char *const loss_hints[LS_LOSS_MAX] = {
	[LS_LOSS_LOCK_MAP_FULL] = "lock table full: raise --max-locks",
	[LS_LOSS_TASK_MAP_FULL] = "task table full: raise --max-tasks",
	[LS_LOSS_IDENT_MAP_FULL] = "name table full: raise --max-locks",
	[LS_LOSS_HOLD_MAP_FULL] = "hold table full: raise --max-locks or "
				  "--max-tasks",
	[LS_LOSS_CALLER_MAP_FULL] = "caller table full: raise --max-callers",
	[LS_LOSS_SAMPLE_MAP_FULL] = "caller table full: raise --max-callers",
	[LS_LOSS_HOLDER_MAP_FULL] = "holder table full: raise --max-callers",
	[LS_LOSS_ROWS_FULL] = "lock rows full: raise --max-locks",
	[LS_LOSS_CHAIN_MAP_FULL] = "chain table full: raise --max-locks",
};

/* In this order: a lost wait before a lost name before a lost caller. */
static const unsigned hint_order[] = {
	LS_LOSS_LOCK_MAP_FULL,	 LS_LOSS_TASK_MAP_FULL,
	LS_LOSS_IDENT_MAP_FULL,	 LS_LOSS_ROWS_FULL,
	LS_LOSS_HOLD_MAP_FULL,	 LS_LOSS_CALLER_MAP_FULL,
	LS_LOSS_SAMPLE_MAP_FULL, LS_LOSS_HOLDER_MAP_FULL,
	LS_LOSS_CHAIN_MAP_FULL,
};

const char *ls_loss_hint(const uint64_t loss[LS_LOSS_MAX])
{
	for (size_t i = 0; i < sizeof(hint_order) / sizeof(*hint_order); i++)
		if (loss[hint_order[i]])
			return loss_hints[hint_order[i]];
	return NULL;
}

static const char *const ctr_names[LS_CTR_MAX] = {
	[LS_CTR_BEGIN] = "begins",
	[LS_CTR_END] = "ends",
	[LS_CTR_PHASE] = "spin-to-sleep",
	[LS_CTR_RECORDED] = "recorded",
	[LS_CTR_SAMPLES] = "samples",
	[LS_CTR_SAMPLES_KERNEL] = "kernel samples",
	[LS_CTR_SAMPLES_SPIN] = "spin samples",
	[LS_CTR_STACKS] = "caller stacks",
	[LS_CTR_OSQ_CALLS] = "osq_lock calls",
	[LS_CTR_OSQ_BAILOUTS] = "osq_lock bail-outs",
	[LS_CTR_SLOW_CALLS] = "slow-path calls",
	[LS_CTR_HOLDER_STACKS] = "holder stacks",
	[LS_CTR_HOLDS] = "holds measured",
	[LS_CTR_VCPU_UNREAD] = "holder vCPU flag unread",
	[LS_CTR_CHAIN_WALKS] = "chain walks",
	[LS_CTR_CHAIN_HOPS_OWN] = "chain hops (own waits)",
	[LS_CTR_CHAIN_HOPS_BLOCKER] = "chain hops (task blocker)",
};

const char *ls_ctr_name(unsigned ctr)
{
	return ctr < LS_CTR_MAX ? ctr_names[ctr] : "?";
}

const char *ls_known_name(unsigned known)
{
	switch (known) {
	case LS_KNOWN_MMAP_LOCK:
		return "mmap_lock";
	case LS_KNOWN_SIGLOCK:
		return "siglock";
	default:
		return NULL;
	}
}

const char *ls_known_class(unsigned known)
{
	switch (known) {
	case LS_KNOWN_MMAP_LOCK:
		return "mm_struct.mmap_lock";
	case LS_KNOWN_SIGLOCK:
		return "sighand_struct.siglock";
	default:
		return NULL;
	}
}

const char *ls_name_key(char *buf, size_t len, const char *name)
{
	size_t n = 0;

	if (!len)
		return buf;
	for (; *name && n + 1 < len; name++) {
		unsigned char c = (unsigned char)*name;

		if (isalnum(c))
			buf[n++] = (char)tolower(c);
		else if (n && buf[n - 1] != '_')
			buf[n++] = '_';
	}
	while (n && buf[n - 1] == '_')
		n--;
	buf[n] = '\0';
	return buf;
}
