// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* cli.c - the command line: argp parses the options of options.c into one
 * struct ls_opts; an option the command does not take, a bad or empty
 * value: one line "lockscope: failed to parse ..."; --help, per command. */
#include <argp.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cmd/cli.h"
#include "cmd/help.h"
#include "cmd/budget_opts.h"
#include "model/mapmem.h"
#include "cmd/numbers.h"
#include "cmd/options.h"
#include "cmd/paths.h"
#include "util/log.h"
#include "util/untrusted_text.h"
#include "serve/netaddr.h"
#include "export/prom_cgroup.h"

const char *argp_program_version = "lockscope 0.1";
const char *argp_program_bug_address = "<lockscope issues>";

static const char *const format_names[] = {
	[LS_FMT_TEXT] = "text",
	[LS_FMT_JSON] = "json",
	[LS_FMT_CSV] = "csv",
	[LS_FMT_LKP] = "lkp",
};

enum help { HELP_NONE, HELP_FULL, HELP_USAGE, HELP_VERSION };

/* Parser state beside the options. */
struct parse {
	struct ls_opts *o;
	uint64_t given; /* bit i: ls_opt_defs[i] was on the command line */
	int cmd_named;	/* a command word was given */
	int printed;	/* an error line is out already */
	enum help help;
	char **argv; /* as argp permutes it */
};

static error_t bad(struct parse *p, const char *opt, const char *arg,
		   const char *why)
{
	char obj[128], a[65];

	if (arg)
		snprintf(obj, sizeof(obj), "--%s '%s'", opt,
			 ls_text_safe(a, sizeof(a), arg));
	else
		snprintf(obj, sizeof(obj), "--%s", opt);
	ls_fail("parse", obj, why);
	p->printed = 1;
	return EINVAL;
}

/* A number's message: its range, or that it is not a number at all. */
static error_t bad_num(struct parse *p, const char *opt, const char *arg,
		       int err, const char *range)
{
	return bad(p, opt, arg, err == -ERANGE ? range : "not a valid value");
}

static error_t parse_u32(struct parse *p, const char *opt, const char *arg,
			 uint32_t min, uint32_t max, uint32_t *out)
{
	char range[64];
	int err = ls_parse_u32(arg, min, max, out);

	snprintf(range, sizeof(range), "must be between %u and %u", min, max);
	return err ? bad_num(p, opt, arg, err, range) : 0;
}

static error_t parse_cmd_word(struct parse *p, struct argp_state *state,
			      char *arg)
{
	struct ls_opts *o = p->o;
	char obj[96], a[65];

	if (state->arg_num > 0 &&
	    (o->cmd == LS_CMD_COMPARE || o->cmd == LS_CMD_REPORT)) {
		if (!o->files)
			o->files =
				calloc((size_t)state->argc, sizeof(*o->files));
		if (!o->files)
			return ENOMEM;
		o->files[o->nfiles++] = arg;
		return 0;
	}
	if (state->arg_num > 0) {
		ls_fail("parse", "arguments",
			"unexpected argument (put the program to run after "
			"--)");
		p->printed = 1;
		return EINVAL;
	}
	for (int c = 0; c < LS_CMD_NR; c++)
		if (!strcmp(arg, ls_cmd_names[c])) {
			o->cmd = (enum ls_cmd)c;
			p->cmd_named = 1;
			return 0;
		}
	snprintf(obj, sizeof(obj), "command '%s'",
		 ls_text_safe(a, sizeof(a), arg));
	ls_fail("run", obj,
		"unknown command (top, hist, doctor, serve, record, compare, "
		"report, whatif)");
	p->printed = 1;
	return EINVAL;
}

