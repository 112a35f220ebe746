// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* outfile.c - output files: regular files replaced atomically, devices and
 * FIFOs written in place, every flush checked; temporary files left by a
 * lockscope that was killed are found by their name and removed. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include "util/log.h"
#include "util/untrusted_text.h"
#include "util/outfile.h"

/* The temporary name: ".<name>.lockscope-<pid>.XXXXXX" (the pid up to 10
 * digits), locked (flock) while its lockscope writes it. */
#define TMP_TAG "lockscope-"
#define TMP_RAND 6
#define TMP_EXTRA (2 + sizeof(TMP_TAG) - 1 + 10 + 1 + TMP_RAND)

/* Where a stream's bytes go, and why the first write that failed did. */
struct ls_sink {
	int fd;
	int err; /* errno of the first failed write; 0: none */
	int own; /* close @fd and free the sink with the stream */
};

static struct ls_sink stdout_sink = {.fd = STDOUT_FILENO};
static FILE *stdout_watched;

static ssize_t sink_write(void *cookie, const char *buf, size_t n)
{
	struct ls_sink *s = cookie;
	size_t done = 0;

	while (done < n) {
		ssize_t w = write(s->fd, buf + done, n - done);

		if (w < 0 && errno == EINTR) /* signals do not restart */
			continue;
		if (w <= 0) {
			if (!s->err)
				s->err = w < 0 ? errno : EIO;
			return 0; /* the stream's error flag is set */
		}
		done += (size_t)w;
	}
	return (ssize_t)n;
}

static int sink_close(void *cookie)
{
	struct ls_sink *s = cookie;
	int err = 0;

	if (s->own) {
		err = close(s->fd) ? errno : 0;
		free(s);
	}
	errno = err;
	return err ? -1 : 0;
}

static const cookie_io_functions_t sink_io = {.write = sink_write,
					      .close = sink_close};

/* A write stream on @fd that keeps its first write error; closing it
 * closes @fd. */
static FILE *sink_open(int fd, struct ls_sink **out)
{
	struct ls_sink *s = calloc(1, sizeof(*s));
	FILE *f;

	if (!s)
		return NULL;
	s->fd = fd;
	s->own = 1;
	f = fopencookie(s, "w", sink_io);
	if (!f) {
		free(s);
		return NULL;
	}
	*out = s;
	return f;
}

void ls_out_watch_stdout(void)
{
	FILE *f;

	if (stdout_watched || isatty(STDOUT_FILENO))
		return;
	f = fopencookie(&stdout_sink, "w", sink_io);
	if (!f)
		return; /* plain stdio: errors still reported, maybe as EIO */
	fflush(stdout);
	stdout = f; /* glibc: stdout is a variable that may be set */
	stdout_watched = f;
}

static void fail_why(const char *verb, const char *path, const char *why)
{
	char obj[300], a[257];

	snprintf(obj, sizeof(obj), "file '%s'",
		 ls_text_safe(a, sizeof(a), path));
	ls_fail(verb, obj, why);
}

static void fail(const char *verb, const char *path, int err)
{
	fail_why(verb, path, strerror(abs(err)));
}

static void release(struct ls_out *o)
{
	if (o->dirfd >= 0)
		close(o->dirfd);
	free(o->path);
	free(o->base);
	free(o->tmp);
	memset(o, 0, sizeof(*o));
	o->dirfd = -1;
}

/* Bytes of o->base the temporary name keeps: all, or cut (at a character
 * boundary) so that the whole fits in @name_max bytes. */
static size_t tmp_keep(const struct ls_out *o, long name_max)
{
	size_t keep = strlen(o->base);

	if (keep + TMP_EXTRA > (size_t)name_max)
		keep = (size_t)name_max - TMP_EXTRA;
	while (keep > 0 && (o->base[keep] & 0xc0) == 0x80)
		keep--; /* not inside a UTF-8 sequence */
	return keep;
}

/* The pid in @name if it is a temporary name of the first @keep bytes of
 * o->base ("." base "." TMP_TAG pid "." random), else 0. */
