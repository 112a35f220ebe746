// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * symsel.c - the function-probe targets' symbols on each kernel layout:
 * the design's function and its compiler clones where kallsyms has them,
 * else the functions that carry the same slow path on older kernels
 * (checked against kernel/locking/ of 4.19, 5.4, 5.10, 5.15 and 6.1).
 */
#include <stdio.h>
#include <string.h>
#include "model/symsel.h"

#define LS_CAND_NAMES 3

/* One way a target can be carried: functions whose first argument is the
 * lock and whose entry-to-return is the whole slow path. */
struct cand {
	const char *names[LS_CAND_NAMES];
	enum ls_ret_kind ret;
	enum ls_sel_why why;
};

/*
 * In order of preference; the first with a symbol in kallsyms wins (never
 * two: __mutex_lock runs inside __mutex_lock_slowpath, so probing both
 * would count each wait twice).
 * - __mutex_lock is "static int __sched" (not noinline) in 4.19..6.1: the
 *   compiler may inline it into the three noinline slow paths, which then
 *   carry it; __mutex_lock_slowpath returns void, so waits that gave up
 *   cannot be told apart there.
 * - rwsem_down_{write,read}_slowpath came with the rwsem rewrite in 5.3;
 *   before it rwsem-xadd.c's __visible *_failed and *_failed_killable
 *   functions (struct rw_semaphore * or ERR_PTR(-EINTR)) are the slow path.
 */
static const struct cand cands[LS_TGT_MAX][2] = {
	[LS_TGT_OSQ] = {{{"osq_lock"}, LS_RET_NONE, LS_SEL_PRIMARY}},
	[LS_TGT_MUTEX] = {{{"__mutex_lock"}, LS_RET_INT, LS_SEL_PRIMARY},
			  {{"__mutex_lock_slowpath",
			    "__mutex_lock_killable_slowpath",
			    "__mutex_lock_interruptible_slowpath"},
			   LS_RET_NONE,
			   LS_SEL_INLINED}},
	[LS_TGT_RWSEM_W] = {{{"rwsem_down_write_slowpath"},
			     LS_RET_ERRPTR,
			     LS_SEL_PRIMARY},
			    {{"rwsem_down_write_failed",
			      "rwsem_down_write_failed_killable"},
			     LS_RET_ERRPTR,
			     LS_SEL_PRE_5_3}},
	[LS_TGT_RWSEM_R] =
		{{{"rwsem_down_read_slowpath"}, LS_RET_ERRPTR, LS_SEL_PRIMARY},
		 {{"rwsem_down_read_failed", "rwsem_down_read_failed_killable"},
		  LS_RET_ERRPTR,
		  LS_SEL_PRE_5_3}},
};

const char *ls_target_name(enum ls_target t)
{
	return (unsigned)t < LS_TGT_MAX ? cands[t][0].names[0] : "?";
}

/* "a,b,c" of @out's symbols into out->list. */
static void list_names(struct ls_symsel *out)
{
	size_t off = 0;

	for (size_t i = 0; i < out->n; i++) {
		off += (size_t)snprintf(
			out->list + off,
			off < sizeof(out->list) ? sizeof(out->list) - off : 0,
			"%s%s", i ? "," : "", out->syms[i]->name);
		if (off >= sizeof(out->list))
			off = sizeof(out->list) - 1;
	}
}

/* Add the symbols of @c to @out; returns how many were found. */
static size_t take(const struct ls_ksyms *ks, const struct cand *c,
		   struct ls_symsel *out)
{
	for (int i = 0; i < LS_CAND_NAMES && c->names[i]; i++)
		out->n += ls_ksyms_clones(ks, c->names[i], out->syms + out->n,
					  LS_SEL_MAX - out->n);
	return out->n;
}

void ls_symsel_pick(const struct ls_ksyms *ks, enum ls_target t,
		    struct ls_symsel *out)
{
	const char *base = ls_target_name(t);
	const struct cand *c = NULL;

	memset(out, 0, sizeof(*out));
	out->target = t;
	if ((unsigned)t >= LS_TGT_MAX)
		return;
	for (int i = 0; i < 2 && !c; i++)
		if (cands[t][i].names[0] && take(ks, &cands[t][i], out))
			c = &cands[t][i];
	if (!c) {
		snprintf(out->reason, sizeof(out->reason),
			 "%s is not in this kernel", base);
		return;
	}
	out->ret = c->ret;
	list_names(out);
	out->single_plain = out->n == 1 && !strcmp(out->syms[0]->name, base);
	out->why = c->why;
	if (c->why == LS_SEL_PRIMARY && !out->single_plain)
		out->why = LS_SEL_CLONES;
	switch (out->why) {
	case LS_SEL_INLINED:
		snprintf(out->reason, sizeof(out->reason),
			 "%s inlined: its callers carry the slow path (gave-up "
			 "waits not counted: __mutex_lock_slowpath returns "
			 "void)",
			 base);
		break;
	case LS_SEL_PRE_5_3:
		snprintf(out->reason, sizeof(out->reason),
			 "no %s (before 5.3): rwsem-xadd.c's slow path", base);
		break;
	case LS_SEL_CLONES:
		snprintf(out->reason, sizeof(out->reason),
			 "%s as compiler clones", base);
		break;
	default:
		break;
	}
}

void ls_symsel_callers(const struct ls_ksyms *ks, enum ls_target t,
		       struct ls_symsel *out)
{
	const struct cand *c;

	memset(out, 0, sizeof(*out));
	out->target = t;
	if (t != LS_TGT_MUTEX)
		return;
	c = &cands[t][1];
	for (int i = 0; i < LS_CAND_NAMES && c->names[i]; i++) {
		const struct ls_ksym *sym[2];

		if (ls_ksyms_clones(ks, c->names[i], sym, 2) != 1 ||
		    strcmp(sym[0]->name, c->names[i])) {
			out->n = 0;
			return;
		}
		out->syms[out->n++] = sym[0];
	}
	out->why = LS_SEL_CALLERS;
	out->ret = LS_RET_NONE; /* one is void: each program knows its own */
	list_names(out);
	snprintf(out->reason, sizeof(out->reason),
		 "%s not in BTF: fentry on its callers", ls_target_name(t));
}
