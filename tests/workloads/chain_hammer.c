// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * chain_hammer SECONDS - a wait-for chain made on purpose: two writers copy
 * into one pipe from the first pages of a 64 MiB mapping, pages a third
 * thread keeps dropping (madvise MADV_DONTNEED), so each copy faults with
 * the pipe's mutex held; a fourth thread loops on mprotect of the whole
 * mapping (every page populated: each call rewrites 16k page table
 * entries), holding the process's mmap_lock for writing and the mapping
 * write-locked, so the faults fall back to mmap_lock for reading and wait.
 * The writer waiting on the pipe mutex then waits for a holder that waits
 * on mmap_lock, held by the mprotect thread: pipe_inode_info.mutex <-
 * mm_struct.mmap_lock <- mprotect.  A reader drains the pipe.
 * Prints the writer tids ("writers: T1 T2") and "ops: N" on stderr.
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define BUF (64 * 4096) /* the source pages, dropped and faulted in */
#define MAP (64 << 20)	/* the mapping mprotect rewrites */

static int fds[2];
static volatile int stop;
static unsigned long long ops;
static char *src;

static void *writer(void *arg)
{
	unsigned long long n = 0;

	*(pid_t *)arg = gettid();
	while (!stop) {
		if (write(fds[1], src, 16 * 4096) < 0)
			break;
		n++;
	}
	__atomic_add_fetch(&ops, n, __ATOMIC_RELAXED);
	return NULL;
}

/* Reads a page at a time: the pipe mutex is taken often. */
static void *reader(void *arg)
{
	static char buf[4096];

	(void)arg;
	while (!stop)
		if (read(fds[0], buf, sizeof(buf)) <= 0)
			break;
	return NULL;
}

/* Drops the source pages: the next copy faults them in again. */
static void *zapper(void *arg)
{
	(void)arg;
	while (!stop)
		madvise(src, BUF, MADV_DONTNEED);
	return NULL;
}

/* Rewrites the mapping's protection: mmap_lock held for writing. */
static void *protector(void *arg)
{
	(void)arg;
	while (!stop) {
		mprotect(src, MAP, PROT_READ);
		mprotect(src, MAP, PROT_READ | PROT_WRITE);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	int secs = argc > 1 ? atoi(argv[1]) : 3;
	pthread_t t[5];
	pid_t tids[2] = {0, 0};

	if (secs < 1) {
		fprintf(stderr, "usage: chain_hammer SECONDS\n");
		return 2;
	}
	signal(SIGPIPE, SIG_IGN);
	src = mmap(NULL, MAP, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (src == MAP_FAILED || pipe(fds)) {
		perror("chain_hammer");
		return 1;
	}
	memset(src, 1, MAP);
	pthread_create(&t[0], NULL, writer, &tids[0]);
	pthread_create(&t[1], NULL, writer, &tids[1]);
	pthread_create(&t[2], NULL, reader, NULL);
	pthread_create(&t[3], NULL, zapper, NULL);
	pthread_create(&t[4], NULL, protector, NULL);
	sleep((unsigned)secs);
	stop = 1;
	close(fds[1]);
	pthread_join(t[2], NULL);
	close(fds[0]);
	for (int i = 0; i < 5; i++)
		if (i != 2)
			pthread_join(t[i], NULL);
	fprintf(stderr, "writers: %d %d\nops: %llu\n", (int)tids[0],
		(int)tids[1], ops);
	return 0;
}
