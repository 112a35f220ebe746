// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * floor_load.c - bench/floor.bpf.c's loader: turns on the kernel's BPF
 * run-time statistics, loads and attaches every program of the object,
 * says "attached", and at SIGINT or SIGTERM prints one line per program,
 * "NAME RUN_CNT RUN_TIME_NS", then exits.  Used by bench/floor.py.
 *
 * usage: floor_load OBJECT
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

int main(int argc, char **argv)
{
	struct bpf_object *obj;
	struct bpf_program *p;
	int stats_fd, err;

	if (argc != 2) {
		fprintf(stderr, "usage: floor_load OBJECT\n");
		return 2;
	}
	sigset_t block, old;

	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	/* held until sigsuspend: a signal cannot slip in before the wait */
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigprocmask(SIG_BLOCK, &block, &old);
	stats_fd = bpf_enable_stats(BPF_STATS_RUN_TIME);
	if (stats_fd < 0) {
		fprintf(stderr,
			"lockscope: failed to enable BPF run-time stats: %s\n",
			strerror(-stats_fd));
		return 1;
	}
	obj = bpf_object__open_file(argv[1], NULL);
	err = libbpf_get_error(obj);
	if (!err)
		err = bpf_object__load(obj);
	if (err) {
		fprintf(stderr, "lockscope: failed to load %s: %s\n", argv[1],
			strerror(err < 0 ? -err : err));
		return 1;
	}
	bpf_object__for_each_program(p, obj)
	{
		if (libbpf_get_error(bpf_program__attach(p))) {
			fprintf(stderr, "lockscope: failed to attach %s: %s\n",
				bpf_program__name(p), strerror(errno));
			return 1;
		}
	}
	printf("attached\n");
	fflush(stdout);
	while (!stop)
		sigsuspend(&old);
	bpf_object__for_each_program(p, obj)
	{
		struct bpf_prog_info info = {};
		__u32 len = sizeof(info);

		if (bpf_obj_get_info_by_fd(bpf_program__fd(p), &info, &len))
			continue;
		printf("%s %llu %llu\n", bpf_program__name(p),
		       (unsigned long long)info.run_cnt,
		       (unsigned long long)info.run_time_ns);
	}
	return 0;
}
