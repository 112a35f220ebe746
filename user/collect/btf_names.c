// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * btf_names.c - lock offsets to field names with the kernel's BTF: the
 * offset -> member path walker and the per-CPU section's variables.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "collect/btf_names.h"
#include "lockscope.h"

#define MAX_DEPTH 24 /* nesting of embedded types walked, at most */

/* Families of lock types; a contention of a kind fits some of them. */
enum lock_family {
	FAM_NONE = 0,
	FAM_SPIN,
	FAM_RWLOCK,
	FAM_MUTEX,
	FAM_RWSEM,
	FAM_RT,
	FAM_PCPU_RWSEM,
	FAM_SEM,
};

static const struct {
	const char *name;
	enum lock_family fam;
} lock_types[] = {
	{"spinlock_t", FAM_SPIN},
	{"spinlock", FAM_SPIN},
	{"raw_spinlock_t", FAM_SPIN},
	{"raw_spinlock", FAM_SPIN},
	{"arch_spinlock_t", FAM_SPIN},
	{"qspinlock", FAM_SPIN},
	{"rwlock_t", FAM_RWLOCK},
	{"arch_rwlock_t", FAM_RWLOCK},
	{"qrwlock", FAM_RWLOCK},
	{"mutex", FAM_MUTEX},
	{"ww_mutex", FAM_MUTEX},
	{"rw_semaphore", FAM_RWSEM},
	{"rt_mutex", FAM_RT},
	{"rt_mutex_base", FAM_RT},
	{"percpu_rw_semaphore", FAM_PCPU_RWSEM},
	{"semaphore", FAM_SEM},
};

static enum lock_family family_of(const char *name)
{
	for (size_t i = 0; i < sizeof(lock_types) / sizeof(*lock_types); i++)
		if (!strcmp(name, lock_types[i].name))
			return lock_types[i].fam;
	return FAM_NONE;
}

static int fits(enum lock_family f, unsigned kind)
{
	switch (kind) {
	case LS_KIND_SPINLOCK:
		return f == FAM_SPIN;
	case LS_KIND_RWLOCK_R:
	case LS_KIND_RWLOCK_W:
		return f == FAM_RWLOCK;
	case LS_KIND_MUTEX:
		return f == FAM_MUTEX;
	case LS_KIND_RWSEM_R:
	case LS_KIND_RWSEM_W:
		return f == FAM_RWSEM;
	case LS_KIND_PCPU_RWSEM_R:
	case LS_KIND_PCPU_RWSEM_W:
		return f == FAM_PCPU_RWSEM;
	case LS_KIND_SEMAPHORE:
		return f == FAM_SEM;
	default: /* PREEMPT_RT: every sleeping lock is built on rt_mutex */
		return f != FAM_NONE;
	}
}

static int append(char *out, size_t len, const char *fmt, const char *s,
		  unsigned long long n)
{
	size_t used = strlen(out);
	int w = snprintf(out + used, len - used, fmt, s ? s : "", n);

	if (w < 0 || (size_t)w >= len - used) {
		out[used] = '\0';
		return -ENOSPC;
	}
	return 0;
}

static int walk(const struct btf *btf, uint32_t id, uint64_t off, unsigned kind,
		char *out, size_t len, int depth)
{
	const struct btf_type *t;
	size_t mark = strlen(out);

	if (depth > MAX_DEPTH)
		return -ENOENT;
	/* modifiers and typedefs: a typedef may name a lock (spinlock_t) */
	for (;;) {
		t = btf__type_by_id(btf, id);
		if (!t)
			return -ENOENT;
		if (off == 0 && (btf_is_typedef(t) || btf_is_composite(t)) &&
		    fits(family_of(btf__name_by_offset(btf, t->name_off)),
			 kind))
			return 0;
		if (!btf_is_mod(t) && !btf_is_typedef(t))
			break;
		id = t->type;
	}
	if (btf_is_composite(t)) {
		const struct btf_member *m = btf_members(t);

		for (unsigned i = 0; i < btf_vlen(t); i++, m++) {
			uint64_t mo = btf_member_bit_offset(t, i);
			long sz;
			const char *name;

			if (btf_member_bitfield_size(t, i) || mo % 8)
				continue;
			mo /= 8;
			sz = btf__resolve_size(btf, m->type);
			if (sz <= 0 || off < mo || off >= mo + (uint64_t)sz)
				continue;
			name = btf__name_by_offset(btf, m->name_off);
			if (name && *name &&
			    append(out, len, ".%s", name, 0) < 0)
				return -ENOENT;
			if (!walk(btf, m->type, off - mo, kind, out, len,
				  depth + 1))
				return 0;
			out[mark] = '\0'; /* a union's next member, maybe */
		}
		return -ENOENT;
	}
	if (btf_is_array(t)) {
		const struct btf_array *a = btf_array(t);
		long esz = btf__resolve_size(btf, a->type);

		if (esz <= 0 || off / (uint64_t)esz >= a->nelems)
			return -ENOENT;
		if (append(out, len, "%s[%llu]", NULL, off / (uint64_t)esz) < 0)
			return -ENOENT;
		if (!walk(btf, a->type, off % (uint64_t)esz, kind, out, len,
			  depth + 1))
			return 0;
		out[mark] = '\0';
	}
	return -ENOENT;
}

