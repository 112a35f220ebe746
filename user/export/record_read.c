// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* record_read.c - read a record file back, checking every field it uses. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "export/record.h"

#define JSON_MAX_DEPTH 32

struct rd {
	char *err;
	size_t errlen;
};

static int bad(struct rd *rd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int bad(struct rd *rd, const char *fmt, ...)
{
	va_list ap;

	if (rd->errlen) {
		va_start(ap, fmt);
		vsnprintf(rd->err, rd->errlen, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

static struct json_object *member(struct rd *rd, struct json_object *o,
				  const char *path, const char *key,
				  json_type type, int *err)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v) ||
	    !json_object_is_type(v, type)) {
		*err = bad(rd, "%s%s%s: missing or not %s %s", path,
			   *path ? "." : "", key,
			   type == json_type_array || type == json_type_object
				   ? "an"
				   : "a",
			   json_type_to_name(type));
		return NULL;
	}
	return v;
}

static int get_u64(struct rd *rd, struct json_object *o, const char *path,
		   const char *key, uint64_t *out)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v) ||
	    !json_object_is_type(v, json_type_int) ||
	    json_object_get_int64(v) < 0)
		return bad(rd, "%s.%s: missing or not a non-negative integer",
			   path, key);
	*out = json_object_get_uint64(v);
	return 0;
}

/* Like get_u64, but a missing key reads as 0. */
static int opt_u64(struct rd *rd, struct json_object *o, const char *path,
		   const char *key, uint64_t *out)
{
	*out = 0;
	if (!json_object_object_get_ex(o, key, NULL))
		return 0;
	return get_u64(rd, o, path, key, out);
}

static int get_secs(struct rd *rd, struct json_object *o, const char *path,
		    const char *key, double *out)
{
	struct json_object *v;
	double d;

	if (!json_object_object_get_ex(o, key, &v) ||
	    (!json_object_is_type(v, json_type_double) &&
	     !json_object_is_type(v, json_type_int)))
		return bad(rd, "%s.%s: missing or not a number", path, key);
	d = json_object_get_double(v);
	if (!isfinite(d) || d < 0 || d > 1e9)
		return bad(rd, "%s.%s: %g is not a duration in seconds", path,
			   key, d);
	*out = d;
	return 0;
}

/* Up to 32 bytes of untrusted text for a one-line message. */
static const char *printable(char *buf, size_t len, const char *s)
{
	size_t i;

	for (i = 0; i + 1 < len && i < 32 && s[i]; i++)
		buf[i] =
			(unsigned char)s[i] < 0x20 || s[i] == 0x7f ? '?' : s[i];
	buf[i] = '\0';
	return buf;
}

static int has_control(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return 1;
	return 0;
}

/* Text from the file that will be printed: no control characters. */
static void sanitize(char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			*s = '?';
}

static int kind_of(const char *s, unsigned *kind)
{
	for (unsigned k = 0; k < LS_KIND_MAX; k++)
		if (!strcmp(s, ls_kind_name(k))) {
			*kind = k;
			return 0;
		}
	return -EINVAL;
}

/* "mutex@f [ffff8881...]" (written with --addr) -> "mutex@f" */
static void strip_addr(char *name)
{
	size_t n = strlen(name);
	char *open = strrchr(name, '[');

	if (!open || open == name || open[-1] != ' ' || name[n - 1] != ']')
		return;
	for (char *p = open + 1; p < name + n - 1; p++)
		if (!strchr("0123456789abcdef", *p))
			return;
	open[-1] = '\0';
}

static int cmp_lock(const void *a, const void *b)
{
	const struct ls_rec_lock *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	if (c)
		return c;
	return x->kind < y->kind ? -1 : x->kind > y->kind;
}

