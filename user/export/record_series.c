// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * record_series.c - a record's time series kept out of memory, and the
 * record written as a stream: each interval's JSON goes, one line with its
 * locks' keys, to an unlinked file as the interval ends; writing the record
 * reads the lines back one at a time, names and filters each interval's
 * locks, prints it and frees it.  The JSON text is the one json-c prints
 * for the whole document, byte for byte.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include "export/json.h"
#include "export/record.h"
#include "export/record_write.h"

#define SPILL_KEYS "_keys" /* each lock's [addr, kind], in the spill only */
#define JSON_FLAGS (JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE)

static const char *scratch_dir(void)
{
	const char *dir = getenv("TMPDIR");

	return dir && *dir ? dir : "/tmp";
}

/* An unlinked file for reading and writing in scratch_dir(); NULL with
 * errno. */
static FILE *scratch_open(void)
{
	const char *dir = scratch_dir();
	char path[PATH_MAX];
	FILE *f;
	int fd;

	fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd < 0 && (errno == EOPNOTSUPP || errno == EISDIR)) {
		/* a file system without O_TMPFILE */
		if (snprintf(path, sizeof(path), "%s/lockscope-XXXXXX", dir) >=
		    (int)sizeof(path)) {
			errno = ENAMETOOLONG;
			return NULL;
		}
		fd = mkostemp(path, O_CLOEXEC);
		if (fd >= 0)
			unlink(path);
	}
	if (fd < 0)
		return NULL;
	f = fdopen(fd, "w+");
	if (!f) {
		int e = errno;

		close(fd);
		errno = e;
	}
	return f;
}

void ls_series_init(struct ls_series *s)
{
	memset(s, 0, sizeof(*s));
}

int ls_series_open(struct ls_series *s, const char **dir)
{
	*dir = scratch_dir();
	if (!s->spill && !(s->spill = scratch_open()))
		return -errno;
	return 0;
}

void ls_series_free(struct ls_series *s)
{
	if (s->spill)
		fclose(s->spill);
	free(s->line);
	memset(s, 0, sizeof(*s));
}

static struct json_object *keys_json(const struct ls_snapshot *d)
{
	struct json_object *a = json_object_new_array_ext((int)d->nrows);

	for (size_t i = 0; a && i < d->nrows; i++) {
		struct json_object *k = json_object_new_array_ext(2);

		json_object_array_add(
			k, json_object_new_uint64(d->rows[i].key.addr));
		json_object_array_add(
			k, json_object_new_uint64(d->rows[i].key.kind));
		json_object_array_add(a, k);
	}
	return a;
}

int ls_series_add(struct ls_series *s, const struct ls_snapshot *d, double t_s,
		  double dur_s, int with_addr)
{
	struct json_object *o;
	int err = 0;

	if (s->err)
		return s->err;
	if (!s->spill)
		return -EBADF; /* not opened */
	o = ls_snap_to_json(d, with_addr);
	if (!o)
		return -ENOMEM;
	json_object_object_add(o, "index", json_object_new_uint64(s->n + 1));
	json_object_object_add(o, "t_s", json_object_new_double(t_s));
	json_object_object_add(o, "duration_s", json_object_new_double(dur_s));
	json_object_object_add(o, SPILL_KEYS, keys_json(d));
	/* a line only counts once it reached the file whole */
	errno = 0;
	if (fputs(json_object_to_json_string_ext(
			  o, JSON_C_TO_STRING_PLAIN |
				     JSON_C_TO_STRING_NOSLASHESCAPE),
		  s->spill) == EOF ||
	    fputc('\n', s->spill) == EOF || fflush(s->spill))
		err = s->err = errno ? -errno : -EIO;
	else
		s->n++;
	json_object_put(o);
	return err;
}

/* Lock @i of an interval line: its key, from the spill's keys. */
static int key_at(struct json_object *keys, size_t i, struct ls_lock_key *k)
{
	struct json_object *p = json_object_array_get_idx(keys, i);

	if (!json_object_is_type(p, json_type_array) ||
	    json_object_array_length(p) != 2)
		return -EINVAL;
	memset(k, 0, sizeof(*k));
	k->addr = json_object_get_uint64(json_object_array_get_idx(p, 0));
	k->kind = (uint32_t)json_object_get_uint64(
		json_object_array_get_idx(p, 1));
	return 0;
}

/* The next interval of @s, its locks named after @final and kept by @f;
 * 0 with *@out (NULL after the last), or -errno. */
static int next_interval(struct ls_series *s, size_t iv,
			 const struct ls_snapshot *final,
			 const struct ls_filter *f, struct json_object **out)
{
	struct json_object *o, *keys, *locks, *kept;

	*out = NULL;
	if (iv >= s->n)
		return 0;
	if (getline(&s->line, &s->linecap, s->spill) < 0)
		return ferror(s->spill) ? -EIO : -EINVAL;
	o = json_tokener_parse(s->line);
	if (!o)
		return -EINVAL;
	if (!json_object_object_get_ex(o, SPILL_KEYS, &keys) ||
	    !json_object_object_get_ex(o, "locks", &locks) ||
	    json_object_array_length(keys) != json_object_array_length(locks) ||
	    !(kept = json_object_new_array())) {
		json_object_put(o);
		return -EINVAL;
	}
	for (size_t i = 0; i < json_object_array_length(locks); i++) {
		struct json_object *l = json_object_array_get_idx(locks, i);
		struct json_object *nm;
		const struct ls_row *fr;
		struct ls_row probe;

		memset(&probe, 0, sizeof(probe));
		if (key_at(keys, i, &probe.key)) {
			json_object_put(kept);
			json_object_put(o);
			return -EINVAL;
		}
		fr = ls_snap_find(final, &probe.key);
		if (fr) {
			json_object_object_add(
				l, "name", json_object_new_string(fr->name));
			snprintf(probe.name, sizeof(probe.name), "%s",
				 fr->name);
		} else if (json_object_object_get_ex(l, "name", &nm)) {
			snprintf(probe.name, sizeof(probe.name), "%s",
				 json_object_get_string(nm));
		}
		if (ls_row_match(&probe, f))
			json_object_array_add(kept, json_object_get(l));
	}
	json_object_object_add(o, "locks", kept);
	json_object_object_del(o, SPILL_KEYS);
	*out = o;
	return 0;
}

