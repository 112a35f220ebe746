// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* tui.c - ncurses: draw top_text.h's lines, read keys, restore. */
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <curses.h>
#include "util/log.h"
#include "view/tui.h"
#include <term.h> /* after them: its macros (cur_term, lines) clash */

static SCREEN *screen;
static int active;
static char *log_buf; /* messages collected while the screen is up */
static size_t log_len;

static void flush_log(void)
{
	if (!ls_log_stream)
		return;
	fclose(ls_log_stream);
	ls_log_stream = NULL;
	if (log_buf && log_len)
		fwrite(log_buf, 1, log_len, stderr);
	free(log_buf);
	log_buf = NULL;
	log_len = 0;
}

void ls_tui_stop(void)
{
	if (!active)
		return;
	active = 0;
	endwin();
	delscreen(screen);
	screen = NULL;
	fflush(stdout);
	flush_log();
}

/* A crash must not leave the terminal in raw mode on the alternate screen. */
static void on_fatal(int sig)
{
	if (active) {
		active = 0;
		endwin();
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

const char *ls_tui_unusable(char *buf, size_t len)
{
	const char *term = getenv("TERM");
	char shown[48];
	size_t n = 0;
	int err = 0, ok;

	if (!term || !*term)
		return "TERM is not set";
	/* the name as given, but only printable ASCII reaches the terminal */
	for (const char *c = term; *c && n + 1 < sizeof(shown); c++)
		shown[n++] = *c > 0x20 && *c < 0x7f ? *c : '?';
	shown[n] = '\0';
	if (setupterm(term, STDOUT_FILENO, &err) != OK) {
		snprintf(buf, len, "terminal type '%s' is unknown to terminfo",
			 shown);
		return buf;
	}
	{
		const char *cup = tigetstr("cup"), *clear = tigetstr("clear");

		/* a screen needs cursor addressing and clearing; hard-copy
		 * and generic types (dumb) have neither */
		ok = cup && cup != (char *)-1 && clear && clear != (char *)-1 &&
		     tigetflag("hc") <= 0 && tigetflag("gn") <= 0;
	}
	del_curterm(cur_term);
	if (ok)
		return NULL;
	snprintf(buf, len,
		 "terminal type '%s' cannot move the cursor or clear the "
		 "screen",
		 shown);
	return buf;
}

int ls_tui_start(void)
{
	static int registered;
	static const int fatal[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
	struct sigaction sa;
	const char *term = getenv("TERM");

	if (active)
		return 0;
	setlocale(LC_CTYPE, ""); /* numbers stay in the C locale */
	ls_log_stream = open_memstream(&log_buf, &log_len);
	screen = newterm(NULL, stdout, stdin);
	if (!screen) {
		char obj[96];

		flush_log();
		snprintf(obj, sizeof(obj), "terminal type '%.64s'",
			 term ? term : "");
		ls_fail("start the full-screen view on", obj,
			"unknown to terminfo");
		ls_hint("set TERM, or use -b for plain text frames");
		return -1;
	}
	active = 1;
	if (!registered) {
		atexit(ls_tui_stop);
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_fatal;
		sa.sa_flags = SA_RESETHAND;
		sigemptyset(&sa.sa_mask);
		for (size_t i = 0; i < sizeof(fatal) / sizeof(*fatal); i++)
			sigaction(fatal[i], &sa, NULL);
		registered = 1;
	}
	cbreak(); /* Ctrl-C still raises SIGINT: ls_stop ends the loop */
	noecho();
	keypad(stdscr, TRUE);
	intrflush(stdscr, FALSE);
	set_escdelay(25);
	curs_set(0);
	return 0;
}

int ls_tui_key(int ms)
{
	int ch;

	if (!active)
		return -1;
	timeout(ms < 0 ? 0 : ms);
	ch = getch();
	switch (ch) {
	case ERR:
		return -1;
	case KEY_RESIZE:
		return LS_TUI_RESIZE;
	case KEY_UP:
		return LS_KEY_UP;
	case KEY_DOWN:
		return LS_KEY_DOWN;
	case KEY_LEFT:
		return LS_KEY_LEFT;
	case KEY_RIGHT:
		return LS_KEY_RIGHT;
	case KEY_PPAGE:
		return LS_KEY_PGUP;
	case KEY_NPAGE:
		return LS_KEY_PGDN;
	case KEY_HOME:
		return LS_KEY_HOME;
	case KEY_END:
		return LS_KEY_END;
	case KEY_ENTER:
		return LS_KEY_ENTER;
	case KEY_BACKSPACE:
		return LS_KEY_BACKSPACE;
	default:
		if (ch >= KEY_F(1) && ch <= KEY_F(12))
			return LS_KEY_F0 + (ch - KEY_F0);
		return ch < 256 ? ch : -1;
	}
}

static void line(int y, int x, const char *s, attr_t a)
{
	if (y < 0 || y >= LINES || x >= COLS)
		return;
	if (a)
		attron(a);
	mvaddnstr(y, x, s, COLS - x);
	if (a)
		attroff(a);
}

/* A bar across the screen: @s on a reversed background. */
static void bar(int y, const char *s)
{
	attron(A_REVERSE);
	mvhline(y, 0, ' ', COLS);
	mvaddnstr(y, 0, s, COLS);
	attroff(A_REVERSE);
}

static void draw_list(struct ls_top *t, const struct ls_top_frame *fr, int y,
		      int bottom)
{
	struct ls_top_layout l;
	char buf[LS_TOP_LINE];
	int col = ls_top_sort_col(t->sort);

	ls_top_layout(&l, COLS);
	ls_top_titles(buf, sizeof(buf), &l);
	bar(y, buf);
	if (col >= 0 && l.shown[col] && l.x[col] < COLS) {
		/* the sort column's title stands out of the bar */
		int w = l.w[col] < COLS - l.x[col] ? l.w[col] : COLS - l.x[col];

		mvchgat(y, l.x[col], w, A_BOLD | A_UNDERLINE, 0, NULL);
	}
	y++;
	ls_top_set_page(t, bottom > y ? (unsigned)(bottom - y) : 1);
	if (!fr->delta) {
		line(y, 0, "collecting ...", 0);
		return;
	}
	if (!t->nview) {
		if (t->filter[0] || t->nrows_all)
			snprintf(buf, sizeof(buf),
				 "no lock matches the filter (%zu contended)",
				 t->nrows_all);
		else
			snprintf(buf, sizeof(buf),
				 "no lock was contended in the last %.1fs",
				 fr->secs);
		line(y, 0, buf, 0);
		return;
	}
	for (size_t i = t->top; i < t->nview && y < bottom; i++, y++) {
		ls_top_row(buf, sizeof(buf), t->view[i], fr->secs, &l);
		if (i == t->sel) {
			attron(A_REVERSE);
			mvhline(y, 0, ' ', COLS);
			mvaddnstr(y, 0, buf, COLS);
			attroff(A_REVERSE);
		} else {
			line(y, 0, buf, 0);
		}
	}
}

/* Draw text (detail, help) from line t->scroll on. */
static void draw_text(struct ls_top *t, const char *text, int y, int bottom)
{
	size_t nlines = 0, first;
	const char *p;

	for (p = text; *p; p++)
		nlines += *p == '\n';
	t->page = bottom > y ? (unsigned)(bottom - y) : 1;
	if (nlines > t->page && t->scroll > nlines - t->page)
		t->scroll = nlines - t->page;
	if (nlines <= t->page)
		t->scroll = 0;
	first = t->scroll;
	for (p = text; *p && y < bottom;) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);

		if (first) {
			first--;
		} else {
			mvaddnstr(y, 0, p,
				  (int)(n < (size_t)COLS ? n : (size_t)COLS));
			y++;
		}
		p += n + (nl ? 1 : 0);
	}
}

static void draw_menu(struct ls_top *t, int y, int bottom)
{
	char buf[80];

	line(y++, 0, "Sort by:", A_BOLD);
	for (unsigned i = 0; i < ls_top_nsorts && y < bottom; i++, y++) {
		enum ls_sort s = ls_top_sort_order[i];

		snprintf(buf, sizeof(buf), " %c %-16s",
			 s == t->sort ? '*' : ' ', ls_top_sort_label(s));
		line(y, 0, buf, i == t->menu ? A_REVERSE : 0);
	}
}

void ls_tui_draw(struct ls_top *t, const struct ls_top_frame *fr,
		 const struct ls_owner *owner)
{
	char hdr[LS_TOP_HEADER_LINES][LS_TOP_LINE], buf[LS_TOP_LINE];
	unsigned n;
	int y, bottom;

	if (!active)
		return;
	erase();
	if (COLS < 40 || LINES < 10) {
		line(0, 0, "lockscope: terminal too small (40x10 at least)", 0);
		refresh();
		return;
	}
	/* a page of text keeps only the first two header lines */
	n = ls_top_header(t, fr, COLS, hdr,
			  t->mode == LS_TOP_LIST ? LS_TOP_HEADER_LINES : 2);
	for (unsigned i = 0; i < n; i++)
		line((int)i, 0, hdr[i], i == 0 ? A_BOLD : 0);
	y = (int)n;
	bottom = LINES - 1;
	if (t->mode == LS_TOP_DETAIL || t->mode == LS_TOP_HELP) {
		char *text = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&text, &len);

		if (f) {
			if (t->mode == LS_TOP_HELP)
				ls_top_help(f);
			else
				ls_top_detail(f, t, fr, owner, COLS);
			fclose(f);
			draw_text(t, text ? text : "", y, bottom);
		}
		free(text);
	} else if (t->mode == LS_TOP_SORTMENU) {
		draw_menu(t, y + 1, bottom);
	} else {
		draw_list(t, fr, y, bottom);
	}
	ls_top_status(buf, sizeof(buf), t);
	bar(LINES - 1, buf);
	if (t->editing) {
		/* show where typing goes */
		size_t at = strlen("filter: ") + strlen(t->filter);

		move(LINES - 1, at < (size_t)COLS ? (int)at : COLS - 1);
	}
	refresh();
}
