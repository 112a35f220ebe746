/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* prom_write.h - the exposition's writing primitives (export/prom_write.c):
 * family headers, escaped labels and samples in Prometheus text format or
 * OpenMetrics. */
#ifndef LS_PROM_WRITE_H
#define LS_PROM_WRITE_H

#include <stdint.h>
#include <stdio.h>
#include "export/prom.h"

struct ls_prom_out {
	FILE *f;
	enum ls_prom_format fmt;
};

/* Family header.  @name is the family: counters without "_total", info
 * metrics without "_info" (the sample names add them). */
void ls_prom_family(const struct ls_prom_out *o, const char *name,
		    const char *type, const char *unit, const char *help);
/* Append label="value" (escaped) to @buf at *@off; a label that does not
 * fit is left out whole. */
void ls_prom_label(char *buf, size_t len, size_t *off, const char *name,
		   const char *val);
/* @buf = the one label name="val". */
void ls_prom_one_label(char *buf, size_t len, const char *name,
		       const char *val);
/* A family of one sample without labels: ls_prom_family() and the sample,
 * named as @type asks ("_total" after a counter's, "_info" after an info
 * metric's). */
void ls_prom_single_u64(const struct ls_prom_out *o, const char *name,
			const char *type, const char *unit, const char *help,
			uint64_t v);
void ls_prom_single_f(const struct ls_prom_out *o, const char *name,
		      const char *type, const char *unit, const char *help,
		      double v);
void ls_prom_sample_u64(const struct ls_prom_out *o, const char *name,
			const char *labels, uint64_t v);
void ls_prom_sample_f(const struct ls_prom_out *o, const char *name,
		      const char *labels, double v);

#endif