static error_t parse_value(struct parse *p, int key, char *arg)
{
	struct ls_opts *o = p->o;
	const char *name = ls_opt_defs[ls_opt_def_of(key)].a.name;
	int err;

	switch (key) {
	case 'd':
		err = ls_parse_seconds(arg, 0.001, 1e7, &o->duration);
		return err ? bad_num(p, name, arg, err,
				     "must be between 0.001 and 10000000 "
				     "seconds")
			   : 0;
	case 'i':
		o->interval_set = 1;
		err = ls_parse_seconds(arg, 0.05, 86400, &o->interval);
		return err ? bad_num(p, name, arg, err,
				     "must be between 0.05 and 86400 seconds")
			   : 0;
	case 'n':
		o->count_set = 1;
		return parse_u32(p, name, arg, 1, 1000000, &o->count);
	case 'p':
		return parse_u32(p, name, arg, 1, 4194304, &o->col.tgid);
	case 'L': /* whatif keeps a list: its command word may follow */
		if (o->wif.nlocks < LS_WIF_MAX_TARGETS)
			o->wif.locks[o->wif.nlocks] = arg;
		o->wif.nlocks++;
		o->lock_arg = arg;
		if (ls_parse_addr(arg, &o->filter.addr))
			o->filter.name = arg;
		return 0;
	case 'T':
		return ls_kind_parse(arg, &o->filter.kind_mask)
			       ? bad(p, name, arg, "not a valid value")
			       : 0;
	case 's':
		return ls_sort_parse(arg, &o->sort)
			       ? bad(p, name, arg, "not a valid value")
			       : 0;
	case 'F':
		return parse_u32(p, name, arg, 0, 10000, &o->col.sample_hz);
	case LS_OPT_BY:
		/* serve may export both: rows by class, cgroup series */
		if (!strcmp(arg, "class,cgroup") ||
		    !strcmp(arg, "cgroup,class")) {
			o->col.by_class = o->col.by_cgroup = 1;
			o->col.fold_filter = &o->filter;
			return 0;
		}
		if (strcmp(arg, "lock") && strcmp(arg, "class") &&
		    strcmp(arg, "cgroup"))
			return bad(p, name, arg, "not a valid value");
		o->col.by_class = !strcmp(arg, "class");
		o->col.by_cgroup = !strcmp(arg, "cgroup");
		o->col.fold_filter = &o->filter;
		return 0;
	case LS_OPT_CGROUP:
		o->col.cgroup = arg;
		return 0;
	case LS_OPT_FORGET:
		o->forget_set = 1;
		return parse_u32(p, name, arg, 0, 1000000, &o->col.forget);
	case LS_OPT_SOURCE: {
		static const char *const modes[] = {"auto", "fentry", "kprobe",
						    "none"};

		for (unsigned m = 0; m < 4; m++)
			if (!strcmp(arg, modes[m])) {
				o->col.probe_mode = (enum ls_probe_mode)m;
				return 0;
			}
		return bad(p, name, arg, "not a valid value");
	}
	case LS_OPT_STACK_EVERY:
		return parse_u32(p, name, arg, 0, 1U << 30,
				 &o->col.stack_every);
	case LS_OPT_MAX_LOCKS:
		o->max_locks_set = 1;
		return parse_u32(p, name, arg, 1, 1U << 24, &o->col.max_locks);
	case LS_OPT_MAX_TASKS:
		return parse_u32(p, name, arg, 1, 1U << 24, &o->col.max_tasks);
	case LS_OPT_MAX_CALLERS:
		return parse_u32(p, name, arg, 1, 1U << 24,
				 &o->col.max_callers);
	case LS_OPT_MAX_STACKS:
		return parse_u32(p, name, arg, 1, 1U << 24, &o->col.max_stacks);
	case LS_OPT_KALLSYMS:
		/* An explicit symbol file that cannot be read is bad input,
		 * not a run without symbols. */
		if (access(arg, R_OK)) {
			ls_fail("read", arg, strerror(errno));
			p->printed = 1;
			return EINVAL;
		}
		o->col.kallsyms = arg;
		return 0;
	case LS_OPT_LISTEN: {
		struct sockaddr_storage ss;
		const char *why;
		socklen_t len;

		if (ls_parse_listen(arg, &ss, &len, &why))
			return bad(p, name, arg, why);
		o->listen = arg;
		return 0;
	}
	case LS_OPT_USER:
		o->user = arg;
		return 0;
	case LS_OPT_MAX_SERIES:
		return parse_u32(p, name, arg, 0, 10000, &o->max_series);
	case LS_OPT_MAX_CGROUPS:
		return parse_u32(p, name, arg, 0, 10000, &o->max_cgroups);
	case 'o':
		o->output = arg;
		return 0;
	case LS_OPT_FOLDED:
		o->folded = arg;
		return 0;
	case LS_OPT_FORMAT:
		for (int f = LS_FMT_TEXT; f <= LS_FMT_LKP; f++)
			if (!strcmp(arg, format_names[f])) {
				o->format = f;
				return 0;
			}
		return bad(p, name, arg, "not a valid value");
	case LS_OPT_THRESHOLD:
		err = ls_parse_percent(arg, 0, 1e6, &o->threshold);
		return err ? bad_num(p, name, arg, err,
				     "must be between 0 and 1000000 percent")
			   : 0;
	case LS_OPT_DELAYS:
	case LS_OPT_METRIC:
	case LS_OPT_ROUNDS: {
		char why[160];

		err = ls_wif_parse_opt(&o->wif, key, arg, why, sizeof(why));
		return err ? bad(p, name, arg, why) : 0;
	}
	case LS_OPT_BUDGET: {
		double pct;

		o->budget_set = 1;
		err = ls_parse_percent(arg, 0, 100, &pct);
		if (!err)
			o->col.budget_ppm = ls_budget_ppm(pct);
		return err ? bad_num(p, name, arg, err,
				     "must be between 0 and 100 percent")
			   : 0;
	}
	case LS_OPT_MIN_SHARE:
		o->min_share_set = 1;
		err = ls_parse_percent(arg, 0, 100, &o->min_share);
		return err ? bad_num(p, name, arg, err,
				     "must be between 0 and 100 percent")
			   : 0;
	}
	return ARGP_ERR_UNKNOWN;
}

