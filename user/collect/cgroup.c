// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * cgroup.c - the collector's cgroup side (bpf/cgroup.bpf.h): find the
 * cgroup v2 mount, open the --cgroup directory and put it in the BPF
 * filter, size and read lock_cgroups (--by cgroup) into the snapshot with
 * each id resolved to its path below the mount (model/cgpath.c).  The tree
 * is walked again only when an id is not known; ids found gone are
 * remembered (cgroup ids are never reused) while a lock_cgroups entry
 * still names them, and show as LS_CG_GONE.  The entries of forgotten
 * locks leave lock_cgroups a read after their lock.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/vfs.h>
#include <linux/magic.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "collect/collector_int.h"
#include "model/cgpath.h"
#include "util/untrusted_text.h"
#include "util/log.h"

struct ls_cgroups {
	struct ls_cgmap map;
	int sel_fd; /* --cgroup's directory, -1 without it */
	uint64_t *gone;
	size_t ngone, gone_cap;
};

const char *ls_cgroup_check(char *mount, size_t len)
{
	int err = ls_cg_mount("/proc/self/mountinfo", mount, len);

	if (err == -ENOENT)
		return "no cgroup2 file system in /proc/self/mountinfo (cgroup "
		       "v1 only)";
	if (err)
		return strerror(-err);
	return NULL;
}

/* --cgroup's directory under @root, opened; -1 after saying why. */
static int open_sel(const char *root, const char *arg)
{
	char path[4096];
	struct statfs sf;
	int fd, err = ls_cg_path_arg(root, arg, path, sizeof(path));

	if (err) {
		ls_fail("open", arg,
			err == -EINVAL ? "\"..\" leaves the cgroup tree"
				       : strerror(-err));
		return -1;
	}
	fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		ls_fail("open", path, strerror(errno));
		ls_hint("--cgroup takes a cgroup v2 path as /proc/PID/cgroup "
			"shows it (\"0::/a/b\": /a/b), below the mount");
		return -1;
	}
	if (fstatfs(fd, &sf) || sf.f_type != CGROUP2_SUPER_MAGIC) {
		ls_fail("open", path, "not a cgroup v2 directory");
		close(fd);
		return -1;
	}
	return fd;
}

int ls_cgroup_start(struct ls_collector *c, enum ls_start_err *why)
{
	char mount[4096];
	const char *no;

	if (!c->o.by_cgroup && !c->o.cgroup)
		return 0;
	no = ls_cgroup_check(mount, sizeof(mount));
	if (no) {
		ls_fail("find", "the cgroup v2 mount", no);
		ls_hint("--cgroup and --by cgroup need cgroup v2 (the "
			"\"unified\" hierarchy); 'lockscope doctor' says why");
		*why = LS_START_FAILED;
		return -1;
	}
	c->cg = calloc(1, sizeof(*c->cg));
	if (!c->cg) {
		ls_fail("allocate", "cgroup map", strerror(ENOMEM));
		*why = LS_START_FAILED;
		return -1;
	}
	ls_cgmap_init(&c->cg->map, mount);
	c->cg->sel_fd = -1;
	if (c->o.cgroup) {
		c->cg->sel_fd = open_sel(mount, c->o.cgroup);
		if (c->cg->sel_fd < 0) {
			*why = LS_START_BAD_INPUT;
			return -1;
		}
	}
	return 0;
}

void ls_cgroup_configure(struct ls_collector *c)
{
	struct lockscope_bpf *skel = c->skel;

	skel->rodata->cgroup_on = c->o.by_cgroup;
	skel->rodata->cgroup_filter = c->cg && c->cg->sel_fd >= 0;
	bpf_map__set_max_entries(skel->maps.lock_cgroups,
				 c->o.by_cgroup ? c->o.max_locks : 1);
}

int ls_cgroup_attach(struct ls_collector *c)
{
	__u32 zero = 0, fd;

	if (!c->cg || c->cg->sel_fd < 0)
		return 0;
	fd = (__u32)c->cg->sel_fd;
	if (bpf_map_update_elem(bpf_map__fd(c->skel->maps.cgroup_sel), &zero,
				&fd, BPF_ANY)) {
		int err = -errno;

		ls_fail_errno("set", "the --cgroup filter", err);
		return err;
	}
	return 0;
}

