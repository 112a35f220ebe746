// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* untrusted_text.c - what of a file's text may reach a terminal: UTF-8
 * without controls (C0, DEL, C1) or bidirectional overrides. */
#include <stdint.h>
#include <string.h>
#include "export/untrusted_text.h"

#define EXCERPT_MAX 32

/*
 * Length of the character at @s and whether it is safe: returns its length
 * in bytes (1 for a byte that starts no valid UTF-8 sequence) and sets
 * *@ok.  @s is NUL-terminated: a sequence cut by the NUL is invalid.
 */
static size_t next_char(const unsigned char *s, int *ok)
{
	uint32_t cp;
	size_t n;

	*ok = 0;
	if (s[0] < 0x80) {
		*ok = s[0] >= 0x20 && s[0] != 0x7f;
		return 1;
	}
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		n = 2;
		cp = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		n = 3;
		cp = s[0] & 0x0f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		n = 4;
		cp = s[0] & 0x07;
	} else {
		return 1; /* a continuation byte, 0xc0, 0xc1 or 0xf5-0xff */
	}
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 1;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* overlong forms, UTF-16 surrogates, above U+10FFFF */
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 1;
	*ok = !(cp >= 0x80 && cp <= 0x9f) && !(cp >= 0x202a && cp <= 0x202e) &&
	      !(cp >= 0x2066 && cp <= 0x2069);
	return n;
}

int ls_text_unsafe(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	int ok;

	while (*p) {
		p += next_char(p, &ok);
		if (!ok)
			return 1;
	}
	return 0;
}

void ls_text_make_safe(char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	char *out = s;
	int ok;

	while (*p) {
		size_t n = next_char(p, &ok);

		if (ok) {
			memmove(out, p, n);
			out += n;
		} else {
			*out++ = '?';
		}
		p += n;
	}
	*out = '\0';
}

const char *ls_text_excerpt(char *buf, size_t len, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t used = 0;
	int ok;

	while (*p && used < EXCERPT_MAX) {
		size_t n = next_char(p, &ok);

		if (!ok) {
			if (used + 2 > len)
				break;
			buf[used++] = '?';
		} else {
			if (used + n + 1 > len || used + n > EXCERPT_MAX)
				break;
			memcpy(buf + used, p, n);
			used += n;
		}
		p += n;
	}
	if (len)
		buf[used < len ? used : len - 1] = '\0';
	return buf;
}
