/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* naming.h - callers from stacks, and names for locks without addresses. */
#ifndef LS_NAMING_H
#define LS_NAMING_H

#include <stddef.h>
#include <stdint.h>
#include "model/ident.h"
#include "model/kallsyms.h"
#include "model/model.h"

/* Is @name locking or tracing machinery (skipped when looking for a caller)? */
int ls_is_lock_fn_name(const char *name);
/* Is the symbol locking code: in the lock text section or named like it? */
int ls_is_lock_fn(const struct ls_ksyms *ks, const struct ls_ksym *sym);
/* First frame of @ips outside locking code, or NULL. */
const char *ls_caller_of(const struct ls_ksyms *ks, const uint64_t *ips,
			 size_t n);
/*
 * The frames of a sampled stack @ips (leaf first, as the kernel gives them)
 * for a flame graph: root first, joined by ';', from below the tracing glue
 * (BPF program, trace hooks) down to the lock's slow path.  Unknown
 * addresses are "[unknown]".  Returns the frames written, 0 if none.
 */
size_t ls_stack_frames(const struct ls_ksyms *ks, const uint64_t *ips, size_t n,
		       char *buf, size_t len);
/*
 * Name @row: its class and row->origin, then row->name, which starts with
 * the class (row->cls_len).  A class from memory layout already in the row
 * (origin slab or percpu, set by the collector as its name) stays; else a
 * recognised lock ("mm_struct.mmap_lock", origin task), a kernel data symbol
 * ("text_mutex", "jiffies_lock+0x8"), else
 * "<kind>@<most sampled caller>" (origin static in the kernel image, else
 * caller).  Per-CPU rows get "#cpuN"; with @inst, a second lock of the
 * same name gets "#2", a third "#3" (stable, by first sight).  With
 * @with_addr the raw address is appended (" [ffff...]").  @ks and @inst
 * may be NULL.
 */
void ls_name_row(const struct ls_ksyms *ks, struct ls_row *row,
		 struct ls_instances *inst, int with_addr);

#endif
