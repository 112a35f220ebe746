// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* kallsyms.c - the one kallsyms loader: stream-parse within bounds, sort
 * by address, look up the function (or data symbol) holding an address. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/types.h>
#include "model/kallsyms.h"
#include "util/untrusted_text.h"

static int pool_add(struct ls_ksyms *ks, const char *s, size_t len, size_t *off)
{
	if (ks->pool_len + len + 1 > ks->pool_cap) {
		size_t cap = ks->pool_cap ? ks->pool_cap * 2 : 1 << 20;
		char *p;

		while (cap < ks->pool_len + len + 1)
			cap *= 2;
		p = realloc(ks->pool, cap);
		if (!p)
			return -ENOMEM;
		ks->pool = p;
		ks->pool_cap = cap;
	}
	memcpy(ks->pool + ks->pool_len, s, len);
	ks->pool[ks->pool_len + len] = '\0';
	*off = ks->pool_len;
	ks->pool_len += len + 1;
	return 0;
}

static int cmp_sym(const void *a, const void *b)
{
	const struct ls_ksym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return 0;
}

/* Parse one "ADDR TYPE NAME [MODULE]" line; 1 kept, 0 skipped, -errno. */
static int parse_line(struct ls_ksyms *ks, const char *p, const char *end,
		      int *all_zero)
{
	uint64_t addr = 0;
	const char *name;
	char nm[LS_SYM_MAX];
	size_t len, off;
	char type;
	int digits = 0;

	while (p < end && isxdigit((unsigned char)*p)) {
		int c = tolower((unsigned char)*p++);

		if (digits++ >= 16)
			return 0;
		addr = addr * 16 + (c <= '9' ? c - '0' : c - 'a' + 10);
	}
	if (!digits || p >= end || *p != ' ')
		return 0;
	p++;
	if (p >= end || !isalpha((unsigned char)*p))
		return 0;
	type = *p++;
	if (p >= end || *p != ' ')
		return 0;
	name = ++p;
	while (p < end && *p != ' ' && *p != '\t')
		p++;
	len = (size_t)(p - name);
	if (!len)
		return 0;
	if (len >= LS_SYM_MAX)
		len = LS_SYM_MAX - 1;
	/* a kernel names its symbols in plain text: a file (--kallsyms) whose
	 * names hold controls is not one, and they would reach the screen */
	memcpy(nm, name, len);
	nm[len] = '\0';
	ls_text_trim_cut(nm);
	len = strlen(nm);
	if (!len || ls_text_unsafe(nm))
		return 0;
	if (addr)
		*all_zero = 0;
	if (ks->n == ks->cap) {
		size_t cap = ks->cap ? ks->cap * 2 : 4096;
		struct ls_ksym *s = realloc(ks->syms, cap * sizeof(*s));

		if (!s)
			return -ENOMEM;
		ks->syms = s;
		ks->cap = cap;
	}
	if (pool_add(ks, nm, len, &off))
		return -ENOMEM;
	ks->syms[ks->n].addr = addr;
	ks->syms[ks->n].type = type;
	ks->syms[ks->n].name = (const char *)(uintptr_t)off; /* fixed below */
	ks->n++;
	return 1;
}

/* Names point into the pool once it stops moving; sort; find markers. */
static int finish(struct ls_ksyms *ks, int all_zero)
{
	int sorted = 1;

	if (!ks->n) {
		ls_ksyms_free(ks);
		return -ENODATA;
	}
	if (all_zero) {
		ls_ksyms_free(ks);
		return -EPERM;
	}
	for (size_t i = 0; i < ks->n; i++) {
		ks->syms[i].name = ks->pool + (uintptr_t)ks->syms[i].name;
		sorted &= !i || ks->syms[i - 1].addr <= ks->syms[i].addr;
	}
	/* /proc/kallsyms comes sorted: a stable sort would change nothing */
	if (!sorted)
		qsort(ks->syms, ks->n, sizeof(*ks->syms), cmp_sym);
	for (size_t i = 0; i < ks->n; i++) {
		const char *name = ks->syms[i].name;

		if (name[0] != '_' || name[1] != '_') /* cheap first test */
			continue;
		if (!strcmp(name, "__lock_text_start"))
			ks->lock_text_start = ks->syms[i].addr;
		else if (!strcmp(name, "__lock_text_end"))
			ks->lock_text_end = ks->syms[i].addr;
	}
	return 0;
}

/*
 * Parse the complete lines in [@p, @end), the last one too when @eof;
 * returns the bytes consumed or -errno.  A line above LS_KSYMS_LINE_MAX
 * bytes fails, finished or not: no kallsyms line comes near it.
 */
static ssize_t parse_lines(struct ls_ksyms *ks, const char *p, const char *end,
			   int eof, int *all_zero)
{
	const char *start = p;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		int err;

		if (le - p > LS_KSYMS_LINE_MAX)
			return -EMSGSIZE;
		if (!nl && !eof)
			break;
		err = parse_line(ks, p, le, all_zero);
		if (err < 0)
			return err;
		p = nl ? nl + 1 : end;
	}
	return p - start;
}

