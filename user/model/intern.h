/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* intern.h - interned function names (intern.c): one copy per distinct
 * name for the life of the process, so a row holds a pointer to a name
 * instead of the name. */
#ifndef LS_INTERN_H
#define LS_INTERN_H

#define LS_FN_MAX 96 /* caller function name, truncated */

/* A stable pointer to a process-lifetime copy of @s, truncated to
 * LS_FN_MAX - 1 bytes: equal strings give equal pointers.  NULL on
 * allocation failure.  Safe from any thread; never freed. */
const char *ls_intern(const char *s);

/* ls_intern(@s), or "?" when it failed to allocate. */
const char *ls_intern_fn(const char *s);

#endif
