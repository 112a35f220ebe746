// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "util/untrusted_text.h"

/* "é" is 2 bytes, "€" 3, U+1F512 (a lock) 4. */
#define E_ACUTE "\xc3\xa9"
#define EURO "\xe2\x82\xac"
#define LOCK "\xf0\x9f\x94\x92"

static void escapes_controls_keeps_text(void **state)
{
	char b[64];

	(void)state;
	assert_int_equal(ls_text_copy(b, sizeof(b), "/a/b" E_ACUTE EURO), 0);
	assert_string_equal(b, "/a/b" E_ACUTE EURO);
	/* quotes and backslashes are text, not controls */
	assert_int_equal(ls_text_copy(b, sizeof(b), "a\"b\\c"), 0);
	assert_string_equal(b, "a\"b\\c");
	assert_int_equal(ls_text_copy(b, sizeof(b), "x\x1b[2Jy\tz\n"),
			 LS_TEXT_ESCAPED);
	assert_string_equal(b, "x\\x1b[2Jy\\x09z\\x0a");
	/* C1 CSI, a right-to-left override, a lone continuation byte, an
	 * overlong '/' and DEL */
	assert_int_equal(
		ls_text_copy(b, sizeof(b),
			     "\xc2\x9b|\xe2\x80\xae|\x80|\xc0\xaf|\x7f"),
		LS_TEXT_ESCAPED);
	assert_string_equal(b, "\\xc2\\x9b|\\xe2\\x80\\xae|\\x80|\\xc0\\xaf|"
			       "\\x7f");
	assert_false(ls_text_unsafe(b));
}

static void escaped_text_is_safe_and_stable(void **state)
{
	char a[64], b[64];

	(void)state;
	assert_int_equal(ls_text_copy(a, sizeof(a), "\xc2\x9b|\x80|\x7f"),
			 LS_TEXT_ESCAPED);
	assert_string_equal(a, "\\xc2\\x9b|\\x80|\\x7f");
	assert_false(ls_text_unsafe(a));
	/* once safe, copying again changes nothing */
	assert_int_equal(ls_text_copy(b, sizeof(b), a), 0);
	assert_string_equal(a, b);
	/* two names that differ only in their controls stay distinct */
	ls_text_copy(a, sizeof(a), "a\tb");
	ls_text_copy(b, sizeof(b), "a\nb");
	assert_string_not_equal(a, b);
}

/* Every cut of a multibyte name ends on a character boundary. */
static void cuts_between_characters(void **state)
{
	char src[64] = "", b[32];

	(void)state;
	for (int i = 0; i < 10; i++)
		strcat(src, i % 2 ? EURO : LOCK);
	for (size_t len = 4; len < sizeof(b); len++) {
		unsigned w = ls_text_copy(b, len, src);

		assert_int_equal(w, LS_TEXT_CUT);
		assert_true(strlen(b) < len);
		assert_true(strlen(b) + 4 >=
			    len); /* no more than a char lost */
		assert_false(ls_text_unsafe(b));
		assert_memory_equal(b, src, strlen(b));
	}
	/* an escape is never split: \x1b is 4 bytes, 3 fit */
	assert_int_equal(ls_text_copy(b, 6, "ab\x1b"), LS_TEXT_CUT);
	assert_string_equal(b, "ab");
}

static void tail_keeps_the_end(void **state)
{
	char src[600], b[256];
	size_t n = 0;

	(void)state;
	for (int i = 0; n < 500; i++) {
		const char *c = i % 3 == 0 ? "/" : i % 3 == 1 ? E_ACUTE : EURO;

		memcpy(src + n, c, strlen(c));
		n += strlen(c);
	}
	src[n] = '\0';
	for (size_t len = 8; len <= sizeof(b); len += 7) {
		assert_int_equal(ls_text_copy_tail(b, len, src), LS_TEXT_CUT);
		assert_true(strlen(b) < len);
		assert_true(strlen(b) + 3 >= len - 1);
		assert_memory_equal(b, "...", 3);
		assert_false(ls_text_unsafe(b));
		assert_string_equal(b + 3, src + n - (strlen(b) - 3));
	}
	/* short enough: unchanged, no marker */
	assert_int_equal(ls_text_copy_tail(b, sizeof(b), "/a/" EURO), 0);
	assert_string_equal(b, "/a/" EURO);
	/* escapes count in the length and are never split */
	memset(src, 'a', 300);
	strcpy(src + 300, "\x1b\x1b");
	assert_int_equal(ls_text_copy_tail(b, 10, src),
			 LS_TEXT_CUT | LS_TEXT_ESCAPED);
	assert_string_equal(b, "...\\x1b");
	assert_int_equal(ls_text_copy_tail(b, 13, src),
			 LS_TEXT_CUT | LS_TEXT_ESCAPED);
	assert_string_equal(b, "...a\\x1b\\x1b");
}

static void trims_a_cut_character(void **state)
{
	const char *full = "ab" EURO LOCK;
	char b[16];

	(void)state;
	/* every byte-wise cut of "ab€🔒" loses at most the cut character */
	for (size_t len = 1; len <= strlen(full) + 1; len++) {
		snprintf(b, len, "%s", full);
		ls_text_trim_cut(b);
		assert_false(ls_text_unsafe(b));
		assert_memory_equal(b, full, strlen(b));
		assert_true(!strcmp(b, "") || !strcmp(b, "a") ||
			    !strcmp(b, "ab") || !strcmp(b, "ab" EURO) ||
			    !strcmp(b, full));
	}
	strcpy(b, "ab" EURO);
	assert_string_equal(ls_text_trim_cut(b), "ab" EURO);
}

static void fits_and_pads_in_columns(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	assert_int_equal(ls_text_fit(E_ACUTE EURO LOCK "abc", 3), 9);
	assert_int_equal(ls_text_fit("ab", 5), 2);
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	ls_text_pad(f, EURO EURO EURO, 2);
	fputc('|', f);
	ls_text_pad(f, E_ACUTE, 3);
	fputc('|', f);
	ls_text_pad(f, "a\x1b", 5); /* a\x1b is five columns */
	fputc('|', f);
	ls_text_pad(f, "a\x1b", 4); /* the escape does not fit: cut */
	fclose(f);
	assert_string_equal(buf, EURO EURO "|" E_ACUTE "  |a\\x1b|a   ");
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(escapes_controls_keeps_text),
		cmocka_unit_test(escaped_text_is_safe_and_stable),
		cmocka_unit_test(cuts_between_characters),
		cmocka_unit_test(tail_keeps_the_end),
		cmocka_unit_test(trims_a_cut_character),
		cmocka_unit_test(fits_and_pads_in_columns),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
