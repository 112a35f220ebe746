// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* numbers.c - checked conversions of command-line values: whole numbers,
 * seconds, percentages and addresses, each with its own accepted form. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cmd/numbers.h"

int ls_parse_u32(const char *s, uint32_t min, uint32_t max, uint32_t *out)
{
	unsigned long long v;
	char *end;

	if (!s || !*s || isspace((unsigned char)*s) || *s == '-' || *s == '+')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (*end)
		return -EINVAL;
	if (errno == ERANGE || v < min || v > max)
		return -ERANGE;
	*out = (uint32_t)v;
	return 0;
}

int ls_parse_seconds(const char *s, double min, double max, double *out)
{
	char *end;
	double v;

	if (!s || !*s || isspace((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (*end == 's' && end[1] == '\0')
		end++;
	if (*end || !isfinite(v))
		return -EINVAL;
	if (errno == ERANGE || v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

int ls_parse_percent(const char *s, double min, double max, double *out)
{
	size_t digits = 0, points = 0, n;
	double v;

	if (!s)
		return -EINVAL;
	n = strlen(s);
	if (n && s[n - 1] == '%')
		n--;
	for (size_t i = 0; i < n; i++) {
		if (isdigit((unsigned char)s[i]))
			digits++;
		else if (s[i] == '.')
			points++;
		else
			return -EINVAL;
	}
	if (!digits || points > 1)
		return -EINVAL;
	/* only digits and one point before n: strtod stops at n or the '%' */
	v = strtod(s, NULL);
	if (!isfinite(v) || v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

int ls_parse_addr(const char *s, uint64_t *out)
{
	unsigned long long v;
	char *end;

	if (!strncmp(s, "0x", 2) || !strncmp(s, "0X", 2))
		s += 2;
	if (!*s || strlen(s) > 16)
		return -EINVAL;
	for (const char *p = s; *p; p++)
		if (!isxdigit((unsigned char)*p))
			return -EINVAL;
	v = strtoull(s, &end, 16);
	if (*end || !v)
		return -EINVAL;
	*out = v;
	return 0;
}
