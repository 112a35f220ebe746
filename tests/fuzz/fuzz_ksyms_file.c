// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * fuzz_ksyms_file - libFuzzer harness for the kallsyms file reader
 * (ls_ksyms_load: its read loop, then the parser) on a memfd.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/mman.h>
#include "model/kallsyms.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1;
	static char path[64];
	struct ls_ksyms ks;

	if (fd < 0) {
		fd = memfd_create("kallsyms", 0);
		if (fd < 0)
			abort();
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	}
	if (ftruncate(fd, 0) || pwrite(fd, data, size, 0) != (ssize_t)size)
		abort();
	if (!ls_ksyms_load(&ks, path))
		ls_ksyms_free(&ks);
	return 0;
}
