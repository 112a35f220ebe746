// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * fuzz_ksyms_file - libFuzzer harness for the kallsyms file reader
 * (ls_ksyms_load: its streaming read loop, then the parser) on a memfd.
 * Differential: the file streamed must give what the same bytes parsed in
 * memory give (ls_ksyms_parse), symbol for symbol, or fail as it does.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include "model/kallsyms.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1;
	static char path[64];
	struct ls_ksyms file, mem;
	int ef, em;

	if (fd < 0) {
		fd = memfd_create("kallsyms", 0);
		if (fd < 0)
			abort();
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	}
	if (ftruncate(fd, 0) || pwrite(fd, data, size, 0) != (ssize_t)size)
		abort();
	ef = ls_ksyms_load(&file, path);
	em = ls_ksyms_parse(&mem, (const char *)data, size);
	if (ef != em)
		abort();
	if (ef)
		return 0;
	if (file.n != mem.n || file.lock_text_start != mem.lock_text_start ||
	    file.lock_text_end != mem.lock_text_end)
		abort();
	for (size_t i = 0; i < file.n; i++)
		if (file.syms[i].addr != mem.syms[i].addr ||
		    file.syms[i].type != mem.syms[i].type ||
		    strcmp(file.syms[i].name, mem.syms[i].name))
			abort();
	ls_ksyms_free(&file);
	ls_ksyms_free(&mem);
	return 0;
}
