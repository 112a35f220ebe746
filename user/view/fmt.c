// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* fmt.c - how every view writes a duration or a rate (see fmt.h). */
#include <stdio.h>
#include "view/fmt.h"

const char *ls_fmt_dur(char *buf, size_t len, uint64_t ns,
		       enum ls_dur_form form)
{
	static const char *const unit[] = {"us", "ms", "s"};
	/* decimals of the fixed form per unit */
	static const int fixed[] = {1, 2, 2};
	double v = (double)ns / 1000.0;
	int u = 0, prec;

	if (ns < 1000) {
		snprintf(buf, len, "%lluns", (unsigned long long)ns);
		return buf;
	}
	/* the next unit once rounding would print 1000 of this one */
	for (;;) {
		double top = form == LS_DUR_FIXED
				     ? (fixed[u] == 1 ? 999.95 : 999.995)
				     : 999.5;

		if (u == 2 || v < top)
			break;
		v /= 1000.0;
		u++;
	}
	if (form == LS_DUR_FIXED)
		prec = fixed[u];
	else
		prec = v < 9.995 ? 2 : v < 99.95 ? 1 : 0;
	snprintf(buf, len, "%.*f%s", prec, v, unit[u]);
	return buf;
}

const char *ls_fmt_per_s(char *buf, size_t len, double v)
{
	if (v <= 0)
		snprintf(buf, len, "0");
	else if (v < 9.95)
		snprintf(buf, len, "%.1f", v);
	else if (v < 99999.5)
		snprintf(buf, len, "%.0f", v);
	else if (v < 99999.5e3)
		snprintf(buf, len, "%.0fk", v / 1e3);
	else
		snprintf(buf, len, "%.0fM", v / 1e6);
	return buf;
}

const char *ls_fmt_ms_per_s(char *buf, size_t len, double v)
{
	if (v <= 0)
		snprintf(buf, len, "0");
	else
		snprintf(buf, len, "%.*f",
			 v < 9.995   ? 2
			 : v < 99.95 ? 1
				     : 0,
			 v);
	return buf;
}
