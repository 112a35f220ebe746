/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* numbers.h - checked conversions of command-line values. */
#ifndef LS_NUMBERS_H
#define LS_NUMBERS_H

#include <stdint.h>

/* Each returns 0, -EINVAL (not a number of that form) or -ERANGE (outside
 * [min, max]); @out is written only on success. */

/* Decimal digits only: no sign, no space, no suffix. */
int ls_parse_u32(const char *s, uint32_t min, uint32_t max, uint32_t *out);
/* A finite decimal number, optionally followed by "s" ("2.5", "5s"). */
int ls_parse_seconds(const char *s, double min, double max, double *out);
/* Digits with at most one decimal point, optionally followed by "%"
 * ("5", "0.5", "20%"): no sign, exponent, hex or other suffix. */
int ls_parse_percent(const char *s, double min, double max, double *out);
/* A non-zero hexadecimal address of at most 16 digits, "0x" optional. */
int ls_parse_addr(const char *s, uint64_t *out);

#endif
