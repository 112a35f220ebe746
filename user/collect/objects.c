// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * objects.c - which build of the BPF objects this kernel takes, and opening
 * the skeletons over it.  The main build uses atomic fetch-and-add,
 * exchange and compare-and-swap (kernels 5.12+); the compat build of the
 * same sources (-DLS_NO_FETCH_ATOMICS, bpf/common.bpf.h) only the older
 * atomic add.  A feature probe picks one (ls_probe_fetch_atomics);
 * LOCKSCOPE_BPF_OBJECT=main|compat overrides it.  The Makefile checks that
 * each compat object has its main object's programs, maps and variables,
 * so the main skeletons' types serve both builds.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/libbpf.h>
#include "collect/collector_int.h"
#include "collect/features.h"
#include "hold.skel.h"
#include "hold_compat.skel.h"
#include "lockscope_compat.skel.h"

#define LS_BUILD_ENV "LOCKSCOPE_BPF_OBJECT"

/* What the compat build costs, for doctor and the README. */
#define LS_COMPAT_COST                                                         \
	"peaks and max wait may read low under races, callers sampled "        \
	"about every Nth, readers' handoff tenure not measured, "              \
	"fresh lock rows handed out per CPU"

enum ls_bpf_build ls_bpf_build_choose(char *why, size_t len)
{
	const char *env = getenv(LS_BUILD_ENV);
	char probe[200];
	int r;

	if (env && *env) {
		if (!strcmp(env, "main") || !strcmp(env, "compat")) {
			int compat = !strcmp(env, "compat");

			snprintf(why, len, "%s build, set by %s%s%s", env,
				 LS_BUILD_ENV, compat ? ": " : "",
				 compat ? LS_COMPAT_COST : "");
			return compat ? LS_BUILD_COMPAT : LS_BUILD_MAIN;
		}
		snprintf(why, len, "'%.40s' is neither main nor compat", env);
		return LS_BUILD_BAD;
	}
	r = ls_probe_fetch_atomics(probe, sizeof(probe));
	if (r == 0) {
		snprintf(why, len, "compat build: %s; %s", probe,
			 LS_COMPAT_COST);
		return LS_BUILD_COMPAT;
	}
	snprintf(why, len, "main build: %s", probe);
	return LS_BUILD_MAIN;
}

/* Open skeleton @s, made by its create function, over @bytes instead of
 * its own object; 0 or -errno. */
static int open_over(struct bpf_object_skeleton *s,
		     const void *(*bytes)(size_t *sz))
{
	s->data = bytes(&s->data_sz);
	return bpf_object__open_skeleton(s, NULL);
}

struct lockscope_bpf *ls_main_open(enum ls_bpf_build b)
{
	struct lockscope_bpf *obj;
	int err;

	if (b != LS_BUILD_COMPAT)
		return lockscope_bpf__open();
	obj = calloc(1, sizeof(*obj));
	if (!obj) {
		errno = ENOMEM;
		return NULL;
	}
	err = lockscope_bpf__create_skeleton(obj);
	if (!err)
		err = open_over(obj->skeleton, lockscope_compat_bpf__elf_bytes);
	if (err) {
		lockscope_bpf__destroy(obj);
		errno = -err;
		return NULL;
	}
	return obj;
}

struct hold_bpf *ls_hold_open(enum ls_bpf_build b)
{
	struct hold_bpf *obj;
	int err;

	if (b != LS_BUILD_COMPAT)
		return hold_bpf__open();
	obj = calloc(1, sizeof(*obj));
	if (!obj) {
		errno = ENOMEM;
		return NULL;
	}
	err = hold_bpf__create_skeleton(obj);
	if (!err)
		err = open_over(obj->skeleton, hold_compat_bpf__elf_bytes);
	if (err) {
		hold_bpf__destroy(obj);
		errno = -err;
		return NULL;
	}
	return obj;
}
