// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * maps.c - what every reader of the BPF maps shares (read.c, sites.c,
 * cgroup.c, chains.c, hold.c): every entry of a hash map through a
 * callback, with batch lookups where the kernel has them, and a stack id
 * resolved to its caller function once.
 */
#include <errno.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "collect/collector_int.h"
#include "model/naming.h"

/* Iterate a hash map with batch lookups (get_next_key on old kernels). */
int ls_read_hash(struct ls_collector *c, struct bpf_map *map, size_t ksz,
		 size_t vsz,
		 int (*fn)(struct ls_collector *, const void *, const void *,
			   void *),
		 void *arg)
{
	int fd = bpf_map__fd(map), err = 0;
	__u64 in = 0, out = 0;
	void *inp = NULL;
	LIBBPF_OPTS(bpf_map_batch_opts, opts);

	for (;;) {
		__u32 count = LS_BATCH;

		err = bpf_map_lookup_batch(fd, inp, &out, c->keys, c->vals,
					   &count, &opts);
		if (err && errno != ENOENT) {
			if (errno == EINVAL || errno == ENOTSUP)
				break; /* no batch ops: fall back below */
			return -errno;
		}
		for (__u32 i = 0; i < count; i++) {
			int e = fn(c, (char *)c->keys + i * ksz,
				   (char *)c->vals + i * vsz, arg);

			if (e)
				return e;
		}
		if (err) /* ENOENT: done */
			return 0;
		in = out;
		inp = &in;
	}
	/* Fallback: one key at a time. */
	{
		char key[64], next[64];
		void *prev = NULL;

		while (!bpf_map_get_next_key(fd, prev, next)) {
			if (!bpf_map_lookup_elem(fd, next, c->vals)) {
				int e = fn(c, next, c->vals, arg);

				if (e)
					return e;
			}
			memcpy(key, next, ksz);
			prev = key;
		}
	}
	return 0;
}

/* The caller function of stack @id, resolved once per stack id. */
const char *ls_resolve_stack(struct ls_collector *c, __s32 id)
{
	uint64_t ips[LS_STACK_DEPTH] = {};
	const char *fn;

	if (id < 0 || (uint32_t)id >= c->o.max_stacks)
		return "?";
	if (c->stack_caller[id])
		return c->stack_caller[id];
	if (bpf_map_lookup_elem(bpf_map__fd(c->skel->maps.stacks), &id, ips))
		return "?";
	fn = c->have_ks ? ls_caller_of(&c->ks, ips, LS_STACK_DEPTH) : NULL;
	c->stack_caller[id] = fn ? fn : "?";
	return c->stack_caller[id];
}