static void merge_lock(struct ls_rec_lock *d, const struct ls_rec_lock *s)
{
	d->instances += s->instances;
	d->contentions += s->contentions;
	d->total_ns += s->total_ns;
	d->spin_ns += s->spin_ns;
	d->sleep_ns += s->sleep_ns;
	d->spin_won += s->spin_won;
	d->spin_failed += s->spin_failed;
	d->gave_up += s->gave_up;
	d->begins += s->begins;
	d->osq_ns += s->osq_ns;
	d->osq_bailouts += s->osq_bailouts;
	d->slow_ns += s->slow_ns;
	d->slow_untraced_ns += s->slow_untraced_ns;
	if (s->max_ns > d->max_ns)
		d->max_ns = s->max_ns;
	/* peaks of different locks do not add up: keep the highest */
	if (s->peak_waiters > d->peak_waiters)
		d->peak_waiters = s->peak_waiters;
}

static int read_lock(struct rd *rd, struct json_object *o, const char *path,
		     struct ls_rec_lock *l)
{
	static const struct {
		const char *key;
		size_t off;
	} fields[] = {
		{"contentions", offsetof(struct ls_rec_lock, contentions)},
		{"total_ns", offsetof(struct ls_rec_lock, total_ns)},
		{"spin_ns", offsetof(struct ls_rec_lock, spin_ns)},
		{"sleep_ns", offsetof(struct ls_rec_lock, sleep_ns)},
		{"max_ns", offsetof(struct ls_rec_lock, max_ns)},
		{"spin_won", offsetof(struct ls_rec_lock, spin_won)},
		{"spin_failed", offsetof(struct ls_rec_lock, spin_failed)},
		{"gave_up", offsetof(struct ls_rec_lock, gave_up)},
		{"begins", offsetof(struct ls_rec_lock, begins)},
		{"peak_waiters", offsetof(struct ls_rec_lock, peak_waiters)},
	};
	static const struct {
		const char *key;
		size_t off;
	} probe_fields[] = {
		{"osq_ns", offsetof(struct ls_rec_lock, osq_ns)},
		{"osq_bailouts", offsetof(struct ls_rec_lock, osq_bailouts)},
		{"slow_path_ns", offsetof(struct ls_rec_lock, slow_ns)},
		{"slow_path_untraced_ns",
		 offsetof(struct ls_rec_lock, slow_untraced_ns)},
	};
	struct json_object *v;
	const char *s;
	int err = 0;

	if (!json_object_is_type(o, json_type_object))
		return bad(rd, "%s: not an object", path);
	memset(l, 0, sizeof(*l));
	l->instances = 1;
	v = member(rd, o, path, "name", json_type_string, &err);
	if (!v)
		return err;
	s = json_object_get_string(v);
	if (!*s || (size_t)json_object_get_string_len(v) >= sizeof(l->name) ||
	    strlen(s) != (size_t)json_object_get_string_len(v) ||
	    has_control(s))
		return bad(
			rd,
			"%s.name: empty, too long or holds control characters",
			path);
	memcpy(l->name, s, strlen(s) + 1);
	strip_addr(l->name);
	v = member(rd, o, path, "kind", json_type_string, &err);
	if (!v)
		return err;
	if (kind_of(json_object_get_string(v), &l->kind)) {
		char k[40];

		return bad(rd, "%s.kind: unknown lock kind '%s'", path,
			   printable(k, sizeof(k), json_object_get_string(v)));
	}
	for (size_t i = 0; i < sizeof(fields) / sizeof(*fields); i++) {
		err = get_u64(rd, o, path, fields[i].key,
			      (uint64_t *)((char *)l + fields[i].off));
		if (err)
			return err;
	}
	for (size_t i = 0; i < sizeof(probe_fields) / sizeof(*probe_fields);
	     i++) {
		err = opt_u64(rd, o, path, probe_fields[i].key,
			      (uint64_t *)((char *)l + probe_fields[i].off));
		if (err)
			return err;
	}
	return 0;
}

static int read_locks(struct rd *rd, struct json_object *snap, const char *path,
		      struct ls_rec_snap *s)
{
	struct json_object *a;
	size_t n, keep = 0;
	char p[96];
	int err = 0;

