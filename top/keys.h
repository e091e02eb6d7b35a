/* SPDX-License-Identifier: GPL-2.0 */
/*
 * keys.h - the one key table: ui.c dispatches through keys_lookup() and
 * the help screen lists the same table, so they cannot disagree.
 */
#ifndef IDLETOP_KEYS_H
#define IDLETOP_KEYS_H

#include <stddef.h>

enum action {
	A_NONE, A_UP, A_DOWN, A_PGUP, A_PGDN, A_HOME, A_END,
	A_ZOOM_IN, A_ZOOM_OUT, A_TOGGLE, A_EXPAND, A_COLLAPSE, A_DETAIL,
	A_SORT_NEXT, A_SORT_PREV, A_SORT_REV, A_SORT_MENU, A_FILTER,
	A_SEARCH, A_SEARCH_NEXT, A_CLEAR, A_FLAT, A_COLUMNS, A_SELECT,
	A_MOVE_UP, A_MOVE_DOWN, A_PAUSE, A_DELAY, A_PERIOD, A_UNITS, A_MOUSE,
	A_HELP, A_BACK, A_QUIT,
	A_NR
};

/* Screens a binding works on (bit mask). */
#define S_TREE		1u
#define S_DETAIL	2u
#define S_HELP		4u
#define S_COLUMNS	8u	/* column chooser */
#define S_SORTBY	16u	/* sort menu */
#define S_MENU		(S_COLUMNS | S_SORTBY)
#define S_ALL		(S_TREE | S_DETAIL | S_HELP | S_MENU)

struct key_binding {
	int key;		/* ncurses key code or character */
	const char *label;	/* as shown in help */
	enum action act;
	unsigned screens;
};

extern const struct key_binding keys_table[];
extern const size_t keys_count;

/* Action of key on screen, A_NONE when unbound. */
enum action keys_lookup(unsigned screen, int key);
/* One line of help text for an action. */
const char *keys_help(enum action a);
/* Label of the first key bound to a on screen, or NULL. */
const char *keys_label(unsigned screen, enum action a);

#endif
