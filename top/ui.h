/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ui.h - idletop's interactive view (ncurses). ui.c owns the main loop
 * and the dispatch, ui_term.c the terminal; ui_view.c turns a struct
 * report into visible rows (zoom, filter, collapse, sort, flat);
 * ui_trend.c keeps idle % history per cgroup; ui_text.c has the text
 * helpers; ui_rc.c the saved settings; one file per screen
 * (ui_header.c, ui_tree.c, ui_detail.c, ui_help.c, ui_columns.c,
 * ui_sortby.c) with x_draw()/x_key().
 * Screens only read the engine's report (engine_report()) and call
 * engine.h, which also reads the processes and host facts they show;
 * columns come from fields.h.
 */
#ifndef IDLETOP_UI_H
#define IDLETOP_UI_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include "engine.h"
#include "fields.h"
#include "fmt.h"
#include "keys.h"
#include "options.h"
#include "stats.h"

#define UI_MIN_COLS 60
#define UI_MIN_ROWS 10
/* ui_header.c: host, cycle, memory, crumbs, and a line per warning */
#define UI_HEADER_ROWS(u) header_rows(u)
#define TREND_LEN 8

enum color { CP_NORMAL, CP_HEADER, CP_TITLE, CP_SELECT, CP_HOT, CP_COLD,
	     CP_DIM, CP_NR };

struct view_row {
	size_t cg;		/* index into report.cg */
	int depth;		/* relative to the zoom root; 0 in flat view */
	int has_kids, collapsed, last;
	uint64_t more;		/* bit d: ancestor at depth d has a next sibling */
};

/* The rows of one report (rebuilt with every report). */
struct view {
	struct view_row *row;
	size_t n, cap;
	size_t root;		/* report index of the zoom root */
};

struct trend_ent {
	uint64_t ino;
	unsigned n;		/* valid samples, newest last */
	float pct[TREND_LEN];
};

struct trend {
	struct trend_ent *v;
	size_t n;
	uint64_t cycle;		/* last cycle recorded */
};

/* The terminal. */
struct term {
	int utf8, colors, too_small;
	volatile sig_atomic_t *stop;
};

/*
 * What the user chose: kept across reports, and the part the rc file
 * holds (columns, sort, units, view).  Selection and zoom are by path,
 * since indices change when cgroups come and go.
 */
struct view_state {
	struct field_set cols;	/* shown columns, NAME first implied */
	enum field_id sort;
	int sort_rev, unit, flat;
	char *sel_path, *zoom_path, *filter, *search;
	char **collapsed;
	size_t ncollapsed;
	size_t sel, top;	/* selected row, first row shown */
};

/* The part of view_state the rc file holds (ui_rc.c). */
struct rc_settings {
	struct field_set cols;
	enum field_id sort;
	int sort_rev, unit, flat;
};

/* Per-screen state. */
struct detail_state {
	int scroll;
	struct proc_list procs;
};

struct menu_state {		/* column chooser and sort menu */
	int sel;
	int top;		/* first entry drawn */
};

enum prompt_kind { P_NONE, P_FILTER, P_SEARCH, P_PERIOD, P_DELAY };

struct ui {
	struct term t;
	struct config *cfg;
	struct engine *e;
	const struct report *rep;	/* engine_report(e) */
	struct view_state vs;
	struct view view;
	struct trend trend;
	struct detail_state detail;
	int help_scroll;
	struct menu_state menu;
	unsigned screen;		/* S_TREE, S_DETAIL, ... */
	int quit, dirty, paused, rc_bad;
	struct rc_settings rc_file;	/* the rc file's (or the defaults) */
	struct rc_settings rc_start;	/* the session's first: + --fields */
	double delay;			/* refresh, seconds (-d, d) */
	double refresh_gap;		/* the last one's: >= delay (ui.c) */
	enum prompt_kind prompt;
	struct sbuf input;
	char msg[200];			/* one status line message */
	struct host_info host;		/* engine_host() */
	double cpu_pct, cpu_t, cpu_c;	/* own CPU %, last sample */
};

/* ui.c */
/* The interactive mode; returns the exit status (0: q, SIGINT, SIGTERM). */
int ui_run(struct engine *e, struct config *cfg, volatile sig_atomic_t *stop);
int ui_measured(const struct ui *u);
int ui_have_rep(const struct ui *u);
/* ui_prompt.c */
void ui_prompt(struct ui *u, enum prompt_kind k, const char *init);
void prompt_key(struct ui *u, int ch);

/* ui_term.c: set the terminal up; 0, or -1 with a message on stderr. */
struct screen;
int ui_term_start(struct ui *u, struct screen **scr);

