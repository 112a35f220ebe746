// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* record_load.c - a record file's bytes into a JSON document: bounded
 * read, the large arrays left out of it (record_lazy.c) or, when anything
 * is wrong, the whole text for one-line reasons for what is not JSON or not
 * a number that fits, then record_read.c's checks of the fields. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "export/record.h"
#include "export/record_int.h"

/*
 * json-c reads an integer above 2^64-1 as 2^64-1 without a word: find one
 * in the first @len bytes of JSON text @buf.  Returns 1 and its offset in
 * *@at, or 0.  Numbers with a fraction or an exponent are not integers
 * (the reader refuses them where it wants one).
 */
static int big_integer(const char *buf, size_t len, size_t *at)
{
	static const char max[] = "18446744073709551615";
	const char *num = "0123456789+-.eE";
	int in_str = 0;

	for (size_t i = 0; i < len; i++) {
		size_t start, digits, j;

		if (in_str) {
			if (buf[i] == '\\')
				i++;
			else if (buf[i] == '"')
				in_str = 0;
			continue;
		}
		if (buf[i] == '"') {
			in_str = 1;
			continue;
		}
		if (!buf[i] || !strchr("-0123456789", buf[i]) ||
		    (i && buf[i - 1] && strchr(num, buf[i - 1])))
			continue;
		start = i;
		if (buf[i] == '-')
			i++;
		while (i < len && buf[i] == '0')
			i++;
		for (j = i; j < len && buf[j] >= '0' && buf[j] <= '9'; j++)
			;
		digits = j - i;
		if (buf[start] != '-' &&
		    (j >= len || !strchr(".eE", buf[j]) || !buf[j]) &&
		    (digits > sizeof(max) - 1 ||
		     (digits == sizeof(max) - 1 &&
		      memcmp(buf + i, max, digits) > 0))) {
			*at = start;
			return 1;
		}
		while (j < len && buf[j] && strchr(num, buf[j]))
			j++;
		i = j - 1;
	}
	return 0;
}

/* The whole text as one document: the reasons for what is wrong. */
static int parse_whole(const char *buf, size_t len, struct ls_rec *r, char *err,
		       size_t errlen)
{
	struct ls_rd rd = {err, errlen, NULL};
	struct json_tokener *tok;
	struct json_object *root;
	enum json_tokener_error je;
	size_t end, at;
	int e;

	memset(r, 0, sizeof(*r));
	if (!len)
		return ls_rd_bad(&rd, "empty file");
	if (len > LS_REC_MAX_BYTES)
		return ls_rd_bad(&rd, "larger than %lu bytes",
				 LS_REC_MAX_BYTES);
	tok = json_tokener_new_ex(LS_REC_JSON_DEPTH);
	if (!tok)
		return ls_rd_bad(&rd, "out of memory");
	root = json_tokener_parse_ex(tok, buf, (int)len);
	je = json_tokener_get_error(tok);
	end = json_tokener_get_parse_end(tok);
	if (je == json_tokener_continue && !root) {
		/* a number or literal (null, true) at the very end waits for
		 * a character that ends it: give it one */
		root = json_tokener_parse_ex(tok, " ", 1);
		if (json_tokener_get_error(tok) == json_tokener_success)
			je = json_tokener_success;
	}
	json_tokener_free(tok);
	if (je == json_tokener_continue) {
		json_object_put(root);
		return ls_rd_bad(
			&rd, "truncated JSON (the file ends inside a value)");
	}
	if (je != json_tokener_success) {
		json_object_put(root);
		return ls_rd_bad(&rd, "malformed JSON at byte %zu: %s", end,
				 json_tokener_error_desc(je));
	}
	for (; end < len; end++)
		if (!strchr(" \t\r\n", buf[end]) || !buf[end]) {
			json_object_put(root);
			return ls_rd_bad(
				&rd,
				"malformed JSON: data after the end at byte "
				"%zu",
				end);
		}
	e = big_integer(buf, end, &at);
	if (e) {
		json_object_put(root);
		return ls_rd_bad(&rd,
				 "malformed record: the integer at byte %zu is "
				 "above 2^64-1 (18446744073709551615)",
				 at);
	}
	e = ls_rec_from_json(root, r, err, errlen);
	json_object_put(root);
	return e;
}

/*
 * The document without the large arrays, which are read from the text one
 * element at a time (record_lazy.c): 0, or -1 for anything not quite
 * right, from a text the scan does not follow to a field that is wrong;
 * then the whole text is read again as one document, for the reason.
 */
static int parse_lazy(const char *buf, size_t len, struct ls_rec *r)
{
	struct ls_rd_text t;
	struct ls_rd rd = {NULL, 0, &t};
	struct json_tokener *tok;
	struct json_object *root;
	size_t doclen, at;
	char *doc = NULL;
	int e = -1;

	memset(r, 0, sizeof(*r));
	if (big_integer(buf, len, &at) ||
	    ls_rd_text_scan(&t, buf, len, &doc, &doclen))
		return -1;
	tok = json_tokener_new_ex(LS_REC_JSON_DEPTH);
	root = tok ? json_tokener_parse_ex(tok, doc, (int)doclen) : NULL;
	if (root && json_tokener_get_error(tok) == json_tokener_success) {
		at = json_tokener_get_parse_end(tok);
		while (at < doclen && doc[at] && strchr(" \t\r\n", doc[at]))
			at++;
		if (at == doclen)
			e = ls_rec_from_doc(&rd, root, r);
	}
	json_object_put(root);
	if (tok)
		json_tokener_free(tok);
	free(doc);
	ls_rd_text_free(&t);
	return e ? -1 : 0;
}

int ls_rec_parse(const char *buf, size_t len, struct ls_rec *r, char *err,
		 size_t errlen)
{
	if (len && len <= LS_REC_MAX_BYTES && !parse_lazy(buf, len, r))
		return 0;
	return parse_whole(buf, len, r, err, errlen);
}

int ls_rec_read_file(const char *path, struct ls_rec *r, char *err,
		     size_t errlen)
{
	struct ls_rd rd = {err, errlen, NULL};
	size_t len = 0, cap = 0;
	char *buf = NULL;
	int fd, e = 0;

	memset(r, 0, sizeof(*r));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		e = -errno;
		ls_rd_bad(&rd, "%s", strerror(-e));
		return e;
	}
	for (;;) {
		ssize_t n;

		if (len == cap) {
			char *nb;

			if (cap > LS_REC_MAX_BYTES) {
				e = ls_rd_bad(&rd, "larger than %lu bytes",
					      LS_REC_MAX_BYTES);
				break;
			}
			cap = cap ? cap * 2 : 65536;
			nb = realloc(buf, cap);
			if (!nb) {
				e = ls_rd_bad(&rd, "out of memory");
				break;
			}
			buf = nb;
		}
		n = read(fd, buf + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			e = -errno;
			ls_rd_bad(&rd, "%s", strerror(errno));
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
