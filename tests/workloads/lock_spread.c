// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * lock_spread PIPES SECONDS [THREADS] - contention spread over many locks:
 * PIPES pipes, each with its own pipe mutex.  THREADS threads (default 4)
 * walk the pipes together, a few writes and reads on each before all move
 * on to the next, so the threads meet on every pipe's mutex: each pass
 * over the pipes puts up to PIPES distinct contended mutexes into an
 * observer's lock table.  When the open-file limit cannot hold two
 * descriptors a pipe, the pipes are shared out over several processes,
 * each with THREADS threads, which take turns: one share walks at a time,
 * a whole pass over its pipes, so that its threads still meet on every
 * mutex (all at once, the machine's CPUs would rarely run two threads of
 * the same share together).  Prints "pipes: N" once every pipe is open
 * and, at the end, "ops: N", the writes and reads that moved data, and
 * "visits: N", the visits to a pipe (PER_PIPE operations each), all on
 * stderr.  SIGINT or SIGTERM ends the walk early, still with the counts.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/futex.h>

#define PER_PIPE 16 /* operations on one pipe before the walk moves on */
#define CHUNK 1024  /* bytes a write or read moves: copied under the mutex */
#define SPARE_FDS 64

static int (*fds)[2];
static unsigned long npipes;
static unsigned long long next_op, ops;
static volatile sig_atomic_t stop;
static pid_t *kids;
static unsigned long nkids;
/* shares: whose turn it is (shared memory), this share's number, how many */
static unsigned *turn;
static unsigned long me, nshares;

/* SIGINT/SIGTERM end the walk; the parent passes them to the children. */
static void on_stop(int sig)
{
	(void)sig;
	stop = 1;
	for (unsigned long i = 0; i < nkids; i++)
		kill(kids[i], SIGTERM);
}

/* Block until this share's turn (or the end: the wait times out). */
static void wait_turn(void)
{
	unsigned t;

	while (!stop &&
	       (t = __atomic_load_n(turn, __ATOMIC_ACQUIRE)) % nshares != me) {
		struct timespec ts = {0, 100000000};

		syscall(SYS_futex, turn, FUTEX_WAIT, t, &ts, NULL, 0);
	}
}

static void *walker(void *arg)
{
	unsigned long long n = 0, pass = (unsigned long long)PER_PIPE * npipes;
	char buf[CHUNK] = {0};

	(void)arg;
	while (!stop) {
		unsigned long long k;
		int *p;

		if (turn)
			wait_turn();
		k = __atomic_fetch_add(&next_op, 1, __ATOMIC_RELAXED);
		p = fds[(k / PER_PIPE) % npipes];
		n += write(p[1], buf, sizeof(buf)) > 0;
		n += read(p[0], buf, sizeof(buf)) > 0;
		if (turn && (k + 1) % pass == 0) { /* a pass done: next share */
			__atomic_add_fetch(turn, 1, __ATOMIC_RELEASE);
			syscall(SYS_futex, turn, FUTEX_WAKE, INT_MAX, NULL,
				NULL, 0);
		}
	}
	__atomic_add_fetch(&ops, n, __ATOMIC_RELAXED);
	return NULL;
}

/* One process's share: open @n pipes, tell @ready, walk them for @secs. */
static int spread(unsigned long n, int nthreads, int secs, int ready)
{
	pthread_t *t = calloc((size_t)nthreads, sizeof(*t));
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 &&
	    rl.rlim_cur < 2 * n + SPARE_FDS) {
		rl.rlim_cur = 2 * n + SPARE_FDS;
		if (setrlimit(RLIMIT_NOFILE, &rl)) {
			perror("lock_spread: raising the open-file limit");
			return 1;
		}
	}
	npipes = n;
	fds = calloc(n, sizeof(*fds));
	if (!fds || !t) {
		perror("lock_spread");
		return 1;
	}
	for (unsigned long i = 0; i < n; i++)
		if (pipe2(fds[i], O_NONBLOCK | O_CLOEXEC)) {
			perror("lock_spread: pipe2");
			return 1;
		}
	if (write(ready, "r", 1) != 1)
		return 1;
	for (int i = 0; i < nthreads; i++)
		pthread_create(&t[i], NULL, walker, NULL);
	for (int s = 0; s < secs && !stop; s++)
		sleep(1); /* a signal cuts the second short */
	stop = 1;
	for (int i = 0; i < nthreads; i++)
		pthread_join(t[i], NULL);
	return 0;
}

