// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * fuzz_record_read.c - libFuzzer harness for the record reader.
 *
 * Whatever the bytes, ls_rec_parse() must return 0 or -EINVAL with a
 * one-line message, and a record it accepts must go through the metrics,
 * a comparison with itself and the CSV and lkp writers, all without a
 * sanitizer report.  Nothing it accepts may hold text unsafe for a
 * terminal (controls, bidi overrides, bytes that are not UTF-8).  Built by
 * `make fuzz-build`; `make fuzz` runs it.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/compare.h"
#include "export/record.h"
#include "export/record_write.h"
#include "util/untrusted_text.h"

static FILE *sink;

static void write_formats(const uint8_t *data, size_t size)
{
	struct json_tokener *tok = json_tokener_new_ex(32);
	struct json_object *doc;
	char err[256];

	if (!tok)
		return;
	doc = json_tokener_parse_ex(tok, (const char *)data, (int)size);
	json_tokener_free(tok);
	if (!doc)
		return;
	ls_record_print(sink, doc, LS_REC_CSV, err, sizeof(err));
	ls_record_print(sink, doc, LS_REC_LKP, err, sizeof(err));
	json_object_put(doc);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ls_rec r[2];
	struct ls_cmp c;
	char err[256];
	int e;

	if (!sink)
		sink = fopen("/dev/null", "w");
	e = ls_rec_parse((const char *)data, size, &r[0], err, sizeof(err));
	if (e) {
		if (e != -EINVAL || !err[0] || strchr(err, '\n'))
			abort(); /* errors are one non-empty line */
		return 0;
	}
	if (ls_text_unsafe(r[0].kernel) || ls_text_unsafe(r[0].command))
		abort();
	for (size_t i = 0; i < r[0].totals.nlocks; i++)
		if (ls_text_unsafe(r[0].totals.locks[i].name))
			abort();
	r[1] = r[0];
	if (ls_compare(&r[0], 1, &r[1], 1, 5, 1, &c) == 0) {
		if (c.nchanged) /* a record compared with itself */
			abort();
		ls_cmp_free(&c);
	}
	ls_rec_free(&r[0]);
	write_formats(data, size);
	return 0;
}
