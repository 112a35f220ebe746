// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * pipe_hammer THREADS SECONDS - THREADS writers and THREADS readers on one
 * pipe: they contend on the pipe's mutex (pipe->mutex, via __mutex_lock).
 * Prints "ops: N", the reads and writes that moved data, on stderr at the
 * end (stdout stays clean for an observer that runs it).
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static int fds[2];
static volatile int stop;
static unsigned long long ops;

static void *writer(void *arg)
{
	char buf[64] = {0};
	unsigned long long n = 0;

	(void)arg;
	while (!stop) {
		if (write(fds[1], buf, sizeof(buf)) < 0)
			break;
		n++;
	}
	__atomic_add_fetch(&ops, n, __ATOMIC_RELAXED);
	return NULL;
}

static void *reader(void *arg)
{
	char buf[64];
	unsigned long long n = 0;

	(void)arg;
	while (!stop) {
		if (read(fds[0], buf, sizeof(buf)) <= 0)
			break;
		n++;
	}
	__atomic_add_fetch(&ops, n, __ATOMIC_RELAXED);
	return NULL;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 2;
	int secs = argc > 2 ? atoi(argv[2]) : 3;
	pthread_t *t;

	if (n < 1 || n > 256 || secs < 1) {
		fprintf(stderr, "usage: pipe_hammer THREADS(1-256) SECONDS\n");
		return 2;
	}
	signal(SIGPIPE,
	       SIG_IGN); /* writers may outlive the readers at the end */
	t = calloc(2 * (size_t)n, sizeof(*t));
	if (!t || pipe(fds)) {
		perror("pipe_hammer");
		return 1;
	}
	for (int i = 0; i < n; i++) {
		pthread_create(&t[2 * i], NULL, writer, NULL);
		pthread_create(&t[2 * i + 1], NULL, reader, NULL);
	}
	sleep((unsigned)secs);
	stop = 1;
	/* unblock everyone: readers get EOF once writers close */
	close(fds[1]);
	for (int i = 0; i < n; i++)
		pthread_join(t[2 * i + 1], NULL);
	close(fds[0]);
	for (int i = 0; i < n; i++)
		pthread_join(t[2 * i], NULL);
	free(t);
	fprintf(stderr, "ops: %llu\n", ops);
	return 0;
}
