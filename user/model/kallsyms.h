/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* kallsyms.h - the one kallsyms loader: symbols sorted by address. */
#ifndef LS_KALLSYMS_H
#define LS_KALLSYMS_H

#include <stddef.h>
#include <stdint.h>

#define LS_SYM_MAX 512 /* longest symbol name kept, NUL included */
/* Bounds on input: a real kallsyms is about 10 MB, lines under 600 bytes. */
#define LS_KSYMS_LINE_MAX 4096
#define LS_KSYMS_FILE_MAX (64 << 20)

struct ls_ksym {
	uint64_t addr;
	char type;	  /* nm-style: t T w W d D b B r R ... */
	const char *name; /* points into the loader's string pool */
};

struct ls_ksyms {
	struct ls_ksym *syms;
	size_t n, cap;
	char *pool;
	size_t pool_len, pool_cap;
	uint64_t lock_text_start, lock_text_end; /* 0 when unknown */
};

/*
 * Load from a kallsyms-format file, streamed; 0 or -errno: -EPERM
 * addresses hidden, -ENODATA no symbol, -EMSGSIZE a line longer than
 * LS_KSYMS_LINE_MAX, -EFBIG more than LS_KSYMS_FILE_MAX bytes (the last
 * two: not a kallsyms file).
 */
int ls_ksyms_load(struct ls_ksyms *ks, const char *path);
/* Parse from memory (tests, fuzzers); same contract. */
int ls_ksyms_parse(struct ls_ksyms *ks, const char *buf, size_t len);
/* What an error of the two above means, in words. */
const char *ls_ksyms_strerror(int err);
void ls_ksyms_free(struct ls_ksyms *ks);

/* Symbol at or below @addr (NULL if below the first); @next gets the next one.
 */
const struct ls_ksym *ls_ksyms_find(const struct ls_ksyms *ks, uint64_t addr,
				    const struct ls_ksym **next);
/* End of @sym: address of the next symbol with a higher address, or 0. */
uint64_t ls_ksyms_end(const struct ls_ksyms *ks, const struct ls_ksym *sym);

/* True when @name is @base or @base plus compiler clone suffixes
 * (.constprop.N, .isra.N, .part.N, .llvm.N, .cold, .localalias). */
int ls_sym_is_clone_of(const char *name, const char *base);
/* Fill @out with the text symbols that are @base or a clone of it. */
size_t ls_ksyms_clones(const struct ls_ksyms *ks, const char *base,
		       const struct ls_ksym **out, size_t max);
/* Is the symbol a data symbol (d, D, b, B, r, R)? */
int ls_ksym_is_data(const struct ls_ksym *s);

#endif
