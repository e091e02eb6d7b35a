// SPDX-License-Identifier: GPL-2.0
/*
 * ui_columns.c - the column chooser (F2, C): every field of fields.c,
 * Space or Enter shows or hides the selected one; the table keeps the
 * registry's order.  Saved in the rc file on exit.
 */
#include <curses.h>
#include "ui.h"

#define TOP_ROW UI_HEADER_ROWS(u)
#define FIRST 1		/* fields[0] is NAME, always shown */

static void toggle(struct ui *u, enum field_id f)
{
	struct field_set n = { .n = 0 };
	int on = !fields_has(&u->vs.cols, f), i;

	for (i = FIRST; i < FIELDS_NR; i++)
		if (i == (int)f ? on : fields_has(&u->vs.cols, (enum field_id)i))
			n.id[n.n++] = (enum field_id)i;
	u->vs.cols = n;
	if (!on && u->vs.sort == f)
		u->vs.sort = F_NAME;
	view_build(u);
}

void columns_draw(struct ui *u)
{
	struct sbuf b;
	int i, y = TOP_ROW;

	sb_init(&b);
	attrset(ui_attr(u, CP_TITLE));
	ui_put(y++, 0, COLS, "Columns: Space or Enter shows/hides, Esc or F2 "
	       "back (--fields on the command line, saved on exit)");
	for (i = FIRST; i < FIELDS_NR && y < LINES - 1; i++, y++) {
		sb_reset(&b);
		sb_printf(&b, " [%c] %-9s %-12s %s",
			  fields_has(&u->vs.cols, (enum field_id)i) ? 'x' : ' ',
			  fields[i].title, fields[i].id, fields[i].help);
		attrset(i - FIRST == u->menu.sel ? ui_attr(u, CP_SELECT) :
			A_NORMAL);
		ui_fill(y, 0, COLS);
		ui_put(y, 0, COLS, sb_str(&b));
	}
	attrset(A_NORMAL);
	sb_free(&b);
}

int columns_key(struct ui *u, enum action a)
{
	int n = FIELDS_NR - FIRST;

	switch (a) {
	case A_UP: u->menu.sel -= u->menu.sel > 0; break;
	case A_DOWN: u->menu.sel += u->menu.sel + 1 < n; break;
	case A_HOME: case A_PGUP: u->menu.sel = 0; break;
	case A_END: case A_PGDN: u->menu.sel = n - 1; break;
	case A_TOGGLE: case A_SELECT:
		toggle(u, (enum field_id)(u->menu.sel + FIRST));
		break;
	case A_BACK: u->screen = S_TREE; break;
	default: return 0;
	}
	return 1;
}
