// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* comm.c - a task's comm, read from /proc (waiting tasks, lock owners). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "collect/collector_int.h"

/* comm of @tid in process @tgid from /proc; 0 or -errno. */
int ls_read_comm(uint32_t tgid, uint32_t tid, char *buf, size_t len)
{
	char path[64];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%u/task/%u/comm", tgid, tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n <= 0)
		return n < 0 ? -errno : -ENOENT;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}
