// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * whatif_opts.c - whatif's own option values: the delay list with its
 * units and the cap, the metric, and the metric's figure read from
 * PROGRAM's output (bounded: the caller keeps the output's last bytes).
 */
#include <errno.h>
#include <math.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/types.h>
#include "lockscope.h"
#include "cmd/numbers.h"
#include "cmd/options.h"
#include "cmd/whatif_opts.h"

void ls_wif_opts_default(struct ls_wif_opts *w)
{
	*w = (struct ls_wif_opts){
		.rounds = LS_WIF_DEF_ROUNDS,
	};
}

void ls_wif_auto_delays(struct ls_wif_opts *w, double rate, unsigned ncpus)
{
	double cap = (double)LS_WIF_CAP_NS / 1000, d = cap, mag;

	if (rate > 0)
		d = fmin(cap,
			 LS_WIF_AUTO_SHARE * (ncpus ? ncpus : 1) * 1e6 / rate);
	mag = pow(10, floor(log10(d)) - 1); /* 2 significant digits */
	d = fmax(mag, floor(d / mag) * mag);
	w->ndelays = 3;
	w->delays_us[0] = d / 4;
	w->delays_us[1] = d / 2;
	w->delays_us[2] = d;
}

int ls_wif_parse_delays(const char *arg, struct ls_wif_opts *w, char *why,
			size_t len)
{
	const char *p = arg;
	unsigned n = 0;

	while (*p) {
		char *end;
		double v = strtod(p, &end), mul = 1;

		if (end == p || !(v >= 0) || !isfinite(v)) {
			snprintf(why, len, "not a list of delays (us)");
			return -EINVAL;
		}
		if (!strncmp(end, "ns", 2))
			mul = 1e-3, end += 2;
		else if (!strncmp(end, "us", 2))
			end += 2;
		else if (!strncmp(end, "ms", 2))
			mul = 1e3, end += 2;
		else if (*end == 's')
			mul = 1e6, end++;
		v *= mul;
		if (*end && *end != ',') {
			snprintf(why, len, "not a list of delays (us)");
			return -EINVAL;
		}
		if (v * 1000 > (double)LS_WIF_CAP_NS) {
			snprintf(why, len,
				 "%g us is above the cap of %llu us per "
				 "acquisition",
				 v, (unsigned long long)(LS_WIF_CAP_NS / 1000));
			return -ERANGE;
		}
		if (v > 0) {
			unsigned i = 0;

			while (i < n && w->delays_us[i] != v)
				i++;
			if (i == n && n == LS_WIF_MAX_LEVELS) {
				snprintf(why, len, "more than %d delays",
					 LS_WIF_MAX_LEVELS);
				return -EINVAL;
			}
			if (i == n)
				w->delays_us[n++] = v;
		}
		p = *end ? end + 1 : end;
	}
	if (!n) {
		snprintf(why, len,
			 "needs a non-zero delay (zero-delay "
			 "runs are always made)");
		return -EINVAL;
	}
	for (unsigned i = 1; i < n; i++) /* ascending */
		for (unsigned j = i;
		     j > 0 && w->delays_us[j] < w->delays_us[j - 1]; j--) {
			double t = w->delays_us[j];

			w->delays_us[j] = w->delays_us[j - 1];
			w->delays_us[j - 1] = t;
		}
	w->ndelays = n;
	return 0;
}

int ls_wif_parse_metric(const char *arg, struct ls_wif_opts *w, char *why,
			size_t len)
{
	regex_t re;

	if (!strcmp(arg, "auto"))
		w->metric = LS_METRIC_AUTO;
	else if (!strcmp(arg, "wall"))
		w->metric = LS_METRIC_WALL;
	else if (!strcmp(arg, "stress-ng"))
		w->metric = LS_METRIC_STRESSNG;
	else if (!strcmp(arg, "ops"))
		w->metric = LS_METRIC_OPS;
	else if (!strncmp(arg, "regex:", 6)) {
		int bad = regcomp(&re, arg + 6, REG_EXTENDED);

		if (!bad) {
			bad = re.re_nsub < 1;
			regfree(&re);
		}
		if (bad) {
			snprintf(why, len,
				 "not an extended regex with a group");
			return -EINVAL;
		}
		w->metric = LS_METRIC_REGEX;
		w->regex = arg + 6;
	} else {
		snprintf(why, len,
			 "not auto, wall, stress-ng, ops or regex:RE");
		return -EINVAL;
	}
	return 0;
}

int ls_wif_parse_opt(struct ls_wif_opts *w, int key, const char *arg, char *why,
		     size_t len)
{
	int err;

	if (key == LS_OPT_DELAYS)
		return ls_wif_parse_delays(arg, w, why, len);
	if (key == LS_OPT_METRIC)
		return ls_wif_parse_metric(arg, w, why, len);
	err = ls_parse_u32(arg, 1, LS_WIF_MAX_ROUNDS, &w->rounds);
	if (err == -ERANGE)
		snprintf(why, len, "must be between 1 and %d",
			 LS_WIF_MAX_ROUNDS);
	else if (err)
		snprintf(why, len, "not a valid value");
	return err;
}

