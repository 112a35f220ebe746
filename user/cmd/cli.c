// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* cli.c - the command line: argp options, checked numbers and which
 * command takes which option, into one struct ls_opts. */
#include <argp.h>
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd/cli.h"
#include "util/log.h"
#include "serve/netaddr.h"
#include "export/prom.h"

const char *argp_program_version = "lockscope 0.1";
const char *argp_program_bug_address = "<lockscope issues>";

static const char doc[] =
	"lockscope -- live kernel lock contention: which lock, who waits, how "
	"long they spin and sleep.\n\n"
	"Commands:\n"
	"  top      live view of the most contended locks (default): full "
	"screen\n"
	"           on a terminal (? lists the keys), plain text frames with "
	"-b\n"
	"           or when stdout is not a terminal\n"
	"  hist     trace for a while, then print wait histograms and the\n"
	"           CPU share spent spinning\n"
	"  doctor   show which data sources work on this kernel, and why\n"
	"  serve    serve /metrics for Prometheus (text format and\n"
	"           OpenMetrics), then run without privileges\n"
	"  record   record per-lock stats of a run (a benchmark) to a file\n"
	"  compare  compare records: BASE runs against NEW runs, robot-style\n"
	"\n"
	"Examples:\n"
	"  lockscope doctor\n"
	"  lockscope hist -d 5\n"
	"  lockscope hist -- stress-ng --netlink-task 2 -t 5s\n"
	"  lockscope hist -n 5 -T mutex -p 1234 -d 10\n"
	"  lockscope hist -L mmap_lock -d 3 --json\n"
	"  lockscope top -i 2 -s spin\n"
	"  lockscope top -b -n 3\n"
	"  lockscope serve --listen 127.0.0.1:9464 --max-series 50\n"
	"  lockscope record -o base1.json -- stress-ng --netlink-task 2 -t 5s\n"
	"  lockscope record -o run.json -d 60 -i 1\n"
	"  lockscope compare base1.json base2.json -- new1.json new2.json\n"
	"\vKinds (-T): spinlock rwlock rwlock:R rwlock:W mutex rwsem rwsem:R "
	"rwsem:W rt_mutex rtlock pcpu-rwsem semaphore.\n"
	"Sort keys (-s): total count spin sleep avg max waiters peak name kind "
	"won "
	"caller.";

static const char args_doc[] = "[COMMAND] [-- PROGRAM [ARGS...]]\n"
			       "compare BASE.json... -- NEW.json...";

enum {
	OPT_ADDR = 1000,
	OPT_JSON,
	OPT_STACK_EVERY,
	OPT_MAX_LOCKS,
	OPT_MAX_TASKS,
	OPT_MAX_CALLERS,
	OPT_MAX_STACKS,
	OPT_KALLSYMS,
	OPT_NO_TP,
	OPT_COST,
	OPT_SOURCE,
	OPT_LISTEN,
	OPT_USER,
	OPT_ALLOW_ROOT,
	OPT_MAX_SERIES,
	OPT_NO_COST,
	OPT_FORMAT,
	OPT_THRESHOLD,
	OPT_MIN_SHARE,
	OPT_FORGET,
};

