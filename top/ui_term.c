// SPDX-License-Identifier: GPL-2.0
/*
 * ui_term.c - the terminal of the interactive mode: locale and UTF-8,
 * newterm() on stdin/stdout, raw keys, mouse reports, colors (or
 * monochrome), and tty.c's state for a fatal signal's restore.
 */
#include <curses.h>
#include <langinfo.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tty.h"
#include "ui.h"

static void setup_colors(struct ui *u)
{
	u->t.colors = has_colors() && start_color() == OK;
	if (!u->t.colors)
		return;
	use_default_colors();
	init_pair(CP_NORMAL, -1, -1);
	init_pair(CP_HEADER, COLOR_BLACK, COLOR_CYAN);
	init_pair(CP_TITLE, COLOR_CYAN, -1);
	init_pair(CP_SELECT, COLOR_BLACK, COLOR_GREEN);
	init_pair(CP_HOT, COLOR_RED, -1);
	init_pair(CP_COLD, COLOR_BLUE, -1);
	init_pair(CP_DIM, COLOR_YELLOW, -1);
}

int ui_term_start(struct ui *u, struct screen **scr)
{
	const char *cs;

	/*
	 * The character set only, as htop: numbers are read and printed
	 * the C way ("2.5", never "2,5") whatever LC_NUMERIC says.
	 */
	setlocale(LC_CTYPE, "");
	cs = nl_langinfo(CODESET);
	u->t.utf8 = cs && !strcmp(cs, "UTF-8");
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		fprintf(stderr, "idletop: the interactive view needs a "
			"terminal; use -b for batch output\n");
		return -1;
	}
	tty_save(STDOUT_FILENO);	/* for a fatal signal's handler */
	*scr = newterm(NULL, stdout, stdin);
	if (!*scr) {
		fprintf(stderr, "idletop: cannot use terminal type '%s'\n",
			getenv("TERM") ? getenv("TERM") : "");
		return -1;
	}
	raw();		/* ^C is a key (quit), not a SIGINT to the shell too */
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	set_escdelay(25);
	curs_set(0);
	mousemask(BUTTON1_CLICKED | BUTTON1_PRESSED | BUTTON4_PRESSED
#ifdef BUTTON5_PRESSED
		  | BUTTON5_PRESSED
#endif
		  , NULL);
	mouseinterval(0);
	setup_colors(u);
	tty_arm();
	return 0;
}
