// SPDX-License-Identifier: GPL-2.0
/*
 * ui_columns.c - the column chooser (F2, C): the shown columns in their
 * order, then the hidden ones in the registry's; Space or Enter shows or
 * hides the selected one (shown: appended), F7/[ and F8/] move a shown
 * one earlier or later.  Saved in the rc file on exit.
 */
#include <curses.h>
#include "ui.h"

#define TOP_ROW UI_HEADER_ROWS(u)
#define FIRST 1		/* fields[0] is NAME, always shown */
#define NR (FIELDS_NR - FIRST)

/* Entry k: a shown column (k < cols.n), else the hidden ones in order. */
static enum field_id entry(const struct ui *u, int k)
{
	const struct field_set *c = &u->vs.cols;
	int i;

	if (k < (int)c->n)
		return c->id[k];
	k -= (int)c->n;
	for (i = FIRST; i < FIELDS_NR; i++)
		if (!fields_has(c, (enum field_id)i) && k-- == 0)
			break;
	return (enum field_id)(i < FIELDS_NR ? i : FIRST);
}

static int position(const struct ui *u, enum field_id f)
{
	int k;

	for (k = 0; k < NR; k++)
		if (entry(u, k) == f)
			return k;
	return 0;
}

/* Show (append) or hide the selected column; the selection follows it. */
static void toggle(struct ui *u)
{
	struct field_set *c = &u->vs.cols;
	enum field_id f = entry(u, u->menu.sel);
	size_t i, j;

	if (fields_has(c, f)) {
		for (i = j = 0; i < c->n; i++)
			if (c->id[i] != f)
				c->id[j++] = c->id[i];
		c->n = j;
		if (u->vs.sort == f)
			u->vs.sort = F_NAME;
	} else if (c->n < FIELDS_NR) {
		c->id[c->n++] = f;
	}
	u->menu.sel = position(u, f);
	view_build(u);
}

/* Move the selected shown column by d (-1 earlier, 1 later). */
static void shift(struct ui *u, int d)
{
	struct field_set *c = &u->vs.cols;
	int k = u->menu.sel;
	enum field_id t;

	if (k >= (int)c->n || k + d < 0 || k + d >= (int)c->n)
		return;
	t = c->id[k];
	c->id[k] = c->id[k + d];
	c->id[k + d] = t;
	u->menu.sel = k + d;
	view_build(u);
}

void columns_draw(struct ui *u)
{
	struct sbuf b;
	enum field_id f;
	int k, y = TOP_ROW;

	sb_init(&b);
	attrset(ui_attr(u, CP_TITLE));
	ui_put(y++, 0, COLS, "Columns: Space shows/hides, F7 [ F8 ] move, "
	       "Esc or F2 back (saved on exit; --fields overrides)");
	for (k = menu_top(&u->menu, NR, menu_rows(u)); k < NR && y < LINES - 1;
	     k++, y++) {
		f = entry(u, k);
		sb_reset(&b);
		sb_printf(&b, " [%c] ", k < (int)u->vs.cols.n ? 'x' : ' ');
		ui_pad(&b, fields[f].title, 9);
		sb_putc(&b, ' ');
		ui_pad(&b, fields[f].id, 12);
		sb_putc(&b, ' ');
		sb_puts(&b, fields[f].help);
		menu_row(u, y, k == u->menu.sel, sb_str(&b));
	}
	sb_free(&b);
}

int columns_key(struct ui *u, enum action a)
{
	switch (a) {
	case A_UP: case A_DOWN: case A_PGUP: case A_PGDN: case A_HOME:
	case A_END:
		menu_move(&u->menu, a, NR, menu_rows(u));
		break;
	case A_TOGGLE: case A_SELECT: toggle(u); break;
	case A_MOVE_UP: shift(u, -1); break;
	case A_MOVE_DOWN: shift(u, 1); break;
	case A_BACK: u->screen = S_TREE; break;
	default: return 0;
	}
	return 1;
}
