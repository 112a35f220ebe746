// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * holder_hammer MODE SECONDS - holders of one pipe mutex in a known state.
 *
 *   pinned  two threads mprotect 64 MiB of their own, populated, back and
 *           forth (mmap_lock held for writing throughout, cond_resched()
 *           every 2 MiB: where a kernel without preemption switches), both
 *           pinned to CPU 0 with a third thread spinning there: whoever
 *           waits runs while the holder is off the CPU, preempted;
 *   spread  the same two threads on CPUs 0 and 1, no spinner;
 *   pipe    two threads write and read one pipe (pipe->mutex), unpinned;
 *   sleep   one thread writes from a page registered with userfaultfd: the
 *           copy inside pipe_write faults and blocks until a handler thread
 *           resolves it (after 2 ms), the pipe mutex held; a second thread
 *           writes and reads the pipe meanwhile: its holder sleeps.
 *
 * Prints "tids: A B" (the two contending threads) and "ops: N" on stderr.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define BUF 4096
#define MAP (64 << 20)

static int fds[2], uffd = -1;
static volatile int stop, handler_stop;
static unsigned long long ops;
static char *trap; /* the userfaultfd page */
static pid_t tids[2];

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		perror("holder_hammer: sched_setaffinity");
}

struct arg {
	int idx, cpu; /* cpu < 0: not pinned */
	int from_trap;
	int mmap; /* contend on mmap_lock, not the pipe */
};

/* Write a page into the pipe, read it back: both under pipe->mutex. */
static void *contender(void *p)
{
	const struct arg *a = p;
	static char zero[BUF];
	char in[BUF];
	unsigned long long n = 0;

	tids[a->idx] = (pid_t)syscall(SYS_gettid);
	if (a->cpu >= 0)
		pin(a->cpu);
	if (a->mmap) {
		char *m =
			mmap(NULL, MAP, PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);

		while (!stop && m != MAP_FAILED) {
			if (mprotect(m, MAP, PROT_READ) ||
			    mprotect(m, MAP, PROT_READ | PROT_WRITE))
				break;
			n++;
		}
	}
	while (!stop && !a->mmap) {
		if (a->from_trap) {
			/* re-arm: the next write faults again */
			madvise(trap, BUF, MADV_DONTNEED);
			if (write(fds[1], trap, BUF) < 0 && errno != EAGAIN)
				break;
		} else if (write(fds[1], zero, BUF) < 0 && errno != EAGAIN) {
			break;
		}
		if (read(fds[0], in, BUF) < 0 && errno != EAGAIN)
			break;
		n++;
	}
	__atomic_add_fetch(&ops, n, __ATOMIC_RELAXED);
	return NULL;
}

static void *spinner(void *p)
{
	(void)p;
	pin(0);
	while (!stop)
		;
	return NULL;
}

/* Resolve each fault on the trap page 2 ms late. */
static void *fault_handler(void *p)
{
	static char page[BUF];
	struct uffd_msg msg;
	struct pollfd pfd = {.fd = uffd, .events = POLLIN};

	(void)p;
	while (!handler_stop) { /* until the faulting thread is done */
		struct uffdio_copy cp = {0};
		struct timespec ts = {0, 2000000};

		if (poll(&pfd, 1, 100) <= 0)
			continue;
		if (read(uffd, &msg, sizeof(msg)) != sizeof(msg) ||
		    msg.event != UFFD_EVENT_PAGEFAULT)
			continue;
		nanosleep(&ts, NULL);
		cp.dst = (unsigned long)trap;
		cp.src = (unsigned long)page;
		cp.len = BUF;
		ioctl(uffd, UFFDIO_COPY, &cp);
	}
	return NULL;
}

static int setup_trap(void)
{
	struct uffdio_api api = {.api = UFFD_API};
	struct uffdio_register reg = {0};

	uffd = (int)syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK);
	if (uffd < 0 || ioctl(uffd, UFFDIO_API, &api))
		return -1;
	trap = mmap(NULL, BUF, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (trap == MAP_FAILED)
		return -1;
	reg.range.start = (unsigned long)trap;
	reg.range.len = BUF;
	reg.mode = UFFDIO_REGISTER_MODE_MISSING;
	return ioctl(uffd, UFFDIO_REGISTER, &reg);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	int secs = argc > 2 ? atoi(argv[2]) : 0;
	struct arg a[2] = {{0, -1, 0, 0}, {1, -1, 0, 0}};
	pthread_t t[2], extra;
	int have_extra = 0;

	if (secs < 1 || (strcmp(mode, "pinned") && strcmp(mode, "spread") &&
			 strcmp(mode, "pipe") && strcmp(mode, "sleep"))) {
		fprintf(stderr, "usage: holder_hammer pinned|spread|pipe|sleep "
				"SECONDS\n");
		return 2;
	}
	if (pipe2(fds, O_NONBLOCK)) {
		perror("holder_hammer: pipe");
		return 1;
	}
	if (!strcmp(mode, "pinned")) {
		a[0].cpu = a[1].cpu = 0;
		a[0].mmap = a[1].mmap = 1;
		have_extra = !pthread_create(&extra, NULL, spinner, NULL);
	} else if (!strcmp(mode, "spread")) {
		a[0].cpu = 0;
		a[1].cpu = 1;
		a[0].mmap = a[1].mmap = 1;
	} else if (!strcmp(mode, "sleep")) {
		if (setup_trap()) {
			perror("holder_hammer: userfaultfd");
			return 1;
		}
		a[0].from_trap = 1;
		have_extra = !pthread_create(&extra, NULL, fault_handler, NULL);
	}
	for (int i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, contender, &a[i]);
	sleep((unsigned)secs);
	stop = 1;
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	handler_stop = 1;
	if (have_extra)
		pthread_join(extra, NULL);
	fprintf(stderr, "tids: %d %d\nops: %llu\n", (int)tids[0], (int)tids[1],
		ops);
	return 0;
}