static int add_cgrow(struct ls_collector *c, const void *k, const void *v,
		     void *arg)
{
	const struct ls_cg_key *ck = k;
	struct ls_cgrow r = {.cgid = ck->cgid};

	(void)c;
	r.key.addr = ck->addr;
	r.key.kind = ck->kind;
	r.role = ck->role;
	memcpy(&r.v, v, sizeof(r.v));
	return ls_snap_add_cgrow(arg, &r);
}

static int is_gone(const struct ls_cgroups *g, uint64_t id)
{
	for (size_t i = 0; i < g->ngone; i++)
		if (g->gone[i] == id)
			return 1;
	return 0;
}

/* The path made safe to print and to record (util/untrusted_text.h); a
 * path too long keeps its end, marked, rather than a prefix that may name
 * an ancestor. */
static void set_path(struct ls_cgrow *r, const char *p)
{
	r->path_changed = ls_text_copy_tail(r->path, sizeof(r->path), p);
}

/* Resolve every row's id; walk the tree again at most once. */
static int resolve(struct ls_cgroups *g, struct ls_snapshot *s)
{
	int walked = 0, err;

	for (size_t i = 0; i < s->ncgrows; i++) {
		struct ls_cgrow *r = &s->cgrows[i];
		const char *p = NULL;

		if (!is_gone(g, r->cgid)) {
			p = ls_cgmap_find(&g->map, r->cgid);
			if (!p && !walked) {
				walked = 1;
				err = ls_cgmap_scan(&g->map);
				if (err)
					return err;
				p = ls_cgmap_find(&g->map, r->cgid);
			}
		}
		if (!p && walked && !is_gone(g, r->cgid) && !g->map.truncated) {
			/* not in a complete walk: gone for good */
			if (g->ngone == g->gone_cap) {
				size_t cap = g->gone_cap ? g->gone_cap * 2 : 16;
				uint64_t *n =
					realloc(g->gone, cap * sizeof(*n));

				if (!n)
					return -ENOMEM;
				g->gone = n;
				g->gone_cap = cap;
			}
			g->gone[g->ngone++] = r->cgid;
		}
		set_path(r, p ? p : LS_CG_GONE);
	}
	return 0;
}

/* Forgetting (o.forget): a lock not in the rows of @s was forgotten by an
 * earlier read; its entries leave lock_cgroups and the snapshot. */
static void forget_gone_locks(struct ls_collector *c, struct ls_snapshot *s)
{
	int fd = bpf_map__fd(c->skel->maps.lock_cgroups);
	size_t keep = 0;

	for (size_t i = 0; i < s->ncgrows; i++) {
		const struct ls_cgrow *r = &s->cgrows[i];
		struct ls_cg_key k = {.addr = r->key.addr,
				      .cgid = r->cgid,
				      .kind = r->key.kind,
				      .role = r->role};

		if (ls_snap_find(s, &r->key)) {
			s->cgrows[keep++] = *r;
			continue;
		}
		bpf_map_delete_elem(fd, &k);
	}
	s->ncgrows = keep;
}

/* Remember only the gone ids some entry of this read still names. */
static void prune_gone(struct ls_cgroups *g, const struct ls_snapshot *s)
{
	size_t keep = 0;

	for (size_t i = 0; i < g->ngone; i++) {
		int named = 0;

		for (size_t j = 0; j < s->ncgrows && !named; j++)
			named = s->cgrows[j].cgid == g->gone[i];
		if (named)
			g->gone[keep++] = g->gone[i];
	}
	g->ngone = keep;
}

int ls_cgroup_read(struct ls_collector *c, struct ls_snapshot *s)
{
	int err;

	s->by_cgroup = c->o.by_cgroup;
	s->ncgrows = 0;
	if (!c->o.by_cgroup)
		return 0;
	err = ls_read_hash(c, c->skel->maps.lock_cgroups,
			   sizeof(struct ls_cg_key), sizeof(struct ls_cg_val),
			   add_cgrow, s);
	if (err)
		return err;
	if (c->o.forget)
		forget_gone_locks(c, s);
	qsort(s->cgrows, s->ncgrows, sizeof(*s->cgrows), ls_cgrow_cmp);
	err = resolve(c->cg, s);
	if (!err)
		prune_gone(c->cg, s);
	return err;
}

void ls_cgroup_stop(struct ls_collector *c)
{
	if (!c->cg)
		return;
	if (c->cg->sel_fd >= 0)
		close(c->cg->sel_fd);
	ls_cgmap_free(&c->cg->map);
	free(c->cg->gone);
	free(c->cg);
	c->cg = NULL;
}
