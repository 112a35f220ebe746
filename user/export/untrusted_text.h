/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * untrusted_text.h - text from files lockscope did not necessarily write
 * (records given to compare), before any of it reaches a terminal.
 *
 * Unsafe: C0 controls and DEL, C1 controls (U+0080-U+009F, which some
 * terminals take as CSI and OSC), the bidirectional overrides and isolates
 * (U+202A-U+202E, U+2066-U+2069, which reorder what follows them), and
 * bytes that are not UTF-8 (a terminal in an 8-bit mode reads 0x9b as CSI).
 * Everything else, other UTF-8 text included, is kept.
 */
#ifndef LS_EXPORT_UNTRUSTED_TEXT_H
#define LS_EXPORT_UNTRUSTED_TEXT_H

#include <stddef.h>

/* 1 when @s holds an unsafe character. */
int ls_text_unsafe(const char *s);
/* Replace every unsafe character of @s (all its bytes) with one '?', in
 * place. */
void ls_text_make_safe(char *s);
/* At most 32 bytes of @s for a one-line message, made safe, never cut
 * inside a character; returns @buf. */
const char *ls_text_excerpt(char *buf, size_t len, const char *s);

#endif
