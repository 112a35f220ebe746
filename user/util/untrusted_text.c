// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* untrusted_text.c - what of untrusted text may reach an output
 * (util/untrusted_text.h): UTF-8 without controls (C0, DEL, C1) or
 * bidirectional overrides, the rest escaped; cut between characters. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "util/untrusted_text.h"

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

/* Bytes the character at @s takes once made safe (*@n: its length). */
static size_t out_len(const unsigned char *s, size_t *n)
{
	int ok;

	*n = next_char(s, &ok);
	return ok ? *n : 4 * *n;
}

/* Append the character at @s (@n bytes) made safe at @d; returns the end. */
static char *put_char(char *d, const unsigned char *s, size_t n, int ok)
{
	static const char hex[] = "0123456789abcdef";

	if (ok) {
		memcpy(d, s, n);
		return d + n;
	}
	for (size_t i = 0; i < n; i++) {
		*d++ = '\\';
		*d++ = 'x';
		*d++ = hex[s[i] >> 4];
		*d++ = hex[s[i] & 15];
	}
	return d;
}

/* The safe form of @p into @d, at most @room bytes of it; sets the bits
 * of what changed in *@what; returns the end written. */
static char *put_safe(char *d, size_t room, const unsigned char *p,
		      unsigned *what)
{
	int ok;

	while (*p) {
		size_t n = next_char(p, &ok), o = ok ? n : 4 * n;

		if (o > room) {
			*what |= LS_TEXT_CUT;
			break;
		}
		if (!ok)
			*what |= LS_TEXT_ESCAPED;
		d = put_char(d, p, n, ok);
		room -= o;
		p += n;
	}
	return d;
}

unsigned ls_text_copy(char *dst, size_t len, const char *src)
{
	unsigned what = 0;

	if (!len)
		return LS_TEXT_CUT;
	*put_safe(dst, len - 1, (const unsigned char *)src, &what) = '\0';
	return what;
}

const char *ls_text_safe(char *dst, size_t len, const char *src)
{
	ls_text_copy(dst, len, src);
	return dst;
}

unsigned ls_text_copy_tail(char *dst, size_t len, const char *src)
{
	const unsigned char *p = (const unsigned char *)src;
	size_t total = 0, n;
	unsigned what = 0;
	char *d;

	for (const unsigned char *q = p; *q; q += n)
		total += out_len(q, &n);
	if (total < len || len < 4)
		return ls_text_copy(dst, len, src);
	/* drop whole characters from the start until the rest fits after
	 * "..." */
	while (*p && total > len - 4) {
		total -= out_len(p, &n);
		p += n;
	}
	memcpy(dst, "...", 3);
	d = put_safe(dst + 3, len - 4, p, &what);
	*d = '\0';
	return what | LS_TEXT_CUT;
}

char *ls_text_trim_cut(char *s)
{
	size_t n = strlen(s), i = n, want;
	unsigned char c;

	if (!n)
		return s;
	/* back to the last byte that is not a continuation byte */
	for (i = n - 1; i > 0 && n - i < 4; i--)
		if (((unsigned char)s[i] & 0xc0) != 0x80)
			break;
	c = (unsigned char)s[i];
	if (c < 0xc0)
		return s; /* ASCII, or no lead byte: nothing cut here */
	want = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : 2;
	if (n - i < want)
		s[i] = '\0';
	return s;
}

size_t ls_text_fit(const char *s, size_t cols)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t used = 0;
	int ok;

	while (*p && cols--) {
		size_t n = next_char(p, &ok);

		p += n;
		used += n;
	}
	return used;
}

/* Print the safe form of @s, at most @cols columns of it (each safe
 * character one, each \xHH four); returns the columns printed. */
static size_t put_cols(FILE *f, const char *s, size_t cols)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t shown = 0;
	int ok;

	while (*p) {
		size_t n = next_char(p, &ok), w = ok ? 1 : 4 * n;
		char b[16];

		if (shown + w > cols)
			break;
		fwrite(b, 1, (size_t)(put_char(b, p, n, ok) - b), f);
		shown += w;
		p += n;
	}
	return shown;
}

void ls_text_put(FILE *f, const char *s)
{
	put_cols(f, s, SIZE_MAX);
}

void ls_text_pad(FILE *f, const char *s, size_t cols)
{
	for (size_t shown = put_cols(f, s, cols); shown < cols; shown++)
		fputc(' ', f);
}
