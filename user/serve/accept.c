// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* accept.c - HTTP content negotiation for /metrics: the exposition format
 * a scraper's Accept header prefers (RFC 9110 media ranges and q values). */
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "serve/accept.h"

/* q value of one media range ("type/sub;a=b;q=0.5"); 1 when absent. */
static double media_q(const char *range, size_t len)
{
	for (size_t i = 0; i + 2 < len; i++) {
		if (range[i] != ';')
			continue;
		i++;
		while (i < len && range[i] == ' ')
			i++;
		if (i + 2 <= len && (range[i] == 'q' || range[i] == 'Q') &&
		    range[i + 1] == '=')
			return strtod(range + i + 2, NULL);
	}
	return 1.0;
}

enum ls_prom_format ls_accept_format(const char *accept)
{
	double q_om = 0, q_text = 0;
	const char *p = accept;

	while (p && *p) {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		double q;

		while (len && *p == ' ') {
			p++;
			len--;
		}
		q = media_q(p, len);
		if (!strncasecmp(p, "application/openmetrics-text", 28)) {
			if (q > q_om)
				q_om = q;
		} else if (!strncasecmp(p, "text/plain", 10) ||
			   !strncasecmp(p, "text/*", 6) ||
			   !strncasecmp(p, "*/*", 3)) {
			if (q > q_text)
				q_text = q;
		}
		p = end ? end + 1 : NULL;
	}
	return q_om > 0 && q_om >= q_text ? LS_PROM_OPENMETRICS : LS_PROM_TEXT;
}
