// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* mapmem.c - kernel memory the BPF maps preallocate, against MemAvailable.
 *
 * The figures follow the kernel's own accounting (map_mem_usage in
 * kernel/bpf/hashtab.c, stackmap.c, arraymap.c), fixed headers of a few
 * hundred bytes left out: what bpftool shows as a map's memlock.  A map
 * size whose preallocation would take more than a tenth of the memory
 * available is refused before anything loads, instead of a start that
 * takes seconds and squeezes the machine.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/types.h>
#include "lockscope.h"
#include "model/mapmem.h"

#define HTAB_ELEM 48	/* sizeof(struct htab_elem) on 64-bit kernels */
#define HTAB_BUCKET 16	/* sizeof(struct bucket) */
#define STACK_BUCKET 16 /* sizeof(struct stack_map_bucket) */

static uint64_t round8(uint64_t v)
{
	return (v + 7) & ~7ULL;
}

static uint64_t pow2_at_least(uint64_t v)
{
	uint64_t p = 1;

	while (p < v)
		p <<= 1;
	return p;
}

uint64_t ls_mapmem_hash(uint64_t entries, uint32_t key_size,
			uint32_t value_size, unsigned ncpus)
{
	uint64_t elem = HTAB_ELEM + round8(key_size) + round8(value_size);

	/* a spare element per CPU, a free-list pointer per CPU, buckets */
	return elem * (entries + ncpus) + 8ULL * ncpus +
	       HTAB_BUCKET * pow2_at_least(entries);
}

uint64_t ls_mapmem_stack(uint64_t entries, uint32_t value_size)
{
	return (STACK_BUCKET + (uint64_t)value_size) * entries +
	       8ULL * pow2_at_least(entries);
}

uint64_t ls_mapmem_rows(uint64_t entries)
{
	/* lock_rows, mmapable: its values page-aligned; free_rows: a queue
	 * of row numbers, one more element than its entries */
	return ((entries * sizeof(struct ls_lock_row) + 4095) & ~4095ULL) +
	       (entries + 1) * sizeof(__u32);
}

/* Per-CPU array: one copy of every value on each CPU. */
static uint64_t percpu_array(uint64_t entries, uint32_t value_size,
			     unsigned ncpus)
{
	return round8(value_size) * entries * ncpus;
}

/* What each size option costs, in bytes. */
static void costs(const struct ls_map_sizes *m, unsigned ncpus,
		  uint64_t cost[4])
{
	/* lock_stats (key -> row), lock_rows, lock_ident (each lock's
	 * identity), osq_vcpu */
	cost[0] = ls_mapmem_hash(m->locks, sizeof(struct ls_lock_key),
				 sizeof(__u32), ncpus) +
		  ls_mapmem_rows(m->locks) +
		  ls_mapmem_hash(m->locks, sizeof(struct ls_lock_key),
				 sizeof(struct ls_lock_ident), ncpus) +
		  ls_mapmem_hash(m->locks, sizeof(struct ls_lock_key),
				 sizeof(struct ls_osq_vcpu), ncpus);
	cost[1] = ls_mapmem_hash(m->tasks, sizeof(__u32),
				 sizeof(struct ls_waits), ncpus) +
		  ls_mapmem_hash(m->tasks, sizeof(__u32),
				 sizeof(struct ls_probe_task), ncpus);
	cost[2] = ls_mapmem_hash(m->callers, sizeof(struct ls_caller_key),
				 sizeof(struct ls_caller_val), ncpus) +
		  ls_mapmem_hash(m->callers, sizeof(struct ls_spin_key),
				 sizeof(__u64), ncpus) +
		  ls_mapmem_hash(m->callers, sizeof(struct ls_holder_key),
				 sizeof(struct ls_holder_val), ncpus);
	cost[3] = ls_mapmem_stack(m->stacks, LS_STACK_DEPTH * sizeof(__u64));
	if (m->hold) { /* hold_watch, hold_stats; hold_tasks */
		cost[0] += ls_mapmem_hash(m->locks, sizeof(__u64),
					  sizeof(__u32), ncpus) +
			   ls_mapmem_hash(m->locks, sizeof(struct ls_hold_key),
					  sizeof(struct ls_hold_stats), ncpus);
		cost[1] += ls_mapmem_hash(m->tasks, sizeof(__u32),
					  sizeof(struct ls_holds), ncpus);
	}
	/* lock_chains (sized 1 with --no-chains: counted anyway) */
	cost[0] += ls_mapmem_hash(LS_CHAIN_ENTRIES(m->locks),
				  sizeof(struct ls_chain_key),
				  sizeof(struct ls_chain_val), ncpus);
	if (m->cgroup) /* lock_cgroups */
		cost[0] += ls_mapmem_hash(m->locks, sizeof(struct ls_cg_key),
					  sizeof(struct ls_cg_val), ncpus);
}

