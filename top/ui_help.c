// SPDX-License-Identifier: GPL-2.0
/*
 * ui_help.c - the help screen, generated from keys.c's table (the same
 * table the dispatcher reads) and fields.c's registry (the columns).
 */
#include <curses.h>
#include <string.h>
#include "ui.h"

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

void help_draw(struct ui *u)
{
	struct pager pg;
	struct sbuf k;
	int a;
	size_t i;

	sb_init(&k);
	pager_begin(&pg, u, &u->help_scroll);
	pager_line(&pg, ui_attr(u, CP_TITLE), "Keys");
	for (a = A_NONE + 1; a < A_NR; a++) {
		sb_reset(&k);
		labels(&k, (enum action)a);
		if (!k.len)
			continue;
		sb_puts(&pg.b, "  ");
		ui_pad(&pg.b, sb_str(&k), 26);
		sb_putc(&pg.b, ' ');
		sb_puts(&pg.b, keys_help(a));
		pager_emit(&pg, A_NORMAL);
	}
	pager_line(&pg, A_NORMAL, "");
	pager_line(&pg, ui_attr(u, CP_TITLE), "Columns (sizes of the cgroup "
		   "and its descendants; F2 chooses, * marks the sort "
		   "column):");
	for (i = 0; i < FIELDS_NR; i++) {
		sb_puts(&pg.b, "  ");
		ui_pad(&pg.b, fields[i].title, 9);
		sb_putc(&pg.b, ' ');
		sb_puts(&pg.b, fields[i].help);
		pager_emit(&pg, A_NORMAL);
	}
	sb_free(&k);
	pager_end(&pg);
}

int help_key(struct ui *u, enum action a)
{
	if (a == A_BACK) {
		u->screen = S_TREE;
		return 1;
	}
	return pager_key(u, &u->help_scroll, a);
}
