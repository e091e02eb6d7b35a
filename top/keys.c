// SPDX-License-Identifier: GPL-2.0
/* keys.c - key bindings (top/htop habits) and what each action does */
#include <curses.h>
#include "keys.h"

#define ESC 27
#define CTRL(c) ((c) & 0x1f)

/* Order matters only for help: bindings of one action are listed together. */
const struct key_binding keys_table[] = {
	{ KEY_UP, "Up", A_UP, S_ALL },
	{ 'k', "k", A_UP, S_ALL },
	{ KEY_DOWN, "Down", A_DOWN, S_ALL },
	{ 'j', "j", A_DOWN, S_ALL },
	{ KEY_PPAGE, "PgUp", A_PGUP, S_ALL },
	{ CTRL('b'), "^B", A_PGUP, S_ALL },
	{ KEY_NPAGE, "PgDn", A_PGDN, S_ALL },
	{ CTRL('f'), "^F", A_PGDN, S_ALL },
	{ KEY_HOME, "Home", A_HOME, S_ALL },
	{ 'g', "g", A_HOME, S_ALL },
	{ KEY_END, "End", A_END, S_ALL },
	{ 'G', "G", A_END, S_ALL },
	{ KEY_MOUSE, "Mouse", A_MOUSE, S_TREE | S_MENU },
	{ '\r', "Enter", A_ZOOM_IN, S_TREE },
	{ '\n', "Enter", A_ZOOM_IN, S_TREE },
	{ KEY_ENTER, "Enter", A_ZOOM_IN, S_TREE },
	{ KEY_RIGHT, "Right", A_ZOOM_IN, S_TREE },
	{ KEY_LEFT, "Left", A_ZOOM_OUT, S_TREE },
	{ KEY_BACKSPACE, "Backspace", A_ZOOM_OUT, S_TREE },
	{ 127, "Backspace", A_ZOOM_OUT, S_TREE },
	{ CTRL('h'), "Backspace", A_ZOOM_OUT, S_TREE },
	{ ' ', "Space", A_TOGGLE, S_TREE | S_COLUMNS },
	{ '+', "+", A_EXPAND, S_TREE },
	{ '-', "-", A_COLLAPSE, S_TREE },
	{ 'i', "i", A_DETAIL, S_TREE },
	{ 's', "s", A_SORT_NEXT, S_TREE },
	{ '>', ">", A_SORT_NEXT, S_TREE },
	{ '<', "<", A_SORT_PREV, S_TREE },
	{ 'r', "r", A_SORT_REV, S_TREE },
	{ KEY_F(6), "F6", A_SORT_MENU, S_TREE },
	{ '\\', "\\", A_FILTER, S_TREE },
	{ KEY_F(4), "F4", A_FILTER, S_TREE },
	{ '/', "/", A_SEARCH, S_TREE },
	{ KEY_F(3), "F3", A_SEARCH, S_TREE },
	{ 'n', "n", A_SEARCH_NEXT, S_TREE },
	{ ESC, "Esc", A_CLEAR, S_TREE },
	{ KEY_F(5), "F5", A_FLAT, S_TREE },
	{ KEY_F(2), "F2", A_COLUMNS, S_TREE },
	{ 'C', "C", A_COLUMNS, S_TREE },
	{ '\r', "Enter", A_SELECT, S_MENU },
	{ '\n', "Enter", A_SELECT, S_MENU },
	{ KEY_ENTER, "Enter", A_SELECT, S_MENU },
	{ KEY_F(7), "F7", A_MOVE_UP, S_COLUMNS },
	{ '[', "[", A_MOVE_UP, S_COLUMNS },
	{ KEY_F(8), "F8", A_MOVE_DOWN, S_COLUMNS },
	{ ']', "]", A_MOVE_DOWN, S_COLUMNS },
	{ 'p', "p", A_PAUSE, S_ALL },
	{ 'Z', "Z", A_PAUSE, S_ALL },
	{ 'd', "d", A_DELAY, S_ALL },
	{ 'w', "w", A_PERIOD, S_ALL },
	{ 'u', "u", A_UNITS, S_ALL },
	{ 'h', "h", A_HELP, S_TREE | S_DETAIL | S_MENU },
	{ '?', "?", A_HELP, S_TREE | S_DETAIL | S_MENU },
	{ KEY_F(1), "F1", A_HELP, S_TREE | S_DETAIL | S_MENU },
	{ ESC, "Esc", A_BACK, S_DETAIL | S_HELP | S_MENU },
	{ KEY_LEFT, "Left", A_BACK, S_DETAIL | S_HELP | S_MENU },
	{ KEY_BACKSPACE, "Backspace", A_BACK, S_DETAIL | S_HELP | S_MENU },
	{ 127, "Backspace", A_BACK, S_DETAIL | S_HELP | S_MENU },
	{ 'i', "i", A_BACK, S_DETAIL },
	{ 'h', "h", A_BACK, S_HELP },
	{ '?', "?", A_BACK, S_HELP },
	{ KEY_F(2), "F2", A_BACK, S_COLUMNS },
	{ KEY_F(6), "F6", A_BACK, S_SORTBY },
	{ 'q', "q", A_QUIT, S_ALL },
	{ KEY_F(10), "F10", A_QUIT, S_ALL },
	{ CTRL('c'), "^C", A_QUIT, S_ALL },
};
const size_t keys_count = sizeof(keys_table) / sizeof(keys_table[0]);

