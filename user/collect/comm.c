// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* comm.c - a task's comm, read from /proc (waiting tasks, lock owners) and
 * made safe to print: any user can name a task with terminal escapes. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "collect/collector_int.h"
#include "util/untrusted_text.h"

/* comm of @tid in process @tgid from /proc, made safe
 * (util/untrusted_text.h) into @buf; 0 or -errno. */
int ls_read_comm(uint32_t tgid, uint32_t tid, char *buf, size_t len)
{
	char path[64], raw[32];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%u/task/%u/comm", tgid, tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, raw, sizeof(raw) - 1);
	close(fd);
	if (n <= 0)
		return n < 0 ? -errno : -ENOENT;
	raw[n] = '\0';
	if (raw[n - 1] == '\n') /* the kernel's own line end */
		raw[n - 1] = '\0';
	ls_text_copy(buf, len, raw);
	return 0;
}
