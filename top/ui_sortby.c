// SPDX-License-Identifier: GPL-2.0
/*
 * ui_sortby.c - the sort menu (F6, as in htop): every sortable field of
 * fields.c; Enter sorts by the selected one, Esc or F6 goes back.
 */
#include <curses.h>
#include "ui.h"

#define TOP_ROW UI_HEADER_ROWS(u)

/* The sortable fields, in registry order; returns how many. */
static int sortable(enum field_id *v)
{
	int i, n = 0;

	for (i = 0; i < FIELDS_NR; i++)
		if (fields[i].flags & FF_SORT)
			v[n++] = (enum field_id)i;
	return n;
}

void sortby_draw(struct ui *u)
{
	enum field_id v[FIELDS_NR];
	int n = sortable(v), i, y = TOP_ROW;
	struct sbuf b;

	if (u->menu.sel < 0)	/* opened: start at the current sort */
		for (u->menu.sel = 0, i = 0; i < n; i++)
			if (v[i] == u->vs.sort)
				u->menu.sel = i;
	sb_init(&b);
	attrset(ui_attr(u, CP_TITLE));
	ui_put(y++, 0, COLS, "Sort by: Enter picks, Esc or F6 back");
	for (i = menu_top(&u->menu, n, menu_rows(u)); i < n && y < LINES - 1;
	     i++, y++) {
		sb_reset(&b);
		sb_printf(&b, " %c ", v[i] == u->vs.sort ? '*' : ' ');
		ui_pad(&b, fields[v[i]].title, 9);
		sb_putc(&b, ' ');
		sb_puts(&b, fields[v[i]].help);
		menu_row(u, y, i == u->menu.sel, sb_str(&b));
	}
	sb_free(&b);
}

int sortby_key(struct ui *u, enum action a)
{
	enum field_id v[FIELDS_NR];
	int n = sortable(v);

	if (u->menu.sel < 0)
		u->menu.sel = 0;
	switch (a) {
	case A_UP: case A_DOWN: case A_PGUP: case A_PGDN: case A_HOME:
	case A_END:
		menu_move(&u->menu, a, n, menu_rows(u));
		break;
	case A_SELECT:
		u->vs.sort = v[u->menu.sel];
		u->screen = S_TREE;
		view_build(u);
		break;
	case A_BACK: u->screen = S_TREE; break;
	default: return 0;
	}
	return 1;
}