/* The word argp stopped at, and what is wrong with it (it printed
 * nothing: ARGP_NO_ERRS). */
static void explain_error(struct parse *p, const struct argp_state *state)
{
	const char *w = NULL, *why = "unknown option";
	char obj[96];

	if (state->next > 1 && state->next <= state->argc)
		w = p->argv[state->next - 1];
	if ((!w || w[0] != '-') && state->next < state->argc)
		w = p->argv[state->next]; /* inside a cluster of short options
					   */
	if (!w || w[0] != '-' || !w[1]) {
		ls_fail("parse", "arguments",
			"unknown option or missing value");
		return;
	}
	if (w[1] == '-') {
		size_t n = strcspn(w + 2, "=");
		int hits = 0, exact = -1, hit = -1;

		for (unsigned i = 0; i < ls_opt_ndefs; i++) {
			const char *name = ls_opt_defs[i].a.name;

			if (!name || strncmp(name, w + 2, n))
				continue;
			hits++;
			hit = (int)i;
			if (!name[n])
				exact = (int)i;
		}
		hit = exact >= 0 ? exact : hits == 1 ? hit : -1;
		if (hits > 1 && hit < 0)
			why = "ambiguous option";
		else if (hit >= 0)
			why = w[2 + n] ? "takes no value" : "needs a value";
		snprintf(obj, sizeof(obj), "option '%.*s'", (int)(n + 2), w);
	} else {
		/* -abc: the first unknown letter, or the last needing a value
		 */
		const char *c = w + 1;
		int i;

		for (; *c; c++) {
			i = ls_opt_def_of(*c);
			if (i < 0 || ls_opt_defs[i].a.arg)
				break;
		}
		if (!*c)
			c--;
		i = ls_opt_def_of(*c);
		if (i >= 0)
			why = "needs a value";
		snprintf(obj, sizeof(obj), "option '-%c'", *c);
	}
	ls_fail("parse", obj, why);
}

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct parse *p = state->input;
	int i;

	switch (key) {
	case ARGP_KEY_ARG:
		return parse_cmd_word(p, state, arg);
	case ARGP_KEY_ERROR:
		if (!p->printed)
			explain_error(p, state);
		p->printed = 1;
		return 0;
	case '?':
		p->help = HELP_FULL;
		return 0;
	case LS_OPT_USAGE:
		p->help = HELP_USAGE;
		return 0;
	case 'V':
		p->help = HELP_VERSION;
		return 0;
	}
	i = ls_opt_def_of(key);
	if (i < 0)
		return ARGP_ERR_UNKNOWN;
	p->given |= 1ULL << i;
	if (arg && !*arg)
		return bad(p, ls_opt_defs[i].a.name, arg, "must not be empty");
	switch (key) {
	case 'b':
		p->o->batch = 1;
		return 0;
	case 'v':
		p->o->col.verbose = 1;
		return 0;
	case LS_OPT_JSON:
		p->o->json = 1;
		return 0;
	case LS_OPT_ADDR:
		p->o->col.with_addr = 1;
		return 0;
	case LS_OPT_COST:
		p->o->col.run_stats = 1;
		return 0;
	case LS_OPT_NO_TP:
		p->o->col.no_tracepoints = 1;
		return 0;
	case LS_OPT_HOLD:
		p->o->col.hold = 1;
		return 0;
	case LS_OPT_NO_CHAINS:
		p->o->col.no_chains = 1;
		return 0;
	case LS_OPT_NO_COST:
		p->o->no_cost = 1;
		return 0;
	case LS_OPT_ALLOW_ROOT:
		p->o->allow_root = 1;
		return 0;
	case LS_OPT_YES_PERTURB:
	case LS_OPT_PLACEBO:
		*(key == LS_OPT_PLACEBO ? &p->o->wif.placebo : &p->o->wif.yes) =
			1;
		return 0;
	}
	return parse_value(p, key, arg);
}

