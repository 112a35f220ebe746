/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * untrusted_text.h - the one rule for text lockscope did not write itself
 * (cgroup names, comms, symbol files, records given to compare and report)
 * before any of it reaches a terminal, a page, a file or a scrape: what is
 * unsafe, how it is replaced, and how such text is cut.
 *
 * Unsafe: C0 controls and DEL, C1 controls (U+0080-U+009F, which some
 * terminals take as CSI and OSC), the bidirectional overrides and isolates
 * (U+202A-U+202E, U+2066-U+2069, which reorder what follows them), and
 * bytes that are not UTF-8 (a terminal in an 8-bit mode reads 0x9b as CSI).
 * Everything else, other UTF-8 text included, is kept.  Text is only ever
 * cut between characters: never inside a UTF-8 sequence or an escape.
 */
#ifndef LS_UTIL_UNTRUSTED_TEXT_H
#define LS_UTIL_UNTRUSTED_TEXT_H

#include <stddef.h>
#include <stdio.h>

/* What making a text safe changed (bits of the ls_text_copy result). */
enum ls_text_change {
	LS_TEXT_ESCAPED = 1U << 0, /* unsafe bytes written as \xHH */
	LS_TEXT_CUT = 1U << 1,	   /* too long: cut between characters */
};

/* 1 when @s holds an unsafe character. */
int ls_text_unsafe(const char *s);
/* Replace every unsafe character of @s (all its bytes) with one '?', in
 * place (where the text may not grow: a record's own fields). */
void ls_text_make_safe(char *s);
/* At most 32 bytes of @s for a one-line message, made safe, never cut
 * inside a character; returns @buf. */
const char *ls_text_excerpt(char *buf, size_t len, const char *s);
/* @src made safe into @dst (@len > 3 bytes, the NUL included): every byte
 * of an unsafe character written as \xHH (so distinct names stay
 * distinct), cut at the end when it does not fit.  Returns the
 * enum ls_text_change bits of what changed, 0 for a plain copy. */
unsigned ls_text_copy(char *dst, size_t len, const char *src);
/* ls_text_copy() for a message: returns @dst (a path or a name the user
 * gave, echoed in an error: "file '%s'"). */
const char *ls_text_safe(char *dst, size_t len, const char *src);
/* The same, but a @src that does not fit keeps its end behind "..." (a
 * path: its last components name it, its first may name an ancestor). */
unsigned ls_text_copy_tail(char *dst, size_t len, const char *src);
/* Drop the incomplete UTF-8 sequence a byte-wise cut (snprintf into a
 * buffer too small) may have left at the end of @s; returns @s. */
char *ls_text_trim_cut(char *s);
/* Bytes of the longest start of @s that ends between two characters and
 * holds at most @cols characters.  Columns here count characters: a wide
 * (CJK) character takes two on a terminal, so its line is a little wider,
 * never cut inside a character. */
size_t ls_text_fit(const char *s, size_t cols);
/* Print @s made safe (unsafe bytes as \xHH), whole. */
void ls_text_put(FILE *f, const char *s);
/* Print @s in @cols columns (as ls_text_fit counts them): made safe, cut
 * between characters, padded with spaces (a table cell of untrusted text,
 * where "%-40.40s" would cut bytes). */
void ls_text_pad(FILE *f, const char *s, size_t cols);

#endif
