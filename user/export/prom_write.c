// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* prom_write.c - the exposition's writing primitives (export/prom_write.h):
 * shortest round-tripping floats, family headers, escaped labels, samples. */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "export/prom_write.h"

const char *ls_prom_float(char *buf, size_t len, double v)
{
	if (isnan(v)) {
		snprintf(buf, len, "NaN");
		return buf;
	}
	if (isinf(v)) {
		snprintf(buf, len, "%sInf", v > 0 ? "+" : "-");
		return buf;
	}
	for (int prec = 1; prec <= 17; prec++) {
		snprintf(buf, len, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	return buf;
}

/* Family header.  @name is the family: counters without "_total", info
 * metrics without "_info" (the sample names add them). */
void ls_prom_family(const struct ls_prom_out *o, const char *name,
		    const char *type, const char *unit, const char *help)
{
	if (o->fmt == LS_PROM_OPENMETRICS) {
		fprintf(o->f, "# TYPE %s %s\n", name, type);
		if (unit)
			fprintf(o->f, "# UNIT %s %s\n", name, unit);
		fprintf(o->f, "# HELP %s %s\n", name, help);
		return;
	}
	if (!strcmp(type, "counter")) {
		fprintf(o->f, "# HELP %s_total %s\n", name, help);
		fprintf(o->f, "# TYPE %s_total counter\n", name);
	} else if (!strcmp(type, "info")) {
		fprintf(o->f, "# HELP %s_info %s\n", name, help);
		fprintf(o->f, "# TYPE %s_info gauge\n", name);
	} else {
		fprintf(o->f, "# HELP %s %s\n", name, help);
		fprintf(o->f, "# TYPE %s %s\n", name, type);
	}
}

/* Append label="value" (escaped) to @buf at *@off; a label that does not
 * fit is left out whole, the value cut at a character. */
void ls_prom_label(char *buf, size_t len, size_t *off, const char *name,
		   const char *val)
{
	size_t o = *off;
	int n = snprintf(buf + o, len - o, "%s%s=\"", o ? "," : "", name);

	if (n < 0 || (size_t)n + 2 > len - o) {
		buf[o] = '\0';
		return;
	}
	o += (size_t)n;
	for (const char *c = val; *c; c++) {
		int esc = *c == '\\' || *c == '"' || *c == '\n';

		if (o + (esc ? 2 : 1) + 2 > len)
			break;
		if (esc)
			buf[o++] = '\\';
		buf[o++] = *c == '\n' ? 'n' : *c;
	}
	buf[o++] = '"';
	buf[o] = '\0';
	*off = o;
}

void ls_prom_sample_u64(const struct ls_prom_out *o, const char *name,
			const char *labels, uint64_t v)
{
	fprintf(o->f, "%s%s%s%s %" PRIu64 "\n", name, *labels ? "{" : "",
		labels, *labels ? "}" : "", v);
}

void ls_prom_sample_f(const struct ls_prom_out *o, const char *name,
		      const char *labels, double v)
{
	char b[40];

	fprintf(o->f, "%s%s%s%s %s\n", name, *labels ? "{" : "", labels,
		*labels ? "}" : "", ls_prom_float(b, sizeof(b), v));
}

void ls_prom_one_label(char *buf, size_t len, const char *name, const char *val)
{
	size_t off = 0;

	buf[0] = '\0';
	ls_prom_label(buf, len, &off, name, val);
}

/* The header of a family of one sample, and that sample's name in @buf. */
static const char *single(const struct ls_prom_out *o, char *buf, size_t len,
			  const char *name, const char *type, const char *unit,
			  const char *help)
{
	ls_prom_family(o, name, type, unit, help);
	snprintf(buf, len, "%s%s", name,
		 !strcmp(type, "counter") ? "_total"
		 : !strcmp(type, "info")  ? "_info"
					  : "");
	return buf;
}

void ls_prom_single_u64(const struct ls_prom_out *o, const char *name,
			const char *type, const char *unit, const char *help,
			uint64_t v)
{
	char b[128];

	ls_prom_sample_u64(o, single(o, b, sizeof(b), name, type, unit, help),
			   "", v);
}

void ls_prom_single_f(const struct ls_prom_out *o, const char *name,
		      const char *type, const char *unit, const char *help,
		      double v)
{
	char b[128];

	ls_prom_sample_f(o, single(o, b, sizeof(b), name, type, unit, help), "",
			 v);
}
