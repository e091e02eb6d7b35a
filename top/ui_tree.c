// SPDX-License-Identifier: GPL-2.0
/*
 * ui_tree.c - the cgroup tree table: one row per visible cgroup (see
 * ui_view.c), columns that fit the width, an idle % sparkline per row.
 */
#include <curses.h>
#include <stdlib.h>
#include <string.h>
#include "ui.h"

#define TOP_ROW (UI_HEADER_ROWS(u) + 1)	/* below the column titles */
#define NAME_MIN 20

struct column {
	enum col c;
	const char *title;
	int width;
};

/* In the order columns are given up when the terminal is narrow. */
static const struct column columns[] = {
	{ C_RES, "RESIDENT", 10 }, { C_IDLE, "IDLE", 9 },
	{ C_IDLEPCT, "IDLE%", 7 }, { C_WS, "WORKSET", 9 },
	{ C_TREND, "TREND", TREND_LEN + 2 }, { C_FILE, "FILE", 8 },
	{ C_ANON, "ANON", 8 }, { C_LIMIT, "HIGH/MAX", 15 },
};
#define NCOLS (sizeof(columns) / sizeof(columns[0]))
/* Display order, left to right. */
static const enum col order[] = { C_RES, C_ANON, C_FILE, C_IDLE, C_IDLEPCT,
				  C_WS, C_LIMIT, C_TREND };

/* Which columns fit; returns the width left for the name. */
static int layout(int cols, int *on)
{
	size_t i;

	memset(on, 0, sizeof(int) * C_NR);
	for (i = 0; i < NCOLS; i++) {
		if (cols - columns[i].width < NAME_MIN)
			break;
		cols -= columns[i].width;
		on[columns[i].c] = columns[i].width;
	}
	return cols;
}

static int rows_shown(const struct ui *u)
{
	return LINES - TOP_ROW - 1;	/* last line: status */
}

static void put_right(int y, int x, int w, const char *s)
{
	int n = (int)strlen(s);

	ui_put(y, x + (n < w - 1 ? w - 1 - n : 0), w - 1, s);
}

static void limit_cell(const struct ui *u, struct sbuf *b,
		       const struct cg_mem *m)
{
	if (!m->has_high && !m->has_max) {
		sb_puts(b, "-");
		return;
	}
	if (!m->has_high || m->high == CG_NOLIMIT)
		sb_puts(b, "max");
	else
		ui_fmt_size(u, b, m->high);
	sb_putc(b, '/');
	if (!m->has_max || m->max == CG_NOLIMIT)
		sb_puts(b, "max");
	else
		ui_fmt_size(u, b, m->max);
}

static void spark(const struct ui *u, struct sbuf *b, uint64_t ino)
{
	static const char *const utf[] = { "\u2581", "\u2582", "\u2583",
		"\u2584", "\u2585", "\u2586", "\u2587", "\u2588" };
	static const char ascii[] = "_.-:=+*#";
	const struct trend_ent *t = trend_find(&u->trend, ino);
	unsigned i, k;

	for (i = 0; t && i < t->n; i++) {
		k = (unsigned)(t->pct[i] / 100 * 7 + 0.5);
		if (k > 7)
			k = 7;
		if (u->utf8)
			sb_puts(b, utf[k]);
		else
			sb_putc(b, ascii[k]);
	}
}

static void cell(const struct ui *u, struct sbuf *b, const struct cg_stat *s,
		 enum col c)
{
	int m = ui_measured(u);

	if (!m && (c == C_IDLE || c == C_IDLEPCT || c == C_WS))
		sb_puts(b, u->utf8 ? "\u2026" : "...");
	else if (c == C_IDLEPCT)
		sb_printf(b, "%.1f", s->idle_pct);
	else if (c == C_LIMIT)
		limit_cell(u, b, &s->mem);
	else if (c == C_TREND)
		spark(u, b, s->ino);
	else
		ui_fmt_size(u, b, view_value(u, s, c));
}

static void tree_prefix(const struct ui *u, struct sbuf *b,
			const struct view_row *r)
{
	int d;

	for (d = 1; d < r->depth; d++)
		sb_puts(b, d < 64 && (r->more >> d & 1) ?
			(u->utf8 ? "\u2502  " : "|  ") : "   ");
	if (r->depth > 0)
		sb_puts(b, r->last ? (u->utf8 ? "\u2514\u2500 " : "`- ") :
			(u->utf8 ? "\u251c\u2500 " : "|- "));
}

static void draw_row(struct ui *u, int y, size_t i, const int *on, int namew)
{
	const struct view_row *r = &u->view.row[i];
	const struct cg_stat *s = &u->rep->cg[r->cg];
	struct sbuf b;
	size_t k;
	int x = namew, tint;

	sb_init(&b);
	attrset(i == u->sel ? ui_attr(u, CP_SELECT) : A_NORMAL);
	ui_fill(y, 0, COLS);
	tree_prefix(u, &b, r);
	ui_esc(u, &b, r->depth ? s->name : s->path);
	if (r->collapsed)
		sb_puts(&b, " [+]");
	ui_put(y, 0, namew - 1, sb_str(&b));
	for (k = 0; k < sizeof(order) / sizeof(order[0]); k++) {
		if (!on[order[k]])
			continue;
		sb_reset(&b);
		cell(u, &b, s, order[k]);
		tint = order[k] == C_IDLEPCT && i != u->sel;
		if (tint)
			attrset(ui_attr(u, view_idle_color(u, s)));
		if (order[k] == C_TREND)
			ui_put(y, x + 1, on[order[k]] - 1, sb_str(&b));
		else
			put_right(y, x, on[order[k]], sb_str(&b));
		if (tint)
			attrset(A_NORMAL);
		x += on[order[k]];
	}
	attrset(A_NORMAL);
	sb_free(&b);
}

