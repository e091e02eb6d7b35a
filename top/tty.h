/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tty.h - put the terminal back from a signal handler.  endwin() is not
 * async-signal-safe, so the TUI records, while it starts, the termios it
 * found and the terminfo strings that undo its screen (mouse reports
 * off: XM with 0, or xterm's modes; rmcup: leave the alternate screen,
 * cnorm: show the cursor, sgr0: plain attributes, rmkx: keypad off);
 * tty_restore() then needs only write() and tcsetattr(), both
 * async-signal-safe.
 */
#ifndef IDLETOP_TTY_H
#define IDLETOP_TTY_H

/* Before newterm(): the modes of terminal fd to restore.  0 or -1. */
int tty_save(int fd);
/* After newterm(): the strings of the terminal type; arms tty_restore. */
void tty_arm(void);
/* After endwin(): nothing left to restore. */
void tty_disarm(void);
/* Async-signal-safe; once at most, and only while armed. */
void tty_restore(void);

#endif
