// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mmap_hammer THREADS SECONDS - THREADS threads of one process loop
 * mmap/touch/munmap of 128 MiB: writers of the process's mmap_lock rwsem.
 * Prints "ops: N", the mmap/munmap cycles done, on stderr at the end
 * (stdout stays clean for an observer that runs it: hist --json -- ...).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#define SIZE (128UL << 20)

static volatile int stop;
static unsigned long long ops;

static void *hammer(void *arg)
{
	long page = sysconf(_SC_PAGESIZE);
	unsigned long long n = 0;

	(void)arg;
	while (!stop) {
		char *p = mmap(NULL, SIZE, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED)
			break;
		/* a few faults take the lock for reading too */
		for (unsigned long off = 0; off < SIZE; off += SIZE / 16)
			p[off] = 1;
		(void)page;
		munmap(p, SIZE);
		n++;
	}
	__atomic_add_fetch(&ops, n, __ATOMIC_RELAXED);
	return NULL;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 4;
	int secs = argc > 2 ? atoi(argv[2]) : 3;
	pthread_t *t;

	if (n < 1 || n > 256 || secs < 1) {
		fprintf(stderr, "usage: mmap_hammer THREADS(1-256) SECONDS\n");
		return 2;
	}
	t = calloc((size_t)n, sizeof(*t));
	if (!t)
		return 1;
	for (int i = 0; i < n; i++)
		pthread_create(&t[i], NULL, hammer, NULL);
	sleep((unsigned)secs);
	stop = 1;
	for (int i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	free(t);
	fprintf(stderr, "ops: %llu\n", ops);
	return 0;
}
