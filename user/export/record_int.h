/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* record_int.h - for the record reader's own files (record_load.c,
 * record_read.c, record_detail.c, record_holders.c): where a one-line
 * reason goes. */
#ifndef LS_EXPORT_RECORD_INT_H
#define LS_EXPORT_RECORD_INT_H

#include <stddef.h>

struct ls_rd {
	char *err; /* the reason, errlen bytes (0: not wanted) */
	size_t errlen;
};

struct ls_rec_lock;
struct json_object;

/* The holder side of lock rows (record_holders.c): read @lock's optional
 * "holder" object into @l; check that a class's sums cannot wrap; add @s
 * to its class @d. */
int ls_rec_read_holder(struct ls_rd *rd, struct json_object *lock,
		       const char *path, struct ls_rec_lock *l);
int ls_rec_holder_sums_fit(struct ls_rd *rd, const char *path,
			   const struct ls_rec_lock *locks, size_t n);
void ls_rec_holder_merge(struct ls_rec_lock *d, const struct ls_rec_lock *s);

/* record_cgroups.c: the optional `cgroups` of lock row @lock (read as
 * @l) appended to @s->cgs; 0 or -EINVAL.  Free them with
 * ls_rec_cgroups_free. */
struct ls_rec_snap;
int ls_rec_read_cgroups(struct ls_rd *rd, struct json_object *lock,
			const char *path, const struct ls_rec_lock *l,
			struct ls_rec_snap *s);
void ls_rec_cgroups_free(struct ls_rec_snap *s);

/* record_chains.c: the optional `chains` of lock row @lock (read as @l):
 * its chained waits into @l, its chains as edges appended to @s->edges; merge
 * the edges of the same locks; free them. */
int ls_rec_read_chains(struct ls_rd *rd, struct json_object *lock,
		       const char *path, struct ls_rec_lock *l,
		       struct ls_rec_snap *s);
void ls_rec_chains_merge(struct ls_rec_snap *s);
void ls_rec_chains_free(struct ls_rec_snap *s);

/* Write a reason; returns -EINVAL. */
int ls_rd_bad(struct ls_rd *rd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The non-negative integer @key of object @o (at @path, for the reason)
 * into @out; 0 or -EINVAL. */
int ls_rd_u64(struct ls_rd *rd, struct json_object *o, const char *path,
	      const char *key, uint64_t *out);
/* "mutex@f [ffff8881...]" (written with --addr) -> "mutex@f" */
void ls_rd_strip_addr(char *name);
/* A kind as written ("rwsem:W") into enum ls_kind; 0 or -EINVAL. */
int ls_rd_kind(const char *s, unsigned *kind);
/* The totals' histograms and stacks of @root into @r (record_detail.c);
 * 0 or -EINVAL.  ls_rec_detail_free() undoes it. */
struct json_object;
struct ls_rec;
int ls_rec_read_detail(struct ls_rd *rd, struct json_object *totals,
		       struct ls_rec *r);
void ls_rec_detail_free(struct ls_rec *r);

#endif