static const struct argp_option options[] = {
	{NULL, 0, NULL, 0, "What and how long:", 1},
	{"duration", 'd', "SECONDS", 0,
	 "Trace this long (hist; default: until Ctrl-C or PROGRAM exits)", 1},
	{"interval", 'i', "SECONDS", 0,
	 "Refresh interval (top), collection interval (serve); default 1", 1},
	{"count", 'n', "N", 0,
	 "hist: show the N most contended locks (default 10); top: stop after "
	 "N frames",
	 1},
	{"pid", 'p', "PID", 0, "Only waits of this process", 1},
	{"lock", 'L', "NAME|ADDR", 0,
	 "Only locks whose name contains NAME, or at hex ADDR", 1},
	{"kind", 'T', "KIND", 0, "Only locks of this kind (repeatable)", 1},
	{"sort", 's', "KEY", 0, "Sort by KEY (default total)", 1},
	{NULL, 0, NULL, 0, "Output:", 2},
	{"json", OPT_JSON, NULL, 0, "hist: print JSON", 2},
	{"batch", 'b', NULL, 0,
	 "top: plain text frames (implied when stdout is not a terminal)", 2},
	{"addr", OPT_ADDR, NULL, 0,
	 "Show raw kernel addresses (they defeat KASLR)", 2},
	{"cost", OPT_COST, NULL, 0,
	 "Measure lockscope's own cost (BPF run-time stats)", 2},
	{"verbose", 'v', NULL, 0, "libbpf debug messages", 2},
	{NULL, 0, NULL, 0, "serve:", 4},
	{"listen", OPT_LISTEN, "ADDR:PORT", 0,
	 "Listen here (default 127.0.0.1:9464; [ADDR6]:PORT, :PORT for every "
	 "address)",
	 4},
	{"user", OPT_USER, "NAME|UID", 0,
	 "When started as root, run as this user once the BPF programs are "
	 "attached (default nobody)",
	 4},
	{"allow-root", OPT_ALLOW_ROOT, NULL, 0,
	 "Let --user be root (uid 0), refused otherwise", 4},
	{"max-series", OPT_MAX_SERIES, "N", 0,
	 "Export at most N locks as their own series; the rest are summed into "
	 "lock=\"other\" (default 50)",
	 4},
	{"no-cost", OPT_NO_COST, NULL, 0,
	 "Leave BPF run-time stats off (no lockscope_bpf_program_* metrics)",
	 4},
	{"output", 'o', "FILE", 0,
	 "record: write the record to FILE (atomically; - for standard output)",
	 2},
	{"format", OPT_FORMAT, "FMT", 0,
	 "record: json (default), csv or lkp; compare: text (default), json or "
	 "csv",
	 2},
	{"threshold", OPT_THRESHOLD, "PCT", 0,
	 "compare: hide changes within PCT percent (and within the stddevs); "
	 "exit 1 if a metric grows beyond it",
	 2},
	{"min-share", OPT_MIN_SHARE, "PCT", 0,
	 "compare: leave out locks below PCT percent of all contentions and of "
	 "all wait time on both sides (default 1)",
	 2},
	{NULL, 0, NULL, 0, "Collection:", 3},
	{"freq", 'F', "HZ", 0,
	 "CPU sampler frequency per CPU (default 99, 0: off)", 3},
	{"no-tracepoints", OPT_NO_TP, NULL, 0, "Leave the lock tracepoints off",
	 3},
	{"source", OPT_SOURCE, "MECH", 0,
	 "Function probes: auto (fentry, else kprobe; default), fentry, kprobe "
	 "or none",
	 3},
	{"stack-every", OPT_STACK_EVERY, "N", 0,
	 "Sample a caller stack every Nth contention of a lock, the first "
	 "included (default 256, 0: never)",
	 3},
	{"forget", OPT_FORGET, "N", 0,
	 "top: drop locks idle for N refreshes from the tables (default 60, 0: "
	 "keep all)",
	 3},
	{"max-locks", OPT_MAX_LOCKS, "N", 0, "Lock table size (default 16384)",
	 3},
	{"max-tasks", OPT_MAX_TASKS, "N", 0,
	 "Tasks waiting at once (default 8192)", 3},
	{"max-callers", OPT_MAX_CALLERS, "N", 0,
	 "Caller table size (default 16384)", 3},
	{"max-stacks", OPT_MAX_STACKS, "N", 0,
	 "Stack table size (default 8192)", 3},
	{"kallsyms", OPT_KALLSYMS, "FILE", 0,
	 "Read symbols from FILE (default /proc/kallsyms)", 3},
	{0},
};

static const char *const cmd_names[LS_CMD_NR] = {
	[LS_CMD_TOP] = "top",	    [LS_CMD_HIST] = "hist",
	[LS_CMD_DOCTOR] = "doctor", [LS_CMD_SERVE] = "serve",
	[LS_CMD_RECORD] = "record", [LS_CMD_COMPARE] = "compare",
};