	a = member(rd, snap, path, "locks", json_type_array, &err);
	if (!a)
		return err;
	n = json_object_array_length(a);
	if (!n)
		return 0;
	s->locks = calloc(n, sizeof(*s->locks));
	if (!s->locks)
		return bad(rd, "%s.locks: out of memory", path);
	for (size_t i = 0; i < n; i++) {
		snprintf(p, sizeof(p), "%s.locks[%zu]", path, i);
		err = read_lock(rd, json_object_array_get_idx(a, i), p,
				&s->locks[i]);
		if (err)
			return err;
	}
	qsort(s->locks, n, sizeof(*s->locks), cmp_lock);
	for (size_t i = 0; i < n; i++) {
		if (keep && !cmp_lock(&s->locks[keep - 1], &s->locks[i]))
			merge_lock(&s->locks[keep - 1], &s->locks[i]);
		else
			s->locks[keep++] = s->locks[i];
	}
	s->nlocks = keep;
	return 0;
}

static int read_sampler(struct rd *rd, struct json_object *snap,
			const char *path, struct ls_rec_snap *s)
{
	struct json_object *smp, *funcs;
	char p[96];
	int err = 0;
	size_t n;

	snprintf(p, sizeof(p), "%s.sampler", path);
	smp = member(rd, snap, path, "sampler", json_type_object, &err);
	if (!smp)
		return err;
	err = get_u64(rd, smp, p, "samples", &s->samples);
	if (err)
		return err;
	funcs = member(rd, smp, p, "spin_functions", json_type_array, &err);
	if (!funcs)
		return err;
	n = json_object_array_length(funcs);
	if (n > LS_MAX_SPIN_RANGES)
		return bad(rd, "%s.spin_functions: %zu entries, at most %d", p,
			   n, LS_MAX_SPIN_RANGES);
	for (size_t i = 0; i < n; i++) {
		struct json_object *f = json_object_array_get_idx(funcs, i);
		struct ls_rec_spin *sp = &s->spin[i];
		struct json_object *v;
		char fp[128];

		snprintf(fp, sizeof(fp), "%s.spin_functions[%zu]", p, i);
		if (!json_object_is_type(f, json_type_object))
			return bad(rd, "%s: not an object", fp);
		v = member(rd, f, fp, "function", json_type_string, &err);
		if (!v)
			return err;
		if (!json_object_get_string_len(v) ||
		    (size_t)json_object_get_string_len(v) >= sizeof(sp->fn) ||
		    strchr(json_object_get_string(v), ' ') ||
		    has_control(json_object_get_string(v)))
			return bad(
				rd,
				"%s.function: empty, too long or not one word",
				fp);
		snprintf(sp->fn, sizeof(sp->fn), "%s",
			 json_object_get_string(v));
		err = get_u64(rd, f, fp, "samples", &sp->samples);
		if (err)
			return err;
		if (sp->samples > s->samples)
			return bad(
				rd,
				"%s.samples: more than the %llu samples taken",
				fp, (unsigned long long)s->samples);
	}
	s->nspin = (unsigned)n;
	return 0;
}

static int read_snap(struct rd *rd, struct json_object *o, const char *path,
		     struct ls_rec_snap *s)
{
	struct json_object *ctr, *loss;
	char p[96];
	int err = 0;

	if (!json_object_is_type(o, json_type_object))
		return bad(rd, "%s: not an object", path);
	ctr = member(rd, o, path, "counters", json_type_object, &err);
	if (!ctr)
		return err;
	snprintf(p, sizeof(p), "%s.counters", path);
	for (unsigned i = 0; i < LS_CTR_MAX; i++) {
		err = opt_u64(rd, ctr, p, ls_ctr_name(i), &s->ctr[i]);
		if (err)
			return err;
	}
	loss = member(rd, o, path, "losses", json_type_object, &err);
	if (!loss)
		return err;
	snprintf(p, sizeof(p), "%s.losses", path);
	for (unsigned i = 0; i < LS_LOSS_MAX; i++) {
		err = opt_u64(rd, loss, p, ls_loss_name(i), &s->loss[i]);
		if (err)
			return err;
	}
	err = read_sampler(rd, o, path, s);
	if (err)
		return err;
	return read_locks(rd, o, path, s);
}

static void join_argv(struct json_object *a, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < json_object_array_length(a) && used < len; i++) {
		struct json_object *w = json_object_array_get_idx(a, i);
		int n;

		n = snprintf(buf + used, len - used, "%s%s", i ? " " : "",
			     json_object_is_type(w, json_type_string)
				     ? json_object_get_string(w)
				     : "?");
		if (n < 0)
			break;
		used += (size_t)n;
	}
}

