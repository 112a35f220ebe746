// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* outfile.c - atomic file output: temporary file, fsync, rename. */
#include <errno.h>
#include <stdio.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "util/log.h"
#include "util/outfile.h"

static void fail(const char *verb, const char *path, int err)
{
	char obj[300];

	snprintf(obj, sizeof(obj), "file '%.256s'", path);
	ls_fail_errno(verb, obj, err);
}

int ls_out_open(struct ls_out *o, const char *path)
{
	char *d = NULL, *b = NULL, *dir, *base;
	mode_t um;
	int fd, err;

	memset(o, 0, sizeof(*o));
	if (!strcmp(path, "-")) {
		o->f = stdout;
		return 0;
	}
	d = strdup(path);
	b = strdup(path);
	o->path = strdup(path);
	if (!d || !b || !o->path)
		goto nomem;
	dir = dirname(d);
	base = basename(b);
	if (asprintf(&o->tmp, "%s/.%s.XXXXXX", dir, base) < 0) {
		o->tmp = NULL;
		goto nomem;
	}
	fd = mkostemp(o->tmp, O_CLOEXEC);
	if (fd < 0) {
		err = -errno;
		fail("create", path, err);
		goto fail;
	}
	/* mkostemp makes 0600 files: give the usual 0666 & ~umask */
	um = umask(0);
	umask(um);
	if (fchmod(fd, 0666 & ~um))
		(void)0; /* keep 0600: still readable by its owner */
	o->f = fdopen(fd, "w");
	if (!o->f) {
		err = -errno;
		close(fd);
		unlink(o->tmp);
		fail("create", path, err);
		goto fail;
	}
	free(d);
	free(b);
	return 0;
nomem:
	err = -ENOMEM;
	fail("create", path, err);
fail:
	free(d);
	free(b);
	free(o->path);
	free(o->tmp);
	memset(o, 0, sizeof(*o));
	return err;
}

int ls_out_commit(struct ls_out *o)
{
	int err = 0;

	if (!o->f)
		return -EBADF;
	if (!o->path) {
		err = fflush(o->f) ? -errno : 0;
		o->f = NULL;
		if (err)
			ls_fail_errno("write", "standard output", err);
		return err;
	}
	errno = 0;
	if (fflush(o->f) || ferror(o->f) || fsync(fileno(o->f)))
		err = errno ? -errno : -EIO;
	if (fclose(o->f) && !err)
		err = -errno;
	o->f = NULL;
	if (!err && rename(o->tmp, o->path))
		err = -errno;
	if (err) {
		fail("write", o->path, err);
		unlink(o->tmp);
	}
	free(o->path);
	free(o->tmp);
	o->path = o->tmp = NULL;
	return err;
}

void ls_out_abort(struct ls_out *o)
{
	if (o->f && o->path) {
		fclose(o->f);
		unlink(o->tmp);
	}
	free(o->path);
	free(o->tmp);
	memset(o, 0, sizeof(*o));
}