static void print_help(const struct parse *p)
{
	struct argp_option opts[LS_OPT_MAX + 1];
	struct argp a = {opts, parse_opt, NULL, NULL, NULL, NULL, NULL};
	enum ls_cmd c = p->o->cmd;
	char text[4096];

	if (p->help == HELP_VERSION) {
		printf("%s\n", argp_program_version);
		return;
	}
	ls_help_options(p->cmd_named ? 1U << c : LS_CMDS_ALL, opts);
	ls_help_doc(text, sizeof(text), p->cmd_named ? (int)c : -1);
	a.doc = text;
	if (p->cmd_named)
		a.args_doc = ls_cmd_args[c];
	else
		a.args_doc = "[COMMAND] [-- PROGRAM [ARGS...]]\n"
			     "compare BASE.json... -- NEW.json...";
	argp_help(&a, stdout,
		  p->help == HELP_USAGE ? ARGP_HELP_USAGE : ARGP_HELP_STD_HELP,
		  (char *)"lockscope");
}

/* Every option given must be one the command takes. */
static int check_taken(const struct parse *p)
{
	enum ls_cmd c = p->o->cmd;

	for (unsigned i = 0; i < ls_opt_ndefs; i++) {
		char obj[64], why[64];

		if (!(p->given >> i & 1) || ls_opt_defs[i].cmds & (1U << c))
			continue;
		snprintf(obj, sizeof(obj), "--%s", ls_opt_defs[i].a.name);
		snprintf(why, sizeof(why), "%s does not take this option",
			 ls_cmd_names[c]);
		ls_fail("parse", obj, why);
		return -EINVAL;
	}
	return 0;
}

/* What a command needs besides its options. */
static int check_command(const struct ls_opts *o)
{
	const char *why = NULL;

	if (o->argv && (o->cmd == LS_CMD_DOCTOR || o->cmd == LS_CMD_SERVE))
		why = o->cmd == LS_CMD_DOCTOR ? "doctor runs no program"
					      : "serve runs no program";
	else if (o->cmd == LS_CMD_RECORD && !o->output)
		why = "record needs -o FILE";
	else if (o->cmd == LS_CMD_REPORT && !o->nfiles)
		why = "report needs record files (report -o FILE.html "
		      "RECORD.json...)";
	else if (o->cmd == LS_CMD_REPORT && !o->output)
		why = "report needs -o FILE.html";
	else if (o->cmd == LS_CMD_COMPARE && !o->nfiles)
		why = "compare needs BASE files before -- (compare "
		      "BASE.json... -- NEW.json...)";
	else if (o->cmd == LS_CMD_WHATIF)
		why = ls_wif_check(&o->wif, o->argv != NULL);
	else if (o->cmd == LS_CMD_COMPARE && !o->argv)
		why = "compare needs -- and NEW files after it (compare "
		      "BASE.json... -- NEW.json...)";
	if (why) {
		ls_fail("parse", "arguments", why);
		for (int i = 0; o->argv && i < o->argc; i++)
			if (o->argv[i][0] == '-') {
				ls_hint("options go before --: everything "
					"after it is a NEW file");
				break;
			}
		return -EINVAL;
	}
	if (o->folded && !strcmp(o->folded, "-") &&
	    ((o->output && !strcmp(o->output, "-")) || o->json)) {
		ls_fail("parse", "--folded '-'",
			o->json ? "--json writes to standard output already"
				: "-o writes to standard output already");
		return -EINVAL;
	}
	if (o->cmd == LS_CMD_COMPARE && o->col.fold_filter &&
	    !o->col.by_cgroup) {
		ls_fail("parse", "--by",
			"compare matches locks by class already; it takes "
			"only --by cgroup");
		return -EINVAL;
	}
	if (o->col.by_cgroup && o->col.by_class && o->cmd != LS_CMD_SERVE) {
		ls_fail("parse", "--by 'class,cgroup'",
			"only serve takes both (its cgroup series do not "
			"split locks)");
		return -EINVAL;
	}
	if (o->cmd == LS_CMD_RECORD && o->format == LS_FMT_TEXT) {
		ls_fail("parse", "--format 'text'",
			"record writes json, csv or lkp");
		return -EINVAL;
	}
	if (o->cmd == LS_CMD_COMPARE && o->format == LS_FMT_LKP) {
		ls_fail("parse", "--format 'lkp'",
			"compare prints text, json or csv");
		return -EINVAL;
	}
	return ls_check_paths(o);
}

