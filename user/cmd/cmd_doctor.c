// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* cmd_doctor.c - what works on this kernel, one line of reason per source;
 * without the capabilities to try them, what the kernel's files tell. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/utsname.h>
#include "cmd/commands.h"
#include "collect/whatif.h"
#include "collect/features.h"
#include "collect/kconfig.h"
#include "model/columns.h"
#include "model/kallsyms.h"
#include "model/mapmem.h"
#include "util/caps.h"
#include "util/log.h"
#include "cmd/run.h"

/* The map sizes in force and what they preallocate, in one line. */
static void print_map_sizes(const struct ls_opts *o)
{
	const struct ls_collector_opts *c = &o->col;
	const struct ls_map_sizes m = {c->max_locks,   c->max_tasks,
				       c->max_callers, c->max_stacks,
				       c->hold,	       c->by_cgroup};
	long ncpus = sysconf(_SC_NPROCESSORS_CONF);
	uint64_t need, avail;

	need = ls_mapmem_need(&m, ncpus > 0 ? (unsigned)ncpus : 1);
	printf("map sizes: --max-locks %u", c->max_locks);
	if (!o->max_locks_set)
		printf(" (from memory: the most, up to %u, within %.1f%% of "
		       "MemAvailable)",
		       LS_AUTO_MAX_LOCKS, LS_MAPMEM_AUTO_PERMILLE / 10.0);
	printf(" --max-tasks %u --max-callers %u --max-stacks %u: %.1f MiB "
	       "of kernel memory at most",
	       c->max_tasks, c->max_callers, c->max_stacks,
	       (double)need / (1 << 20));
	if (!ls_mem_available("/proc/meminfo", &avail) && avail)
		printf(", %.1f%% of MemAvailable (refused above %d%%)",
		       100.0 * (double)need / (double)avail, LS_MAPMEM_SHARE);
	putchar('\n');
}

static void print_clones(const struct ls_ksyms *ks, const char *base)
{
	const struct ls_ksym *found[8];
	size_t n = ls_ksyms_clones(ks, base, found, 8);

	printf("  %-28s ", base);
	if (!n)
		printf("not in kallsyms");
	for (size_t i = 0; i < n; i++)
		printf("%s%s", i ? ", " : "", found[i]->name);
	putchar('\n');
}

/* The build options lockscope depends on, and the tracepoints' format
 * files (classic tracepoints read them; tracefs is root's by default). */
static void print_kernel_files(void)
{
	static const char fmt[] =
		"/sys/kernel/tracing/events/lock/contention_begin/format";
	struct ls_kconfig_opt k[16];
	size_t n;
	const struct ls_kconfig_opt *def = ls_kconfig_opts(&n);
	char path[128];
	int err;

	if (n > sizeof(k) / sizeof(*k))
		n = sizeof(k) / sizeof(*k);
	memcpy(k, def, n * sizeof(*k));
	err = ls_kconfig_read(k, n, path, sizeof(path));
	if (err) {
		printf("\nkernel config: not readable (/proc/config.gz, "
		       "/boot/config-*: %s)\n",
		       strerror(-err));
	} else {
		printf("\nkernel config (%s):\n", path);
		for (size_t i = 0; i < n; i++)
			printf("  %-40s %-8s %s\n", k[i].name,
			       k[i].value[0] ? k[i].value : "absent", k[i].why);
	}
	printf("tracepoint format: %s %s\n", fmt,
	       !access(fmt, R_OK) ? "readable"
	       : errno == ENOENT
		       ? "absent (tracefs not mounted, or no lock tracepoints)"
		       : "not readable (tracefs is root's)");
}

/* Last, without the capabilities: what is missing (exit 1: nothing could
 * start).  Else the exit status of the sources tried. */
static int caps_line(int unpriv, const char *missing, int any)
{
	if (!unpriv)
		return any ? 0 : 1;
	printf("\ncapabilities: missing %s: the sources above were not "
	       "tried\n",
	       missing);
	ls_hint("run 'lockscope doctor' as root, or grant CAP_BPF and "
		"CAP_PERFMON, to load and attach them");
	return 1;
}

