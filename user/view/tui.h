/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * tui.h - the full-screen view of `lockscope top` (ncurses).
 *
 * Puts top_text.h's lines on the screen and hands keys back as LS_KEY_*
 * values; the state lives in struct ls_top, the data comes from cmd_top.c.
 * While the screen is up, lockscope's and libbpf's messages are collected
 * (ls_log_stream) and printed once the terminal is restored.  The terminal
 * is restored on every way out: ls_tui_stop(), exit() (atexit), and fatal
 * signals; SIGINT/SIGTERM/SIGHUP stop the command loop through ls_stop.
 */
#ifndef LS_VIEW_TUI_H
#define LS_VIEW_TUI_H

#include "model/model.h"
#include "view/top_model.h"
#include "view/top_text.h"

#define LS_TUI_RESIZE (-2) /* ls_tui_key: the terminal changed size */

/* Why the terminal on standard output (TERM, terminfo) cannot hold the
 * full-screen view: unset, unknown, or without cursor addressing and
 * clearing (TERM=dumb); NULL when it can.  In @buf or a literal. */
const char *ls_tui_unusable(char *buf, size_t len);
/* Take over the terminal; 0, or -1 after printing why. */
int ls_tui_start(void);
/* Give the terminal back and print the messages collected meanwhile.  Safe
 * to call more than once. */
void ls_tui_stop(void);
/* Wait up to @ms for a key: a character or LS_KEY_*, LS_TUI_RESIZE, or -1. */
int ls_tui_key(int ms);
/* Draw the whole screen; sets t->page to the rows that fit. */
void ls_tui_draw(struct ls_top *t, const struct ls_top_frame *fr,
		 const struct ls_owner *owner);

#endif
