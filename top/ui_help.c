// SPDX-License-Identifier: GPL-2.0
/*
 * ui_help.c - the help screen, generated from keys.c's table (the same
 * table the dispatcher reads) and fields.c's registry (the columns).
 */
#include <curses.h>
#include <string.h>
#include "ui.h"

#define TOP_ROW UI_HEADER_ROWS(u)

/* Unique labels of the keys bound to a, e.g. "Up k". */
static void labels(struct sbuf *b, enum action a)
{
	size_t i, j;
	int dup;

	for (i = 0; i < keys_count; i++) {
		if (keys_table[i].act != a)
			continue;
		for (dup = 0, j = 0; j < i; j++)
			if (keys_table[j].act == a &&
			    !strcmp(keys_table[j].label, keys_table[i].label))
				dup = 1;
		if (!dup)
			sb_printf(b, "%s%s", b->len ? " " : "",
				  keys_table[i].label);
	}
}

static void put(struct ui *u, int *line, int attr, const char *s)
{
	int y = TOP_ROW + *line - u->help_scroll;

	if (y >= TOP_ROW && y < LINES - 1) {
		attrset(attr);
		ui_put(y, 0, COLS, s);
		attrset(A_NORMAL);
	}
	(*line)++;
}

void help_draw(struct ui *u)
{
	struct sbuf k, b;
	int line = 0, a;
	size_t i;

	sb_init(&k);
	sb_init(&b);
	put(u, &line, ui_attr(u, CP_TITLE), "Keys");
	for (a = A_NONE + 1; a < A_NR; a++) {
		sb_reset(&k);
		sb_reset(&b);
		labels(&k, (enum action)a);
		if (!k.len)
			continue;
		sb_puts(&b, "  ");
		ui_pad(&b, sb_str(&k), 26);
		sb_putc(&b, ' ');
		sb_puts(&b, keys_help(a));
		put(u, &line, A_NORMAL, sb_str(&b));
	}
	put(u, &line, A_NORMAL, "");
	put(u, &line, ui_attr(u, CP_TITLE), "Columns (sizes of the cgroup and "
	    "its descendants; F2 chooses, * marks the sort column):");
	for (i = 0; i < FIELDS_NR; i++) {
		sb_reset(&b);
		sb_puts(&b, "  ");
		ui_pad(&b, fields[i].title, 9);
		sb_putc(&b, ' ');
		sb_puts(&b, fields[i].help);
		put(u, &line, A_NORMAL, sb_str(&b));
	}
	sb_free(&k);
	sb_free(&b);
	if (u->help_scroll > 0 && u->help_scroll > line - 1) {
		u->help_scroll = line - 1;
		u->dirty = 1;
	}
}

int help_key(struct ui *u, enum action a)
{
	int *sc = &u->help_scroll;

	switch (a) {
	case A_UP: *sc -= *sc > 0; break;
	case A_DOWN: (*sc)++; break;
	case A_PGUP: *sc = 0; break;
	case A_PGDN: *sc += LINES - TOP_ROW - 2; break;
	case A_HOME: *sc = 0; break;
	case A_END: *sc = 1 << 20; break;
	case A_BACK: u->screen = S_TREE; break;
	default: return 0;
	}
	return 1;
}
