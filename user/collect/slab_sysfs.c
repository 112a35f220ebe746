// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * slab_sysfs.c - read the aliases of merged slab caches from sysfs, once
 * per run: every symlink of /sys/kernel/slab names a cache and points at
 * the directory of the cache it was merged into (":0000056").  A bounded
 * read: at most LS_SLAB_ALIAS_MAX entries, each link read into a fixed
 * buffer.  The table and the naming rule are in user/model/slab_alias.c.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>
#include "collect/slab_sysfs.h"

/* Directory entries looked at, at most (links and cache directories). */
#define ENTRIES_MAX (4 * LS_SLAB_ALIAS_MAX)

void ls_slab_aliases_read(struct ls_slab_aliases *a, const char *dir)
{
	char target[LS_SLAB_NAME_MAX + 1];
	struct dirent *de;
	size_t seen = 0;
	int fd;
	DIR *d;

	ls_slab_aliases_init(a);
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		a->err = errno;
		a->state = errno == ENOENT ? LS_ALIAS_NO_SYSFS
					   : LS_ALIAS_UNREADABLE;
		return;
	}
	d = fdopendir(fd);
	if (!d) {
		a->err = errno;
		a->state = LS_ALIAS_UNREADABLE;
		close(fd);
		return;
	}
	while ((de = readdir(d)) && seen++ < ENTRIES_MAX) {
		ssize_t n;

		if (de->d_type != DT_LNK && de->d_type != DT_UNKNOWN)
			continue;
		n = readlinkat(fd, de->d_name, target, sizeof(target));
		if (n <= 0 || (size_t)n >= sizeof(target)) {
			if (n > 0 || (n < 0 && errno != EINVAL))
				a->skipped++; /* EINVAL: not a link */
			continue;
		}
		target[n] = '\0';
		/* a link to a merged cache's directory, in this directory */
		if (target[0] != ':' || strchr(target, '/')) {
			a->skipped++;
			continue;
		}
		if (ls_slab_aliases_add(a, de->d_name, target) == -ENOMEM) {
			a->err = ENOMEM;
			a->state = LS_ALIAS_UNREADABLE;
			break;
		}
	}
	if (de)
		a->skipped++; /* more entries than ENTRIES_MAX */
	closedir(d);
	ls_slab_aliases_done(a);
}
