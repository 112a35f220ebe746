// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* options.c - the table of options: for each its argp row and the commands
 * that take it (data, not code: cli.c checks against it and --help of a
 * command lists only its rows); the commands' names, one-line descriptions
 * and examples. */
#include "cmd/options.h"

/* Commands as bits, for the table below. */
#define TOP (1U << LS_CMD_TOP)
#define HIST (1U << LS_CMD_HIST)
#define DOCTOR (1U << LS_CMD_DOCTOR)
#define SERVE (1U << LS_CMD_SERVE)
#define RECORD (1U << LS_CMD_RECORD)
#define COMPARE (1U << LS_CMD_COMPARE)
#define REPORT (1U << LS_CMD_REPORT)
#define WHATIF (1U << LS_CMD_WHATIF)
#define TRACING (TOP | HIST | SERVE | RECORD) /* they start a collector */
#define ALL LS_CMDS_ALL

const char *const ls_cmd_names[LS_CMD_NR] = {
	[LS_CMD_TOP] = "top",	    [LS_CMD_HIST] = "hist",
	[LS_CMD_DOCTOR] = "doctor", [LS_CMD_SERVE] = "serve",
	[LS_CMD_RECORD] = "record", [LS_CMD_COMPARE] = "compare",
	[LS_CMD_REPORT] = "report", [LS_CMD_WHATIF] = "whatif",
};

/* What each command does, in a line of the list of commands. */
const char *const ls_cmd_about[LS_CMD_NR] = {
	[LS_CMD_TOP] = "live view of the most contended locks (the default)",
	[LS_CMD_HIST] = "trace a while, then print wait histograms and spin "
			"shares",
	[LS_CMD_DOCTOR] = "show which data sources work on this kernel, and "
			  "why",
	[LS_CMD_SERVE] = "serve /metrics for Prometheus, then run unprivileged",
	[LS_CMD_RECORD] = "record per-lock stats of a run (a benchmark) to a "
			  "file",
	[LS_CMD_COMPARE] = "compare records: BASE runs against NEW runs",
	[LS_CMD_REPORT] = "one HTML page of pictures of records (or of a "
			  "compare)",
	[LS_CMD_WHATIF] = "delay a lock on purpose: is it on PROGRAM's "
			  "critical path?",
};

const char *const ls_examples[] = {
	"lockscope doctor",
	"lockscope hist -d 5",
	"lockscope hist -- stress-ng --netlink-task 2 -t 5s",
	"lockscope hist -n 5 -T mutex -p 1234 -d 10",
	"lockscope hist -L mmap_lock -d 3 --json",
	"lockscope top -i 2 -s spin",
	"lockscope top -b -n 3",
	"lockscope serve --listen 127.0.0.1:9464 --max-series 50",
	"lockscope record -o base1.json -- stress-ng --netlink-task 2 -t 5s",
	"lockscope record -o run.json -d 60 -i 1",
	"lockscope compare base1.json base2.json -- new1.json new2.json",
	"lockscope report -o report.html run.json",
	"lockscope report -o ab.html base1.json base2.json -- new1.json "
	"new2.json",
	"lockscope hist -d 5 --folded waits.folded",
	"lockscope whatif --yes-perturb -- stress-ng --netlink-task 2 -t 3s",
	"lockscope whatif -L pipe_inode_info.mutex --delays 10,20,40 --metric "
	"ops --yes-perturb -- ./bench",
};

const char ls_help_exit[] =
	"Exit status: 2 for bad input; with a PROGRAM, 127 when it is not "
	"found, 126 when it cannot be run, else its own status (128+N when "
	"signal N ended it); 1 when lockscope fails; compare: 1 when a metric "
	"regressed.";
const char ls_help_kinds[] =
	"Kinds (-T): spinlock rwlock rwlock:R rwlock:W mutex rwsem rwsem:R "
	"rwsem:W rt_mutex rtlock pcpu-rwsem semaphore.";
const char ls_help_sort[] =
	"Sort keys (-s): total count spin sleep avg max waiters peak name kind "
	"won pre blk caller.";