/* @txt, each line after a newline indented by @ind spaces more. */
static void put_indented(FILE *f, const char *txt, int ind)
{
	for (const char *p = txt; *p; p++) {
		fputc(*p, f);
		if (*p == '\n')
			fprintf(f, "%*s", ind, "");
	}
}

/* The totals' lock objects, inside the head's empty "locks" (two spaces
 * a level: the totals at the first, their locks at the third). */
static int put_locks(FILE *f, const struct ls_snapshot *totals, int with_addr)
{
	for (size_t i = 0; i < totals->nrows; i++) {
		struct json_object *l = ls_snap_lock_json(totals, i, with_addr);

		if (!l)
			return -ENOMEM;
		fputs(i ? ",\n      " : "\n      ", f);
		put_indented(f, json_object_to_json_string_ext(l, JSON_FLAGS),
			     6);
		json_object_put(l);
	}
	return ferror(f) ? -EIO : 0;
}

/* The record as JSON, as json-c prints the whole document, but one lock
 * of the totals and one interval at a time: the head (ls_record_json())
 * up to its empty "locks", the totals' locks, the rest of the head, then
 * the intervals (at the second level). */
static int write_json(FILE *f, const struct ls_rec_meta *m,
		      const struct ls_snapshot *totals, struct ls_series *s,
		      const struct ls_snapshot *final,
		      const struct ls_filter *filter, char *why, size_t len)
{
	/* the totals' empty "locks", as json-c prints it: the locks go
	 * after its '[', and the "\n    ]" that closes it stays */
	static const char lead[] = "\n    \"locks\":[",
			  hole[] = "\n    \"locks\":[\n    ]";
	struct json_object *head = ls_record_json(m, totals), *iv;
	const char *txt = json_object_to_json_string_ext(head, JSON_FLAGS);
	const char *at = txt ? strstr(txt, hole) : NULL;
	size_t n = txt ? strlen(txt) : 0, k = 0, cut;
	int err = 0;

	/* the head ends with "\n}": the intervals go before it */
	if (!at || n < 2 || strcmp(txt + n - 2, "\n}")) {
		json_object_put(head);
		snprintf(why, len, "the document's head is not as expected");
		return -EINVAL;
	}
	cut = (size_t)(at - txt) + strlen(lead);
	fwrite(txt, 1, cut, f);
	err = put_locks(f, totals, m->col->with_addr);
	fwrite(txt + cut, 1, n - 2 - cut, f);
	fputs(",\n  \"intervals\":[", f);
	json_object_put(head);
	if (err)
		return err;
	if (s && s->spill && fseek(s->spill, 0, SEEK_SET))
		return -errno;
	while (s && s->spill &&
	       !(err = next_interval(s, k, final, filter, &iv)) && iv) {
		fputs(k++ ? ",\n    " : "\n    ", f);
		put_indented(f, json_object_to_json_string_ext(iv, JSON_FLAGS),
			     4);
		json_object_put(iv);
		if (ferror(f))
			return -EIO;
	}
	if (err == -EINVAL)
		snprintf(why, len,
			 "interval %zu of the time series kept in "
			 "a scratch file does not read back",
			 k + 1);
	if (err)
		return err;
	fputs("\n  ]\n}\n", f);
	return ferror(f) ? -EIO : 0;
}

/* CSV or lkp: the JSON to a scratch file, read back like any record. */
static int write_read_back(FILE *f, const struct ls_rec_meta *m,
			   const struct ls_snapshot *totals,
			   struct ls_series *s, const struct ls_snapshot *final,
			   const struct ls_filter *filter,
			   enum ls_rec_format fmt, char *err, size_t errlen)
{
	FILE *t = scratch_open();
	struct ls_rec r;
	struct stat st;
	void *buf;
	int e;

	if (!t)
		return -errno;
	e = write_json(t, m, totals, s, final, filter, err, errlen);
	if (!e && fflush(t))
		e = -errno;
	if (!e && fstat(fileno(t), &st))
		e = -errno;
	if (e) {
		fclose(t);
		return e;
	}
	buf = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fileno(t),
		   0);
	if (buf == MAP_FAILED) {
		e = -errno;
		fclose(t);
		return e;
	}
	e = ls_rec_parse(buf, (size_t)st.st_size, &r, err, errlen);
	munmap(buf, (size_t)st.st_size);
	fclose(t);
	if (e)
		return e;
	e = ls_record_print_rec(f, &r, fmt);
	ls_rec_free(&r);
	return e;
}

int ls_record_write(FILE *f, const struct ls_rec_meta *m,
		    const struct ls_snapshot *totals, struct ls_series *s,
		    const struct ls_snapshot *final,
		    const struct ls_filter *filter, enum ls_rec_format fmt,
		    char *err, size_t errlen)
{
	if (fmt == LS_REC_JSON)
		return write_json(f, m, totals, s, final, filter, err, errlen);
	return write_read_back(f, m, totals, s, final, filter, fmt, err,
			       errlen);
}
