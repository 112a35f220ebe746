/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * kernel_abi.h - the kernel's own constants that lockscope mirrors: the
 * contention tracepoint's flags, the flag bits of mutex, rwsem and rt_mutex
 * owner words and of the rwsem count word, and task_struct.blocker's type
 * bits.  None of them is in BTF (they are #defines in the kernel), so they
 * are copied here, each with the source it comes from and the assert that
 * keeps the copy self-consistent.  decide.h makes the decisions that read
 * them; the BPF objects and user space include this through decide.h.
 */
#ifndef LS_KERNEL_ABI_H
#define LS_KERNEL_ABI_H

/* lock:contention_begin flags (include/trace/events/lock.h, LCB_F_*) */
#define LS_LCB_SPIN (1U << 0)
#define LS_LCB_READ (1U << 1)
#define LS_LCB_WRITE (1U << 2)
#define LS_LCB_RT (1U << 3)
#define LS_LCB_PERCPU (1U << 4)
#define LS_LCB_MUTEX (1U << 5)
_Static_assert((LS_LCB_SPIN | LS_LCB_READ | LS_LCB_WRITE | LS_LCB_RT |
		LS_LCB_PERCPU | LS_LCB_MUTEX) == 0x3f,
	       "contention flags are six distinct bits");

/* Owner words of mutex and rwsem (kernel/locking/mutex.c MUTEX_FLAGS,
 * rwsem.c RWSEM_OWNER_FLAGS_MASK): a task pointer, flags in the low bits. */
#define LS_OWNER_FLAGS 0x7ULL /* low bits of owner words that are flags */
#define LS_RWSEM_READER_OWNED 0x1ULL /* rwsem owner word: readers hold it */
_Static_assert((LS_RWSEM_READER_OWNED & ~LS_OWNER_FLAGS) == 0,
	       "the reader-owned bit is one of the owner word's flags");

/* The rwsem count word (kernel/locking/rwsem.c RWSEM_WRITER_LOCKED,
 * RWSEM_READER_SHIFT). */
#define LS_RWSEM_WRITER_LOCKED 0x1ULL /* a writer holds it */
#define LS_RWSEM_READER_SHIFT 8	      /* readers counted from bit 8 */
_Static_assert((LS_RWSEM_WRITER_LOCKED >> LS_RWSEM_READER_SHIFT) == 0,
	       "the writer bit lies below the reader count");

/* task_struct.blocker: the lock address, its type in the low 2 bits
 * (include/linux/hung_task.h, BLOCKER_TYPE_*) */
enum ls_blocker_type {
	LS_BLOCKER_MUTEX = 0,
	LS_BLOCKER_SEM,
	LS_BLOCKER_RWSEM_READER,
	LS_BLOCKER_RWSEM_WRITER,
};
#define LS_BLOCKER_TYPE_MASK 0x3ULL
_Static_assert(LS_BLOCKER_RWSEM_WRITER <= LS_BLOCKER_TYPE_MASK,
	       "every blocker type fits the type bits");

#endif /* LS_KERNEL_ABI_H */
