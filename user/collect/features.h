/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* features.h - one-shot kernel feature probes (collector-internal). */
#ifndef LS_PROBE_H
#define LS_PROBE_H

#include <stddef.h>
#include "model/sources.h"

struct btf;
/* The kernel's BTF, parsed at the first call (about 15 ms) and shared by
 * every start-up step that needs it; NULL when unreadable.  Callers do not
 * free it: ls_kernel_btf_free() does, at the collector's stop. */
struct btf *ls_kernel_btf(void);
void ls_kernel_btf_free(void);

/* Name @s and pick the tracepoints' mechanism: tp_btf when kernel BTF has
 * them, raw_tp when BTF is unreadable, none without the tracepoints. */
enum ls_mech ls_probe_tracepoints(struct ls_source *s);
int ls_probe_fentry(const char *func, char *why, size_t len);
int ls_probe_kprobe(char *why, size_t len);
/* Is @func in the kernel's kprobe blacklist (debugfs)?  1, 0 or -errno. */
int ls_kprobe_blacklisted(const char *func);
int ls_probe_sampler(unsigned hz, char *why, size_t len);
int ls_perf_open_cpu_clock(int cpu, unsigned hz);
/* One kernel BTF field (or kfunc) the holder side uses (holders.bpf.h). */
struct ls_holder_feature {
	const char *field;    /* "mutex.owner", ... */
	int found;	      /* 1 found, 0 absent, -1 BTF unreadable */
	const char *yes, *no; /* what it means either way */
};
/* Look up each field the holder side needs in kernel BTF; returns how many
 * were filled in @out (at most @max). */
unsigned ls_probe_holders(struct ls_holder_feature *out, unsigned max);
/* May programs insert into holder_sites at a spinlock's contention_end?
 * 1 where hash maps made without preallocation draw on bpf_mem_alloc
 * (6.1+: no free-list lock, which could be the spinlock just taken). */
int ls_probe_spin_end_insert(void);
/* Does the verifier take atomic fetch ops (BPF_ATOMIC | BPF_FETCH, 5.12+)?
 * 1 yes, 0 refused (EINVAL), -errno when the probe could not tell; @why
 * says which in words. */
int ls_probe_fetch_atomics(char *why, size_t len);
/* errno explained in words */
const char *ls_probe_why(int err);

#endif
