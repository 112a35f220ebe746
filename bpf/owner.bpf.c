// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * owner.bpf.c - who holds a lock, asked on demand.
 *
 * One "syscall" program, run by user space through BPF_PROG_TEST_RUN with a
 * struct ls_owner_args as its context.  It reads the lock's owner word with
 * bpf_probe_read_kernel (fault-safe: a lock freed since it was seen gives an
 * error or a word user space cannot confirm, never a crash), and the pid,
 * tgid and comm of the task the word points to.  User space checks that task
 * against /proc before it believes it.  Nothing here runs on a lock path.
 *
 * Kept apart from lockscope.bpf.c so a kernel that refuses sleepable
 * "syscall" programs loses the owner and nothing else.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include "lockscope.h"
#include "decide.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

_Static_assert(sizeof(((struct ls_owner_args *)0)->comm) == TASK_COMM_LEN,
	       "ls_owner_args.comm holds a task's comm");

/* Field layouts that differ between kernels, resolved by CO-RE. */
struct mutex___owner {
	atomic_long_t owner;
} __attribute__((preserve_access_index));

struct rw_semaphore___owner {
	atomic_long_t count;
	atomic_long_t owner;
} __attribute__((preserve_access_index));

struct rt_mutex_base___owner {
	struct task_struct *owner;
} __attribute__((preserve_access_index));

SEC("syscall")
int read_owner(struct ls_owner_args *a)
{
	__u64 addr = a->addr, word = 0, count = 0;
	__u32 kind = a->kind, tid = 0, tgid = 0;
	struct task_struct *t;
	char comm[TASK_COMM_LEN] = {};
	long err = -2; /* ENOENT: kind without an owner word */

	if (kind == LS_KIND_MUTEX &&
	    bpf_core_field_exists(struct mutex___owner, owner)) {
		struct mutex___owner *m = (void *)addr;

		err = bpf_probe_read_kernel(&word, sizeof(word),
					    &m->owner.counter);
	} else if ((kind == LS_KIND_RWSEM_R || kind == LS_KIND_RWSEM_W) &&
		   bpf_core_field_exists(struct rw_semaphore___owner, owner)) {
		struct rw_semaphore___owner *s = (void *)addr;

		err = bpf_probe_read_kernel(&count, sizeof(count),
					    &s->count.counter);
		if (!err)
			err = bpf_probe_read_kernel(&word, sizeof(word),
						    &s->owner.counter);
	} else if (kind == LS_KIND_RT_MUTEX &&
		   bpf_core_field_exists(struct rt_mutex_base___owner, owner)) {
		struct rt_mutex_base___owner *r = (void *)addr;

		err = bpf_probe_read_kernel(&word, sizeof(word), &r->owner);
	}
	a->owner = word;
	a->count = count;
	a->err = (__s32)err;
	if (err)
		return 0;
	t = (struct task_struct *)ls_owner_addr(word);
	if (!t)
		return 0;
	err = bpf_probe_read_kernel(&tid, sizeof(tid), &t->pid);
	if (!err)
		err = bpf_probe_read_kernel(&tgid, sizeof(tgid), &t->tgid);
	if (!err && bpf_probe_read_kernel_str(comm, sizeof(comm), t->comm) < 0)
		err = -14; /* EFAULT */
	a->err = (__s32)err;
	a->tid = tid;
	a->tgid = tgid;
	__builtin_memcpy(a->comm, comm, sizeof(comm));
	return 0;
}
