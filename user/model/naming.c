// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* naming.c - callers from sampled stacks, and display names for locks
 * without exposing their addresses. */
#include <stdio.h>
#include <string.h>
#include "model/naming.h"

/* Locking primitives, their slow paths and the tracing frames above them. */
static const char *const lock_prefixes[] = {
	"_raw_spin_",
	"_raw_read_",
	"_raw_write_",
	"__raw_spin_",
	"queued_",
	"native_queued_",
	"__pv_queued_",
	"pv_queued_",
	"resilient_queued_",
	"do_raw_spin",
	"osq_",
	"mutex_lock",
	"__mutex_lock",
	"mutex_spin_on_owner",
	"mutex_optimistic_spin",
	"ww_mutex_lock",
	"__ww_mutex_lock",
	"down_read",
	"down_write",
	"__down",
	"down",
	"rwsem_",
	"__rwsem_",
	"up_read",
	"up_write",
	"rt_mutex",
	"__rt_mutex",
	"rt_spin_",
	"rtlock_",
	"rwbase_",
	"rt_read_",
	"rt_write_",
	"percpu_down_",
	"__percpu_down_",
	"percpu_rwsem_",
	"lock_acquire",
	"bpf_trace_run",
	"__bpf_trace_",
	"__traceiter_",
	"trace_contention_",
	"__trace_contention",
	"perf_trace_",
	"bpf_prog_",
	"__bpf_prog_",
	"bpf_trampoline_",   /* fentry/fexit on a lock function (--hold) */
	"ftrace_trampoline", /* ... and its ftrace glue */
	"mmap_read_lock",
	"mmap_write_lock",
	"__mmap_lock",
	"_down_write",
	"_down_read",
	"raw_spin_rq_lock",
	"_raw_spin_rq_lock",
	"__task_rq_lock",
	"task_rq_lock",
	"double_rq_lock",
	"_double_lock_balance",
	"mutex_unlock",
	"__mutex_unlock",
	"__up_read",
	"__up_write",
};

int ls_is_lock_fn_name(const char *name)
{
	for (size_t i = 0; i < sizeof(lock_prefixes) / sizeof(*lock_prefixes);
	     i++)
		if (!strncmp(name, lock_prefixes[i], strlen(lock_prefixes[i])))
			return 1;
	return 0;
}

int ls_is_lock_fn(const struct ls_ksyms *ks, const struct ls_ksym *sym)
{
	if (ks->lock_text_start && sym->addr >= ks->lock_text_start &&
	    sym->addr < ks->lock_text_end)
		return 1;
	return ls_is_lock_fn_name(sym->name);
}

static int is_trace_fn(const char *name)
{
	return !strncmp(name, "bpf_trace_run", 13) ||
	       !strncmp(name, "__bpf_trace_", 12) ||
	       !strncmp(name, "__traceiter_", 12) ||
	       !strncmp(name, "__bpf_prog_", 11);
}

const char *ls_caller_of(const struct ls_ksyms *ks, const uint64_t *ips,
			 size_t n)
{
	size_t start = 0;

	/* A stack taken in a tracepoint program starts in the program and
	 * the tracing glue: begin after the last tracing frame. */
	for (size_t i = 0; i < n && ips[i]; i++) {
		const struct ls_ksym *s = ls_ksyms_find(ks, ips[i], NULL);

		if (s && is_trace_fn(s->name))
			start = i + 1;
	}
	for (size_t i = start; i < n && ips[i]; i++) {
		const struct ls_ksym *s = ls_ksyms_find(ks, ips[i], NULL);

		/* unknown code (BPF programs without kallsyms) is skipped */
		if (!s || !strchr("tTwW", s->type))
			continue;
		if (!ls_is_lock_fn(ks, s))
			return s->name;
	}
	return NULL;
}

size_t ls_stack_frames(const struct ls_ksyms *ks, const uint64_t *ips, size_t n,
		       char *buf, size_t len)
{
	size_t start = 0, end = 0, nf = 0, off = 0;

	if (!len)
		return 0;
	buf[0] = '\0';
	for (size_t i = 0; i < n && ips[i]; i++) {
		const struct ls_ksym *s = ls_ksyms_find(ks, ips[i], NULL);

		if (s && is_trace_fn(s->name))
			start = i + 1;
		end = i + 1;
	}
	for (size_t i = end; i > start; i--) {
		const struct ls_ksym *s = ls_ksyms_find(ks, ips[i - 1], NULL);
		const char *fn =
			s && strchr("tTwW", s->type) ? s->name : "[unknown]";
		int w = snprintf(buf + off, len - off, "%s%s", nf ? ";" : "",
				 fn);

		if (w < 0 || (size_t)w >= len - off) {
			buf[off] = '\0'; /* keep whole frames only */
			break;
		}
		off += (size_t)w;
		nf++;
	}
	return nf;
}

void ls_name_row(const struct ls_ksyms *ks, struct ls_row *row,
		 struct ls_instances *inst, int with_addr)
{
	const char *known = ls_known_class(row->st.known);
	const struct ls_ksym *sym = NULL, *next = NULL;
	char cls[LS_NAME_MAX], base[LS_NAME_MAX];
	unsigned n = 1;
	size_t len;

	if (ks)
		sym = ls_ksyms_find(ks, row->key.addr, &next);
	if (row->origin == LS_ORIGIN_SLAB || row->origin == LS_ORIGIN_PERCPU) {
		/* named from memory layout by the collector: keep it */
		ls_row_class(row, cls, sizeof(cls));
	} else if (known) {
		row->origin = LS_ORIGIN_TASK;
		snprintf(cls, sizeof(cls), "%s", known);
	} else if (sym && ls_ksym_is_data(sym) && next &&
		   row->key.addr - sym->addr < 4096) {
		row->origin = LS_ORIGIN_SYMBOL;
		if (row->key.addr == sym->addr)
			snprintf(cls, sizeof(cls), "%s", sym->name);
		else
			snprintf(cls, sizeof(cls), "%s+0x%llx", sym->name,
				 (unsigned long long)(row->key.addr -
						      sym->addr));
	} else {
		const char *caller = ls_row_top_caller(row);

		row->origin = row->key.addr >= LS_KERNEL_IMAGE
				      ? LS_ORIGIN_STATIC
				      : LS_ORIGIN_CALLER;
		snprintf(cls, sizeof(cls), "%s@%s", ls_kind_base(row->key.kind),
			 *caller ? caller : "?");
	}
	if (row->pcpu)
		snprintf(base, sizeof(base), "%.*s#cpu%u", LS_NAME_MAX - 16,
			 cls, row->pcpu - 1);
	else
		snprintf(base, sizeof(base), "%s", cls);
	if (inst && (n = ls_inst_get(inst, row->key.addr, base)) == 0)
		n = 1; /* out of memory: the name without its number */
	ls_inst_name(row->name, sizeof(row->name), base, n);
	/* the class is the name's start (all of it that fits there) */
	for (len = 0; cls[len] && cls[len] == row->name[len]; len++)
		;
	row->cls_len = (unsigned)len;
	len = strlen(row->name);
	if (with_addr && len < sizeof(row->name))
		snprintf(row->name + len, sizeof(row->name) - len, " [%llx]",
			 (unsigned long long)row->key.addr);
}
