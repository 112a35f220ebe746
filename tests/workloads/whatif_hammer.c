// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * whatif_hammer SECONDS [A B] - the known answer for `lockscope whatif`.
 * Group A (A threads, default 4: half write, half read one pipe) moves
 * 64-byte messages through the pipe: its throughput is bounded by the
 * pipe's mutex (pipe_inode_info.mutex).  Group B (B threads, default 2,
 * in a forked process of its own) loops mmap/munmap and contends on that
 * process's mmap_lock; its progress is not counted.  Prints "ops: N", the
 * messages group A moved, on stderr at the end.
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int fds[2];
static volatile int stop;
static unsigned long long ops;

static void *writer(void *arg)
{
	char buf[64] = {0};

	(void)arg;
	while (!stop)
		if (write(fds[1], buf, sizeof(buf)) < 0)
			break;
	return NULL;
}

static void *reader(void *arg)
{
	char buf[64];
	unsigned long long n = 0;

	(void)arg;
	while (!stop) {
		ssize_t r = read(fds[0], buf, sizeof(buf));

		if (r <= 0)
			break;
		n += (unsigned long long)r;
	}
	__atomic_add_fetch(&ops, n / 64, __ATOMIC_RELAXED);
	return NULL;
}

static void *mapper(void *arg)
{
	(void)arg;
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
	int a = argc > 2 ? atoi(argv[2]) : 4, b = argc > 3 ? atoi(argv[3]) : 2;
	struct sigaction sa = {0};
	pid_t pid;
	int st;

	if (secs <= 0 || a < 2 || a > 64 || b < 0 || b > 64) {
		fprintf(stderr, "usage: whatif_hammer SECONDS [A B]\n");
		return 2;
	}
	sa.sa_handler = on_signal;
	sigaction(SIGUSR1, &sa, NULL);
	pid = b ? fork() : 1;
	if (pid < 0)
		return 1;
	if (!pid) /* group B */
		_exit(run(b, secs, mapper, NULL));
	if (pipe(fds) || run(a, secs, writer, reader))
		return 1;
	if (b)
		waitpid(pid, &st, 0);
	fprintf(stderr, "ops: %llu\n", ops);
	return 0;
}
