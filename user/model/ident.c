// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ident.c - a lock's identity in plain C: origins, slab offsets, the
 * struct a slab cache holds, stable instance numbers (see ident.h).
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/ident.h"

static const char *const origin_names[LS_ORIGIN_MAX] = {
	[LS_ORIGIN_CALLER] = "caller", [LS_ORIGIN_SYMBOL] = "symbol",
	[LS_ORIGIN_SLAB] = "slab",     [LS_ORIGIN_PERCPU] = "percpu",
	[LS_ORIGIN_TASK] = "task",     [LS_ORIGIN_STATIC] = "static",
};

const char *ls_origin_name(unsigned origin)
{
	return origin < LS_ORIGIN_MAX ? origin_names[origin] : "?";
}

int ls_origin_parse(const char *s, unsigned *origin)
{
	for (unsigned i = 0; i < LS_ORIGIN_MAX; i++)
		if (!strcmp(s, origin_names[i])) {
			*origin = i;
			return 0;
		}
	return -EINVAL;
}

int ls_origin_is_named(unsigned origin, const char *cls)
{
	switch (origin) {
	case LS_ORIGIN_SYMBOL:
	case LS_ORIGIN_PERCPU:
	case LS_ORIGIN_TASK:
		return 1;
	case LS_ORIGIN_SLAB: /* type.field, not cache+0xoff or {a.x|b.y} */
		return !strchr(cls, '+') && cls[0] != '{';
	default:
		return 0;
	}
}

int ls_slab_offset(uint64_t addr, uint32_t size, uint32_t object_size,
		   uint32_t red_left_pad, uint32_t order, uint64_t page_size,
		   uint64_t *off)
{
	uint64_t slab, rel;

	if (!size || !page_size || order > 20 || object_size > size ||
	    red_left_pad >= size || (page_size & (page_size - 1)))
		return -EINVAL;
	slab = page_size << order;
	if (size > slab)
		return -EINVAL;
	rel = (addr & (slab - 1)) % size;
	if (rel < red_left_pad || rel - red_left_pad >= object_size)
		return -ERANGE;
	*off = rel - red_left_pad;
	return 0;
}

int ls_cache_is_generic(const char *cache)
{
	static const char *const pre[] = {"kmalloc-", "dma-kmalloc-", "size-"};

	if (!strcmp(cache, "kmem_cache"))
		return 1;
	for (size_t i = 0; i < sizeof(pre) / sizeof(*pre); i++)
		if (!strncmp(cache, pre[i], strlen(pre[i])))
			return 1;
	return 0;
}

/* Caches whose struct is not named after them. */
static const char *const cache_table[][2] = {
	{"sock_inode_cache", "socket_alloc"},
	{"ext4_inode_cache", "ext4_inode_info"},
	{"shmem_inode_cache", "shmem_inode_info"},
	{"proc_inode_cache", "proc_inode"},
	{"inode_cache", "inode"},
	{"bdev_cache", "bdev_inode"},
	{"hugetlbfs_inode_cache", "hugetlbfs_inode_info"},
	{"mqueue_inode_cache", "mqueue_inode_info"},
	{"nfs_inode_cache", "nfs_inode"},
	{"fuse_inode", "fuse_inode"},
	{"sighand_cache", "sighand_struct"},
	{"signal_cache", "signal_struct"},
	{"files_cache", "files_struct"},
	{"fs_cache", "fs_struct"},
	{"filp", "file"},
	{"mnt_cache", "mount"},
	{"cred_jar", "cred"},
	{"uid_cache", "user_struct"},
	{"radix_tree_node", "xa_node"},
	{"eventpoll_epi", "epitem"},
	{"eventpoll_pwq", "eppoll_entry"},
	{"skbuff_head_cache", "sk_buff"},
	{"skbuff_fclone_cache", "sk_buff_fclones"},
	{"kernfs_node_cache", "kernfs_node"},
	{"file_lock_cache", "file_lock"},
	{"file_lock_ctx", "file_lock_context"},
	{"UNIX", "unix_sock"},
	{"UNIX-STREAM", "unix_sock"},
	{"TCP", "tcp_sock"},
	{"TCPv6", "tcp6_sock"},
	{"UDP", "udp_sock"},
	{"UDPv6", "udp6_sock"},
	{"RAW", "raw_sock"},
	{"RAWv6", "raw6_sock"},
	{"PING", "inet_sock"},
	{"NETLINK", "netlink_sock"},
	{"request_sock_TCP", "tcp_request_sock"},
	{"tw_sock_TCP", "tcp_timewait_sock"},
	{"blkdev_ioc", "io_context"},
	{"vm_area_struct", "vm_area_struct"},
	{"task_struct", "task_struct"},
	{"mm_struct", "mm_struct"},
};

size_t ls_cache_types(const char *cache, char (*out)[64], size_t max)
{
	size_t n = 0, len = strlen(cache);

	for (size_t i = 0; i < sizeof(cache_table) / sizeof(*cache_table); i++)
		if (n < max && !strcmp(cache, cache_table[i][0]))
			snprintf(out[n++], 64, "%s", cache_table[i][1]);
	if (n < max && !ls_cache_is_generic(cache) && len < 64 &&
	    (!n || strcmp(out[0], cache)))
		snprintf(out[n++], 64, "%s", cache);
	for (size_t s = 0; s < 2; s++) {
		static const char *const suf[] = {"_cachep", "_cache"};
		size_t sl = strlen(suf[s]);

		if (n < max && len > sl && len - sl < 64 &&
		    !strcmp(cache + len - sl, suf[s])) {
			snprintf(out[n++], 64, "%.*s", (int)(len - sl), cache);
			break;
		}
	}
	return n;
}

