// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * names.c - a real name for each lock, resolved once per lock: the
 * lock_ident entry BPF filled at its first contention (slab cache and
 * layout) and the per-CPU bases become "task_struct.pi_lock" or
 * "rq.__lock" through the kernel's BTF (btf_names.c), a merged slab
 * cache's lock through its members (model/slab_alias.c, read once per run
 * by slab_sysfs.c); the result is kept per lock key until the lock is
 * forgotten.  Also the naming rows of `lockscope doctor`.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include "collect/btf_names.h"
#include "collect/features.h"
#include "collect/collector_int.h"
#include "collect/slab_sysfs.h"
#include "model/ident.h"

/* What was learnt of one lock: final, or retried at the next read. */
struct ls_ident_ent {
	struct ls_lock_key key; /* addr 0: empty slot */
	char cls[LS_NAME_MAX];	/* "" when no layout name was found */
	unsigned origin;	/* LS_ORIGIN_SLAB, _PERCPU, or 0 */
	unsigned pcpu;		/* 1 + CPU for per-CPU data */
	int final, dead;
	/* a generic cache's lock: offset and object size, for a type its
	 * caller may make certain (ls_caller_type); 0 when named */
	uint64_t gen_off;
	uint32_t gen_size;
	int gen;
	/* the (interned) caller whose type was last tried: a failed BTF
	 * search is not redone for the same caller at every read */
	const char *gen_tried;
};

static size_t key_hash(const struct ls_lock_key *k)
{
	uint64_t a = k->addr ^ ((uint64_t)k->kind << 59);

	a ^= a >> 33;
	a *= 0xff51afd7ed558ccdULL;
	a ^= a >> 33;
	return (size_t)a;
}

static struct ls_ident_ent *slot(struct ls_collector *c,
				 const struct ls_lock_key *k)
{
	size_t m = c->ident_cap - 1, i = key_hash(k) & m;
	struct ls_ident_ent *tomb = NULL;

	for (;; i = (i + 1) & m) {
		struct ls_ident_ent *e = &c->ident[i];

		if (!e->key.addr)
			return tomb ? tomb : e;
		if (e->dead) {
			if (!tomb)
				tomb = e;
		} else if (e->key.addr == k->addr && e->key.kind == k->kind) {
			return e;
		}
	}
}

static int grow(struct ls_collector *c)
{
	struct ls_ident_ent *old = c->ident;
	size_t ocap = c->ident_cap, cap = ocap ? ocap * 2 : 1024;

	c->ident = calloc(cap, sizeof(*c->ident));
	if (!c->ident) {
		c->ident = old;
		return -ENOMEM;
	}
	c->ident_cap = cap;
	c->nident = 0;
	for (size_t i = 0; i < ocap; i++)
		if (old[i].key.addr && !old[i].dead) {
			*slot(c, &old[i].key) = old[i];
			c->nident++;
		}
	free(old);
	return 0;
}

int ls_names_init(struct ls_collector *c)
{
	long ps = sysconf(_SC_PAGESIZE);

	ls_inst_init(&c->inst);
	ls_slab_aliases_read(&c->aliases, LS_SLAB_SYSFS);
	c->page_size = ps > 0 ? (uint64_t)ps : 4096;
	c->btf = ls_kernel_btf(); /* shared: ls_collector_stop frees it */
	if (!c->btf || libbpf_get_error(c->btf)) {
		c->btf = NULL;
		return 0; /* names stay in the caller form; doctor says why */
	}
	if (ls_btf_percpu_var(c->btf, "runqueues", &c->rq_off, &c->pcpu_size)) {
		c->rq_off = 0;
		c->pcpu_size = 0;
	}
	ls_vcpu_probe(c->btf, c->rq_off, &c->steal_off);
	ls_osq_probe(c->btf, c->rq_off, c->steal_off, &c->osq_node_off);
	return 0;
}

void ls_names_free(struct ls_collector *c)
{
	c->btf = NULL;
	ls_inst_free(&c->inst);
	ls_slab_aliases_free(&c->aliases);
	free(c->ident);
	free(c->gen_memo);
	free(c->pcpu_base);
	c->ident = NULL;
	c->gen_memo = NULL;
	c->ngen_memo = 0;
	c->pcpu_base = NULL;
}

