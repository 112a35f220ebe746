/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * symsel.h - which kernel functions carry each function-probe target on
 * this kernel, chosen from kallsyms with a reason for lockscope doctor.
 */
#ifndef LS_SYMSEL_H
#define LS_SYMSEL_H

#include <stddef.h>
#include <linux/types.h>
#include "lockscope.h"
#include "model/kallsyms.h"

#define LS_SEL_MAX 8 /* symbols (names and their clones) per target */

/* Why these symbols carry the target. */
enum ls_sel_why {
	LS_SEL_ABSENT = 0, /* no candidate function in kallsyms */
	LS_SEL_PRIMARY,	   /* the design's function, plain name only */
	LS_SEL_CLONES,	   /* the design's function as compiler clones */
	LS_SEL_INLINED,	   /* __mutex_lock inlined: its slow-path callers */
	LS_SEL_PRE_5_3,	   /* rwsem-xadd.c's *_failed functions (before 5.3) */
	LS_SEL_CALLERS,	   /* the noinline callers, for fentry (mutex) */
};

struct ls_symsel {
	enum ls_target target;
	enum ls_sel_why why;
	enum ls_ret_kind ret; /* what the functions' return value says */
	size_t n;
	const struct ls_ksym *syms[LS_SEL_MAX];
	/* exactly one symbol, under the plain name: fentry can attach */
	int single_plain;
	char list[160];	  /* "a,b,c": the symbols' names, for doctor */
	char reason[200]; /* the choice, in words ("" for the plain case) */
};

/* The design's name of target @t ("__mutex_lock", ...). */
const char *ls_target_name(enum ls_target t);
/* Choose the functions of target @t from @ks; @out->n is 0 when absent. */
void ls_symsel_pick(const struct ls_ksyms *ks, enum ls_target t,
		    struct ls_symsel *out);
/*
 * The noinline callers that carry every call of target @t's function,
 * each once under its plain name (fentry attaches by name): for the mutex,
 * __mutex_lock_slowpath and its killable and interruptible twins.  @out->n
 * is 0 unless all of them are there.
 */
void ls_symsel_callers(const struct ls_ksyms *ks, enum ls_target t,
		       struct ls_symsel *out);

#endif
