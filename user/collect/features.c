// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* features.c - feature probes, run once at start; each explains itself. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <sys/syscall.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "collect/collector.h"
#include "collect/features.h"

/* The kernel-internal "operation not supported" (not ENOTSUP, 95). */
#define LS_ENOTSUPP 524

static struct btf *kernel_btf;
static int kernel_btf_read;

struct btf *ls_kernel_btf(void)
{
	if (!kernel_btf_read) {
		kernel_btf_read = 1;
		kernel_btf = btf__load_vmlinux_btf();
		if (libbpf_get_error(kernel_btf))
			kernel_btf = NULL;
	}
	return kernel_btf;
}

void ls_kernel_btf_free(void)
{
	btf__free(kernel_btf);
	kernel_btf = NULL;
	kernel_btf_read = 0;
}

static const char *why_errno(int err)
{
	switch (err) {
	case EPERM:
		return "EPERM, the kernel refuses it (lockdown, LSM or missing "
		       "CAP_BPF/CAP_PERFMON)";
	case EACCES:
		return "EACCES: not permitted (perf_event_paranoid or missing "
		       "capability)";
	case ENOENT:
		return "ENOENT: not found in this kernel";
	case ESRCH:
		return "ESRCH: target function not found";
	case EINVAL:
		return "EINVAL: not supported by this kernel";
	case ENOTSUP:
		return "ENOTSUP: not supported by this kernel";
	case LS_ENOTSUPP:
		return "ENOTSUPP: no BPF trampoline (no ftrace direct calls; "
		       "arm64 before 6.4)";
	default:
		return strerror(err);
	}
}

enum ls_mech ls_probe_tracepoints(struct ls_source *s)
{
	struct btf *btf = ls_kernel_btf();
	int id;

	snprintf(s->name, sizeof(s->name), "tracepoints");
	if (!btf) {
		snprintf(s->reason, sizeof(s->reason),
			 "kernel BTF unreadable (%s): tp_btf impossible, "
			 "raw_tp fallback",
			 strerror(errno));
		return LS_MECH_RAW_TP;
	}
	id = btf__find_by_name_kind(btf, "btf_trace_contention_begin",
				    BTF_KIND_TYPEDEF);
	if (id < 0) {
		snprintf(s->reason, sizeof(s->reason),
			 "kernel has no lock:contention_begin tracepoint (it "
			 "appeared in 5.19)");
		return LS_MECH_NONE;
	}
	snprintf(s->reason, sizeof(s->reason),
		 "lock:contention_begin/end present in kernel BTF");
	return LS_MECH_TP_BTF;
}

/*
 * Load a trivial fentry program on @func and attach it for an instant: the
 * kernel's verdict on fentry.  Loading alone is not enough: a kernel
 * without ftrace direct calls (arm64 before 6.4, commit 2aa6ac03516d)
 * loads fentry programs and refuses to attach them (ENOTSUPP).
 */
int ls_probe_fentry(const char *func, char *why, size_t len)
{
	struct bpf_insn insns[] = {
		{.code = 0xb7, .dst_reg = 0, .imm = 0}, /* r0 = 0 */
		{.code = 0x95},				/* exit */
	};
	LIBBPF_OPTS(bpf_prog_load_opts, opts);
	struct btf *btf = ls_kernel_btf();
	int id, fd, link, err;

	if (!btf) {
		snprintf(why, len, "kernel BTF unreadable: fentry needs it");
		return -ENOENT;
	}
	id = btf__find_by_name_kind(btf, func, BTF_KIND_FUNC);
	if (id < 0) {
		snprintf(why, len, "%s not in BTF", func);
		return -ENOENT;
	}
	opts.expected_attach_type = BPF_TRACE_FENTRY;
	opts.attach_btf_id = (__u32)id;
	fd = bpf_prog_load(BPF_PROG_TYPE_TRACING, "ls_probe", "GPL", insns, 2,
			   &opts);
	if (fd < 0) {
		err = errno;
		snprintf(why, len, "%s", why_errno(err));
		return -err;
	}
	link = bpf_raw_tracepoint_open(NULL, fd);
	err = link < 0 ? errno : 0;
	if (link >= 0)
		close(link);
	close(fd);
	if (err) {
		snprintf(why, len, "fentry on %s loads but does not attach: %s",
			 func, why_errno(err));
		return -err;
	}
	snprintf(why, len, "fentry on %s loads and attaches", func);
	return 0;
}

int ls_probe_kprobe(char *why, size_t len)
{
	if (access("/sys/bus/event_source/devices/kprobe/type", F_OK) == 0) {
		snprintf(why, len, "kprobe PMU present");
		return 0;
	}
	snprintf(why, len,
		 "no kprobe PMU: kernel built without CONFIG_KPROBES");
	return -ENOENT;
}

int ls_kprobe_blacklisted(const char *func)
{
	FILE *f = fopen("/sys/kernel/debug/kprobes/blacklist", "r");
	char line[512];
	int found = 0;

	if (!f)
		return -errno;
	/* "0xSTART-0xEND\tname" per line */
	while (!found && fgets(line, sizeof(line), f)) {
		char *name = strchr(line, '\t');

		if (!name)
			continue;
		name[1 + strcspn(name + 1, "\n")] = '\0';
		found = !strcmp(name + 1, func);
	}
	fclose(f);
	return found;
}

int ls_perf_open_cpu_clock(int cpu, unsigned hz)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_CPU_CLOCK,
		.size = sizeof(attr),
		.freq = 1,
		.sample_freq = hz,
	};

	return (int)syscall(__NR_perf_event_open, &attr, -1, cpu, -1,
			    PERF_FLAG_FD_CLOEXEC);
}

