// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * whatif_hammer SECONDS [A B] - the known answer for `lockscope whatif`.
 * Group A (A threads, default 2, pinned to alternate CPUs so that they
 * overlap) read 16 KiB chunks at the shared position of one open file:
 * each read copies with the file's f_pos_lock (a mutex) held, so group
 * A's throughput is bounded by that mutex (file.f_pos_lock).  Group B (B
 * threads, default 2, in a forked process of its own, pinned the same way)
 * loops mmap/munmap and contends on that process's mmap_lock; its progress is
 * not counted.  Prints "ops: N", the chunks group A read, on stderr.
 */
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define CHUNK (16 * 1024)

static int fds[1];
static int ncpu;
static int next_cpu;
static volatile int stop;
static unsigned long long ops;

/* Pin the calling thread to the next CPU, round robin. */
static void pin(void)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(__atomic_fetch_add(&next_cpu, 1, __ATOMIC_RELAXED) % ncpu,
		&set);
	sched_setaffinity(0, sizeof(set), &set);
}

/* Group A: read CHUNK bytes at the shared file position (the read copies
 * with file->f_pos_lock held), back to the start at the end. */
static void *reader(void *arg)
{
	static __thread char buf[CHUNK];
	unsigned long long n = 0;

	(void)arg;
	pin();
	while (!stop) {
		ssize_t r = read(fds[0], buf, sizeof(buf));

		if (r < 0)
			break;
		if (!r && lseek(fds[0], 0, SEEK_SET) < 0)
			break;
		n += r > 0;
	}
	__atomic_add_fetch(&ops, n, __ATOMIC_RELAXED);
	return NULL;
}

static void *mapper(void *arg)
{
	(void)arg;
	pin();
	while (!stop) {
		void *p = mmap(NULL, 1 << 20, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED)
			break;
		*(volatile char *)p = 1;
		munmap(p, 1 << 20);
	}
	return NULL;
}

/* Group A's file: 1 MiB in the page cache, unlinked, one description
 * shared by the threads (so every read takes its f_pos_lock). */
static int open_file(void)
{
	char path[] = "/tmp/whatif_hammer.XXXXXX";
	static char buf[CHUNK];

	fds[0] = mkstemp(path);
	if (fds[0] < 0)
		return 1;
	unlink(path);
	for (int i = 0; i < (1 << 20) / CHUNK; i++)
		if (write(fds[0], buf, sizeof(buf)) != sizeof(buf))
			return 1;
	return lseek(fds[0], 0, SEEK_SET) < 0;
}

static void on_signal(int sig)
{
	(void)sig; /* interrupts a blocked read or write (no SA_RESTART) */
}

/* @n threads (odd ones @fn2 when given) for @secs, then stop them: a
 * thread blocked on the pipe is woken by SIGUSR1 until it has ended. */
static int run(int n, double secs, void *(*fn)(void *), void *(*fn2)(void *))
{
	struct timespec d = {(time_t)secs,
			     (long)((secs - (double)(time_t)secs) * 1e9)};
	struct timespec step = {0, 1000000L};
	pthread_t t[64];

	for (int i = 0; i < n; i++)
		if (pthread_create(&t[i], NULL, fn2 && (i & 1) ? fn2 : fn,
				   NULL))
			return 1;
	nanosleep(&d, NULL);
	stop = 1;
	for (int i = 0; i < n; i++)
		while (pthread_tryjoin_np(t[i], NULL)) {
			pthread_kill(t[i], SIGUSR1);
			nanosleep(&step, NULL);
		}
	return 0;
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 3;
	int a = argc > 2 ? atoi(argv[2]) : 2, b = argc > 3 ? atoi(argv[3]) : 2;
	struct sigaction sa = {0};
	pid_t pid;
	int st;

	if (secs <= 0 || a < 2 || a > 64 || b < 0 || b > 64) {
		fprintf(stderr, "usage: whatif_hammer SECONDS [A B]\n");
		return 2;
	}
	ncpu = (int)sysconf(_SC_NPROCESSORS_ONLN);
	if (ncpu < 1)
		ncpu = 1;
	sa.sa_handler = on_signal;
	sigaction(SIGUSR1, &sa, NULL);
	pid = b ? fork() : 1;
	if (pid < 0)
		return 1;
	if (!pid) /* group B */
		_exit(run(b, secs, mapper, NULL));
	if (open_file() || run(a, secs, reader, NULL))
		return 1;
	if (b)
		waitpid(pid, &st, 0);
	fprintf(stderr, "ops: %llu\n", ops);
	return 0;
}
