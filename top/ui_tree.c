// SPDX-License-Identifier: GPL-2.0
/*
 * ui_tree.c - the cgroup table: one row per visible cgroup (see
 * ui_view.c), the chosen columns of fields.h that fit the width (the
 * ones with the highest `keep` go first when narrow), an idle %
 * sparkline per row; flat view shows paths.  A name cut to its column
 * ends in an ellipsis, a path loses its middle (ui_put_cut()).
 */
#include <curses.h>
#include <stdlib.h>
#include <string.h>
#include "ui.h"

#define TOP_ROW (UI_HEADER_ROWS(u) + 1)	/* below the column titles */
#define NAME_MIN 20

/*
 * Widths of the shown columns (0: dropped): in the order of `keep`,
 * while they fit beside a name of NAME_MIN cells.  Returns the name's
 * width.
 */
static int layout(const struct ui *u, int cols, int *on)
{
	const struct field_set *set = &u->vs.cols;
	int left = cols - NAME_MIN, best, w;
	size_t i;

	memset(on, 0, sizeof(int) * FIELDS_NR);
	for (;;) {	/* the kept-longest column not placed yet */
		best = -1;
		for (i = 0; i < set->n; i++)
			if (!on[set->id[i]] && (best < 0 ||
			    fields[set->id[i]].keep < fields[best].keep))
				best = (int)set->id[i];
		w = best < 0 ? 0 : fields[best].width;
		if (best < 0 || w > left)
			break;
		on[best] = w;
		left -= w;
	}
	return NAME_MIN + left;
}

static int rows_shown(const struct ui *u)
{
	return LINES - TOP_ROW - 1;	/* last line: status */
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
		if (u->t.utf8)
			sb_puts(b, utf[k]);
		else
			sb_putc(b, ascii[k]);
	}
}

static void tree_prefix(const struct ui *u, struct sbuf *b,
			const struct view_row *r)
{
	int d, utf8 = u->t.utf8;

	for (d = 1; d < r->depth; d++)
		sb_puts(b, d < 64 && (r->more >> d & 1) ?
			(utf8 ? "\u2502  " : "|  ") : "   ");
	if (r->depth > 0)
		sb_puts(b, r->last ? (utf8 ? "\u2514\u2500 " : "`- ") :
			(utf8 ? "\u251c\u2500 " : "|- "));
}

static void draw_cells(struct ui *u, int y, size_t i, const int *on, int x)
{
	const struct cg_stat *s = &u->rep->cg[u->view.row[i].cg];
	struct sbuf b;
	size_t k;
	int tint;

	sb_init(&b);
	for (k = 0; k < u->vs.cols.n; k++) {
		enum field_id f = u->vs.cols.id[k];

		if (!on[f])
			continue;
		sb_reset(&b);
		if (f == F_TREND)
			spark(u, &b, s->ino);
		else
			field_format(&b, u->rep, s, f, u->vs.unit, u->t.utf8);
		tint = f == F_IDLEPCT && i != u->vs.sel;
		if (tint)
			attrset(ui_attr(u, view_idle_color(u, s)));
		if (f == F_TREND)
			ui_put(y, x + 1, on[f] - 1, sb_str(&b));
		else
			ui_put_right(y, x, on[f] - 1, sb_str(&b));
		if (tint)
			attrset(i == u->vs.sel ? ui_attr(u, CP_SELECT) :
				A_NORMAL);
		x += on[f];
	}
	sb_free(&b);
}

static void draw_row(struct ui *u, int y, size_t i, const int *on, int namew)
{
	const struct view_row *r = &u->view.row[i];
	const struct cg_stat *s = &u->rep->cg[r->cg];
	struct sbuf b;

	sb_init(&b);
	attrset(i == u->vs.sel ? ui_attr(u, CP_SELECT) : A_NORMAL);
	ui_fill(y, 0, COLS);
	tree_prefix(u, &b, r);
	ui_esc(u, &b, u->vs.flat || !r->depth ? s->path : s->name);
	if (r->collapsed)
		sb_puts(&b, " [+]");
	ui_put_cut(u, y, 0, namew - 1, sb_str(&b),
		   u->vs.flat ? CUT_MIDDLE : CUT_END);
	draw_cells(u, y, i, on, namew);
	attrset(A_NORMAL);
	sb_free(&b);
}

static void draw_titles(const struct ui *u, const int *on, int namew)
{
	size_t k;
	int x = namew, y = UI_HEADER_ROWS(u);
	char buf[24];

	attrset(ui_attr(u, CP_HEADER));
	ui_fill(y, 0, COLS);
	snprintf(buf, sizeof(buf), "%s%s", u->vs.flat ? "PATH" : "NAME",
		 u->vs.sort == F_NAME ? "*" : "");
	ui_put(y, 0, namew, buf);
	for (k = 0; k < u->vs.cols.n; k++) {
		enum field_id f = u->vs.cols.id[k];

		if (!on[f])
			continue;
		snprintf(buf, sizeof(buf), "%s%s", fields[f].title,
			 u->vs.sort == f ? "*" : "");
		if (f == F_TREND)
			ui_put(y, x + 1, on[f] - 1, buf);
		else
			ui_put_right(y, x, on[f] - 1, buf);
		x += on[f];
	}
	attrset(A_NORMAL);
}

