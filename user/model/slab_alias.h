/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * slab_alias.h - slab caches SLUB merged into one, and the rule that names
 * a lock in a merged cache.  SLUB merges caches of one size and flags; the
 * merged cache carries its first member's name, so a lock in it may belong
 * to any member's struct.  The table holds every alias (a symlink of
 * /sys/kernel/slab, read by user/collect/slab_sysfs.c) with the directory
 * it points at; ls_slab_name() tries every member's struct at the offset.
 */
#ifndef LS_SLAB_ALIAS_H
#define LS_SLAB_ALIAS_H

#include <stddef.h>
#include <stdint.h>

#define LS_SLAB_ALIAS_MAX 8192 /* aliases kept from one listing */
#define LS_SLAB_NAME_MAX 64    /* bytes of a cache name, NUL included */

/* What the table knows (doctor's line: ls_slab_aliases_reason). */
enum ls_alias_state {
	LS_ALIAS_READ = 0,   /* listing read: every merged cache's members */
	LS_ALIAS_NO_SYSFS,   /* no /sys/kernel/slab (not SLUB, or no sysfs) */
	LS_ALIAS_UNREADABLE, /* the directory could not be read */
};

struct ls_slab_alias {
	char name[LS_SLAB_NAME_MAX];   /* the alias: a cache's name */
	char target[LS_SLAB_NAME_MAX]; /* the merged cache: ":0000056" */
};

struct ls_slab_aliases {
	struct ls_slab_alias *v; /* sorted by target, then name */
	size_t n, cap;
	size_t skipped; /* aliases not kept: table full or name too long */
	enum ls_alias_state state;
	int err; /* errno of LS_ALIAS_UNREADABLE */
};

void ls_slab_aliases_init(struct ls_slab_aliases *a);
void ls_slab_aliases_free(struct ls_slab_aliases *a);
/* One symlink of the listing: cache @name points at @target.  0; -E2BIG
 * (not kept, counted in skipped); -ENOMEM. */
int ls_slab_aliases_add(struct ls_slab_aliases *a, const char *name,
			const char *target);
/* The listing is complete: sort it for lookups. */
void ls_slab_aliases_done(struct ls_slab_aliases *a);
/* Merged caches (targets with two aliases or more) in the table. */
size_t ls_slab_aliases_merged(const struct ls_slab_aliases *a);
/* Doctor's line for the table, into @out. */
void ls_slab_aliases_reason(const struct ls_slab_aliases *a, char *out,
			    size_t len);

/*
 * The lock of @kind at byte @off of struct @type: "type.path" into @out,
 * 0; -ENOENT when the struct is unknown, larger than the cache's objects,
 * or has no lock of that kind starting there.
 */
typedef int (*ls_slab_field_fn)(void *ctx, const char *type, uint64_t off,
				unsigned kind, char *out, size_t len);

/* How a slab lock was named. */
enum ls_slab_verdict {
	LS_SLAB_NONE = 0,  /* no member has a lock there: "cache+0xoff" */
	LS_SLAB_NAMED,	   /* one type.field, certain */
	LS_SLAB_AMBIGUOUS, /* "{a.x|b.y}": every candidate, sorted */
};

/*
 * Name the lock of @kind at @off in cache @cache, whose kmem_cache.refcount
 * is @refcount (members merged into it, itself included; 0: not read).
 * Each member (one when @refcount <= 1) gives the first of its structs
 * (ls_cache_types) that @fn finds a lock in; candidates are told apart by
 * their type.field.  Exactly one, with every member known and none of them
 * a generic (kmalloc) cache: LS_SLAB_NAMED.  Otherwise, any candidate:
 * LS_SLAB_AMBIGUOUS, the candidates and, where some member's objects may
 * be of any type (a generic cache, or members the table misses), the
 * "cache+0xoff" form as one more, sorted between braces and joined by '|'.
 * No candidate, or no room in @len: LS_SLAB_NONE, "cache+0xoff".  The
 * result is in @out either way.
 */
enum ls_slab_verdict ls_slab_name(const struct ls_slab_aliases *a,
				  const char *cache, int refcount, uint64_t off,
				  unsigned kind, ls_slab_field_fn fn, void *ctx,
				  char *out, size_t len);

#endif