static int read_run(struct rd *rd, struct json_object *root, struct ls_rec *r)
{
	struct json_object *run, *v;
	int err = 0;
	uint64_t u;

	run = member(rd, root, "", "run", json_type_object, &err);
	if (!run)
		return err;
	v = member(rd, run, "run", "kernel_release", json_type_string, &err);
	if (!v)
		return err;
	snprintf(r->kernel, sizeof(r->kernel), "%s", json_object_get_string(v));
	sanitize(r->kernel);
	err = get_u64(rd, run, "run", "cpus", &u);
	if (err)
		return err;
	if (!u || u > 1U << 20)
		return bad(rd, "run.cpus: %llu is not a CPU count",
			   (unsigned long long)u);
	r->cpus = (unsigned)u;
	err = get_secs(rd, run, "run", "duration_s", &r->duration_s);
	if (err)
		return err;
	r->exit_status = -1;
	if (!json_object_object_get_ex(run, "command", &v))
		return bad(rd, "run.command: missing");
	if (v) {
		if (!json_object_is_type(v, json_type_array) ||
		    !json_object_array_length(v))
			return bad(
				rd,
				"run.command: not null or a non-empty array");
		r->has_command = 1;
		join_argv(v, r->command, sizeof(r->command));
		sanitize(r->command);
		err = get_u64(rd, run, "run", "exit_status", &u);
		if (err)
			return err;
		if (u > 255)
			return bad(rd, "run.exit_status: %llu is above 255",
				   (unsigned long long)u);
		r->exit_status = (int)u;
	}
	if (!json_object_object_get_ex(run, "interval_s", &v))
		return bad(rd, "run.interval_s: missing");
	if (v) {
		err = get_secs(rd, run, "run", "interval_s", &r->interval_s);
		if (err)
			return err;
		if (r->interval_s <= 0)
			return bad(rd, "run.interval_s: must be above 0");
	}
	v = member(rd, run, "run", "interrupted", json_type_boolean, &err);
	if (!v)
		return err;
	r->interrupted = json_object_get_boolean(v);
	return 0;
}

static int read_intervals(struct rd *rd, struct json_object *root,
			  struct ls_rec *r)
{
	struct json_object *a;
	int err = 0;
	size_t n;

	a = member(rd, root, "", "intervals", json_type_array, &err);
	if (!a)
		return err;
	n = json_object_array_length(a);
	if (n && !r->interval_s)
		return bad(rd,
			   "intervals: %zu given but run.interval_s is null",
			   n);
	if (!n)
		return 0;
	r->intervals = calloc(n, sizeof(*r->intervals));
	if (!r->intervals)
		return bad(rd, "intervals: out of memory");
	r->nintervals = n;
	for (size_t i = 0; i < n; i++) {
		struct json_object *o = json_object_array_get_idx(a, i);
		struct ls_rec_snap *s = &r->intervals[i];
		char p[48];

		snprintf(p, sizeof(p), "intervals[%zu]", i);
		err = read_snap(rd, o, p, s);
		if (!err)
			err = get_secs(rd, o, p, "t_s", &s->t_s);
		if (!err)
			err = get_secs(rd, o, p, "duration_s", &s->duration_s);
		if (err)
			return err;
	}
	return 0;
}

int ls_rec_from_json(struct json_object *root, struct ls_rec *r, char *err,
		     size_t errlen)
{
	struct rd rd = {err, errlen};
	struct json_object *v;
	int64_t ver;
	int e = 0;

	memset(r, 0, sizeof(*r));
	r->exit_status = -1;
	if (!json_object_is_type(root, json_type_object))
		return bad(&rd, "not a JSON object");
	if (!json_object_object_get_ex(root, "schema", &v) ||
	    !json_object_is_type(v, json_type_string) ||
	    strcmp(json_object_get_string(v), LS_REC_SCHEMA))
		return bad(&rd,
			   "not a lockscope record (no \"schema\": \"%s\")",
			   LS_REC_SCHEMA);
	if (!json_object_object_get_ex(root, "schema_version", &v) ||
	    !json_object_is_type(v, json_type_int))
		return bad(&rd, "schema_version: missing or not an integer");
	ver = json_object_get_int64(v);
	if (ver != LS_REC_VERSION)
		return bad(&rd,
			   "schema version %lld is not supported (this "
			   "lockscope reads version %d)",
			   (long long)ver, LS_REC_VERSION);
	r->version = (int)ver;
	e = read_run(&rd, root, r);
	if (!e) {
		v = member(&rd, root, "", "totals", json_type_object, &e);
		if (v)
			e = read_snap(&rd, v, "totals", &r->totals);
	}
	if (!e)
		r->totals.duration_s = r->duration_s;
	if (!e)
		e = read_intervals(&rd, root, r);
	if (e)
		ls_rec_free(r);
	return e;
}