const char *ls_wif_check(const struct ls_wif_opts *w, int has_program)
{
	if (!has_program)
		return "whatif needs a PROGRAM after -- (its throughput is "
		       "what is measured)";
	if (w->nlocks > LS_WIF_MAX_TARGETS)
		return "whatif takes at most 8 locks (-L)";
	if (!w->yes)
		return "whatif slows the machine on purpose: give "
		       "--yes-perturb";
	return NULL;
}

/* The next line of @out from *@pos into @line (cut at @len - 1). */
static int next_line(const char *out, size_t n, size_t *pos, char *line,
		     size_t len)
{
	size_t k = 0;

	if (*pos >= n)
		return 0;
	while (*pos < n && out[*pos] != '\n') {
		if (k + 1 < len)
			line[k++] = out[*pos];
		(*pos)++;
	}
	(*pos)++;
	line[k] = 0;
	return 1;
}

/* stress-ng's metrics line: "stress-ng: metrc: [PID] NAME ops secs usr
 * sys ops/s(real) ..." (info: before 0.16): its fifth number. */
static int stressng_rate(const char *line, double *v)
{
	const char *p = strstr(line, "] ");
	double f[5];
	char *end;

	if (!strstr(line, "stress-ng:") || !p)
		return 0;
	p += 2;
	while (*p == ' ')
		p++;
	if (!*p || (*p >= '0' && *p <= '9') || *p == '(')
		return 0;
	p += strcspn(p, " "); /* the stressor's name */
	for (int i = 0; i < 5; i++) {
		f[i] = strtod(p, &end);
		if (end == p)
			return 0;
		p = end;
	}
	*v = f[4];
	return 1;
}

int ls_wif_metric_value(const struct ls_wif_opts *w, const char *out, size_t n,
			double wall_s, double *tput)
{
	char line[1024];
	size_t pos = 0;
	int found = 0;
	double sum = 0, v;
	regex_t re;
	regmatch_t m[2];

	if (w->metric == LS_METRIC_WALL) {
		*tput = wall_s > 0 ? 1 / wall_s : 0;
		return wall_s > 0 ? 0 : -ENOENT;
	}
	if (w->metric == LS_METRIC_REGEX &&
	    regcomp(&re, w->regex, REG_EXTENDED))
		return -EINVAL;
	while (next_line(out, n, &pos, line, sizeof(line))) {
		switch (w->metric) {
		case LS_METRIC_STRESSNG:
			if (stressng_rate(line, &v)) {
				sum += v;
				found = 1;
			}
			break;
		case LS_METRIC_OPS: {
			const char *p = strstr(line, "ops: ");

			if (p && (p == line || p[-1] == ' ')) {
				char *end;

				v = strtod(p + 5, &end);
				if (end != p + 5) {
					sum = v / wall_s;
					found = 1;
				}
			}
			break;
		}
		case LS_METRIC_REGEX:
			if (!regexec(&re, line, 2, m, 0) && m[1].rm_so >= 0) {
				char *end;

				line[m[1].rm_eo] = 0;
				v = strtod(line + m[1].rm_so, &end);
				if (end != line + m[1].rm_so) {
					sum = v;
					found = 1;
				}
			}
			break;
		default:
			break;
		}
	}
	if (w->metric == LS_METRIC_REGEX)
		regfree(&re);
	if (!found || !(sum > 0))
		return -ENOENT;
	*tput = sum;
	return 0;
}

int ls_wif_auto_metric(struct ls_wif_opts *w, char *const *argv)
{
	const char *base;

	if (w->metric != LS_METRIC_AUTO)
		return 0;
	base = argv && argv[0] ? strrchr(argv[0], '/') : NULL;
	base = base ? base + 1 : argv && argv[0] ? argv[0] : "";
	if (strcmp(base, "stress-ng")) {
		w->metric = LS_METRIC_WALL;
		return 0;
	}
	w->metric = LS_METRIC_STRESSNG;
	for (char *const *a = argv + 1; *a; a++)
		if (!strcmp(*a, "--metrics") ||
		    !strcmp(*a, "--metrics-brief") || !strcmp(*a, "-M"))
			return 0;
	return 1;
}

const char *ls_wif_metric_unit(const struct ls_wif_opts *w)
{
	switch (w->metric) {
	case LS_METRIC_STRESSNG:
		return "bogo ops/s";
	case LS_METRIC_OPS:
		return "ops/s";
	case LS_METRIC_REGEX:
		return "metric";
	default:
		return "runs/s";
	}
}