/* The slab object's type.field (or its merged cache's candidates,
 * {a.x|b.y}), else "cache+0xoff". */
static int name_slab(struct ls_collector *c, const struct ls_lock_key *k,
		     const struct ls_lock_ident *id, struct ls_ident_ent *e)
{
	struct ls_btf_cache bc = {c->btf, id->object_size};
	char cache[LS_CACHE_NAME + 1];
	uint32_t orders[2] = {id->order, id->min_order};
	uint64_t off, first = ~0ULL;

	memcpy(cache, id->cache, LS_CACHE_NAME);
	cache[LS_CACHE_NAME] = '\0';
	if (!cache[0])
		return 0;
	for (int o = 0; o < 2; o++) {
		if (o && orders[1] == orders[0])
			break;
		if (ls_slab_offset(k->addr, id->size, id->object_size,
				   id->red_left_pad, orders[o], c->page_size,
				   &off))
			continue;
		if (first == ~0ULL)
			first = off;
		if (c->btf && ls_slab_name(&c->aliases, cache, id->refcount,
					   off, k->kind, ls_btf_cache_field,
					   &bc, e->cls, sizeof(e->cls)))
			return 1;
	}
	if (first == ~0ULL)
		return 0;
	e->gen = ls_cache_is_generic(cache);
	e->gen_off = first;
	e->gen_size = id->object_size;
	snprintf(e->cls, sizeof(e->cls), "%s+0x%llx", cache,
		 (unsigned long long)first);
	return 1;
}

/* Per-CPU bases as BPF last wrote them; how many CPUs have one. */
static unsigned read_bases(struct ls_collector *c)
{
	int fd = bpf_map__fd(c->skel->maps.percpu_base);
	unsigned n = 0;

	if (!c->pcpu_base)
		c->pcpu_base = calloc((size_t)c->ncpus_possible,
				      sizeof(*c->pcpu_base));
	if (!c->pcpu_base)
		return 0;
	for (int cpu = 0; cpu < c->ncpus_possible && cpu < LS_MAX_CPUS; cpu++) {
		__u32 key = (__u32)cpu;

		if (bpf_map_lookup_elem(fd, &key, &c->pcpu_base[cpu]))
			c->pcpu_base[cpu] = 0;
		n += c->pcpu_base[cpu] != 0;
	}
	return n;
}

/* A lock in some CPU's static per-CPU area: 1 named; 0 not (yet). */
static int name_percpu(struct ls_collector *c, const struct ls_lock_key *k,
		       struct ls_ident_ent *e, int *all_bases)
{
	if (!c->btf || !c->pcpu_size)
		return 0;
	if (c->bases_read != c->reads) { /* once per read */
		c->nbases = read_bases(c);
		c->bases_read = c->reads;
	}
	*all_bases = c->nbases >= (unsigned)c->ncpus_online;
	for (int cpu = 0; cpu < c->ncpus_possible && cpu < LS_MAX_CPUS; cpu++) {
		uint64_t b = c->pcpu_base[cpu];

		if (!b || k->addr < b || k->addr - b >= c->pcpu_size)
			continue;
		if (ls_btf_percpu_field(c->btf, k->addr - b, k->kind, e->cls,
					sizeof(e->cls)))
			return 0;
		e->pcpu = (unsigned)cpu + 1;
		return 1;
	}
	return 0;
}

static void resolve(struct ls_collector *c, struct ls_ident_ent *e)
{
	struct ls_lock_ident id;
	int all_bases = 0;

	if (bpf_map_lookup_elem(bpf_map__fd(c->skel->maps.lock_ident), &e->key,
				&id))
		return; /* not filled (yet, or the map was full): retry */
	if (e->key.addr >= LS_KERNEL_IMAGE) {
		e->final = 1; /* static data: a symbol or the caller form */
		return;
	}
	if (id.src == LS_IDENT_SLAB) {
		e->final = 1;
		if (name_slab(c, &e->key, &id, e))
			e->origin = LS_ORIGIN_SLAB;
		return;
	}
	if (name_percpu(c, &e->key, e, &all_bases)) {
		e->origin = LS_ORIGIN_PERCPU;
		e->final = 1;
		return;
	}
	e->cls[0] = '\0';
	/* without every CPU's base the area may be one not learnt yet */
	e->final = all_bases || !c->pcpu_size;
}