uint64_t ls_mapmem_need(const struct ls_map_sizes *m, unsigned ncpus)
{
	uint64_t cost[4];

	costs(m, ncpus, cost);
	return cost[0] + cost[1] + cost[2] + cost[3] +
	       percpu_array(1, sizeof(struct ls_waits), ncpus) +
	       percpu_array(1, sizeof(struct ls_lock_stats), ncpus) +
	       percpu_array(1, sizeof(struct ls_lock_ident), ncpus) +
	       round8(sizeof(__u64)) *
		       (ncpus < LS_MAX_CPUS ? ncpus : LS_MAX_CPUS) +
	       percpu_array(LS_CTR_MAX + LS_LOSS_MAX + LS_SPIN_SLOTS,
			    sizeof(__u64), ncpus);
}

static const char *human(uint64_t b, char *buf, size_t len)
{
	if (b >= 1ULL << 30)
		snprintf(buf, len, "%.1f GiB", (double)b / (1ULL << 30));
	else
		snprintf(buf, len, "%.1f MiB", (double)b / (1ULL << 20));
	return buf;
}

int ls_mapmem_check(const struct ls_map_sizes *m, unsigned ncpus,
		    uint64_t avail, char *why, size_t len)
{
	static const char *const opt[4] = {"--max-locks", "--max-tasks",
					   "--max-callers", "--max-stacks"};
	const uint32_t val[4] = {m->locks, m->tasks, m->callers, m->stacks};
	uint64_t cost[4], need = ls_mapmem_need(m, ncpus);
	char a[32], b[32], c[32];
	int top = 0;

	/* exact: avail / 100 would round the limit down by up to 99 bytes */
	if ((unsigned __int128)need * 100 <=
	    (unsigned __int128)avail * LS_MAPMEM_SHARE)
		return 0;
	costs(m, ncpus, cost);
	for (int i = 1; i < 4; i++)
		if (cost[i] > cost[top])
			top = i;
	snprintf(why, len,
		 "%s %" PRIu32 " preallocates %s of kernel memory (%s with "
		 "the other maps), more than %d%% of MemAvailable (%s)",
		 opt[top], val[top], human(cost[top], a, sizeof(a)),
		 human(need, b, sizeof(b)), LS_MAPMEM_SHARE,
		 human(avail, c, sizeof(c)));
	return -E2BIG;
}

uint32_t ls_mapmem_auto_locks(const struct ls_map_sizes *m, unsigned ncpus,
			      uint64_t avail)
{
	struct ls_map_sizes t = *m;
	uint32_t locks = LS_DEF_MAX_LOCKS;

	for (;;) {
		t.locks = locks * 2;
		if (t.locks > LS_AUTO_MAX_LOCKS ||
		    (unsigned __int128)ls_mapmem_need(&t, ncpus) * 1000 >
			    (unsigned __int128)avail * LS_MAPMEM_AUTO_PERMILLE)
			return locks;
		locks = t.locks;
	}
}

int ls_meminfo_parse(const char *buf, size_t len, uint64_t *bytes)
{
	static const char key[] = "MemAvailable:";
	const char *p = buf, *end = buf + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;

		if ((size_t)(le - p) > sizeof(key) - 1 &&
		    !memcmp(p, key, sizeof(key) - 1)) {
			char num[32];
			size_t n = (size_t)(le - p) - (sizeof(key) - 1);
			char *e;
			unsigned long long kb;

			if (n >= sizeof(num))
				return -ENOENT;
			memcpy(num, p + sizeof(key) - 1, n);
			num[n] = '\0';
			errno = 0;
			kb = strtoull(num, &e, 10);
			if (errno || e == num || kb > UINT64_MAX / 1024)
				return -ENOENT;
			while (*e == ' ')
				e++;
			if (strcmp(e, "kB"))
				return -ENOENT;
			*bytes = (uint64_t)kb * 1024;
			return 0;
		}
		p = le + 1;
	}
	return -ENOENT;
}

int ls_mem_available(const char *path, uint64_t *bytes)
{
	char buf[16384]; /* /proc/meminfo is about 1.5 KB */
	size_t len = 0;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	while (len < sizeof(buf) &&
	       (n = read(fd, buf + len, sizeof(buf) - len)) > 0)
		len += (size_t)n;
	n = n < 0 ? -errno : 0;
	close(fd);
	if (n)
		return (int)n;
	return ls_meminfo_parse(buf, len, bytes);
}