int ls_cmd_doctor(const struct ls_opts *o)
{
	struct ls_source src[LS_SRC_MAX];
	struct ls_ksyms ks;
	struct utsname u;
	char missing[64];
	int err, any = 0, data = 0, started = 0;
	int unpriv = ls_caps_lack(missing, sizeof(missing)) > 0;

	ls_install_signals(); /* a signal lets the report finish (< 1 s) */
	uname(&u);
	printf("kernel %s %s, %ld CPUs online, running as uid %d\n\n",
	       u.release, u.machine, sysconf(_SC_NPROCESSORS_ONLN),
	       (int)geteuid());
	if (unpriv) {
		printf("without %s nothing is loaded: what BTF, kallsyms and "
		       "the kernel's files tell\n\n",
		       missing);
		ls_probe_sources(&o->col, src);
	} else {
		/* Start for real: load and attach decide "active", not guesses.
		 */
		enum ls_start_err why;
		struct ls_collector *c = ls_collector_start(&o->col, &why);

		if (why == LS_START_BAD_INPUT)
			return 2;
		if (c) {
			started = 1;
			memcpy(src, ls_collector_sources(c), sizeof(src));
			ls_collector_stop(c);
		} else {
			ls_probe_sources(&o->col, src);
		}
	}
	ls_sources_print(stdout, src, LS_SRC_MAX);
	putchar('\n');
	ls_columns_print(stdout, src);
	/* Exit 1 when a collection with these options cannot start (an
	 * explicit --source the kernel refuses), after explaining why. */
	for (int i = 0; i < LS_SRC_MAX; i++)
		any |= src[i].available && started;

	{
		struct ls_holder_feature hf[8];
		enum ls_vcpu_flag hf_vcpu;
		enum ls_osq_flag hf_osq;
		enum ls_chain_flag hf_chain;
		unsigned n = ls_probe_holders(hf, 8);

		printf("\nholder state at wait start (owner words, CO-RE):\n");
		for (unsigned i = 0; i < n; i++)
			printf("  %-28s %s: %s\n", hf[i].field,
			       hf[i].found > 0	 ? "found"
			       : hf[i].found < 0 ? "BTF unreadable"
						 : "absent",
			       hf[i].found > 0 ? hf[i].yes : hf[i].no);
		printf("  %-28s every kind, from contention_end (upper "
		       "bound: handoff latency included)\n",
		       "handoff tenure");
		printf("  %-28s %s\n", "spinlock holder sites",
		       ls_probe_spin_end_insert()
			       ? "stack at begin, holder_sites unpreallocated "
				 "(bpf_mem_alloc): no map lock taken at a "
				 "spinlock's end"
			       : "stack at begin; no bpf_mem_alloc (before "
				 "6.1): new holder sites of spinlocks not "
				 "made at their end, their tenure unsampled");
		hf_vcpu = ls_vcpu_check();
		printf("  %-28s %s: %s\n", "vcpu-preempted holder",
		       hf_vcpu == LS_VCPU_READ ? "read" : "not read",
		       ls_vcpu_reason(hf_vcpu));
		hf_osq = ls_osq_check();
		printf("  %-28s %s: %s\n", "osq bail-out previous vCPU",
		       hf_osq == LS_OSQ_READ ? "read" : "not read",
		       ls_osq_reason(hf_osq));
		hf_chain = ls_chains_check();
		printf("  %-28s %s: %s\n", "wait-for chains",
		       hf_chain == LS_CHAINS_NO_BTF ? "off" : "followed",
		       ls_chains_reason(hf_chain));
	}
	{
		char mount[256];
		const char *no = ls_cgroup_check(mount, sizeof(mount));

		printf("\ncgroup v2: %s%s\n", no ? "absent: " : mount,
		       no ? no
			  : " (--cgroup and --by cgroup resolve ids under "
			    "it)");
	}
	{
		struct ls_wif_probe wp;

		ls_whatif_check(&wp);
		printf("\nwhatif %s\n", wp.why);
	}
	{
		char bwhy[300];

		ls_bpf_build_choose(bwhy, sizeof(bwhy));
		printf("\nBPF object: %s\n", bwhy);
	}
	printf("\ncost budget: serve takes 1%% of the CPUs by default, hist, "
	       "top "
	       "and record stay exact unless --budget; contentions exact, "
	       "waits timed 1 in N per CPU (N <= %u, set every %llu ms from "
	       "the programs' own cost, one run in %u measured); no function "
	       "probes under it\n",
	       LS_BUDGET_N_MAX, LS_BUDGET_WINDOW_NS / 1000000ULL,
	       LS_BUDGET_PROBE_EVERY);
	printf("\nkernel BTF: %s\n",
	       access("/sys/kernel/btf/vmlinux", R_OK)
		       ? "absent (CO-RE needs /sys/kernel/btf/vmlinux)"
		       : "/sys/kernel/btf/vmlinux");
	err = ls_ksyms_load(&ks, o->col.kallsyms);
	if (err) {
		printf("kallsyms: %s: %s\n", o->col.kallsyms,
		       err == -EPERM ? "addresses hidden (kernel.kptr_restrict)"
				     : strerror(-err));
		ls_fail_errno("read", o->col.kallsyms, err);
		if (err == -EPERM)
			ls_hint("addresses are hidden: run as root");
		print_map_sizes(o);
		print_kernel_files();
		ls_kernel_btf_free();
		return caps_line(unpriv, missing, any);
	}
	for (size_t i = 0; i < ks.n; i++)
		data += ls_ksym_is_data(&ks.syms[i]);
	printf("kallsyms: %zu symbols, %d data symbols\n", ks.n, data);
	{
		struct ls_naming_row names[LS_NAMES_MAX];

		ls_naming_probe(&src[LS_SRC_TP], (size_t)data, names);
		printf("\nlock names:\n");
		for (int i = 0; i < LS_NAMES_MAX; i++)
			printf("  %-22s %-3s %s\n", names[i].name,
			       names[i].available ? "yes" : "no",
			       names[i].reason);
	}
	print_map_sizes(o);
	printf("lock text section: %s\n",
	       ks.lock_text_start ? "found (callers skip it)" : "not found");
	printf("\nspin functions for the sampler:\n");
	{
		size_t n;
		const char *const *spin = ls_spin_funcs(&n);

		for (size_t i = 0; i < n; i++)
			print_clones(&ks, spin[i]);
	}
	ls_ksyms_free(&ks);
	print_kernel_files();
	ls_kernel_btf_free(); /* the probes above shared one parse */
	return caps_line(unpriv, missing, any);
}