/*
 * What a caller's struct says of a lock at an offset: remembered, since
 * libbpf finds a struct by scanning every BTF type by name (a third of a
 * read of 8,000 pipe mutexes whose top caller went back and forth between
 * pipe_read and pipe_write went there).  The key's type is one of
 * ls_caller_type()'s literals; a few types and offsets make all entries.
 */
#define LS_GEN_MEMO 64
struct ls_gen_memo {
	const char *type;
	uint64_t off;
	uint32_t kind;
	long size;	       /* the struct's size; -1: no such struct */
	char cls[LS_NAME_MAX]; /* its field there; "" if none */
};

static const struct ls_gen_memo *
gen_field(struct ls_collector *c, const char *type, uint64_t off, uint32_t kind)
{
	struct ls_gen_memo *m;
	int id;

	for (unsigned i = 0; i < c->ngen_memo; i++) {
		m = &c->gen_memo[i];
		if (m->type == type && m->off == off && m->kind == kind)
			return m;
	}
	if (!c->gen_memo &&
	    !(c->gen_memo = calloc(LS_GEN_MEMO, sizeof(*c->gen_memo))))
		return NULL;
	/* full: the oldest entry makes room */
	m = &c->gen_memo[c->ngen_memo < LS_GEN_MEMO
				 ? c->ngen_memo++
				 : c->gen_memo_next++ % LS_GEN_MEMO];
	memset(m, 0, sizeof(*m));
	m->type = type;
	m->off = off;
	m->kind = kind;
	id = btf__find_by_name_kind(c->btf, type, BTF_KIND_STRUCT);
	m->size = id > 0 ? btf__resolve_size(c->btf, (uint32_t)id) : -1;
	if (m->size < 0 || ls_btf_struct_field(c->btf, type, off, kind, m->cls,
					       sizeof(m->cls)))
		m->cls[0] = '\0';
	return m;
}

/* A kmalloc'ed lock whose caller makes its struct certain: that struct's
 * field, if the struct fits the cache and has a lock there. */
static void infer_generic(struct ls_collector *c, struct ls_ident_ent *e,
			  const char *caller)
{
	const char *type = ls_caller_type(caller);
	const struct ls_gen_memo *m;

	if (!type || !c->btf)
		return;
	m = gen_field(c, type, e->gen_off, e->key.kind);
	if (!m || m->size < 0 || m->size > (long)e->gen_size || !m->cls[0])
		return;
	memcpy(e->cls, m->cls, sizeof(e->cls));
	e->gen = 0;
}

void ls_names_row(struct ls_collector *c, struct ls_row *row)
{
	struct ls_ident_ent *e;

	if (!row->key.addr)
		return;
	if ((c->nident + 1) * 2 > c->ident_cap && grow(c))
		return;
	e = slot(c, &row->key);
	if (!e->key.addr || e->dead) {
		if (!e->key.addr)
			c->nident++;
		memset(e, 0, sizeof(*e));
		e->key = row->key;
	}
	if (!e->final)
		resolve(c, e);
	if (e->gen && row->ncallers && row->callers[0].fn != e->gen_tried) {
		e->gen_tried = row->callers[0].fn;
		infer_generic(c, e, row->callers[0].fn);
	}
	if (e->origin) { /* its class, made its name by ls_name_row() */
		snprintf(row->name, sizeof(row->name), "%s", e->cls);
		row->cls_len = (unsigned)strlen(row->name);
		row->origin = e->origin;
		row->pcpu = e->pcpu;
	}
}

void ls_names_forget(struct ls_collector *c, const struct ls_lock_key *k)
{
	struct ls_ident_ent *e;

	ls_inst_drop(&c->inst, k->addr);
	if (!c->ident_cap)
		return;
	e = slot(c, k);
	if (e->key.addr == k->addr && e->key.kind == k->kind)
		e->dead = 1;
}

