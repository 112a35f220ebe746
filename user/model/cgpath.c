// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * cgpath.c - cgroup v2 ids to paths (model/cgpath.h): find the cgroup2
 * mount in mountinfo, walk it within bounds, look ids up.  A cgroup id is
 * unique for the life of the system (kernfs ids carry a generation), so an
 * id that is not in the tree is gone, never another cgroup's path.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "model/cgpath.h"

/* mountinfo escapes space, tab, newline and backslash as \ooo. */
static void unescape(char *s)
{
	char *d = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' &&
		    s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*d++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 +
				      (s[3] - '0'));
			s += 3;
		} else {
			*d++ = *s;
		}
	}
	*d = '\0';
}

int ls_cg_mount(const char *mountinfo, char *out, size_t len)
{
	FILE *f = fopen(mountinfo, "re");
	char *line = NULL;
	size_t cap = 0;
	int err = -ENOENT, whole = 0;

	if (!f)
		return -errno;
	while (getline(&line, &cap, f) > 0) {
		/* id parent major:minor root mountpoint opts [tags] - type */
		char *sep = strstr(line, " - "), *save = NULL, *root = NULL;
		char *tok = strtok_r(line, " ", &save);

		if (!sep || strncmp(sep + 3, "cgroup2 ", 8))
			continue;
		for (int i = 1; tok && i < 5; i++) {
			if (i == 4)
				root = tok;
			tok = strtok_r(NULL, " ", &save);
		}
		if (!tok || !root)
			continue;
		/* ids are resolved from the top: a mount of the whole tree
		 * (root "/") beats a subtree (a container's own cgroup) */
		if (whole && strcmp(root, "/"))
			continue;
		unescape(tok);
		if (strlen(tok) >= len) {
			err = -ENAMETOOLONG;
			continue;
		}
		strcpy(out, tok);
		err = 0;
		whole = !strcmp(root, "/");
		/* no break: a later mount on the same point shadows it */
	}
	free(line);
	fclose(f);
	return err;
}

void ls_cgmap_init(struct ls_cgmap *m, const char *root)
{
	memset(m, 0, sizeof(*m));
	snprintf(m->root, sizeof(m->root), "%s", root);
}

static void clear(struct ls_cgmap *m)
{
	for (size_t i = 0; i < m->n; i++)
		free(m->ent[i].path);
	m->n = 0;
	m->truncated = 0;
}

void ls_cgmap_free(struct ls_cgmap *m)
{
	clear(m);
	free(m->ent);
	m->ent = NULL;
	m->cap = 0;
}

static int add(struct ls_cgmap *m, uint64_t id, const char *path)
{
	if (m->n == LS_CG_MAX_ENTRIES) {
		m->truncated = 1;
		return -ENOSPC;
	}
	if (m->n == m->cap) {
		size_t cap = m->cap ? m->cap * 2 : 64;
		struct ls_cg_ent *e = realloc(m->ent, cap * sizeof(*e));

		if (!e)
			return -ENOMEM;
		m->ent = e;
		m->cap = cap;
	}
	m->ent[m->n].path = strdup(path);
	if (!m->ent[m->n].path)
		return -ENOMEM;
	m->ent[m->n++].id = id;
	return 0;
}

/* Map directory @fd (path @rel below the root, "" for the root itself) and
 * its subdirectories; takes ownership of @fd.  0, or a negative errno that
 * ends the walk (allocation, the entry bound). */
static int walk(struct ls_cgmap *m, int fd, char *rel, size_t rlen,
		unsigned depth)
{
	struct stat st;
	struct dirent *d;
	DIR *dir;
	int err = 0;

	if (fstat(fd, &st)) {
		close(fd);
		return 0; /* vanished under us */
	}
	err = add(m, (uint64_t)st.st_ino, rlen ? rel : "/");
	if (err) {
		close(fd);
		return err;
	}
	if (depth == LS_CG_MAX_DEPTH) {
		m->truncated = 1;
		close(fd);
		return 0;
	}
	dir = fdopendir(fd);
	if (!dir) {
		close(fd);
		return 0;
	}
	while (!err && (d = readdir(dir))) {
		size_t n = strlen(d->d_name);
		int sub;

		if (d->d_type != DT_DIR && d->d_type != DT_UNKNOWN)
			continue;
		if (!strcmp(d->d_name, ".") || !strcmp(d->d_name, ".."))
			continue;
		if (rlen + 1 + n >= 4096) {
			m->truncated = 1;
			continue;
		}
		sub = openat(dirfd(dir), d->d_name,
			     O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
		if (sub < 0)
			continue; /* not a directory, or gone */
		rel[rlen] = '/';
		memcpy(rel + rlen + 1, d->d_name, n + 1);
		err = walk(m, sub, rel, rlen + 1 + n, depth + 1);
		rel[rlen] = '\0';
	}
	closedir(dir);
	return err;
}

static int cmp_ent(const void *a, const void *b)
{
	uint64_t x = ((const struct ls_cg_ent *)a)->id;
	uint64_t y = ((const struct ls_cg_ent *)b)->id;

	return x < y ? -1 : x > y;
}

int ls_cgmap_scan(struct ls_cgmap *m)
{
	char *rel = malloc(4096);
	int fd, err;

	if (!rel)
		return -ENOMEM;
	rel[0] = '\0';
	clear(m);
	fd = open(m->root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		err = -errno;
		free(rel);
		return err;
	}
	err = walk(m, fd, rel, 0, 0);
	free(rel);
	if (err == -ENOSPC)
		err = 0; /* the bound: counted in m->truncated */
	qsort(m->ent, m->n, sizeof(*m->ent), cmp_ent);
	return err;
}

const char *ls_cgmap_find(const struct ls_cgmap *m, uint64_t id)
{
	size_t lo = 0, hi = m->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (m->ent[mid].id == id)
			return m->ent[mid].path;
		if (m->ent[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

int ls_cg_path_arg(const char *root, const char *arg, char *out, size_t len)
{
	size_t rl = strlen(root);
	const char *p;
	int n;

	/* no ".." component anywhere: the path stays in the tree */
	for (p = arg; *p; p++)
		if ((p == arg || p[-1] == '/') && p[0] == '.' && p[1] == '.' &&
		    (p[2] == '/' || !p[2]))
			return -EINVAL;
	while (rl > 1 && root[rl - 1] == '/')
		rl--;
	if (!strncmp(arg, root, rl) && (arg[rl] == '/' || !arg[rl]))
		n = snprintf(out, len, "%s", arg);
	else
		n = snprintf(out, len, "%.*s%s%s", (int)rl, root,
			     arg[0] == '/' ? "" : "/", arg);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}
