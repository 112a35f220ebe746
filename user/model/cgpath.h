/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * cgpath.h - cgroup v2 ids to paths: where the v2 hierarchy is mounted
 * (from mountinfo, never assumed), and a bounded walk of it that maps each
 * cgroup directory's inode number (its id, what bpf_get_current_cgroup_id
 * returns) to its path below the mount.  Pure C: tested on a fake tree.
 */
#ifndef LS_CGPATH_H
#define LS_CGPATH_H

#include <stddef.h>
#include <stdint.h>

#define LS_CG_MAX_DEPTH 32	/* directory levels walked below the mount */
#define LS_CG_MAX_ENTRIES 65536 /* cgroups mapped at most */
#define LS_CG_GONE "(gone)"	/* the path of an id no longer in the tree */

/* The mount point of the cgroup2 file system in @mountinfo (a
 * /proc/<pid>/mountinfo file) into @out: the last mount of the whole tree
 * (root "/"), else the last of a subtree; 0, -ENOENT if none is mounted,
 * -ENAMETOOLONG, or -errno of reading the file. */
int ls_cg_mount(const char *mountinfo, char *out, size_t len);

struct ls_cg_ent {
	uint64_t id;
	char *path; /* below the mount: "/" for the root, "/a/b" */
};

struct ls_cgmap {
	char root[4096];       /* the mount point walked */
	struct ls_cg_ent *ent; /* sorted by id after a walk */
	size_t n, cap;
	int truncated; /* the last walk hit LS_CG_MAX_DEPTH or _ENTRIES */
};

/* Set the mount point @root; nothing walked yet. */
void ls_cgmap_init(struct ls_cgmap *m, const char *root);
void ls_cgmap_free(struct ls_cgmap *m);
/* Walk the tree again (bounded), replacing what was mapped: 0, or -errno
 * when the root itself cannot be read (subdirectories that vanish during
 * the walk are skipped). */
int ls_cgmap_scan(struct ls_cgmap *m);
/* The path of cgroup @id as last walked, NULL if it was not there. */
const char *ls_cgmap_find(const struct ls_cgmap *m, uint64_t id);
/* @arg (a --cgroup argument) as a directory path under @root: an absolute
 * path under @root stays, any other is taken below @root ("/a/b" as in
 * /proc/<pid>/cgroup, or "a/b").  0, -ENAMETOOLONG, or -EINVAL for a path
 * that leaves the tree (".." components). */
int ls_cg_path_arg(const char *root, const char *arg, char *out, size_t len);

#endif
