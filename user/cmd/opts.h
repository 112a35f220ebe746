/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* opts.h - the one struct of options a command line parses into (cli.c),
 * which every command reads. */
#ifndef LS_CMD_OPTS_H
#define LS_CMD_OPTS_H

#include <stdint.h>
#include "collect/collector.h"
#include "model/model.h"
#include "cmd/options.h"
#include "cmd/whatif_opts.h"

struct ls_opts {
	enum ls_cmd cmd;
	struct ls_collector_opts col;
	double duration; /* seconds; 0: until Ctrl-C or COMMAND ends */
	double interval; /* seconds between frames */
	uint32_t nlocks; /* hist: locks shown (-n); top -b: rows per frame */
	uint32_t count;	 /* top: frames before exit (-n) */
	int count_set;
	int forget_set;	   /* --forget given */
	int max_locks_set; /* --max-locks given (else sized from memory) */
	int budget_set;	   /* --budget given (else the command's default) */
	enum ls_sort sort;
	struct ls_filter filter;
	char *lock_arg; /* -L as given */
	int json;	/* hist: JSON instead of text */
	int batch;	/* top: plain text frames */
	/* serve */
	const char *listen;   /* ADDR:PORT (checked) */
	const char *user;     /* run as this user after start when root */
	int allow_root;	      /* --user may be uid 0 */
	uint32_t max_series;  /* locks exported as their own series */
	uint32_t max_cgroups; /* --by cgroup: cgroups as their own series */
	int no_cost;	      /* leave BPF run-time stats off */
	char **argv; /* COMMAND ARGS after "--", NULL-terminated; NULL if none
		      */
	int argc;
	/* record and compare */
	const char *output; /* record, report -o FILE */
	const char *folded; /* hist, record --folded FILE: waiter stacks */
	int format;	    /* enum ls_format */
	int interval_set;   /* -i given */
	double threshold;   /* compare --threshold, percent */
	double min_share;   /* compare --min-share, percent */
	int min_share_set;
	char **files; /* compare, report: (BASE) files (NEW files are argv) */
	int nfiles;
	struct ls_wif_opts wif; /* whatif */
	char **all_argv;	/* lockscope's own command line */
	int all_argc;
};

enum ls_format {
	LS_FMT_DEFAULT = 0,
	LS_FMT_TEXT,
	LS_FMT_JSON,
	LS_FMT_CSV,
	LS_FMT_LKP,
};

#endif