/* ui_text.c */
void ui_msg(struct ui *u, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
unsigned ui_attr(const struct ui *u, enum color c);
void ui_fmt_size(const struct ui *u, struct sbuf *b, uint64_t bytes);
/*
 * Widths are display cells (wcwidth in the terminal's locale; a byte it
 * cannot decode is one cell).  ui_put writes s at (y, x) clipped to w
 * cells, ui_put_right ends it at x + w; both return the cells written.
 * ui_put_cut shows that s was clipped: "\u2026" ("..." without UTF-8)
 * at its end (CUT_END) or, for paths, in its middle (CUT_MIDDLE: the
 * start and the leaf stay).  ui_pad appends s and spaces up to w cells.
 */
enum cut { CUT_END, CUT_MIDDLE };
int ui_width(const char *s);
int ui_put(int y, int x, int w, const char *s);
int ui_put_right(int y, int x, int w, const char *s);
int ui_put_cut(const struct ui *u, int y, int x, int w, const char *s,
	       enum cut how);
void ui_pad(struct sbuf *b, const char *s, int w);
/*
 * A page of lines that scrolls (help, details): each line is built in
 * pg->b, then pager_emit() draws it if it is in the window between the
 * header and the status line, and empties pg->b.  pager_end() frees
 * pg->b and pulls a scroll past the last line back (a redraw).
 * pager_key() moves *scroll for Up, Down, PgUp, PgDn (a window less one
 * line), Home, End; 0 for any other action.
 */
struct pager {
	struct ui *u;
	int *scroll;		/* the first line shown */
	int line;		/* the line being written */
	struct sbuf b;
};
void pager_begin(struct pager *pg, struct ui *u, int *scroll);
void pager_emit(struct pager *pg, unsigned attr);
void pager_line(struct pager *pg, unsigned attr, const char *s);
void pager_end(struct pager *pg);
int pager_key(const struct ui *u, int *scroll, enum action a);
void ui_esc(const struct ui *u, struct sbuf *b, const char *name);
void ui_fill(int y, int x, int w);
const char *ui_unit_name(int unit);
/* Menus of n entries shown `rows` at a time: the first entry to draw,
 * the selection clamped and kept in view; a movement key; the rows below
 * the header and the menu's title; one entry's row at y. */
int menu_top(struct menu_state *m, int n, int rows);
void menu_move(struct menu_state *m, enum action a, int n, int rows);
int menu_rows(const struct ui *u);
void menu_row(const struct ui *u, int y, int selected, const char *text);
int ui_unit_parse(const char *s);

/* ui_view.c */
void view_build(struct ui *u);
void view_free(struct view *v);
void view_state_free(struct view_state *vs);
enum color view_idle_color(const struct ui *u, const struct cg_stat *s);
const char *view_col_name(enum field_id c);
void view_select(struct ui *u, size_t row);
int view_is_collapsed(const struct ui *u, const char *path);
int view_set_collapsed(struct ui *u, const char *path, int on);
const struct cg_stat *view_selected(const struct ui *u);
/* Next row from `from` (wrapping) whose name or path holds s, or -1. */
long view_find(const struct ui *u, const char *s, size_t from);
/* Step the sort through NAME and the shown sortable columns. */
void view_sort_step(struct ui *u, int step);

/* ui_trend.c */
int trend_update(struct trend *t, const struct report *r);
const struct trend_ent *trend_find(const struct trend *t, uint64_t ino);
void trend_free(struct trend *t);

/* ui_rc.c: the settings file, $XDG_CONFIG_HOME/idletop/idletoprc; none
 * (NULL) when neither it nor HOME is set, or when uid != euid */
char *rc_path(void);
/*
 * Load into vs: 0 (also when there is no file), or -1 with msg when the
 * file is ignored (a symlink, not a regular file, not ours, over 64 KiB,
 * a bad line): vs unchanged, and the file must not be written.
 */
int rc_load(struct view_state *vs, const char *path, char *msg, size_t len);
void rc_take(struct rc_settings *s, const struct view_state *vs);
/*
 * What to save: each setting that differs between start (the session's
 * first settings) and now, from now; the others as in file (the file's,
 * or the defaults), so that the command line's --fields is never saved.
 * 1 when out differs from file (something to write), else 0.
 */
int rc_merge(struct rc_settings *out, const struct rc_settings *file,
	     const struct rc_settings *start, const struct view_state *now);
/*
 * Write s to path, BASE/DIR/FILE: only when BASE is a directory of ours
 * (never made), DIR is one of ours (made, mode 0700, when missing) and
 * FILE none or a regular file of ours.  0, or -1 with msg.
 */
int rc_save(const struct rc_settings *s, const char *path, char *msg,
	    size_t len);

/* screens: draw the whole area below the header; key gets an action */
void header_draw(struct ui *u);
int header_rows(const struct ui *u);
void tree_draw(struct ui *u);
int tree_key(struct ui *u, enum action a);
void tree_mouse(struct ui *u, int y, int x, int wheel);
void detail_draw(struct ui *u);
int detail_key(struct ui *u, enum action a);
void help_draw(struct ui *u);
int help_key(struct ui *u, enum action a);
void columns_draw(struct ui *u);
int columns_key(struct ui *u, enum action a);
void sortby_draw(struct ui *u);
int sortby_key(struct ui *u, enum action a);

#endif