int ls_probe_sampler(unsigned hz, char *why, size_t len)
{
	int fd = ls_perf_open_cpu_clock(0, hz ? hz : 99), err;

	if (fd < 0) {
		err = errno;
		snprintf(why, len, "perf_event_open(cpu-clock) failed: %s",
			 why_errno(err));
		return -err;
	}
	close(fd);
	snprintf(why, len, "cpu-clock perf events open");
	return 0;
}

/* 1 if struct @type in @btf has a member @member (a function @type when
 * @member is NULL), 0 if not. */
static int has_member(const struct btf *btf, const char *type,
		      const char *member)
{
	int id = btf__find_by_name_kind(
		btf, type, member ? BTF_KIND_STRUCT : BTF_KIND_FUNC);
	const struct btf_type *t;
	const struct btf_member *m;

	if (id < 0 || !member)
		return id >= 0;
	t = btf__type_by_id(btf, (__u32)id);
	m = btf_members(t);
	for (unsigned i = 0; i < btf_vlen(t); i++, m++)
		if (!strcmp(btf__name_by_offset(btf, m->name_off), member))
			return 1;
	return 0;
}

unsigned ls_probe_holders(struct ls_holder_feature *out, unsigned max)
{
	static const struct {
		const char *type, *member, *field, *yes, *no;
	} need[] = {
		{"mutex", "owner", "mutex.owner", "mutex holders classified",
		 "mutex holders unknown"},
		{"rw_semaphore", "owner", "rw_semaphore.owner",
		 "rwsem writer holders classified (reader-owned: unknown)",
		 "rwsem holders unknown"},
		{"rt_mutex_base", "owner", "rt_mutex_base.owner",
		 "rt_mutex holders classified", "rt_mutex holders unknown"},
		{"task_struct", "on_cpu", "task_struct.on_cpu",
		 "running vs off CPU told apart", "every holder state unknown"},
		{"sched_entity", "sched_delayed", "sched_entity.sched_delayed",
		 "a blocked holder still queued (delayed dequeue) counts as "
		 "sleeping",
		 "no delayed dequeue (before 6.12): queued means runnable"},
		{"bpf_rdonly_cast", NULL, "bpf_rdonly_cast (kfunc)",
		 "owner and task fields read with plain fault-safe loads",
		 "read with bpf_probe_read_kernel() (slower; before 6.2)"},
	};
	struct btf *btf = ls_kernel_btf();
	unsigned n = 0;

	for (unsigned i = 0; i < sizeof(need) / sizeof(need[0]) && n < max;
	     i++, n++) {
		out[n].field = need[i].field;
		out[n].found =
			btf ? has_member(btf, need[i].type, need[i].member)
			    : -1;
		out[n].yes = need[i].yes;
		out[n].no = need[i].no;
	}
	return n;
}

int ls_probe_spin_end_insert(void)
{
	struct btf *btf = ls_kernel_btf();

	return btf && btf__find_by_name_kind(btf, "bpf_mem_alloc",
					     BTF_KIND_STRUCT) >= 0;
}

/*
 * Load a socket filter that uses atomic fetch-and-add, exchange and
 * compare-and-swap on its stack (BPF_ATOMIC with BPF_FETCH, kernels 5.12+):
 * verifiers before them refuse it as reserved fields (EINVAL).
 */
int ls_probe_fetch_atomics(char *why, size_t len)
{
	struct bpf_insn insns[] = {
		/* *(u64 *)(r10 - 8) = 0; r1 = 1; r0 = 0 */
		{.code = BPF_ST | BPF_MEM | BPF_DW, .dst_reg = 10, .off = -8},
		{.code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 1, .imm = 1},
		{.code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 0},
		/* r1 = atomic_fetch_add(r10 - 8, r1) */
		{.code = BPF_STX | BPF_ATOMIC | BPF_DW,
		 .dst_reg = 10,
		 .src_reg = 1,
		 .off = -8,
		 .imm = BPF_ADD | BPF_FETCH},
		/* r1 = xchg(r10 - 8, r1) */
		{.code = BPF_STX | BPF_ATOMIC | BPF_DW,
		 .dst_reg = 10,
		 .src_reg = 1,
		 .off = -8,
		 .imm = BPF_XCHG},
		/* r0 = cmpxchg(r10 - 8, r0, r1) */
		{.code = BPF_STX | BPF_ATOMIC | BPF_DW,
		 .dst_reg = 10,
		 .src_reg = 1,
		 .off = -8,
		 .imm = BPF_CMPXCHG},
		{.code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 0},
		{.code = BPF_JMP | BPF_EXIT},
	};
	int fd = bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, "ls_atomics", "GPL",
			       insns, sizeof(insns) / sizeof(insns[0]), NULL),
	    err = errno;

	if (fd >= 0) {
		close(fd);
		snprintf(why, len,
			 "the verifier accepts atomic fetch-and-add, exchange "
			 "and compare-and-swap");
		return 1;
	}
	if (err == EINVAL) {
		snprintf(why, len,
			 "the verifier refuses atomic fetch-and-add (EINVAL: "
			 "kernels before 5.12)");
		return 0;
	}
	snprintf(why, len, "atomic fetch probe failed to load: %s",
		 why_errno(err));
	return -err;
}

const char *ls_probe_why(int err)
{
	return why_errno(err < 0 ? -err : err);
}