static int has_member(const struct btf *btf, const char *type,
		      const char *member)
{
	int id = btf__find_by_name_kind(btf, type, BTF_KIND_STRUCT);
	const struct btf_type *t;
	const struct btf_member *m;

	if (id <= 0)
		return 0;
	t = btf__type_by_id(btf, (uint32_t)id);
	m = btf_members(t);
	for (unsigned i = 0; i < btf_vlen(t); i++, m++)
		if (!strcmp(btf__name_by_offset(btf, m->name_off), member))
			return 1;
	return 0;
}

void ls_naming_probe(const struct ls_source *tp, size_t data_syms,
		     struct ls_naming_row *rows)
{
	struct btf *btf = ls_kernel_btf();
	uint64_t rq_off = 0, size = 0;
	struct ls_naming_row *r;

	r = &rows[LS_NAMES_KALLSYMS];
	snprintf(r->name, sizeof(r->name), "kallsyms data symbols");
	r->available = data_syms > 1000;
	snprintf(r->reason, sizeof(r->reason),
		 r->available ? "%zu data symbols: static locks named by symbol"
			      : "%zu data symbols (no CONFIG_KALLSYMS_ALL): "
				"static locks are marked static and keep the "
				"caller form",
		 data_syms);

	r = &rows[LS_NAMES_SLAB];
	snprintf(r->name, sizeof(r->name), "slab objects");
	r->available = 0;
	if (!btf)
		snprintf(r->reason, sizeof(r->reason),
			 "no kernel BTF: slab locks keep the caller form");
	else if (btf__find_by_name_kind(btf, "bpf_get_kmem_cache",
					BTF_KIND_FUNC) <= 0)
		snprintf(r->reason, sizeof(r->reason),
			 "no bpf_get_kmem_cache kfunc (kernels before 6.13), "
			 "and no CO-RE walk to the slab without kernel data "
			 "symbols: slab locks keep the caller form");
	else if (tp->mech_id != LS_MECH_TP_BTF)
		snprintf(r->reason, sizeof(r->reason),
			 "tracepoints run as %s, which cannot call kfuncs: "
			 "slab locks keep the caller form",
			 tp->mech_id == LS_MECH_NONE ? "nothing" : tp->mech);
	else {
		r->available = 1;
		snprintf(r->reason, sizeof(r->reason),
			 "bpf_get_kmem_cache once per lock from tp_btf; "
			 "cache -> struct, offset -> type.field through BTF");
	}

	r = &rows[LS_NAMES_SLAB_ALIASES];
	snprintf(r->name, sizeof(r->name), "slab aliases");
	{
		struct ls_slab_aliases al;

		ls_slab_aliases_read(&al, LS_SLAB_SYSFS);
		r->available = al.state == LS_ALIAS_READ;
		ls_slab_aliases_reason(&al, r->reason, sizeof(r->reason));
		ls_slab_aliases_free(&al);
	}

	r = &rows[LS_NAMES_PERCPU];
	snprintf(r->name, sizeof(r->name), "per-CPU data");
	r->available = 0;
	if (!btf || ls_btf_percpu_var(btf, "runqueues", &rq_off, &size))
		snprintf(r->reason, sizeof(r->reason),
			 "no runqueues in a .data..percpu BTF section: "
			 "per-CPU locks keep the caller form");
	else if (!has_member(btf, "cfs_rq", "rq"))
		snprintf(r->reason, sizeof(r->reason),
			 "cfs_rq has no rq (CONFIG_FAIR_GROUP_SCHED off): "
			 "per-CPU areas cannot be found");
	else {
		r->available = 1;
		snprintf(r->reason, sizeof(r->reason),
			 "each CPU's area from its run queue (current "
			 "task's se.cfs_rq->rq minus runqueues' offset "
			 "%llu); type.field through .data..percpu",
			 (unsigned long long)rq_off);
	}

	r = &rows[LS_NAMES_CORE];
	snprintf(r->name, sizeof(r->name), "CO-RE recognisers");
	r->available = 1;
	snprintf(r->reason, sizeof(r->reason),
		 "mm_struct.mmap_lock and sighand_struct.siglock of the "
		 "waiting task, on every kernel");
}
