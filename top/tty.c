// SPDX-License-Identifier: GPL-2.0
/* tty.c - the terminal restore that a fatal signal's handler can do */
#include <curses.h>
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <term.h>
#include <termios.h>
#include <unistd.h>
#include "tty.h"

static struct termios saved;
static int tty_fd = -1;
static char undo[256];	/* mouse off, rmkx sgr0 cnorm rmcup, no padding */
static size_t undo_len;
static volatile sig_atomic_t armed;

int tty_save(int fd)
{
	if (tcgetattr(fd, &saved))
		return -1;
	tty_fd = fd;
	return 0;
}

/* Append s without its "$<5>" padding; drop it whole if it does not fit. */
static void add_str(const char *s)
{
	size_t n = undo_len;

	if (!s || s == (const char *)-1)
		return;
	for (; *s; s++) {
		if (s[0] == '$' && s[1] == '<' && strchr(s, '>')) {
			s = strchr(s, '>');
			continue;
		}
		if (n + 1 >= sizeof(undo))
			return;
		undo[n++] = *s;
	}
	undo_len = n;
}

static void add_cap(const char *cap)
{
	add_str(tigetstr(cap));
}

/*
 * Mouse reports off, as endwin() sends them: the terminal's XM string
 * with 0 (ncurses' extended capability), else, for a terminal with xterm
 * mouse reports (kmous), the modes ncurses turns on, off.
 */
static void add_mouse_off(void)
{
	const char *xm = tigetstr("XM"), *km = tigetstr("kmous");

	if (xm && xm != (const char *)-1)
		add_str(tiparm(xm, 0));
	else if (km && km != (const char *)-1 && *km)
		add_str("\033[?1006l\033[?1002l\033[?1000l");
}

void tty_arm(void)
{
	undo_len = 0;
	add_mouse_off();
	add_cap("rmkx");
	add_cap("sgr0");
	add_cap("cnorm");
	add_cap("rmcup");
	armed = tty_fd >= 0;
}

void tty_disarm(void)
{
	armed = 0;
}

void tty_restore(void)
{
	size_t done = 0;
	int e = errno;
	ssize_t r;

	if (!armed)
		return;
	armed = 0;
	while (done < undo_len) {
		r = write(tty_fd, undo + done, undo_len - done);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		done += (size_t)r;
	}
	tcsetattr(tty_fd, TCSANOW, &saved);
	errno = e;
}