/* Without --max-locks: as many locks as LS_MAPMEM_AUTO_PERMILLE of
 * MemAvailable holds (model/mapmem.c), the default where it cannot be
 * read. */
static void auto_max_locks(struct ls_opts *o)
{
	struct ls_map_sizes m = {o->col.max_locks,   o->col.max_tasks,
				 o->col.max_callers, o->col.max_stacks,
				 o->col.hold,	     o->col.by_cgroup};
	long ncpus = sysconf(_SC_NPROCESSORS_CONF);
	uint64_t avail;

	if (ls_mem_available("/proc/meminfo", &avail))
		return;
	o->col.max_locks = ls_mapmem_auto_locks(
		&m, ncpus > 0 ? (unsigned)ncpus : 1, avail);
}

int ls_cli_parse(int argc, char **argv, struct ls_opts *o)
{
	struct argp_option opts[LS_OPT_MAX + 1];
	struct argp argp = {opts, parse_opt, NULL, NULL, NULL, NULL, NULL};
	struct parse p = {.o = o, .argv = argv};
	int split = argc;

	memset(o, 0, sizeof(*o));
	ls_collector_opts_default(&o->col);
	o->interval = 1.0;
	o->nlocks = 10;
	o->cmd = LS_CMD_TOP;
	ls_wif_opts_default(&o->wif);
	o->listen = LS_DEF_LISTEN;
	o->user = "nobody";
	o->max_series = LS_PROM_DEF_MAX_SERIES;
	o->max_cgroups = LS_PROM_DEF_MAX_CGROUPS;
	/* as typed: argp reorders argv */
	o->all_argv = calloc((size_t)argc + 1, sizeof(*argv));
	if (o->all_argv) {
		memcpy(o->all_argv, argv, (size_t)argc * sizeof(*argv));
		o->all_argc = argc;
	}
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--")) {
			split = i;
			break;
		}
	/* Our own --help (per command), no argp --HANG or --program-name, and
	 * our own one-line errors. */
	ls_help_options(LS_CMDS_ALL, opts);
	if (argp_parse(&argp, split, argv,
		       ARGP_NO_EXIT | ARGP_NO_HELP | ARGP_NO_ERRS, NULL, &p)) {
		if (!p.printed)
			ls_fail("parse", "arguments", "not valid");
		return -EINVAL;
	}
	if (p.help) {
		print_help(&p);
		return 1;
	}
	if (check_taken(&p))
		return -EINVAL;
	if (split < argc) {
		o->argv = &argv[split + 1];
		o->argc = argc - split - 1;
		if (!o->argc) {
			ls_fail("parse", "arguments",
				o->cmd == LS_CMD_COMPARE ||
						o->cmd == LS_CMD_REPORT
					? "no NEW files after --"
					: "no program after --");
			return -EINVAL;
		}
	}
	if (o->cmd == LS_CMD_HIST && o->count_set)
		o->nlocks = o->count;
	o->col.stacks = o->cmd == LS_CMD_RECORD || o->folded != NULL;
	/* serve --by class keeps every lock unless told: a forgotten
	 * instance would take its counts out of its class's counters */
	if ((o->cmd == LS_CMD_TOP ||
	     (o->cmd == LS_CMD_SERVE && !o->col.by_class)) &&
	    !o->forget_set)
		o->col.forget = LS_DEF_FORGET;
	if (!o->max_locks_set)
		auto_max_locks(o);
	if (ls_budget_resolve(o))
		return -EINVAL;
	return check_command(o);
}