int ls_rec_parse(const char *buf, size_t len, struct ls_rec *r, char *err,
		 size_t errlen)
{
	struct rd rd = {err, errlen};
	struct json_tokener *tok;
	struct json_object *root;
	enum json_tokener_error je;
	size_t end;
	int e;

	memset(r, 0, sizeof(*r));
	if (!len)
		return bad(&rd, "empty file");
	if (len > LS_REC_MAX_BYTES)
		return bad(&rd, "larger than %lu bytes", LS_REC_MAX_BYTES);
	tok = json_tokener_new_ex(JSON_MAX_DEPTH);
	if (!tok)
		return bad(&rd, "out of memory");
	root = json_tokener_parse_ex(tok, buf, (int)len);
	je = json_tokener_get_error(tok);
	end = json_tokener_get_parse_end(tok);
	json_tokener_free(tok);
	if (je == json_tokener_continue) {
		json_object_put(root);
		return bad(&rd,
			   "truncated JSON (the file ends inside a value)");
	}
	if (je != json_tokener_success) {
		json_object_put(root);
		return bad(&rd, "malformed JSON at byte %zu: %s", end,
			   json_tokener_error_desc(je));
	}
	for (; end < len; end++)
		if (!strchr(" \t\r\n", buf[end]) || !buf[end]) {
			json_object_put(root);
			return bad(&rd,
				   "malformed JSON: data after the end at byte "
				   "%zu",
				   end);
		}
	e = ls_rec_from_json(root, r, err, errlen);
	json_object_put(root);
	return e;
}

int ls_rec_read_file(const char *path, struct ls_rec *r, char *err,
		     size_t errlen)
{
	struct rd rd = {err, errlen};
	size_t len = 0, cap = 0;
	char *buf = NULL;
	int fd, e = 0;

	memset(r, 0, sizeof(*r));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		e = -errno;
		bad(&rd, "%s", strerror(-e));
		return e;
	}
	for (;;) {
		ssize_t n;

		if (len == cap) {
			char *nb;

			if (cap > LS_REC_MAX_BYTES) {
				e = bad(&rd, "larger than %lu bytes",
					LS_REC_MAX_BYTES);
				break;
			}
			cap = cap ? cap * 2 : 65536;
			nb = realloc(buf, cap);
			if (!nb) {
				e = bad(&rd, "out of memory");
				break;
			}
			buf = nb;
		}
		n = read(fd, buf + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			e = -errno;
			bad(&rd, "%s", strerror(errno));
			break;
		}
		if (!n)
			break;
		len += (size_t)n;
	}
	close(fd);
	if (!e)
		e = ls_rec_parse(buf, len, r, err, errlen);
	free(buf);
	return e;
}

void ls_rec_free(struct ls_rec *r)
{
	free(r->totals.locks);
	for (size_t i = 0; i < r->nintervals; i++)
		free(r->intervals[i].locks);
	free(r->intervals);
	memset(r, 0, sizeof(*r));
}

const struct ls_rec_lock *ls_rec_find(const struct ls_rec_snap *s,
				      const char *name, unsigned kind)
{
	struct ls_rec_lock key;

	if (!s->nlocks)
		return NULL;
	snprintf(key.name, sizeof(key.name), "%s", name);
	key.kind = kind;
	return bsearch(&key, s->locks, s->nlocks, sizeof(*s->locks), cmp_lock);
}