int ls_ksyms_parse(struct ls_ksyms *ks, const char *buf, size_t len)
{
	int all_zero = 1;
	ssize_t n;

	memset(ks, 0, sizeof(*ks));
	if (len > LS_KSYMS_FILE_MAX)
		return -EFBIG;
	n = parse_lines(ks, buf, buf + len, 1, &all_zero);
	if (n < 0) {
		ls_ksyms_free(ks);
		return (int)n;
	}
	return finish(ks, all_zero);
}

/*
 * Stream the file through a fixed buffer: memory grows with the symbols
 * kept, never with the input, and reading stops after LS_KSYMS_FILE_MAX
 * bytes or a line longer than LS_KSYMS_LINE_MAX (/dev/zero fails at once).
 */
int ls_ksyms_load(struct ls_ksyms *ks, const char *path)
{
	enum { CHUNK = 1 << 16 };
	char *buf;
	size_t have = 0, total = 0;
	int fd, all_zero = 1, err = 0;

	memset(ks, 0, sizeof(*ks));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	buf = malloc(CHUNK + LS_KSYMS_LINE_MAX);
	if (!buf) {
		close(fd);
		return -ENOMEM;
	}
	for (;;) {
		ssize_t r = read(fd, buf + have, CHUNK), n;

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			err = -errno;
			break;
		}
		total += (size_t)r;
		if (total > LS_KSYMS_FILE_MAX) {
			err = -EFBIG;
			break;
		}
		have += (size_t)r;
		n = parse_lines(ks, buf, buf + have, r == 0, &all_zero);
		if (n < 0) {
			err = (int)n;
			break;
		}
		if (r == 0)
			break;
		/* the unfinished line, at most LS_KSYMS_LINE_MAX, moves up */
		have -= (size_t)n;
		memmove(buf, buf + n, have);
	}
	close(fd);
	free(buf);
	if (err) {
		ls_ksyms_free(ks);
		return err;
	}
	return finish(ks, all_zero);
}

const char *ls_ksyms_strerror(int err)
{
	switch (err < 0 ? -err : err) {
	case EMSGSIZE:
		return "a line is longer than 4096 bytes: not a kallsyms file";
	case EFBIG:
		return "larger than 64 MiB: not a kallsyms file";
	case ENODATA:
		return "no symbol in it";
	case EPERM:
		return "every address reads 0: addresses are hidden";
	default:
		return strerror(err < 0 ? -err : err);
	}
}

void ls_ksyms_free(struct ls_ksyms *ks)
{
	free(ks->syms);
	free(ks->pool);
	memset(ks, 0, sizeof(*ks));
}

const struct ls_ksym *ls_ksyms_find(const struct ls_ksyms *ks, uint64_t addr,
				    const struct ls_ksym **next)
{
	size_t lo = 0, hi = ks->n;

	if (next)
		*next = NULL;
	if (!ks->n || addr < ks->syms[0].addr)
		return NULL;
	while (hi - lo > 1) { /* invariant: syms[lo].addr <= addr */
		size_t mid = lo + (hi - lo) / 2;

		if (ks->syms[mid].addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	if (next) {
		size_t j = lo + 1;

		while (j < ks->n && ks->syms[j].addr == ks->syms[lo].addr)
			j++;
		*next = j < ks->n ? &ks->syms[j] : NULL;
	}
	return &ks->syms[lo];
}

uint64_t ls_ksyms_end(const struct ls_ksyms *ks, const struct ls_ksym *sym)
{
	const struct ls_ksym *next;

	ls_ksyms_find(ks, sym->addr, &next);
	return next ? next->addr : 0;
}

static int suffix_ok(const char *s)
{
	static const char *const words[] = {"constprop", "isra", "part",
					    "llvm",	 "cold", "localalias"};

	/* s points at '.'; accept chains like .constprop.0.isra.0 */
	while (*s == '.') {
		size_t i, n;

		s++;
		for (i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
			n = strlen(words[i]);
			if (!strncmp(s, words[i], n) &&
			    (s[n] == '.' || s[n] == '\0'))
				break;
		}
		if (i == sizeof(words) / sizeof(words[0]))
			return 0;
		s += n;
		if (*s == '.' && isdigit((unsigned char)s[1])) {
			s++;
			while (isdigit((unsigned char)*s))
				s++;
		}
	}
	return *s == '\0';
}

int ls_sym_is_clone_of(const char *name, const char *base)
{
	size_t n = strlen(base);

	if (strncmp(name, base, n))
		return 0;
	return name[n] == '\0' || suffix_ok(name + n);
}

/* A scan of every symbol (about 120k) per name asked: start-up asks for
 * dozens, so the first byte and the length are checked before the rest. */
size_t ls_ksyms_clones(const struct ls_ksyms *ks, const char *base,
		       const struct ls_ksym **out, size_t max)
{
	size_t found = 0, n = strlen(base);

	for (size_t i = 0; i < ks->n && found < max; i++) {
		const char *name = ks->syms[i].name;
		char t = ks->syms[i].type;

		if (name[0] != base[0] || strncmp(name, base, n))
			continue;
		if (t != 't' && t != 'T' && t != 'w' && t != 'W')
			continue;
		if (name[n] == '\0' || suffix_ok(name + n))
			out[found++] = &ks->syms[i];
	}
	return found;
}

int ls_ksym_is_data(const struct ls_ksym *s)
{
	return strchr("dDbBrR", s->type) != NULL;
}