static long tmp_pid(const struct ls_out *o, size_t keep, const char *name)
{
	const char *p = name + 1 + keep + 1 + sizeof(TMP_TAG) - 1, *end;
	char *dot;
	long pid;

	if (strlen(name) < 2 + keep + sizeof(TMP_TAG) - 1 || name[0] != '.' ||
	    strncmp(name + 1, o->base, keep) || name[1 + keep] != '.' ||
	    strncmp(name + 2 + keep, TMP_TAG, sizeof(TMP_TAG) - 1) ||
	    !isdigit((unsigned char)*p))
		return 0;
	pid = strtol(p, &dot, 10);
	if (*dot != '.' || strlen(dot + 1) != TMP_RAND)
		return 0;
	for (end = dot + 1; *end; end++)
		if (!isalnum((unsigned char)*end))
			return 0;
	return pid;
}

/*
 * Remove the temporary files of this output that a lockscope left when it
 * was killed before renaming them: named for this file, regular, ours, and
 * locked by nobody (a lockscope still writing holds its lock, in any pid
 * namespace).  Each removal is said.  A directory that cannot be listed is
 * left alone.
 */
static void clean_stale(struct ls_out *o, size_t keep)
{
	int fd = openat(o->dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *e;

	if (!d) {
		if (fd >= 0)
			close(fd);
		return;
	}
	while ((e = readdir(d))) {
		long pid = tmp_pid(o, keep, e->d_name);
		struct stat st, fst;
		int f;

		if (!pid ||
		    fstatat(o->dirfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) ||
		    !S_ISREG(st.st_mode) || st.st_uid != geteuid())
			continue;
		f = openat(o->dirfd, e->d_name,
			   O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
		if (f < 0)
			continue;
		if (!flock(f, LOCK_EX | LOCK_NB) && !fstat(f, &fst) &&
		    fst.st_ino == st.st_ino && fst.st_dev == st.st_dev &&
		    !unlinkat(o->dirfd, e->d_name, 0))
			fprintf(stderr,
				"lockscope: removed '%s', a temporary file "
				"left by lockscope pid %ld (killed before it "
				"finished)\n",
				e->d_name, pid);
		close(f);
	}
	closedir(d);
}

/*
 * Create ".<name>.lockscope-<pid>.<6 random characters>" in o->dirfd,
 * locked, the name cut so that the whole fits in @name_max bytes: a valid
 * 255-byte name still gets a valid temporary name.  Stale ones of the same
 * name go first.  An fd or -errno.
 */
static int make_tmp(struct ls_out *o, long name_max, mode_t mode)
{
	static const char cs[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
				 "abcdefghijklmnopqrstuvwxyz0123456789";
	size_t keep, len;
	char *tmp;
	int fd = -EEXIST;

	if (name_max < (long)TMP_EXTRA + 1)
		return -ENAMETOOLONG;
	keep = tmp_keep(o, name_max);
	clean_stale(o, keep);
	tmp = malloc(keep + TMP_EXTRA + 1);
	if (!tmp)
		return -ENOMEM;
	for (int tries = 0; tries < 100 && fd == -EEXIST; tries++) {
		unsigned char r[TMP_RAND];

		if (getrandom(r, sizeof(r), 0) != (ssize_t)sizeof(r)) {
			fd = -errno;
			break;
		}
		snprintf(tmp, keep + TMP_EXTRA + 1, ".%.*s." TMP_TAG "%ld.",
			 (int)keep, o->base, (long)getpid());
		len = strlen(tmp);
		for (size_t i = 0; i < sizeof(r); i++)
			tmp[len + i] = cs[r[i] % (sizeof(cs) - 1)];
		tmp[len + TMP_RAND] = '\0';
		fd = openat(o->dirfd, tmp,
			    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
				    O_CLOEXEC,
			    mode);
		if (fd < 0)
			fd = -errno;
	}
	if (fd < 0) {
		free(tmp);
		return fd;
	}
	o->tmp = tmp;
	/* held until the file is closed: it is being written */
	if (flock(fd, LOCK_EX | LOCK_NB))
		(void)0; /* no locks here (some network file systems) */
	return fd;
}

/* A character device or a FIFO: open it and write in place. */
static int open_in_place(struct ls_out *o)
{
	int fd = open(o->path, O_WRONLY | O_NOCTTY | O_CLOEXEC), err;

	if (fd < 0) {
		err = -errno;
		fail("open", o->path, err);
		return err;
	}
	o->f = sink_open(fd, &o->sink);
	if (!o->f) {
		err = -ENOMEM;
		close(fd);
		fail("open", o->path, err);
		return err;
	}
	o->mode = LS_OUT_IN_PLACE;
	return 0;
}

/* A regular file (@st, its mode kept) or a new path (@st NULL) named
 * @target: a temporary file in the same directory. */
static int open_atomic(struct ls_out *o, const char *target,
		       const struct stat *st)
{
	char *d = strdup(target), *b = strdup(target);
	long name_max;
	int fd, err;

	if (!d || !b) {
		err = -ENOMEM;
		goto fail;
	}
	o->base = strdup(basename(b));
	if (!o->base) {
		err = -ENOMEM;
		goto fail;
	}
	o->dirfd = open(dirname(d), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (o->dirfd < 0 && errno == EACCES) /* searchable, not readable */
		o->dirfd = open(d, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (o->dirfd < 0) {
		err = -errno;
		goto fail;
	}
	name_max = fpathconf(o->dirfd, _PC_NAME_MAX);
	fd = make_tmp(o, name_max > 0 ? name_max : NAME_MAX, st ? 0600 : 0666);
	if (fd < 0) {
		err = fd;
		goto fail;
	}
	/* the replacement keeps the permissions of the file it replaces */
	if (st && fchmod(fd, st->st_mode & 07777))
		(void)0; /* keep 0600: still readable by its owner */
	o->f = sink_open(fd, &o->sink);
	if (!o->f) {
		err = -ENOMEM;
		close(fd);
		unlinkat(o->dirfd, o->tmp, 0);
		goto fail;
	}
	o->mode = LS_OUT_ATOMIC;
	free(d);
	free(b);
	return 0;
fail:
	fail("create", o->path, err);
	free(d);
	free(b);
	return err;
}

int ls_out_open(struct ls_out *o, const char *path)
{
	struct stat st, lst;
	char *target;
	int err;

	memset(o, 0, sizeof(*o));
	o->dirfd = -1;
	if (!strcmp(path, "-")) {
		o->f = stdout;
		o->mode = LS_OUT_STDOUT;
		return 0;
	}
	if (!*path) {
		fail_why("create", path, "the name is empty");
		return -EINVAL;
	}
	o->path = strdup(path);
	if (!o->path) {
		fail("create", path, -ENOMEM);
		return -ENOMEM;
	}
	if (path[strlen(path) - 1] == '/') {
		err = -EISDIR;
		fail("create", path, err);
		goto fail;
	}
	if (lstat(path, &lst)) {
		err = -errno;
		if (err != -ENOENT) {
			fail("create", path, err);
			goto fail;
		}
		err = open_atomic(o, path, NULL); /* a new file */
		if (err)
			goto fail;
		return 0;
	}
	if (stat(path, &st)) {
		err = -errno;
		if (err == -ENOENT)
			fail_why("create", path,
				 "it is a symbolic link to a missing file");
		else
			fail("create", path, err);
		goto fail;
	}
	if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)) {
		err = open_in_place(o);
	} else if (S_ISREG(st.st_mode)) {
		/* a link to a regular file: the target is replaced, the link
		 * stays */
		target = S_ISLNK(lst.st_mode) ? realpath(path, NULL)
					      : strdup(path);
		if (!target) {
			err = -errno;
			fail("create", path, err);
			goto fail;
		}
		err = open_atomic(o, target, &st);
		free(target);
	} else {
		err = S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
		fail_why("create", path,
			 S_ISDIR(st.st_mode)   ? strerror(EISDIR)
			 : S_ISBLK(st.st_mode) ? "it is a block device (a "
						 "record is not written onto "
						 "a disk)"
					       : "it is a socket");
	}
	if (!err)
		return 0;
fail:
	release(o);
	return err;
}

int ls_out_open_status(int err)
{
	switch (abs(err)) {
	case EINVAL:
	case EISDIR:
	case ENOENT:
	case ENOTDIR:
	case EACCES:
	case EPERM:
	case EROFS:
	case ENAMETOOLONG:
	case ELOOP:
	case ENXIO:
	case ENODEV:
	case ETXTBSY:
		return 2;
	default:
		return 1;
	}
}

/* Before the rename: the name must still be a regular file (or absent),
 * else the record stays beside it, renamed ".<name>.kept-<pid>.XXXXXX" so
 * that no later run takes it for a stale temporary file.  0 or -EEXIST. */
static int still_regular(struct ls_out *o)
{
	char why[400], *kept = strdup(o->tmp), *tag;
	struct stat st;

	if (fstatat(o->dirfd, o->base, &st, AT_SYMLINK_NOFOLLOW) ||
	    S_ISREG(st.st_mode)) {
		free(kept);
		return 0;
	}
	/* the last ".lockscope-": the name may hold one too */
	tag = NULL;
	for (char *t = kept; t && (t = strstr(t + 1, "." TMP_TAG));)
		tag = t;
	if (tag) {
		memcpy(tag + 1, "kept-", 5);
		memmove(tag + 6, tag + sizeof(TMP_TAG),
			strlen(tag + sizeof(TMP_TAG)) + 1);
		if (!renameat(o->dirfd, o->tmp, o->dirfd, kept)) {
			free(o->tmp);
			o->tmp = kept;
			kept = NULL;
		}
	}
	free(kept);
	snprintf(why, sizeof(why),
		 "it is no longer a regular file; the record is kept in "
		 "'%.300s' beside it",
		 o->tmp);
	fail_why("write", o->path, why);
	free(o->tmp);
	o->tmp = NULL; /* kept */
	return -EEXIST;
}

/* Flush @f (writing to @s, or NULL); 0 or -errno, reported once. */
static int flush_checked(FILE *f, struct ls_sink *s, const char *what)
{
	int err;

	errno = 0;
	if (!fflush(f) && !ferror(f))
		return 0;
	err = s && s->err ? -s->err : errno ? -errno : -EIO;
	if (s)
		s->err = 0;
	ls_fail_errno("write", what, err);
	__fpurge(f);
	clearerr(f);
	return err;
}

int ls_out_flush(FILE *f, const char *what)
{
	return flush_checked(f, f == stdout_watched ? &stdout_sink : NULL,
			     what);
}

int ls_out_commit(struct ls_out *o)
{
	char obj[300], a[257];
	int err;

	if (!o->f)
		return -EBADF;
	if (o->mode == LS_OUT_STDOUT) {
		err = ls_out_flush(o->f, "standard output");
		release(o);
		return err;
	}
	snprintf(obj, sizeof(obj), "file '%s'",
		 ls_text_safe(a, sizeof(a), o->path));
	err = flush_checked(o->f, o->sink, obj);
	if (!err && o->mode == LS_OUT_ATOMIC && fsync(o->sink->fd)) {
		err = -errno;
		ls_fail_errno("write", obj, err);
	}
	if (fclose(o->f) && !err) {
		err = -errno;
		ls_fail_errno("write", obj, err);
	}
	o->f = NULL;
	if (!err && o->mode == LS_OUT_ATOMIC)
		err = still_regular(o);
	if (!err && o->mode == LS_OUT_ATOMIC) {
		if (renameat(o->dirfd, o->tmp, o->dirfd, o->base)) {
			err = -errno;
			ls_fail_errno("write", obj, err);
		} else {
			free(o->tmp);
			o->tmp = NULL;
			/* the rename itself reaches the disk (no error when
			 * the directory cannot be synced: the file is in
			 * place) */
			if (fsync(o->dirfd))
				(void)0;
		}
	}
	if (o->tmp)
		unlinkat(o->dirfd, o->tmp, 0);
	release(o);
	return err;
}

void ls_out_abort(struct ls_out *o)
{
	if (o->f && o->mode != LS_OUT_STDOUT) {
		__fpurge(o->f); /* nothing half-written reaches a FIFO */
		fclose(o->f);
	}
	if (o->tmp)
		unlinkat(o->dirfd, o->tmp, 0);
	release(o);
}
