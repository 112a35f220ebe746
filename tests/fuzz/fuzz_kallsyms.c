// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * fuzz_kallsyms - libFuzzer harness for the kallsyms parser and everything
 * that reads its result: lookups, clone matching, callers from stacks and
 * lock naming.  Input: kallsyms-format text.
 */
#include <stdint.h>
#include <string.h>
#include "model/kallsyms.h"
#include "model/model.h"
#include "model/naming.h"

static const char *const bases[] = {"osq_lock", "__mutex_lock",
				    "rwsem_down_write_slowpath", ""};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ls_ksyms ks;
	const struct ls_ksym *found[8], *s, *next;
	uint64_t ips[LS_STACK_DEPTH] = {0};
	static struct ls_row row;
	size_t n;

	if (ls_ksyms_parse(&ks, (const char *)data, size))
		return 0;
	/* every symbol: found at its address, its end beyond it */
	for (size_t i = 0; i < ks.n; i++) {
		s = ls_ksyms_find(&ks, ks.syms[i].addr, &next);
		if (!s || s->addr != ks.syms[i].addr)
			__builtin_trap();
		if (next && next->addr <= s->addr)
			__builtin_trap();
		if (ls_ksyms_end(&ks, s) && ls_ksyms_end(&ks, s) <= s->addr)
			__builtin_trap();
		if (i < LS_STACK_DEPTH)
			ips[i] = ks.syms[i].addr + (i & 1);
		ls_sym_is_clone_of(ks.syms[i].name, bases[i % 4]);
	}
	for (size_t b = 0; b < sizeof(bases) / sizeof(*bases); b++) {
		n = ls_ksyms_clones(&ks, bases[b], found, 8);
		for (size_t i = 0; i < n; i++)
			if (!ls_sym_is_clone_of(found[i]->name, bases[b]))
				__builtin_trap();
	}
	ls_ksyms_find(&ks, 0, &next);
	ls_ksyms_find(&ks, ~0ULL, &next);
	ls_caller_of(&ks, ips, LS_STACK_DEPTH);
	/* name a lock at each of a few addresses, with and without --addr */
	for (size_t i = 0; i < ks.n && i < 8; i++) {
		memset(&row, 0, sizeof(row));
		row.key.addr = ks.syms[i].addr + i * 8;
		row.key.kind = (uint32_t)(i % (LS_KIND_MAX + 1));
		row.st.known = (uint32_t)(i % (LS_KNOWN_MAX + 1));
		if (i & 1)
			ls_row_add_caller(&row, ks.syms[i].name, i + 1);
		ls_name_row(&ks, &row, NULL, (int)(i & 2));
		if (!memchr(row.name, '\0', sizeof(row.name)))
			__builtin_trap();
	}
	ls_ksyms_free(&ks);
	return 0;
}