int ls_btf_field_at(const struct btf *btf, uint32_t id, uint64_t off,
		    unsigned kind, char *out, size_t len)
{
	size_t mark = strlen(out);

	if (mark >= len)
		return -ENOENT;
	if (walk(btf, id, off, kind, out, len, 0)) {
		out[mark] = '\0';
		return -ENOENT;
	}
	return 0;
}

int ls_btf_struct_field(const struct btf *btf, const char *name, uint64_t off,
			unsigned kind, char *out, size_t len)
{
	int id = btf__find_by_name_kind(btf, name, BTF_KIND_STRUCT);

	if (id <= 0 || (size_t)snprintf(out, len, "%s", name) >= len)
		return -ENOENT;
	if (ls_btf_field_at(btf, (uint32_t)id, off, kind, out, len))
		return -ENOENT;
	/* a lock that is the whole object has no field: not a field name */
	return strchr(out, '.') ? 0 : -ENOENT;
}

int ls_btf_cache_field(void *ctx, const char *type, uint64_t off, unsigned kind,
		       char *out, size_t len)
{
	const struct ls_btf_cache *bc = ctx;
	int id = btf__find_by_name_kind(bc->btf, type, BTF_KIND_STRUCT);
	long size = id > 0 ? btf__resolve_size(bc->btf, (uint32_t)id) : -1;

	if (size <= 0 || (uint64_t)size > bc->object_size)
		return -ENOENT;
	return ls_btf_struct_field(bc->btf, type, off, kind, out, len);
}

static const struct btf_type *percpu_sec(const struct btf *btf)
{
	int id = btf__find_by_name_kind(btf, ".data..percpu", BTF_KIND_DATASEC);

	return id > 0 ? btf__type_by_id(btf, (uint32_t)id) : NULL;
}

int ls_btf_percpu_var(const struct btf *btf, const char *var, uint64_t *off,
		      uint64_t *secsize)
{
	const struct btf_type *sec = percpu_sec(btf);
	const struct btf_var_secinfo *vs;

	if (!sec)
		return -ENOENT;
	vs = btf_var_secinfos(sec);
	for (unsigned i = 0; i < btf_vlen(sec); i++, vs++) {
		const struct btf_type *v = btf__type_by_id(btf, vs->type);

		if (v && !strcmp(btf__name_by_offset(btf, v->name_off), var)) {
			*off = vs->offset;
			*secsize = sec->size;
			return 0;
		}
	}
	return -ENOENT;
}

int ls_btf_percpu_field(const struct btf *btf, uint64_t off, unsigned kind,
			char *out, size_t len)
{
	const struct btf_type *sec = percpu_sec(btf);
	const struct btf_var_secinfo *vs;

	if (!sec)
		return -ENOENT;
	vs = btf_var_secinfos(sec);
	for (unsigned i = 0; i < btf_vlen(sec); i++, vs++) {
		const struct btf_type *v = btf__type_by_id(btf, vs->type), *t;
		const char *tname;

		if (!v || off < vs->offset || off >= vs->offset + vs->size)
			continue;
		t = btf__type_by_id(btf, v->type);
		tname = t && btf_is_struct(t)
				? btf__name_by_offset(btf, t->name_off)
				: "";
		if (!tname || !*tname)
			tname = btf__name_by_offset(btf, v->name_off);
		if ((size_t)snprintf(out, len, "%s", tname) >= len)
			return -ENOENT;
		return ls_btf_field_at(btf, v->type, off - vs->offset, kind,
				       out, len);
	}
	return -ENOENT;
}
