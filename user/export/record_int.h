/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* record_int.h - for the record reader's own files (record_load.c,
 * record_lazy.c, record_read.c, record_detail.c, record_holders.c): where
 * a one-line reason goes, and the large arrays read from the text. */
#ifndef LS_EXPORT_RECORD_INT_H
#define LS_EXPORT_RECORD_INT_H

#include <stddef.h>

#define LS_REC_JSON_DEPTH 32 /* deeper JSON is refused */

struct json_object;
struct json_tokener;

/* A large array left out of the document (record_lazy.c): its text from
 * '[' at off to end (after ']'), at this depth (the root object is 1);
 * end 0: none, the document holds the array. */
struct ls_rd_span {
	size_t off, end;
	unsigned depth;
};

/* The text of a record and where its large arrays are in it. */
struct ls_rd_text {
	const char *buf;
	struct ls_rd_span totals_locks, stacks;
	struct ls_rd_span *iv_locks; /* per element of "intervals" */
	size_t niv, iv_cap;
};

struct ls_rd {
	char *err; /* the reason, errlen bytes (0: not wanted) */
	size_t errlen;
	const struct ls_rd_text *text; /* NULL: the document holds it all */
};

/*
 * Find the large arrays of record text @buf (@len bytes) and write the
 * rest into *@doc (malloc'ed, NUL-terminated, *@doclen bytes) with [] in
 * their place.  0, or -1 when the text is not followed (not JSON, a key
 * written with escapes or given twice, too deep): then read it whole.
 * @t points into @buf: keep it while elements are read.
 */
int ls_rd_text_scan(struct ls_rd_text *t, const char *buf, size_t len,
		    char **doc, size_t *doclen);
void ls_rd_text_free(struct ls_rd_text *t);

/* The elements of an array: the document's @arr, or (with @t and a span
 * @sp that is set) parsed one at a time from the text. */
struct ls_rd_elems {
	struct json_object *arr, *cur;
	const struct ls_rd_text *t;
	struct json_tokener *tok;
	size_t i, pos, end;
};
int ls_rd_elems_open(struct ls_rd_elems *it, struct json_object *arr,
		     const struct ls_rd_text *t, const struct ls_rd_span *sp);
/* 1 and the next element in *@o (valid until the next call), 0 at the
 * end, -EAGAIN for an element json-c refuses (read the whole file for
 * its reason). */
int ls_rd_elems_next(struct ls_rd_elems *it, struct json_object **o);
void ls_rd_elems_close(struct ls_rd_elems *it);

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

/* Every summed counter of the @n rows @locks (at @path) adds up within 64
 * bits, so no class sum wraps (record_classes.c); 0 or -EINVAL. */
int ls_rec_sums_fit(struct ls_rd *rd, const char *path,
		    const struct ls_rec_lock *locks, size_t n);

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

/* --budget's estimate fields of lock row @o into @l (record_estimate.c):
 * optional, 0 or -EINVAL; merged over a class, variances adding up. */
int ls_rec_read_estimate(struct ls_rd *rd, struct json_object *o,
			 const char *path, struct ls_rec_lock *l);
void ls_rec_estimate_merge(struct ls_rec_lock *d, const struct ls_rec_lock *s);
/* The snapshot's "budget.budget_pct" into @s (optional); 0 or -EINVAL. */
int ls_rec_read_budget(struct ls_rd *rd, struct json_object *snap,
		       const char *path, struct ls_rec_snap *s);

/* The field readers every part shares (record_fields.c). */
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
/* The histograms of totals lock row @o (at @path) added to @r's
 * (record_detail.c); then the totals' stacks into @r, the histograms
 * merged by class; 0 or -EINVAL.  ls_rec_detail_free() (record.h)
 * undoes both. */
struct ls_rec;
int ls_rec_read_hist_row(struct ls_rd *rd, struct json_object *o,
			 const char *path, struct ls_rec *r);
int ls_rec_read_detail(struct ls_rd *rd, struct json_object *totals,
		       struct ls_rec *r);
/* A record from document @root read with @rd (its text, when the large
 * arrays were left out of it: record_lazy.c). */
int ls_rec_from_doc(struct ls_rd *rd, struct json_object *root,
		    struct ls_rec *r);

#endif
