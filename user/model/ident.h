/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * ident.h - a lock's identity in plain C: where its name came from
 * (origin), the offset of a lock inside its slab object, which struct a
 * slab cache holds, and stable instance numbers (#2, #3, ...) for locks
 * that share a name.  The BTF side (offset -> field) is in
 * user/collect/btf_names.c.
 */
#ifndef LS_IDENT_H
#define LS_IDENT_H

#include <stddef.h>
#include <stdint.h>

/* Where a row's name comes from (JSON and records: ls_origin_name). */
enum ls_origin {
	LS_ORIGIN_CALLER = 0, /* <kind>@<most sampled caller> */
	LS_ORIGIN_SYMBOL,     /* a kallsyms data symbol */
	LS_ORIGIN_SLAB,	      /* a slab object: type.field, {a.x|b.y} (one of
			       * merged caches' structs) or cache+0xoff */
	LS_ORIGIN_PERCPU,     /* per-CPU data: type.field, #cpuN */
	LS_ORIGIN_TASK,	      /* recognised from the current task (mmap_lock,
			       * siglock) where no slab name is known */
	LS_ORIGIN_STATIC,     /* kernel image data without a symbol: caller
			       * form, no better name possible */
	LS_ORIGIN_MAX,
};

const char *ls_origin_name(unsigned origin);
/* Parse an origin name; 0 or -EINVAL. */
int ls_origin_parse(const char *s, unsigned *origin);
/* Named by type and field or by symbol (the "named share" of wait). */
int ls_origin_is_named(unsigned origin, const char *cls);

/* Addresses at or above this are the kernel image (static data). */
#define LS_KERNEL_IMAGE 0xffffffff80000000ULL

/*
 * Offset of @addr inside its slab object.  Slabs are naturally aligned
 * buddy blocks of @page_size << @order bytes holding objects every @size
 * bytes, each after @red_left_pad bytes of red zone.  0 and *@off, or
 * -ERANGE when @addr falls in a red zone or past @object_size, -EINVAL
 * for a layout that cannot be.
 */
int ls_slab_offset(uint64_t addr, uint32_t size, uint32_t object_size,
		   uint32_t red_left_pad, uint32_t order, uint64_t page_size,
		   uint64_t *off);

/* A generic cache (kmalloc-192, kmalloc-cg-1k, dma-kmalloc-64, ...):
 * its objects have no one type. */
int ls_cache_is_generic(const char *cache);

/*
 * Struct names that slab cache @cache may hold, most likely first: a table
 * of known exceptions (sock_inode_cache -> socket_alloc), the name itself,
 * the name without a _cache/_cachep suffix.  Returns how many went into
 * @out (each @len bytes, at most @max).
 */
size_t ls_cache_types(const char *cache, char (*out)[64], size_t max);

/*
 * The struct a lock in a generic (kmalloc) cache belongs to, when its most
 * sampled caller makes the type certain (anon_pipe_read -> the pipe's
 * pipe_inode_info); NULL when it does not.  The collector checks the
 * struct fits the cache and has a lock of the row's kind at the offset.
 */
const char *ls_caller_type(const char *caller);

/*
 * Stable instance numbers: the first lock seen with a base name keeps it,
 * the next ones get #2, #3, ... in order of first sight; a number is never
 * given twice in a run.  A lock (address) keeps its number while its base
 * name stays the same; ls_inst_drop() forgets it (the lock was forgotten).
 */
struct ls_inst_ent;
struct ls_inst_base;
struct ls_instances {
	struct ls_inst_ent *ent;   /* by address, open addressing */
	size_t nent, ent_cap;	   /* slots in use (dropped ones too), slots */
	struct ls_inst_base *base; /* by base name */
	size_t nbase, base_cap;
};

void ls_inst_init(struct ls_instances *in);
void ls_inst_free(struct ls_instances *in);
/* Instance number (1: no suffix) of the lock at @addr named @base; 0 on
 * allocation failure. */
unsigned ls_inst_get(struct ls_instances *in, uint64_t addr, const char *base);
void ls_inst_drop(struct ls_instances *in, uint64_t addr);
/* "@base" for instance 1, "@base#N" otherwise, into @out. */
void ls_inst_name(char *out, size_t len, const char *base, unsigned inst);
/* The class of a display name: without a trailing "#N" (but "#cpuN" is
 * part of per-CPU names and is also cut).  Into @out. */
void ls_name_class(char *out, size_t len, const char *name);

#endif