static const char *const help_text[A_NR] = {
	[A_UP] = "move up / scroll up",
	[A_DOWN] = "move down / scroll down",
	[A_PGUP] = "page up",
	[A_PGDN] = "page down",
	[A_HOME] = "first row",
	[A_END] = "last row",
	[A_ZOOM_IN] = "zoom into the selected cgroup (it becomes the root)",
	[A_ZOOM_OUT] = "zoom out to the parent cgroup",
	[A_TOGGLE] = "collapse or expand the subtree; chooser: show or hide",
	[A_EXPAND] = "expand the selected subtree",
	[A_COLLAPSE] = "collapse the selected subtree",
	[A_DETAIL] = "details: idle time, reaccess, memory.stat, limits, "
		     "processes",
	[A_SORT_NEXT] = "sort by the next column",
	[A_SORT_PREV] = "sort by the previous column",
	[A_SORT_REV] = "reverse the sort order",
	[A_SORT_MENU] = "sort menu: pick the sort column",
	[A_FILTER] = "filter cgroups by name (case-insensitive)",
	[A_SEARCH] = "search: select the next cgroup whose name matches",
	[A_SEARCH_NEXT] = "next match of the last search",
	[A_CLEAR] = "clear the filter",
	[A_FLAT] = "flat view (all cgroups sorted, paths) / tree view",
	[A_COLUMNS] = "column chooser",
	[A_SELECT] = "menus: pick the entry",
	[A_MOVE_UP] = "chooser: move the column earlier (left)",
	[A_MOVE_DOWN] = "chooser: move the column later (right)",
	[A_PAUSE] = "freeze / thaw the display (measuring goes on)",
	[A_DELAY] = "set the refresh delay (seconds): memory.*, PSI, refaults",
	[A_PERIOD] = "set the idle window, --period (seconds); measures anew",
	[A_UNITS] = "units: auto, KiB, MiB, GiB, pages",
	[A_MOUSE] = "click: select a row, sort by a title; wheel: scroll",
	[A_HELP] = "this help",
	[A_BACK] = "back to the cgroup tree",
	[A_QUIT] = "quit (changed settings are saved in the rc file)",
};

enum action keys_lookup(unsigned screen, int key)
{
	size_t i;

	for (i = 0; i < keys_count; i++)
		if (keys_table[i].key == key && (keys_table[i].screens & screen))
			return keys_table[i].act;
	return A_NONE;
}

const char *keys_help(enum action a)
{
	return a > A_NONE && a < A_NR && help_text[a] ? help_text[a] : "";
}

const char *keys_label(unsigned screen, enum action a)
{
	size_t i;

	for (i = 0; i < keys_count; i++)
		if (keys_table[i].act == a && (keys_table[i].screens & screen))
			return keys_table[i].label;
	return NULL;
}
