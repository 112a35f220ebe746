/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* mapmem.h - kernel memory the BPF maps preallocate, against MemAvailable. */
#ifndef LS_MAPMEM_H
#define LS_MAPMEM_H

#include <stddef.h>
#include <stdint.h>

/* The sizes the options choose (--max-locks, --max-tasks, ...). */
struct ls_map_sizes {
	uint32_t locks, tasks, callers, stacks;
	int hold;   /* --hold: its maps too (locks and tasks sized) */
	int cgroup; /* --by cgroup: lock_cgroups (sized like the locks) */
};

/* Maps may take at most this share of MemAvailable, in percent. */
#define LS_MAPMEM_SHARE 10
/* Without --max-locks: the lock table grows from LS_DEF_MAX_LOCKS by
 * doubling, up to LS_AUTO_MAX_LOCKS, while all maps take at most this
 * share of MemAvailable, in thousandths (maps are preallocated and zeroed
 * at start: 131072 locks, 220 MiB, add about 0.1 s to it here). */
#define LS_MAPMEM_AUTO_PERMILLE 5
#define LS_AUTO_MAX_LOCKS 131072

/*
 * Bytes the kernel preallocates for lockscope's maps of @m on @ncpus
 * possible CPUs, as its map_mem_usage reports them (hash maps: elements
 * with their headers, the CPUs' spare elements, buckets; the stack map:
 * buckets and their frames; per-CPU arrays: a copy per CPU).
 */
uint64_t ls_mapmem_need(const struct ls_map_sizes *m, unsigned ncpus);
/* One preallocated BPF_MAP_TYPE_HASH of @entries, as the kernel sizes it. */
uint64_t ls_mapmem_hash(uint64_t entries, uint32_t key_size,
			uint32_t value_size, unsigned ncpus);
/* One BPF_MAP_TYPE_STACK_TRACE of @entries. */
uint64_t ls_mapmem_stack(uint64_t entries, uint32_t value_size);
/* lock_rows (mmapable array) and free_rows (queue) for @entries locks */
uint64_t ls_mapmem_rows(uint64_t entries);

/*
 * 0 when @m fits in LS_MAPMEM_SHARE percent of @avail bytes; else -E2BIG
 * with @why naming the figures and the option that takes the most.
 */
int ls_mapmem_check(const struct ls_map_sizes *m, unsigned ncpus,
		    uint64_t avail, char *why, size_t len);
/* --max-locks from memory: the largest of LS_DEF_MAX_LOCKS doubled up to
 * LS_AUTO_MAX_LOCKS with which @m's maps (@m->locks replaced) take at most
 * LS_MAPMEM_AUTO_PERMILLE thousandths of @avail bytes; LS_DEF_MAX_LOCKS at
 * least. */
uint32_t ls_mapmem_auto_locks(const struct ls_map_sizes *m, unsigned ncpus,
			      uint64_t avail);

/* MemAvailable from /proc/meminfo text @buf; 0 or -ENOENT. */
int ls_meminfo_parse(const char *buf, size_t len, uint64_t *bytes);
/* The same from the file @path, read bounded; 0 or -errno. */
int ls_mem_available(const char *path, uint64_t *bytes);

#endif
