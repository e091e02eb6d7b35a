// SPDX-License-Identifier: GPL-2.0
/*
 * ui_text.c - text helpers for every screen: sizes in the chosen unit,
 * terminal-safe names (fmt.c's escaping), writing clipped to a width in
 * terminal cells, attributes with a monochrome fallback.
 */
#include <curses.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>
#include "ui.h"

void ui_msg(struct ui *u, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(u->msg, sizeof(u->msg), fmt, ap);
	va_end(ap);
	u->dirty = 1;
}

unsigned ui_attr(const struct ui *u, enum color c)
{
	if (u->t.colors)
		return COLOR_PAIR(c) | (c == CP_TITLE ? A_BOLD : 0);
	switch (c) {
	case CP_HEADER: case CP_SELECT: return A_REVERSE;
	case CP_TITLE: case CP_HOT: return A_BOLD;
	case CP_DIM: return A_DIM;
	default: return A_NORMAL;
	}
}

const char *ui_unit_name(int unit)
{
	static const char *const n[U_NR] = { "auto", "KiB", "MiB", "GiB",
					     "pages" };

	return unit >= 0 && unit < U_NR ? n[unit] : "?";
}

int ui_unit_parse(const char *s)
{
	int i;

	for (i = 0; i < U_NR; i++)
		if (!strcmp(s, ui_unit_name(i)))
			return i;
	return -1;
}

void ui_fmt_size(const struct ui *u, struct sbuf *b, uint64_t v)
{
	field_fmt_size(b, v, u->vs.unit, u->rep->p.page_size);
}

/*
 * The character at s[i] (len bytes in all): its length in bytes, its
 * cells in *cw.  A byte this locale cannot decode is one cell.
 */
static size_t char_at(const char *s, size_t i, size_t len, mbstate_t *st,
		      int *cw)
{
	wchar_t wc;
	size_t n = mbrtowc(&wc, s + i, len - i, st);

	if (n == (size_t)-1 || n == (size_t)-2 || n == 0) {
		memset(st, 0, sizeof(*st));
		*cw = 1;
		return 1;
	}
	*cw = wcwidth(wc);
	if (*cw < 0)
		*cw = 1;
	return n;
}

/* Bytes of s that fit in w terminal cells; *cells gets the width used. */
static size_t fit(const char *s, int w, int *cells)
{
	mbstate_t st;
	size_t i = 0, len = strlen(s), n;
	int cw;

	memset(&st, 0, sizeof(st));
	*cells = 0;
	while (i < len) {
		n = char_at(s, i, len, &st, &cw);
		if (*cells > w - cw)
			break;
		*cells += cw;
		i += n;
	}
	return i;
}

/* The longest tail of s that fits in w cells; *cells gets its width. */
static const char *fit_tail(const char *s, int w, int *cells)
{
	mbstate_t st;
	size_t i = 0, len = strlen(s);
	int cw, left = ui_width(s);

	memset(&st, 0, sizeof(st));
	while (i < len && left > w) {
		i += char_at(s, i, len, &st, &cw);
		left -= cw;
	}
	*cells = left;
	return s + i;
}

int ui_width(const char *s)
{
	int cells;

	fit(s, INT_MAX, &cells);
	return cells;
}

void ui_pad(struct sbuf *b, const char *s, int w)
{
	sb_puts(b, s);
	for (w -= ui_width(s); w > 0; w--)
		sb_putc(b, ' ');
}

/* Write s at (y, x) in at most w cells; s must be escaped already. */
int ui_put(int y, int x, int w, const char *s)
{
	int cells = 0;
	size_t n = w > 0 ? fit(s, w, &cells) : 0;

	if (n)
		mvaddnstr(y, x, s, (int)n);
	return cells;
}

int ui_put_right(int y, int x, int w, const char *s)
{
	int n = ui_width(s);

	return ui_put(y, x + (n < w ? w - n : 0), w, s);
}

int ui_put_cut(const struct ui *u, int y, int x, int w, const char *s,
	       enum cut how)
{
	const char *mark = u->t.utf8 ? "\u2026" : "...", *tail;
	int mw = u->t.utf8 ? 1 : 3, head, cells, tc;
	size_t n;