static const char *const format_names[] = {
	[LS_FMT_TEXT] = "text",
	[LS_FMT_JSON] = "json",
	[LS_FMT_CSV] = "csv",
	[LS_FMT_LKP] = "lkp",
};

const char *ls_cmd_name(enum ls_cmd c)
{
	return (unsigned)c < LS_CMD_NR ? cmd_names[c] : "?";
}

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

static int bad(const char *opt, const char *arg, int err, const char *want)
{
	char obj[128];

	snprintf(obj, sizeof(obj), "%s '%.64s'", opt, arg ? arg : "");
	ls_fail("parse", obj, err == -ERANGE ? want : "not a valid value");
	return EINVAL;
}

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct ls_opts *o = state->input;
	uint32_t v;
	int err;

	switch (key) {
	case 'd':
		err = ls_parse_seconds(arg, 0.001, 1e7, &o->duration);
		return err ? bad("--duration", arg, err,
				 "must be between 0.001 and 10000000 seconds")
			   : 0;
	case 'i':
		o->interval_set = 1;
		err = ls_parse_seconds(arg, 0.05, 86400, &o->interval);
		return err ? bad("--interval", arg, err,
				 "must be between 0.05 and 86400 seconds")
			   : 0;
	case 'n':
		err = ls_parse_u32(arg, 1, 1000000, &o->count);
		o->count_set = 1;
		return err ? bad("--count", arg, err,
				 "must be between 1 and 1000000")
			   : 0;
	case 'p':
		err = ls_parse_u32(arg, 1, 4194304, &o->col.tgid);
		return err ? bad("--pid", arg, err,
				 "must be between 1 and 4194304")
			   : 0;
	case 'L':
		o->lock_arg = arg;
		if (ls_parse_addr(arg, &o->filter.addr))
			o->filter.name = arg;
		return 0;
	case 'T':
		if (ls_kind_parse(arg, &o->filter.kind_mask))
			return bad("--kind", arg, -EINVAL, "");
		return 0;
	case 's':
		if (ls_sort_parse(arg, &o->sort))
			return bad("--sort", arg, -EINVAL, "");
		return 0;
	case 'b':
		o->batch = 1;
		return 0;
	case 'v':
		o->col.verbose = 1;
		return 0;
	case 'F':
		err = ls_parse_u32(arg, 0, 10000, &o->col.sample_hz);
		return err ? bad("--freq", arg, err,
				 "must be between 0 and 10000 Hz")
			   : 0;
	case OPT_JSON:
		o->json = 1;
		return 0;
	case OPT_ADDR:
		o->col.with_addr = 1;
		return 0;
	case OPT_COST:
		o->col.run_stats = 1;
		return 0;
	case OPT_FORGET:
		o->forget_set = 1;
		err = ls_parse_u32(arg, 0, 1000000, &o->col.forget);
		return err ? bad("--forget", arg, err,
				 "must be between 0 and 1000000")
			   : 0;
	case OPT_SOURCE: {
		static const char *const modes[] = {"auto", "fentry", "kprobe",
						    "none"};

		for (unsigned m = 0; m < 4; m++)
			if (!strcmp(arg, modes[m])) {
				o->col.probe_mode = (enum ls_probe_mode)m;
				return 0;
			}
		return bad("--source", arg, -EINVAL, "");
	}
	case OPT_NO_TP:
		o->col.no_tracepoints = 1;
		return 0;
	case OPT_STACK_EVERY:
		err = ls_parse_u32(arg, 0, 1U << 30, &o->col.stack_every);
		return err ? bad("--stack-every", arg, err,
				 "must be between 0 and 1073741824")
			   : 0;
	case OPT_MAX_LOCKS:
	case OPT_MAX_TASKS:
	case OPT_MAX_CALLERS:
	case OPT_MAX_STACKS:
		err = ls_parse_u32(arg, 1, 1U << 24, &v);
		if (err)
			return bad(key == OPT_MAX_LOCKS	    ? "--max-locks"
				   : key == OPT_MAX_TASKS   ? "--max-tasks"
				   : key == OPT_MAX_CALLERS ? "--max-callers"
							    : "--max-stacks",
				   arg, err, "must be between 1 and 16777216");
		if (key == OPT_MAX_LOCKS)
			o->col.max_locks = v;
		else if (key == OPT_MAX_TASKS)
			o->col.max_tasks = v;
		else if (key == OPT_MAX_CALLERS)
			o->col.max_callers = v;
		else
			o->col.max_stacks = v;
		return 0;
	case OPT_KALLSYMS:
		o->col.kallsyms = arg;
		return 0;
	case OPT_LISTEN: {
		struct sockaddr_storage ss;
		const char *why;
		socklen_t len;

		if (ls_parse_listen(arg, &ss, &len, &why))
			return bad("--listen", arg, -ERANGE, why);
		o->listen = arg;
		return 0;
	}
	case OPT_USER:
		if (!*arg)
			return bad("--user", arg, -EINVAL, "");
		o->user = arg;
		return 0;
	case OPT_ALLOW_ROOT:
		o->allow_root = 1;
		return 0;
	case OPT_MAX_SERIES:
		err = ls_parse_u32(arg, 0, 10000, &o->max_series);
		return err ? bad("--max-series", arg, err,
				 "must be between 0 and 10000")
			   : 0;
	case OPT_NO_COST:
		o->no_cost = 1;
		return 0;
	case 'o':
		o->output = arg;
		return 0;
	case OPT_FORMAT:
		for (int f = LS_FMT_TEXT; f <= LS_FMT_LKP; f++)
			if (!strcmp(arg, format_names[f])) {
				o->format = f;
				return 0;
			}
		return bad("--format", arg, -EINVAL, "");
	case OPT_THRESHOLD:
	case OPT_MIN_SHARE: {
		char pct[32];
		size_t n = strlen(arg);

		/* "5" or "5%" */
		snprintf(pct, sizeof(pct), "%.*s",
			 (int)(n && arg[n - 1] == '%' ? n - 1 : n), arg);
		if (key == OPT_MIN_SHARE) {
			o->min_share_set = 1;
			err = n >= sizeof(pct) || strchr(pct, 's')
				      ? -EINVAL
				      : ls_parse_seconds(pct, 0, 100,
							 &o->min_share);
			return err ? bad("--min-share", arg, err,
					 "must be between 0 and 100 percent")
				   : 0;
		}
		err = n >= sizeof(pct) || strchr(pct, 's')
			      ? -EINVAL
			      : ls_parse_seconds(pct, 0, 1e6, &o->threshold);
		return err ? bad("--threshold", arg, err,
				 "must be between 0 and 1000000 percent")
			   : 0;
	}
	case ARGP_KEY_ARG:
		if (state->arg_num > 0 && o->cmd == LS_CMD_COMPARE) {
			if (!o->files)
				o->files = calloc((size_t)state->argc,
						  sizeof(*o->files));
			if (!o->files)
				return ENOMEM;
			o->files[o->nfiles++] = arg;
			return 0;
		}
		if (state->arg_num > 0) {
			ls_fail("parse", "arguments",
				"unexpected argument (put the program to run "
				"after --)");
			return EINVAL;
		}
		for (int c = 0; c < LS_CMD_NR; c++)
			if (!strcmp(arg, cmd_names[c])) {
				o->cmd = (enum ls_cmd)c;
				return 0;
			}
		{
			char obj[96];

			snprintf(obj, sizeof(obj), "command '%.64s'", arg);
			ls_fail("run", obj,
				"unknown command (top, hist, doctor, serve, "
				"record, compare)");
		}
		return EINVAL;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

static const struct argp argp = {options, parse_opt, args_doc, doc,
				 NULL,	  NULL,	     NULL};

/* What record and compare need, and options that make no sense there. */
static int check_record_compare(const struct ls_opts *o)
{
	if (o->format && o->cmd != LS_CMD_RECORD && o->cmd != LS_CMD_COMPARE) {
		ls_fail("parse", "--format", "only record and compare take it");
		return -EINVAL;
	}
	if (o->output && o->cmd != LS_CMD_RECORD) {
		ls_fail("parse", "--output", "only record takes it");
		return -EINVAL;
	}
	if ((o->threshold > 0 || o->min_share_set) &&
	    o->cmd != LS_CMD_COMPARE) {
		ls_fail("parse",
			o->min_share_set ? "--min-share" : "--threshold",
			"only compare takes it");
		return -EINVAL;
	}
	if (o->cmd == LS_CMD_RECORD) {
		if (!o->output) {
			ls_fail("parse", "arguments", "record needs -o FILE");
			return -EINVAL;
		}
		if (o->format == LS_FMT_TEXT) {
			ls_fail("parse", "--format 'text'",
				"record writes json, csv or lkp");
			return -EINVAL;
		}
	}
	if (o->cmd == LS_CMD_COMPARE) {
		if (o->format == LS_FMT_LKP) {
			ls_fail("parse", "--format 'lkp'",
				"compare prints text, json or csv");
			return -EINVAL;
		}
		if (!o->nfiles) {
			ls_fail("parse", "arguments",
				"compare needs BASE files before -- (compare "
				"BASE.json... -- NEW.json...)");
			return -EINVAL;
		}
		if (!o->argv) {
			ls_fail("parse", "arguments",
				"compare needs -- and NEW files after it "
				"(compare BASE.json... -- NEW.json...)");
			return -EINVAL;
		}
	}
	return 0;
}

int ls_cli_parse(int argc, char **argv, struct ls_opts *o)
{
	int split = argc, err, help = 0;

	memset(o, 0, sizeof(*o));
	ls_collector_opts_default(&o->col);
	o->interval = 1.0;
	o->nlocks = 10;
	o->cmd = LS_CMD_TOP;
	o->listen = LS_DEF_LISTEN;
	o->user = "nobody";
	o->max_series = LS_PROM_DEF_MAX_SERIES;
	/* as typed: argp reorders argv */
	o->all_argv = calloc((size_t)argc + 1, sizeof(*argv));
	if (o->all_argv) {
		memcpy(o->all_argv, argv, (size_t)argc * sizeof(*argv));
		o->all_argc = argc;
	}
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--")) {
			split = i;
			break;
		}
		if (!strncmp(argv[i], "--H", 3)) {
			/* argp's hidden --HANG[=SECS] sleeps for an hour (found
			 * by fuzzing): no option of ours starts with --H */
			char obj[96];

			snprintf(obj, sizeof(obj), "option '%.64s'", argv[i]);
			ls_fail("parse", obj, "unknown option");
			return -EINVAL;
		}
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-?") ||
		    !strcmp(argv[i], "--usage") ||
		    !strcmp(argv[i], "--version") || !strcmp(argv[i], "-V"))
			help = 1;
	}
	argp_err_exit_status = 2;
	err = argp_parse(&argp, split, argv, ARGP_NO_EXIT, NULL, o);
	if (err)
		return -EINVAL;
	if (help)
		return 1;
	if (split < argc) {
		o->argv = &argv[split + 1];
		o->argc = argc - split - 1;
		if (!o->argc) {
			ls_fail("parse", "arguments",
				o->cmd == LS_CMD_COMPARE
					? "no NEW files after --"
					: "no program after --");
			return -EINVAL;
		}
		if (o->cmd == LS_CMD_DOCTOR || o->cmd == LS_CMD_SERVE) {
			ls_fail("parse", "arguments",
				o->cmd == LS_CMD_DOCTOR
					? "doctor runs no program"
					: "serve runs no program");
			return -EINVAL;
		}
	}
	if (o->cmd == LS_CMD_HIST && o->count_set)
		o->nlocks = o->count;
	if (o->cmd == LS_CMD_TOP && !o->forget_set)
		o->col.forget = LS_DEF_FORGET;
	return check_record_compare(o);
}