void tree_draw(struct ui *u)
{
	int on[FIELDS_NR], namew = layout(u, COLS, on), h = rows_shown(u), y;
	size_t i;

	draw_titles(u, on, namew);
	if (!u->view.n) {
		ui_put(TOP_ROW, 0, COLS, ui_have_rep(u) ? "(no cgroup matches)" :
		       "reading the cgroup tree...");
		return;
	}
	if (u->vs.sel < u->vs.top)
		u->vs.top = u->vs.sel;
	if (u->vs.sel >= u->vs.top + (size_t)h)
		u->vs.top = u->vs.sel - (size_t)h + 1;
	if (u->vs.top + (size_t)h > u->view.n)
		u->vs.top = u->view.n > (size_t)h ? u->view.n - (size_t)h : 0;
	for (y = 0, i = u->vs.top; y < h && i < u->view.n; y++, i++)
		draw_row(u, TOP_ROW + y, i, on, namew);
}

/* A click on a title sorts by it (again: reverses); on a row selects it;
 * the wheel scrolls three rows. */
void tree_mouse(struct ui *u, int y, int x, int wheel)
{
	int on[FIELDS_NR], namew = layout(u, COLS, on), cx = namew;
	enum field_id f = F_NAME;
	size_t k;

	if (wheel) {
		long s = (long)u->vs.sel + 3 * wheel;

		view_select(u, s < 0 ? 0 : (size_t)s);
		return;
	}
	if (y == UI_HEADER_ROWS(u)) {
		for (k = 0; k < u->vs.cols.n && x >= namew; k++) {
			if (x >= cx && x < cx + on[u->vs.cols.id[k]])
				f = u->vs.cols.id[k];
			cx += on[u->vs.cols.id[k]];
		}
		if (!(fields[f].flags & FF_SORT))
			return;
		if (u->vs.sort == f)
			u->vs.sort_rev = !u->vs.sort_rev;
		u->vs.sort = f;
		view_build(u);
	} else if (y >= TOP_ROW && y < TOP_ROW + rows_shown(u) &&
		   u->vs.top + (size_t)(y - TOP_ROW) < u->view.n) {
		view_select(u, u->vs.top + (size_t)(y - TOP_ROW));
	}
}

static void zoom(struct ui *u, int in)
{
	const struct cg_stat *s = view_selected(u), *root;
	char *p;

	if (!s)
		return;
	root = &u->rep->cg[u->view.root];
	if (in && s != root && !s->pseudo) {
		p = strdup(s->path);
	} else if (!in && root->parent > 0) {
		p = strdup(u->rep->cg[root->parent].path);
	} else if (!in && root->parent == 0) {
		free(u->vs.zoom_path);
		u->vs.zoom_path = NULL;
		p = NULL;
	} else {
		return;
	}
	if (p) {
		free(u->vs.zoom_path);
		u->vs.zoom_path = p;
	}
	if (!in && (p = strdup(root->path))) {	/* keep the old root selected */
		free(u->vs.sel_path);
		u->vs.sel_path = p;
	}
	view_build(u);
}

static void collapse(struct ui *u, int how)
{
	const struct view_row *r = u->vs.sel < u->view.n ?
				   &u->view.row[u->vs.sel] : NULL;
	int on;

	if (!r || !r->has_kids)
		return;
	on = how < 0 ? !r->collapsed : how;
	if (view_set_collapsed(u, u->rep->cg[r->cg].path, on))
		ui_msg(u, "out of memory");
	view_build(u);
}

static void move_sel(struct ui *u, long d)
{
	long s = (long)u->vs.sel + d;

	view_select(u, s < 0 ? 0 : (size_t)s);
}

static void search_next(struct ui *u)
{
	long i = view_find(u, u->vs.search, u->vs.sel + 1);

	if (i < 0)
		ui_msg(u, "no cgroup matches the search");
	else
		view_select(u, (size_t)i);
}

static void detail(struct ui *u)
{
	if (!view_selected(u))
		return;
	u->screen = S_DETAIL;
	u->detail.scroll = 0;
	engine_procs(u->e, u->view.row[u->vs.sel].cg, &u->detail.procs);
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
	case A_SORT_NEXT: view_sort_step(u, 1); break;
	case A_SORT_PREV: view_sort_step(u, -1); break;
	case A_SORT_REV: u->vs.sort_rev = !u->vs.sort_rev; view_build(u); break;
	case A_FLAT: u->vs.flat = !u->vs.flat; view_build(u); break;
	case A_CLEAR:
		free(u->vs.filter);
		u->vs.filter = NULL;
		view_build(u);
		break;
	case A_FILTER: ui_prompt(u, P_FILTER, u->vs.filter); break;
	case A_SEARCH: ui_prompt(u, P_SEARCH, NULL); break;
	case A_SEARCH_NEXT: search_next(u); break;
	case A_SORT_MENU:
		u->screen = S_SORTBY;
		u->menu.sel = -1;
		u->menu.top = 0;
		break;
	case A_COLUMNS:
		u->screen = S_COLUMNS;
		u->menu.sel = u->menu.top = 0;
		break;
	case A_DETAIL: detail(u); break;
	default:
		return 0;
	}
	return 1;
}