int main(int argc, char **argv)
{
	long pipes = argc > 1 ? atol(argv[1]) : 1000;
	int secs = argc > 2 ? atoi(argv[2]) : 10;
	int nthreads = argc > 3 ? atoi(argv[3]) : 4;
	unsigned long per_proc, nproc, done = 0;
	unsigned long long *total; /* [0] ops, [1] visits, of every share; [2]
				    * holds the turn */
	struct rlimit rl;
	int ready[2], rc = 0;
	char c;

	if (pipes < 1 || pipes > 1000000 || secs < 1 || nthreads < 2 ||
	    nthreads > 256) {
		fprintf(stderr, "usage: lock_spread PIPES(1-1000000) SECONDS "
				"[THREADS(2-256)]\n");
		return 2;
	}
	if (getrlimit(RLIMIT_NOFILE, &rl) || rl.rlim_max < 3 * SPARE_FDS) {
		fprintf(stderr, "lock_spread: open-file limit too low\n");
		return 1;
	}
	per_proc = rl.rlim_max == RLIM_INFINITY
			   ? (unsigned long)pipes
			   : (unsigned long)(rl.rlim_max - SPARE_FDS) / 2;
	nproc = ((unsigned long)pipes + per_proc - 1) / per_proc;
	total = mmap(NULL, 3 * sizeof(*total), PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	kids = calloc(nproc, sizeof(*kids));
	if (total == MAP_FAILED || !kids || pipe(ready)) {
		perror("lock_spread");
		return 1;
	}
	total[0] = total[1] = total[2] = 0;
	signal(SIGINT, on_stop);
	signal(SIGTERM, on_stop);
	if (nproc == 1) { /* one process: -p PID names it */
		rc = spread((unsigned long)pipes, nthreads, secs, ready[1]);
		if (!rc)
			fprintf(stderr, "pipes: %ld\n", pipes);
		fprintf(stderr, "ops: %llu\nvisits: %llu\n", ops,
			next_op / PER_PIPE);
		return rc;
	}
	for (unsigned long i = 0; i < nproc; i++) {
		unsigned long n =
			i + 1 < nproc ? per_proc : (unsigned long)pipes - done;
		pid_t pid = fork();

		if (pid < 0) {
			perror("lock_spread: fork");
			return 1;
		}
		if (!pid) {
			nkids = 0; /* a child stops only itself */
			turn = (unsigned *)&total[2];
			me = i;
			nshares = nproc;
			close(ready[0]);
			rc = spread(n, nthreads, secs, ready[1]);
			__atomic_add_fetch(&total[0], ops, __ATOMIC_RELAXED);
			__atomic_add_fetch(&total[1], next_op / PER_PIPE,
					   __ATOMIC_RELAXED);
			_exit(rc);
		}
		kids[nkids++] = pid;
		done += n;
	}
	close(ready[1]);
	for (unsigned long i = 0; i < nproc; i++)
		if (read(ready[0], &c, 1) != 1)
			rc = 1; /* a share failed to open its pipes */
	if (!rc)
		fprintf(stderr, "pipes: %ld\n", pipes);
	for (unsigned long i = 0; i < nproc; i++) {
		int st;
		pid_t w;

		while ((w = wait(&st)) < 0 && errno == EINTR)
			; /* on_stop ran: the children finish their walk */
		if (w < 0 || !WIFEXITED(st) || WEXITSTATUS(st))
			rc = 1;
	}
	fprintf(stderr, "ops: %llu\nvisits: %llu\n", total[0], total[1]);
	return rc;
}
