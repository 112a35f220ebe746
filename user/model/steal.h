/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* steal.h - the hypervisor's steal time per CPU, from /proc/stat's steal
 * column (USER_HZ ticks): parsed, subtracted, formatted (steal.c). */
#ifndef LS_STEAL_H
#define LS_STEAL_H

#include <stddef.h>
#include <stdint.h>

#define LS_STEAL_CPUS 256 /* CPUs kept one by one; all count in total */

struct ls_steal {
	unsigned ncpus;		     /* highest cpuN + 1 kept; 0: not known */
	uint64_t total;		     /* the "cpu" line */
	uint64_t cpu[LS_STEAL_CPUS]; /* by CPU number */
};

/* Fill @out from the text of /proc/stat: 0, or -EINVAL when it has no
 * "cpu" line with a steal column (kernels before 2.6.11). */
int ls_steal_parse(const char *text, struct ls_steal *out);
/* @d = @a - @b (counters; a CPU that went backwards counts 0). */
void ls_steal_sub(struct ls_steal *d, const struct ls_steal *a,
		  const struct ls_steal *b);
/* "0.12s (cpu0 0.05s, cpu1 0.07s)" at @hz ticks a second (more than 8
 * CPUs: the total and the largest one), or "not known". */
void ls_steal_format(char *buf, size_t len, const struct ls_steal *s, long hz);

#endif