static void draw_titles(const struct ui *u, const int *on, int namew)
{
	size_t k, i;
	int x = namew;

	attrset(ui_attr(u, CP_HEADER));
	ui_fill(UI_HEADER_ROWS(u), 0, COLS);
	ui_put(UI_HEADER_ROWS(u), 0, namew, u->sort == C_NAME ? "NAME*" : "NAME");
	for (k = 0; k < sizeof(order) / sizeof(order[0]); k++) {
		const char *t = "";
		char buf[24];

		if (!on[order[k]])
			continue;
		for (i = 0; i < NCOLS; i++)
			if (columns[i].c == order[k])
				t = columns[i].title;
		snprintf(buf, sizeof(buf), "%s%s", t,
			 u->sort == order[k] ? "*" : "");
		if (order[k] == C_TREND)
			ui_put(UI_HEADER_ROWS(u), x + 1, on[order[k]] - 1, buf);
		else
			put_right(UI_HEADER_ROWS(u), x, on[order[k]], buf);
		x += on[order[k]];
	}
	attrset(A_NORMAL);
}

void tree_draw(struct ui *u)
{
	int on[C_NR], namew = layout(COLS, on), h = rows_shown(u), y;
	size_t i;

	draw_titles(u, on, namew);
	if (!u->view.n) {
		ui_put(TOP_ROW, 0, COLS, u->have_rep ? "(no cgroup matches)" :
		       "reading the cgroup tree...");
		return;
	}
	if (u->sel < u->top)
		u->top = u->sel;
	if (u->sel >= u->top + (size_t)h)
		u->top = u->sel - (size_t)h + 1;
	if (u->top + (size_t)h > u->view.n)
		u->top = u->view.n > (size_t)h ? u->view.n - (size_t)h : 0;
	for (y = 0, i = u->top; y < h && i < u->view.n; y++, i++)
		draw_row(u, TOP_ROW + y, i, on, namew);
}

static void zoom(struct ui *u, int in)
{
	const struct cg_stat *s = view_selected(u), *root;
	char *p;

	if (!s)
		return;
	root = &u->rep->cg[u->view.root];
	if (in && s && s != root && !s->pseudo) {
		p = strdup(s->path);
	} else if (!in && root->parent > 0) {
		p = strdup(u->rep->cg[root->parent].path);
	} else if (!in && root->parent == 0) {
		free(u->zoom_path);
		u->zoom_path = NULL;
		p = NULL;
	} else {
		return;
	}
	if (p) {
		free(u->zoom_path);
		u->zoom_path = p;
	}
	if (!in && (p = strdup(root->path))) {	/* keep the old root selected */
		free(u->sel_path);
		u->sel_path = p;
	}
	view_build(u);
}

static void collapse(struct ui *u, int how)
{
	const struct view_row *r = u->sel < u->view.n ? &u->view.row[u->sel] : NULL;
	int on;

	if (!r || !r->has_kids)
		return;
	on = how < 0 ? !r->collapsed : how;
	if (view_set_collapsed(u, u->rep->cg[r->cg].path, on))
		ui_msg(u, "out of memory");
	view_build(u);
}

static void sort(struct ui *u, int step)
{
	u->sort = (enum col)(((int)u->sort + step + C_TREND) % C_TREND);
	view_build(u);
}

static void move_sel(struct ui *u, long d)
{
	long s = (long)u->sel + d;

	if (s < 0)
		s = 0;
	view_select(u, (size_t)s);
}

int tree_key(struct ui *u, enum action a)
{
	long page = rows_shown(u) > 1 ? rows_shown(u) - 1 : 1;

	switch (a) {
	case A_UP: move_sel(u, -1); break;
	case A_DOWN: move_sel(u, 1); break;
	case A_PGUP: move_sel(u, -page); break;
	case A_PGDN: move_sel(u, page); break;
	case A_HOME: view_select(u, 0); break;
	case A_END: view_select(u, u->view.n ? u->view.n - 1 : 0); break;
	case A_ZOOM_IN: zoom(u, 1); break;
	case A_ZOOM_OUT: zoom(u, 0); break;
	case A_TOGGLE: collapse(u, -1); break;
	case A_EXPAND: collapse(u, 0); break;
	case A_COLLAPSE: collapse(u, 1); break;
	case A_SORT_NEXT: sort(u, 1); break;
	case A_SORT_PREV: sort(u, -1); break;
	case A_SORT_REV: u->sort_rev = !u->sort_rev; view_build(u); break;
	case A_CLEAR: free(u->filter); u->filter = NULL; view_build(u); break;
	case A_FILTER:
		u->prompt = P_FILTER;
		sb_reset(&u->input);
		sb_puts(&u->input, u->filter ? u->filter : "");
		curs_set(1);
		break;
	case A_DETAIL:
		if (!view_selected(u))
			break;
		u->screen = S_DETAIL;
		u->scroll = 0;
		procs_read(&u->procs, u->cfg->root, u->cgdir,
			   view_selected(u)->path);
		break;
	default:
		return 0;
	}
	return 1;
}