/* Callers that only ever lock a lock of one kmalloc'ed struct. */
static const char *const caller_types[][2] = {
	{"anon_pipe_", "pipe_inode_info"},
	{"pipe_", "pipe_inode_info"},
	{"__pipe_", "pipe_inode_info"},
	{"fifo_open", "pipe_inode_info"},
};

const char *ls_caller_type(const char *caller)
{
	for (size_t i = 0; i < sizeof(caller_types) / sizeof(*caller_types);
	     i++)
		if (!strncmp(caller, caller_types[i][0],
			     strlen(caller_types[i][0])))
			return caller_types[i][1];
	return NULL;
}

/* ---- instance numbers ------------------------------------------------ */

struct ls_inst_ent {
	uint64_t addr; /* 0: empty slot */
	size_t base;   /* index into ls_instances.base */
	unsigned inst;
	int dead; /* dropped: a tombstone for probing */
};

struct ls_inst_base {
	char *name;
	unsigned next; /* numbers given so far */
};

void ls_inst_init(struct ls_instances *in)
{
	memset(in, 0, sizeof(*in));
}

void ls_inst_free(struct ls_instances *in)
{
	for (size_t i = 0; i < in->nbase; i++)
		free(in->base[i].name);
	free(in->base);
	free(in->ent);
	memset(in, 0, sizeof(*in));
}

static size_t hash_addr(uint64_t a)
{
	a ^= a >> 33;
	a *= 0xff51afd7ed558ccdULL;
	a ^= a >> 33;
	return (size_t)a;
}

/* The slot of @addr, or the first free one on its probe path. */
static struct ls_inst_ent *ent_slot(const struct ls_instances *in,
				    uint64_t addr)
{
	size_t m = in->ent_cap - 1, i = hash_addr(addr) & m;
	struct ls_inst_ent *tomb = NULL;

	for (;; i = (i + 1) & m) {
		struct ls_inst_ent *e = &in->ent[i];

		if (!e->addr)
			return tomb ? tomb : e;
		if (e->dead) {
			if (!tomb)
				tomb = e;
			continue;
		}
		if (e->addr == addr)
			return e;
	}
}

static int ent_grow(struct ls_instances *in)
{
	struct ls_instances old = *in;
	size_t cap = in->ent_cap ? in->ent_cap * 2 : 1024;

	in->ent = calloc(cap, sizeof(*in->ent));
	if (!in->ent) {
		in->ent = old.ent;
		return -ENOMEM;
	}
	in->ent_cap = cap;
	in->nent = 0;
	for (size_t i = 0; i < old.ent_cap; i++)
		if (old.ent[i].addr && !old.ent[i].dead) {
			*ent_slot(in, old.ent[i].addr) = old.ent[i];
			in->nent++;
		}
	free(old.ent);
	return 0;
}

/* Index of base name @name, created with no number given; -1 on ENOMEM.
 * Bases are few (one per lock class): a linear search is enough. */
static long base_of(struct ls_instances *in, const char *name)
{
	for (size_t i = 0; i < in->nbase; i++)
		if (!strcmp(in->base[i].name, name))
			return (long)i;
	if (in->nbase == in->base_cap) {
		size_t cap = in->base_cap ? in->base_cap * 2 : 64;
		struct ls_inst_base *p = realloc(in->base, cap * sizeof(*p));

		if (!p)
			return -1;
		in->base = p;
		in->base_cap = cap;
	}
	in->base[in->nbase].name = strdup(name);
	if (!in->base[in->nbase].name)
		return -1;
	in->base[in->nbase].next = 0;
	return (long)in->nbase++;
}

unsigned ls_inst_get(struct ls_instances *in, uint64_t addr, const char *base)
{
	struct ls_inst_ent *e;
	long b;

	if (!addr)
		return 1;
	if ((in->nent + 1) * 2 > in->ent_cap && ent_grow(in))
		return 0;
	e = ent_slot(in, addr);
	if (e->addr == addr && !e->dead &&
	    !strcmp(in->base[e->base].name, base))
		return e->inst;
	b = base_of(in, base);
	if (b < 0)
		return 0;
	if (!e->addr)
		in->nent++; /* slots in use, tombstones included */
	e->addr = addr;
	e->dead = 0;
	e->base = (size_t)b;
	e->inst = ++in->base[b].next;
	return e->inst;
}

void ls_inst_drop(struct ls_instances *in, uint64_t addr)
{
	struct ls_inst_ent *e;

	if (!in->ent_cap || !addr)
		return;
	e = ent_slot(in, addr);
	if (e->addr == addr && !e->dead)
		e->dead = 1;
}

void ls_inst_name(char *out, size_t len, const char *base, unsigned inst)
{
	if (inst > 1)
		snprintf(out, len, "%s#%u", base, inst);
	else
		snprintf(out, len, "%s", base);
}

void ls_name_class(char *out, size_t len, const char *name)
{
	const char *hash;

	snprintf(out, len, "%s", name);
	/* cut trailing #N, then #cpuN */
	for (int i = 0; i < 2; i++) {
		const char *p;

		hash = strrchr(out, '#');
		if (!hash)
			return;
		p = hash + 1;
		if (!strncmp(p, "cpu", 3))
			p += 3;
		if (!*p)
			return;
		while (isdigit((unsigned char)*p))
			p++;
		if (*p)
			return;
		out[hash - out] = '\0';
	}
}