	if (ui_width(s) <= w || w <= mw)
		return ui_put(y, x, w, s);
	head = how == CUT_MIDDLE ? (w - mw + 1) / 2 : w - mw;
	n = fit(s, head, &cells);
	if (n)
		mvaddnstr(y, x, s, (int)n);
	mvaddstr(y, x + cells, mark);
	cells += mw;
	if (how == CUT_MIDDLE) {
		tail = fit_tail(s + n, w - cells, &tc);
		if (*tail)
			mvaddstr(y, x + cells, tail);
		cells += tc;
	}
	return cells;
}

/* Terminal-safe name: fmt_esc_text, plus \xNN for non-ASCII bytes
 * when the terminal is not UTF-8. */
void ui_esc(const struct ui *u, struct sbuf *b, const char *name)
{
	struct sbuf t;
	const unsigned char *p;

	if (u->t.utf8) {
		fmt_esc_text(b, name);
		return;
	}
	sb_init(&t);
	fmt_esc_text(&t, name);
	for (p = (const unsigned char *)sb_str(&t); *p; p++)
		if (*p >= 0x80)
			sb_printf(b, "\\x%02x", *p);
		else
			sb_putc(b, (char)*p);
	if (t.oom)
		b->oom = 1;
	sb_free(&t);
}

void pager_begin(struct pager *pg, struct ui *u, int *scroll)
{
	pg->u = u;
	pg->scroll = scroll;
	pg->line = 0;
	sb_init(&pg->b);
}

void pager_emit(struct pager *pg, unsigned attr)
{
	int top = UI_HEADER_ROWS(pg->u), y = top + pg->line - *pg->scroll;

	if (y >= top && y < LINES - 1) {
		attrset(attr);
		ui_put(y, 0, COLS, sb_str(&pg->b));
		attrset(A_NORMAL);
	}
	pg->line++;
	sb_reset(&pg->b);
}

void pager_line(struct pager *pg, unsigned attr, const char *s)
{
	sb_puts(&pg->b, s);
	pager_emit(pg, attr);
}

void pager_end(struct pager *pg)
{
	sb_free(&pg->b);
	if (*pg->scroll > 0 && *pg->scroll > pg->line - 1) {
		*pg->scroll = pg->line > 0 ? pg->line - 1 : 0;
		pg->u->dirty = 1;	/* scrolled past the end: draw again */
	}
}

int pager_key(const struct ui *u, int *scroll, enum action a)
{
	int page = LINES - UI_HEADER_ROWS(u) - 2;

	switch (a) {
	case A_UP: *scroll -= *scroll > 0; break;
	case A_DOWN: (*scroll)++; break;
	case A_PGUP: *scroll = *scroll > page ? *scroll - page : 0; break;
	case A_PGDN: *scroll += page; break;
	case A_HOME: *scroll = 0; break;
	case A_END: *scroll = 1 << 20; break;
	default: return 0;
	}
	return 1;
}

void ui_fill(int y, int x, int w)
{
	if (w > 0)
		mvhline(y, x, ' ', w);
}

int menu_top(struct menu_state *m, int n, int rows)
{
	if (rows < 1)
		rows = 1;
	if (m->sel >= n)
		m->sel = n - 1;
	if (m->sel < 0)
		m->sel = 0;
	if (m->top > m->sel)
		m->top = m->sel;
	if (m->sel >= m->top + rows)
		m->top = m->sel - rows + 1;
	if (m->top > n - rows)
		m->top = n > rows ? n - rows : 0;
	return m->top;
}

void menu_move(struct menu_state *m, enum action a, int n, int rows)
{
	switch (a) {
	case A_UP: m->sel--; break;
	case A_DOWN: m->sel++; break;
	case A_PGUP: m->sel -= rows > 1 ? rows - 1 : 1; break;
	case A_PGDN: m->sel += rows > 1 ? rows - 1 : 1; break;
	case A_HOME: m->sel = 0; break;
	case A_END: m->sel = n - 1; break;
	default: return;
	}
	menu_top(m, n, rows);
}

int menu_rows(const struct ui *u)
{
	return LINES - 1 - (UI_HEADER_ROWS(u) + 1);
}

void menu_row(const struct ui *u, int y, int selected, const char *text)
{
	attrset(selected ? ui_attr(u, CP_SELECT) : A_NORMAL);
	ui_fill(y, 0, COLS);
	ui_put(y, 0, COLS, text);
	attrset(A_NORMAL);
}