const char *const ls_cmd_args[LS_CMD_NR] = {
	[LS_CMD_TOP] = "[top] [-- PROGRAM [ARGS...]]",
	[LS_CMD_HIST] = "hist [-- PROGRAM [ARGS...]]",
	[LS_CMD_DOCTOR] = "doctor",
	[LS_CMD_SERVE] = "serve",
	[LS_CMD_RECORD] = "record -o FILE [-- PROGRAM [ARGS...]]",
	[LS_CMD_COMPARE] = "compare BASE.json... -- NEW.json...",
	[LS_CMD_REPORT] = "report -o FILE.html RECORD.json...\n"
			  "report -o FILE.html BASE.json... -- NEW.json...",
	[LS_CMD_WHATIF] = "whatif --yes-perturb [-L LOCK]... -- PROGRAM "
			  "[ARGS...]",
};

/* doctor takes what changes which sources it finds: -F, --no-tracepoints,
 * --source, --kallsyms, -v.  --cost: top always measures its cost and
 * serve unless --no-cost, so only hist (--json) and record take it. */
const struct ls_opt_def ls_opt_defs[] = {
	{{NULL, 0, NULL, 0, "What and how long:", 1}, ALL},
	{{"duration", 'd', "SECONDS", 0,
	  "hist, record: trace this long (default: until Ctrl-C or PROGRAM "
	  "exits)",
	  1},
	 HIST | RECORD},
	{{"interval", 'i', "SECONDS", 0,
	  "top: refresh interval; serve: collection interval (default 1); "
	  "record: one snapshot per interval",
	  1},
	 TOP | SERVE | RECORD},
	{{"count", 'n', "N", 0,
	  "hist: show the N most contended locks (default 10); top: stop after "
	  "N frames (default: never); report: draw the N most waited-on "
	  "locks (default 10); whatif without -L: delay the N most "
	  "waited-on locks of a pre-run (default 2)",
	  1},
	 TOP | HIST | REPORT | WHATIF},
	{{"pid", 'p', "PID", 0, "Only waits of this process", 1}, TRACING},
	{{"lock", 'L', "NAME|ADDR", 0,
	  "Only locks whose name or class contains NAME (task_struct.pi_lock "
	  "matches every instance, task_struct.pi_lock#2 one), or at hex ADDR; "
	  "whatif: a lock to delay (repeatable)",
	  1},
	 TRACING | WHATIF},
	{{"by", LS_OPT_BY, "lock|class|cgroup", 0,
	  "One row per lock (default), or per lock class: every instance of "
	  "a name (#2, #cpu1, ...) folded into one row with its count; "
	  "cgroup (hist, top, record, serve): each lock's waits also by "
	  "the waiter's and the holder's cgroup v2 path (serve: "
	  "class,cgroup for both); compare: cgroup compares each lock's "
	  "waits by cgroup too (records made with --by cgroup)",
	  1},
	 TRACING | COMPARE},
	{{"cgroup", LS_OPT_CGROUP, "PATH", 0,
	  "Only waits of tasks in this cgroup v2 or below it (PATH as "
	  "/proc/PID/cgroup shows it, or under the cgroup2 mount)",
	  1},
	 TRACING},
	{{"kind", 'T', "KIND", 0, "Only locks of this kind (repeatable)", 1},
	 TRACING},
	{{"sort", 's', "KEY", 0, "Sort by KEY (default total)", 1}, TOP | HIST},
	{{NULL, 0, NULL, 0, "Output:", 2}, ALL},
	{{"json", LS_OPT_JSON, NULL, 0, "hist, whatif: print JSON", 2},
	 HIST | WHATIF},
	{{"batch", 'b', NULL, 0,
	  "top: plain text frames (implied when stdout is not a terminal); "
	  "without it, a full screen (? lists the keys)",
	  2},
	 TOP},
	{{"addr", LS_OPT_ADDR, NULL, 0,
	  "Show raw kernel addresses (they defeat KASLR)", 2},
	 TRACING},
	{{"cost", LS_OPT_COST, NULL, 0,
	  "hist, record: measure lockscope's own cost (BPF run-time stats, in "
	  "the JSON)",
	  2},
	 HIST | RECORD},
	{{"verbose", 'v', NULL, 0, "libbpf debug messages", 2},
	 TRACING | DOCTOR | WHATIF},
	{{"output", 'o', "FILE", 0,
	  "record: write the record to FILE; report: the HTML page to FILE; "
	  "whatif: the JSON result to FILE "
	  "(atomically; - for standard output)",
	  2},
	 RECORD | REPORT | WHATIF},
	{{"folded", LS_OPT_FOLDED, "FILE", 0,
	  "hist, record: also write the sampled waiter stacks to FILE as "
	  "folded stacks for flame graphs, weighted by wait time in ns "
	  "(atomically; -: standard output, instead of hist's histograms)",
	  2},
	 HIST | RECORD},
	{{"format", LS_OPT_FORMAT, "FMT", 0,
	  "record: json (default), csv or lkp; compare: text (default), json "
	  "or csv",
	  2},
	 RECORD | COMPARE},
	{{"threshold", LS_OPT_THRESHOLD, "PCT", 0,
	  "compare: hide changes within PCT percent (and within the stddevs); "
	  "exit 1 if a metric grows beyond it; report: the same rule marks "
	  "rows",
	  2},
	 COMPARE | REPORT},
	{{"min-share", LS_OPT_MIN_SHARE, "PCT", 0,
	  "compare: leave out locks below PCT percent of all contentions and "
	  "of all wait time on both sides (default 1)",
	  2},
	 COMPARE | REPORT},
	{{NULL, 0, NULL, 0, "Collection:", 3}, ALL},
	{{"freq", 'F', "HZ", 0,
	  "CPU sampler frequency per CPU (default 99, 0: off)", 3},
	 TRACING | DOCTOR},
	{{"no-tracepoints", LS_OPT_NO_TP, NULL, 0,
	  "Leave the lock tracepoints off (the function probes make the "
	  "mutex and rwsem rows)",
	  3},
	 TRACING | DOCTOR},
	{{"source", LS_OPT_SOURCE, "MECH", 0,
	  "Function probes: auto (fentry, else kprobe; default), fentry, "
	  "kprobe or none",
	  3},
	 TRACING | DOCTOR},
	{{"hold", LS_OPT_HOLD, NULL, 0,
	  "hist, record: hold time of every acquisition of the contended "
	  "mutexes and rwsems (probes on lock and unlock: needs fentry or "
	  "kprobes)",
	  3},
	 HIST | RECORD},
	{{"no-chains", LS_OPT_NO_CHAINS, NULL, 0,
	  "Do not follow wait-for chains (a holder that waits on another "
	  "lock; on by default)",
	  3},
	 TRACING},
	{{"budget", LS_OPT_BUDGET, "PCT", 0,
	  "Share of the machine's CPU the BPF programs may take: contentions "
	  "stay exact, times, histograms and holder states are estimated from "
	  "sampled waits (serve: default 1; 0: exact, the default elsewhere)",
	  3},
	 TRACING},
	{{"stack-every", LS_OPT_STACK_EVERY, "N", 0,
	  "Sample a caller stack every Nth contention of a lock, the first "
	  "included (default 256, 0: never)",
	  3},
	 TRACING},
	{{"forget", LS_OPT_FORGET, "N", 0,
	  "top, serve: drop locks idle for N intervals from the tables "
	  "(default 60, serve --by class 0; 0: keep all, until the lock "
	  "table is full; serve keeps a dropped lock's counts in its series)",
	  3},
	 TOP | SERVE},
	{{"max-locks", LS_OPT_MAX_LOCKS, "N", 0,
	  "Lock table size (default: 16384 to 131072, from memory)", 3},
	 TRACING | DOCTOR},
	{{"max-tasks", LS_OPT_MAX_TASKS, "N", 0,
	  "Tasks waiting at once (default 8192)", 3},
	 TRACING | DOCTOR},
	{{"max-callers", LS_OPT_MAX_CALLERS, "N", 0,
	  "Caller table size (default 16384)", 3},
	 TRACING | DOCTOR},
	{{"max-stacks", LS_OPT_MAX_STACKS, "N", 0,
	  "Stack table size (default 8192)", 3},
	 TRACING | DOCTOR},
	{{"kallsyms", LS_OPT_KALLSYMS, "FILE", 0,
	  "Read symbols from FILE (default /proc/kallsyms)", 3},
	 TRACING | DOCTOR},
	{{NULL, 0, NULL, 0, "serve:", 4}, ALL},
	{{"listen", LS_OPT_LISTEN, "ADDR:PORT", 0,
	  "Listen here (default 127.0.0.1:9464; [ADDR6]:PORT, :PORT for every "
	  "address)",
	  4},
	 SERVE},
	{{"user", LS_OPT_USER, "NAME|UID", 0,
	  "When started as root, run as this user once the BPF programs are "
	  "attached (default nobody)",
	  4},
	 SERVE},
	{{"allow-root", LS_OPT_ALLOW_ROOT, NULL, 0,
	  "Let --user be root (uid 0), refused otherwise", 4},
	 SERVE},
	{{"max-series", LS_OPT_MAX_SERIES, "N", 0,
	  "Export at most N locks as their own series; the rest are summed "
	  "into lock=\"other\" (default 50)",
	  4},
	 SERVE},
	{{"max-cgroups", LS_OPT_MAX_CGROUPS, "N", 0,
	  "With --by cgroup: export at most N cgroups as their own series; "
	  "the rest are summed into cgroup=\"other\" (default 20)",
	  4},
	 SERVE},
	{{"no-cost", LS_OPT_NO_COST, NULL, 0,
	  "Leave BPF run-time stats off (no lockscope_bpf_program_* metrics)",
	  4},
	 SERVE},
	{{NULL, 0, NULL, 0, "whatif (it slows the machine on purpose):", 5},
	 ALL},
	{{"yes-perturb", LS_OPT_YES_PERTURB, NULL, 0,
	  "Required: busy-wait inside kernel locks on purpose (capped at "
	  "100 us per acquisition, 25% of each CPU per second)",
	  5},
	 WHATIF},
	{{"delays", LS_OPT_DELAYS, "LIST", 0,
	  "Delays per acquisition in us (ns, us, ms suffixes; default: "
	  "sized from a pre-run's contention rate, up to the cap); "
	  "zero-delay runs are always made",
	  5},
	 WHATIF},
	{{"rounds", LS_OPT_ROUNDS, "N", 0,
	  "Runs of PROGRAM per lock, delay and arm (default 3)", 5},
	 WHATIF},
	{{"metric", LS_OPT_METRIC, "M", 0,
	  "PROGRAM's throughput: auto (default: stress-ng's for stress-ng, "
	  "given --metrics-brief if it has no --metrics, else wall), wall "
	  "(1/wall time), stress-ng (its bogo ops/s, real time), ops (an "
	  "'ops: N' line, per second), regex:RE (its group, last match)",
	  5},
	 WHATIF},
	{{"placebo", LS_OPT_PLACEBO, NULL, 0,
	  "A/A: run the same schedule injecting nothing (the verdict's false "
	  "alarm rate)",
	  5},
	 WHATIF},
	{{NULL, 0, NULL, 0, "Help:", -1}, ALL},
	{{"help", '?', NULL, 0, "Give this help list", -1}, ALL},
	{{"usage", LS_OPT_USAGE, NULL, 0, "Give a short usage message", -1},
	 ALL},
	{{"version", 'V', NULL, 0, "Print the program version", -1}, ALL},
};

const size_t ls_opt_ndefs = sizeof(ls_opt_defs) / sizeof(ls_opt_defs[0]);
const size_t ls_nexamples = sizeof(ls_examples) / sizeof(ls_examples[0]);
_Static_assert(sizeof(ls_opt_defs) / sizeof(ls_opt_defs[0]) <= LS_OPT_MAX,
	       "given options are bits of a uint64_t");

int ls_opt_def_of(int key)
{
	for (unsigned i = 0; i < ls_opt_ndefs; i++)
		if (ls_opt_defs[i].a.key == key && ls_opt_defs[i].a.name)
			return (int)i;
	return -1;
}
