// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* top_header.c - the live view's header lines (clock and sources,
 * events, losses, spin share, lockscope's cost) and its status line. */
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "view/top_lines.h"
#include "view/top_text.h"

static void spin_line(char *buf, size_t len, const struct ls_top_frame *fr)
{
	const struct ls_snapshot *d = fr->delta;
	uint64_t all = ls_snap_samples(d), spin = ls_snap_spin_samples(d);
	uint64_t shown = 0;
	int used[LS_MAX_SPIN_RANGES] = {0};

	if (!fr->sampler) {
		snprintf(buf, len, "spin: cpu sampler off");
		return;
	}
	if (!all) {
		snprintf(buf, len, "spin: no cpu samples this interval");
		return;
	}
	snprintf(buf, len, "spin: %.2f%% of CPU (%llu of %llu samples)",
		 100.0 * (double)spin / (double)all, (unsigned long long)spin,
		 (unsigned long long)all);
	/* the spin functions, most sampled first */
	while (shown < spin) {
		int best = -1;

		for (unsigned i = 0; i < d->nfuncs; i++)
			if (!used[i] && d->func_samples[i] &&
			    (best < 0 ||
			     d->func_samples[i] > d->func_samples[best]))
				best = (int)i;
		if (best < 0)
			break;
		used[best] = 1;
		shown += d->func_samples[best];
		ls_line_cat(buf, len, "%s %s %.2f%%",
			    shown == d->func_samples[best] ? ":" : ",",
			    d->func_name[best],
			    100.0 * (double)d->func_samples[best] /
				    (double)all);
	}
}

void ls_top_cost(char *buf, size_t len, const struct ls_top_frame *fr)
{
	const struct ls_snapshot *d = fr->delta;
	uint64_t ns = 0;

	snprintf(buf, len, "cost:");
	if (!fr->cost || !d || !d->nprogs) {
		ls_line_cat(buf, len, " BPF run-time stats unavailable");
	} else {
		for (unsigned p = 0; p < d->nprogs; p++) {
			const struct ls_prog_stat *ps = &d->prog[p];
			char name[32], *sfx;

			/* begin_btf -> begin, cpu_sample -> sample */
			snprintf(name, sizeof(name), "%s",
				 strncmp(ps->name, "cpu_", 4) ? ps->name
							      : ps->name + 4);
			sfx = strrchr(name, '_');
			if (sfx &&
			    (!strcmp(sfx, "_btf") || !strcmp(sfx, "_raw")))
				*sfx = '\0';
			if (ps->run_cnt >= LS_TOP_COST_MIN_RUNS)
				ls_line_cat(buf, len, " %s %lluns", name,
					    (unsigned long long)(ps->run_ns /
								 ps->run_cnt));
			else
				ls_line_cat(buf, len, " %s -", name);
			ns += ps->run_ns;
		}
		ls_line_cat(buf, len, " per run, BPF %.2f%% CPU",
			    fr->secs > 0 ? 100.0 * (double)ns / (fr->secs * 1e9)
					 : 0.0);
	}
	if (fr->agent_cpu >= 0)
		ls_line_cat(buf, len, ", agent %.1f%% CPU", fr->agent_cpu);
}

static void loss_line(char *buf, size_t len, const struct ls_top_frame *fr)
{
	const struct ls_snapshot *c = fr->cur, *d = fr->delta;
	int any = 0;

	snprintf(buf, len, "losses:");
	for (unsigned i = 0; i < LS_LOSS_MAX; i++) {
		if (!c->loss[i])
			continue;
		ls_line_cat(buf, len, "%s %s %llu", any ? "," : "",
			    ls_loss_name(i), (unsigned long long)c->loss[i]);
		if (d && d->loss[i])
			ls_line_cat(buf, len, " (+%llu)",
				    (unsigned long long)d->loss[i]);
		any = 1;
	}
	if (!any)
		ls_line_cat(buf, len, " none");
	else
		ls_line_cat(buf, len, " since start");
	if (ls_loss_hint(c->loss))
		ls_line_cat(buf, len, "; %s", ls_loss_hint(c->loss));
}

unsigned ls_top_header(const struct ls_top *t, const struct ls_top_frame *fr,
		       int width, char lines[][LS_TOP_LINE], unsigned max)
{
	const struct ls_snapshot *d = fr->delta;
	char ts[16], buf[LS_TOP_LINE];
	unsigned n = 0;
	double secs = fr->secs > 0 ? fr->secs : 1;

	strftime(ts, sizeof(ts), "%H:%M:%S", localtime(&fr->when));
	snprintf(buf, sizeof(buf),
		 "lockscope top%s  %s  up %.0fs  every %gs  sources: %s",
		 t->paused ? " [PAUSED]" : "", ts, fr->uptime, t->interval,
		 fr->sources ? fr->sources : "?");
	n = ls_wrap_lines(lines, n, max, buf, width);
	if (d)
		snprintf(buf, sizeof(buf),
			 "events/s: %.0f begins, %.0f ends   locks: %zu of %zu "
			 "  tasks waiting: %zu",
			 (double)d->ctr[LS_CTR_BEGIN] / secs,
			 (double)d->ctr[LS_CTR_END] / secs, t->nview, d->nrows,
			 d->nwaiting);
	else
		snprintf(buf, sizeof(buf),
			 "collecting the first %gs interval ...", t->interval);
	n = ls_wrap_lines(lines, n, max, buf, width);
	if (fr->cur) {
		loss_line(buf, sizeof(buf), fr);
		n = ls_wrap_lines(lines, n, max, buf, width);
	}
	if (d) {
		spin_line(buf, sizeof(buf), fr);
		n = ls_wrap_lines(lines, n, max, buf, width);
		ls_top_cost(buf, sizeof(buf), fr);
		n = ls_wrap_lines(lines, n, max, buf, width);
		strcpy(buf, "steal (hypervisor): ");
		ls_steal_format(buf + strlen(buf), sizeof(buf) - strlen(buf),
				&d->steal, sysconf(_SC_CLK_TCK));
		n = ls_wrap_lines(lines, n, max, buf, width);
	}
	return n;
}

void ls_top_status(char *buf, size_t len, const struct ls_top *t)
{
	if (t->editing) {
		snprintf(buf, len, "filter: %s_   (Enter keep, Esc cancel)",
			 t->filter);
		return;
	}
	switch (t->mode) {
	case LS_TOP_DETAIL:
		snprintf(buf, len,
			 "Esc back  arrows scroll  t: histograms %s  o: owner  "
			 "? help  q quit",
			 t->hist_total ? "of the interval" : "since start");
		break;
	case LS_TOP_HELP:
		snprintf(buf, len,
			 "arrows scroll   any other key: back   q quit");
		break;
	case LS_TOP_SORTMENU:
		snprintf(buf, len,
			 "sort by: arrows pick, Enter sort, Esc cancel");
		break;
	default:
		snprintf(buf, len, "sort: %s%s%s%s  ",
			 ls_top_sort_label(t->sort), t->reverse ? " (rev)" : "",
			 t->filter[0] ? "  filter: " : "", t->filter);
		/* a message replaces the key list until the next frame */
		if (t->msg[0])
			ls_line_cat(buf, len, "%s", t->msg);
		else
			ls_line_cat(buf, len,
				    "? help / filter <> sort Enter open p "
				    "pause +- %gs "
				    "q quit",
				    t->interval);
	}
}
