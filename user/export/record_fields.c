// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* record_fields.c - the field readers every part of the record reader
 * shares (record_read.c, record_detail.c, record_holders.c,
 * record_cgroups.c, record_chains.c, record_classes.c): the reason of a
 * refusal, a non-negative integer, a kind as written, a name without its
 * address. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "export/record.h"
#include "export/record_int.h"

int ls_rd_bad(struct ls_rd *rd, const char *fmt, ...)
{
	va_list ap;

	if (rd->errlen) {
		va_start(ap, fmt);
		vsnprintf(rd->err, rd->errlen, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

int ls_rd_u64(struct ls_rd *rd, struct json_object *o, const char *path,
	      const char *key, uint64_t *out)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v) ||
	    !json_object_is_type(v, json_type_int) ||
	    json_object_get_int64(v) < 0)
		return ls_rd_bad(rd,
				 "%s.%s: missing or not a non-negative integer",
				 path, key);
	*out = json_object_get_uint64(v);
	return 0;
}

int ls_rd_kind(const char *s, unsigned *kind)
{
	for (unsigned k = 0; k < LS_KIND_MAX; k++)
		if (!strcmp(s, ls_kind_name(k))) {
			*kind = k;
			return 0;
		}
	return -EINVAL;
}

void ls_rd_strip_addr(char *name)
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
